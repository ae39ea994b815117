"""Durability and concurrency, on each database.

- A writer process appending in a loop is killed with SIGKILL at random moments, 100 times: no
  acknowledged action is lost, no half action is stored, and the table always loads to the
  state its stored actions replay to, ending at the last acknowledged action (or the one after
  it, committed but killed before it could say so).
- On SQLite, a process whose threads append on four tables, their writes sharing commits, is
  killed at random moments: on every table, the same as above.
- 8 processes act on one table at once, 1,000 actions in all, retrying on the stale error:
  each acknowledged action is stored exactly once, in one order, and the state is the replay
  of that order.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from referee.core import Table
from referee.core.registry import system
from referee.store import Store, open_store
from tests.store.workers import WRITER_APPLICATION

#: Processes killed and racing, seconds each: `make check` leaves them to `make test`.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
KILLS = 100 if os.environ.get("CI") else 50
"""Writers killed at random moments a run: a hundred in CI, half as many in the quick loop."""


def _acks(path: Path) -> list[tuple[int, int]]:
    if not path.exists():
        return []
    return [
        (int(a), int(v)) for a, v in (line.split() for line in path.read_text().split("\n") if line)
    ]


def _check(
    store: Store, table_id: str, before: int, acked: list[tuple[int, int]], created: int
) -> int:
    """Load the table as a fresh reader does, after a writer that found ``before`` actions
    stored and acknowledged ``acked`` was killed; the number of actions stored now."""
    store.forget()
    table = store.load(table_id)  # refuses a table whose rows and log disagree
    stored = len(table.actions)
    # none lost, at most one stored but unacknowledged (killed between commit and reply)
    assert [number for number, _ in acked] == list(range(before + 1, before + len(acked) + 1))
    assert stored in (before + len(acked), before + len(acked) + 1), (stored, before, acked)
    for number, version in acked:
        assert table.actions[number - 1].events[1] == version  # stored as acknowledged
    for record in table.actions:  # every action whole: each of its events is there
        first, final = record.events
        assert all(table.log[n - 1].cause == record.number for n in range(first, final + 1))
    # with no action stored, the table is as created (its set-up events: the dice committed,
    # the toy's timer), not version 1: a writer killed before its first commit left nothing
    assert table.version == (table.actions[-1].events[1] if stored else created)
    replayed = Table.replay(table.procedure, table.setup, table.log)
    assert replayed.state == table.state and replayed.clock == table.clock
    return stored


def _wait_for_growth(path: Path, timeout: float) -> None:
    size = path.stat().st_size if path.exists() else 0
    deadline = time.monotonic() + timeout
    while (path.stat().st_size if path.exists() else 0) == size:
        assert time.monotonic() < deadline, "the writer acknowledged nothing"
        time.sleep(0.002)


def _wait_for_the_server(store: Store) -> None:
    """On PostgreSQL, wait until the server has closed every session of the killed writer: a
    COMMIT the writer sent just before it died is still carried out (and the action stored,
    unacknowledged), and reading the table before that would miss it."""
    if store.url.get_backend_name() != "postgresql":
        return
    deadline = time.monotonic() + 30
    query = text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name")
    while True:
        with store.engine.connect() as conn:
            if not conn.execute(query, {"name": WRITER_APPLICATION}).scalar():
                return
        assert time.monotonic() < deadline, "the killed writer's sessions never closed"
        time.sleep(0.005)


def test_a_writer_killed_at_random_moments_loses_nothing(url: str, tmp_path: Path) -> None:
    store = open_store(url, snapshot_every=25)
    table_id = store.create_table("kernel_toy", {}, name="durability").id
    created = store.load(table_id).version
    acks = tmp_path / "acks"
    zygote = subprocess.Popen(
        [sys.executable, "-m", "tests.store.workers", "zygote", url, table_id, str(acks)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=ENV,
    )
    assert zygote.stdin is not None and zygote.stdout is not None
    chance = random.Random()
    stored = 0
    try:
        for kill in range(KILLS):
            zygote.stdin.write("fork\n")
            zygote.stdin.flush()
            ready = zygote.stdout.readline().split()
            assert ready[0] == "ready", ready  # the writer loaded the table
            # the first writer is killed at once (most often before its first commit: a table
            # with no action stored); the others mostly mid-stream, after an acknowledged append
            if kill and chance.random() < 0.8:
                _wait_for_growth(acks, timeout=30)
            if kill:
                time.sleep(chance.uniform(0.0, 0.1))
            pid = int(ready[1])
            os.kill(pid, signal.SIGKILL)
            assert zygote.stdout.readline().strip() == "done"
            _wait_for_the_server(store)
            this_run = [(n, v) for n, v in _acks(acks) if n > stored]
            stored = _check(store, table_id, stored, this_run, created)
    finally:
        zygote.stdin.close()
        zygote.wait(timeout=30)
    acked = _acks(acks)
    assert len(acked) >= KILLS // 2  # the writers did get somewhere between kills
    store = open_store(url)
    record = store.export(table_id)
    assert system("kernel_toy").load(record) == store.load(table_id)  # every action re-decided
    if store.url.get_backend_name() == "sqlite":
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"


def test_eight_processes_racing_store_each_action_once(url: str, tmp_path: Path) -> None:
    workers, each = 8, 125
    store = open_store(url)
    table_id = store.create_table("kernel_toy", {}, name="race").id
    acks = tmp_path / "acks"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.store.workers",
            "concurrent",
            url,
            table_id,
            str(acks),
            str(workers),
            str(each),
        ],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    acknowledged: list[str] = []
    stale = 0
    for worker in range(workers):
        lines = Path(f"{acks}.{worker}").read_text().split()
        stale += int(lines[-1]) if lines[-2] == "stale" else 0
        acknowledged += [line for line in lines if line.startswith("c")]
    assert len(acknowledged) == workers * each == 1000
    table = open_store(url).load(table_id)
    stored = [str(r.params["text"]) for r in table.actions]
    assert sorted(stored) == sorted(acknowledged)  # each once: none lost, none doubled
    assert len(set(stored)) == len(stored)
    for worker in range(workers):  # each worker's own actions in the order it took them
        mine = [s for s in stored if s.startswith(f"c{worker}-")]
        assert mine == [f"c{worker}-{k}" for k in range(each)]
    replayed = system("kernel_toy").load(table.to_record())  # re-decided in the stored order
    assert replayed.state == table.state and replayed.state.notes == 1000
    assert stale > 0  # they did race


THREADED_KILLS = 20 if os.environ.get("CI") else 8


def test_writers_sharing_commits_killed_at_random_moments_lose_nothing(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The group commit (docs/store.md): a write returns only once the commit that holds it is
    done, so a process killed with a shared commit under way has acknowledged none of its
    writes; each table keeps every acknowledged action and at most the one its thread had in
    flight."""
    store = open_store(sqlite_url)
    tables = [store.create_table("kernel_toy", {}, name=f"t{i}").id for i in range(4)]
    created = {t: store.load(t).version for t in tables}
    stored = dict.fromkeys(tables, 0)
    acks = tmp_path / "acks"
    chance = random.Random()
    shared = 0
    for _ in range(THREADED_KILLS):
        acks.write_text("")
        command = ["threads", sqlite_url, ",".join(tables), str(acks)]
        writer = subprocess.Popen(
            [sys.executable, "-m", "tests.store.workers", *command],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=ENV,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline().split()[0] == "ready"
        _wait_for_growth(acks, timeout=30)
        time.sleep(chance.uniform(0.0, 0.1))
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        lines = [line.split() for line in acks.read_text().split("\n") if line]
        for table_id in tables:
            mine = [(int(n), int(v)) for t, n, v, _ in lines if t == table_id]
            stored[table_id] = _check(store, table_id, stored[table_id], mine, created[table_id])
        if lines:
            shared += len(lines) - int(lines[-1][3])  # acknowledged beyond the commits made
    assert sum(stored.values()) >= THREADED_KILLS
    assert shared > 0  # their writes did share commits
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
