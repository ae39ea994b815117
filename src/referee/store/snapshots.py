"""Snapshots: the folded state and clock of a table, every N events, so a load folds only the
events after the latest one.

A snapshot is a ``pickle`` of the state and clock at its version, with the events and actions
logged since the snapshot before it (a *segment*): a load reads the segments one after another
instead of every event's row, and folds only the events after the last one. Pickle runs code
when read, so it is only ever
read from the store's own database, which only the store writes, and never from anything a user
hands in: an imported record is re-decided from its actions, and its snapshots are made here.
A snapshot is a cache, never the truth: it carries the :func:`fingerprint` of the code that
folded it (the source of ``referee.core``, ``referee.dice`` and the game's package), and a
snapshot of other code — a Referee upgraded since — is passed over and the events folded from
the start instead.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from referee.core.clock import Clock
from referee.core.events import Event
from referee.core.procedures import Procedure
from referee.core.table import ActionRecord

__all__ = ["SNAPSHOT_EVERY", "Snapshot", "decode", "encode", "fingerprint"]

SNAPSHOT_EVERY = 1000
"""Events between snapshots, by default."""


@dataclass(frozen=True)
class Snapshot:
    """A table folded up to a version: its state and clock, and the segment of the log since
    the snapshot before (``since``: that snapshot's event and action counts)."""

    state: Any
    clock: Clock
    since: tuple[int, int]
    events: tuple[Event, ...]
    actions: tuple[ActionRecord, ...]


def encode(
    state: Any,
    clock: Clock,
    since: tuple[int, int] = (0, 0),
    events: Sequence[Event] = (),
    actions: Sequence[ActionRecord] = (),
) -> bytes:
    """The snapshot of ``state`` and ``clock``, with the log's segment since ``since``."""
    snapshot = Snapshot(state, clock, since, tuple(events), tuple(actions))
    return pickle.dumps(snapshot, protocol=pickle.HIGHEST_PROTOCOL)


def decode(blob: bytes) -> Snapshot | None:
    """The snapshot the store wrote; ``None`` if it cannot be read (it is then passed over, and
    the events' rows read and folded instead)."""
    collecting = gc.isenabled()
    gc.disable()  # thousands of new objects: the collector would walk them again and again
    try:
        snapshot = pickle.loads(blob)
    except Exception:
        return None
    finally:
        if collecting:
            gc.enable()
    return snapshot if isinstance(snapshot, Snapshot) else None


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
