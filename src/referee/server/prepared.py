"""The messages of a change built in the worker thread of the route that made it (issue 29: one
hand-off to a worker thread an action, not two): what each socket held when its message was
built (:class:`Sent`), so that the hub's builder, in the event loop, hands a socket its
message only while the socket still holds the same (:class:`Prepared`); any other socket's
message the builder makes itself, as for a change from elsewhere (:mod:`referee.server.live`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.table import Table
from referee.server import patches
from referee.server.pushes import Message

if TYPE_CHECKING:
    from referee.server.live import Subscriber

__all__ = ["Prepared", "Sent"]


@dataclass(frozen=True, eq=False)
class Sent:
    """What a socket was last sent, read as one value (in a worker thread, while the event
    loop may be changing it): a message built from it is the socket's due only while the
    socket still holds the same (:meth:`holds`)."""

    first: bool
    epoch: int
    version: int
    tag: str | None
    base: dict[str, Any] | None
    marks: patches.Marks | None

    @classmethod
    def of(cls, sub: Subscriber) -> Sent:
        """What ``sub`` holds now."""
        return cls(sub.first, sub.epoch, sub.version, sub.tag, sub.base, sub.marks)

    def holds(self, sub: Subscriber) -> bool:
        """True if ``sub`` still holds this (read in the event loop, where it changes)."""
        return (
            self.first == sub.first
            and self.epoch == sub.epoch
            and self.version == sub.version
            and self.tag == sub.tag
            and self.base is sub.base
            and self.marks is sub.marks
        )


@dataclass(frozen=True, eq=False)
class Prepared:
    """The messages of a change built in the worker thread of the route that made it (one
    hand-off an action, not two): for ``table`` at ``epoch``, each socket's message and what
    the socket held when it was built."""

    table: Table[Any]
    epoch: int
    messages: dict[Subscriber, tuple[Sent, Message]]

    def take(self, sub: Subscriber, table: Table[Any], epoch: int) -> Message | None:
        """``sub``'s message if it was built for ``table`` at ``epoch`` from what ``sub``
        holds now and its client asked for nothing else (else ``None``: the builder makes
        it)."""
        if self.table is not table or self.epoch != epoch or sub.full is not None:
            return None
        found = self.messages.get(sub)
        if found is None or not found[0].holds(sub):
            return None
        return found[1]
