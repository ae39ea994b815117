"""Where a table lives: a record file (its secret dice seeds beside it) or the database.

A TABLE argument that is an existing file is a record file; anything else is a table id in the
database (``REFEREE_DATABASE_URL`` or ``--database``, by default a SQLite file in the user's
data folder).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from referee.cli.output import fail, read_table

if TYPE_CHECKING:
    from referee.core.fairness import DiceSeeds
    from referee.core.table import Observation, Table
    from referee.store import Store

__all__ = [
    "DATABASE_ENV",
    "TableArgument",
    "database_of",
    "observed",
    "open_database",
    "read_seeds",
    "seeds_path",
    "write_seeds",
]

DATABASE_ENV = "REFEREE_DATABASE_URL"
"""The database ``referee table`` uses (``referee.store.DATABASE_ENV``, named here so that
``--help`` does not import the database libraries)."""


def open_database(url: str | None) -> Store:
    """The store at ``url`` (or ``REFEREE_DATABASE_URL``, or the default SQLite file); one line
    and exit 2 if it cannot be used."""
    from referee.store import StoreError, open_store

    try:
        return open_store(url)
    except StoreError as error:
        fail(str(error))


class TableArgument:
    """A TABLE argument: a record file, or a table in the database."""

    def __init__(self, target: str, database: str | None) -> None:
        self.text = target
        self.path = Path(target) if Path(target).is_file() else None
        self._database = database
        self._store: Store | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_database(self._database)
        return self._store

    def read(self) -> Table[Any]:
        """The table (a file verified, or the database's)."""
        from referee.core.errors import RefereeError

        if self.path is not None:
            return read_table(self.path)
        try:
            return self.store.load(self.text)
        except RefereeError as error:
            fail(str(error))


def database_of(ctx: typer.Context) -> str | None:
    """The ``--database`` given to ``referee table`` (``None``: the default)."""
    obj = ctx.obj
    found = obj.get("database") if isinstance(obj, dict) else None
    return found if isinstance(found, str) else None


def observed(
    ctx: typer.Context, target: str, seat: str, since: int | None = None
) -> tuple[Table[Any], Observation]:
    """The table ``target`` names, and ``seat``'s observation of it (since ``since``; by
    default since the table's version: the state and choices, no events) — or one line and
    exit 2 for a seat the table does not have."""
    from referee.core.errors import RefereeError
    from referee.core.table import observe

    table = TableArgument(target, database_of(ctx)).read()
    try:
        return table, observe(table, seat, since=table.version if since is None else since)
    except RefereeError as error:
        fail(str(error))


def seeds_path(path: Path) -> Path:
    """Where a record file's secret dice seeds are kept: beside it, ``FILE.seeds``."""
    return path.with_name(path.name + ".seeds")


def write_seeds(path: Path, seeds: DiceSeeds) -> None:
    """Keep a record file's dice seeds beside it, readable by its owner alone."""
    target = seeds_path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(seeds.to_json(), handle)
            handle.flush()
            os.fsync(handle.fileno())
        temporary.replace(target)
    except OSError as error:
        fail(f"cannot write {target}: {error.strerror or error}")


def read_seeds(path: Path) -> DiceSeeds:
    """A record file's dice seeds; one line and exit 2 if they are missing or not seeds."""
    from referee.core.errors import RefereeError
    from referee.core.fairness import DiceSeeds
    from referee.core.loader import load_file

    try:
        return DiceSeeds.from_json(load_file(seeds_path(path)))
    except RefereeError as error:
        fail(
            f"{path}: the table's dice seeds ({seeds_path(path)}) cannot be read: {error}; "
            "roll with --seed N to play on without them (those dice cannot be verified)"
        )
