"""The load tool of the server benchmark (``bench/convention.py``, issue 29): one client for
Referee and the anchor alike, over the URLs both speak (``/api/tables``, ``.../actions``,
``.../live``), asyncio in one process.

It reads a server's process from the kernel (CPU time, resident memory), makes tables over
HTTP, keeps every seat on a WebSocket that reads all the time (:class:`Reader`: each message's
bytes, and its JSON ``version``, whatever else a push holds), acts as fast as the server answers
(:func:`sustained`) or at a set pace timing each push (:func:`paced`), compares a young and an
old table (:func:`age`), and opens sockets that never read (:func:`never_reading`).
"""

from __future__ import annotations

import asyncio
import base64
import bisect
import json
import os
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.server import CHARACTERS, HOST, SEATS, TABLES, Connection, p99  # noqa: E402

__all__ = [
    "PACE",
    "PLAYERS",
    "SETUP",
    "Connection",
    "Reader",
    "act",
    "age",
    "cpu_seconds",
    "drained",
    "flood",
    "load",
    "make_tables",
    "never_reading",
    "open_readers",
    "paced",
    "rss_mb",
    "sustained",
]

PACE = 40.0
"""Actions per second in the paced phase (the issue's push p99 is taken at 40/s)."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SETUP = {"characters": {c: {"skill": 2} for c in CHARACTERS}}
"""The kernel's toy game with six characters, one a seat (``PLAYERS``)."""
PLAYERS = {f"p{i}": [c] for i, c in enumerate(CHARACTERS, 1)}
RALLY = ("rally", {"dice": 2})
"""The toy's action every table takes: a pool of d6 rolled, one event."""


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


# ---------------------------------------------------------------------------- the tables


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


# ---------------------------------------------------------------------------- the sockets


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
        self.opened = 0.0
        self.closed = ""
        self.task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.versions[-1] if self.versions else -1

    @classmethod
    async def open(cls, port: int, table: dict[str, Any], seat: str) -> Reader:
        from websockets.asyncio.client import connect

        started = time.perf_counter()
        ws = await connect(
            f"ws://{HOST}:{port}/api/tables/{table['id']}/live",
            additional_headers={"Authorization": f"Bearer {table['tokens'][seat]}"},
            max_size=2**27,
            open_timeout=60,
            ping_interval=None,  # this client's own stalls must not close a socket
        )
        reader = cls(table, seat, ws)
        reader.opened = started
        reader.task = asyncio.get_running_loop().create_task(reader._run())
        return reader

    async def _run(self) -> None:
        try:
            await self._read()
        except Exception as error:  # the server closed it: a waiter is told, not left hanging
            self.closed = f"{type(error).__name__}: {error}"
        else:
            self.closed = "closed"
        self.changed.set()

    async def _read(self) -> None:
        async for message in self.ws:
            now = time.perf_counter()
            size = len(message.encode() if isinstance(message, str) else message)
            data = json.loads(message)
            if data.get("type") == "events":
                # a page of a long catch-up, before its observation: counted with the
                # observation it comes before (the first message, or a reset's)
                if self.messages == 0:
                    self.first_bytes += size
                else:
                    self.bytes += size
                continue
            version = int(data["version"])
            if self.messages == 0:
                self.first_bytes += size
            else:
                self.bytes += size
            self.messages += 1
            if version > self.version:
                self.versions.append(version)
                self.times.append(now)
            self.changed.set()

    def first_ms(self) -> float:
        """Milliseconds from opening the socket to its first message."""
        return (self.times[0] - self.opened) * 1000

    def arrived(self, version: int) -> float | None:
        """When a message of ``version`` or later first arrived (``None``: not yet)."""
        at = bisect.bisect_left(self.versions, version)
        return self.times[at] if at < len(self.times) else None

    async def until(self, version: int) -> float:
        while (at := self.arrived(version)) is None:
            if self.closed:
                raise RuntimeError(f"the socket of {self.seat} closed: {self.closed}")
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
    """The table's action (its ``action``: kind and parameters; the toy's ``rally`` by default)
    as ``seat``, on the version last read → the new version."""
    kind, params = table.get("action", RALLY)
    status, data = await conn.request(
        "POST",
        f"/api/tables/{table['id']}/actions",
        {"Authorization": f"Bearer {table['tokens'][seat]}"},
        {"kind": kind, "params": params, "version": table["version"]},
    )
    if status != 200:
        raise SystemExit(f"act: {status} {data[:200]!r}")
    table["version"] = int(json.loads(data)["version"])
    table["acted"] = table.get("acted", 0) + 1
    return int(table["version"])


