"""How many live sockets each seat of a table and each address hold open in this process, and
the caps on them (``Settings.sockets_per_seat``, ``sockets_per_address``; docs/deploy.md)."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["SocketCounts"]

_Key = TypeVar("_Key")


class SocketCounts:
    """The live sockets of one process, counted per seat of a table and per address."""

    def __init__(self) -> None:
        self._per_seat: dict[tuple[str, str], int] = {}
        self._per_address: dict[str, int] = {}

    def admit(self, table_id: str, seat: str, address: str, per_seat: int, per_address: int) -> str:
        """Count a socket of ``seat`` at ``table_id`` from ``address`` in, unless one of them
        already holds as many as it may (then the reason, and nothing counted). Each socket
        admitted is counted out by :meth:`leave`, whatever becomes of it."""
        if self._per_seat.get((table_id, seat), 0) >= per_seat:
            return f"this seat already has {per_seat} live sockets open here: close one"
        if self._per_address.get(address, 0) >= per_address:
            return f"this address already has {per_address} live sockets open here"
        self._per_seat[(table_id, seat)] = self._per_seat.get((table_id, seat), 0) + 1
        self._per_address[address] = self._per_address.get(address, 0) + 1
        return ""

    def leave(self, table_id: str, seat: str, address: str) -> None:
        """Count out a socket :meth:`admit` counted in."""
        _count_out(self._per_seat, (table_id, seat))
        _count_out(self._per_address, address)

    @property
    def total(self) -> int:
        """How many live sockets are open in this process."""
        return sum(self._per_seat.values())


def _count_out(counts: dict[_Key, int], key: _Key) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
