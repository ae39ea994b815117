"""The table record (docs/kernel.md, "The table record"): each action recorded whole and seen
by its audience, a record that replays to the very table it was written from and refuses one
that does not (its start, its dice, its events, its version), and undo."""

from __future__ import annotations

import pytest

from referee.core import REFEREE, Action, ScenarioError, SeatError, Table, only
from referee.dice import ScriptedSource

from .helpers import _NoReferee
from .test_table import PLAYERS, SETUP
from .toy_procedure import PROCEDURE

# -- an action's record --------------------------------------------------------------------------


def test_an_action_record_read_from_json_takes_its_defaults_for_what_it_leaves_out() -> None:
    """The table record (docs/kernel.md): an action record names its number, actor, kind, time
    and events; left out, its seat and asked time are none, its parameters and dice empty, and
    everyone may see it."""
    from referee.core.events import EVERYONE
    from referee.core.table import ActionRecord

    minimal = {"number": 3, "actor": "scarface", "kind": "rally", "at": 60, "events": [4, 5]}
    record = ActionRecord.from_json(minimal)
    assert record == ActionRecord(
        number=3,
        seat=None,
        actor="scarface",
        kind="rally",
        params={},
        at=60,
        asked_at=None,
        dice=(),
        events=(4, 5),
        audience=EVERYONE,
    )
    assert ActionRecord.from_json(record.to_json()) == record


def test_a_secret_action_is_recorded_for_its_actor_and_the_seat_that_took_it() -> None:
    """The table record (docs/kernel.md): an action whose spec keeps its record secret is seen
    by its actor and by the seat that took it, no one else; one taken with no seat, by its
    actor alone."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    slip = Action("scarface", "perceive", {"target": "krockin"})
    by_alice = table.act(slip, ScriptedSource([6, 6, 6]), seat="alice")
    assert by_alice.actions[-1].audience == only("alice", "scarface")
    by_referee = table.act(slip, ScriptedSource([6, 6, 6]), seat=REFEREE)
    assert by_referee.actions[-1].audience == only(REFEREE, "scarface")
    seatless = table.act(slip, ScriptedSource([6, 6, 6]))
    assert seatless.actions[-1].audience == only("scarface")


# -- a table's record, replayed ------------------------------------------------------------------


def test_a_replayed_table_keeps_the_setup_it_was_replayed_from() -> None:
    """``Table.replay`` folds a log from a setup: the table it gives is of that setup, at the
    state the log leads to."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource([4]))
    replayed = Table.replay(PROCEDURE, SETUP, table.log)
    assert replayed.setup == SETUP
    assert replayed.state == table.state
    assert list(replayed.log) == list(table.log)


def test_a_record_with_a_clock_move_replays_to_the_same_table() -> None:
    """The table record (docs/kernel.md): a record replays action by action, the referee's
    moves of the clock too, to the table it was written from."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.advance(600, seat=REFEREE).advance(3 * 3600)
    loaded = Table.from_record(table.to_record(), PROCEDURE)
    assert loaded.now == 3 * 3600
    assert list(loaded.log) == list(table.log)
    assert list(loaded.actions) == list(table.actions)
    record = table.to_record()
    del record["actions"][0]["params"]["to"]
    with pytest.raises(ScenarioError, match=r"action 1 \(advance\) is refused on replay"):
        Table.from_record(record, PROCEDURE)


def test_a_record_whose_first_events_are_not_the_games_start_is_refused_naming_the_start() -> None:
    """A record whose events before any action are not what the game logs at its start is
    refused, naming the start of play and the first event that differs."""
    record = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS).to_record()
    record["events"][0]["payload"]["name"] = "bell"
    with pytest.raises(
        ScenarioError,
        match=r"^events\.0: event 1 \(timer\.set\) is not what the start of play produces",
    ):
        Table.from_record(record, PROCEDURE)


# -- undo ----------------------------------------------------------------------------------------


def test_in_a_game_without_a_referee_a_seat_undoes_only_its_own_actions() -> None:
    """Undo (docs/kernel.md, "The table record"): in a game without a referee a seat may undo
    the last actions only if it took every one of them itself."""
    table = Table.start(_NoReferee(), SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("krockin", "rally", {"dice": 1}), ScriptedSource([3]), seat="bob")
    table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource([4]), seat="alice")
    undone = table.undo(1, seat="alice")
    assert [r.actor for r in undone.actions] == ["krockin"]
    for seat, count in (("bob", 1), ("alice", 2)):
        with pytest.raises(SeatError, match=f"seat '{seat}' may not undo"):
            table.undo(count, seat=seat)


def test_an_undo_takes_back_one_action_unless_told() -> None:
    """Undo: ``undo_to`` with no count is of the last action alone — it keeps the events
    before that action's first."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    for face in (3, 4):
        table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource([face]))
    assert table.undo_to() == table.actions[-1].events[0] - 1
    assert table.undo_to() != table.actions[-2].events[0] - 1
