"""Defence: the roll (or the standing defence) against an attack or a manoeuvre, and spin.

Gin Lane, "Defence", "Success Levels" (spin), "Action: Full defence" (its bonus).
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's folds
(``after_*``, in ``FOLDS``) change the scene by event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.core import (
    Builder,
    CheckOdds,
    RuleError,
)
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import pay, place, resolve_tags, roll_spec
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
    OpposedRoll,
    Resolution,
)
from referee.systems.ginlane.scene import (
    SPIN_ASPECT,
    Combatant,
    PendingAttack,
    SceneFold,
    SceneState,
)
from referee.systems.ginlane.tables import skill as skill_entry

Announce = Callable[[DifficultyCheck | OpposedRoll, Resolution, str, CheckOdds], None]
"""Records the attacker's roll (its check, result, the defence skill and the exact odds)."""


def best_skill(target: Combatant, attack_skill: str, small: bool, track: str | None) -> str:
    """The defender's best skill the text allows against the attack (Agility on a tie): what
    she defends with if she does not say (Rulings)."""
    allowed = rules.defence_skills(attack_skill, small_weapon=small, track=track)
    return max(allowed, key=lambda s: (target.level(s), s == "Agility"))


DefenceCheck = OpposedRoll | DifficultyCheck
"""The check a defence answers: the roller's roll against hers (a grenade's blast: her roll
against its known total)."""


def defence_checks(
    state: SceneState,
    target: Combatant,
    spec: GinLaneRoll,
    attack_skill: str,
    *,
    small: bool = False,
    track: str | None = None,
    floor: int | None = None,
    long_range: bool = False,
) -> list[tuple[str, DefenceCheck]]:
    """Each skill the text allows ``target`` against a roll of ``spec`` with ``attack_skill``,
    her best first, with the check it would make (no Aspect tagged; Full defence's +2; At Long
    Range's free tag; a protecting Block's ``floor``): the odds as the roller has them."""
    bonus = rules.FULL_DEFENCE_BONUS if target.full_defence else 0
    allowed = rules.defence_skills(attack_skill, small_weapon=small, track=track)
    best = best_skill(target, attack_skill, small, track)
    out: list[tuple[str, DefenceCheck]] = []
    for skill in sorted(allowed, key=lambda s: (s != best, -target.level(s), s)):
        defence = GinLaneRoll(target.level(skill), mode=state.mode, modifier=bonus)
        if long_range:
            defence = evolved(defence, tags=1, free_tags=1)
        out.append((skill, OpposedRoll(spec, defence, floor)))
    return out


def standing_skill(
    target: Combatant, attack_skill: str, small: bool, track: str | None
) -> str | None:
    """A skill whose defence is still on the table in this Turn and may meet the attack (the
    highest), if any: "that result remains 'on the table' for any further uses of that
    particular defence in the Turn" ("Defence"; RULINGS.md, Round 3)."""
    allowed = rules.defence_skills(attack_skill, small_weapon=small, track=track)
    standing = [(total, s) for s, total in target.defences if s in allowed]
    return max(standing)[1] if standing else None


def defend(
    b: Builder[SceneState],
    attacker: Combatant,
    target: Combatant,
    spec: GinLaneRoll,
    attack_skill: str,
    defence: acts.Defence | None,
    *,
    small: bool = False,
    extra_free: int = 0,
    floor: int | None = None,
    track: str | None = None,
    dice: DiceSource,
    announce: Announce,
) -> tuple[Resolution, str]:
    """Roll (or reuse) the target's defence against an attack or manoeuvre ("Defence").

    ``announce`` records the attacker's roll, with its exact odds worked out before the
    dice were rolled, ahead of the defence's events.
    """
    skill = None if defence is None else defence.skill
    if skill is None:
        skill = standing_skill(target, attack_skill, small, track) or best_skill(
            target, attack_skill, small, track
        )
    skill = skill_entry(str(skill)).name
    if not rules.can_defend(skill, attack_skill, small_weapon=small, track=track):
        raise RuleError("Defence", f"{skill} can't defend against a {attack_skill} attack")
    standing = target.standing(skill)
    if standing is not None:
        standing_check = DifficultyCheck(spec, max(standing, floor or standing))
        odds = standing_check.odds()
        result = standing_check.roll(dice)
        announce(standing_check, result, skill, odds)
        b.emit(
            ev.DEFENCE_STANDS,
            {"character": target.id, "skill": skill, "total": standing},
        )
        return result, skill
    dtags = () if defence is None else defence.tags
    tags = resolve_tags(b.state, target, dtags, [attacker.id])
    bonus = rules.FULL_DEFENCE_BONUS if target.full_defence else 0
    dspec = roll_spec(b.state, target, skill, tags, bonus)
    if extra_free:
        dspec = evolved(dspec, tags=dspec.tags + extra_free, free_tags=dspec.free_tags + extra_free)
    opposed = OpposedRoll(spec, dspec, floor)
    odds = opposed.odds()
    result = opposed.roll(dice)
    assert result.opponent is not None
    announce(opposed, result, skill, odds)
    pay(b, target.id, tags, result.opponent)
    b.emit(
        ev.DEFENCE_ROLLED,
        {
            "character": target.id,
            "skill": skill,
            "total": result.opponent.total,
            "rolled": result.opponent.to_json(),
            "full_defence": target.full_defence,
        },
    )
    return result, skill


