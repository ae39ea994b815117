"""The databases the store's and the server's tests run on: SQLite, and PostgreSQL at
``REFEREE_TEST_POSTGRES_URL`` (by default the local server's ``test`` database), where each test
gets a database of its own, made from that URL and dropped afterwards, so runs never collide.
An unreachable PostgreSQL fails the tests with one line saying how to start it: never a skip."""

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


def fresh_postgres(admin: str) -> tuple[str, str]:
    """A new empty database on the test server: ``(url, name)``."""
    name = f"referee_test_{os.getpid()}_{secrets.token_hex(4)}"
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
