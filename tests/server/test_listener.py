"""The LISTEN connection (:class:`referee.server.listener.Listener`): how soon it tries again, and a
connection that goes silent (its other end gone without closing it: the database's host lost, a
network cut) given up and replaced, in-process, through a relay to the test PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from itertools import islice
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from referee.server.listener import Listener, reconnect_waits
from referee.server.live import TABLES_CHANNEL
from referee.server.state import libpq_url

#: A deadline, not a verdict on speed.
PATIENCE = 30.0


def test_the_first_retry_is_within_a_third_of_a_second_and_none_past_two_and_a_half() -> None:
    shortest = list(islice(reconnect_waits(lambda low, high: low), 20))
    longest = list(islice(reconnect_waits(lambda low, high: high), 20))
    assert longest[0] <= 0.3125 and shortest[0] >= 0.1875
    assert max(longest) <= 2.5
    assert longest == sorted(longest)  # never shorter than the wait before (before jitter)
    drawn = list(islice(reconnect_waits(), 20))
    assert all(
        low <= wait <= high for low, wait, high in zip(shortest, drawn, longest, strict=True)
    )


class Relay:
    """A TCP relay to PostgreSQL that can go silent: each connection it carries then passes
    nothing either way, and is not closed."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._pumps: set[asyncio.Task[None]] = set()
        self._kept: list[asyncio.StreamWriter] = []
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        self._server = server
        self.port = int(server.sockets[0].getsockname()[1])

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self._target)
        self._kept += [writer, up_writer]
        loop = asyncio.get_running_loop()
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            pump = loop.create_task(_pump(source, sink))
            self._pumps.add(pump)
            pump.add_done_callback(self._pumps.discard)

    def silence(self) -> None:
        """Every connection carried now stops passing bytes (and stays open)."""
        for pump in list(self._pumps):
            pump.cancel()

    async def close(self) -> None:
        self.silence()
        self._server.close()
        for writer in self._kept:
            writer.close()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    while data := await source.read(65536):
        sink.write(data)
        await sink.drain()


class Heard:
    """A stand-in for the hub: which tables the listener said changed."""

    def __init__(self) -> None:
        self.live_tables: list[str] = []
        self.changes: list[tuple[str, int | None]] = []

    def notified(self, table_id: str, version: int | None = None) -> None:
        self.changes.append((table_id, version))


async def until(what: str, condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {PATIENCE} s"
        await asyncio.sleep(0.02)


def test_a_listen_connection_that_stops_answering_is_replaced(postgres_url: str) -> None:
    """The relay goes silent under the listener (a heartbeat of 0.2 s here, 30 s in a server):
    it gives the connection up, connects again, and hears what is notified after."""
    plain = libpq_url(postgres_url)
    assert plain is not None
    url = make_url(plain)

    async def scenario() -> None:
        relay = Relay(url.host or "127.0.0.1", url.port or 5432)
        await relay.start()
        heard, ups = Heard(), []
        through_relay = url.set(host="127.0.0.1", port=relay.port).render_as_string(False)
        hub: Any = heard
        listener = Listener(
            through_relay, hub, lambda *_: None, on_connected=ups.append, heartbeat=0.2
        )
        task = asyncio.create_task(listener.run())
        try:
            await until("listening", lambda: ups == [True])
            relay.silence()
            await until("listening anew", lambda: ups[-2:] == [False, True])
            async with await psycopg.AsyncConnection.connect(plain, autocommit=True) as conn:
                await conn.execute("SELECT pg_notify(%s, %s)", (TABLES_CHANNEL, "t1:7"))
            await until("the change heard", lambda: ("t1", 7) in heard.changes)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await relay.close()

    asyncio.run(scenario())


def test_a_processs_own_changes_go_unheard_and_every_other_is_heard(postgres_url: str) -> None:
    """The store names itself in each notification (``'<table>:<version>:<origin>'``): the
    listener of the process whose store that is lets it pass (the process has the change from
    its own store already), and hears another store's, or a note without a name."""
    plain = libpq_url(postgres_url)
    assert plain is not None

    async def scenario() -> None:
        heard, ups = Heard(), []
        hub: Any = heard
        listener = Listener(plain, hub, lambda *_: None, on_connected=ups.append, origin="smine")
        task = asyncio.create_task(listener.run())
        try:
            await until("listening", lambda: ups == [True])
            async with await psycopg.AsyncConnection.connect(plain, autocommit=True) as conn:
                for payload in ("t1:7:smine", "t1:8:stheirs", "t1:9", "t2:3:smine", "t2:4"):
                    await conn.execute("SELECT pg_notify(%s, %s)", (TABLES_CHANNEL, payload))
            await until("the last heard", lambda: ("t2", 4) in heard.changes)
            assert heard.changes == [("t1", 8), ("t1", 9), ("t2", 4)]
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    asyncio.run(scenario())
