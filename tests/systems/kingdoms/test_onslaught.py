"""Onslaught ("Conquest Maneuvers", "Onslaught"): "If an Onslaught fails to completely deplete the
targets disposition, the side performing the onslaught hesitates for the next maneuver".
"""

from __future__ import annotations

from referee.systems.kingdoms.resolution import Board, Effect, Entry, resolve

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
