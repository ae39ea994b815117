"""Restarts under a live table (``referee serve`` on PostgreSQL, seats on sockets): PostgreSQL
dropping every connection of the server (its LISTEN connection and its pool, as a restart of
the database does), and one worker of ``--workers 2`` killed.

The database is never restarted for real (other programs share it): the test's own database's
sessions are ended with ``pg_terminate_backend``, which is what a restart does to them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from referee.core import Action
from referee.store import Store, open_store
from tests.server.test_processes import PATIENCE, live, message, serving

#: Real server processes, seconds each to start: `make check` leaves them to `make test`.
pytestmark = pytest.mark.slow

_T = TypeVar("_T")


def eventually(what: str, probe: Callable[[], _T | None]) -> _T:
    """``probe()``'s first answer that is not ``None``, asked until :data:`PATIENCE` runs out (a
    deadline, not a verdict on speed)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {PATIENCE} s")
        time.sleep(0.05)


class Sessions:
    """The sessions PostgreSQL holds on one test database, seen (and ended) from the server the
    tests make their databases on; never another database's."""

    def __init__(self, admin: str, url: str) -> None:
        self._engine = create_engine(admin, isolation_level="AUTOCOMMIT")
        self.database = make_url(url).database

    def listening(self) -> set[int]:
        """The process ids of the sessions whose last statement was a ``LISTEN``."""
        return self._pids("query LIKE 'LISTEN%'")

    def every(self) -> set[int]:
        """The process ids of every session on the database."""
        return self._pids("true")

    def terminate_all(self) -> set[int]:
        """End every session on the database (what a restart of PostgreSQL does to them), each
        waited for (up to 5 s) until it is gone, as a restart's are before it is back."""
        with self._engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT pid, pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": self.database},
            )
            return {int(pid) for pid, ended in rows if ended}

    def _pids(self, where: str) -> set[int]:
        with self._engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT pid FROM pg_stat_activity "
                    f"WHERE datname = :name AND pid <> pg_backend_pid() AND {where}"
                ),
                {"name": self.database},
            )
            return {int(row[0]) for row in rows}

    def close(self) -> None:
        self._engine.dispose()


def create(base: str) -> tuple[str, dict[str, str], int]:
    """A kernel toy table through the API: its id, each seat's token, its version."""
    created = httpx.post(
        f"{base}/api/tables", json={"system": "kernel_toy", "setup": {}, "name": "restarts"}
    ).json()
    return created["id"], {s["id"]: s["token"] for s in created["seats"]}, created["version"]


def note(base: str, table_id: str, token: str, version: int, words: str) -> httpx.Response:
    """A ``note`` through the API, as the seat of ``token``."""
    return httpx.post(
        f"{base}/api/tables/{table_id}/actions",
        headers={"Authorization": f"Bearer {token}"},
        json={"kind": "note", "params": {"text": words}, "version": version},
        timeout=PATIENCE,
    )


def test_a_seat_is_pushed_again_after_postgresql_drops_every_connection_of_the_server(
    postgres_url: str, postgres_admin: str
) -> None:
    """PostgreSQL ends the server's LISTEN session and its pooled ones. Another program acts
    while the server may not be listening yet, and again once it listens anew: the seat is
    pushed both, and acting through the server works at once (no dead pooled connection is
    handed to a request)."""
    sessions = Sessions(postgres_admin, postgres_url)
    store: Store | None = None
    try:
        with serving(postgres_url, poll_seconds="0") as base:
            table_id, tokens, v = create(base)
            with live(base, table_id, tokens["krockin"]) as krockin:
                assert message(krockin, PATIENCE)["version"] == v
                before = eventually("the server's LISTEN", lambda: sessions.listening() or None)
                assert note(base, table_id, tokens["scarface"], v, "warm").status_code == 200
                v += 1
                assert message(krockin, PATIENCE)["version"] == v
                ended = sessions.terminate_all()
                assert before <= ended and len(ended) > len(before)  # the pool's too

                # another program acts while the server may still be reconnecting
                store = open_store(postgres_url)
                store.act(
                    table_id, Action("krockin", "rally", {}), seat="krockin", expect_version=v
                )
                v += 1
                pushed = message(krockin, PATIENCE)
                assert pushed["version"] == v and pushed["events"][-1]["kind"] == "rally.rolled"

                # listening again (a new session): a change elsewhere comes through NOTIFY
                eventually("a new LISTEN", lambda: (sessions.listening() - before) or None)
                store.act(
                    table_id, Action("krockin", "rally", {}), seat="krockin", expect_version=v
                )
                v += 1
                assert message(krockin, PATIENCE)["version"] == v

                # the server acts: its pool holds no dead connection
                acted = note(base, table_id, tokens["scarface"], v, "after")
                assert acted.status_code == 200, acted.text
                v += 1
                assert message(krockin, PATIENCE)["version"] == v
    finally:
        if store is not None:
            store.close()
        sessions.close()


