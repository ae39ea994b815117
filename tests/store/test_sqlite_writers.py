"""SQLite writers of one process queue on a lock (docs/store.md; issue 29): SQLite lets one
writer in at a time, and a writer that finds another in its way waits in SQLite's busy handler,
polling and sleeping. The store's writers of one process wait on one lock per database file
instead, so none of them ever meets another inside SQLite. With SQLite's busy handler turned
off (a zero timeout), any writer that met another would fail at once with "database is
locked": none does."""

from __future__ import annotations

import threading

import pytest

from referee.core import Action
from referee.store import Store, StoreError, engine, open_store

WRITERS = 8
ACTIONS = 12


def test_writers_in_many_threads_queue_in_the_process_not_in_sqlite(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "BUSY_TIMEOUT_SECONDS", 0)  # meeting another writer fails
    stores = [open_store(sqlite_url), open_store(sqlite_url)]  # two engines, one file
    tables = [stores[0].create_table("kernel_toy", {}, name=f"t{i}") for i in range(WRITERS)]
    start = threading.Barrier(WRITERS)
    locked: list[str] = []

    def write(store: Store, table_id: str) -> None:
        start.wait()
        for i in range(ACTIONS):
            try:
                store.act(
                    table_id,
                    Action("scarface", "note", {"text": f"n{i}"}),
                    seat="scarface",
                    expect_version=None,
                )
            except StoreError as error:
                locked.append(str(error))

    threads = [
        threading.Thread(target=write, args=(stores[i % 2], created.id))
        for i, created in enumerate(tables)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert locked == []
    for created in tables:
        assert len(open_store(sqlite_url).load(created.id).actions) == ACTIONS
