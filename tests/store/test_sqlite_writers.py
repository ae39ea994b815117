"""SQLite writers of one process queue on a lock (docs/store.md; issue 29): SQLite lets one
writer in at a time, and a writer that finds another in its way waits in SQLite's busy handler,
polling and sleeping. The store's writers of one process wait on one lock per database file
instead, so none of them ever meets another inside SQLite. With SQLite's busy handler turned
off (a zero timeout), any writer that met another would fail at once with "database is
locked": none does."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

import pytest
from sqlalchemy import event

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


# -- one commit for the writes queued behind each other (a group commit) ------------------------


def _queued(store: Store, count: int, targets: list[object]) -> list[threading.Thread]:
    """``targets`` started in threads while the file's lock is held (here, or by a write),
    returned once ``count`` writers are queued for it (the lock still held: the caller lets
    them in, in whatever order the lock wakes them)."""
    writers = engine._WRITERS_BY_ENGINE[store.engine]
    threads = [threading.Thread(target=t) for t in targets]  # type: ignore[arg-type]
    for n, thread in enumerate(threads, 1):  # (one at a time: they queue in this order)
        thread.start()
        while True:
            with writers.counting:
                if writers.queued == n:
                    break
            time.sleep(0.001)
    assert len(threads) == count
    return threads


def _note(store: Store, table_id: str, text: str, happened: list[str]) -> None:
    store.act(
        table_id, Action("scarface", "note", {"text": text}), seat="scarface", expect_version=None
    )
    happened.append(f"stored {text}")


def test_the_writes_queued_behind_each_other_share_one_commit_and_return_after_it(
    sqlite_url: str,
) -> None:
    with open_store(sqlite_url) as store:
        tables = [store.create_table("kernel_toy", {}, name=f"t{i}") for i in range(5)]
        happened: list[str] = []
        event.listen(store.engine, "commit", lambda _conn: happened.append("commit"))
        lock = engine._WRITERS_BY_ENGINE[store.engine].lock
        with lock:
            threads = _queued(
                store,
                5,
                [lambda t=t: _note(store, t.id, t.id, happened) for t in tables],
            )
        for thread in threads:
            thread.join()
        assert happened[0] == "commit"
        assert happened.count("commit") == 1
        assert sorted(happened[1:]) == sorted(f"stored {t.id}" for t in tables)
    with open_store(sqlite_url) as fresh:
        for created in tables:
            assert len(fresh.load(created.id).actions) == len(created.table.actions) + 1


def test_a_refusal_among_them_takes_back_its_own_writes_alone(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writes that wrote and then were refused, queued with two that were not behind a
    write still inside its transaction: whichever order the lock lets them in (a lock is not
    a queue), they join the transaction the first began, so the refusals' writes are taken
    back by their own savepoints alone, and the three actions are stored by one commit."""
    with open_store(sqlite_url) as store:
        tables = [store.create_table("kernel_toy", {}, name=f"t{i}") for i in range(5)]
        happened: list[str] = []
        refused: list[str] = []
        commits: list[object] = []
        event.listen(store.engine, "commit", commits.append)

        joined: list[bool] = []

        def renamed_then_refused(table_id: str) -> None:
            try:
                with engine.write_transaction(store.engine) as conn:
                    batch = engine._WRITERS_BY_ENGINE[store.engine].batch
                    joined.append(batch is not None and batch.writes > 0)
                    conn.exec_driver_sql(
                        "UPDATE referee_tables SET name = 'renamed' WHERE id = ?", (table_id,)
                    )
                    raise ValueError("refused")
            except ValueError as error:
                refused.append(str(error))

        notes = [lambda t=t: _note(store, t.id, t.id, happened) for t in tables[2:]]
        refusals = [lambda t=t: renamed_then_refused(t.id) for t in tables[:2]]
        first = threading.Thread(target=notes[0])
        inside, go = threading.Event(), threading.Event()

        hand_on = engine._hand_on

        def held_after_its_write(*args: Any, **kwargs: Any) -> None:
            """The first write, done and not committed, holds the lock till the rest queue."""
            if threading.current_thread() is first and not inside.is_set():
                inside.set()
                go.wait(30)
            hand_on(*args, **kwargs)

        monkeypatch.setattr(engine, "_hand_on", held_after_its_write)
        first.start()
        assert inside.wait(30)
        threads = _queued(store, 4, [refusals[0], notes[1], refusals[1], notes[2]])
        go.set()
        for thread in [first, *threads]:
            thread.join()
        assert refused == ["refused", "refused"]
        assert joined == [True, True]
        assert len(happened) == 3
        assert len(commits) == 1
    with open_store(sqlite_url) as fresh:
        with fresh.engine.connect() as conn:
            names = conn.exec_driver_sql("SELECT name FROM referee_tables").scalars().all()
        assert sorted(names) == [f"t{i}" for i in range(5)]
        for created in tables[2:]:
            assert len(fresh.load(created.id).actions) == len(created.table.actions) + 1


def test_a_failed_commit_fails_every_write_it_held_and_stores_none(sqlite_url: str) -> None:
    with open_store(sqlite_url) as store:
        tables = [store.create_table("kernel_toy", {}, name=f"t{i}") for i in range(3)]
        failed: list[str] = []
        once = [True]

        def fail(_conn: object) -> None:
            if once.pop() if once else False:
                raise sqlite3.OperationalError("disk I/O error")

        event.listen(store.engine, "commit", fail)

        def note(table_id: str) -> None:
            try:
                _note(store, table_id, "lost", [])
            except StoreError as error:
                failed.append(str(error))

        with engine._WRITERS_BY_ENGINE[store.engine].lock:
            threads = _queued(store, 3, [lambda t=t: note(t.id) for t in tables])
        for thread in threads:
            thread.join()
        assert len(failed) == 3
        assert all("disk I/O error" in f and "\n" not in f for f in failed)
        _note(store, tables[0].id, "kept", [])  # the next write: a fresh connection
    with open_store(sqlite_url) as fresh:
        assert [len(fresh.load(t.id).actions) for t in tables] == [
            len(tables[0].table.actions) + 1,
            len(tables[1].table.actions),
            len(tables[2].table.actions),
        ]
