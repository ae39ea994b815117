"""Reputation points and requisitions, with the once-a-day/week/month limits kept by game time."""

from __future__ import annotations

import pytest

from referee.core import DAY, Action, ActionError, RuleError
from referee.dice import ScriptedSource
from referee.systems.zweihander.reputation import (
    can_requisition,
    requisition,
    requisition_cost,
    starting_reputation,
    story_arc_reward,
)

from .helpers import act, table


def test_reputation_points() -> None:
    assert starting_reputation(0, 0) == 1
    assert starting_reputation(fate_points=2, disorders=1, story_arcs=[1, 3]) == 8
    with pytest.raises(RuleError, match=r"\+1 to \+3"):
        story_arc_reward(4)


def test_requisition_costs_and_examples() -> None:
    assert requisition_cost("minor") == 1
    assert requisition_cost("middling", 6) == 6
    with pytest.raises(RuleError, match="1-3"):
        requisition_cost("minor", 4)
    assert "Get out of jail for free" in requisition("major").examples


@pytest.mark.parametrize(("weight", "period"), [("minor", 1), ("middling", 7), ("major", 30)])
def test_requisition_thresholds(weight: str, period: int) -> None:
    assert can_requisition(weight, None, 0)
    assert not can_requisition(weight, 0, period * DAY - 1)
    assert can_requisition(weight, 0, period * DAY)


def test_requisition_limits_are_enforced_by_game_time() -> None:
    t = table({"anna": {"reputation": 10}})
    t = act(t, "anna", "requisition", weight="minor", cost=2, what="a barber surgeon")
    assert t.state.character("anna").reputation == 8
    with pytest.raises(RuleError, match="once a day"):
        act(t, "anna", "requisition", weight="minor")
    t = act(t, "anna", "requisition", weight="middling", cost=4)  # another weight is fine
    later = t.act(Action("anna", "requisition", {"weight": "minor"}), ScriptedSource([]), at=DAY)
    assert later.state.character("anna").reputation == 3
    with pytest.raises(RuleError, match="once a week"):
        t.act(
            Action("anna", "requisition", {"weight": "middling", "cost": 4}),
            ScriptedSource([]),
            at=6 * DAY,
        )


def test_a_requisition_needs_the_reputation() -> None:
    t = table({"anna": {"reputation": 1}})
    with pytest.raises(RuleError, match="needs 7"):
        act(t, "anna", "requisition", weight="major")


def test_story_arc_award() -> None:
    t = act(
        table({"anna": {"reputation": 1}}),
        "referee",
        "reputation.award",
        character="anna",
        story_arc=3,
    )
    assert t.state.character("anna").reputation == 4


@pytest.mark.parametrize("cost", ["two", 2.5, True])
def test_a_requisition_cost_that_is_not_a_whole_number_is_refused(cost: object) -> None:
    t = table({"anna": {"reputation": 10}})
    with pytest.raises(ActionError, match=r"requisition\.cost"):
        act(t, "anna", "requisition", weight="minor", cost=cost)


@pytest.mark.parametrize(
    ("sheet", "reputation"),
    [
        ({}, 2),  # 1 at the start, +1 for the Fate Point every character starts with
        ({"fate_points": 0}, 1),
        ({"fate_points": 2, "disorders": ["Hophead"]}, 4),
        ({"fate_points": 3, "reputation": 1}, 1),  # entered: kept as entered
    ],
)
def test_a_characters_reputation_at_setup_counts_fate_points_and_disorders(
    sheet: dict[str, object], reputation: int
) -> None:
    """Audit W3: "1 point at the start, +1 for each Fate Point, +1 for each Disorder"."""
    t = table({"anna": sheet})
    assert t.state.character("anna").reputation == reputation


def test_a_requisition_waits_from_the_last_one_not_from_the_start() -> None:
    """Reputation, Requisition: a minor requisition once a day, counted from the last one (on
    day 5, the next on day 6, not before)."""
    last = 5 * DAY
    assert not can_requisition("minor", last=last, now=last + DAY - 1)
    assert can_requisition("minor", last=last, now=last + DAY)
    assert not can_requisition("middling", last=last, now=last + 7 * DAY - 1)
