"""A stored table's seats and their tokens: which seat a token opens, which seats have a live
token, a token minted or revoked (docs/store.md, "Seats and tokens").

The tokens themselves are made, hashed and compared by :mod:`referee.store.tokens`; here they are
read from and written to the seats' rows, in the connection or transaction the store gives.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from referee.core.errors import SeatError
from referee.core.seats import SeatId
from referee.store.rows import TableRow
from referee.store.schema import SEATS, TABLES
from referee.store.tokens import hash_token, matching_seat

__all__ = [
    "NO_TABLE_SALT",
    "live_tokens",
    "revoke_token",
    "seat_exists",
    "seat_for_token",
    "store_token",
]

NO_TABLE_SALT = bytes(16)
"""The salt an unknown table's token is hashed with: the work is the same as for a real table."""


def seat_for_token(conn: Connection, table_id: str, token: str) -> SeatId | None:
    """The seat ``token`` opens at the table, or ``None`` — for a wrong or revoked token and for
    a table that does not exist alike (so a guess learns nothing)."""
    salt = conn.execute(select(TABLES.c.token_salt).where(TABLES.c.id == table_id)).scalar()
    if salt is None:
        # the same hash as for a table that exists, so the time taken tells nothing
        matching_seat(token, NO_TABLE_SALT, {})
        return None
    rows = conn.execute(
        select(SEATS.c.seat, SEATS.c.token_hash).where(SEATS.c.table_id == table_id)
    ).all()
    return matching_seat(token, bytes(salt), {r.seat: _bytes(r.token_hash) for r in rows})


def live_tokens(conn: Connection, table_id: str) -> dict[SeatId, bool]:
    """Each seat with a row, and whether it has a live token."""
    rows = conn.execute(
        select(SEATS.c.seat, SEATS.c.token_hash).where(SEATS.c.table_id == table_id)
    ).all()
    return {r.seat: r.token_hash is not None for r in rows}


def store_token(conn: Connection, row: TableRow, seat_id: SeatId, token: str) -> None:
    """Store ``token`` hashed as ``seat_id``'s at the table of ``row`` (the old one stops
    working); :class:`SeatError` if the table has no such seat."""
    seat_exists(row, seat_id)
    hashed = hash_token(token, bytes(row.token_salt))
    values = {"token_hash": hashed, "minted": datetime.now(UTC)}
    changed = conn.execute(
        update(SEATS).where(SEATS.c.table_id == row.id, SEATS.c.seat == seat_id).values(**values)
    ).rowcount
    if not changed:
        conn.execute(insert(SEATS).values(table_id=row.id, seat=seat_id, **values))


def revoke_token(conn: Connection, row: TableRow, seat_id: SeatId) -> None:
    """Make ``seat_id``'s token at the table of ``row`` open nothing."""
    seat_exists(row, seat_id)
    conn.execute(
        update(SEATS)
        .where(SEATS.c.table_id == row.id, SEATS.c.seat == seat_id)
        .values(token_hash=None)
    )


def seat_exists(row: TableRow, seat_id: SeatId) -> None:
    """Nothing if the table of ``row`` has the seat ``seat_id``; else :class:`SeatError`."""
    seats = [s["id"] for s in json.loads(row.seats)]
    if seat_id not in seats:
        raise SeatError(f"this table has no seat {seat_id!r} (seats: {', '.join(seats)})")


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)
