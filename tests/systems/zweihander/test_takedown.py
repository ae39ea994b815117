"""Chase scene rules, Takedown: catching up (Pursuit Value >= Escape Value), the Pursuer's
Coordination Test at the Condition's difficulty ("Coordination Test difficulty" table), the
Escapee's test, and the GM's default play of the Takedowns."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.core import REFEREE, Choice, OneOf, RuleError, Viewer
from referee.dice import RandomSource
from referee.systems.zweihander import PROCEDURE, chase, wilderness
from referee.systems.zweihander.chase import play_out, takedown_difficulty
from referee.systems.zweihander.events import CHASE_CAUGHT_UP, CHASE_ENDED, CHASE_TAKEDOWN
from referee.systems.zweihander.state import ChaseState, Participant
from referee.systems.zweihander.takedown import fold_takedown

from .helpers import _chase, _incapacitated, act, last, table
from .test_chase import CHASER, RUNNER, _a_runner_chased_by_two, caught, start
from .test_wilderness import journey, roles


@pytest.mark.parametrize("seed", [1, 5, 9, 12])
def test_a_chase_played_out_ends_and_every_pursuer_who_catches_up_attempts_a_takedown(
    seed: int,
) -> None:
    """Chases ("Takedown": a Pursuer who catches up with an Escapee may attempt one): played
    out as the GM would by default, every catch-up is followed by that Pursuer's Takedown,
    the chase ends, and nothing is played after its end."""
    done = play_out(_chase(seed), RandomSource(seed))
    assert done.state.chase is not None and done.state.chase.ended is not None
    kinds = [e.kind for e in done.log.events]
    caught = [i for i, k in enumerate(kinds) if k == CHASE_CAUGHT_UP]
    assert caught, "each of these seeds has a pursuer catch up"
    for i in caught:
        who = done.log.events[i].data["participant"]
        takedown = next(e for e in done.log.events[i:] if e.kind == CHASE_TAKEDOWN)
        assert takedown.data["participant"] == who
    assert kinds.count(CHASE_TAKEDOWN) == len(caught)
    assert kinds[-1] == CHASE_ENDED


def test_a_takedown_is_previewed_at_the_chases_takedown_difficulty() -> None:
    """Chase scene rules (Takedown): the caught-up Pursuer's Coordination Test at the chase's
    Condition ("cornered", +30: 45 + 30 = 75), shown to everyone before it is rolled."""
    t = act(start(takedown="cornered"), "runner", "chase.move", [1])
    t = act(t, "chaser", "chase.move", [9])
    [preview] = chase.previews(t.state)
    assert (preview.label, preview.rule, preview.dice) == (
        "Chaser's Takedown (Coordination)",
        "Chase scene rules (Takedown)",
        "d100 ≤ 75",
    )
    assert preview.odds["critical success"] == "7/100"
    assert [c for c in chase.choices(t.state, "chaser") if c.kind == "chase.takedown"] == [
        Choice("chaser", "chase.takedown", odds=(preview,), label="attempt a Takedown on Runner")
    ]
    assert chase.previews(_incapacitated(t.state, "chaser")) == []
    assert chase.previews(caught().state)[0].dice == "d100 ≤ 45"
    assert chase.previews(table({"runner": RUNNER}).state) == []


def test_a_mounted_pursuer_who_caught_up_is_offered_a_takedown_naming_the_skills() -> None:
    """Audit M1, ruling R3 (b): mounted or in a vehicle, the GM names the skill of the Takedown
    and of the Escapee's test (Ride, Drive …), from the Skills each has entered; an
    Incapacitated! Pursuer attempts none."""
    rider = {**RUNNER, "skills": {"Coordination": 50, "Toughness": 50, "Ride": 70}}
    hunter = {**CHASER, "skills": {"Coordination": 45, "Toughness": 45, "Drive": 20}}
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers={"chaser": "stagecoach or wagon"},
        chars={"runner": rider, "chaser": hunter},
    )
    t = act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [9])
    takedown = [c for c in chase.choices(t.state, "chaser") if c.kind == "chase.takedown"]
    assert takedown == [
        Choice(
            "chaser",
            "chase.takedown",
            {
                "skill": OneOf(("Coordination", "Drive", "Toughness")),
                "escapee_skill": OneOf(("Coordination", "Ride", "Toughness")),
            },
            label="attempt a Takedown on Runner (name the skills)",
        )
    ]
    assert [c.kind for c in chase.choices(_incapacitated(t.state, "chaser"), "chaser")] == [
        "chase.give_up"
    ]


def test_the_gm_previews_the_journeys_toughness_tests_and_everyone_a_chases_takedowns() -> None:
    """The checks about to be rolled: a caught-up Pursuer's Takedown for everyone, the next
    Toughness Tests of a journey for the GM only."""
    hunt = act(start(), "runner", "chase.move", [1])
    hunt = act(hunt, "chaser", "chase.move", [9])
    trek = roles(journey(threat=0), [40, 40, 40])
    both = replace(
        hunt.state,
        journey=trek.state.journey,
        characters=trek.state.characters + hunt.state.characters,
    )
    takedown = chase.previews(both)
    toughness = wilderness.previews(both)
    assert len(takedown) == 1 and len(toughness) == 3
    assert PROCEDURE.previews(both, Viewer(REFEREE)) == (*takedown, *toughness)
    assert PROCEDURE.previews(both, Viewer("runner")) == tuple(takedown)


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


def test_a_takedown_whose_taken_out_is_not_a_list_takes_no_one_out() -> None:
    """Chase scene rules (Takedown): the fold reads who is taken out of the chase from a list;
    a record whose ``taken_out`` is anything else (a bare name) takes no one out, and the
    Pursuer's attempt is still spent: their catch, their new Value, the Escapee tackled."""
    runners = (
        Participant("runner", "escapee", "on foot", 6, value=5),
        Participant("chaser", "pursuer", "on foot", 6, value=5, caught="runner"),
    )
    data = {"participant": "chaser", "escapee": "runner", "value": 4, "taken_out": "runner"}
    after = fold_takedown(ChaseState(runners, escape_rounds=3), data)
    assert [x.status for x in after.participants] == ["in", "in"]
    chaser = after.participant("chaser")
    assert (chaser.value, chaser.caught, chaser.tackled) == (4, None, "runner")
