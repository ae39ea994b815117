"""Conserve ("Conquest Maneuvers", "Conserve"): only rolled against a versus maneuver; successes
that reduce every opposing action to zero stop it, extra successes go to downtime.
"""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.resolution import Effect, Entry, resolve

from .helpers import PLAYERS, _act, _kingdom, _reveal_roll
from .test_resolution import board


def _conserve_against_an_infiltrate(conflict: bool) -> Table[Any]:
    """The elves Conserve; the orcs Infiltrate them (with their conflict scene, or none: then
    the Infiltrate is void); both pass; the elves read. Every die 3."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Conserve", skill="Logistics")
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", targets=["elves"]
    )
    if conflict:
        table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    for f in ("elves", "orcs"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 40)


def test_a_conserve_is_rolled_only_against_a_versus_maneuver_that_is_not_void() -> None:
    """Conserve: "only rolled against a versus maneuver". Against the orcs' Infiltrate (V) the
    elves' Logistics B4 rolls its 4 dice; against a void Infiltrate, nothing."""
    met = _reveal_roll(_conserve_against_an_infiltrate(conflict=True), "elves")
    assert met["dice"] == 4
    assert met["notes"] == []
    unmet = _reveal_roll(_conserve_against_an_infiltrate(conflict=False), "elves")
    assert unmet["dice"] == 0
    assert unmet["notes"] == ["Conserve is only rolled against a versus maneuver: not rolled"]


def test_a_conserve_with_one_success_to_spare_buys_downtime() -> None:
    """Conserve: "If the successes from a conserve reduce all opposing actions to zero, the
    action is stopped. Extra successes can be allocated to increasing your disposition or
    generating downtime." b's Conserve (4) stops a's Assault (3) with one success to spare,
    which the slip puts into downtime: 3 months; the others owe one maintenance test each."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 3), "b": Entry("b", "Conserve", (), 4, downtime=1)},
        board(),
    )
    assert r.effects[0] == Effect(
        "b",
        "downtime",
        "b",
        "b's Conserve: 1 successes buy 3 months of downtime "
        "(successes beyond every opposing action)",
        amount=3,
    )
    assert [(e.faction, e.kind, e.value) for e in r.effects[1:]] == [
        ("a", "maintenance", 1),
        ("c", "maintenance", 1),
        ("d", "maintenance", 1),
    ]
