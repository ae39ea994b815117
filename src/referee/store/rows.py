"""A table's actions and events as database rows: read back in order (every number there), and
appended in the transaction an action is stored in (docs/store.md).

An append is a compare-and-set of the table's row and the new rows, in one statement batch:
straight through the SQLite driver, or on PostgreSQL in one round trip with the NOTIFY and the
COMMIT. Another writer between the read and the write is a
:class:`Conflict`, which the store reports as a stale table.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection, insert, select

from referee.core.events import EVERYONE, REFEREE_ONLY, Audience, Event, Secret
from referee.core.recording import ActionRecord
from referee.core.table import Table
from referee.core.values import to_json
from referee.store.engine import is_postgresql
from referee.store.errors import StoreError
from referee.store.schema import ACTIONS, EVENTS, dumps

__all__ = [
    "NOTIFY_CHANNEL",
    "Conflict",
    "TableRow",
    "append",
    "append_committed",
    "append_sqlite",
    "audience_of",
    "read_actions",
    "read_events",
    "read_table_row",
    "rows_of",
    "secrets_of",
]


class TableRow(NamedTuple):
    """A table's row (``referee_tables``), as the store reads it before a load or a write
    (every column but ``created``, which a listing reads)."""

    id: str
    system: str
    name: str
    setup: str
    seats: str
    start: str
    version: int
    actions: int
    revision: int
    last_undo: int
    token_salt: bytes
    dice_seeds: str | None


_ROW_SQL = f"SELECT {', '.join(TableRow._fields)} FROM referee_tables WHERE id = ?"
_PG_ROW = _ROW_SQL.replace("?", "%s")
_PG_ROW_LOCKED = _PG_ROW + " FOR UPDATE"


def read_table_row(conn: Connection, table_id: str, *, lock: bool = False) -> TableRow | None:
    """The row of ``table_id`` (``None``: no such table), in the transaction ``conn`` is in;
    ``lock``: locked until it ends (PostgreSQL's ``FOR UPDATE``; a SQLite writer holds the
    database's write lock already). Straight through the driver, as an append writes: read
    before every action, through SQLAlchemy's statement building it was a
    third of the store's CPU per action on SQLite and a quarter on PostgreSQL (issue 29)."""
    raw = conn.connection.dbapi_connection
    assert raw is not None
    sql = (_PG_ROW_LOCKED if lock else _PG_ROW) if is_postgresql(conn) else _ROW_SQL
    cursor = raw.cursor()
    try:
        cursor.execute(sql, (table_id,))
        values = cursor.fetchone()
    finally:
        cursor.close()
    return None if values is None else TableRow(*values)


NOTIFY_CHANNEL = "referee_tables"
"""The PostgreSQL channel each append and undo notifies, with ``'<table id>:<version>:<origin>'``
(the :attr:`~referee.store.Store.origin` of the store that wrote it)."""


class Conflict(Exception):
    """Another writer changed the table's row between our read and our write."""


def read_events(
    conn: Connection, table_id: str, *, after: int, upto: int | None = None
) -> list[Event]:
    """The events numbered after ``after`` (up to ``upto``), each one there."""
    bound = EVENTS.c.number > after
    if upto is not None:
        bound = bound & (EVENTS.c.number <= upto)
    rows = conn.execute(
        select(
            EVENTS.c.number,
            EVENTS.c.cause,
            EVENTS.c.at,
            EVENTS.c.kind,
            EVENTS.c.audience,
            EVENTS.c.payload,
            EVENTS.c.secrets,
        )
        .where(EVENTS.c.table_id == table_id, bound)
        .order_by(EVENTS.c.number)
    ).all()
    events = []
    expected = after + 1
    for number, cause, at, kind, audience, payload, secret_parts in rows:
        if number != expected:
            raise StoreError(f"table {table_id!r} is missing event {expected}")
        expected += 1
        events.append(
            Event(
                kind,
                json.loads(payload),
                audience=audience_of(audience),
                secrets=secrets_of(secret_parts),
                number=number,
                at=at,
                cause=cause,
            )
        )
    return events


def read_actions(
    conn: Connection, table_id: str, *, after: int, upto: int | None = None
) -> list[ActionRecord]:
    """The action records numbered after ``after`` (up to ``upto``), each one there."""
    bound = ACTIONS.c.number > after
    if upto is not None:
        bound = bound & (ACTIONS.c.number <= upto)
    rows = conn.execute(
        select(
            ACTIONS.c.number,
            ACTIONS.c.seat,
            ACTIONS.c.actor,
            ACTIONS.c.kind,
            ACTIONS.c.params,
            ACTIONS.c.at,
            ACTIONS.c.asked_at,
            ACTIONS.c.dice,
            ACTIONS.c.first_event,
            ACTIONS.c.last_event,
            ACTIONS.c.audience,
        )
        .where(ACTIONS.c.table_id == table_id, bound)
        .order_by(ACTIONS.c.number)
    ).all()
    records = []
    expected = after + 1
    for number, seat, actor, kind, params, at, asked_at, dice, first, last, audience in rows:
        if number != expected:
            raise StoreError(f"table {table_id!r} is missing action {expected}")
        expected += 1
        records.append(
            ActionRecord(
                number=number,
                seat=seat,
                actor=actor,
                kind=kind,
                params=json.loads(params),
                at=at,
                asked_at=asked_at,
                dice=() if dice == "[]" else tuple((int(s), int(f)) for s, f in json.loads(dice)),
                events=(first, last),
                audience=audience_of(audience),
            )
        )
    return records


def rows_of(
    table_id: str, actions: Iterable[ActionRecord], events: Iterable[Event]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of ``actions`` and ``events``."""
    action_rows = [
        {
            "table_id": table_id,
            "number": a.number,
            "seat": a.seat,
            "actor": a.actor,
            "kind": a.kind,
            "params": dumps(to_json(a.params)),
            "at": a.at,
            "asked_at": a.asked_at,
            "dice": dumps([list(d) for d in a.dice]),
            "first_event": a.events[0],
            "last_event": a.events[1],
            "audience": dumps(a.audience.to_json()),
        }
        for a in actions
    ]
    event_rows = [
        {
            "table_id": table_id,
            "number": e.number,
            "cause": e.cause,
            "at": e.at,
            "kind": e.kind,
            "audience": dumps(e.audience.to_json()),
            "payload": dumps(to_json(e.payload)),
            "secrets": dumps([s.to_json() for s in e.secrets]),
        }
        for e in events
    ]
    return action_rows, event_rows


def append(
    conn: Connection,
    table_id: str,
    actions: Iterable[ActionRecord],
    events: Iterable[Event],
) -> None:
    """Insert the rows of ``actions`` and ``events`` (a new table's, its row written already)."""
    action_rows, event_rows = rows_of(table_id, actions, events)
    if action_rows:
        conn.execute(insert(ACTIONS), action_rows)
    if event_rows:
        conn.execute(insert(EVENTS), event_rows)


def append_sqlite(
    conn: Connection,
    row: TableRow,
    after: Table[Any],
    actions: Sequence[ActionRecord],
    events: Sequence[Event],
) -> int:
    """SQLite: the compare-and-set and the rows, straight through the driver (the hot path
    of every append), in the transaction ``conn`` is in. The new revision."""
    action_rows, event_rows = rows_of(row.id, actions, events)
    revision = int(row.revision) + 1
    raw = conn.connection.dbapi_connection
    assert raw is not None
    cursor = raw.cursor()
    try:
        cursor.execute(
            "UPDATE referee_tables SET version = ?, actions = ?, revision = ? "
            "WHERE id = ? AND revision = ?",
            (after.version, len(after.actions), revision, row.id, row.revision),
        )
        if cursor.rowcount != 1:
            raise Conflict(row.id)
        for table, rows in (("referee_actions", action_rows), ("referee_events", event_rows)):
            if rows:
                columns = ", ".join(rows[0])
                marks = ", ".join(f":{c}" for c in rows[0])
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
    except sqlite3.IntegrityError:
        raise Conflict(row.id) from None
    finally:
        cursor.close()
    return revision


def append_committed(
    conn: Connection,
    row: TableRow,
    after: Table[Any],
    actions: Sequence[ActionRecord],
    events: Sequence[Event],
    *,
    origin: str,
) -> int:
    """PostgreSQL: the compare-and-set, the rows, the NOTIFY (``'<table id>:<version>:
    <origin>'``, the store's name) and the ``COMMIT`` that ends the transaction ``conn`` is in,
    as one string of statements sent in one round trip (its values bound by psycopg on the
    client, its ``ClientCursor``: PostgreSQL takes several statements in one message only
    without parameters). The new revision.

    PostgreSQL runs the statements in turn and stops at the first error, the ``COMMIT`` then
    unrun and the transaction left for the caller to roll back; so the compare-and-set divides
    by the rows it changed, and one that changed none (another writer between the read and
    this write) is an error that stores nothing, a :class:`Conflict`.
    """
    import psycopg

    action_rows, event_rows = rows_of(row.id, actions, events)
    revision = int(row.revision) + 1
    statements = [
        "WITH changed AS (UPDATE referee_tables SET version = %s, actions = %s, revision = %s "
        "WHERE id = %s AND revision = %s RETURNING id) SELECT 1 / count(*) FROM changed"
    ]
    values: list[Any] = [after.version, len(after.actions), revision, row.id, row.revision]
    for table, rows in (("referee_actions", action_rows), ("referee_events", event_rows)):
        if rows:
            columns = list(rows[0])
            marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
            statements.append(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                + ", ".join([marks] * len(rows))
            )
            values.extend(r[c] for r in rows for c in columns)
    statements.append("SELECT pg_notify(%s, %s)")
    values += [NOTIFY_CHANNEL, f"{row.id}:{after.version}:{origin}"]
    statements.append("COMMIT")
    raw = conn.connection.dbapi_connection
    assert isinstance(raw, psycopg.Connection)
    try:
        with psycopg.ClientCursor(raw) as cursor:
            cursor.execute("; ".join(statements), values)
    except (psycopg.errors.UniqueViolation, psycopg.errors.DivisionByZero):
        raise Conflict(row.id) from None
    return revision


_AUDIENCES: dict[str, Audience] = {'"everyone"': EVERYONE, "[]": REFEREE_ONLY}


def audience_of(text_value: str) -> Audience:
    """An audience as stored (JSON text)."""
    known = _AUDIENCES.get(text_value)
    if known is not None:
        return known
    return Audience.from_json(json.loads(text_value))


def secrets_of(text_value: str) -> tuple[Secret, ...]:
    """An event's secret parts as stored (JSON text)."""
    if text_value == "[]":
        return ()
    return tuple(
        Secret(s["name"], s["value"], Audience.from_json(s["audience"]))
        for s in json.loads(text_value)
    )