def spin(b: Builder[SceneState], defender: Combatant, *, against: Combatant) -> None:
    """Success Levels: a defence that beats the roll by 4 or more gets spin — a free tag for the
    defender's side on the roller, until the roller's next turn."""
    place(
        b,
        SPIN_ASPECT,
        on=against.id,
        setter=defender.id,
        free_side=defender.side,
        until_turn_of=against.id,
    )
    b.emit(ev.SPIN, {"character": defender.id, "against": against.id})


# -- the fold: the scene after a defence rolled


def after_defence_rolled(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Defence: the roll stands, in its skill, for further uses of that defence in this Turn;
    nothing waits for it any more, and a grenade's blast has one victim fewer to go."""
    me = state.get(str(d["character"]))
    defences = (
        *tuple(x for x in me.defences if x[0] != d["skill"]),
        (str(d["skill"]), int(d["total"])),
    )
    state = evolved(state.put(evolved(me, defences=defences)), pending=None)
    blast = state.blast
    if blast is not None and me.id in blast.left:
        left = tuple(c for c in blast.left if c != me.id)
        return evolved(state, blast=evolved(blast, left=left) if left else None)
    return state


def after_attack_declared(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """An attack (a manoeuvre, a bum's rush, a grenade's blast) waits for its target's
    defence."""
    pending = PendingAttack(
        str(d["character"]),
        str(d["target"]),
        str(d["skill"]),
        str(d.get("weapon", "")),
        str(d["track"]),
        int(d["modifier"]),
        str(d["params"]),
        kind=str(d.get("kind", "attack")),
        fuse=bool(d.get("fuse", False)),
    )
    return evolved(state, pending=pending)


def after_attack_answered(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """The attack (the manoeuvre, the rush) is rolled, or its target concedes: nothing waits
    for a defence."""
    return evolved(state, pending=None)


FOLDS: Mapping[str, SceneFold] = {
    ev.DEFENCE_ROLLED: after_defence_rolled,
    ev.ATTACK_DECLARED: after_attack_declared,
    ev.DEFENCE_ASKED: after_attack_declared,
    ev.ATTACK_ROLLED: after_attack_answered,
    ev.MANOEUVRE_ROLLED: after_attack_answered,
    ev.RUSH_ROLLED: after_attack_answered,
    ev.CONCEDED: after_attack_answered,
}
"""The scene after each event of this section."""


def ask_defence(
    b: Builder[SceneState],
    *,
    attacker: str,
    target: str,
    kind: str,
    skill: str,
    what: str,
    params: str,
    modifier: int = 0,
    track: str = "",
    fuse: bool = False,
) -> None:
    """Defence ("Choose a skill to defend with in response to an Attack or Manoeuvre"): the
    roll waits for ``target``'s answer (``defence.asked``; her ``defend`` prompt). ``params``
    is the action's parameters as JSON, to resolve it with once she has answered."""
    b.emit(
        ev.DEFENCE_ASKED,
        {
            "character": attacker,
            "target": target,
            "kind": kind,
            "skill": skill,
            "track": track,
            "modifier": modifier,
            "params": params,
            "fuse": fuse,
            "what": what,
        },
    )
