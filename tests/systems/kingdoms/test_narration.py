"""The log in words (issue 26): a faction is named as the set-up names it ("the Elves"), its id
as given where it has no name, and a possessive reads "the Elves'" and "Mordor's", never
"elves's"."""

from __future__ import annotations

from typing import Any

from referee.core import Action, Table, Viewer, view
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE

SETUP: dict[str, Any] = {
    "territory": "the Greenway",
    "factions": {
        "elves": {
            "name": "the Elves",
            "disposition": 10,
            "leader": {"name": "Aeluin", "stats": {"Will": "B4"}, "skills": {"Logistics": "B4"}},
        },
        "orcs": {
            "disposition": 12,
            "leader": {
                "name": "Gorbash",
                "stats": {"Will": "B3"},
                "skills": {"Inconspicuous": "B5", "Logistics": "B3"},
            },
        },
    },
}


def _act(
    table: Table[Any], actor: str, kind: str, dice: tuple[int, ...] = (), **params: Any
) -> Any:
    return table.act(Action(actor, kind, params), ScriptedSource(dice))


def _words(table: Table[Any], viewer: str = "referee") -> list[str]:
    return [PROCEDURE.describe(e, Viewer(viewer)) for e in view(table.log, viewer)]


def test_the_chronicle_begins_with_each_factions_name() -> None:
    table = Table.start(PROCEDURE, SETUP)
    assert _words(table)[0] == (
        "The chronicle of the Greenway begins: the Elves (led by Aeluin, disposition 10); "
        "orcs (led by Gorbash, disposition 12)"
    )


def test_a_sealed_slip_names_its_target_only_to_its_writer() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    assert _words(table, "orcs")[-1] == (
        "orcs seals its maneuver slip: Infiltrate with Inconspicuous against the Elves"
    )
    assert _words(table, "elves")[-1] == "orcs seals its maneuver slip (sealed until the reveal)"
    assert _words(table, "elves")[-2] == "the Elves seals its maneuver slip: Fortify with Logistics"
    slip = [e for e in view(table.log, "elves") if e.kind == "slip.written"][-1]
    assert "the Elves" not in str(slip.to_json())  # the target's name stays sealed too


def test_effects_use_names_and_possessives() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "elves", "pass")
    table = _act(table, "orcs", "pass")
    table = _act(table, "elves", "reveal", (6, 6, 6, 6, 1, 1, 1))
    table = _act(table, "elves", "resolve")
    words = "\n".join(_words(table))
    assert "the Elves' Fortify adds" in words
    assert "elves's" not in words and "orcs's" not in words
    card = next(e for e in table.log if e.kind == "test.rolled").data["roll"]
    assert card["label"] == "the Elves: Fortify with Logistics"  # type: ignore[index]
    assert card["margin"] is None  # type: ignore[index]  # successes before the obstacle is known
