"""Live tables: each seat's WebSocket is pushed what *it* observes, whenever the table changes.

A :class:`Hub` lives in each server process. It keeps, for each table with a seat connected, a
:class:`Feed`: the latest table and the seats listening. A table changes

- through this process (a route that acted or undid hands the hub the new table at once),
- through another process on the same PostgreSQL database: the store sends
  ``NOTIFY referee_tables, '<table id>:<version>'`` with every append, and the hub's listener
  (``LISTEN referee_tables``, on a connection of its own) loads the table again,
- through another program on a database that cannot notify (the command line on the SQLite
  file): the hub checks the version of each live table every ``poll_seconds``.

Each change wakes the feed's builder, which builds the message of every seat due one in one
worker-thread call (sockets due the same bytes share one); a change made by a route of this
process has them built in the route's own worker thread after the store took it
(:mod:`referee.server.prepared`: one hand-off an action), and the builder only hands each
socket its own. Each socket has a writer task of its own that sends it, so a slow seat only
ever delays itself and a seat that missed changes gets them all in its next message. A
socket's first message is a full observation (``observe(table, seat, since=<its version>)``;
opened without ``since``, what
``GET /api/tables/{id}`` answers: the latest events and ``earlier``, where older ones begin);
each one after it carries the seat's events since the version it was last sent and a JSON Patch
(:mod:`referee.server.patches`) of the rest of its observation against what it was last sent, so
a push costs what changed, whatever the table's age. When the log was rewritten (an undo), or
the client asks (``{"type": "full", ...}``), the next message is a full observation again, with
``reset`` true and the latest events after an undo. A full observation with many events (a
socket back after missing many) comes as pages of events before it (:data:`PAGE_EVENTS`), and a
send that has not completed after the send timeout closes the socket (:data:`CLOSE_BEHIND`;
:meth:`Hub._watch` looks every quarter of the timeout): a socket whose client does not read
holds at most one page in the server's memory.

Revoking a seat's token closes that seat's sockets here and, through
``NOTIFY referee_seats, '<table id>:<seat>'``, in every other process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from starlette.websockets import WebSocket, WebSocketState

from referee.core.table import Table
from referee.server import patches, pushes
from referee.server.admission import SocketCounts
from referee.server.closing import (
    CLOSE_BEHIND,
    CLOSE_FLOODED,
    CLOSE_GRACE_SECONDS,
    CLOSE_REVOKED,
    MESSAGES_PER_MINUTE,
    close,
)
from referee.server.ports import TableStore
from referee.server.prepared import Prepared, Sent
from referee.server.pushes import PAGE_EVENTS, Message
from referee.server.views import ObservationCache

__all__ = [
    "CLOSE_BEHIND",
    "MESSAGES_PER_MINUTE",
    "PAGE_EVENTS",
    "SEATS_CHANNEL",
    "TABLES_CHANNEL",
    "Feed",
    "Hub",
    "Message",
    "Subscriber",
]

log = logging.getLogger("referee.server")

TABLES_CHANNEL = "referee_tables"
"""The store's channel: ``'<table id>:<version>'`` after every append."""

SEATS_CHANNEL = "referee_seats"
"""The server's channel: ``'<table id>:<seat>'`` after a seat's token is revoked."""


@dataclass(eq=False)
class Subscriber:
    """One seat's socket: what it was last sent (``version``, ``tag``, and ``base``, its
    observation less the log, which the next patch is against, with ``marks``, its members'
    :func:`~referee.server.patches.marks`), and the task that writes to it."""

    table_id: str
    seat: str
    socket: WebSocket
    version: int
    tag: str | None
    still_valid: Callable[[], bool]
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    first: bool = True
    epoch: int = -1
    base: dict[str, Any] | None = None
    marks: patches.Marks | None = None
    full: tuple[int, str | None] | None = None
    pending: Message | int | None = None
    sending: bool = False
    sent_from: float = 0.0
    behind: bool = False
    task: asyncio.Task[None] | None = None


