"""What one server process holds: the store, the settings, the seat resolver, the rate limiters
and the hub of live tables."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI

from referee.core.table import Table
from referee.server.auth import RateLimiter, SeatResolver
from referee.server.live import SEATS_CHANNEL, Hub
from referee.server.ports import TableStore
from referee.server.settings import Settings
from referee.server.views import ObservationCache

__all__ = ["Notifications", "ServerState", "TableCache", "libpq_url", "state_of"]

log = logging.getLogger("referee.server")


def libpq_url(url: str | None) -> str | None:
    """The plain PostgreSQL URL behind a SQLAlchemy one (``None`` for any other database).

    >>> libpq_url("postgresql+psycopg://postgres@127.0.0.1:5432/test")
    'postgresql://postgres@127.0.0.1:5432/test'
    >>> libpq_url("sqlite:///tables.db") is None
    True
    """
    if url is None:
        return None
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.split("+")[0] not in ("postgresql", "postgres"):
        return None
    return f"postgresql://{rest}"


class TableCache:
    """The tables this process has read, trusted without asking the database while a LISTEN
    connection is up: PostgreSQL notifies every change of every table to every process, so an
    entry is dropped the moment its table changes anywhere (and all of them when the
    connection drops) — unless this process already holds it at the version notified, its
    own change coming back (:meth:`notified`). A read that raced a change is not kept: each
    table has a generation, bumped by every notification, and a table read before the bump is
    not stored after it.

    With ``ttl`` (SQLite: one server process, which sees its own changes at once, and the
    command line's within the ``poll_seconds`` it checks live tables in anyway), an entry is
    trusted for ``ttl`` seconds after it was read.
    """

    def __init__(self, size: int = 2048, *, ttl: float | None = None) -> None:
        self._size = size
        self._ttl = ttl
        self._lock = threading.Lock()
        self._tables: OrderedDict[str, tuple[Table[Any], float]] = OrderedDict()
        self._generation: dict[str, int] = {}
        self.trusted = False

    def get(self, table_id: str) -> tuple[Table[Any] | None, int]:
        """The table if it is known and current, and the generation to :meth:`put` under."""
        with self._lock:
            generation = self._generation.get(table_id, 0)
            found = self._tables.get(table_id) if self.trusted else None
            if found is None:
                return None, generation
            if self._ttl is not None and time.monotonic() - found[1] > self._ttl:
                del self._tables[table_id]
                return None, generation
            self._tables.move_to_end(table_id)
            return found[0], generation

    def put(self, table_id: str, table: Table[Any], generation: int) -> None:
        """Keep ``table``, read at ``generation``, unless the table changed since."""
        with self._lock:
            if not self.trusted or self._generation.get(table_id, 0) != generation:
                return
            self._tables[table_id] = (table, time.monotonic())
            self._tables.move_to_end(table_id)
            while len(self._tables) > self._size:
                self._tables.popitem(last=False)

    def changed(self, table_id: str) -> None:
        """The table changed (a notification): forget it."""
        with self._lock:
            self._generation[table_id] = self._generation.get(table_id, 0) + 1
            self._tables.pop(table_id, None)

    def notified(self, table_id: str, version: int | None) -> None:
        """PostgreSQL says the table is now at ``version`` (``None``: it does not say): forget
        it, unless what this process holds is already at that version — its own change
        coming back, which :meth:`ServerState.changed` has put here (issue 29: the process's
        own notifications emptied its cache). An undo notifies its own, lower version."""
        with self._lock:
            found = self._tables.get(table_id)
            if version is not None and found is not None and found[0].version == version:
                return
        self.changed(table_id)

    def trust(self, trusted: bool) -> None:
        """The LISTEN connection is up (``True``) or down: down forgets everything."""
        with self._lock:
            self.trusted = trusted
            if not trusted:
                self._tables.clear()
                self._generation = {k: v + 1 for k, v in self._generation.items()}


class ServerState:
    """The state of one server process (``app.state.referee``)."""

    def __init__(self, store: TableStore, settings: Settings, database_url: str | None) -> None:
        self.store = store
        self.settings = settings
        self.resolver = SeatResolver(store, settings.seat_cache_seconds)
        self.limiter = RateLimiter(settings.rate, settings.burst)
        self.anonymous = RateLimiter(settings.anonymous_rate, settings.anonymous_burst)
        self.observations = ObservationCache()
        self.tables = TableCache()
        self.hub = Hub(store, self.observations, settings.send_timeout_seconds)
        self.postgres_url = libpq_url(database_url)
        listen = settings.listen
        self.listens = (self.postgres_url is not None) if listen is None else listen
        if not self.listens and settings.poll_seconds > 0:
            # one process sees its own changes; another program's within poll_seconds
            self.tables = TableCache(ttl=settings.poll_seconds)
            self.tables.trust(True)

    @property
    def notifications(self) -> Notifications:
        """The hub as the LISTEN connection reaches it (:class:`Notifications`)."""
        return Notifications(self)

    def load(self, table_id: str) -> Table[Any]:
        """The table now: from :class:`TableCache` while PostgreSQL keeps it current, else
        from the store."""
        table, generation = self.tables.get(table_id)
        if table is not None:
            return table
        table = self.store.load(table_id)
        self.tables.put(table_id, table, generation)
        return table

    def changed(self, table_id: str, table: Table[Any]) -> None:
        """The table changed through this process (from a worker thread): wake its live seats
        here at once (the store's NOTIFY wakes those of other processes; this process's own
        it does not hear, :class:`~referee.server.listener.Listener`). An undo the hub finds
        out for itself, by comparing logs. What is handed on is the store's newest of the
        table (:meth:`~referee.store.Store.newest`): of two changes whose threads finish in
        the other order, the older never stands last."""
        table = self.store.newest(table_id, table)
        self.tables.changed(table_id)
        _, generation = self.tables.get(table_id)
        self.tables.put(table_id, table, generation)
        self.hub.changed_threadsafe(table_id, table)

    def forget_seat(self, table_id: str, seat: str) -> None:
        """A seat's token was revoked or replaced (from a worker thread): forget it, close its
        sockets, here and in every other process."""
        self.resolver.forget(table_id, seat)
        loop = self.hub._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.hub.revoked, table_id, seat)
        self._notify(SEATS_CHANNEL, f"{table_id}:{seat}")

    def listening(self, up: bool) -> None:
        """The LISTEN connection came up or went down: while it is down nothing read before is
        trusted (a change or a revocation may have been missed)."""
        self.tables.trust(up)
        self.resolver.forget_all()

    def revoked_elsewhere(self, table_id: str, seat: str) -> None:
        """Another process revoked a seat's token (in the event loop)."""
        self.resolver.forget(table_id, seat)
        self.hub.revoked(table_id, seat)

    def _notify(self, channel: str, payload: str) -> None:
        if self.postgres_url is None or not self.listens:
            return
        import psycopg

        try:
            with psycopg.connect(self.postgres_url, autocommit=True) as conn:
                conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
        except Exception as error:
            log.warning("could not notify %s: %s", channel, error)


class Notifications:
    """The hub as the LISTEN connection reaches it: each table's notification goes to the table
    cache first, with the version it names (:meth:`TableCache.notified`), then to the hub.
    Everything else is the hub's."""

    def __init__(self, state: ServerState) -> None:
        self._state = state

    def notified(self, table_id: str, version: int | None = None) -> None:
        """``table_id`` changed, to ``version`` if the notification says."""
        self._state.tables.notified(table_id, version)
        self._state.hub.notified(table_id, version)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state.hub, name)


def state_of(app: Any) -> ServerState:
    """The :class:`ServerState` of an app built by :func:`~referee.server.app.create_app`."""
    state = app.state.referee
    assert isinstance(state, ServerState)
    return state


def attach(app: FastAPI, state: ServerState) -> None:
    """Make ``state`` the app's."""
    app.state.referee = state
