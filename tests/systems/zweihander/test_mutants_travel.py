"""Mutation testing, round 4 (second wave): the survivors of `overland.py` and `reputation.py`
(and of `chase.py` and `wilderness.py` as far as reached) — each test names the rule it pins."""

from __future__ import annotations

import pytest

from referee.core import Action, Between, Choice, OneOf, RuleError, SomeOf, Table
from referee.dice import ScriptedSource
from referee.systems.zweihander import overland, reputation
from referee.systems.zweihander.chase import takedown_difficulty
from referee.systems.zweihander.overland import Leg, Route
from referee.systems.zweihander.state import ZweihanderState

from .helpers import act, last, table
from .test_chase import CHASER, RUNNER, caught, play_round, start

# ------------------------------------------------------------------------------ overland.py


def test_a_route_from_a_file_keeps_every_field_each_leg_names() -> None:
    """Overland exploration / Distance: a leg's transport, route, Forced march, current and bad
    weather, as the file writes them (the defaults apply only to what a leg leaves out)."""
    route = Route.from_data(
        {
            "legs": [
                {
                    "distance": 50,
                    "transport": "horse",
                    "route": "path",
                    "forced_march": True,
                    "bad_weather": True,
                },
                {"distance": 60, "transport": "river barge", "route": "river", "current": -5},
            ]
        }
    )
    assert route.legs == (
        Leg(50, "horse", "path", True, 0, True),
        Leg(60, "river barge", "river", False, -5, False),
    )
    assert [leg.miles_per_day for leg in route.legs] == [
        overland.miles_per_day("horse", "path", forced_march=True, bad_weather=True),
        overland.miles_per_day("river barge", "river", current=-5),
    ]
    assert route.distance == 110


def test_a_forced_march_event_names_the_toughness_test_and_its_roll_card() -> None:
    """Overland exploration / Forced march: each marcher's Hard (-20%) Toughness Test, shown as
    "<who> force-marches" under the rule "Forced march"; a failure sets the 24-hour timer named
    for the marcher."""
    t = table({"g": {"skills": {"Toughness": 45}}})
    t = act(t, "referee", "travel.forced_march", [80], characters=["g"])
    marched = last(t, "travel.forced_march")
    assert marched["test"]["skill"] == "Toughness"
    assert marched["test"]["difficulty_rating"] == "Hard"
    assert (marched["roll"]["label"], marched["roll"]["rule"]) == (
        "G force-marches",
        "Forced march",
    )
    assert marched["roll"]["dice"] == "d100 ≤ 25"
    assert marched["incapacitated"] is True
    timer = last(t, "timer.set")
    assert (timer["name"], timer["after"]) == ("forced-march:g", 24 * 3600)
    assert timer["event"]["kind"] == "travel.recovery_allowed"
    assert timer["event"]["payload"] == {"character": "g"}
    assert t.state.waits == (("forced-march:g", 24),)
    assert t.state.no_recovery == ("g",)


def test_a_marcher_who_passes_keeps_recovering_and_waits_for_nothing() -> None:
    """Forced march: only a failed Toughness Test stops recovery for 24 hours."""
    t = table({"g": {"skills": {"Toughness": 45}}})
    t = act(t, "referee", "travel.forced_march", [20], characters=["g"])
    assert last(t, "travel.forced_march")["incapacitated"] is False
    assert (t.state.no_recovery, t.state.waits) == ((), ())


def test_recovery_allowed_again_clears_the_marchers_wait() -> None:
    """Forced march: once the 24 hours are over, the marcher recovers and nothing is waited."""
    t = table({"g": {"skills": {"Toughness": 45}}})
    t = act(t, "referee", "travel.forced_march", [80], characters=["g"])
    later = t.act(
        Action("referee", "reputation.award", {"character": "g", "story_arc": 1}),
        ScriptedSource([]),
        at=24 * 3600,
    )
    assert (later.state.no_recovery, later.state.waits) == ((), ())


def test_the_gm_calls_a_forced_march_for_those_able_to_test_toughness() -> None:
    """Forced march: a Toughness Test each; who lacks Toughness, or is Incapacitated!, is not
    offered; a player is never offered it, nor is the GM with nobody able."""
    t = table(
        {
            "g": {"skills": {"Toughness": 45}},
            "s": {"skills": {"Toughness": 40}},
            "n": {"skills": {"Survival": 50}},
        }
    )
    assert overland.choices(t.state, "referee") == [
        Choice(
            "referee",
            "travel.forced_march",
            {"characters": SomeOf(("g", "s"), least=1)},
            label="a forced march",
        )
    ]
    assert overland.choices(t.state, "g") == []
    t = act(t, "referee", "travel.forced_march", [80], characters=["s"])
    assert overland.choices(t.state, "referee") == [
        Choice(
            "referee",
            "travel.forced_march",
            {"characters": SomeOf(("g",), least=1)},
            label="a forced march",
        )
    ]
    assert overland.choices(table({"n": {"skills": {"Survival": 50}}}).state, "referee") == []


