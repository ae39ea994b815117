"""Ensnare ("Conquest Maneuvers", "Ensnare"): "the enemy's successes hurt their disposition and the
ensnaring side must sacrifice disposition equal to the margin of success".
"""

from __future__ import annotations

from referee.systems.kingdoms.resolution import Entry, resolve

from .helpers import small_board
from .test_resolution import board


def test_an_ensnare_against_no_successes_hurts_the_target_nothing() -> None:
    """Ensnare: "the enemy's successes hurt their disposition and the ensnaring side must
    sacrifice disposition equal to the margin of success": 0 successes hurt 0; the margin 5
    costs the Ensnarer 5."""
    r = resolve(
        {"a": Entry("a", "Ensnare", ("b",), 5), "b": Entry("b", "Assault", ("c",), 0)},
        small_board(),
    )
    assert (r.dispositions["a"], r.dispositions["b"]) == (5, 10)


def test_an_ensnare_that_wipes_out_its_target_records_its_successes() -> None:
    """Ensnare: b's 2 successes take b's last 2 points; a, with 5 successes, conquers b."""
    r = resolve(
        {"a": Entry("a", "Ensnare", ("b",), 5), "b": Entry("b", "Assault", ("c",), 2)},
        small_board(b=2, c=2),
    )
    assert r.attackers["b"] == {"a": 5} and r.conquerors["b"] == ("a",)


def test_an_ensnare_resolution_as_every_seat_receives_it() -> None:
    """Ensnare: "In a successful versus test, the enemy's successes hurt their disposition and
    the ensnaring side must sacrifice disposition equal to the margin of success." a's Assault
    (3) meets b's Ensnare (5): a loses its own 3, b sacrifices the margin 2. The whole
    resolution, as the ``maneuver.resolved`` event carries it: each engagement with its margin,
    success and net successes, each effect with the text the seats read."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 3), "b": Entry("b", "Ensnare", ("a",), 5)}, board()
    )
    versus = {"cell": "V", "kind": "versus", "obstacle": None}
    assert r.to_json() == {
        "engagements": [
            {
                "attacker": "a",
                "target": "b",
                "maneuver": "Assault",
                **versus,
                "role": "attack",
                "successes": 3,
                "defence": 5,
                "margin": -2,
                "success": False,
                "net": 0,
            },
            {
                "attacker": "b",
                "target": "a",
                "maneuver": "Ensnare",
                **versus,
                "role": "ensnare",
                "successes": 5,
                "defence": 3,
                "margin": 2,
                "success": True,
                "net": 2,
            },
        ],
        "effects": [
            {
                "faction": "a",
                "kind": "disposition",
                "by": "b",
                "amount": -3,
                "value": 7,
                "target": None,
                "text": "b's Ensnare turns a's 3 successes against it",
            },
            {
                "faction": "b",
                "kind": "disposition",
                "by": "b",
                "amount": -2,
                "value": 8,
                "target": None,
                "text": "b's Ensnare springs at the cost of 2 disposition (the margin)",
            },
        ],
        "dispositions": {"a": 7, "b": 8, "c": 10, "d": 10},
        "out": [],
        "conquerors": {},
        "narrator": "b",
        "sapped": {},
        "cannot_act": [],
        "attackers": {},
    }
