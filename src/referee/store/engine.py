"""Which database, how to talk to it, and how its failures read.

:func:`database_url` picks the URL (an argument, ``REFEREE_DATABASE_URL``, or a SQLite file in
the user's data folder); :func:`make_engine` builds the engine: SQLite in WAL mode with
``synchronous=FULL`` and ``BEGIN IMMEDIATE`` for writes, PostgreSQL through psycopg 3.
:func:`write_transaction` queues a process's SQLite writers on one lock per database file, so
they wait their turn in the process instead of in SQLite's busy handler, and lets the writes
queued behind each other share one commit (issue 29).
:func:`translated` turns every database failure into one :class:`StoreError` line.

>>> str(normalise_url("postgresql://postgres@127.0.0.1/test"))
'postgresql+psycopg://postgres@127.0.0.1/test'
>>> normalise_url("mysql://x")
Traceback (most recent call last):
...
referee.store.errors.StoreError: database URL 'mysql://x': Referee stores tables in SQLite or ...
"""

from __future__ import annotations

import contextlib
import os
import select
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, exc
from sqlalchemy.engine import URL, make_url

from referee.store.errors import StoreError

__all__ = [
    "DATABASE_ENV",
    "database_url",
    "default_sqlite_path",
    "describe_url",
    "is_postgresql",
    "make_engine",
    "normalise_url",
    "release_writer",
    "translated",
    "write_transaction",
]

DATABASE_ENV = "REFEREE_DATABASE_URL"
"""The environment variable naming the database."""

BUSY_TIMEOUT_SECONDS = 60
"""How long a SQLite writer waits for another to finish before giving up (a writer of another
process: those of this one queue on :func:`write_transaction`'s lock first)."""

MOST_SHARING_A_COMMIT = 32
"""The most writes one SQLite commit holds: the first of them waits for the others' work."""

COMMIT_WAIT_SECONDS = 120
"""How long a write that shares a commit waits for it (the last write may itself wait up to
:data:`BUSY_TIMEOUT_SECONDS` for another process's writer) before it says so."""


class _Batch:
    """The transaction the SQLite writes queued behind each other share, open on the
    connection of the engine that began it: it commits (or fails) for all of them at once."""

    def __init__(self, engine: Engine, connection: Connection) -> None:
        self.engine = engine
        self.connection = connection
        self.transaction = connection.begin()
        self.writes = 0
        self.done = threading.Event()
        self.error: BaseException | None = None


class _Writers:
    """The writers of one SQLite database file in this process, whichever engines reach it:
    the lock they take turns on, how many are queued for it, and the transaction they share."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counting = threading.Lock()
        self.queued = 0
        self.batch: _Batch | None = None


_WRITERS: dict[Path, _Writers] = {}
"""The writers of each SQLite database file in this process."""

_WRITERS_BY_ENGINE: weakref.WeakKeyDictionary[Engine, _Writers] = weakref.WeakKeyDictionary()
_WRITERS_MADE = threading.Lock()
_WRITING = threading.local()
"""Whether this thread is inside a write (a write within it gets a connection of its own)."""


def default_sqlite_path() -> Path:
    """``referee.sqlite3`` in the user's data folder (``platformdirs``)."""
    from platformdirs import user_data_path

    return user_data_path("referee", appauthor=False) / "referee.sqlite3"


def database_url(url: str | None = None) -> str:
    """``url``, or ``REFEREE_DATABASE_URL``, or the default SQLite file (its folder made)."""
    chosen = url or os.environ.get(DATABASE_ENV)
    if chosen:
        return chosen
    path = default_sqlite_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"cannot make the folder {path.parent} for the default database: "
            f"{error.strerror or error}"
        ) from None
    return f"sqlite:///{path}"


def normalise_url(url: str) -> URL:
    """The URL parsed, PostgreSQL sent through psycopg 3; :class:`StoreError` otherwise."""
    try:
        parsed = make_url(url)
    except (exc.ArgumentError, ValueError):
        raise StoreError(
            f"database URL {url!r} is not a URL (try sqlite:///path/to/file.sqlite3 or "
            "postgresql://user@host/database)"
        ) from None
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        if parsed.drivername not in ("sqlite", "sqlite+pysqlite"):
            raise StoreError(f"database URL {url!r}: use sqlite:///path (the built-in driver)")
        return parsed
    raise StoreError(f"database URL {url!r}: Referee stores tables in SQLite or PostgreSQL only")


