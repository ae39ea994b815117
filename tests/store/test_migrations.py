"""Migrations: an empty database is brought to the head; a database at the previous revision,
with a table in it, is upgraded and its table still loads; the head downgrades to nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from referee.core import Action
from referee.store import open_store
from referee.store.engine import make_engine
from referee.store.migrate import HEAD, REVISIONS, current_revision, migrate

TABLES = {"referee_tables", "referee_actions", "referee_events", "referee_seats"}


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"referee_alembic_version"}
    finally:
        engine.dispose()


def test_head_is_alembics_head() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", "referee.store:migrations")
    script = ScriptDirectory.from_config(config)
    assert script.get_current_head() == HEAD
    assert [r.revision for r in reversed(list(script.walk_revisions()))] == list(REVISIONS)


def test_an_empty_database_is_migrated_on_first_use(url: str) -> None:
    engine = make_engine(url)
    assert current_revision(engine) is None
    store = open_store(url)
    assert current_revision(engine) == HEAD
    assert _tables(url) == TABLES | {"referee_snapshots"}
    open_store(url)  # a second opening changes nothing
    assert current_revision(engine) == HEAD
    store.close()
    engine.dispose()


@pytest.mark.parametrize("earlier", REVISIONS[:-1])
def test_an_earlier_revision_is_upgraded_with_its_tables(url: str, earlier: str) -> None:
    store = open_store(url, snapshot_every=3)
    created = store.create_table("kernel_toy", {}, name="old")
    table = created.table
    for _ in range(4):
        table = store.act(
            created.id,
            Action("scarface", "note", {}),
            seat="scarface",
            expect_version=table.version,
        )
    store.close()
    engine = make_engine(url)
    migrate(engine, earlier, down=True)
    assert current_revision(engine) == earlier
    with engine.connect() as conn:
        columns = {c["name"] for c in inspect(conn).get_columns("referee_tables")}
    assert "dice_seeds" not in columns  # the head's own column is gone
    assert ("referee_snapshots" in _tables(url)) == (earlier >= "0002")
    upgraded = open_store(url)  # upgrades on first use
    assert current_revision(engine) == HEAD
    assert upgraded.load(created.id) == table
    again = upgraded.act(
        created.id, Action("scarface", "note", {}), seat="scarface", expect_version=table.version
    )
    assert open_store(url).load(created.id) == again
    assert upgraded.seat_for_token(created.id, created.tokens["scarface"]) == "scarface"
    engine.dispose()


def test_the_head_downgrades_to_an_empty_database(url: str) -> None:
    store = open_store(url)
    store.create_table("kernel_toy", {}, name="t")
    store.close()
    engine = make_engine(url)
    migrate(engine, "base", down=True)
    assert current_revision(engine) is None
    assert _tables(url) == set()
    engine.dispose()


def test_a_database_from_a_newer_referee_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    open_store(url).close()
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE referee_alembic_version SET version_num = '9999'"))
    engine.dispose()
    from referee.store import StoreError

    try:
        open_store(url)
    except StoreError as error:
        assert "revision '9999'" in str(error) and "upgrade Referee" in str(error)
    else:
        raise AssertionError("a newer database was opened")
