"""Which database, how to talk to it, and how its failures read.

:func:`database_url` picks the URL (an argument, ``REFEREE_DATABASE_URL``, or a SQLite file in
the user's data folder); :func:`make_engine` builds the engine: SQLite in WAL mode with
``synchronous=FULL`` and ``BEGIN IMMEDIATE`` for writes, PostgreSQL through psycopg 3.
:func:`write_transaction` queues a process's SQLite writers on one lock per database file, so
they wait their turn in the process instead of in SQLite's busy handler (issue 29).
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

_WRITERS: dict[Path, threading.RLock] = {}
"""One lock per SQLite database file in this process, whichever engines reach it."""

_WRITERS_BY_ENGINE: weakref.WeakKeyDictionary[Engine, threading.RLock] = weakref.WeakKeyDictionary()
_WRITERS_MADE = threading.Lock()


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
    ``BEGIN IMMEDIATE`` for writes) or PostgreSQL (psycopg 3; each pooled connection is pinged
    as it is taken from the pool, and one PostgreSQL has ended is replaced: a restart of the
    database fails no request made after it is back).

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
            _WRITERS_BY_ENGINE[engine] = _WRITERS.setdefault(path, threading.RLock())
        return engine
    return create_engine(
        parsed,
        # a pooled connection is tried before it is handed out: one PostgreSQL ended (a restart,
        # an administrator, a proxy's idle timeout) is replaced, never given to a request
        pool_pre_ping=True,
        # the URL may name the session (``?application_name=``); by default it is "referee"
        connect_args={
            "connect_timeout": 10,
            "application_name": parsed.query.get("application_name", "referee"),
        },
    )


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
    file, shared by every engine of the process that opens it), held until the transaction has
    committed or rolled back: SQLite lets one writer in at a time, and one waiting in its busy
    handler polls and sleeps, where one waiting on a lock is woken the moment it is its turn.
    Since they take turns, the writers of an engine share one connection, opened at the first
    write and kept (:func:`release_writer` closes it): taking a connection from the pool and
    giving it back cost a write on SQLite more than the statements of a small action (issue 29).
    """
    writer = _WRITERS_BY_ENGINE.get(engine)
    if writer is None:  # PostgreSQL: the database's row locks order the writers
        with engine.connect() as conn:
            conn.execution_options(referee_write=True)
            with conn.begin():
                yield conn
        return
    with writer:
        held = _held_writer(engine)
        if held.in_transaction():  # (a write within a write: its own)
            with engine.connect() as conn:
                conn.execution_options(referee_write=True)
                with conn.begin():
                    yield conn
            return
        try:
            with held.begin():
                yield held
        except BaseException as error:
            if held.invalidated or held.in_transaction() or not _is_refusal(error):
                release_writer(engine)  # the next write opens a fresh connection
            raise


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
        # a statement sent straight through psycopg (the row read, an action's pipeline)
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
