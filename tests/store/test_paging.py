"""A table of any age loads from its latest snapshot and reads nothing older (issue 14: "load
time grows with the events since the last snapshot, not with the table's age"): its older
events and actions are paged in from their rows only when something reads them, and never
from a table an undo has rewritten since."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from referee.core import Action, StaleTableError, Table, observe
from referee.core.chunked import CHUNK
from referee.core.registry import system
from referee.dice import RandomSource
from referee.store import StoreError, open_store
from referee.store.schema import ACTIONS, EVENTS

NOTE = Action("scarface", "note", {"text": "hm"})
ATTACK = Action("scarface", "attack", {"target": "krockin"})


@cache
def long_record() -> dict[str, Any]:
    """A table three chunks long and more (one event per note, an attack now and then)."""
    table = system("kernel_toy").new_table({})
    while table.version < 3 * CHUNK + 100:
        action = ATTACK if table.version % 7 == 0 else NOTE
        table = table.act(action, RandomSource(7))
    return table.to_record()


def stored(url: str) -> tuple[str, Table[Any]]:
    """The long table imported (its snapshot at the end), then played on through the store."""
    store = open_store(url)
    table_id = store.import_record(long_record(), name="long").id
    table = store.load(table_id)
    for _ in range(5):
        table = store.act(table_id, NOTE, seat="scarface", expect_version=table.version)
    return table_id, table


def unread(table: Table[Any]) -> tuple[int, int]:
    return table.log._items.unread(), table.actions._items.unread()


def test_a_cold_load_reads_no_row_before_the_snapshots_chunk(url: str) -> None:
    table_id, played = stored(url)
    # the first chunk's rows gone: a load that read them would fail
    store = open_store(url)
    with store.engine.begin() as conn:
        conn.execute(EVENTS.delete().where(EVENTS.c.number <= CHUNK))
        conn.execute(ACTIONS.delete().where(ACTIONS.c.number <= CHUNK))
    table = open_store(url).load(table_id)
    assert table.state == played.state and table.version == played.version
    assert unread(table) == (3, 3)
    # what a seat's screen reads after its last version, and the next action, read no old row
    since = table.version - 3
    assert (
        observe(table, "scarface", since).to_json() == observe(played, "scarface", since).to_json()
    )
    after = open_store(url).act(table_id, NOTE, seat="scarface", expect_version=table.version)
    assert after.version == played.version + 1 and unread(after) == (3, 3)
    # reading the old log fetches it, and a row that is not there is an error, not a table
    assert table.log[CHUNK].number == CHUNK + 1 and unread(table)[0] == 2
    with pytest.raises(StoreError, match=f"missing rows 1 to {CHUNK}"):
        table.log[0]


def test_a_paged_table_is_the_whole_table(url: str) -> None:
    table_id, played = stored(url)
    table = open_store(url).load(table_id)
    assert unread(table) == (3, 3)
    assert table.to_record() == played.to_record() and table == played
    assert unread(table) == (0, 0)
    viewers = ["referee", "scarface", "krockin"]
    assert all(observe(table, v).to_json() == observe(played, v).to_json() for v in viewers)
    # an undo rebuilds from the snapshot, and is the kernel's undo of the whole table
    store = open_store(url)
    undone = store.undo(table_id, seat="referee")
    assert unread(undone) == (3, 3)
    assert undone.to_record() == played.undo(1).to_record()
    assert open_store(url).load(table_id) == played.undo(1)


def test_old_rows_are_never_read_from_a_table_an_undo_rewrote_since(url: str) -> None:
    table_id, _ = stored(url)
    read_before = open_store(url).load(table_id)
    other = open_store(url)
    other.act(table_id, NOTE, seat="scarface", expect_version=read_before.version)
    assert read_before.log[0].number == 1  # appended to since: its past is still its own
    read_again = open_store(url).load(table_id)
    other.undo(table_id, seat="referee")
    with pytest.raises(StaleTableError, match=f"you read version {read_again.version}"):
        read_again.log[CHUNK]
    assert open_store(url).load(table_id).log[CHUNK].number == CHUNK + 1
