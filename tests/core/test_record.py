"""The table record (docs/kernel.md, "The table record"): each action recorded whole and seen
by its audience, a record that replays to the very table it was written from and refuses one
that does not (its start, its dice, its events, its version), and undo."""

from __future__ import annotations

import re

import pytest

from referee.core import REFEREE, Action, ScenarioError, SeatError, Table, only
from referee.core.table import RECORD_FORMAT
from referee.dice import ScriptedSource

from .helpers import _NoReferee
from .test_table import PLAYERS, SETUP, new_table
from .toy_procedure import PROCEDURE

# -- an action's record --------------------------------------------------------------------------


def test_an_action_record_in_json_is_the_whole_record_dice_included() -> None:
    """The table record (docs/kernel.md, "The table record"): each action is written whole —
    its number, seat, actor, kind, parameters, time taken and asked, every die as (sides,
    face), the events it made and who may see it."""
    table = new_table().act(
        Action("scarface", "attack", {"target": "krockin"}),
        ScriptedSource([6, 5, 1, 2]),
        seat="alice",
        at=300,
    )
    assert table.actions[0].to_json() == {
        "number": 1,
        "seat": "alice",
        "actor": "scarface",
        "kind": "attack",
        "params": {"target": "krockin"},
        "at": 300,
        "asked_at": 300,
        "dice": [[6, 6], [6, 5], [6, 1], [6, 2]],
        "events": [2, 4],
        "audience": "everyone",
    }


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


def test_an_action_record_for_some_is_seen_by_them_without_its_dice_and_by_no_one_else() -> None:
    """The table record (docs/kernel.md): a record is seen by those its audience names (its
    dice left to the referee, the events show each viewer the rolls they may see) and the
    referee; anyone else sees nothing of it."""
    from referee.core.events import Viewer
    from referee.core.table import ActionRecord

    record = ActionRecord(
        number=1,
        seat="s1",
        actor="scarface",
        kind="perceive",
        params={},
        at=0,
        asked_at=None,
        dice=((6, 4),),
        events=(2, 2),
        audience=only("scarface"),
    )
    seen = record.seen_by(Viewer("scarface"))
    assert seen is not None and "dice" not in seen and "audience" not in seen
    assert seen["actor"] == "scarface"
    assert record.seen_by(Viewer("krockin")) is None
    by_referee = record.seen_by(Viewer(REFEREE))
    assert by_referee is not None and by_referee["dice"] == [[6, 4]]


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


def test_a_table_record_is_its_format_system_setup_seats_start_version_actions_and_events() -> None:
    """The table record holds the whole table, every secret included."""
    table = new_table().act(Action("krockin", "note", {"text": "hm"}), None)
    record = table.to_record()
    assert record == {
        "format": RECORD_FORMAT,
        "system": "kernel_toy",
        "setup": SETUP,
        "seats": [
            {"id": REFEREE, "plays": []},
            {"id": "alice", "plays": ["scarface"]},
            {"id": "bob", "plays": ["krockin"]},
            {"id": "edith", "plays": ["edith"]},
        ],
        "start": "19:00",
        "version": 2,
        "actions": [table.actions[0].to_json()],
        "events": table.log.to_json(),
    }


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


def test_a_record_that_holds_fewer_dice_than_its_action_rolls_is_refused_as_a_record() -> None:
    """A record replays each action with its recorded dice: one that needs a die the record
    does not hold is refused, naming the action."""
    table = new_table().act(
        Action("scarface", "attack", {"target": "krockin"}), ScriptedSource([6, 5, 1, 2])
    )
    record = table.to_record()
    record["actions"][0]["dice"].pop()
    with pytest.raises(ScenarioError, match=r"^actions\.0: .*the record holds no more dice"):
        Table.from_record(record, PROCEDURE)


def _played() -> Table:  # type: ignore[type-arg]
    """Three actions from three seats: alice's attack asked for five minutes on, bob's note,
    the referee's clock move past the alarm."""
    return (
        new_table()
        .act(
            Action("scarface", "attack", {"target": "krockin"}),
            ScriptedSource([6, 5, 1, 2]),
            seat="alice",
            at=300,
        )
        .act(Action("krockin", "note", {"text": "hm"}), None, seat="bob")
        .advance(3 * 3600, seat=REFEREE)
    )


def test_a_record_of_actions_from_several_seats_at_several_times_replays_to_the_same_table() -> (
    None
):
    table = _played()
    record = table.to_record()
    loaded = Table.from_record(record, PROCEDURE)
    assert loaded == table
    assert loaded.to_record() == record
    del record["version"]
    assert Table.from_record(record, PROCEDURE) == table


def test_a_record_whose_action_is_written_otherwise_than_it_replays_is_refused() -> None:
    """Each action must replay to the very record written: one that claims its attack was the
    referee's secret (an audience the game did not give it) is not the record of this
    table."""
    record = _played().to_record()
    record["actions"][0]["audience"] = []
    with pytest.raises(ScenarioError, match=r"^actions\.0: action 1 \(attack\) is recorded"):
        Table.from_record(record, PROCEDURE)


def test_a_record_that_says_another_version_than_it_holds_is_refused() -> None:
    record = _played().to_record()
    record["version"] += 1
    with pytest.raises(ScenarioError, match=r"^version: the record says version \d+, but"):
        Table.from_record(record, PROCEDURE)


@pytest.mark.parametrize(
    ("number", "cause"),
    [
        (2, "action 1 (attack)"),
        (4, "action 1 (attack)"),
        (6, "action 3 (advance)"),
        (7, "action 3 (advance)"),
    ],
)
def test_a_record_is_refused_at_any_event_its_action_did_not_produce(
    number: int, cause: str
) -> None:
    """Every event an action makes is checked against the record, its first and its last:
    one altered is named, with the action that produces something else."""
    record = _played().to_record()
    record["events"][number - 1]["audience"] = ["nobody"]
    with pytest.raises(
        ScenarioError,
        match=rf"^events\.{number - 1}: event {number} \(.*\) is not what {re.escape(cause)} ",
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