# -- one worker of several killed --------------------------------------------------------------


def _processes() -> dict[int, tuple[int, str]]:
    """Every process of this machine: its parent's id and its command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parent = next(int(x.split()[1]) for x in status.splitlines() if x.startswith("PPid:"))
        found[int(entry.name)] = (parent, line)
    return found


def workers_of(port: int) -> set[int]:
    """The worker processes of the ``referee serve`` on ``port``: the children uvicorn's
    supervisor spawned (not its resource tracker)."""
    every = _processes()
    masters = {pid for pid, (_, line) in every.items() if f"--port {port} " in line}
    return {
        pid for pid, (parent, line) in every.items() if parent in masters and "spawn_main" in line
    }


def holder(port: int, client_port: int, workers: set[int]) -> int | None:
    """The worker holding the server's end of the connection from ``client_port`` (read from
    ``/proc/net/tcp`` and each worker's file descriptors)."""
    inode = None
    for row in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        cols = row.split()
        local, remote = cols[1].split(":"), cols[2].split(":")
        if int(local[1], 16) == port and int(remote[1], 16) == client_port:
            inode = cols[9]
    if inode is None:
        return None
    for pid in workers:
        with contextlib.suppress(OSError, ValueError, httpx.HTTPError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError, ValueError, httpx.HTTPError):
                    if os.readlink(fd) == f"socket:[{inode}]":
                        return pid
    return None


@dataclass
class Watcher:
    """One seat's socket as a page keeps it: the events it has (each push's appended, a reset's
    in their place), the version and tag it last saw; it reconnects from them when the socket
    dies."""

    base: str
    table_id: str
    token: str
    version: int = 0
    tag: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    reconnected: int = 0

    def __post_init__(self) -> None:
        self.socket = self._open()

    def _open(self) -> Any:
        url = self.base.replace("http://", "ws://")
        url += f"/api/tables/{self.table_id}/live?since={self.version}"
        if self.tag is not None:
            url += f"&tag={self.tag}"
        headers = {"Authorization": f"Bearer {self.token}"}
        return connect(url, additional_headers=headers, open_timeout=5, legacy=True)

    def take(self, pushed: dict[str, Any]) -> None:
        """A push in: its events added (after a reset, in place of all), its version kept."""
        if pushed.get("reset") or pushed.get("since", 0) == 0:
            self.events = []
        last = self.events[-1]["number"] if self.events else 0
        self.events += [e for e in pushed["events"] if e["number"] > last]
        self.version, self.tag = int(pushed["version"]), pushed.get("tag")

    def until(self, version: int) -> None:
        """Read pushes until the seat has seen ``version``, reconnecting (from what it has)
        whenever the socket dies."""
        deadline = time.monotonic() + PATIENCE
        while self.version < version:
            left = deadline - time.monotonic()
            assert left > 0, f"the seat saw version {self.version}, not {version}"
            try:
                self.take(message(self.socket, left))
            except ConnectionClosed:
                self.socket = self._open()
                self.reconnected += 1

    def close(self) -> None:
        self.socket.close()


