"""The end and the result (issue 26): Intrigue's conflict is its last combat ("Combat rules"),
over when it ends, won by those left standing ("the victor", "Taking Damage"); an evening of
live action has no end of its own, so the game is never over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.core import Result, Table, Viewer, observe
from referee.core.scenario import load_scenario, run_scenario
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.state import evolved

from .helpers import act, character, start

T = Table[IntrigueState]

EXAMPLES = Path(__file__).parents[3] / "examples" / "intrigue"

CAST: dict[str, Any] = {
    "start": "20:00",
    "characters": {
        "alf": character("Alf", 11, combat=2, stamina=9, items={"knife": {"damage": 5}}),
        "bob": character("Bob", 12, combat=1, stamina=5),
        "passer": character("Passer", 14),
    },
}


def fighting() -> T:
    """alf (with a knife) attacks bob, who defends: declared, not yet resolved."""
    table = act(start(CAST), "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    return act(table, "bob", "declare", action="defend")


def conflict(table: T) -> Result:
    found = table.conflict()
    assert found is not None
    return found


def test_before_any_combat_there_is_no_conflict_and_the_evening_is_never_over() -> None:
    table = start(CAST)
    assert table.conflict() is None
    assert table.result() == Result("the game")
    assert not table.result().over


def test_a_combat_under_way_is_not_over_and_has_no_winner() -> None:
    result = conflict(fighting())
    assert result.name == "the combat combat-1"
    assert not result.over
    assert result.winners == ()


def test_a_knock_out_ends_the_combat_and_the_one_left_standing_wins() -> None:
    """A knife of 5 hits bob (Stamina 5): knocked out; the combat ends; alf is the victor."""
    table = act(fighting(), "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.running
    result = conflict(table)
    assert result.over
    assert result.winners == ("alf",)  # passer took no part: never a winner
    assert dict(result.returns) == {"alf": 1, "bob": -1}
    assert "Alf left standing" in result.summary
    assert not table.result().over  # the evening goes on


def test_an_escape_ends_the_worked_example_and_the_escapee_neither_wins_nor_falls() -> None:
    """ "Escaping Combat", the worked example: ScarFace escapes the Amazing Krockin, "The combat
    is now over"; Krockin is left standing; ScarFace's return is 0."""
    scenario = load_scenario(EXAMPLES / "scarface-and-krockin.yaml")
    table = run_scenario(scenario).table
    before = table.undo(1)  # before the escape
    assert not conflict(before).over
    result = conflict(table)
    assert result.over
    assert result.winners == ("krockin",)
    assert dict(result.returns) == {"scarface": 0, "krockin": 1}
    assert "ScarFace escaped" not in result.summary  # someone was left standing
    assert "The Amazing Krockin left standing" in result.summary


def test_nobody_standing_but_an_escapee_has_no_winner() -> None:
    """bob escapes (the referee's record says so) and alf is down: nobody left standing."""
    state = fighting().state
    combat = state.combats[-1]
    down = state.with_status("alf", evolved(state.status("alf"), knocked_out=True))
    over = down.with_combat(evolved(combat, ended=True, escaped=frozenset({"bob"})))
    result = PROCEDURE.conflict(over)
    assert result is not None and result.over
    assert result.winners == ()
    assert dict(result.returns) == {"alf": -1, "bob": 0}
    assert "Bob escaped" in result.summary


def test_the_referee_ending_a_combat_with_both_standing_names_both() -> None:
    table = act(fighting(), "referee", "end_combat", combat="combat-1", reason="they part")
    result = conflict(table)
    assert result.over
    assert set(result.winners) == {"alf", "bob"}


def test_the_conflict_is_the_last_combat_begun() -> None:
    table = act(fighting(), "referee", "end_combat", combat="combat-1", reason="they part")
    table = act(table, "bob", "start_combat", targets=["passer"])
    result = conflict(table)
    assert result.name == "the combat combat-2" and not result.over


def test_every_page_is_sent_the_conflict() -> None:
    table = act(fighting(), "referee", "resolve", [6, 6, 6])
    seen = observe(table, Viewer("passer", frozenset({"passer"}))).to_json()["result"]
    assert seen["over"] is False and seen["name"] == "the game"
    assert seen["conflict"]["over"] is True
    assert seen["conflict"]["winners"] == ["alf"]
