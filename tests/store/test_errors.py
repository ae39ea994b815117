"""A corrupt file, a wrong URL, a database that went away: one clear StoreError line, and
nothing written. A database that restarted: no error at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from referee.core import Action
from referee.store import StoreError, open_store
from tests.databases import drop_postgres, fresh_postgres

GARBAGE = b"this is not a database, it is a shopping list\n" * 200


def _one_line(error: pytest.ExceptionInfo[StoreError]) -> str:
    text = str(error.value)
    assert text and "\n" not in text and "Traceback" not in text
    return text


def test_a_corrupt_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    path.write_bytes(GARBAGE)
    with pytest.raises(StoreError) as error:
        open_store(f"sqlite:///{path}")
    assert "is not a Referee database, or it is corrupt" in _one_line(error)
    assert path.read_bytes() == GARBAGE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables.sqlite3"]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("not a url", "is not a URL"),
        ("mysql://root@127.0.0.1/referee", "SQLite or PostgreSQL only"),
        ("sqlite:///{tmp}/no/such/folder/t.sqlite3", "no folder"),
        ("sqlite://", "in-memory"),
        ("postgresql://postgres@127.0.0.1:1/test", "cannot reach the database"),
        ("postgresql://postgres@127.0.0.1:5432/referee_no_such_database", "does not exist"),
    ],
)
def test_a_wrong_url_is_one_line(url: str, words: str, tmp_path: Path) -> None:
    with pytest.raises(StoreError) as error:
        open_store(url.format(tmp=tmp_path))
    assert words in _one_line(error)
    assert list(tmp_path.iterdir()) == []


def test_a_postgresql_database_that_went_away(postgres_admin: str) -> None:
    url, name = fresh_postgres(postgres_admin)
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    drop_postgres(postgres_admin, name)
    for call in (
        lambda: store.load(created.id),
        lambda: store.act(created.id, Action("scarface", "note", {}), seat=None, expect_version=1),
        lambda: store.tables(),
    ):
        with pytest.raises(StoreError) as error:
            call()
        assert "database" in _one_line(error)


def test_a_postgresql_restart_fails_no_later_call(postgres_admin: str) -> None:
    """PostgreSQL ends every session of the store (what a restart of the database does to
    them): the next calls get fresh connections, not the pool's dead ones."""
    url, name = fresh_postgres(postgres_admin)
    store = open_store(url)
    try:
        created = store.create_table("kernel_toy", {}, name="t")
        admin = create_engine(postgres_admin, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            # ended in the select list: only the rows WHERE kept (the store's own sessions);
            # each waited for (up to 5 s) until it is gone, as a restart's are before the
            # database is back
            ended = conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            ).scalars()
            assert any(ended)
        admin.dispose()
        assert store.load(created.id).version == created.table.version
        store.act(created.id, Action("scarface", "note", {}), seat=None, expect_version=None)
    finally:
        store.close()
        drop_postgres(postgres_admin, name)


def test_a_sqlite_file_overwritten_mid_session(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    store = open_store(f"sqlite:///{path}")
    created = store.create_table("kernel_toy", {}, name="t")
    store.close()
    for extra in tmp_path.glob("tables.sqlite3-*"):
        extra.unlink()
    with path.open("r+b") as handle:
        handle.write(GARBAGE)
    with pytest.raises(StoreError) as error:
        store.act(created.id, Action("scarface", "note", {}), seat=None, expect_version=1)
    assert "corrupt" in _one_line(error)
