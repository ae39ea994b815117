"""`make run`'s demo tables: created once, one per game, and the same links every run."""

from __future__ import annotations

import stat
from pathlib import Path

from referee.cli.demo_tables import DEMOS, demo_tables
from referee.store import open_store


def test_demo_tables_are_created_once_with_working_tokens(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    kept = tmp_path / "demo-tables.json"
    store = open_store(url)
    try:
        first = demo_tables(store, url, kept)
        assert [t["system"] for t in first] == list(DEMOS)
        assert len(store.tables()) == 5
        again = demo_tables(store, url, kept)
        assert again == first
        assert len(store.tables()) == 5
        for table in first:
            for seat, token in table["seats"].items():
                assert store.seat_for_token(table["id"], token) == seat
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    finally:
        store.close()
    # another database: its own tables, the first database's links kept
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    store = open_store(other)
    try:
        fresh = demo_tables(store, other, kept)
        assert {t["id"] for t in fresh}.isdisjoint({t["id"] for t in first})
    finally:
        store.close()
    store = open_store(url)
    try:
        assert demo_tables(store, url, kept) == first
    finally:
        store.close()
