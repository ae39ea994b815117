"""A chase scene as a whole (house rules, "Chase scene rules"): whose turn it is on the Initiative
Ladder, and how the chase ends.

The chase ends on the Escape Condition (3, 6 or 9 Rounds have passed), when a side is all taken
down, exhausted or Slain!, or when a side gives up (``chase.give_up``). Every chase step ends by
asking whether the chase is over (:func:`end_if_over`), so the ending is logged by the step that
brought it about.

>>> from referee.systems.zweihander.state import ChaseState, Participant
>>> runners = (Participant("a", "escapee", "on foot", 6), Participant("b", "pursuer", "on foot", 6))
>>> ending(ChaseState(runners, escape_rounds=3, round=4))
'the Escape Condition is met (3 Rounds have passed)'
"""

from __future__ import annotations

from typing import Any, Literal

from referee.core import REFEREE, Action, ActionSpec, Builder, Params, RuleError, Who
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.events import CHASE_ENDED, CHASE_GAVE_UP
from referee.systems.zweihander.state import ChaseState, Participant, ZweihanderState

__all__ = [
    "CHASE_GIVE_UP",
    "ESCAPE_CONDITIONS",
    "SECTION",
    "SIDES",
    "GiveUp",
    "chase_under_way",
    "end_if_over",
    "ending",
    "fold_ended",
    "fold_gave_up",
    "give_up",
    "next_to_move",
]

SECTION = "Chase scene rules"
ESCAPE_CONDITIONS = (3, 6, 9)
"""The Escape Condition: 3, 6 or 9 Rounds have passed."""
SIDES = ("escapee", "pursuer")

SideName = Literal["escapees", "pursuers", "escapee", "pursuer"]
"""A side of the chase."""


class GiveUp(Params):
    """``chase.give_up``: the ``side`` that gives up."""

    side: SideName


CHASE_GIVE_UP = ActionSpec(
    "chase.give_up",
    GiveUp,
    section=f"{SECTION} (Ending the chase)",
    who=Who.CHARACTER,
    summary="a side gives up the chase",
    record="everyone",
)


def chase_under_way(state: ZweihanderState, kind: str) -> ChaseState:
    """The chase under way; :class:`RuleError` (naming the action ``kind``) if there is none."""
    if state.chase is None:
        raise RuleError(kind, "no chase is under way (start one with chase.start)")
    if state.chase.ended is not None:
        raise RuleError(kind, f"the chase has ended ({state.chase.ended})")
    return state.chase


def next_to_move(chase: ChaseState) -> Participant | None:
    """The participant still in the chase highest on the ladder who has not moved this Round."""
    for x in chase.participants:
        if x.is_in and not x.moved:
            return x
    return None


def give_up(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.give_up``: the GM, or a participant for their own side, gives up the chase."""
    kind = CHASE_GIVE_UP.kind
    chase = chase_under_way(b.state, kind)
    side = CHASE_GIVE_UP.of(action).side.rstrip("s")
    if action.actor != REFEREE:
        mine = next((x for x in chase.participants if x.id == action.actor), None)
        if mine is None or not mine.is_in:
            raise RuleError(
                kind, f"{title_of(action.actor)} is not in the chase and cannot give up"
            )
        if mine.side != side:
            raise RuleError(kind, f"{title_of(action.actor)} may give up only for the {mine.side}s")
    b.emit(CHASE_GAVE_UP, {"side": side, "round": chase.round})
    end_if_over(b)


def end_if_over(b: Builder[ZweihanderState]) -> None:
    """The chase ends as soon as a step meets an ending (:func:`ending`)."""
    chase = b.state.chase
    if chase is None or chase.ended is not None:
        return
    reason = ending(chase)
    if reason is not None:
        b.emit(CHASE_ENDED, {"reason": reason, "round": chase.round})


def ending(chase: ChaseState) -> str | None:
    """Why the chase is over, or ``None``: a side gave up, a side has nobody left in it, or the
    Escape Condition is met."""
    sides = [(side, chase.side(side)) for side in SIDES]
    for side, people in sides:
        if any(x.status == "gave up" for x in people):
            return f"the {side}s give up"
    for side, people in sides:
        if all(not x.is_in for x in people):
            statuses = {x.status for x in people}
            if statuses == {"taken down"} and side == "escapee":
                return "all escapees have been taken down"
            if statuses == {"exhausted"}:
                return f"all {side}s are exhausted"
            if statuses == {"slain"}:
                return f"all {side}s are Slain!"
            return f"no {side} remains in the chase"
    if chase.round > chase.escape_rounds:
        return f"the Escape Condition is met ({chase.escape_rounds} Rounds have passed)"
    return None


def fold_gave_up(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.gave_up``: everyone of the side still in it gave up."""
    side = str(data["side"])
    return evolved(
        chase,
        participants=tuple(
            evolved(x, status="gave up") if x.side == side and x.is_in else x
            for x in chase.participants
        ),
    )


def fold_ended(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.ended``: on the Escape Condition, or the pursuers out, the escapees in it escape."""
    reason = str(data["reason"])
    parts = chase.participants
    if "Escape Condition" in reason or "pursuer" in reason:
        parts = tuple(
            evolved(x, status="escaped") if x.side == "escapee" and x.is_in else x for x in parts
        )
    return evolved(chase, ended=reason, participants=parts)
