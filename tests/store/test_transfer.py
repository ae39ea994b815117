"""A table moves between databases as its record: SQLite → PostgreSQL → SQLite, identical."""

from __future__ import annotations

import json

from referee.core import Action
from referee.store import open_store


def test_a_table_exported_from_sqlite_imported_into_postgresql_and_back_is_identical(
    sqlite_url: str, postgres_url: str
) -> None:
    lite = open_store(sqlite_url)
    created = lite.create_table(
        "kernel_toy", {"alarm": 60}, name="Winter war", players={"alice": ["scarface"]}
    )
    table = created.table
    steps = [
        (Action("scarface", "perceive", {"target": "krockin"}), "alice", None),
        (Action("scarface", "write_slip", {"maneuver": "feint"}), "alice", None),
        (Action("krockin", "write_slip", {"maneuver": "hold"}), "krockin", None),
        (Action("scarface", "attack", {"target": "krockin"}), "alice", 3 * 3600),
        (Action("krockin", "note", {"text": "ünïcode ✓"}), "krockin", None),
    ]
    for action, seat, at in steps:
        table = lite.act(created.id, action, seat=seat, expect_version=table.version, at=at)
    record = lite.export(created.id)
    assert any(e["secrets"] for e in record["events"])  # secrets travel whole

    pg = open_store(postgres_url)
    moved = pg.import_record(json.loads(json.dumps(record)), name="Winter war")
    assert pg.export(moved.id) == record
    assert pg.load(moved.id) == table
    assert moved.tokens.keys() == created.tokens.keys()
    assert pg.seat_for_token(moved.id, created.tokens["alice"]) is None  # new tokens

    back = lite.import_record(pg.export(moved.id), name="back")
    assert lite.export(back.id) == record
    assert json.dumps(lite.export(back.id)) == json.dumps(record)  # key order too
    assert open_store(sqlite_url).load(back.id) == table
