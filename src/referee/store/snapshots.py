"""Snapshots: the folded state, clock and dice ledger of a table every N events, so a load folds
only the events after the latest one and reads nothing older.

A snapshot is a ``pickle`` of what the table had folded at its version (its state, clock and
fair-dice ledger); the log before it is not in it, nor read by a load: the table's older events
and actions are fetched from their rows only if someone reads them (``Log.paged``). Pickle runs
code when read, so it is only ever read from the store's own database, which only the store
writes, and never from anything a user hands in: an imported record is re-decided from its
actions, and its snapshot is made here. A snapshot is a cache, never the truth: it carries the
:func:`fingerprint` of the code that folded it (the source of ``referee.core``, ``referee.dice``
and the game's package), and a snapshot of other code — a Referee upgraded since — is passed over
and the events folded from the start instead.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, insert, select

from referee.core.clock import Clock
from referee.core.fairness import DiceLedger
from referee.core.procedures import Procedure
from referee.core.table import Table
from referee.store.schema import SNAPSHOTS

__all__ = [
    "SNAPSHOT_EVERY",
    "Snapshot",
    "decode",
    "encode",
    "fingerprint",
    "latest_snapshot",
    "write_snapshot",
]

SNAPSHOT_EVERY = 1000
"""Events between snapshots, by default."""


@dataclass(frozen=True)
class Snapshot:
    """What a table had folded at a version: its state, clock and dice ledger."""

    state: Any
    clock: Clock
    ledger: DiceLedger


def encode(state: Any, clock: Clock, ledger: DiceLedger) -> bytes:
    """The snapshot of ``state``, ``clock`` and ``ledger``."""
    return pickle.dumps(Snapshot(state, clock, ledger), protocol=pickle.HIGHEST_PROTOCOL)


def decode(blob: bytes) -> Snapshot | None:
    """The snapshot the store wrote; ``None`` if it cannot be read (it is then passed over, and
    the events' rows read and folded instead)."""
    collecting = gc.isenabled()
    gc.disable()  # a large state is many new objects: the collector would walk them repeatedly
    try:
        snapshot = pickle.loads(blob)
    except Exception:
        return None
    finally:
        if collecting:
            gc.enable()
    if not isinstance(snapshot, Snapshot):
        return None
    # a snapshot pickled by older code has other fields (its fingerprint keeps it out anyway)
    return snapshot if isinstance(getattr(snapshot, "ledger", None), DiceLedger) else None


def fingerprint(procedure: Procedure[Any]) -> str:
    """A hash of the code a snapshot of ``procedure``'s state depends on."""
    module = type(procedure).__module__
    return _fingerprint(module.rpartition(".")[0] or module)


@cache
def _fingerprint(package: str) -> str:
    digest = hashlib.sha256(sys.version.encode())
    roots: list[Path] = []
    for name in ("referee.core", "referee.dice", package):
        loaded = sys.modules.get(name)
        paths = getattr(loaded, "__path__", None)
        if paths:
            roots += [Path(p) for p in paths]
        elif loaded is not None and getattr(loaded, "__file__", None):
            roots.append(Path(str(loaded.__file__)))
    for root in roots:
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for file in files:
            digest.update(str(file.relative_to(root.parent)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:32]


def write_snapshot(conn: Connection, table_id: str, table: Table[Any]) -> None:
    """Snapshot what ``table`` has folded: its state, clock and dice ledger."""
    conn.execute(
        insert(SNAPSHOTS).values(
            table_id=table_id,
            version=table.version,
            actions=len(table.actions),
            fingerprint=fingerprint(table.procedure),
            state=encode(table.state, table.clock, table.ledger),
        )
    )


def latest_snapshot(
    conn: Connection, table_id: str, procedure: Procedure[Any], events: int, actions: int
) -> tuple[Snapshot | None, tuple[int, int]]:
    """The latest snapshot of this code at or before (``events``, ``actions``) that can be
    read, and its (events, actions); ``(None, (0, 0))`` if there is none."""
    mark = fingerprint(procedure)
    query = (
        select(SNAPSHOTS.c.version, SNAPSHOTS.c.actions, SNAPSHOTS.c.state)
        .where(
            SNAPSHOTS.c.table_id == table_id,
            SNAPSHOTS.c.version <= events,
            SNAPSHOTS.c.actions <= actions,
            SNAPSHOTS.c.fingerprint == mark,
        )
        .order_by(SNAPSHOTS.c.version.desc())
    )
    # the latest first, alone (most loads read one); the older ones if it cannot be read
    for candidates in (query.limit(1), query.offset(1)):
        for version, count, blob in conn.execute(candidates):
            decoded = None if blob is None else decode(bytes(blob))
            if decoded is not None:
                return decoded, (int(version), int(count))
    return None, (0, 0)
