"""Reputation points and requisitions (house rules, "Reputation points").

Reputation: 1 point at the start, +1 for each Fate Point, +1 for each Disorder, +1 to +3 for
each story arc. Requisitions are minor (1–3 points), middling or major; a character may make a
minor requisition once a day, a middling one once a week, a major one once a month.

>>> starting_reputation(fate_points=1, disorders=0, story_arcs=[2])
4
>>> requisition_cost("minor", 2)
2
>>> can_requisition("minor", last=0, now=DAY - 1), can_requisition("minor", last=0, now=DAY)
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core import DAY, GameTime, RuleError
from referee.systems.zweihander.tables import RequisitionWeight, requisition_weights

__all__ = [
    "STARTING_REPUTATION",
    "THRESHOLDS",
    "can_requisition",
    "requisition",
    "requisition_cost",
    "starting_reputation",
    "story_arc_reward",
]

STARTING_REPUTATION = 1
"""1 point at the start."""

THRESHOLDS: dict[str, GameTime] = {"day": DAY, "week": 7 * DAY, "month": 30 * DAY}
"""How long between two requisitions of one weight (a month is 30 days: Referee's ruling)."""


def story_arc_reward(points: int) -> int:
    """A story arc's Reputation reward: +1 to +3."""
    if not 1 <= points <= 3:
        raise RuleError("Reputation points", f"a story arc gives +1 to +3, not {points:+d}")
    return points


def starting_reputation(fate_points: int, disorders: int, story_arcs: Sequence[int] = ()) -> int:
    """1 + 1 per Fate Point + 1 per Disorder + each story arc's 1 to 3."""
    return (
        STARTING_REPUTATION + fate_points + disorders + sum(story_arc_reward(a) for a in story_arcs)
    )


def requisition(weight: str) -> RequisitionWeight:
    """The requisition weight by name (minor, middling, major), with its examples."""
    table = requisition_weights()
    if weight not in table:
        raise RuleError(
            "Requisitions", f"a requisition is minor, middling or major, not {weight!r}"
        )
    return table[weight]


def requisition_cost(weight: str, cost: int | None = None) -> int:
    """The Reputation a requisition costs: ``cost`` if given (within the weight's range), else the
    least of its range."""
    low, high = requisition(weight).cost
    if cost is None:
        return low
    if not low <= cost <= high:
        raise RuleError(
            "Requisitions", f"a {weight} requisition costs {low}-{high} points, not {cost}"
        )
    return cost


def can_requisition(weight: str, last: GameTime | None, now: GameTime) -> bool:
    """True when a requisition of ``weight`` is allowed ``now``, the last one being at ``last``:
    once a day (minor), a week (middling) or a month (major)."""
    if last is None:
        return True
    return now - last >= THRESHOLDS[requisition(weight).threshold]
