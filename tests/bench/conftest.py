"""The benchmark's own pieces run on SQLite and on PostgreSQL, as the benchmark does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import BACKENDS, database, postgres_server


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    """The PostgreSQL server the tests make their databases on (fails if out of reach)."""
    yield from postgres_server()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, on each backend in turn."""
    yield from database(request.param, tmp_path, request)
