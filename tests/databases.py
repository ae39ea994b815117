"""The databases the store's and the server's tests run on: SQLite, and PostgreSQL at
``REFEREE_TEST_POSTGRES_URL`` (by default the local server's ``test`` database), where each test
gets a database of its own, made from that URL and dropped afterwards, so runs never collide.
An unreachable PostgreSQL fails the tests with one line saying how to start it: never a skip.

Under pytest-xdist too: a database's name carries the worker (``PYTEST_XDIST_WORKER``, ``gw0``…;
``main`` without xdist), its process and a random part, so no two tests, workers or runs on
one server (other checkouts' runs share it) ever make, use or drop the same database; no test
touches the ``test`` database's own tables or schema. At the end of its session a worker drops
whatever its own process left (a test killed before its clean-up): never another's.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES_URL = os.environ.get(
    "REFEREE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ("sqlite", "postgresql")


def admin_url() -> str:
    """The test PostgreSQL server's URL, with psycopg 3 as the driver."""
    url = make_url(POSTGRES_URL)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


def reachable_postgres() -> str:
    """:func:`admin_url`, once the server answers; a test failure (never a skip) if not."""
    engine = create_engine(admin_url(), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as error:
        pytest.fail(
            f"PostgreSQL is not reachable at {POSTGRES_URL} ({type(error).__name__}): start it "
            "with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` "
            "or set REFEREE_TEST_POSTGRES_URL",
            pytrace=False,
        )
    finally:
        engine.dispose()
    return admin_url()


def own_prefix() -> str:
    """The start of the name of every database this process makes: the xdist worker and the
    process id.

    >>> own_prefix().startswith("referee_test_")
    True
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"referee_test_{''.join(c for c in worker if c.isalnum())}_{os.getpid()}_"


def fresh_postgres(admin: str) -> tuple[str, str]:
    """A new empty database on the test server: ``(url, name)``."""
    name = own_prefix() + secrets.token_hex(4)
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(admin).set(database=name).render_as_string(hide_password=False), name


def drop_postgres(admin: str, name: str) -> None:
    """Drop a database :func:`fresh_postgres` made (its sessions ended first)."""
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def drop_leftovers(admin: str) -> list[str]:
    """Drop the databases this process made and did not drop (a test stopped before its
    clean-up); the names dropped. Another process's databases are never touched."""
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            pattern = own_prefix().replace("_", r"\_") + "%"
            names = [
                str(row[0])
                for row in conn.execute(
                    text("SELECT datname FROM pg_database WHERE datname LIKE :pattern"),
                    {"pattern": pattern},
                )
            ]
            for name in names:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()
    return names


def postgres_server() -> Iterator[str]:
    """The ``postgres_admin`` fixture: the server the tests make their databases on (a failure
    if out of reach); this process's leftovers dropped at the end of the session."""
    admin = reachable_postgres()
    yield admin
    drop_leftovers(admin)


def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """An empty database of ``backend`` for one test (the ``postgres_admin`` fixture gives the
    PostgreSQL server)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.sqlite3'}"
        return
    admin = request.getfixturevalue("postgres_admin")
    url, name = fresh_postgres(admin)
    try:
        yield url
    finally:
        drop_postgres(admin, name)