MISSED_AFTER = 30.0
"""Seconds after which a push not arrived is counted missed (and the run goes on: a later
version arriving covers it, as a seat that missed changes gets them all in its next push)."""


async def arrival(reader: Reader, version: int, missed: list[dict[str, Any]]) -> float | None:
    """When ``reader`` had ``version`` (or later); ``None``, noted in ``missed``, if it has not
    within :data:`MISSED_AFTER` seconds."""
    try:
        return await asyncio.wait_for(reader.until(version), MISSED_AFTER)
    except TimeoutError:
        missed.append(
            {
                "table": reader.table["id"],
                "seat": reader.seat,
                "version": version,
                "had": reader.version,
            }
        )
        return None


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
    missed: list[dict[str, Any]] = []
    count = int(s * rate)

    async def one(i: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        table = tables[i % len(tables)]
        async with locks[table["id"]]:
            started = time.perf_counter()
            version = await act(conns[table["id"]], table, f"p{(i // len(tables)) % SEATS + 1}")
            arrivals = [await arrival(r, version, missed) for r in readers[table["id"]]]
            if None not in arrivals:
                times.append((max(a for a in arrivals if a is not None) - started) * 1000)

    cpu, begin = cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(*(one(i, begin + i / rate) for i in range(count)))
    used = cpu_seconds(pid) - cpu
    for conn in conns.values():
        conn.close()
    return {
        "actions": count,
        "rate": rate,
        "push_median_ms": statistics.median(times) if times else float("nan"),
        "push_p99_ms": p99(times) if times else float("nan"),
        "cpu_ms_per_action": used / count * 1000,
        "missed": missed,
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


async def age(
    port: int, pid: int, young: dict[str, Any], old: dict[str, Any], rounds: int, per: int
) -> dict[str, Any]:
    """Bytes per push and CPU per action on a young and an old table, acted on one action at a
    time (each waiting for its six pushes), ``per`` actions on each in turn, ``rounds`` times."""
    readers = await open_readers(port, [young, old])
    conn = await Connection.open(port)
    cpu = {"young": 0.0, "old": 0.0}
    taken = {"young": 0, "old": 0}
    missed: list[dict[str, Any]] = []
    for _ in range(rounds):
        for name, table in (("young", young), ("old", old)):
            before = cpu_seconds(pid)
            for i in range(per):
                version = await act(conn, table, f"p{i % SEATS + 1}")
                for reader in readers[table["id"]]:
                    await arrival(reader, version, missed)
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
            "first_message_ms": statistics.median(r.first_ms() for r in group),
            "cpu_ms_per_action": cpu[name] / taken[name] * 1000,
        }
    for group in readers.values():
        for reader in group:
            await reader.close()
    figures["bytes_ratio"] = figures["old"]["bytes_per_push"] / figures["young"]["bytes_per_push"]
    figures["cpu_ratio"] = (
        figures["old"]["cpu_ms_per_action"] / figures["young"]["cpu_ms_per_action"]
    )
    figures["missed"] = missed
    figures["load"] = load()
    return figures


async def flood(
    port: int, pid: int, olds: list[dict[str, Any]], count: int, seconds: float, rate: float
) -> dict[str, Any]:
    """The issue's flood: ``count`` sockets that never read, each asking for the whole table
    (``since=0``), spread over the seats of ``olds`` (old tables, each seat also on one reading
    socket, so the tables are loaded and observed before the first RSS), while the tables are
    acted on at ``rate`` a second for ``seconds``: RSS before, during, and a second after they
    are closed."""
    readers = await open_readers(port, olds)
    before, at_start = rss_mb(pid), load()
    seats = [(t, s) for t in olds for s in t["tokens"]]
    idle = await asyncio.to_thread(
        lambda: [never_reading(port, *seats[n % len(seats)]) for n in range(count)]
    )
    pushes = await paced(port, pid, olds, readers, seconds, rate)
    during = rss_mb(pid)
    for raw in idle:
        raw.close()
    await asyncio.sleep(1)
    after = rss_mb(pid)
    for group in readers.values():
        for reader in group:
            await reader.close()
    return {
        "tables": len(olds),
        "events": [t["version"] for t in olds],
        "sockets": count,
        "rss_before_mb": before,
        "rss_during_mb": during,
        "rss_closed_mb": after,
        "added_mb": during - before,
        "push_p99_ms": pushes["push_p99_ms"],
        "missed": pushes["missed"],
        "load_before": at_start,
        "load": load(),
    }