@dataclass(eq=False)
class Feed:
    """A table with seats listening: its latest version, who listens, and the task that builds
    their messages."""

    table_id: str
    table: Table[Any] | None = None
    epoch: int = 0
    subscribers: set[Subscriber] = field(default_factory=set)
    loading: bool = False
    again: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    builder: asyncio.Task[None] | None = None
    whole: tuple[Table[Any] | None, dict[tuple[Any, ...], Message]] = field(
        default_factory=lambda: (None, {})
    )
    preparing: Table[Any] | None = None
    prepared: Prepared | None = None


def _extends(old: Table[Any], new: Table[Any]) -> bool:
    """True if ``new``'s log is ``old``'s with events appended (not rewritten by an undo)."""
    if new.version < old.version:
        return False
    if old.version == 0:
        return True
    return bool(new.log[old.version - 1] == old.log[old.version - 1])


class Hub:
    """The live tables of one process (see the module's doc)."""

    def __init__(
        self,
        store: TableStore,
        observations: ObservationCache | None = None,
        send_timeout: float = 10.0,
    ) -> None:
        self._store = store
        self._send_timeout = send_timeout
        self._observations = observations or ObservationCache()
        self._feeds: dict[str, Feed] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.counts = SocketCounts()
        self._watcher: asyncio.Task[None] | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the event loop, so routes running in worker threads can reach the hub."""
        self._loop = loop

    @property
    def live_tables(self) -> list[str]:
        """The ids of the tables with a seat listening."""
        return list(self._feeds)

    @property
    def live_sockets(self) -> int:
        """How many live sockets are open in this process."""
        return self.counts.total

    def version_of(self, table_id: str) -> int | None:
        """The version the hub holds of a live table."""
        feed = self._feeds.get(table_id)
        return None if feed is None or feed.table is None else feed.table.version

    # -- changes -------------------------------------------------------------------------

    def changed_threadsafe(self, table_id: str, table: Table[Any]) -> None:
        """:meth:`changed`, from the worker thread of the route that changed the table. The
        change reaches the event loop at once (changes arrive in the order the store took
        them), and the messages of the sockets due one are then built here (:meth:`_prepare`)
        while the builder waits for them: it has nothing to hand to a worker thread of its own
        (issue 29: one hand-off an action, not two)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        feed = self._feeds.get(table_id)
        if feed is None:
            loop.call_soon_threadsafe(self.changed, table_id, table)
            return
        loop.call_soon_threadsafe(self._changed_preparing, feed, table)
        prepared = None
        try:
            prepared = self._prepare(feed, table)
        finally:  # (whatever became of them: the builder waits for this)
            loop.call_soon_threadsafe(self._prepared, feed, table, prepared)

    def _changed_preparing(self, feed: Feed, table: Table[Any]) -> None:
        self.changed(feed.table_id, table)
        if feed.table is table:
            feed.preparing = table

    def _prepared(self, feed: Feed, table: Table[Any], prepared: Prepared | None) -> None:
        if feed.preparing is table:
            feed.preparing = None
        if prepared is not None and feed.table is table:
            feed.prepared = prepared
        feed.wake.set()

    def _prepare(self, feed: Feed, table: Table[Any]) -> Prepared | None:
        """Every socket's message for ``table``, built from what each socket holds now (in the
        worker thread that changed the table). A socket still sending, one with a message
        waiting, or one whose client asked for a full observation is left to the builder, and
        so is every socket after an undo."""
        held, epoch = feed.table, feed.epoch  # (the loop may or may not have taken it yet)
        if held is None or not (held is table or _extends(held, table)):
            return None
        asks = [
            (sub, Sent.of(sub))
            for sub in list(feed.subscribers)  # (a copy taken at once, whatever the loop adds)
            if sub.pending is None and not sub.sending and sub.full is None
        ]
        made: dict[tuple[Any, ...], Message] = {}
        messages: dict[Subscriber, tuple[Sent, Message]] = {}
        for sub, sent in asks:
            if sent.first or sent.epoch != epoch or sent.version != table.version:
                try:
                    message = self._message(sub, sent, table, epoch, None, feed, made)
                except Exception:  # the builder tries again, and says why
                    continue
                if isinstance(message, Message):
                    messages[sub] = (sent, message)
        return Prepared(table, epoch, messages)

    def changed(self, table_id: str, table: Table[Any]) -> None:
        """``table`` is now the table ``table_id``: wake its listening seats."""
        feed = self._feeds.get(table_id)
        if feed is None:
            return
        old = feed.table
        if old is not None:
            if old is table or (old.version == table.version and _extends(old, table)):
                return
            if not _extends(old, table):
                feed.epoch += 1
        feed.table = table
        feed.wake.set()

    def notified(self, table_id: str, version: int | None = None) -> None:
        """Another process (or program) changed ``table_id``: load it again, if it is live."""
        feed = self._feeds.get(table_id)
        if feed is None:
            return
        if version is not None and feed.table is not None and feed.table.version == version:
            return  # our own change coming back (an undo notifies with its own, lower version)
        if feed.loading:
            feed.again = True
            return
        feed.loading = True
        asyncio.get_running_loop().create_task(self._reload(feed))

    async def _reload(self, feed: Feed) -> None:
        try:
            while True:
                feed.again = False
                held = feed.table
                try:
                    table = await to_thread.run_sync(self._store.load, feed.table_id)
                except Exception as error:  # a table gone, a database away: keep the old
                    log.warning("could not reload table %s: %s", feed.table_id, error)
                    return
                if _overtaken(held, feed.table, table):
                    continue  # this process acted while the load ran: load again, not go back
                self.changed(feed.table_id, table)
                if not feed.again:
                    return
        finally:
            feed.loading = False

    def revoked(self, table_id: str, seat: str) -> None:
        """Close every socket of ``seat`` at ``table_id`` in this process."""
        feed = self._feeds.get(table_id)
        if feed is None:
            return
        for sub in list(feed.subscribers):
            if sub.seat == seat:
                asyncio.get_running_loop().create_task(
                    close(sub.socket, CLOSE_REVOKED, self._send_timeout)
                )

    async def poll(self) -> None:
        """Check each live table's version against the store (for databases that cannot
        notify)."""
        for table_id in list(self._feeds):
            feed = self._feeds.get(table_id)
            if feed is None or feed.table is None or feed.loading:
                continue
            try:
                version = await to_thread.run_sync(self._store.version, table_id)
            except Exception:
                continue
            held = feed.table  # the feed may have been let go while the store answered
            if held is not None and version != held.version:
                self.notified(table_id, version)

    async def serve(self, sub: Subscriber, table: Table[Any]) -> None:
        """Push ``sub`` its observations until its socket closes."""
        feed = self._feeds.get(sub.table_id)
        if feed is None:
            feed = self._feeds[sub.table_id] = Feed(sub.table_id, table)
            feed.builder = asyncio.get_running_loop().create_task(self._build(feed))
        elif feed.table is None or (
            table.version > feed.table.version and _extends(feed.table, table)
        ):
            self.changed(sub.table_id, table)  # fresher than what the feed holds
        sub.epoch = feed.epoch
        feed.subscribers.add(sub)
        feed.wake.set()
        loop = asyncio.get_running_loop()
        if self._watcher is None or self._watcher.done():
            self._watcher = loop.create_task(self._watch())
        writer = loop.create_task(self._write(feed, sub))
        reader = loop.create_task(self._read(feed, sub))
        sub.task = writer
        try:
            # the client left (the reader ends) or the server closed the socket (the writer)
            await asyncio.wait((reader, writer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, writer):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            feed.subscribers.discard(sub)
            sub.pending = sub.base = sub.marks = sub.task = None
            if not feed.subscribers and self._feeds.get(sub.table_id) is feed:
                del self._feeds[sub.table_id]
                if feed.builder is not None:
                    feed.builder.cancel()
                    feed.builder = None
                feed.table = None
                self._observations.forget(sub.table_id)

    async def _read(self, feed: Feed, sub: Subscriber) -> None:
        """Answer pings and requests for a full observation; a socket that floods the server
        (over :data:`MESSAGES_PER_MINUTE`) is closed. Anything else a client sends is ignored:
        acting goes through the API."""
        socket = sub.socket
        window, count = time.monotonic(), 0
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            now = time.monotonic()
            if now - window >= 60:
                window, count = now, 0
            count += 1
            if count > MESSAGES_PER_MINUTE:
                await close(socket, CLOSE_FLOODED, self._send_timeout)
                return
            text = message.get("text")
            if text == "ping":
                await socket.send_text('{"type":"pong"}')
            elif isinstance(text, str) and text.startswith("{"):
                asked = pushes.full_asked(text)
                if asked is not None:
                    sub.full = asked
                    feed.wake.set()

    async def _build(self, feed: Feed) -> None:
        """Build the messages of every seat due one, for each change of the table, in one
        worker-thread call; each socket's writer sends its own. A socket still sending is
        skipped: when it is done its writer wakes this again, and it is sent what it missed."""
        while True:
            await feed.wake.wait()
            feed.wake.clear()
            table, epoch = feed.table, feed.epoch
            if table is None or feed.preparing is table:
                continue  # (its messages are being built by the route that changed it)
            due = [
                sub
                for sub in feed.subscribers
                if sub.pending is None and not sub.sending and _due(sub, table, epoch)
            ]
            prepared, feed.prepared = feed.prepared, None
            if prepared is not None:
                due = [sub for sub in due if not _hand(sub, prepared.take(sub, table, epoch))]
            if not due:
                continue
            asks = [(sub, sub.full) for sub in due]
            for sub in due:
                sub.full = None
            built = await to_thread.run_sync(self._messages, feed, asks, table, epoch)
            for sub, message in zip(due, built, strict=True):
                if sub in feed.subscribers:
                    _hand(sub, message)  # or the code to close it with

    async def _write(self, feed: Feed, sub: Subscriber) -> None:
        """Send ``sub`` what :meth:`_build` made for it. A send that does not complete within
        the send timeout (a client that does not read) closes the socket with
        :data:`CLOSE_BEHIND`: a socket holds at most one message in the server's buffers."""
        socket = sub.socket
        loop = asyncio.get_running_loop()
        try:
            while True:
                await sub.wake.wait()
                sub.wake.clear()
                message = sub.pending
                if message is None:
                    continue
                if isinstance(message, int) or (
                    socket.application_state != WebSocketState.CONNECTED
                ):
                    await close(
                        socket, message if isinstance(message, int) else 1000, self._send_timeout
                    )
                    return
                sub.sending, sub.sent_from = True, loop.time()
                try:
                    await socket.send_text(message.text)
                    for body in message.more:  # a page (~100 KB): written here, a ms each
                        sub.sent_from = loop.time()
                        await socket.send_text(pushes.text(body))
                except asyncio.CancelledError:
                    if not sub.behind:  # (the socket closing, not the watch)
                        raise
                    current = asyncio.current_task()
                    if current is not None:
                        current.uncancel()
                    log.info("socket of %s at %s fell behind: closed", sub.seat, sub.table_id)
                    await close(socket, CLOSE_BEHIND, CLOSE_GRACE_SECONDS)
                    return
                sub.first = False
                sub.epoch = message.epoch
                sub.version = message.version
                sub.tag = message.tag
                sub.base = message.base
                sub.marks = message.marks
                sub.pending = None
                sub.sending = False
                held = feed.table
                if held is not None and _due(sub, held, feed.epoch):
                    feed.wake.set()  # more came while this one was sent
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a socket gone mid-send
            log.debug("socket of %s at %s ended: %s", sub.seat, sub.table_id, error)
            await close(socket, 1011, self._send_timeout)

    async def _watch(self) -> None:
        """Close each socket whose send has not completed within the send timeout (its client
        does not read): its writer is told it is :attr:`Subscriber.behind` and cancelled, and
        closes it with :data:`CLOSE_BEHIND`. One look over every socket a quarter of the
        timeout (at most a second) apart, while any table has a socket, rather than a timer
        armed and disarmed around every send."""
        loop = asyncio.get_running_loop()
        every = min(1.0, self._send_timeout / 4)
        while self._feeds:
            await asyncio.sleep(every)
            now = loop.time()
            for feed in list(self._feeds.values()):
                for sub in list(feed.subscribers):
                    late = sub.sending and now - sub.sent_from >= self._send_timeout
                    if late and not sub.behind and sub.task is not None:
                        sub.behind = True
                        sub.task.cancel()

    def _messages(
        self,
        feed: Feed,
        asks: list[tuple[Subscriber, tuple[int, str | None] | None]],
        table: Table[Any],
        epoch: int,
    ) -> list[Message | int]:
        """Every due socket's message for ``table`` (in a worker thread). Sockets that would be
        sent the same bytes share one message (the same seat's tabs, a room of reconnects):
        a full observation for as long as the table is the same, a patch within one call."""
        made: dict[tuple[Any, ...], Message] = {}
        out: list[Message | int] = []
        for sub, full in asks:
            try:
                out.append(self._message(sub, Sent.of(sub), table, epoch, full, feed, made))
            except Exception:
                log.exception("could not build the message of %s at %s", sub.seat, sub.table_id)
                out.append(1011)
        return out

    def _message(
        self,
        sub: Subscriber,
        sent: Sent,
        table: Table[Any],
        epoch: int,
        full: tuple[int, str | None] | None,
        feed: Feed,
        made: dict[tuple[Any, ...], Message],
    ) -> Message | int:
        """``sub``'s message for ``table``, from ``sent``, what it holds (in a worker thread).
        A full observation is shared with every socket due the same bytes for as long as the
        feed's table is ``table`` (``feed.whole``, replaced whole, never changed in place for
        another table: two threads may build for one feed)."""
        if not sub.still_valid():
            return CLOSE_REVOKED
        whole_of, shared = feed.whole
        if whole_of is not table:
            shared = {}
            feed.whole = (table, shared)
        rewritten = sent.epoch != epoch
        if full is not None:
            since, tag = full
        elif rewritten:
            since, tag = 0, None
        else:
            since, tag = sent.version, sent.tag
        whole = full is not None or rewritten or sent.first or sent.base is None
        reset = since == 0 and not sent.first
        key = (sub.seat, since, tag, reset) if whole else (sub.seat, since, tag, id(sent.base))
        found = (shared if whole else made).get(key)
        if found is not None:
            return found
        observations = self._observations
        if since > 0 or whole:  # an open (no ``since``, or a reset) gets the latest events
            data = observations.opening(table, sub.table_id, sub.seat, since, tag)
        else:  # (a patch since version 0: every event there is)
            data = observations.observation(table, sub.table_id, sub.seat, since, tag)
        base = {k: v for k, v in data.items() if k not in pushes.LOG_FIELDS and k != "earlier"}
        version, last_tag = int(data["version"]), str(data["tag"])
        # (marks once a message, however many sockets it is sent to; none if it kept the last)
        base, marks, kept = patches.kept_or_marked(None if whole else sent.base, sent.marks, base)
        if whole or data["reset"]:
            first, *more = pushes.in_pages(sub.table_id, {**data, "reset": reset or data["reset"]})
            message = Message(
                pushes.text(first), tuple(more), version, last_tag, base, epoch, marks
            )
            if whole:  # (a patch's reset, for a tag that no longer fits, is not shared)
                shared[key] = message
            return message
        assert sent.base is not None and sent.marks is not None
        body = {
            "type": "patch",
            "table": sub.table_id,
            "version": data["version"],
            "since": data["since"],
            "tag": data["tag"],
            "events": data["events"],
            "actions": data["actions"],
            "patch": [] if kept else patches.diff(sent.base, base, marked=(sent.marks, marks)),
        }
        message = made[key] = Message(pushes.text(body), (), version, last_tag, base, epoch, marks)
        return message


def _overtaken(held: Table[Any] | None, now: Table[Any] | None, loaded: Table[Any]) -> bool:
    """True if a load that began when the feed held ``held`` is older than what the feed holds
    ``now``: this process changed the table (``now`` is not ``held``) into one that extends the
    loaded table by more events. Handed to :meth:`Hub.changed`, such a load would look like an
    undo and take every seat back a version until the next change; loaded again after the
    change it is the table as it stands (an undo by another process loads short again)."""
    return (
        now is not None
        and now is not held
        and loaded.version < now.version
        and _extends(loaded, now)
    )


def _hand(sub: Subscriber, message: Message | int | None) -> bool:
    """Give ``sub``'s writer ``message`` (a close code: close with it); ``False`` if none."""
    if message is None:
        return False
    sub.pending = message
    sub.wake.set()
    return True


def _due(sub: Subscriber, table: Table[Any], epoch: int) -> bool:
    """``sub`` must be sent a message for ``table``: it has none yet, the table moved on or was
    rewritten since its last, or its client asked for a full observation."""
    return sub.first or sub.full is not None or sub.epoch != epoch or sub.version != table.version
