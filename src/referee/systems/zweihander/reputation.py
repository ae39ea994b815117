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
from typing import Literal

from pydantic import Field

from referee.core import (
    DAY,
    HOUR,
    REFEREE,
    Action,
    ActionSpec,
    Between,
    Builder,
    Choice,
    Event,
    GameTime,
    OneOf,
    Params,
    RuleError,
    Who,
    set_timer,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander import waits
from referee.systems.zweihander.emit import character_payload
from referee.systems.zweihander.events import (
    REPUTATION_AWARDED,
    REQUISITION_AVAILABLE,
    REQUISITION_MADE,
)
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import RequisitionWeight, requisition_weights

__all__ = [
    "REPUTATION_AWARD",
    "REQUISITION",
    "SPECS",
    "STARTING_REPUTATION",
    "THRESHOLDS",
    "can_requisition",
    "choices",
    "decide_reputation",
    "decide_requisition",
    "evolve",
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


# ------------------------------------------------------------------------------ at the table


class StoryArc(Params):
    """``reputation.award`` (the GM): the ``character`` and the ``story_arc``'s +1 to +3."""

    character: str
    story_arc: int = Field(ge=1, le=3)


class Requisition(Params):
    """``requisition``: its ``weight``, its ``cost`` in Reputation (the least of the weight's
    range if not given) and ``what`` is asked for."""

    weight: Literal["minor", "middling", "major"]
    cost: int | None = Field(default=None, ge=1, le=20)
    what: str = ""


REPUTATION_AWARD = ActionSpec(
    "reputation.award",
    StoryArc,
    section="Reputation points",
    who=Who.REFEREE,
    summary="+1 to +3 Reputation for a story arc",
    record="everyone",
)
REQUISITION = ActionSpec(
    "requisition",
    Requisition,
    section="Reputation points / Requisitions",
    who=Who.CHARACTER,
    summary="spend Reputation on a requisition: minor once a day, middling a week, major a month",
    record="everyone",
)
SPECS = (REPUTATION_AWARD, REQUISITION)
"""The actions of Reputation."""


def decide_reputation(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``reputation.award``."""
    p = REPUTATION_AWARD.of(action)
    c = b.state.character(p.character)
    pts = story_arc_reward(p.story_arc)
    after = evolved(c, reputation=c.reputation + pts)
    payload = {"character": c.id, "story_arc": pts}
    b.emit(REPUTATION_AWARDED, character_payload(b.state, payload, [after]))


def decide_requisition(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``requisition``: Reputation spent, and a timer for when this weight is allowed again."""
    p = REQUISITION.of(action)
    c = b.state.character(action.actor)
    row = requisition(p.weight)
    cost = requisition_cost(p.weight, p.cost)
    key = f"{c.id}:{p.weight}"
    if key in b.state.requisitions_pending:
        raise RuleError(
            "Requisitions (threshold)",
            f"{c.id} may make a {p.weight} requisition once a {row.threshold}",
        )
    if c.reputation < cost:
        raise RuleError("Requisitions", f"{c.id} has {c.reputation} Reputation, needs {cost}")
    after = evolved(c, reputation=c.reputation - cost)
    payload = {"character": c.id, "weight": p.weight, "cost": cost, "what": p.what}
    b.emit(REQUISITION_MADE, character_payload(b.state, payload, [after]))
    b.add(
        set_timer(
            f"requisition:{key}",
            Event(REQUISITION_AVAILABLE, {"character": c.id, "weight": p.weight}),
            after=THRESHOLDS[row.threshold],
            label=f"{title_of(c.id)} may make a {p.weight} requisition again",
        )
    )


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a requisition: pending until its timer fires."""
    d = event.data
    if event.kind == REQUISITION_MADE:
        key = f"{d['character']}:{d['weight']}"
        hours = THRESHOLDS[requisition(str(d["weight"])).threshold] // HOUR
        state = waits.wait(state, f"requisition:{key}", hours)
        return evolved(state, requisitions_pending=(*state.requisitions_pending, key))
    if event.kind == REQUISITION_AVAILABLE:
        key = f"{d['character']}:{d['weight']}"
        state = waits.release(state, f"requisition:{key}")
        return evolved(
            state, requisitions_pending=tuple(k for k in state.requisitions_pending if k != key)
        )
    return state


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The GM awards story arcs; a character may make each requisition they can afford and
    have not made within its threshold."""
    if actor == REFEREE:
        names = tuple(c.id for c in state.characters)
        if not names:
            return []
        return [
            Choice(
                actor,
                REPUTATION_AWARD.kind,
                {"character": OneOf(names), "story_arc": Between(1, 3)},
                label="Reputation for a story arc",
            )
        ]
    mine = [c for c in state.characters if c.id == actor]
    if not mine:
        return []
    c = mine[0]
    weights = tuple(
        w
        for w, row in requisition_weights().items()
        if f"{actor}:{w}" not in state.requisitions_pending and c.reputation >= row.cost[0]
    )
    if not weights:
        return []
    return [Choice(actor, REQUISITION.kind, {"weight": OneOf(weights)}, label="a requisition")]
