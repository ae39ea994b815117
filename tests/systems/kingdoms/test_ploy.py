"""Ploy ("Conquest Maneuvers", "Ploy"): "Any target you beat loses a number of disposition points
equal to your margin of success"; damaging neither, the Ployer's faction cannot act next maneuver.
"""

from __future__ import annotations

from referee.systems.kingdoms.resolution import Entry, resolve

from .helpers import small_board
from .test_resolution import board


def test_a_ploy_that_overcomes_by_one_costs_one_point_and_acts_next_maneuver() -> None:
    """Ploy: "Any target you beat loses a number of disposition points equal to your margin of
    success": 6 against an exponent of 5 beats it by 1; having damaged it, the Ployer acts."""
    r = resolve(
        {"a": Entry("a", "Ploy", ("c",), 6), "c": Entry("c", "Fortify", (), 1, exponent=5)},
        small_board(),
    )
    assert r.dispositions["c"] == 9 and r.cannot_act == ()


def test_a_ploy_that_wipes_out_its_target_is_its_conqueror_with_its_successes() -> None:
    """Ploy: the target brought to 0 is out; the attacker that did it is recorded with the
    successes of its attack (which name the conqueror)."""
    r = resolve(
        {"a": Entry("a", "Ploy", ("c",), 9), "c": Entry("c", "Fortify", (), 1, exponent=5)},
        small_board(c=2),
    )
    assert r.out == ("c",) and r.attackers == {"c": {"a": 9}} and r.conquerors == {"c": ("a",)}


def test_a_ploy_that_damages_neither_target_says_so() -> None:
    """Ploy: "damaging neither, the Ployer's faction cannot act next maneuver": 5 does not
    overcome an exponent of 5; the effect names the Ployer."""
    r = resolve(
        {"a": Entry("a", "Ploy", ("c",), 5), "c": Entry("c", "Fortify", (), 1, exponent=5)},
        small_board(),
    )
    assert r.cannot_act == ("a",)
    assert [(e.faction, e.by, e.text) for e in r.effects if e.kind == "cannot_act"] == [
        ("a", "a", "a's Ploy damaged neither target: it cannot act next maneuver")
    ]


def test_a_ploy_against_a_faction_that_cannot_act_counts_every_success() -> None:
    """RULINGS: a faction that cannot act is met independently, every success counting; it
    has no exponent for a Ploy to overcome. a's Ploy of 1 beats b, who cannot act, by 1."""
    r = resolve({"a": Entry("a", "Ploy", ("b",), 1)}, board())
    assert r.engagements[0].obstacle == 0
    assert r.dispositions["b"] == 9 and r.cannot_act == ()


def test_a_ploy_says_by_how_much_it_beats_each_target() -> None:
    """Ploy: "Any target you beat loses a number of disposition points equal to your margin of
    success": 5 against two Assessing targets (Ob 0) beats each by 5."""
    r = resolve(
        {
            "a": Entry("a", "Ploy", ("b", "c"), 5),
            "b": Entry("b", "Assess", ("c",), 0),
            "c": Entry("c", "Assess", ("d",), 0),
        },
        board(),
    )
    assert [(e.faction, e.amount, e.text) for e in r.effects] == [
        ("b", -5, "a's Ploy beats b by 5"),
        ("c", -5, "a's Ploy beats c by 5"),
    ]