def describe_url(url: URL) -> str:
    """The URL as it may be shown: no password."""
    return url.render_as_string(hide_password=True)


def is_postgresql(engine: Engine | Connection) -> bool:
    """True for PostgreSQL, False for SQLite."""
    return engine.dialect.name == "postgresql"


def make_engine(url: str | URL) -> Engine:
    """An engine for ``url``: SQLite (WAL, ``synchronous=FULL``, foreign keys, a busy timeout,
    ``BEGIN IMMEDIATE`` for writes) or PostgreSQL (psycopg 3; a pooled connection PostgreSQL
    has ended is replaced as it is taken from the pool (:func:`_replace_if_ended`): a restart
    of the database fails no request made after it is back).

    A SQLite file whose folder does not exist is refused here, so nothing is created.
    """
    parsed = normalise_url(url) if isinstance(url, str) else url
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:"):
            raise StoreError("an in-memory SQLite database cannot be shared: give a file")
        folder = Path(database).expanduser().resolve().parent
        if not folder.is_dir():
            raise StoreError(f"database URL {describe_url(parsed)!r}: no folder {folder}")
        engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        with _WRITERS_MADE:
            path = Path(database).expanduser().resolve()
            _WRITERS_BY_ENGINE[engine] = _WRITERS.setdefault(path, _Writers())
        return engine
    engine = create_engine(
        parsed,
        # the URL may name the session (``?application_name=``); by default it is "referee"
        connect_args={
            "connect_timeout": 10,
            "application_name": parsed.query.get("application_name", "referee"),
        },
    )
    event.listen(engine, "checkout", _replace_if_ended)
    return engine


def _replace_if_ended(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """A pooled PostgreSQL connection the server has ended is never handed to a request: the
    pool replaces it (SQLAlchemy's custom pessimistic check: the ``checkout`` event raising
    :class:`~sqlalchemy.exc.DisconnectionError`).

    PostgreSQL ends a session (a restart, an administrator, a proxy's idle timeout) with a last
    message and by closing its socket, and an idle connection in the pool is sent nothing
    else: so one with anything to read has ended. Asked of the socket, without a round trip
    to the server; a ``SELECT 1`` before each checkout (``pool_pre_ping``) cost the server
    0.45 ms of CPU an action (issue 29; docs/performance.md).
    """
    if _has_ended(dbapi_connection):
        raise exc.DisconnectionError("PostgreSQL has ended this connection")


def _has_ended(connection: Any) -> bool:
    """True when the idle psycopg ``connection`` is closed, or its socket has something to
    read (``poll``, not ``select``: a busy server's descriptors pass 1,024)."""
    if connection.closed or connection.broken:
        return True
    waiting = select.poll()
    waiting.register(connection.fileno(), select.POLLIN)
    return bool(waiting.poll(0))


def _sqlite_connect(connection: sqlite3.Connection, _record: Any) -> None:
    # The driver's own transaction handling is off; "begin" below says BEGIN [IMMEDIATE].
    connection.isolation_level = None
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_SECONDS * 1000}")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # straight through the driver, as the statements of an action are (rows.py): SQLAlchemy's
    # execution of a statement costs more than SQLite's of this one (issue 29)
    write = connection.get_execution_options().get("referee_write", False)
    raw = connection.connection.dbapi_connection
    assert raw is not None
    raw.execute("BEGIN IMMEDIATE" if write else "BEGIN").close()


