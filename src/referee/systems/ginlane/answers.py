"""Answers: what the target of an attack, a manoeuvre, a bum's rush or a grenade's blast
decides herself — her defence, and how she takes a hit.

Gin Lane, "Defence" ("Choose a skill to defend with in response to an Attack or Manoeuvre"),
"Releasing the Grapple" ("The opponent gets a defence in these cases"), "Grenades" (each in the
zone defends against the one attack), "Consequences" ("characters can chose to take a
Consequence instead"). The action waits (a blocking prompt to her seat) with the skills the
text allows against it, the Aspects she may tag and each skill's odds; the roller never
answers for her. Each kind's own rule resolves it in the module of its section.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from referee.core import Action, Builder, Choice, Domain, OneOf, Prompt, RuleError, SomeOf
from referee.core.actions import Later
from referee.core.naming import possessive_of, title_of
from referee.core.remembered import by_identity
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import consequences, fighting, grapple, grenades, manoeuvres
from referee.systems.ginlane.aspects import taggable
from referee.systems.ginlane.cards import check_preview
from referee.systems.ginlane.defence import DefenceCheck
from referee.systems.ginlane.rolls import TagMode
from referee.systems.ginlane.scene import Combatant, PendingAttack, SceneState
from referee.systems.ginlane.turns import end_turn_unless_asked

__all__ = ["absorb", "answer", "defence_choices", "defence_prompt"]

Resolve = Callable[[Builder[SceneState], PendingAttack, acts.Defence, DiceSource], None]
Checks = Callable[[SceneState, PendingAttack], list[tuple[str, DefenceCheck]]]

RESOLVE: Mapping[str, Resolve] = {
    "attack": fighting.answered,
    "manoeuvre": manoeuvres.answered,
    "rush": grapple.answered,
    "blast": grenades.answered,
}
"""Each kind of action waiting for a defence, and the rule that rolls it once she answers."""

CHECKS: Mapping[str, Checks] = {
    "attack": fighting.attack_checks,
    "manoeuvre": manoeuvres.manoeuvre_checks,
    "rush": grapple.rush_checks,
    "blast": grenades.blast_checks,
}
"""Each kind, and the checks each defence the text allows against it would make."""

NOUN: Mapping[str, str] = {
    "attack": "attack",
    "manoeuvre": "manoeuvre",
    "rush": "bum's rush",
    "blast": "grenade",
}


def _finish(b: Builder[SceneState], fuse: bool, dice: DiceSource) -> None:
    """A blast goes on to its next victim; then the turn passes unless something waits, or
    the answer was to a fizzled grenade's fuse (rolled before the thrower's Full Action)."""
    grenades.blast_on(b, dice)
    if not fuse:
        end_turn_unless_asked(b)


def answer(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Defence: the target's answer to what waits for her — the skill (one the text allows
    against it) and the Aspects she tags; then it is rolled."""
    pending = b.state.pending
    if pending is None or pending.target != action.actor:
        raise RuleError("Defence", f"no attack waits for {possessive_of(action.actor)} defence")
    RESOLVE[pending.kind](b, pending, acts.DEFEND.of(action), dice)
    _finish(b, pending.fuse, dice)


def absorb(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Consequences: the hit waiting for its target taken
    (:func:`~referee.systems.ginlane.consequences.absorb`); a blast goes on, the turn passes."""
    fuse = b.state.hit is not None and b.state.hit.fuse
    consequences.absorb(b, action, dice)
    _finish(b, fuse, dice)


@by_identity(4)
def _checks(state: SceneState) -> list[tuple[str, DefenceCheck]]:
    """The checks each defence allowed against what waits would make, worked out once per
    state (its prompt and its choices both read them)."""
    assert state.pending is not None
    return CHECKS[state.pending.kind](state, state.pending)


def defence_choices(state: SceneState, me: Combatant) -> list[Choice]:
    """Defence: what waits for ``me``: each skill the text allows against it (the best
    first), the Aspects she may tag, each skill's odds side by side; against an attack, or
    conceding. A blast's odds are her chance to beat its total under option a only (option b
    re-rolls to reach it, ruling 4, which no check here previews)."""
    pending = state.pending
    if pending is None or pending.target != me.id:
        return []
    checks = _checks(state)
    who = title_of(pending.attacker)
    noun = NOUN[pending.kind]
    roller = (
        f"{who} attacks"
        if pending.kind == "attack"
        else f"{possessive_of(pending.attacker)} {noun}"
    )
    shown = pending.kind != "blast" or state.mode is not TagMode.REROLL
    odds = Later(
        lambda: [
            check_preview(
                check, f"{roller}; {title_of(me.id)} defends with {skill}", rule="Defence"
            )
            for skill, check in checks
            if shown
        ]
    )
    params: dict[str, Domain] = {
        "skill": OneOf(tuple(skill for skill, _ in checks)),
        "tags": SomeOf(taggable(state, me, [pending.attacker])),
    }
    what = f"{pending.skill} attack" if pending.kind == "attack" else noun
    label = f"defend against {possessive_of(pending.attacker)} {what}"
    out = [Choice(me.id, "defend", params, odds=odds, label=label)]
    if pending.kind == "attack":
        out.append(Choice(me.id, "concede", label="concede before the roll: Taken Out"))
    return out


def defence_prompt(state: SceneState) -> Prompt | None:
    """What waits for its target: she chooses her defence; if she declines, her best allowed
    skill, no Aspect tagged (Rulings)."""
    pending = state.pending
    if pending is None:
        return None
    checks = _checks(state)
    target = state.get(pending.target)
    full = " (Full defence: +2)" if target.full_defence else ""
    if pending.kind == "attack":
        what = (
            f"{title_of(pending.attacker)} attacks {title_of(pending.target)} with the "
            f"{pending.weapon} ({pending.skill})"
        )
    elif pending.kind == "blast":
        what = (
            f"{possessive_of(pending.attacker)} grenade attacks {title_of(pending.target)} "
            f"with {json.loads(pending.params)['attack']} ({pending.track})"
        )
    else:
        what = f"{possessive_of(pending.attacker)} {NOUN[pending.kind]} ({pending.skill})"
    return Prompt(
        pending.target,
        ("defend", "concede") if pending.kind == "attack" else ("defend",),
        "Defence",
        f"{what}: choose a defence{full}",
        default=Action(pending.target, "defend", {"skill": checks[0][0]}),
    )
