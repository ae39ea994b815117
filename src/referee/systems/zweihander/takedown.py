"""Takedowns (house rules, "Chase scene rules": "The Pursuer may attempt a Takedown").

"Takedowns are resolved as a Coordination Test (assuming a chase on foot)", at the difficulty
of the Condition table ("Capture an Escapee inside a busy tavern": Challenging −10%):

- the Pursuer critically fails: they reduce their Pursuit Value by 3;
- the Pursuer fails: they reduce their Pursuit Value by 1;
- the Pursuer critically succeeds: both them and the Escapee are taken out of the chase;
- the Pursuer succeeds: the Escapee tests Coordination as well; failing it, both are taken out.

>>> takedown_difficulty("busy tavern"), takedown_difficulty("Hard")
(-10, -20)
"""

from __future__ import annotations

import functools
from typing import Any

from referee.core import (
    Action,
    ActionSpec,
    Builder,
    Choice,
    OddsPreview,
    OneOf,
    Outcome,
    Params,
    RuleError,
    Who,
)
from referee.core.actions import Later
from referee.core.naming import possessive, title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.chase_scene import SECTION, chase_under_way, end_if_over
from referee.systems.zweihander.emit import test_card, test_json, test_preview
from referee.systems.zweihander.events import CHASE_TAKEDOWN
from referee.systems.zweihander.percentile import SkillTest, difficulty
from referee.systems.zweihander.state import ChaseState, Participant, ZweihanderState
from referee.systems.zweihander.tables import takedown_conditions

__all__ = [
    "CHASE_TAKEDOWN_SPEC",
    "Takedown",
    "attempt_takedown",
    "fold_takedown",
    "takedown_choices",
    "takedown_difficulty",
    "takedown_preview",
    "takedown_previews",
]

RULE = f"{SECTION} (Takedown)"


class Takedown(Params):
    """``chase.takedown``: the ``condition`` (words of the table, or a Difficulty Rating) if not
    the chase's; the ``skill`` the Pursuer tests and the ``escapee_skill`` the Escapee resists
    with (Coordination, "assuming a chase on foot": mounted, the GM names Ride, Drive …)."""

    condition: str | int | None = None
    skill: str = "Coordination"
    escapee_skill: str = "Coordination"


CHASE_TAKEDOWN_SPEC = ActionSpec(
    "chase.takedown",
    Takedown,
    section=RULE,
    who=Who.CHARACTER,
    summary="a Pursuer who caught up tests Coordination",
    record="everyone",
)


def takedown_difficulty(condition: str | int) -> int:
    """The Takedown's Coordination difficulty: a Difficulty Rating, or words from the table's
    Condition column ("busy tavern")."""
    if isinstance(condition, str):
        words = " ".join(condition.lower().split())
        rows = takedown_conditions()
        for row in rows:
            if words == row.difficulty.lower():
                return row.modifier
        found = [r for r in rows if words and words in r.condition.lower()]
        if len(found) == 1:
            return found[0].modifier
        if len(found) > 1:
            named = "; ".join(f"{r.difficulty}: {r.condition}" for r in found)
            raise RuleError(
                "Takedown (Coordination Test difficulty)",
                f"{condition!r} is in several conditions ({named}); say which",
            )
        try:
            return difficulty(condition)
        except RuleError:
            raise RuleError(
                "Takedown (Coordination Test difficulty)",
                f"{condition!r} is neither a Condition of the table nor a Difficulty Rating",
            ) from None
    return difficulty(condition)


