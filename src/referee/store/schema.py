"""The store's tables, as SQLAlchemy Core (the head revision of the migrations).

- ``referee_tables``: one row per game table: its id, game, name, setup, seats, start of play,
  when it was created, its ``version`` (the number of events), ``actions`` (the number of
  actions), ``revision`` (bumped by every write: the compare-and-set of optimistic concurrency),
  ``last_undo`` (the revision of the last undo: a reader's cache is still a prefix of the log if
  it is newer), ``token_salt`` (the salt of its seats' token hashes) and ``dice_seeds`` (its
  secret dice seeds, ``referee.core.fairness``; never exported).
- ``referee_actions``: each action taken, keyed by (table, number).
- ``referee_events``: each event, keyed by (table, number); ``cause`` is the action's number.
  Secrets are stored whole: only ``observe`` takes them out.
- ``referee_snapshots``: the folded state and clock every N events (a cache, see
  :mod:`referee.store.snapshots`), keyed by (table, version).
- ``referee_seats``: each seat's join token, as a scrypt hash only.

Every JSON column is text written by :func:`dumps`, so it reads back the same on SQLite and
PostgreSQL, key order included.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = ["ACTIONS", "EVENTS", "METADATA", "SEATS", "SNAPSHOTS", "TABLES", "dumps"]

METADATA = MetaData()

TABLES = Table(
    "referee_tables",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("system", String(64), nullable=False),
    Column("name", Text, nullable=False),
    Column("setup", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("start", String(8), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("version", Integer, nullable=False),
    Column("actions", Integer, nullable=False),
    Column("revision", Integer, nullable=False),
    Column("last_undo", Integer, nullable=False),
    Column("token_salt", LargeBinary, nullable=False),
    Column("dice_seeds", Text),
)


def _table_id() -> Column[str]:
    return Column(
        "table_id",
        String(32),
        ForeignKey("referee_tables.id", ondelete="CASCADE"),
        primary_key=True,
    )


ACTIONS = Table(
    "referee_actions",
    METADATA,
    _table_id(),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", String(64)),
    Column("actor", String(64), nullable=False),
    Column("kind", String(64), nullable=False),
    Column("params", Text, nullable=False),
    Column("at", Integer, nullable=False),
    Column("asked_at", Integer),
    Column("dice", Text, nullable=False),
    Column("first_event", Integer, nullable=False),
    Column("last_event", Integer, nullable=False),
    Column("audience", Text, nullable=False),
)

EVENTS = Table(
    "referee_events",
    METADATA,
    _table_id(),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("cause", Integer, nullable=False),
    Column("at", Integer, nullable=False),
    Column("kind", String(64), nullable=False),
    Column("audience", Text, nullable=False),
    Column("payload", Text, nullable=False),
    Column("secrets", Text, nullable=False),
)

SNAPSHOTS = Table(
    "referee_snapshots",
    METADATA,
    _table_id(),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("actions", Integer, nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("state", LargeBinary, nullable=False),
)

SEATS = Table(
    "referee_seats",
    METADATA,
    _table_id(),
    Column("seat", String(64), primary_key=True),
    Column("token_hash", LargeBinary),
    Column("minted", DateTime(timezone=True)),
)


def dumps(value: Any) -> str:
    """JSON text as the store writes it: compact, UTF-8, keys in their given order.

    >>> dumps({"b": 1, "a": [1, "é"]})
    '{"b":1,"a":[1,"é"]}'
    """
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
