"""Prologues ("Prologues"): the leader tests a skill from the list, open-ended; each success adds
one point of disposition; the factions narrate in order of successes; the cap is set at its end.
"""

from __future__ import annotations

from typing import Any

from referee.core import OneOf, Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import choices_for

from .helpers import PLAYERS, _act, _kinds, _kingdom, _odds
from .test_procedure import act, setup, start


def test_a_prologue_raises_the_starting_disposition_with_the_disposition() -> None:
    """Prologues: each success of the prologue test adds one point to the faction's
    disposition — its starting disposition too (the cap is the highest starting disposition
    after the Prologue). Elves 10 + 2 = 12, orcs 12 + 1 = 13; the cap is 13."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "prologue": True}, players=PLAYERS)
    table = _act(table, "elves", "prologue", [4, 4, 1, 1], skill="Logistics")
    table = _act(table, "orcs", "prologue", [4, 1, 1, 1], skill="Logistics")
    got = {
        f: (x.prologue, x.disposition, x.starting_disposition)
        for f, x in table.state.factions.items()
    }
    assert got == {"elves": (2, 12, 12), "orcs": (1, 13, 13)}
    assert (table.state.phase, table.state.cap) == ("maneuver", 13)
    seen: Any = PROCEDURE.visible_state(table.state, table.viewer("ann"))
    assert seen["factions"]["elves"]["starting_disposition"] == 12


def test_a_prologue_tests_a_listed_skill_or_else_any_skill_in_its_place() -> None:
    """Prologues: the leader tests a skill from the prologue list, open-ended, each success
    adding disposition; a leader with none of them tests another skill in its place. The
    elves' Logistics G2 (2 grey open-ended dice: 0 successes 1/9, the top bucket 5 or more);
    the orcs have only Inconspicuous B3."""
    setup = _kingdom({}, skills={"Inconspicuous": "B4", "Logistics": "G2"})
    setup["factions"]["orcs"]["leader"]["skills"] = {"Inconspicuous": "B3"}
    state = PROCEDURE.initial_state({**setup, "prologue": True})
    assert _kinds(state, "elves") == [("prologue", {"skill": OneOf(("Logistics",))})]
    assert _odds(state, "elves") == [
        (
            "Aeluin tests Logistics for the prologue",
            "Prologues",
            "2d6 grey open-ended",
            {
                "0": "1/9",
                "1": "10/27",
                "2": "10/27",
                "3": "55/486",
                "4": "20/729",
                "5+": "11/1458",
            },
        )
    ]
    assert _kinds(state, "orcs") == [
        ("prologue", {"skill": OneOf(("Inconspicuous",)), "substitute": OneOf((True,))})
    ]
    assert _odds(state, "orcs")[0][2:] == (
        "3d6 open-ended",
        {
            "0": "1/8",
            "1": "5/16",
            "2": "5/16",
            "3": "145/864",
            "4": "205/3456",
            "5": "355/20736",
            "6+": "119/20736",
        },
    )
    assert choices_for(state, "nobody") == ()


def test_the_disposition_cap_is_the_set_ups_unless_the_prologue_sets_it() -> None:
    """Prologues: the cap is set when the prologue ends (0 until then); without a prologue it
    is the set-up's ``cap`` (0 allowed) or the highest disposition."""
    assert Table.start(PROCEDURE, setup()).state.cap == 12
    assert Table.start(PROCEDURE, setup(cap=20)).state.cap == 20
    assert Table.start(PROCEDURE, setup(cap=0)).state.cap == 0
    assert Table.start(PROCEDURE, setup(prologue=True, cap=20)).state.cap == 0


def test_the_prologue_narrates_in_order_of_successes_and_cards_each_roll() -> None:
    """Prologues: each leader tests a prologue skill (open-ended); the factions narrate in
    order of successes, most first. Elves 0, orcs 1, dwarves 2: dwarves, orcs, elves. Each
    roll's card names the leader, the skill and the rule, with the odds of each count."""
    table = start(prologue=True)
    table = act(table, "elves", "prologue", [1, 1, 1, 1], skill="Logistics")
    rolled: Any = table.log.events[-1].payload
    assert (rolled["skill"], rolled["pool_roll"]["successes"]) == ("Logistics", 0)
    card = rolled["roll"]
    assert (card["label"], card["rule"]) == ("Aeluin tests Logistics for the prologue", "Prologues")
    assert card["odds"] == rolled["odds"]
    table = act(table, "orcs", "prologue", [4, 1, 1], skill="Strategy", substitute=True)
    table = act(table, "dwarves", "prologue", [4, 4, 1, 1, 1], skill="Fortifications")
    ended = table.log.events[-1]
    assert ended.payload["narration_order"] == ["dwarves", "orcs", "elves"]


def test_a_prologue_test_is_open_ended_and_its_card_charts_the_counts_to_its_top_bucket() -> None:
    """Prologues: the prologue test is open-ended, so a 6 is rolled again: the elves'
    Logistics G2 shows 6 and 1, and the 6's die shows 3 (a grey success): 2 successes, 2 more
    disposition. The card charts the chance of each count up to the exponent + 3, the top
    bucket that many or more (5+), as the odds shown before the roll."""
    setup = _kingdom({}, skills={"Logistics": "G2"})
    table = Table.start(PROCEDURE, {**setup, "prologue": True}, players=PLAYERS)
    table = _act(table, "elves", "prologue", [6, 1, 3], skill="Logistics")
    rolled: Any = table.log.events[-1].payload
    assert (rolled["successes"], rolled["pool_roll"]["successes"]) == (2, 2)
    assert table.state.factions["elves"].disposition == 12
    chart = {"0": "1/9", "1": "10/27", "2": "10/27", "3": "55/486", "4": "20/729", "5+": "11/1458"}
    assert rolled["odds"] == chart
    assert rolled["roll"]["odds"] == chart
