"""Every store test runs on SQLite and on PostgreSQL (``REFEREE_TEST_POSTGRES_URL``, by default
the local server's ``test`` database). Each PostgreSQL test gets a database of its own, made
from that URL and dropped afterwards, so runs never collide. An unreachable PostgreSQL fails
the tests: it is never skipped."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import tests.core.toy_procedure  # noqa: F401  (registers kernel_toy)

POSTGRES_URL = os.environ.get(
    "REFEREE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(autouse=True)
def _no_default_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A test that forgets to name its database fails, instead of using the user's own."""
    monkeypatch.setenv("REFEREE_DATABASE_URL", f"sqlite:///{tmp_path}/unnamed/database.sqlite3")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))


def _admin_url() -> str:
    url = make_url(POSTGRES_URL)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    """The PostgreSQL server the tests make their databases on (fails if out of reach)."""
    engine = create_engine(_admin_url(), isolation_level="AUTOCOMMIT")
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
    yield _admin_url()
    engine.dispose()


def fresh_postgres(admin: str) -> tuple[str, str]:
    """A new empty database on the test server: ``(url, name)``."""
    name = f"referee_test_{os.getpid()}_{secrets.token_hex(4)}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    url = make_url(admin).set(database=name).render_as_string(hide_password=False)
    return url, name


def drop_postgres(admin: str, name: str) -> None:
    """Drop a database :func:`fresh_postgres` made (its sessions ended first)."""
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def _database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.sqlite3'}"
        return
    admin = request.getfixturevalue("postgres_admin")
    url, name = fresh_postgres(admin)
    try:
        yield url
    finally:
        drop_postgres(admin, name)


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, on each backend in turn."""
    yield from _database(request.param, tmp_path, request)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty SQLite database."""
    return f"sqlite:///{tmp_path / 'other.sqlite3'}"


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty PostgreSQL database."""
    yield from _database("postgresql", tmp_path, request)
