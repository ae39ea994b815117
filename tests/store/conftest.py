"""Every store test runs on SQLite and on PostgreSQL (``REFEREE_TEST_POSTGRES_URL``, by default
the local server's ``test`` database). Each PostgreSQL test gets a database of its own, made
from that URL and dropped afterwards, so runs never collide. An unreachable PostgreSQL fails
the tests: it is never skipped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.core.toy_procedure  # noqa: F401  (registers kernel_toy)
from tests.databases import BACKENDS, database, postgres_server


@pytest.fixture(autouse=True)
def _no_default_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A test that forgets to name its database fails, instead of using the user's own."""
    monkeypatch.setenv("REFEREE_DATABASE_URL", f"sqlite:///{tmp_path}/unnamed/database.sqlite3")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    """The PostgreSQL server the tests make their databases on (fails if out of reach); what
    this worker left there is dropped at the end of its session."""
    yield from postgres_server()


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, on each backend in turn."""
    yield from database(request.param, tmp_path, request)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty SQLite database."""
    return f"sqlite:///{tmp_path / 'other.sqlite3'}"


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty PostgreSQL database."""
    yield from database("postgresql", tmp_path, request)
