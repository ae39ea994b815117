"""What storing an action costs the database (issue 29): on SQLite every statement of an
action's transaction goes straight through the driver — ``BEGIN IMMEDIATE``, the table's row
read, the compare-and-set, the rows — none through SQLAlchemy's execution, and a failure there
is still the store's one-line error; on PostgreSQL the row is read locked (``FOR UPDATE``) and
the rest, the commit included, sent in one round trip.
The statements are counted, never timed."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from referee.core import Action
from referee.core.errors import StaleTableError
from referee.dice import RandomSource
from referee.store import StoreError, open_store
from referee.store.engine import write_transaction
from referee.store.rows import Conflict, append_committed, read_table_row


def _rally(store: Any, table_id: str, version: int) -> int:
    """One rally of the toy's (a pool of 2d6, one event) on ``version``: the version after."""
    return int(
        store.act(
            table_id, Action("scarface", "rally", {"dice": 2}), seat=None, expect_version=version
        ).version
    )


def test_an_action_on_sqlite_goes_straight_through_the_driver(sqlite_url: str) -> None:
    """Every statement through the driver, on the one connection the engine's writers share
    (taken from the pool at the first write and kept: no checkout an action)."""
    with open_store(sqlite_url) as store:
        built: list[str] = []
        sent: list[str] = []
        checkouts: list[object] = []

        def counted(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            built.append(statement)

        def traced(dbapi: Any, _record: Any, _proxy: Any) -> None:
            checkouts.append(dbapi)
            dbapi.set_trace_callback(sent.append)

        event.listen(store.engine, "checkout", traced)
        made = store.create_table("kernel_toy", {}, name="t")
        event.listen(store.engine, "before_cursor_execute", counted)
        version = made.table.version
        for _ in range(3):
            built.clear()
            sent.clear()
            checkouts.clear()
            version = _rally(store, made.id, version)
            assert checkouts == []
            assert built == []
            assert [s.split()[0] for s in sent] == [
                "BEGIN",
                "SELECT",  # the table's row
                "UPDATE",  # the compare-and-set
                "INSERT",  # the action
                "INSERT",  # its event
                "COMMIT",
            ], sent
            assert "referee_tables" in sent[1]


def test_an_action_on_postgresql_is_two_statements_straight_through_the_driver(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row read locked (``FOR UPDATE``), then the compare-and-set, the rows, the
    notification and the commit in one string of statements, one round trip: every statement
    psycopg's own, none through SQLAlchemy's execution (its statement building was a quarter of
    the store's CPU per action here), and no ping of the connection taken from the pool."""
    with open_store(postgres_url) as store:
        made = store.create_table("kernel_toy", {}, name="t")
        built: list[str] = []
        sent: list[str] = []

        class Recording(psycopg.Cursor[Any]):
            def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
                sent.append(str(query))
                return super().execute(query, params, **kwargs)

        def recording(dbapi: Any, _record: Any, _proxy: Any) -> None:
            dbapi.cursor_factory = Recording

        bound = psycopg.ClientCursor.execute

        def bound_recorded(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
            sent.append(str(query))
            return bound(self, query, params, **kwargs)

        monkeypatch.setattr(psycopg.ClientCursor, "execute", bound_recorded)
        event.listen(store.engine, "checkout", recording)
        event.listen(
            store.engine,
            "before_cursor_execute",
            lambda conn, cursor, statement, *args: built.append(statement),
        )
        version = made.table.version
        for _ in range(2):
            sent.clear()
            version = _rally(store, made.id, version)
            assert built == []
            read, written = sent
            assert read.startswith("SELECT id, system,") and read.endswith("FOR UPDATE"), sent
            assert [" ".join(s.split()[:3]) for s in written.split("; ")] == [
                "WITH changed AS",  # the compare-and-set
                "INSERT INTO referee_actions",
                "INSERT INTO referee_events",
                "SELECT pg_notify(%s, %s)",
                "COMMIT",
            ], written
        assert store.version(made.id) == version


def test_a_compare_and_set_on_postgresql_that_changes_no_row_stores_nothing(
    postgres_url: str,
) -> None:
    """Another writer between the read and the write: the compare-and-set changes no row, and
    neither the rows nor the commit sent with it are run (the store reports the table stale)."""
    with open_store(postgres_url) as store:
        made = store.create_table("kernel_toy", {}, name="t")
        with store.engine.connect() as conn, conn.begin():
            stale = read_table_row(conn, made.id)
        assert stale is not None
        version = _rally(store, made.id, made.table.version)  # the other writer
        table = store.load(made.id)
        after = table.act(Action("scarface", "rally", {"dice": 2}), RandomSource(seed=1))
        actions = [after.actions[n] for n in range(len(table.actions), len(after.actions))]
        events = after.log.since(table.version)
        with pytest.raises(Conflict), write_transaction(store.engine) as conn:
            append_committed(conn, stale, after, actions, events, origin="t")
        with store.engine.connect() as conn:
            stored = conn.exec_driver_sql(
                "SELECT count(*) FROM referee_events WHERE table_id = %(id)s", {"id": made.id}
            ).scalar()
        assert (stored, store.version(made.id)) == (version, version)


def test_a_failure_straight_through_the_driver_is_the_stores_error(sqlite_url: str) -> None:
    with open_store(sqlite_url) as store:
        made = store.create_table("kernel_toy", {}, name="t")
        path = sqlite_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as other:
            other.execute("ALTER TABLE referee_tables RENAME TO elsewhere")
        with pytest.raises(StoreError, match="no such table: referee_tables"):
            store.act(
                made.id,
                Action("scarface", "rally", {"dice": 2}),
                seat=None,
                expect_version=made.table.version,
            )


def test_the_writers_connection_outlives_a_refusal_not_a_failure(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused action (a stale version) leaves the writers' connection as it was; a failure
    of the database inside the transaction closes it, stores nothing, and the next write opens
    another."""
    from referee.store import store as store_module

    with open_store(sqlite_url) as store:
        made = store.create_table("kernel_toy", {}, name="t")
        checkouts: list[object] = []
        event.listen(store.engine, "checkout", lambda dbapi, *_: checkouts.append(dbapi))
        version = _rally(store, made.id, made.table.version)
        with pytest.raises(StaleTableError):
            _rally(store, made.id, version - 1)
        version = _rally(store, made.id, version)
        assert checkouts == []

        def broken(*args: Any) -> int:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(store_module, "append_sqlite", broken)
        with pytest.raises(StoreError, match="disk I/O error"):
            _rally(store, made.id, version)
        monkeypatch.undo()
        assert store.version(made.id) == version
        assert len(checkouts) == 1  # (the read just now)
        assert _rally(store, made.id, version) == version + 1
        assert len(checkouts) == 2  # a fresh connection for the writers


def test_a_failure_straight_through_psycopg_is_the_stores_error(postgres_url: str) -> None:
    """The row read and the rows go straight through psycopg: a database failure there (a
    lock not granted within the session's ``lock_timeout``, here) is still the store's one-line
    error, and nothing is stored."""
    locked_url = postgres_url + ("&" if "?" in postgres_url else "?")
    locked_url += "options=-c%20lock_timeout%3D100"
    with open_store(postgres_url) as store, open_store(locked_url) as impatient:
        made = store.create_table("kernel_toy", {}, name="t")
        with store.engine.begin() as holder:
            holder.exec_driver_sql(
                "SELECT id FROM referee_tables WHERE id = %(id)s FOR UPDATE", {"id": made.id}
            )
            with pytest.raises(StoreError, match="lock"):
                _rally(impatient, made.id, made.table.version)
        assert store.version(made.id) == made.table.version
