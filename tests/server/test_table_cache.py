"""The table cache on PostgreSQL (docs/server.md, "Several processes"): a process trusts a table
it has read until a notification says the table changed. Its own change comes back to it as a
notification too, naming the version it already holds: that one keeps the table (issue 29: the
process's own NOTIFY emptied its cache, and the next read went to the database). Counted in
loads from the store, never timed."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from referee.core import Action, Table
from referee.server.live import TABLES_CHANNEL
from referee.server.state import TableCache, libpq_url, state_of

from .conftest import running


def _note(text: str) -> Action:
    return Action("scarface", "note", {"text": text})


def _held(cache: TableCache, table_id: str) -> Table[Any] | None:
    return cache.get(table_id)[0]


def test_a_notification_of_the_version_held_keeps_the_table() -> None:
    from tests.core.toy_procedure import PROCEDURE

    cache = TableCache()
    cache.trust(True)
    table = Table.start(PROCEDURE, {})
    _, generation = cache.get("t")
    cache.put("t", table, generation)
    cache.notified("t", table.version)  # this process's own change, coming back
    assert _held(cache, "t") is table
    cache.notified("t", table.version + 1)  # another process's change
    assert _held(cache, "t") is None
    cache.put("t", table, cache.get("t")[1])
    cache.notified("t", None)  # a notification that names no version: forget
    assert _held(cache, "t") is None


def test_the_processs_own_notification_keeps_its_table_cached(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action through this process: its notification names this process's store, so the
    listener lets it pass unheard (the process has the change already), and the reads after it
    are answered from the cache, without loading the table again. Another process's change
    notified after it is heard: PostgreSQL delivers them in order, so the own one came first."""
    with running(postgres_url) as server:
        state = state_of(server.client.app)
        seated = server.create()
        table = server.client.get(f"/api/tables/{seated.id}", headers=seated.auth("scarface"))
        version = table.json()["version"]
        heard: list[tuple[str, int | None]] = []
        other = threading.Event()
        notified = state.hub.notified

        def hearing(table_id: str, at: int | None = None) -> None:
            heard.append((table_id, at))
            notified(table_id, at)
            if table_id == "elsewhere":
                other.set()

        monkeypatch.setattr(state.hub, "notified", hearing)
        acted = server.client.post(
            f"/api/tables/{seated.id}/actions",
            json={
                "actor": "scarface",
                "kind": "note",
                "params": {"text": "hm"},
                "version": version,
            },
            headers=seated.auth("scarface"),
        )
        assert acted.status_code == 200, acted.text
        assert acted.json()["version"] == version + 1
        with psycopg.connect(libpq_url(postgres_url) or "", autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (TABLES_CHANNEL, "elsewhere:1:sother"))
        assert other.wait(30), "another process's notification never came"
        assert heard == [("elsewhere", 1)]  # the process's own went unheard
        loads: list[str] = []
        load = state.store.load

        def counted(table_id: str) -> Table[Any]:
            loads.append(table_id)
            return load(table_id)

        monkeypatch.setattr(state.store, "load", counted)
        for _ in range(3):
            seen = server.client.get(f"/api/tables/{seated.id}", headers=seated.auth("scarface"))
            assert seen.json()["version"] == version + 1
        assert loads == []


def test_a_change_whose_thread_finishes_last_hands_on_the_newest_table(
    sqlite_url: str,
) -> None:
    """Two actions on one table, the first one's thread finishing after the second's: what the
    process hands its cache and its live seats is the store's newest table, never the older
    one (which, on PostgreSQL, no notification of the process's own would put right)."""
    with running(sqlite_url) as server:
        state = state_of(server.client.app)
        seated = server.create()
        store = state.store
        first = store.act(seated.id, _note("a"), seat="scarface", expect_version=None)
        second = store.act(seated.id, _note("b"), seat="scarface", expect_version=None)
        state.changed(seated.id, second)
        state.changed(seated.id, first)  # the first action's thread, late
        assert state.load(seated.id) is second
        assert store.newest(seated.id, first) is second