@contextlib.contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: on SQLite it takes the write lock at once (``BEGIN
    IMMEDIATE``), so what it reads is what it writes over.

    On SQLite the writers of this process first queue on the database file's lock (one per
    file, shared by every engine of the process that opens it): SQLite lets one writer in at a
    time, and one waiting in its busy handler polls and sleeps, where one waiting on a lock is
    woken the moment it is its turn. Since they take turns, the writers of an engine share one
    connection, opened at the first write and kept (:func:`release_writer` closes it).

    **One commit for the writes queued behind each other** (a group commit). A commit waits for
    the disk (``synchronous=FULL``), and while it does, every writer queued behind it waits too.
    So a write done while others are queued hands the lock on without committing, and waits;
    the next joins the same transaction (in a savepoint of its own, so that a refusal undoes
    its writes alone), and the last of them — the one nobody is queued behind, or the
    :data:`MOST_SHARING_A_COMMIT`-th — commits for all. Each returns only once the commit is
    done, so nothing is acknowledged before it is stored; if the commit fails, every write of
    the transaction fails with it, and none is stored. A write alone commits at once, as before.
    """
    writers = _WRITERS_BY_ENGINE.get(engine)
    if writers is None:  # PostgreSQL: the database's row locks order the writers
        with engine.connect() as conn:
            conn.execution_options(referee_write=True)
            with conn.begin():
                yield conn
        return
    if getattr(_WRITING, "inside", False):  # (a write within a write: its own)
        with engine.connect() as conn:
            conn.execution_options(referee_write=True)
            with conn.begin():
                yield conn
        return
    with writers.counting:
        writers.queued += 1
    writers.lock.acquire()
    with writers.counting:
        writers.queued -= 1
    batch = _joined(writers, engine)
    raw = batch.connection.connection.dbapi_connection
    assert raw is not None
    first = batch.writes == 0  # (nothing of another's to keep: no savepoint of its own)
    if not first:
        _try(lambda: raw.execute("SAVEPOINT referee_write").close(), writers, batch)
    _WRITING.inside = True
    try:
        yield batch.connection
    except BaseException as error:
        _WRITING.inside = False
        if not _is_refusal(error) or batch.connection.invalidated:
            _fail(writers, batch, error)
            raise
        if not first:  # (the first's writes go with the transaction, rolled back)
            _try(lambda: raw.execute("ROLLBACK TO referee_write").close(), writers, batch)
            _try(lambda: raw.execute("RELEASE referee_write").close(), writers, batch)
        _hand_on(writers, batch, wait=False)  # (a refusal stores nothing: no commit to await)
        raise
    _WRITING.inside = False
    if not first:
        _try(lambda: raw.execute("RELEASE referee_write").close(), writers, batch)
    batch.writes += 1
    _hand_on(writers, batch, wait=True)
    if batch.error is not None:
        raise _failure(batch.engine, batch.error)


def _joined(writers: _Writers, engine: Engine) -> _Batch:
    """The transaction this engine's write joins (the lock held): the one open, or a new one.
    One open on another engine's connection (two stores of one file) is committed first."""
    batch = writers.batch
    if batch is not None and batch.engine is not engine:
        _close(writers, batch)
        batch = None
    if batch is None:
        try:
            batch = writers.batch = _Batch(engine, _held_writer(engine))
        except BaseException:
            release_writer(engine)
            writers.lock.release()
            raise
    return batch


def _hand_on(writers: _Writers, batch: _Batch, *, wait: bool) -> None:
    """The write's part done (the lock held): hand the lock on to the next writer queued with
    the transaction left open for it (and, with ``wait``, wait for its commit); or, if none is
    queued (or the transaction holds enough), end the transaction — committed if it holds a
    write, rolled back if not — and hand the lock on."""
    with writers.counting:
        more = writers.queued > 0 and batch.writes < MOST_SHARING_A_COMMIT
    if more and batch.writes > 0:
        writers.lock.release()
        if wait and not batch.done.wait(COMMIT_WAIT_SECONDS):
            raise StoreError("a write's commit did not come: it may or may not be stored")
        return
    try:
        _close(writers, batch)
    finally:
        writers.lock.release()


def _close(writers: _Writers, batch: _Batch) -> None:
    """End the shared transaction (the lock held): committed for all its writes, or rolled
    back if it holds none. A failure of the commit is every write's (``batch.error``)."""
    try:
        if batch.writes:
            batch.transaction.commit()
        else:
            batch.transaction.rollback()
    except BaseException as error:
        batch.error = error
        _discard(batch)
    finally:
        writers.batch = None
        batch.done.set()


