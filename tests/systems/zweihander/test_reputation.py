"""Reputation points and requisitions, with the once-a-day/week/month limits kept by game time."""

from __future__ import annotations

import pytest

from referee.core import DAY, Action, ActionError, Between, Choice, OneOf, RuleError
from referee.dice import ScriptedSource
from referee.systems.zweihander import reputation
from referee.systems.zweihander.reputation import (
    can_requisition,
    requisition,
    requisition_cost,
    starting_reputation,
    story_arc_reward,
)

from .helpers import act, last, table


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


def test_a_story_arc_award_is_recorded_with_its_character_and_points() -> None:
    """Reputation points: +1 to +3 for a story arc."""
    t = act(
        table({"anna": {"reputation": 1}}),
        "referee",
        "reputation.award",
        character="anna",
        story_arc=2,
    )
    assert last(t, "reputation.awarded") == {
        "character": "anna",
        "story_arc": 2,
        "characters": {"anna": {"reputation": 3}},
    }


def test_a_requisition_may_spend_the_last_reputation_point() -> None:
    """Requisitions: a character with exactly the cost may make it (and has none left)."""
    t = act(
        table({"anna": {"reputation": 7}}), "anna", "requisition", weight="major", what="a pardon"
    )
    assert t.state.character("anna").reputation == 0
    made = last(t, "requisition.made")
    assert {k: made[k] for k in ("character", "weight", "cost", "what")} == {
        "character": "anna",
        "weight": "major",
        "cost": 7,
        "what": "a pardon",
    }


def test_a_requisition_waits_a_whole_number_of_hours_and_is_released_when_available() -> None:
    """Requisitions: a middling one once a week (168 hours of game time); when the week is over,
    nothing is pending or waited."""
    t = act(table({"anna": {"reputation": 10}}), "anna", "requisition", weight="middling")
    assert t.state.waits == (("requisition:anna:middling", 168),)
    assert isinstance(t.state.waits[0][1], int)
    assert t.state.requisitions_pending == ("anna:middling",)
    later = t.act(
        Action("anna", "requisition", {"weight": "minor"}), ScriptedSource([]), at=7 * 86400
    )
    assert later.state.waits == (("requisition:anna:minor", 24),)
    assert later.state.requisitions_pending == ("anna:minor",)


def test_the_gm_awards_story_arcs_to_any_character_and_a_character_asks_what_they_can_afford() -> (
    None
):
    """Reputation points / Requisitions: the GM gives +1 to +3 to a character; a character is
    offered each weight they can afford (its least cost) and have not made within its
    threshold."""
    t = table({"anna": {"reputation": 4}, "bert": {"reputation": 0}})
    assert reputation.choices(t.state, "referee") == [
        Choice(
            "referee",
            "reputation.award",
            {"character": OneOf(("anna", "bert")), "story_arc": Between(1, 3)},
            label="Reputation for a story arc",
        )
    ]
    assert reputation.choices(t.state, "anna") == [
        Choice(
            "anna", "requisition", {"weight": OneOf(("minor", "middling"))}, label="a requisition"
        )
    ]
    assert reputation.choices(t.state, "bert") == []
    assert reputation.choices(t.state, "nobody") == []
    rich = act(table({"anna": {"reputation": 10}}), "anna", "requisition", weight="minor")
    assert reputation.choices(rich.state, "anna") == [
        Choice(
            "anna", "requisition", {"weight": OneOf(("middling", "major"))}, label="a requisition"
        )
    ]
    assert reputation.choices(table({}).state, "referee") == []
