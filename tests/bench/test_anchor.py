"""The server benchmark's anchor and load tool (``bench/anchor_server.py``,
``bench/convention.py``, issue 29): the anchor serves for a second, takes an action and pushes
it to each seat's socket; the load tool reads the pushes, a grown table and a process's CPU
and memory. What they measure is ``make bench``'s business, never asserted here."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from bench.anchor_server import create_app
from bench.convention import AGES, grown_anchor_table
from bench.load_tool import (
    Connection,
    act,
    cpu_seconds,
    make_tables,
    never_reading,
    open_readers,
    rss_mb,
)
from bench.server import free_port


@pytest.fixture
def anchor(database_url: str) -> Iterator[tuple[int, str]]:
    """The anchor served on a loopback port in a thread → (port, database URL)."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(database_url), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the anchor did not start"
        time.sleep(0.02)
    yield port, database_url
    server.should_exit = True
    thread.join(10)


def test_an_action_at_the_anchor_is_stored_and_pushed_to_each_seat(
    anchor: tuple[int, str],
) -> None:
    port, _ = anchor

    async def scenario() -> dict[str, Any]:
        [table] = await make_tables(port, count=1, actions=0)
        readers = await open_readers(port, [table])
        conn = await Connection.open(port)
        version = await act(conn, table, "p3")
        arrived = [await asyncio.wait_for(r.until(version), 10) for r in readers[table["id"]]]
        stale = await conn.request(
            "POST",
            f"/api/tables/{table['id']}/actions",
            {"Authorization": f"Bearer {table['tokens']['p1']}"},
            {"kind": "rally", "params": {}, "version": 0},
        )
        nobody = await conn.request(
            "POST",
            f"/api/tables/{table['id']}/actions",
            {"Authorization": "Bearer not-a-token"},
            {"kind": "rally", "params": {}, "version": version},
        )
        conn.close()
        pushes = [r.pushes() for r in readers[table["id"]]]
        for group in readers.values():
            for reader in group:
                await reader.close()
        return {
            "version": version,
            "arrived": arrived,
            "pushes": pushes,
            "stale": stale[0],
            "nobody": nobody[0],
        }

    seen = asyncio.run(scenario())
    assert seen["version"] == 1
    assert len(seen["arrived"]) == 6
    # each of the six seats had its first message, then exactly one push of some bytes
    assert all(count == 1 and size > 0 for count, size in seen["pushes"])
    assert seen["stale"] == 409
    assert seen["nobody"] == 401


def test_a_grown_anchor_table_acts_on_from_its_last_event(anchor: tuple[int, str]) -> None:
    port, url = anchor
    table = grown_anchor_table(url, AGES["toy"], 250)

    async def scenario() -> int:
        conn = await Connection.open(port)
        version = await act(conn, table, "p1")
        conn.close()
        return version

    assert asyncio.run(scenario()) == 251


def test_a_never_reading_socket_is_opened_by_hand(anchor: tuple[int, str]) -> None:
    port, _ = anchor

    async def tables() -> list[dict[str, Any]]:
        return await make_tables(port, count=1, actions=0)

    [table] = asyncio.run(tables())
    raw = never_reading(port, table, "p2")  # refused or not upgraded: SystemExit
    raw.close()


def test_the_cpu_and_memory_of_a_process_are_read_from_the_kernel() -> None:
    before = cpu_seconds(os.getpid())
    spin = time.process_time()
    while time.process_time() - spin < 0.05:
        continue  # burn 50 ms of this process's CPU for the kernel to count
    assert cpu_seconds(os.getpid()) - before >= 0.04
    assert 10 < rss_mb(os.getpid()) < 10_000