def _fail(writers: _Writers, batch: _Batch, error: BaseException) -> None:
    """A failure of the database within a write: the shared transaction is rolled back and
    every write in it fails (none is stored); the next write opens a fresh connection."""
    batch.error = error
    with contextlib.suppress(Exception):
        batch.transaction.rollback()
    _discard(batch)
    writers.batch = None
    batch.done.set()
    writers.lock.release()


def _discard(batch: _Batch) -> None:
    """The writers' connection thrown away after a failure (whatever state the driver's
    connection is in, it is closed, not handed back to the pool): the next write opens one."""
    with contextlib.suppress(Exception):
        batch.connection.invalidate()
    release_writer(batch.engine)


def _try(step: Any, writers: _Writers, batch: _Batch) -> None:
    """A savepoint's statement; if the database fails it, the whole transaction fails."""
    try:
        step()
    except BaseException as error:
        _fail(writers, batch, error)
        raise


def _failure(engine: Engine, error: BaseException) -> StoreError:
    """The one-line error every write of a failed commit raises."""
    if isinstance(error, exc.DBAPIError):
        return StoreError(_explain(engine.url, error))
    if isinstance(error, sqlite3.Error):
        return StoreError(_reason(engine.url, error, invalidated=False))
    return StoreError(f"database {describe_url(engine.url)!r}: {_first_line(error)}")


_HELD = "_referee_writer"
"""The attribute of a SQLite engine holding its writers' connection (on the engine itself, so
that an engine no longer used is collected with it)."""


def _held_writer(engine: Engine) -> Connection:
    held: Connection | None = engine.__dict__.get(_HELD)
    if held is None or held.closed:
        held = engine.connect()
        held.execution_options(referee_write=True)
        engine.__dict__[_HELD] = held
    return held


def release_writer(engine: Engine) -> None:
    """Close the connection a SQLite engine's writers share (before the engine is disposed, or
    after a failure of the database); the next write opens another."""
    held: Connection | None = engine.__dict__.pop(_HELD, None)
    if held is not None:
        with contextlib.suppress(Exception):
            held.close()


def _is_refusal(error: BaseException) -> bool:
    """True for an error of the rules or of the caller (an action refused, a stale version),
    which leaves the connection as good as it was; False for the database's own."""
    return not isinstance(error, (exc.SQLAlchemyError, sqlite3.Error)) and isinstance(
        error, Exception
    )


@contextlib.contextmanager
def translated(url: URL) -> Iterator[None]:
    """Turn a database failure into one :class:`StoreError` line naming the database."""
    try:
        yield
    except exc.DBAPIError as error:
        raise StoreError(_explain(url, error)) from None
    except sqlite3.Error as error:  # a statement sent straight through the driver
        raise StoreError(_reason(url, error, invalidated=False)) from None
    except exc.SQLAlchemyError as error:
        raise StoreError(f"database {describe_url(url)!r}: {_first_line(error)}") from None
    except Exception as error:
        if not _is_psycopg_error(error):
            raise
        # a statement sent straight through psycopg (the row read, an action's rows)
        raise StoreError(_reason(url, error, invalidated=False)) from None


def _is_psycopg_error(error: Exception) -> bool:
    """True for psycopg's own errors (never imported here: none can occur before it is)."""
    import sys

    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(error, psycopg.Error)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _explain(url: URL, error: exc.DBAPIError) -> str:
    original = error.orig if error.orig is not None else error
    return _reason(url, original, invalidated=error.connection_invalidated)


def _reason(url: URL, original: BaseException, *, invalidated: bool) -> str:
    where = describe_url(url)
    reason = _first_line(original)
    if url.get_backend_name() == "sqlite":
        if "not a database" in reason or "malformed" in reason:
            return f"{url.database} is not a Referee database, or it is corrupt ({reason})"
        if "unable to open" in reason:
            return f"cannot open the database file {url.database} ({reason})"
        return f"database {where!r}: {reason}"
    if invalidated or "connection" in reason.lower() or "server" in reason:
        return f"cannot reach the database {where!r}: {reason}"
    return f"database {where!r}: {reason}"