def attempt_takedown(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.takedown``: a Pursuer who caught up tests; the Escapee may have to resist."""
    p = CHASE_TAKEDOWN_SPEC.of(action)
    actor = action.actor
    chase = chase_under_way(b.state, "chase.takedown")
    who = chase.participant(actor)
    if who.side != "pursuer" or who.caught is None or not who.is_in:
        raise RuleError("chase.takedown", f"{actor} has not caught up with an escapee")
    escapee = chase.participant(who.caught)
    if not escapee.is_in:
        raise RuleError("chase.takedown", f"{escapee.id} is no longer in the chase")
    tk = chase.takedown_difficulty if p.condition is None else takedown_difficulty(p.condition)
    test = SkillTest(b.state.character(actor).chance(p.skill), tk)
    result = test.roll(dice)
    payload: dict[str, Any] = {
        "participant": actor,
        "escapee": escapee.id,
        "test": test_json(test, result, p.skill),
    }
    label = f"{possessive(title_of(actor))} Takedown ({p.skill})"
    rolls = [test_card(test, result, label, RULE)]
    if result.outcome is Outcome.CRITICAL_FAILURE:
        payload.update(value=who.value - 3, result="the Pursuer reduces their Pursuit Value by 3")
    elif result.outcome is Outcome.FAILURE:
        payload.update(value=who.value - 1, result="the Pursuer reduces their Pursuit Value by 1")
    elif result.outcome is Outcome.CRITICAL_SUCCESS:
        payload.update(
            taken_out=[actor, escapee.id],
            result="both the Pursuer and the Escapee are taken out of the chase",
        )
    else:
        rolls.append(_escapee_resists(b.state, actor, escapee, p.escapee_skill, payload, dice))
    payload["rolls"] = rolls
    b.emit(CHASE_TAKEDOWN, payload)
    end_if_over(b)


def _escapee_resists(
    state: ZweihanderState,
    actor: str,
    escapee: Participant,
    skill: str,
    payload: dict[str, Any],
    dice: DiceSource,
) -> dict[str, Any]:
    """ "If the Pursuer succeeds, the Escapee must test Coordination as well. If they fail, both
    are taken out of the chase": the test into ``payload``, and its roll card."""
    test = SkillTest(state.character(escapee.id).chance(skill))
    result = test.roll(dice)
    payload["escapee_test"] = test_json(test, result, skill)
    if result.is_success:
        payload["result"] = "the Escapee passes their Coordination Test and stays in the chase"
    else:
        payload.update(
            taken_out=[actor, escapee.id],
            result="the Escapee fails: both are taken out of the chase",
        )
    return test_card(test, result, f"{escapee.id} resists ({skill})", RULE)


def fold_takedown(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.takedown``: the Pursuer's catch is spent; a new Value, or both taken down."""
    x = chase.participant(str(data["participant"]))
    x = evolved(x, caught=None, tackled=str(data["escapee"]))
    if "value" in data:
        x = evolved(x, value=int(data["value"]))
    chase = chase.with_participant(x)
    taken_out = data.get("taken_out", [])
    for pid in taken_out if isinstance(taken_out, list | tuple) else []:
        t = chase.participant(str(pid))
        chase = chase.with_participant(evolved(t, status="taken down", caught=None))
    return chase


def takedown_choices(state: ZweihanderState, me: Participant) -> list[Choice]:
    """A Pursuer who caught up may attempt a Takedown (on foot, with its odds)."""
    c = state.character(me.id)
    if me.caught is None or c.is_incapacitated:
        return []
    escapee = state.character(me.caught)
    if me.mode != "on foot" and c.skills and escapee.skills:
        # mounted or in a vehicle: the GM names the skills (Ride, Drive …)
        return [
            Choice(
                me.id,
                CHASE_TAKEDOWN_SPEC.kind,
                {
                    "skill": OneOf(tuple(sorted(c.skills))),
                    "escapee_skill": OneOf(tuple(sorted(escapee.skills))),
                },
                label=f"attempt a Takedown on {title_of(str(me.caught))} (name the skills)",
            )
        ]
    if "Coordination" in c.skills and "Coordination" in escapee.skills:
        chase = state.chase
        assert chase is not None
        return [
            Choice(
                me.id,
                CHASE_TAKEDOWN_SPEC.kind,
                odds=Later(functools.partial(_takedown_odds, state, chase, me.id)),
                label=f"attempt a Takedown on {title_of(str(me.caught))}",
            )
        ]
    return []


def _takedown_odds(state: ZweihanderState, chase: ChaseState, actor: str) -> tuple[OddsPreview]:
    """A Takedown choice's odds, worked out when read (:class:`~referee.core.actions.Later`):
    a simulated player, choosing at every step of thousands of chases, never reads them."""
    return (takedown_preview(state, chase, actor),)


def takedown_preview(state: ZweihanderState, chase: ChaseState, actor: str) -> OddsPreview:
    """The odds of ``actor``'s Takedown at the chase's Coordination difficulty."""
    test = SkillTest(state.character(actor).chance("Coordination"), chase.takedown_difficulty)
    return test_preview(test, f"{possessive(title_of(actor))} Takedown (Coordination)", RULE)


def takedown_previews(state: ZweihanderState) -> list[OddsPreview]:
    """The Takedowns about to be rolled (everyone sees a chase)."""
    chase = state.chase
    if chase is None or chase.ended is not None:
        return []
    return [
        takedown_preview(state, chase, x.id)
        for x in chase.participants
        if x.is_in
        and x.caught is not None
        and "Coordination" in state.character(x.id).skills
        and not state.character(x.id).is_incapacitated
    ]
