"""Rulings 11 and 18 through the procedure, each test failing when its clause is broken:
a void maneuver pays no cost; a Superficial wound's +1 Ob holds at the maneuver's resolution."""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.kingdoms import PROCEDURE

from .test_procedure import _reveal, act, setup


def test_a_void_maneuver_pays_no_cost() -> None:
    """Ruling 11: a Gambit (cost 3) without its required conflict scene is void at the reveal:
    its disposition is not sacrificed. With the scene it is."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]

    def revealed(conflict: bool) -> Table[Any]:
        table = Table.start(PROCEDURE, data)
        table = act(table, "elves", "write_slip", maneuver="Gambit", skill="Tactics", target="orcs")
        table = act(
            table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True
        )
        table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
        if conflict:
            table = act(table, "elves", "scene", kind="conflict", target="orcs")
        return _reveal(table, "elves", [4] * 14)

    void = revealed(conflict=False)
    assert "elves" in void.state.void
    assert void.state.factions["elves"].disposition == 10
    assert not [e for e in void.log if e.kind == "effect.applied" and e.data["by"] == "elves"]
    played = revealed(conflict=True)
    assert played.state.void == {} and played.state.factions["elves"].disposition == 7


def test_a_superficial_wound_adds_one_to_the_ob_at_resolution() -> None:
    """Ruling 18: the Elves Fortify unopposed (Ob 2) with 3 successes: margin 1, +1
    disposition — but with a Superficial wound the Ob is 3 and they gain nothing."""

    def fortified(superficial: bool) -> int:
        data = setup()
        data["factions"]["elves"]["leader"]["superficial"] = superficial
        table = Table.start(PROCEDURE, data)
        table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
        table = act(
            table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True
        )
        table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
        # seat order from the Elves: their 4 dice (3 successes), the Orcs' 4, the Dwarves' 5
        table = _reveal(table, "elves", [4, 4, 4, 1] + [1] * 9)
        assert table.state.rolls["elves"].successes == 3
        table = act(table, "elves", "resolve")
        return int(table.state.factions["elves"].disposition)

    assert fortified(superficial=False) == 11
    assert fortified(superficial=True) == 10
