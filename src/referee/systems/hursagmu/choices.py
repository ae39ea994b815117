"""What each seat may do now, with real domains and the odds of the rolls it would make.

DESIGN.md, "The table contract": :func:`legal_actions` offers, for each action kind open to an
actor, only values the rules allow as far as the state tells: the stances, the characters one
may attack or race, plans whose skills fit the stance declared at Initiative, the hits one has
to push. :func:`actors` is whose move it is. The secret rolls (``perceive``, ``sneak``) carry
no odds previews: their odds would tell a player another character's Perception.

>>> from referee.systems.hursagmu.setup import encounter_from_setup
>>> state = encounter_from_setup({"characters": {"bob": {}, "fred": {}}})
>>> actors(state), [c.kind for c in legal_actions(state, "bob")]
(('bob', 'fred'), ['round_zero', 'initiative', 'push', 'race', 'sneak'])
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from referee.core import (
    REFEREE,
    Between,
    Choice,
    OddsPreview,
    OneOf,
    OpposedCheck,
    RuleError,
    SomeOf,
    TargetCheck,
    TieRule,
)
from referee.core.actions import Later
from referee.core.naming import possessive, title_of
from referee.core.naming import possessive_of as _own
from referee.core.values import Json
from referee.systems.hursagmu.action_phase import ranged_ability
from referee.systems.hursagmu.combat import attack_check, defence_declared, response
from referee.systems.hursagmu.initiative import initiative_check
from referee.systems.hursagmu.movement import race_check, range_challenge
from referee.systems.hursagmu.recovery import round_done
from referee.systems.hursagmu.round_plan import plan_domain
from referee.systems.hursagmu.rounds import DefenceResponse, StepKind, defence_skill
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import (
    Encounter,
    Pending,
    can_take_turn,
    next_index,
    on_turn,
)

__all__ = ["actors", "initiative_odds", "legal_actions", "previews"]

STANCES: tuple[Json, ...] = tuple(s.value for s in Stance)
SENSES: tuple[Json, ...] = ("vision", "hearing", "smell", "divination")
BOTH: tuple[Json, ...] = (True, False)


def actors(state: Encounter) -> tuple[str, ...]:
    """Whose move it is: the target of a pending attack; the characters still to roll
    Initiative; those on turn and those waiting; the Master when the round may end."""
    if state.pending is not None:
        return (state.pending.target,)
    live = [w for w, f in state.fighters.items() if f.conscious]
    if state.phase == "initiative":
        return tuple(w for w in live if state.fighters[w].initiative is None)
    movers = [
        w
        for w in live
        if can_take_turn(state, w) or (state.fighters[w].waiting and not state.fighters[w].acted)
    ]
    if round_done(state):
        movers.append(REFEREE)
    return tuple(dict.fromkeys(movers))


def _next_step_odds(state: Encounter, who: str) -> tuple[OddsPreview, ...]:
    f = state.fighters[who]
    index = next_index(f)
    if f.plan is None or index is None:
        return ()
    step = f.plan[index]
    mode = state.options.defence
    if step.kind is StepKind.TASK and step.skill is not None:
        check = f.roll_of(step.skill, mode).against(step.challenge)
        return (
            OddsPreview.of(check, f"{title_of(who)}: {step.name or step.skill}", rule="Action"),
        )
    if step.kind is StepKind.MOVE and step.roll_skill is not None:
        check = f.roll_of(step.roll_skill, mode).against(step.challenge)
        return (OddsPreview.of(check, f"{_own(who)} {step.roll_skill}", rule="Movement"),)
    target = step.target
    if step.kind is StepKind.ATTACK and target is not None and target in state.fighters:
        assert step.skill is not None
        try:
            challenge = range_challenge(step.yards, ranged_ability(f, step)) if step.yards else 0
        except RuleError:
            return ()
        answer, _ = response(state, target, step.skill)
        p = Pending(who, target, step.skill, challenge, answer)
        label = f"{_own(who)} {step.skill} against {title_of(target)}"
        odds = [
            OddsPreview.of(
                attack_check(state, p, defended=False), f"{label}, undefended", rule="Action"
            )
        ]
        if answer is DefenceResponse.DEFEND:
            odds.insert(
                0,
                OddsPreview.of(
                    attack_check(state, p, defended=True),
                    f"{possessive(label)} {defence_skill(step.skill)}",
                    rule="Action",
                ),
            )
        return tuple(odds)
    return ()


def _pending_odds(
    state: Encounter, who: str
) -> tuple[tuple[OddsPreview, ...], tuple[OddsPreview, ...]]:
    """The odds of the attack pending on ``who``: defended, and taken undefended."""
    p = state.pending
    assert p is not None
    label = f"{_own(p.attacker)} {p.skill} against {title_of(who)}"
    taken = (
        OddsPreview.of(
            attack_check(state, p, defended=False), f"{label}, undefended", rule="Action"
        ),
    )
    if p.response is DefenceResponse.NONE:
        return (), taken
    needed = defence_skill(p.skill)
    # The defence is rolled with the round's penalty as it will stand: after aborting, or
    # (if he has declared nothing yet) with the defence declared alone.
    alone = state.fighters[who].plan is None and p.response is DefenceResponse.DEFEND
    try:
        _, then = defence_declared(state, [{"defend": needed}] if alone else None)
    except RuleError:
        then = state
    how = f"{needed}, declared alone" if alone else needed
    if p.response is DefenceResponse.ABORT:
        how = f"{needed}, aborting his turn"
    defended = (
        OddsPreview.of(
            attack_check(then, p, defended=True), f"{possessive(label)} {how}", rule="Action"
        ),
    )
    return defended, taken


def legal_actions(state: Encounter, actor: str) -> Sequence[Choice]:
    """The choices open to ``actor`` now (the Master's as ``"referee"``)."""
    if actor == REFEREE:
        return _referee(state)
    if actor not in state.fighters or not state.fighters[actor].conscious:
        return ()
    if state.pending is not None:
        return _answers(state, actor)
    return (
        *_opening_choices(state, actor),
        *_action_choices(state, actor),
        *_any_time_choices(state, actor),
    )


def _answers(state: Encounter, actor: str) -> tuple[Choice, ...]:
    """The target of a pending attack defends or takes it ("Action"); nobody else acts."""
    p = state.pending
    assert p is not None
    if p.target != actor:
        return ()
    f = state.fighters[actor]
    pending = functools.cache(lambda: _pending_odds(state, actor))  # both, when first read
    params = {}
    needed = defence_skill(p.skill)
    if f.plan is None and p.response is DefenceResponse.DEFEND:
        params = {"actions": plan_domain(state, actor, defence=needed)}
    elif p.response is DefenceResponse.ABORT:
        other = Stance.MANEUVER if needed == "defense" else Stance.CONCENTRATE
        params = {"actions": plan_domain(state, actor, defence=needed, stance=other)}
    return (
        Choice(actor, "defend", params, odds=Later(lambda: pending()[0]), label="defend"),
        Choice(actor, "take", odds=Later(lambda: pending()[1]), label="take the attack"),
    )


def _opening_choices(state: Encounter, actor: str) -> list[Choice]:
    """Round Zero, before the conflict begins; Initiative, in its phase."""
    f = state.fighters[actor]
    others = tuple(w for w in state.fighters if w != actor)
    choices: list[Choice] = []
    if not state.started and state.round == 1:
        choices.append(
            Choice(
                actor,
                "round_zero",
                {
                    "stance": OneOf(STANCES),
                    "with": SomeOf(others),
                    "surprised": SomeOf(others),
                },
                label="open the conflict (round zero)",
            )
        )
    if state.phase == "initiative" and f.initiative is None:
        rolls = {s: initiative_check(state, actor, s)[0].side.expression for s in Stance}
        label = (
            "acts first (held over)"
            if f.held_over
            else f"maneuver (Quickness {rolls[Stance.MANEUVER]}) or concentrate "
            f"(Command {rolls[Stance.CONCENTRATE]})"
        )
        choices.append(
            Choice(
                actor,
                "initiative",
                {"stance": OneOf(STANCES)},
                odds=() if f.held_over else Later(lambda: initiative_odds(state, actor)),
                label=label,
            )
        )
    return choices


def initiative_odds(state: Encounter, actor: str) -> tuple[OddsPreview, ...]:
    """The odds of ``actor``'s Initiative roll, each stance against each other conscious
    character ("Whoever rolls the highest Initiative gets to go first"): against an Initiative
    already rolled, of going before it (a tie acts together, ruling 9); against one still to
    roll, of coming out ahead of the same roll of his (as a race: ahead, tie, behind). One held
    over acts first whatever is rolled."""
    out: list[OddsPreview] = []
    for stance in Stance:
        roll, _ = initiative_check(state, actor, stance)
        skill = stance.initiative_skill.capitalize()
        for other, g in state.fighters.items():
            if other == actor or not g.conscious:
                continue
            name = title_of(other)
            if g.held_over:
                continue  # he acts first: no roll of ours passes him
            if g.initiative is not None:
                check: TargetCheck | OpposedCheck = roll.against(g.initiative + 1)
                what = f"before {possessive(name)} Initiative {g.initiative}"
            else:
                theirs = g.sheet.skill_roll(stance.initiative_skill)
                check = OpposedCheck(roll.side, theirs.side, TieRule.TIE)
                what = f"ahead of {possessive(name)} {skill}, if he {stance.value}s too"
            out.append(
                OddsPreview.of(
                    check, f"{title_of(actor)} {stance.value}s ({skill}): {what}", rule="Initiative"
                )
            )
    return tuple(out)


def _action_choices(state: Encounter, actor: str) -> list[Choice]:
    """The Action phase on one's turn: declare, take the next step, wait; hold a wait over
    ("Waiting")."""
    f = state.fighters[actor]
    choices: list[Choice] = []
    if state.phase == "action" and can_take_turn(state, actor):
        if f.plan is None:
            choices.append(
                Choice(
                    actor,
                    "declare",
                    {"actions": plan_domain(state, actor)},
                    label="declare the round's actions",
                )
            )
        elif next_index(f) is not None:
            choices.append(
                Choice(
                    actor,
                    "act",
                    odds=Later(lambda: _next_step_odds(state, actor)),
                    label="take the next declared step",
                )
            )
        if not f.waiting and actor in on_turn(state):
            choices.append(Choice(actor, "wait", label="wait"))
    if f.waiting and not f.acted and not f.holding:
        choices.append(Choice(actor, "hold", label="hold the action over"))
    return choices


def _any_time_choices(state: Encounter, actor: str) -> list[Choice]:
    """Pushing Power, a race ("Movement"), sneaking ("Perception and Observation")."""
    f = state.fighters[actor]
    others = tuple(w for w in state.fighters if w != actor)
    awake = tuple(w for w in others if state.fighters[w].conscious)
    choices: list[Choice] = []
    if f.hits > 0:
        choices.append(Choice(actor, "push", {"hits": Between(1, f.hits)}, label="push power"))
    if awake:
        choices.append(
            Choice(
                actor,
                "race",
                {"against": OneOf(awake)},
                odds=Later(
                    lambda: [
                        OddsPreview.of(
                            _race(state, actor, w),
                            f"{title_of(actor)} races {title_of(w)}",
                            rule="Movement",
                        )
                        for w in awake
                    ]
                ),
                label="race",
            )
        )
    if others:
        choices.append(
            Choice(
                actor,
                "sneak",
                {"perceiver": OneOf(others), "skill": OneOf(("stealth", "shadowing"))},
                label="sneak (in secret)",
            )
        )
    return choices


def _race(state: Encounter, who: str, other: str) -> OpposedCheck:
    mine = state.fighters[who].sheet.skill_roll("quickness").bonus
    theirs = state.fighters[other].sheet.skill_roll("quickness").bonus
    return race_check(mine, theirs)


def _referee(state: Encounter) -> tuple[Choice, ...]:
    everyone = tuple(state.fighters)
    awake = tuple(w for w, f in state.fighters.items() if f.conscious)
    rulings = _rulings(everyone, awake)
    if state.phase == "action" and state.pending is None and round_done(state):
        return (Choice(REFEREE, "end_round", label="end the round (Recovery)"), *rulings)
    return rulings


@functools.lru_cache(maxsize=64)
def _rulings(everyone: tuple[str, ...], awake: tuple[str, ...]) -> tuple[Choice, ...]:
    """The Master's rulings at any time: Health and Sanity, a secret roll of the senses (the
    same for the same fighters, awake or not: built once)."""
    choices = [
        Choice(
            REFEREE,
            "condition",
            {
                "character": OneOf(everyone),
                "health_ok": OneOf(BOTH),
                "sanity_ok": OneOf(BOTH),
            },
            label="rule Health and Sanity",
        )
    ]
    if awake:
        choices.append(
            Choice(
                REFEREE,
                "perceive",
                {
                    "character": OneOf(awake),
                    "skill": OneOf(("perception", "observation", "divination")),
                    "challenge": Between(0, 18),
                    "sense": OneOf(SENSES),
                    "yards": Between(0, 100),
                    "asleep": OneOf(BOTH),
                    "soft": OneOf(BOTH),
                },
                label="a secret roll of the senses",
            )
        )
    return tuple(choices)


def previews(state: Encounter, viewer: str, *, is_referee: bool) -> tuple[OddsPreview, ...]:
    """The odds of the attack pending, defended and undefended, for the referee and the
    target (whose ``defend`` and ``take`` choices carry the same odds)."""
    p = state.pending
    if p is None or not (is_referee or viewer == p.target):
        return ()
    defended, taken = _pending_odds(state, p.target)
    return (*defended, *taken)
