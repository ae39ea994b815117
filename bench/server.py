"""Benchmark of the server (issue 15), on loopback only, bounded in count and time.

    .venv/bin/python bench/server.py            # about two minutes
    .venv/bin/python bench/server.py --quick    # a smoke run of a few seconds per figure

For each of: SQLite with one server process, PostgreSQL with one, PostgreSQL with four
(``referee serve --workers 4``), it creates 50 tables of six seats each (the kernel toy with six
characters, a few actions already taken), then measures

- **observe**: requests/s of ``GET /api/tables/{id}`` (the whole table as one seat sees it),
  spread over the 300 seats, from 64 keep-alive connections — once for each seat first
  (**first**: each builds its observation), then for ``seconds`` (each cut from the one built);
- **act**: requests/s of ``POST /api/tables/{id}/actions``, one connection per table, each
  acting on the version it last read (no stale writes);
- **action to push**: with all six seats of ten tables on a WebSocket, the time from sending
  an action to the moment the last of the six seats has its push (median and p99).

In the same run, the anchor: a bare FastAPI endpoint returning a constant, under the same
uvicorn settings and the same client. The load client is asyncio with raw HTTP/1.1 over
keep-alive sockets (no client library in the way), in this process; the machine's cores are
shared by the client and the server, as they would be on a laptop running a table.
Every request goes to 127.0.0.1. Rate limits are turned off for the run (they are per seat,
and a benchmark is one very busy seat).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
PYTHON = sys.executable
TABLES = 50
SEATS = 6
CHARACTERS = [f"c{i}" for i in range(1, SEATS + 1)]
POSTGRES = os.environ.get(
    "REFEREE_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)

BARE_APP = """
import uvicorn
from fastapi import FastAPI
app = FastAPI()
@app.get("/bare")
def bare():
    return {"ok": True}
uvicorn.run(app, host="127.0.0.1", port=int(__import__("sys").argv[1]), access_log=False,
            log_level="warning", server_header=False)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def wait_up(port: int, process: subprocess.Popen[bytes], path: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: {process.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=1) as conn:
                conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                if conn.recv(12).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start in time")


@contextmanager
def process(args: list[str], port: int, path: str, env: dict[str, str]) -> Iterator[None]:
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        wait_up(port, proc, path)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def referee_env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "REFEREE_SERVER_IMPORT": "tests.core.toy_procedure",
        "REFEREE_SERVER_RATE": "0",
        "REFEREE_SERVER_ANONYMOUS_RATE": "0",
    }


@contextmanager
def referee_server(url: str, workers: int) -> Iterator[int]:
    port = free_port()
    args = [PYTHON, "-c", "from referee.cli import main; main()", "serve", "--host", HOST]
    args += ["--port", str(port), "--database", url, "--workers", str(workers)]
    args += ["--log-level", "warning"]
    with process(args, port, "/api/games", referee_env()):
        yield port


@contextmanager
def bare_server() -> Iterator[int]:
    port = free_port()
    with process([PYTHON, "-c", BARE_APP, str(port)], port, "/bare", dict(os.environ)):
        yield port


# ------------------------------------------------------------------------- the client


class Connection:
    """One keep-alive HTTP/1.1 connection: raw requests, responses read by Content-Length."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(HOST, port)
        return cls(reader, writer)

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: Any = None
    ) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def flood(
    port: int, connections: int, seconds: float, make: Any, total: int | None = None
) -> float:
    """Requests per second from ``connections`` connections for ``seconds`` (or until
    ``total`` requests): ``make(i)`` gives each request's (method, path, headers, body)."""
    done = 0
    stop = time.perf_counter() + seconds

    async def worker(index: int) -> None:
        nonlocal done
        conn = await Connection.open(port)
        i = index
        try:
            while time.perf_counter() < stop and (total is None or i < total):
                status, _ = await conn.request(*make(i))
                if status != 200:
                    raise SystemExit(f"unexpected {status}")
                done += 1
                i += connections
        finally:
            conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(connections)))
    return done / (time.perf_counter() - started)


# -------------------------------------------------------------------------------- tables


async def make_tables(port: int) -> list[dict[str, Any]]:
    conn = await Connection.open(port)
    tables = []
    setup = {"characters": {c: {"skill": 2} for c in CHARACTERS}}
    players = {f"p{i}": [c] for i, c in enumerate(CHARACTERS, 1)}
    for n in range(TABLES):
        body = {"system": "kernel_toy", "setup": setup, "name": f"bench {n}", "players": players}
        status, data = await conn.request("POST", "/api/tables", body=body)
        assert status == 201, data
        created = json.loads(data)
        tokens = {s["id"]: s["token"] for s in created["seats"]}
        table = {"id": created["id"], "tokens": tokens, "version": created["version"]}
        for step in range(6):  # a few actions already taken
            seat = f"p{step % SEATS + 1}"
            status, data = await conn.request(
                "POST",
                f"/api/tables/{table['id']}/actions",
                {"Authorization": f"Bearer {tokens[seat]}"},
                {"kind": "rally", "params": {"dice": 2}, "version": table["version"]},
            )
            assert status == 200, data
            table["version"] = json.loads(data)["version"]
        tables.append(table)
    conn.close()
    return tables