# ------------------------------------------------------------------------------ reputation.py


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


# ------------------------------------------------------------------------------ chase.py


@pytest.mark.parametrize("kind", ["chase.takedown", "chase.end_round"])
def test_a_chase_step_with_no_chase_under_way_is_refused_under_its_own_name(kind: str) -> None:
    """Chase scene rules: a Takedown or a Round's end needs a chase under way; the refusal names
    the step that was refused."""
    params = {"condition": None} if kind == "chase.takedown" else {}
    with pytest.raises(RuleError, match=rf"^{kind}: no chase is under way"):
        act(
            table({"runner": RUNNER, "chaser": CHASER}),
            "referee" if kind.endswith("round") else "chaser",
            kind,
            **params,
        )


def test_a_failed_fatigue_test_is_recorded_with_its_toughness_test_card_and_peril_dice() -> None:
    """Chase scene rules (Fatigue): past the [BB] in Rounds, a Toughness Test; a Failure rolls
    2D10 + 2 physical Peril, and the event keeps the dice; each Round's end is recorded with its
    number."""
    t = start(escape_condition=6)
    t = play_round(t, [9, 1], [1])
    assert last(t, "chase.round_ended") == {"round": 1}
    t = play_round(t, [9, 1], [1, 60, 10, 10])
    data = last(t, "chase.fatigue")
    assert data["test"]["skill"] == "Toughness"
    assert (data["roll"]["label"], data["roll"]["rule"]) == (
        "Chaser resists fatigue",
        "Chase scene rules (Fatigue)",
    )
    assert (data["peril"], data["peril_faces"], data["exhausted"]) == (22, [10, 10], False)
    assert last(t, "chase.round_ended") == {"round": 2}


def _a_runner_chased_by_two() -> Table[ZweihanderState]:
    """A chase on foot: the runner (escape condition 6) ahead of the chaser and a hound (a
    chaser with more Agility), pursuers in that order on the Ladder."""
    hound = {**CHASER, "bonuses": {"AB": 3, "BB": 2, "PB": 4}}
    t = table({"runner": RUNNER, "chaser": CHASER, "hound": hound})
    return act(
        t,
        "referee",
        "chase.start",
        [9, 1],
        escapees={"runner": "on foot"},
        pursuers={"chaser": "on foot", "hound": "on foot"},
        escape_condition=6,
    )


def test_a_pursuer_out_of_the_chase_skips_fatigue_and_the_next_one_still_tests() -> None:
    """Chase scene rules (Fatigue): only those still in the chase test Toughness; an exhausted
    Pursuer earlier on the Ladder does not spare the next one its test."""
    t = _a_runner_chased_by_two()
    for who in ("runner", "chaser", "hound"):
        t = act(t, who, "chase.move", [9 if who == "runner" else 1])
    t = act(t, "referee", "chase.end_round", [1])
    for who in ("runner", "chaser", "hound"):
        t = act(t, who, "chase.move", [9 if who == "runner" else 1])
    t = act(t, "referee", "chase.end_round", [1, 99, 10, 10, 10])  # chaser: exhausted
    assert t.state.chase is not None
    assert [p.id for p in t.state.chase.participants] == ["runner", "chaser", "hound"]
    assert t.state.chase.participant("chaser").status == "exhausted"
    for who in ("runner", "hound"):
        t = act(t, who, "chase.move", [9 if who == "runner" else 1])
    t = act(t, "referee", "chase.end_round", [1, 20])  # round 3: hound ([BB] 2) tests
    assert last(t, "chase.fatigue")["participant"] == "hound"
    assert [e.data["participant"] for e in t.log.events if e.kind == "chase.fatigue"] == [
        "chaser",
        "hound",
    ]


