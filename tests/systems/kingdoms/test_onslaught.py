"""Onslaught ("Conquest Maneuvers", "Onslaught"): "If an Onslaught fails to completely deplete the
targets disposition, the side performing the onslaught hesitates for the next maneuver".
"""

from __future__ import annotations

from dataclasses import replace

from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.resolution import Board, Effect, Entry, resolve
from referee.systems.kingdoms.state import Slip

from .helpers import _kingdom
from .test_resolution import board


def test_an_onslaught_that_leaves_one_point_hesitates() -> None:
    """Onslaught: "If an Onslaught fails to completely deplete the targets disposition, the side
    performing the onslaught hesitates for the next maneuver": 9 off 10 leaves 1, and it
    hesitates."""
    values = {"a": 10, "b": 10, "c": 10, "d": 10}
    board = Board(
        order=("a", "b", "c", "d"), disposition=values, cap=12, circles=dict.fromkeys(values, 3)
    )
    r = resolve(
        {"a": Entry("a", "Onslaught", ("b",), 9), "b": Entry("b", "Assess", ("c",), 0)}, board
    )
    assert r.dispositions["b"] == 1 and r.cannot_act == ("a",)


def test_an_onslaught_that_does_not_wipe_out_its_target_hesitates() -> None:
    """Onslaught: "If an Onslaught fails to completely deplete the targets disposition, the
    side performing the onslaught hesitates for the next maneuver and cannot act." a's 6 leave
    b at 4: a cannot act, and the effect says why."""
    r = resolve(
        {"a": Entry("a", "Onslaught", ("b",), 6), "b": Entry("b", "Assess", ("c",), 0)}, board()
    )
    assert r.effects[-1] == Effect(
        "a",
        "cannot_act",
        "a",
        "a's Onslaught did not wipe out b: it hesitates and cannot act next maneuver",
    )
    assert r.to_json()["cannot_act"] == ["a"]


def test_a_faction_that_hesitates_is_told_why_and_until_when() -> None:
    """Onslaught: the side whose Onslaught failed "hesitates for the next maneuver and cannot
    act": once the others have sealed, its seat is told it cannot act this maneuver because of
    the failed Onslaught, until the maneuver after."""
    state = PROCEDURE.initial_state(_kingdom({}))
    state = replace(
        state,
        maneuver=2,
        factions={**state.factions, "elves": replace(state.factions["elves"], cannot_act=True)},
        history=({"maneuver": 1, "slips": {"elves": {"maneuver": "Onslaught"}}},),
        slips={"orcs": Slip("orcs", "Fortify", "Logistics")},
        passed=frozenset({"elves"}),
    )
    said = PROCEDURE.waiting(state, "elves")
    assert said is not None
    assert said.reason == "cannot act this maneuver (failed Onslaught): no slip to script"
    assert (said.until, said.section) == ("until maneuver 3", "Onslaught")
