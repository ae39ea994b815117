"""Server tests run on the real store, on SQLite and on PostgreSQL.

PostgreSQL is ``REFEREE_TEST_POSTGRES_URL`` (by default the local server's ``test`` database);
each test that uses it gets a database of its own, made on that server and dropped afterwards.
An unreachable PostgreSQL fails the tests, with one line saying how to start it: never a skip.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tests.core.toy_procedure  # noqa: F401  (registers kernel_toy)
from referee.core import Action
from referee.core.table import Table
from referee.server import Settings, create_app
from referee.store import Store, open_store
from tests.databases import BACKENDS, database, postgres_server

#: Limits high enough that a test's own requests never meet them (the limits have their tests).
TEST_SETTINGS = Settings(rate=10_000, burst=10_000, anonymous_rate=10_000, anonymous_burst=10_000)


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    """The PostgreSQL server the tests make their databases on (fails if out of reach); what
    this worker left there is dropped at the end of its session."""
    yield from postgres_server()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, on each backend in turn."""
    yield from database(request.param, tmp_path, request)


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty PostgreSQL database."""
    yield from database("postgresql", tmp_path, request)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty SQLite database."""
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@dataclass
class Seated:
    """A table made through the API: its id and each seat's token."""

    id: str
    tokens: dict[str, str]
    created: dict[str, Any] = field(default_factory=dict)

    @property
    def version(self) -> int:
        """The version the table was created at (its opening events: setup, the dice's
        commitment)."""
        return int(self.created.get("version", 1))

    def auth(self, seat: str) -> dict[str, str]:
        """The bearer header of ``seat``."""
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


@dataclass
class Server:
    """A server over a real store, with a test client."""

    store: Store
    client: TestClient

    def create(self, system: str = "kernel_toy", setup: Any = None, **extra: Any) -> Seated:
        """A new table through ``POST /api/tables``."""
        body = {"system": system, "setup": setup or {}, "name": extra.pop("name", "t"), **extra}
        response = self.client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        data = response.json()
        return Seated(data["id"], {s["id"]: s["token"] for s in data["seats"]}, data)

    def grown(self, procedure: Any, system: str, kind: str, events: int) -> Seated:
        """A table of ``system`` grown by ``kind`` (by the seat ``ann``) to ``events`` events,
        then stored as an import: an old table the server first meets when it is opened."""
        table = Table.start(procedure, {}, system=system)
        while table.version < events:
            table = table.act(Action("ann", kind), None, seat="ann")
        created = self.store.import_record(table.to_record(), name=f"{events} events")
        return Seated(created.id, dict(created.tokens), {"version": table.version})


@contextlib.contextmanager
def running(url: str, settings: Settings = TEST_SETTINGS) -> Iterator[Server]:
    """A server over the store at ``url``, with a test client (its lifespan run)."""
    store = open_store(url)
    try:
        with TestClient(create_app(store, settings)) as client:
            yield Server(store, client)
    finally:
        store.close()


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    """A server on each backend in turn."""
    with running(database_url) as started:
        yield started


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[Server]:
    """A server on SQLite."""
    with running(sqlite_url) as started:
        yield started
