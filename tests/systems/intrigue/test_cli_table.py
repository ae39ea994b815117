"""`referee intrigue combat` and `status` over a table record: what each seat is shown of the
running combats and of each character (the rules of Combat, Escaping Combat, Taking Damage)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.cli.output import write_table
from referee.core import Table
from referee.systems.intrigue import PROCEDURE, IntrigueState

from .helpers import _fighters, act
from .test_cli import _lines, run


def start(setup: dict[str, Any]) -> Table[IntrigueState]:
    """A table of Intrigue (its record names the game) for ``setup``."""
    return Table.start(PROCEDURE, setup, system="intrigue")


def _written(table: Table[IntrigueState], tmp_path: Path) -> str:
    """``table`` as a record file, for the commands that read one."""
    record = tmp_path / "played.json"
    record.unlink(missing_ok=True)
    write_table(record, table, read_version=None)
    return str(record)


def _joining(side: str) -> dict[str, Any]:
    return {"with": side}


def _declare_in_turn(table: Table[IntrigueState], *declared: tuple[str, dict[str, Any]]) -> Any:
    for who, params in declared:
        table = act(table, who, "declare", **params)
    return table


def test_combat_shows_the_round_the_sides_the_declarations_and_who_declares_next(
    tmp_path: Path,
) -> None:
    """Each running combat: its round (or between rounds), the sides, each declaration (its
    target, resolved or not), who is still to declare in order, and the next roll's odds."""
    table = act(start(_fighters()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **_joining("bob")), "dan", "join", **_joining("alf"))
    assert _lines("combat", _written(table, tmp_path), "--as", "referee") == [
        "combat-1 round 0 (between rounds): alf, dan against bob, cat"
    ]
    table = act(table, "alf", "declare", action="attack", target="bob")
    assert _lines("combat", _written(table, tmp_path), "--as", "bob") == [
        "combat-1 round 1: alf, dan against bob, cat",
        "  alf: attack bob (to resolve)",
        "  to declare, in order: cat, bob, dan",
    ]
    defend: dict[str, Any] = {"action": "defend"}
    table = _declare_in_turn(table, ("cat", defend), ("bob", defend), ("dan", defend))
    assert _lines("combat", _written(table, tmp_path), "--as", "referee") == [
        "combat-1 round 1: alf, dan against bob, cat",
        "  alf: attack bob (to resolve)",
        "  cat: defend (to resolve)",
        "  bob: defend (to resolve)",
        "  dan: defend (to resolve)",
        "  next roll Alf attack Bob: 25.9% (7/27)",
    ]
    table = act(table, "referee", "resolve", [1, 1, 1])
    shown = _lines("combat", _written(table, tmp_path), "--as", "referee")
    assert shown[1:3] == ["  alf: attack bob (resolved)", "  cat: defend (to resolve)"]


def test_combat_says_who_may_try_to_escape_between_rounds_and_who_escaped(
    tmp_path: Path,
) -> None:
    """Escaping Combat: two Defensive Actions in a row, and between rounds the defender may try
    to escape (one is not enough; within a round nobody is told); one who escaped is marked."""
    table = act(start(_fighters()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **_joining("bob")), "dan", "join", **_joining("alf"))
    defend: dict[str, Any] = {"action": "defend"}
    table = _declare_in_turn(
        table, ("alf", {"action": "attack", "target": "bob"}), ("cat", defend), ("bob", defend)
    )
    table = act(act(table, "dan", "declare", **defend), "referee", "resolve", [1, 1, 1])
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    shown = _lines("combat", _written(table, tmp_path), "--as", "referee")
    assert shown[0] == "combat-1 round 1 (between rounds): alf, dan against bob, cat"
    assert not any("escape" in line for line in shown)
    table = act(table, "referee", "next_round")
    for who in ("cat", "alf", "bob", "dan"):
        table = act(table, who, "declare", **defend)
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    table = act(table, "cat", "escape")
    shown = _lines("combat", _written(table, tmp_path), "--as", "referee")
    assert shown[0] == "combat-1 round 2 (between rounds): alf, dan against bob, cat (escaped)"
    assert shown[-3:] == [
        "  bob may try to escape",
        "  cat may try to escape",
        "  dan may try to escape",
    ]
    table = act(act(table, "referee", "next_round"), "alf", "declare", **defend)
    shown = _lines("combat", _written(table, tmp_path), "--as", "referee")
    assert shown[0] == "combat-1 round 3: alf, dan against bob, cat (escaped)"
    assert not any("escape " in line for line in shown)


def test_status_shows_stamina_wounds_and_until_when_each_one_is_out(tmp_path: Path) -> None:
    """Taking Damage: Knocked Out until the end of the combat + 5 minutes (until a time once
    it ended), or dead; the Stamina is the character's own and the referee's to see; a
    perceiver's wait before perceiving the same one again is under the perceiver."""
    table = act(start(_fighters()), "dan", "perceive", [1, 1, 1], target="cat")
    table = act(act(table, "alf", "draw", item="cannon"), "alf", "start_combat", targets=["bob"])
    table = act(table, "cat", "join", **_joining("bob"))
    table = _declare_in_turn(
        table,
        ("alf", {"action": "attack", "target": "bob"}),
        ("cat", {"action": "defend"}),
        ("bob", {"action": "defend"}),
    )
    table = act(table, "referee", "resolve", [6, 6, 6])
    record = _written(table, tmp_path)
    assert " ".join(" ".join(_lines("status", record, "--as", "referee")).split()) == (
        "Alf [11] (alf): Stamina 6/6, Wounds 0 of 6 marked, damage this combat 0 "
        "Bob [12] (bob): Stamina 5/5, Wounds 0 of 5 marked, damage this combat 7 — Knocked "
        "Out until the end of the combat + 5 minutes "
        "Cat [13] (cat): Stamina 6/6, Wounds 0 of 6 marked, damage this combat 0 "
        "Dan [14] (dan): Stamina 6/6, Wounds 0 of 6 marked, damage this combat 0 "
        "may not perceive cat until 20:15"
    )
    assert _lines("status", record, "--as", "dan") == [
        "Alf [11] (alf)",
        "Bob [12] (bob) — Knocked Out until the end of the combat + 5 minutes",
        "Cat [13] (cat)",
        "Dan [14] (dan): Stamina 6/6, Wounds 0 of 6 marked, damage this combat 0",
        "  may not perceive cat until 20:15",
    ]
    table = act(table, "referee", "end_combat")
    shown = _lines("status", _written(table, tmp_path), "bob", "--as", "bob")
    assert " ".join(" ".join(shown).split()) == (
        "Bob [12] (bob): Stamina 5/5, Wounds 0 of 5 marked, damage this combat 7 — Knocked "
        "Out until 20:05"
    )
    table = act(table, "alf", "slay", target="bob")
    assert _lines("status", _written(table, tmp_path), "12", "--as", "cat") == [
        "Bob [12] (bob) — DEAD"
    ]


def test_combat_says_when_no_combat_is_running_and_refuses_a_seat_not_at_the_table(
    tmp_path: Path,
) -> None:
    record = _written(start(_fighters()), tmp_path)
    assert _lines("combat", record, "--as", "cat") == ["no combat is running"]
    code, _, err = run("combat", record, "--as", "nobody")
    assert code == 2 and err.startswith("referee: error: this table has no seat 'nobody'")
