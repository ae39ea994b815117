"""Where the command line writes: one Rich console, one way to refuse bad input, and the table
record files.

These are the command line's helpers for a game's own commands too (``System.commands``): a
game's ``commands`` module may import this module and no other of ``referee.cli``.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from referee.core.table import Table

__all__ = ["BAD_INPUT", "console", "fail", "read_table", "version_on_disk", "write_table"]

#: Exit status for bad input: a malformed expression, a bad file, an illegal action.
BAD_INPUT = 2


@functools.cache
def console() -> Console:
    """The console for normal output."""
    from rich.console import Console

    return Console()


def fail(message: str, status: int = BAD_INPUT) -> NoReturn:
    """Print one line naming the problem on standard error and exit (status 2 by default)."""
    sys.stderr.write(f"referee: error: {message}\n")
    raise SystemExit(status)


def read_table(path: Path) -> Table[Any]:
    """The table in a record file, verified (one line and exit 2 for anything wrong)."""
    from referee.core.errors import RefereeError
    from referee.core.loader import load_file
    from referee.core.registry import system

    try:
        data = load_file(path)
        if not isinstance(data, dict):
            fail(f"{path}: a table record is a mapping of fields")
        name = data.get("system")
        if not isinstance(name, str):
            fail(f"{path}: system: a table record names its game")
        return system(name).load(data)
    except RefereeError as error:
        fail(f"{path}: {error}")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    import fcntl

    lock = path.with_name(path.name + ".lock")
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def version_on_disk(path: Path) -> int | None:
    """The version of the record file at ``path`` (``None`` if there is none, or no record)."""
    import json

    if not path.exists():
        return None
    try:
        with path.open("rb") as handle:
            data = json.load(handle)
        version = data.get("version") if isinstance(data, dict) else None
        return int(version) if isinstance(version, int) else None
    except (OSError, ValueError):
        return None


def write_table(path: Path, table: Table[Any], *, read_version: int | None) -> None:
    """Write ``table``'s record to ``path`` atomically, if the file is still at
    ``read_version`` (``None``: the file must not exist yet). A stale file: one line, exit 2."""
    import json
    import os
    from pathlib import Path

    from referee.core.errors import StaleTableError

    path = Path(path)
    text = json.dumps(table.to_record(), ensure_ascii=False, indent=1) + "\n"
    try:
        with _locked(path):
            current = version_on_disk(path)
            if read_version is None and path.exists():
                fail(f"{path} exists already (give another --out, or --force)")
            if read_version is not None and current != read_version:
                raise StaleTableError(read_version, -1 if current is None else current)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            with temporary.open("w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            temporary.replace(path)
            directory = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
    except StaleTableError as error:
        fail(f"{path}: {error}; nothing was written — look again with 'referee table show'")
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
