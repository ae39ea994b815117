"""What the server needs of the store (``referee.store``), as a protocol.

The server is written against this protocol so that its types say exactly which of the store's
operations it uses; :class:`referee.store.Store` is the one implementation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from referee.core.procedures import Action
from referee.core.registry import System
from referee.core.table import Table

__all__ = ["CreatedTableLike", "TableInfoLike", "TableStore"]


class CreatedTableLike(Protocol):
    """A table just created: its id, the table, and each seat's join token."""

    @property
    def id(self) -> str: ...

    @property
    def table(self) -> Table[Any]: ...

    @property
    def tokens(self) -> Mapping[str, str]: ...


class TableInfoLike(Protocol):
    """A row of the list of tables."""

    @property
    def id(self) -> str: ...

    @property
    def system(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> int: ...


class TableStore(Protocol):
    """The store's operations the server calls (see ``referee.store``)."""

    origin: str
    """The store's name in the notifications it sends (PostgreSQL)."""

    def newest(self, table_id: str, table: Table[Any]) -> Table[Any]: ...

    def create_table(
        self,
        system: System,
        setup: Mapping[str, Any],
        *,
        name: str,
        players: Mapping[str, Sequence[str]] | None = None,
        start: str = "00:00",
    ) -> Any: ...

    def tables(self) -> Sequence[Any]: ...

    def name(self, table_id: str) -> str: ...

    def load(self, table_id: str) -> Table[Any]: ...

    def act(
        self,
        table_id: str,
        action: Action,
        *,
        seat: str,
        expect_version: int | None,
        at: int | None = None,
    ) -> Table[Any]: ...

    def undo(
        self, table_id: str, *, seat: str, expect_version: int | None = None
    ) -> Table[Any]: ...

    def export(self, table_id: str) -> dict[str, Any]: ...

    def seat_for_token(self, table_id: str, token: str) -> str | None: ...

    def mint(self, table_id: str, seat_id: str) -> str: ...

    def revoke(self, table_id: str, seat_id: str) -> None: ...

    def version(self, table_id: str) -> int: ...