def observe_request(tables: list[dict[str, Any]]) -> Any:
    seats = [(t["id"], t["tokens"][f"p{s}"]) for t in tables for s in range(1, SEATS + 1)]

    def make(i: int) -> tuple[str, str, dict[str, str], None]:
        table_id, token = seats[i % len(seats)]
        return "GET", f"/api/tables/{table_id}", {"Authorization": f"Bearer {token}"}, None

    return make


async def act_rate(port: int, tables: list[dict[str, Any]], seconds: float) -> float:
    done = 0
    stop = time.perf_counter() + seconds

    async def worker(table: dict[str, Any]) -> None:
        nonlocal done
        conn = await Connection.open(port)
        i = 0
        try:
            while time.perf_counter() < stop:
                seat = f"p{i % SEATS + 1}"
                status, data = await conn.request(
                    "POST",
                    f"/api/tables/{table['id']}/actions",
                    {"Authorization": f"Bearer {table['tokens'][seat]}"},
                    {"kind": "rally", "params": {"dice": 2}, "version": table["version"]},
                )
                if status != 200:
                    raise SystemExit(f"act: {status} {data[:200]!r}")
                table["version"] = json.loads(data)["version"]
                done += 1
                i += 1
        finally:
            conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker(t) for t in tables))
    return done / (time.perf_counter() - started)


async def push_latency(port: int, tables: list[dict[str, Any]], actions: int) -> list[float]:
    """Milliseconds from sending an action to the last of its table's six seats' pushes."""
    from websockets.asyncio.client import connect

    live = tables[:10]
    sockets: dict[str, list[Any]] = {}
    for table in live:
        sockets[table["id"]] = []
        for s in range(1, SEATS + 1):
            ws = await connect(
                f"ws://{HOST}:{port}/api/tables/{table['id']}/live",
                additional_headers={"Authorization": f"Bearer {table['tokens'][f'p{s}']}"},
                max_size=2**22,
            )
            await asyncio.wait_for(ws.recv(), 10)  # the first observation
            sockets[table["id"]].append(ws)
    conn = await Connection.open(port)
    await asyncio.sleep(0.5)
    times = []
    try:
        for i in range(actions):
            table = live[i % len(live)]
            seat = f"p{i % SEATS + 1}"

            async def until(ws: Any, version: int) -> None:
                while json.loads(await ws.recv())["version"] < version:
                    pass

            started = time.perf_counter()
            send = conn.request(
                "POST",
                f"/api/tables/{table['id']}/actions",
                {"Authorization": f"Bearer {table['tokens'][seat]}"},
                {"kind": "rally", "params": {"dice": 2}, "version": table["version"]},
            )
            status, data = await send
            assert status == 200, data
            table["version"] = json.loads(data)["version"]
            await asyncio.wait_for(
                asyncio.gather(*(until(ws, table["version"]) for ws in sockets[table["id"]])), 5
            )
            times.append((time.perf_counter() - started) * 1000)
    finally:
        conn.close()
        for group in sockets.values():
            for ws in group:
                await ws.close()
    return times


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def measure(port: int, seconds: float, actions: int) -> dict[str, float]:
    tables = await make_tables(port)
    # each seat's first look at its table builds its observation; every later one is cut
    # from it until the table changes
    cold = await flood(port, 64, 60, observe_request(tables), total=TABLES * SEATS)
    observe = await flood(port, 64, seconds, observe_request(tables))
    act = await act_rate(port, tables, seconds)
    times = await push_latency(port, tables, actions)
    return {
        "first_observe_rps": cold,
        "observe_rps": observe,
        "act_rps": act,
        "push_median_ms": statistics.median(times),
        "push_p99_ms": p99(times),
    }


@contextmanager
def postgres_database() -> Iterator[str]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"referee_bench_{os.getpid()}_{secrets.token_hex(3)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds per figure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    seconds, actions = (2.0, 40) if options.quick else (8.0, 300)
    results: dict[str, Any] = {}
    with bare_server() as port:
        results["bare"] = asyncio.run(
            flood(port, 64, seconds, lambda i: ("GET", "/bare", {}, None))
        )
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.sqlite3"
        with referee_server(url, 1) as port:
            results["sqlite, 1 process"] = asyncio.run(measure(port, seconds, actions))
    for workers in (1, 4):
        with postgres_database() as url, referee_server(url, workers) as port:
            results[f"postgresql, {workers} process{'es' if workers > 1 else ''}"] = asyncio.run(
                measure(port, seconds, actions)
            )
    if options.json:
        print(json.dumps(results, indent=2))
        return
    bare = results.pop("bare")
    print(f"bare FastAPI endpoint (a constant): {bare:,.0f} requests/s")
    heads = f"{'observe/s':>10} {'× bare':>7} {'first/s':>8} {'act/s':>7} "
    heads += f"{'push median':>12} {'push p99':>9}"
    print(f"{'':26} {heads}")
    for name, r in results.items():
        print(
            f"{name:26} {r['observe_rps']:10,.0f} {r['observe_rps'] / bare:7.2f} "
            f"{r['first_observe_rps']:8,.0f} {r['act_rps']:7,.0f} "
            f"{r['push_median_ms']:9.1f} ms {r['push_p99_ms']:6.1f} ms"
        )
    print(
        f"({TABLES} tables × {SEATS} seats; {seconds:.0f} s per rate; {actions} pushes timed; "
        f"{os.cpu_count()} cores shared by client and server)"
    )


if __name__ == "__main__":
    main()
