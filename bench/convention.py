"""The server under a convention's load, against an anchor (issue 29, "Benchmarks").

    .venv/bin/python bench/convention.py            # SQLite and PostgreSQL, about 10 minutes
    .venv/bin/python bench/convention.py --quick    # SQLite only, under a minute (make bench)

Two servers, one after the other in the same run, on the same database, driven by the same load
tool (this file): ``referee serve`` (one process, the kernel's toy game, six seats a table, the
``rally`` action: a pool of d6 rolled, one event) and the anchor (``bench/anchor_server.py``:
FastAPI + uvicorn doing only the same transaction: read the version, insert the action and its
event, commit, push a small message to the table's sockets). For each:

- **sockets**: 50 tables × 6 seats, every seat on a WebSocket that reads all the time (each
  message's bytes counted and its JSON ``version`` read, whatever else the push holds);
- **sustained**: one keep-alive connection a table acting as fast as the server answers, each on
  the version it last read, for ``--seconds``: actions/s, and the server process's CPU time
  (``/proc/<pid>/stat``, every thread) from the first action until every socket has the last
  version, per action;
- **paced**: 40 actions/s spread over the 50 tables (open loop) for ``--seconds``: the time from
  sending an action until the last of its table's six seats has a push with its version,
  median and p99; CPU per action again;
- **age**: a table of about 100 events and one grown to 10,000 (written to the database
  directly, as its own store would: the server has never seen it), six seats on each, actions
  taken one at a time on each in turn: bytes per push and CPU per action on each, and their
  ratio;
- **memory**: the server's RSS (``VmRSS``) with the 300 sockets, after the acting above; then
  100 more sockets that never read (raw sockets with a small receive buffer, two seats of each
  table), the tables acted on at 40/s for ``--seconds``, RSS again.

Each figure has beside it the machine's load average (``os.getloadavg()``, one minute) when it
was taken: the machine's two cores are shared with other work and with this client. Ratios are
Referee's figure over the anchor's. The figures are printed as a table and written to
``build/bench/convention.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import bisect
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.server import (  # noqa: E402
    CHARACTERS,
    HOST,
    PYTHON,
    SEATS,
    TABLES,
    Connection,
    free_port,
    p99,
    postgres_database,
    referee_env,
    wait_up,
)

OUT = ROOT / "build" / "bench"
PACE = 40.0
"""Actions per second in the paced phase (the issue's push p99 is taken at 40/s)."""
NEVER_READING = 100
OLD_EVENTS = 10_000
YOUNG_EVENTS = 100
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
GOALS = {
    "cpu_per_action": "≤ 1.5× the anchor's",
    "actions_per_second": "≥ 0.8× the anchor's",
    "push_p99": "< 50 ms and ≤ 2× the anchor's",
    "age": "bytes per push and CPU per action at 10,000 events within 10% of 100 events",
    "rss_300": "< 400 MB",
    "rss_never_reading": "+ < 50 MB",
}


# ------------------------------------------------------------------------ the server's process


def cpu_seconds(pid: int) -> float:
    """CPU time of process ``pid`` so far, every thread, ended ones included: the kernel's CPU
    clock of that process (nanoseconds), or ``/proc/<pid>/stat``'s user and system ticks
    (hundredths of a second) where that clock cannot be read."""
    try:
        return time.clock_gettime(((~pid) << 3) | 2)  # Linux: MAKE_PROCESS_CPUCLOCK(pid, SCHED)
    except OSError:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` now, in MB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def load() -> float:
    """The machine's load average over the last minute."""
    return round(os.getloadavg()[0], 2)


@contextmanager
def serve(args: list[str], path: str, env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """Start a server on a free port (``{port}`` in ``args``) → (port, pid) once ``path``
    answers 200; stopped on leaving."""
    port = free_port()
    args = [a.replace("{port}", str(port)) for a in args]
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        wait_up(port, proc, path)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def referee_command(url: str) -> tuple[list[str], str, dict[str, str]]:
    """``referee serve``, one process, the toy game loaded, no rate limits; every client is
    127.0.0.1 here, so the per-address cap on sockets is lifted (a venue's is sized by
    docs/deploy.md)."""
    args = [PYTHON, "-c", "from referee.cli import main; main()", "serve", "--host", HOST]
    args += ["--port", "{port}", "--database", url, "--workers", "1", "--log-level", "warning"]
    env = {**referee_env(), "REFEREE_SERVER_SOCKETS_PER_ADDRESS": "100000"}
    return args, "/api/games", env


def anchor_command(url: str) -> tuple[list[str], str, dict[str, str]]:
    """The anchor server on the same database."""
    args = [PYTHON, str(ROOT / "bench" / "anchor_server.py"), "--host", HOST]
    args += ["--port", "{port}", "--database", url]
    return args, "/api/health", dict(os.environ)


# ---------------------------------------------------------------------------- the load tool


class Reader:
    """One seat's WebSocket, read all the time: each message's bytes and the ``version`` of its
    JSON (whatever else a push holds), with the moment each version first arrived."""

    def __init__(self, table: dict[str, Any], seat: str, ws: Any) -> None:
        self.table, self.seat, self.ws = table, seat, ws
        self.messages = 0
        self.bytes = 0
        self.first_bytes = 0
        self.versions: list[int] = []
        self.times: list[float] = []
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.versions[-1] if self.versions else -1

    @classmethod
    async def open(cls, port: int, table: dict[str, Any], seat: str) -> Reader:
        from websockets.asyncio.client import connect

        ws = await connect(
            f"ws://{HOST}:{port}/api/tables/{table['id']}/live",
            additional_headers={"Authorization": f"Bearer {table['tokens'][seat]}"},
            max_size=2**27,
            open_timeout=60,
        )
        reader = cls(table, seat, ws)
        reader.task = asyncio.get_running_loop().create_task(reader._run())
        return reader

    async def _run(self) -> None:
        async for message in self.ws:
            now = time.perf_counter()
            size = len(message.encode() if isinstance(message, str) else message)
            version = int(json.loads(message)["version"])
            if self.messages == 0:
                self.first_bytes = size
            else:
                self.bytes += size
            self.messages += 1
            if version > self.version:
                self.versions.append(version)
                self.times.append(now)
            self.changed.set()

    def arrived(self, version: int) -> float | None:
        """When a message of ``version`` or later first arrived (``None``: not yet)."""
        at = bisect.bisect_left(self.versions, version)
        return self.times[at] if at < len(self.times) else None

    async def until(self, version: int) -> float:
        while (at := self.arrived(version)) is None:
            self.changed.clear()
            await self.changed.wait()
        return at

    def pushes(self) -> tuple[int, int]:
        """Messages after the first, and their bytes."""
        return max(0, self.messages - 1), self.bytes

    async def close(self) -> None:
        await self.ws.close()
        if self.task is not None:
            self.task.cancel()


async def open_readers(port: int, tables: list[dict[str, Any]]) -> dict[str, list[Reader]]:
    """Every seat of ``tables`` on a reading socket, each past its first message."""
    readers: dict[str, list[Reader]] = {}
    for table in tables:
        readers[table["id"]] = [
            await Reader.open(port, table, f"p{s}") for s in range(1, SEATS + 1)
        ]
    for group in readers.values():
        for reader in group:
            await asyncio.wait_for(reader.until(0), 120)
    return readers


async def act(conn: Connection, table: dict[str, Any], seat: str) -> int:
    """One ``rally`` at ``table`` as ``seat``, on the version last read → the new version."""
    status, data = await conn.request(
        "POST",
        f"/api/tables/{table['id']}/actions",
        {"Authorization": f"Bearer {table['tokens'][seat]}"},
        {"kind": "rally", "params": {"dice": 2}, "version": table["version"]},
    )
    if status != 200:
        raise SystemExit(f"act: {status} {data[:200]!r}")
    table["version"] = int(json.loads(data)["version"])
    table["acted"] = table.get("acted", 0) + 1
    return int(table["version"])


async def drained(readers: dict[str, list[Reader]], tables: list[dict[str, Any]]) -> None:
    """Until every socket has its table's last version."""
    await asyncio.wait_for(
        asyncio.gather(*(r.until(t["version"]) for t in tables for r in readers[t["id"]])), 300
    )


async def sustained(
    port: int, pid: int, tables: list[dict[str, Any]], readers: dict[str, list[Reader]], s: float
) -> dict[str, Any]:
    """Each table's connection acting as fast as the server answers, for ``s`` seconds."""
    conns = [await Connection.open(port) for _ in tables]
    done = 0
    stop = time.perf_counter() + s

    async def worker(conn: Connection, table: dict[str, Any]) -> None:
        nonlocal done
        i = 0
        while time.perf_counter() < stop:
            await act(conn, table, f"p{i % SEATS + 1}")
            done += 1
            i += 1

    cpu, started = cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(*(worker(c, t) for c, t in zip(conns, tables, strict=True)))
    window = time.perf_counter() - started
    await drained(readers, tables)
    used = cpu_seconds(pid) - cpu
    for conn in conns:
        conn.close()
    return {
        "actions": done,
        "actions_per_second": done / window,
        "cpu_ms_per_action": used / done * 1000,
        "cpu_share": used / (time.perf_counter() - started),
        "load": load(),
    }


async def paced(
    port: int,
    pid: int,
    tables: list[dict[str, Any]],
    readers: dict[str, list[Reader]],
    s: float,
    rate: float = PACE,
) -> dict[str, Any]:
    """``rate`` actions a second over the tables in turn (open loop) for ``s`` seconds: from
    sending each to the last of its six seats having its version."""
    conns = {t["id"]: await Connection.open(port) for t in tables}
    locks = {t["id"]: asyncio.Lock() for t in tables}
    times: list[float] = []
    count = int(s * rate)

    async def one(i: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        table = tables[i % len(tables)]
        async with locks[table["id"]]:
            started = time.perf_counter()
            version = await act(conns[table["id"]], table, f"p{(i // len(tables)) % SEATS + 1}")
            arrivals = [await asyncio.wait_for(r.until(version), 120) for r in readers[table["id"]]]
            times.append((max(arrivals) - started) * 1000)

    cpu, begin = cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(*(one(i, begin + i / rate) for i in range(count)))
    used = cpu_seconds(pid) - cpu
    for conn in conns.values():
        conn.close()
    return {
        "actions": count,
        "rate": rate,
        "push_median_ms": statistics.median(times),
        "push_p99_ms": p99(times),
        "cpu_ms_per_action": used / count * 1000,
        "load": load(),
    }


def never_reading(port: int, table: dict[str, Any], seat: str) -> socket.socket:
    """A WebSocket opened by hand, with a small receive buffer, that is never read again."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(60)
    raw.connect((HOST, port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /api/tables/{table['id']}/live HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {table['tokens'][seat]}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = raw.recv(1)
        if not chunk:
            raise SystemExit("a never-reading socket was closed during its handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"a never-reading socket was refused: {head[:80]!r}")
    return raw


# ----------------------------------------------------------------------- a table of any age


SETUP = {"characters": {c: {"skill": 2} for c in CHARACTERS}}
PLAYERS = {f"p{i}": [c] for i, c in enumerate(CHARACTERS, 1)}


def grown_referee_table(url: str, events: int) -> dict[str, Any]:
    """A new toy table of ``events`` events, decided in memory and written to the database in
    one transaction as the store writes an action's rows (``referee.store.rows``), with a
    snapshot at its last version; the server has never seen it."""
    import tests.core.toy_procedure  # noqa: F401  (registers the kernel's toy game)
    from sqlalchemy import update

    from referee.core import Action
    from referee.dice import RandomSource
    from referee.store import open_store, snapshots
    from referee.store.engine import write_transaction
    from referee.store.rows import append
    from referee.store.schema import TABLES as ROWS

    with open_store(url) as store:
        created = store.create_table("kernel_toy", SETUP, name="an old table", players=PLAYERS)
        first = created.table
        table, dice, i = first, RandomSource(seed=1), 0
        while table.version < events:
            seat = f"p{i % SEATS + 1}"
            table = table.act(Action(PLAYERS[seat][0], "rally", {"dice": 2}), dice, seat=seat)
            i += 1
        actions = [table.actions[n] for n in range(len(first.actions), len(table.actions))]
        with write_transaction(store.engine) as conn:
            append(conn, created.id, actions, list(table.log.since(first.version)))
            conn.execute(
                update(ROWS)
                .where(ROWS.c.id == created.id)
                .values(version=table.version, actions=len(table.actions), revision=2)
            )
            snapshots.write_snapshot(conn, created.id, table)
    return {"id": created.id, "tokens": dict(created.tokens), "version": table.version}


def grown_anchor_table(url: str, events: int) -> dict[str, Any]:
    """A new anchor table of ``events`` events, its rows written in one transaction."""
    from bench.anchor_server import Anchor
    from sqlalchemy import text

    anchor = Anchor(url)
    made = anchor.create(PLAYERS)
    rows = range(1, events + 1)
    with anchor.writing() as conn:
        conn.execute(
            text("INSERT INTO anchor_actions VALUES (:t, :n, 'p1', 'rally', '{\"dice\": 2}')"),
            [{"t": made["id"], "n": n} for n in rows],
        )
        conn.execute(
            text("INSERT INTO anchor_events VALUES (:t, :n, :n, 'rally.rolled', :p)"),
            [{"t": made["id"], "n": n, "p": '{"dice": [3, 4], "total": 7}'} for n in rows],
        )
        conn.execute(
            text("UPDATE anchor_tables SET version = :v, actions = :v WHERE id = :t"),
            {"v": events, "t": made["id"]},
        )
    anchor.engine.dispose()
    tokens = {s["id"]: s["token"] for s in made["seats"]}
    return {"id": made["id"], "tokens": tokens, "version": events}


async def age(
    port: int, pid: int, young: dict[str, Any], old: dict[str, Any], rounds: int, per: int
) -> dict[str, Any]:
    """Bytes per push and CPU per action on a young and an old table, acted on one action at a
    time (each waiting for its six pushes), ``per`` actions on each in turn, ``rounds`` times."""
    readers = await open_readers(port, [young, old])
    conn = await Connection.open(port)
    cpu = {"young": 0.0, "old": 0.0}
    taken = {"young": 0, "old": 0}
    for _ in range(rounds):
        for name, table in (("young", young), ("old", old)):
            before = cpu_seconds(pid)
            for i in range(per):
                version = await act(conn, table, f"p{i % SEATS + 1}")
                for reader in readers[table["id"]]:
                    await asyncio.wait_for(reader.until(version), 60)
            cpu[name] += cpu_seconds(pid) - before
            taken[name] += per
    conn.close()
    figures: dict[str, Any] = {}
    for name, table in (("young", young), ("old", old)):
        group = readers[table["id"]]
        pushes = sum(r.pushes()[0] for r in group)
        sent = sum(r.pushes()[1] for r in group)
        figures[name] = {
            "events_before": table["version"] - taken[name],
            "bytes_per_push": sent / pushes,
            "first_message_bytes": statistics.median(r.first_bytes for r in group),
            "cpu_ms_per_action": cpu[name] / taken[name] * 1000,
        }
    for group in readers.values():
        for reader in group:
            await reader.close()
    figures["bytes_ratio"] = figures["old"]["bytes_per_push"] / figures["young"]["bytes_per_push"]
    figures["cpu_ratio"] = (
        figures["old"]["cpu_ms_per_action"] / figures["young"]["cpu_ms_per_action"]
    )
    figures["load"] = load()
    return figures


# --------------------------------------------------------------------------------- one run


@dataclass(frozen=True)
class Plan:
    """How big a run is: tables of six seats, seconds of each acting phase, and the age
    phase's turns (``rounds`` of ``per`` actions on each table)."""

    tables: int = TABLES
    seconds: float = 20.0
    rounds: int = 5
    per: int = 20


QUICK = Plan(tables=20, seconds=2.5, rounds=2, per=10)
"""``--quick``: the same phases at 20 tables (each seat's token is a scrypt hash to mint and
one to check, and 600 of them take half a minute of this loaded machine)."""


async def measure(port: int, pid: int, grow: Any, plan: Plan) -> dict[str, Any]:
    """Every figure of one server (see the module's doc)."""
    results: dict[str, Any] = {"rss_idle_mb": rss_mb(pid), "rss_idle_load": load()}
    phases: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        phases[name] = round(now - clock, 2)
        clock = now

    tables = await make_tables(port, plan.tables)
    young = (await make_tables_young(port))[0]
    lap("tables")
    readers = await open_readers(port, tables)
    results["rss_300_open_mb"] = rss_mb(pid)
    lap("sockets")
    results["sustained"] = await sustained(port, pid, tables, readers, plan.seconds)
    lap("sustained")
    results["paced"] = await paced(port, pid, tables, readers, plan.seconds)
    lap("paced")
    results["rss_300_mb"] = rss_mb(pid)
    results["rss_300_load"] = load()
    pushes = sum(r.pushes()[0] for g in readers.values() for r in g)
    sent = sum(r.pushes()[1] for g in readers.values() for r in g)
    results["bytes_per_push_300"] = sent / pushes
    old = await asyncio.to_thread(grow, OLD_EVENTS)
    lap("grow")
    results["age"] = await age(port, pid, young, old, plan.rounds, plan.per)
    lap("age")
    # 100 sockets that never read, spread over the tables' seats
    idle = [
        never_reading(port, tables[n % len(tables)], f"p{(n // len(tables)) % SEATS + 1}")
        for n in range(NEVER_READING)
    ]
    results["never_reading_paced"] = await paced(port, pid, tables, readers, plan.seconds)
    results["rss_400_mb"] = rss_mb(pid)
    results["rss_400_load"] = load()
    lap("never reading")
    for raw in idle:
        raw.close()
    for group in readers.values():
        for reader in group:
            await reader.close()
    await asyncio.sleep(1)
    results["rss_after_close_mb"] = rss_mb(pid)
    results["phase_seconds"] = phases
    print(f"    phases (s): {phases}", file=sys.stderr, flush=True)
    return results


async def make_tables(port: int, count: int = TABLES, actions: int = 2) -> list[dict[str, Any]]:
    """``count`` tables of six seats, made over eight connections at once, each with a few
    actions taken (a seat's first request checks its token: a scrypt hash in Referee)."""
    tables: list[dict[str, Any]] = []

    async def maker(n: int) -> None:
        conn = await Connection.open(port)
        for _ in range(n):
            status, data = await conn.request(
                "POST",
                "/api/tables",
                body={"system": "kernel_toy", "setup": SETUP, "name": "bench", "players": PLAYERS},
            )
            assert status == 201, data
            created = json.loads(data)
            table = {
                "id": created["id"],
                "tokens": {s["id"]: s["token"] for s in created["seats"]},
                "version": created["version"],
            }
            for i in range(actions):
                await act(conn, table, f"p{i % SEATS + 1}")
            tables.append(table)
        conn.close()

    makers = 8
    await asyncio.gather(*(maker(count // makers + (k < count % makers)) for k in range(makers)))
    return tables


async def make_tables_young(port: int) -> list[dict[str, Any]]:
    """One more table, acted on until it holds about :data:`YOUNG_EVENTS` events."""
    conn = await Connection.open(port)
    status, data = await conn.request(
        "POST",
        "/api/tables",
        body={"system": "kernel_toy", "setup": SETUP, "name": "young", "players": PLAYERS},
    )
    assert status == 201, data
    created = json.loads(data)
    table = {
        "id": created["id"],
        "tokens": {s["id"]: s["token"] for s in created["seats"]},
        "version": created["version"],
    }
    i = 0
    while table["version"] < YOUNG_EVENTS:
        await act(conn, table, f"p{i % SEATS + 1}")
        i += 1
    conn.close()
    return [table]


def run(url: str, plan: Plan) -> dict[str, Any]:
    """Both servers on the database at ``url``, the anchor first."""
    out: dict[str, Any] = {}
    for name, command, grow in (
        ("anchor", anchor_command, grown_anchor_table),
        ("referee", referee_command, grown_referee_table),
    ):
        args, path, env = command(url)
        with serve(args, path, env) as (port, pid):
            print(f"  {name}: measuring (load {load()})", file=sys.stderr, flush=True)
            out[name] = asyncio.run(measure(port, pid, lambda n, g=grow: g(url, n), plan))
    out["ratios"] = ratios(out["referee"], out["anchor"])
    return out


def ratios(referee: dict[str, Any], anchor: dict[str, Any]) -> dict[str, Any]:
    """Referee's figures over the anchor's, and each goal met or not."""
    cpu = referee["sustained"]["cpu_ms_per_action"] / anchor["sustained"]["cpu_ms_per_action"]
    rate = referee["sustained"]["actions_per_second"] / anchor["sustained"]["actions_per_second"]
    tail = referee["paced"]["push_p99_ms"] / anchor["paced"]["push_p99_ms"]
    added = referee["rss_400_mb"] - referee["rss_300_mb"]
    return {
        "cpu_per_action": cpu,
        "actions_per_second": rate,
        "push_p99": tail,
        "met": {
            "cpu_per_action": cpu <= 1.5,
            "actions_per_second": rate >= 0.8,
            "push_p99": referee["paced"]["push_p99_ms"] < 50 and tail <= 2,
            "age": referee["age"]["bytes_ratio"] <= 1.1 and referee["age"]["cpu_ratio"] <= 1.1,
            "rss_300": referee["rss_300_mb"] < 400,
            "rss_never_reading": added < 50,
        },
    }


def report(results: dict[str, Any]) -> None:
    """The figures as a table, one block a database."""
    for database, both in results["databases"].items():
        a, r, x = both["anchor"], both["referee"], both["ratios"]
        tables = results["plan"]["tables"]
        print(f"\n{database}: Referee against the anchor ({tables} tables × {SEATS} seats)")
        rows = [
            (
                "CPU per action, sustained (ms)",
                a["sustained"]["cpu_ms_per_action"],
                r["sustained"]["cpu_ms_per_action"],
                x["cpu_per_action"],
                r["sustained"]["load"],
                x["met"]["cpu_per_action"],
            ),
            (
                "sustained actions/s",
                a["sustained"]["actions_per_second"],
                r["sustained"]["actions_per_second"],
                x["actions_per_second"],
                r["sustained"]["load"],
                x["met"]["actions_per_second"],
            ),
            (
                f"push p99 at {PACE:.0f}/s (ms)",
                a["paced"]["push_p99_ms"],
                r["paced"]["push_p99_ms"],
                x["push_p99"],
                r["paced"]["load"],
                x["met"]["push_p99"],
            ),
            (
                f"push median at {PACE:.0f}/s (ms)",
                a["paced"]["push_median_ms"],
                r["paced"]["push_median_ms"],
                r["paced"]["push_median_ms"] / a["paced"]["push_median_ms"],
                r["paced"]["load"],
                None,
            ),
            (
                f"CPU per action at {PACE:.0f}/s (ms)",
                a["paced"]["cpu_ms_per_action"],
                r["paced"]["cpu_ms_per_action"],
                r["paced"]["cpu_ms_per_action"] / a["paced"]["cpu_ms_per_action"],
                r["paced"]["load"],
                None,
            ),
        ]
        for who in ("young", "old"):
            rows.append(
                (
                    f"bytes per push, {r['age'][who]['events_before']:,} events",
                    a["age"][who]["bytes_per_push"],
                    r["age"][who]["bytes_per_push"],
                    r["age"][who]["bytes_per_push"] / a["age"][who]["bytes_per_push"],
                    r["age"]["load"],
                    None,
                )
            )
        for who in ("young", "old"):
            rows.append(
                (
                    f"CPU per action, {r['age'][who]['events_before']:,} events (ms)",
                    a["age"][who]["cpu_ms_per_action"],
                    r["age"][who]["cpu_ms_per_action"],
                    r["age"][who]["cpu_ms_per_action"] / a["age"][who]["cpu_ms_per_action"],
                    r["age"]["load"],
                    None,
                )
            )
        rows += [
            (
                "RSS, 300 sockets (MB)",
                a["rss_300_mb"],
                r["rss_300_mb"],
                r["rss_300_mb"] / a["rss_300_mb"],
                r["rss_300_load"],
                x["met"]["rss_300"],
            ),
            (
                f"RSS, + {NEVER_READING} never reading (MB)",
                a["rss_400_mb"],
                r["rss_400_mb"],
                r["rss_400_mb"] / a["rss_400_mb"],
                r["rss_400_load"],
                x["met"]["rss_never_reading"],
            ),
        ]
        print(f"{'':42} {'anchor':>10} {'referee':>10} {'ratio':>7} {'load':>5}  goal")
        for label, anchor, referee, ratio, at, met in rows:
            verdict = "" if met is None else ("met" if met else "not met")
            print(f"{label:42} {anchor:10,.2f} {referee:10,.2f} {ratio:7.2f} {at:5.1f}  {verdict}")
        age = r["age"]
        print(
            f"{'age ratios, 10,000 / 100 events':42} bytes {age['bytes_ratio']:.2f}×, "
            f"CPU {age['cpu_ratio']:.2f}×  {'met' if x['met']['age'] else 'not met'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="SQLite only, 20 tables, under a minute"
    )
    parser.add_argument("--seconds", type=float, help="seconds of each acting phase")
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgresql", "both"],
        help="which database (default: sqlite when --quick, else both)",
    )
    parser.add_argument("--tables", type=int, help="tables of six seats (default 50; 20 quick)")
    parser.add_argument("--name", default="convention", help="build/bench/<name>.json")
    options = parser.parse_args()
    plan = QUICK if options.quick else Plan()
    if options.seconds:
        plan = replace(plan, seconds=options.seconds)
    if options.tables:
        plan = replace(plan, tables=options.tables)
    which = options.database or ("sqlite" if options.quick else "both")
    results: dict[str, Any] = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": options.quick,
        "plan": asdict(plan),
        "cores": os.cpu_count(),
        "load_at_start": list(os.getloadavg()),
        "goals": GOALS,
        "databases": {},
    }
    started = time.perf_counter()
    with ExitStack() as stack:
        if which in ("sqlite", "both"):
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            print("SQLite", file=sys.stderr, flush=True)
            results["databases"]["sqlite"] = run(f"sqlite:///{folder}/bench.sqlite3", plan)
        if which in ("postgresql", "both"):
            url = stack.enter_context(postgres_database())
            print("PostgreSQL", file=sys.stderr, flush=True)
            results["databases"]["postgresql"] = run(url, plan)
    results["wall_seconds"] = time.perf_counter() - started
    results["load_at_end"] = list(os.getloadavg())
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{options.name}.json"
    path.write_text(json.dumps(results, indent=2) + "\n")
    report(results)
    print(
        f"\n({results['wall_seconds']:.0f} s; load {results['load_at_start'][0]:.1f} at the "
        f"start, {results['load_at_end'][0]:.1f} at the end; {os.cpu_count()} cores shared by "
        f"client and server; written to {path.relative_to(ROOT)})"
    )


if __name__ == "__main__":
    main()