@pytest.mark.parametrize(
    ("dice", "result"),
    [
        ([99], "the Pursuer reduces their Pursuit Value by 3"),
        ([60], "the Pursuer reduces their Pursuit Value by 1"),
        ([33], "both the Pursuer and the Escapee are taken out of the chase"),
        ([20, 30], "the Escapee passes their Coordination Test and stays in the chase"),
        ([20, 60], "the Escapee fails: both are taken out of the chase"),
    ],
    ids=["critical-failure", "failure", "critical-success", "escapee-passes", "escapee-fails"],
)
def test_a_takedown_records_what_each_outcome_does_and_its_roll_cards(
    dice: list[int], result: str
) -> None:
    """Chase scene rules (Takedown): the Pursuer's Coordination Test and, on a Success, the
    Escapee's; each outcome's consequence is recorded in words, each test as a roll card."""
    t = act(caught(), "chaser", "chase.takedown", dice)
    data = last(t, "chase.takedown")
    assert data["result"] == result
    labels = [(r["label"], r["rule"]) for r in data["rolls"]]
    expected = [("Chaser's Takedown (Coordination)", "Chase scene rules (Takedown)")]
    if len(dice) == 2:
        expected.append(("runner resists (Coordination)", "Chase scene rules (Takedown)"))
    assert labels == expected


def test_a_move_records_its_d10_movement_and_gain_and_refuses_a_move_out_of_turn() -> None:
    """Chase scene rules (Pursuit/Escape Value): 1D10 + Movement on one's turn of the Initiative
    Ladder; out of turn the refusal names whose turn it is, or that the Round must end; with no
    chase under way the move is refused as a move."""
    t = act(start(), "runner", "chase.move", [4])
    assert last(t, "chase.moved") == {
        "participant": "runner",
        "d10": 4,
        "movement": 7,
        "gained": 11,
        "value": 11,
        "round": 1,
    }
    with pytest.raises(RuleError, match=r"it is chaser's turn, not runner's"):
        act(t, "runner", "chase.move", [4])
    t = act(t, "chaser", "chase.move", [1])
    with pytest.raises(RuleError, match=r"it is nobody \(end the round\)'s turn, not runner's"):
        act(t, "runner", "chase.move", [4])
    with pytest.raises(RuleError, match=r"^chase\.move: no chase is under way"):
        act(table({"runner": RUNNER}), "runner", "chase.move", [4])


def test_a_pursuer_reaching_exactly_the_escape_value_catches_up() -> None:
    """Chase scene rules (Catching up): a Pursuit Value equal to the Escape Value catches up."""
    t = act(start(), "runner", "chase.move", [1])  # 1 + 7 = 8
    t = act(t, "chaser", "chase.move", [2])  # 2 + 6 = 8
    assert last(t, "chase.caught_up") == {
        "participant": "chaser",
        "escapee": "runner",
        "was": 8,
        "value": 8,
    }


def test_a_pursuer_out_of_the_chase_does_not_stop_the_next_one_catching_up() -> None:
    """Chase scene rules (Catching up): every Pursuer still in is checked, whoever is out."""
    t = _a_runner_chased_by_two()
    for end in ([1], [1, 99, 10, 10, 10]):  # round 2: chaser exhausted
        for who in ("runner", "chaser", "hound"):
            t = act(t, who, "chase.move", [1])
        t = act(t, "referee", "chase.end_round", end)
    t = act(t, "runner", "chase.move", [1])  # 24
    t = act(t, "hound", "chase.move", [10])  # 14 + 16 = 30
    assert last(t, "chase.caught_up") == {
        "participant": "hound",
        "escapee": "runner",
        "was": 30,
        "value": 24,
    }


def test_the_end_of_a_chase_is_recorded_with_its_reason_and_round() -> None:
    """Chase scene rules (ending a chase): one side gives up, here in the first Round."""
    t = act(start(), "referee", "chase.give_up", side="pursuers")
    assert last(t, "chase.ended") == {"reason": "the pursuers give up", "round": 1}


def test_a_chase_whose_escapees_are_all_slain_ends_so_not_as_taken_down() -> None:
    """Chase scene rules (ending a chase): escapees out because Slain! are not "taken down"."""
    t = act(start(), "runner", "chase.move", [9])
    t = act(t, "chaser", "chase.move", [1])
    t = act(t, "chaser", "chase.attack", [20], target="runner", skill="Bows", damage_ranks=5)
    assert last(t, "chase.ended") == {"reason": "all escapees are Slain!", "round": 1}


def test_a_takedown_difficulty_is_a_rating_a_modifier_or_one_condition_of_the_table() -> None:
    """Chase scene rules (Takedown's Coordination Test): the table's Difficulty Ratings by name,
    a modifier as text or number, or words of exactly one Condition; words of two Conditions are
    refused naming both."""
    assert takedown_difficulty("Easy") == 20
    assert takedown_difficulty("+20") == 20
    assert takedown_difficulty(-20) == -20
    with pytest.raises(
        RuleError,
        match=r"^Takedown \(Coordination Test difficulty\): 'busy' is in several conditions "
        r"\(Challenging: Capture an Escapee inside a busy tavern; Arduous: Capture an Escapee "
        r"in the middle of a busy thoroughfare within a large crowd of people\); say which$",
    ):
        takedown_difficulty("busy")