@dataclass
class Actor:
    """Notes taken through the API in a loop, each with words of its own, on a fresh connection
    each (so that both workers answer some): what was acknowledged, what is not known (the
    connection died), and what was refused other than for a stale version (nothing should be)."""

    base: str
    table_id: str
    token: str
    version: int
    acknowledged: list[tuple[str, int]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        number = 0
        while not self.stop.is_set():
            number += 1
            words = f"note {number}"
            try:
                acted = note(self.base, self.table_id, self.token, self.version, words)
            except httpx.HTTPError:
                self.unknown.append(words)  # the worker died under it: committed or not
                acted = None
            if acted is not None and acted.status_code == 200:
                self.version = int(acted.json()["version"])
                self.acknowledged.append((words, self.version))
                continue
            if acted is not None and acted.status_code != 409:  # a stale version is expected
                self.refused.append(f"{acted.status_code} {acted.text}")
            with contextlib.suppress(OSError, ValueError, httpx.HTTPError):
                read = httpx.get(f"{self.base}/api/tables/{self.table_id}", headers=headers)
                self.version = int(read.json()["version"])


def test_a_killed_worker_loses_no_acknowledged_action_and_its_seats_catch_up(
    postgres_url: str,
) -> None:
    """``--workers 2``: seats on sockets, notes taken in a loop; one worker ``kill -9``ed. Every
    note acknowledged is in the log once, none twice; the seats whose socket died reconnect
    (uvicorn's supervisor starts a worker in the dead one's place) and end with the store's
    version and the events the store shows them."""
    with serving(postgres_url, workers=2, poll_seconds="0") as base:
        port = int(base.rsplit(":", 1)[1])
        workers = eventually(
            "two workers", lambda: workers_of(port) if len(workers_of(port)) == 2 else None
        )
        table_id, tokens, v = create(base)
        seats = ["krockin", "scarface", "referee"] * 3
        watchers = [Watcher(base, table_id, tokens[seat]) for seat in seats]
        for watcher in watchers:
            watcher.until(v)
        victim = holder(port, watchers[0].socket.socket.getsockname()[1], workers)
        assert victim is not None
        on_victim = [
            w for w in watchers if holder(port, w.socket.socket.getsockname()[1], workers) == victim
        ]

        actor = Actor(base, table_id, tokens["scarface"], v)
        acting = threading.Thread(target=actor.run)
        acting.start()
        try:
            eventually("five notes", lambda: len(actor.acknowledged) >= 5 or None)
            os.kill(victim, signal.SIGKILL)
            after = len(actor.acknowledged)
            eventually("ten more notes", lambda: len(actor.acknowledged) >= after + 10 or None)
            respawned = eventually(
                "a worker in the dead one's place",
                lambda: (workers_of(port) - workers) or None,
            )
        finally:
            actor.stop.set()
            acting.join(PATIENCE)

        store = open_store(postgres_url)
        try:
            table = store.load(table_id)
        finally:
            store.close()
        notes = [str(a.params["text"]) for a in table.actions if a.kind == "note"]
        assert len(notes) == len(set(notes)), "a note was taken twice"
        assert {words for words, _ in actor.acknowledged} <= set(notes)
        assert set(notes) <= {w for w, _ in actor.acknowledged} | set(actor.unknown)
        assert actor.refused == []
        versions = [version for _, version in actor.acknowledged]
        assert versions == sorted(set(versions))

        for watcher, seat in zip(watchers, seats, strict=True):
            watcher.until(table.version)
            shown = httpx.get(
                f"{base}/api/tables/{table_id}", headers={"Authorization": f"Bearer {tokens[seat]}"}
            ).json()
            assert watcher.version == shown["version"] == table.version
            assert watcher.events == shown["events"]
            watcher.close()
        assert all(w.reconnected for w in on_victim)
        assert respawned and victim not in workers_of(port)
