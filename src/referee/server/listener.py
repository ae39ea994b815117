"""The LISTEN connection: how a process hears of changes made by the others on its PostgreSQL
database (``NOTIFY referee_tables``, ``NOTIFY referee_seats``) and hands them to its
:class:`~referee.server.live.Hub`, and how it comes back when PostgreSQL goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Iterator

from referee.server.live import SEATS_CHANNEL, TABLES_CHANNEL, Hub

__all__ = ["Listener", "notify_revoked", "reconnect_waits", "table_note"]

log = logging.getLogger("referee.server")


RECONNECT_FIRST = 0.25
"""Seconds before the LISTEN connection's first retry (before jitter)."""

RECONNECT_GROWTH = 1.5
"""How much longer each further wait is."""

RECONNECT_CAP = 2.0
"""The longest wait between two retries (before jitter)."""

RECONNECT_JITTER = 0.25
"""Each wait is drawn within this fraction either side, so that the processes of a host (and the
hosts of a convention) do not all knock on PostgreSQL's door at the same instant."""


def reconnect_waits(draw: Callable[[float, float], float] = random.uniform) -> Iterator[float]:
    """The waits, in seconds, before each retry of a lost LISTEN connection: 0.25 s, then half
    as long again each time up to 2 s, each jittered by a quarter either side (``draw(low,
    high)`` picks within the bounds). So PostgreSQL back up is heard from within 2.5 s.

    >>> waits = reconnect_waits(lambda low, high: high)  # the longest each wait can be
    >>> [round(next(waits), 4) for _ in range(8)]
    [0.3125, 0.4688, 0.7031, 1.0547, 1.582, 2.373, 2.5, 2.5]
    """
    wait = RECONNECT_FIRST
    while True:
        yield draw(wait * (1 - RECONNECT_JITTER), wait * (1 + RECONNECT_JITTER))
        wait = min(wait * RECONNECT_GROWTH, RECONNECT_CAP)


HEARTBEAT_SECONDS = 30.0
"""How often the LISTEN connection, however quiet, is asked to answer (and how long its answer
may take): a connection whose other end vanished without closing it (the database's host
gone, a network cut, a failover) is given up within twice this, not left deaf for ever."""

CONNECT_SECONDS = 10
"""How long a try to connect may take before it counts as failed."""


class Listener:
    """``LISTEN referee_tables, referee_seats`` on PostgreSQL, feeding a :class:`Hub`.

    When the connection drops (PostgreSQL restarted, or it ended the session) or stops answering
    (``heartbeat``), it connects again after :func:`reconnect_waits`; changes made while it was
    away are caught by reloading every live table once it listens again.
    """

    def __init__(
        self,
        url: str,
        hub: Hub,
        on_revoked: Callable[[str, str], None],
        on_changed: Callable[[str], None] = lambda table_id: None,
        on_connected: Callable[[bool], None] = lambda up: None,
        *,
        heartbeat: float = HEARTBEAT_SECONDS,
        origin: str | None = None,
    ) -> None:
        self._url = url
        self._origin = origin
        self._hub = hub
        self._on_revoked = on_revoked
        self._on_changed = on_changed
        self._on_connected = on_connected
        self._heartbeat = heartbeat
        self.connected = asyncio.Event()

    async def run(self) -> None:
        """Listen until cancelled."""
        waits = reconnect_waits()
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                self._on_connected(False)
                raise
            except Exception as error:
                if self.connected.is_set():  # it was listening: the waits start again
                    waits = reconnect_waits()
                self.connected.clear()
                self._on_connected(False)
                wait = next(waits)
                log.warning("LISTEN connection lost (%s); again in %.2f s", error, wait)
                await asyncio.sleep(wait)

    async def _listen(self) -> None:
        """One connection, from connecting until it fails (it never returns otherwise)."""
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            self._url, autocommit=True, connect_timeout=CONNECT_SECONDS
        )
        try:
            await conn.execute(f"LISTEN {TABLES_CHANNEL}")
            await conn.execute(f"LISTEN {SEATS_CHANNEL}")
            self.connected.set()
            self._on_connected(True)
            for table_id in self._hub.live_tables:
                self._hub.notified(table_id)
            while True:
                async for note in conn.notifies(timeout=self._heartbeat):
                    self._dispatch(note.channel, note.payload)
                # quiet for a while: still there? Asked by listening again (a no-op), so the
                # session still reads as the listener in pg_stat_activity; notifications that
                # arrive meanwhile are kept for the next round.
                asked = asyncio.ensure_future(conn.execute(f"LISTEN {TABLES_CHANNEL}"))
                answered, _ = await asyncio.wait({asked}, timeout=self._heartbeat)
                if not answered:
                    # closed first, so the question is dropped, not cancelled at the server
                    # (psycopg would wait seconds more on a server that is not there)
                    await conn.close()
                    asked.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await asked
                    raise ConnectionError(f"no answer in {self._heartbeat:g} s")
                asked.result()
        finally:
            await conn.close()  # no goodbye awaited: the other end may be gone

    def _dispatch(self, channel: str, payload: str) -> None:
        if channel == TABLES_CHANNEL:
            table_id, version, origin = table_note(payload)
            if not table_id or (origin is not None and origin == self._origin):
                # this process's own change, coming back: it has had it from its own store
                # already (issue 29: under load, the one it heard had often been overtaken
                # by its next change, and the table was loaded again for nothing)
                return
            self._on_changed(table_id)
            self._hub.notified(table_id, version)
            return
        table_id, _, rest = payload.rpartition(":")
        if table_id and channel == SEATS_CHANNEL:
            self._on_revoked(table_id, rest)


def table_note(payload: str) -> tuple[str, int | None, str | None]:
    """A table's notification read: ``'<table id>:<version>:<origin>'`` as the store writes it,
    or ``'<table id>:<version>'`` (anything else writing to the channel) → (table id, version or
    ``None``, origin or ``None``).

    >>> table_note("k2x9ab3c4d:17:s0a1b2c3d4e5f")
    ('k2x9ab3c4d', 17, 's0a1b2c3d4e5f')
    >>> table_note("k2x9ab3c4d:17")
    ('k2x9ab3c4d', 17, None)
    >>> table_note("k2x9ab3c4d")
    ('', None, None)
    """
    head, _, last = payload.rpartition(":")
    origin = None
    if last and not last.isdigit() and ":" in head:
        origin = last
        head, _, last = head.rpartition(":")
    try:
        version: int | None = int(last)
    except ValueError:
        version = None
    return head, version, origin


async def notify_revoked(url: str, table_id: str, seat: str) -> None:
    """Tell every process on this PostgreSQL database that ``seat``'s token was revoked."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("SELECT pg_notify(%s, %s)", (SEATS_CHANNEL, f"{table_id}:{seat}"))
