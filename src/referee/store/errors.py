"""Errors of the store: a table that is not there, a database that cannot be used.

>>> str(NoSuchTable("wq4k7m2x9p"))
"no table 'wq4k7m2x9p' in this database"
"""

from __future__ import annotations

from referee.core.errors import RefereeError

__all__ = ["NoSuchTable", "StoreError"]


class NoSuchTable(RefereeError):
    """A table id the database does not hold (the server answers 404)."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(f"no table {table_id!r} in this database")


class StoreError(RefereeError):
    """The database cannot be used: a wrong URL, a corrupt file, a server that went away, a
    database written by a newer Referee. Nothing was written; the message is one line."""
