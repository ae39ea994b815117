"""Infiltrate ("Conquest Maneuvers", "Infiltrate"): independent, "vs. an Ob equal to the target's
base Circles"; "you gain an advantage to your next maneuver against that opponent equal to your
margin of success".
"""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.resolution import Effect, Entry, resolve
from referee.systems.kingdoms.scripting import reveal_odds
from referee.systems.kingdoms.state import Slip

from .helpers import (
    PLAYERS,
    _act,
    _kingdom,
    _orcs_infiltrate_the_elves,
    _pass_all,
    _pools,
    _scripted,
    _three_kingdoms,
)
from .test_resolution import board


def test_an_infiltrated_advantage_is_spent_on_that_target_alone() -> None:
    """Infiltrate: "you gain an advantage to your next maneuver against that opponent": the
    orcs, having Infiltrated the elves (+2D) and the dwarves (+1D), maneuver against the elves;
    that advantage is used up, the one against the dwarves is kept."""
    table = _three_kingdoms(infiltrated={"elves": 2, "dwarves": 1})
    table = _orcs_infiltrate_the_elves(table, conflict=True)
    rolled: Any = next(
        e.payload
        for e in table.log.events
        if e.kind == "test.rolled" and e.payload["faction"] == "orcs"
    )
    assert rolled["advantage_used"] == ["elves"]
    assert table.state.factions["orcs"].infiltrated == {"elves": 0, "dwarves": 1}


def test_an_infiltrate_marks_its_target_with_the_margin_as_advantage() -> None:
    """Infiltrate: "you gain an advantage to your next maneuver against that opponent equal to
    your margin of success." a's 6 against b's base Circles 4 (independent: b Assaults c): a
    has Infiltrated b, +2D, and the effect says so to every seat."""
    r = resolve(
        {
            "a": Entry("a", "Infiltrate", ("b",), 6),
            "b": Entry("b", "Assault", ("c",), 1),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(),
    )
    assert [e for e in r.effects if e.kind == "infiltrated"] == [
        Effect(
            "a",
            "infiltrated",
            "a",
            "a's Infiltration of b succeeds: +2D to its next maneuver against them",
            amount=2,
            target="b",
        )
    ]


def test_an_infiltrate_of_a_faction_that_cannot_act_is_tested_at_its_leaders_circles() -> None:
    """Infiltrate: an independent test against the target's base Circles (RULINGS: a maneuver
    against a faction that cannot act is independent). The orcs cannot act; their leader's
    Circles are 3; the elves' Infiltrate rolls 4 successes: the orcs are Infiltrated by the
    margin, 1."""
    setup = _kingdom({})
    orcs = setup["factions"]["orcs"]
    orcs["cannot_act"] = True
    orcs["leader"]["circles"] = 3
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(
        table,
        "elves",
        "write_slip",
        maneuver="Infiltrate",
        skill="Logistics",
        target="orcs",
        substitute=True,
    )
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 4)
    table = _act(table, "elves", "keep")
    table = _act(table, "elves", "resolve")
    assert table.state.factions["elves"].infiltrated == {"orcs": 1}


def test_an_infiltrate_is_independent_at_the_targets_base_circles() -> None:
    """Infiltrate: independent, "vs. an Ob equal to the target's base Circles". The elves
    (Circles 3) and the orcs (Circles 0) Infiltrate each other: the orcs need 3, the elves 1
    (at least one success to do anything)."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    state = _scripted(
        state,
        Slip("elves", "Infiltrate", "Logistics", ("orcs",)),
        Slip("orcs", "Infiltrate", "Inconspicuous", ("elves",)),
    )
    elves, orcs = reveal_odds(state, ("elves", "orcs"), {}, _pools(elves=(4, 0), orcs=(4, 0)))
    assert (elves["obstacle"], elves["needed"]) == (0, 1)
    assert (orcs["obstacle"], orcs["needed"]) == (3, 3)
