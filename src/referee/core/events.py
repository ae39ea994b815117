"""Events, the append-only log, and visibility (DESIGN.md, "Events", "Visibility").

Every change to a table is an :class:`Event`: a ``kind``, a JSON ``payload``, the
:class:`Audience` that may see it, and :class:`Secret` parts with audiences of their own (a
maneuver slip's target before the reveal). The :class:`Log` numbers events as they are appended
and never changes them. :func:`view` is the only way out of the log for an interface: it returns
only the events a viewer may see, with the secret parts they may not see removed and named in
``redacted``.

Viewer ids are strings. ``"referee"`` (:data:`REFEREE`) sees everything; ``"public"``
(:data:`PUBLIC`) is nobody in particular and sees only what everyone sees; any other id is a
player or a character. A player sees what is shown to them and to each character they play:
``Viewer("alice", characters=frozenset({"scarface"}))``.

>>> log = Log().append(
...     Event("slip.written", {"faction": "elves"}, audience=EVERYONE,
...           secrets=(Secret("maneuver", "Assault", only("elves")),)),
... )
>>> [e.data for e in view(log, "elves")]
[{'faction': 'elves', 'maneuver': 'Assault'}]
>>> [(e.data, e.redacted) for e in view(log, "orcs")]
[({'faction': 'elves'}, ('maneuver',))]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias, overload

from referee.core.chunked import Chunks, Fetch
from referee.core.values import Json, JsonObject, to_json

__all__ = [
    "EVERYONE",
    "PUBLIC",
    "REFEREE",
    "REFEREE_ONLY",
    "Audience",
    "Event",
    "Log",
    "Secret",
    "Viewer",
    "ViewerId",
    "only",
    "view",
]

ViewerId: TypeAlias = str
"""A viewer: ``"referee"``, ``"public"``, a player's id or a character's id."""

REFEREE: ViewerId = "referee"
"""The referee: sees every event and every secret part."""

PUBLIC: ViewerId = "public"
"""Nobody in particular: sees only what everyone may see."""


@dataclass(frozen=True)
class Audience:
    """Who may see an event or a secret part: everyone, or these viewers (and the referee).

    The referee is in every audience. ``Audience()`` is the referee alone.

    >>> only("scarface").includes(Viewer("alice", frozenset({"scarface"})))
    True
    >>> REFEREE_ONLY.includes(Viewer("scarface"))
    False
    """

    everyone: bool = False
    viewers: frozenset[ViewerId] = frozenset()

    def includes(self, viewer: Viewer | ViewerId) -> bool:
        """True if ``viewer`` may see what this audience may see."""
        who = as_viewer(viewer)
        if self.everyone or who.is_referee:
            return True
        return bool(self.viewers & who.identities)

    def to_json(self) -> Json:
        """``"everyone"``, or the sorted list of viewer ids (``[]`` is the referee alone)."""
        return "everyone" if self.everyone else sorted(self.viewers)

    @classmethod
    def from_json(cls, data: Any) -> Audience:
        """Inverse of :meth:`to_json`."""
        if data == "everyone":
            return EVERYONE
        if isinstance(data, list | tuple) and all(isinstance(v, str) for v in data):
            return cls(viewers=frozenset(data))
        raise ValueError(f"an audience is 'everyone' or a list of viewer ids, not {data!r}")


EVERYONE = Audience(everyone=True)
"""Every viewer."""

REFEREE_ONLY = Audience()
"""The referee alone."""


def only(*viewers: ViewerId) -> Audience:
    """The audience of these viewers (and the referee).

    >>> only("elves", "orcs").to_json()
    ['elves', 'orcs']
    """
    return Audience(viewers=frozenset(viewers))


@dataclass(frozen=True)
class Viewer:
    """Someone reading the log: an id, and for a player the characters they play.

    >>> Viewer("alice", frozenset({"scarface"})).identities == {"alice", "scarface"}
    True
    """

    id: ViewerId
    characters: frozenset[ViewerId] = frozenset()

    @property
    def is_referee(self) -> bool:
        """True for the referee."""
        return self.id == REFEREE

    @property
    def identities(self) -> frozenset[ViewerId]:
        """The ids this viewer sees as: their own and their characters'."""
        return self.characters | {self.id}


def as_viewer(viewer: Viewer | ViewerId) -> Viewer:
    """A :class:`Viewer` from a viewer or a bare id."""
    return viewer if isinstance(viewer, Viewer) else Viewer(viewer)


@dataclass(frozen=True)
class Secret:
    """A part of an event's data that only ``audience`` may see (within the event's audience)."""

    name: str
    value: Json
    audience: Audience = REFEREE_ONLY

    def to_json(self) -> dict[str, Any]:
        """``{"name", "value", "audience"}``."""
        return {
            "name": self.name,
            "value": to_json(self.value),
            "audience": self.audience.to_json(),
        }


@dataclass(frozen=True)
class Event:
    """One change to a table: typed by ``kind``, numbered by the log, JSON-serialisable.

    ``kind`` is dotted, game first where it helps (``"perception.made"``, ``"slip.revealed"``);
    kinds starting ``"clock."`` and ``"timer."`` belong to the kernel. ``payload`` is the public
    part of the data, ``secrets`` the parts with narrower audiences; :attr:`data` is both merged,
    which is what a procedure's ``evolve`` reads. ``number`` (from 1) is set by :meth:`Log.append`
    and ``at`` (game time in seconds) by the :class:`~referee.core.procedures.Table`; a procedure
    leaves both at 0. ``redacted`` is set by :func:`view`: the names of the secret parts the
    viewer may not see. Payload values are JSON; do not mutate them.

    >>> event = Event("wound.taken", {"character": "scarface"}, secrets=(Secret("by", "krockin"),))
    >>> Event.from_json(event.to_json()) == event
    True
    """

    kind: str
    payload: JsonObject = field(default_factory=dict)
    audience: Audience = EVERYONE
    secrets: tuple[Secret, ...] = ()
    number: int = 0
    at: int = 0
    redacted: tuple[str, ...] = ()
    cause: int = 0

    def __post_init__(self) -> None:
        if not self.secrets:  # most events: nothing to clash
            return
        names = [s.name for s in self.secrets]
        clash = (set(names) & set(self.payload)) | {n for n in names if names.count(n) > 1}
        if clash:
            raise ValueError(f"event {self.kind!r}: secret parts clash with the payload: {clash}")

    @property
    def data(self) -> dict[str, Json]:
        """The payload with the secret parts (those present) merged in."""
        merged: dict[str, Json] = dict(self.payload)
        for secret in self.secrets:
            merged[secret.name] = secret.value
        return merged

    def to_json(self) -> dict[str, Any]:
        """``{"number", "at", "cause", "kind", "audience", "payload", "secrets", "redacted"}``."""
        return {
            "number": self.number,
            "at": self.at,
            "cause": self.cause,
            "kind": self.kind,
            "audience": self.audience.to_json(),
            "payload": to_json(self.payload),
            "secrets": [s.to_json() for s in self.secrets],
            "redacted": list(self.redacted),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        return cls(
            kind=str(data["kind"]),
            payload=dict(data.get("payload", {})),
            audience=Audience.from_json(data.get("audience", "everyone")),
            secrets=tuple(
                Secret(s["name"], s["value"], Audience.from_json(s["audience"]))
                for s in data.get("secrets", ())
            ),
            number=int(data.get("number", 0)),
            at=int(data.get("at", 0)),
            redacted=tuple(data.get("redacted", ())),
            cause=int(data.get("cause", 0)),
        )

    def stamped(self, **changes: Any) -> Event:
        """This event with ``number``, ``at`` or ``cause`` changed: what the log and the table
        set on an event a procedure returned. A plain copy (the parts are already checked),
        which is what keeps an action cheap."""
        copy = object.__new__(Event)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    def seen_by(self, viewer: Viewer | ViewerId) -> Event | None:
        """This event as ``viewer`` may see it, or ``None`` if they may not see it at all."""
        who = as_viewer(viewer)
        if not self.audience.includes(who):
            return None
        kept = tuple(s for s in self.secrets if s.audience.includes(who))
        if len(kept) == len(self.secrets):
            return self
        hidden = tuple(s.name for s in self.secrets if not s.audience.includes(who))
        return replace(self, secrets=kept, redacted=self.redacted + hidden)


class Log:
    """The append-only record of a table: events numbered from 1, in order.

    Appending is amortised O(1): a log shares its storage with the log it was appended to, and
    copies only the last chunk when an older log is appended to again (a branch, as after an
    undo; :mod:`referee.core.chunked`).

    >>> log = Log().append(Event("a"), Event("b"))
    >>> [(e.number, e.kind) for e in log]
    [(1, 'a'), (2, 'b')]
    >>> len(log.without_last())
    1
    """

    __slots__ = ("_items", "_size")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._items: Chunks[Event] = Chunks(list(events))
        self._size = self._items._length

    @classmethod
    def _sharing(cls, items: Chunks[Event], size: int) -> Log:
        log = cls.__new__(cls)
        log._items = items
        log._size = size
        return log

    @classmethod
    def paged(cls, count: int, fetch: Fetch[Event], then: Sequence[Event] = ()) -> Log:
        """The log of ``count`` events read only when they are looked at, by
        ``fetch(start, stop)`` (the events numbered ``start + 1`` to ``stop``; ``count`` a
        multiple of :data:`~referee.core.chunked.CHUNK`), then ``then``: how a store hands
        over a table of any age without reading its old events."""
        items: Chunks[Event] = Chunks.paged(count, fetch, then)
        return cls._sharing(items, items._length)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events, in order (a copy: prefer iterating or indexing the log)."""
        return tuple(self._items.iterate(self._size))

    def append(self, *events: Event) -> Log:
        """A new log with ``events`` added, numbered after the last one."""
        start = self._size
        numbered = [e.stamped(number=start + i + 1) for i, e in enumerate(events)]
        items = self._items.append(start, *numbered)  # a branch if appended to before
        return Log._sharing(items, start + len(numbered))

    def append_stamped(self, event: Event, **changes: Any) -> Log:
        """A new log with ``event`` added, numbered after the last one and with ``changes``
        (its ``at`` and ``cause``) made in the same copy: how the table records an event."""
        start = self._size
        stamped = event.stamped(number=start + 1, **changes)
        return Log._sharing(self._items.append(start, stamped), start + 1)

    def without_last(self, count: int = 1) -> Log:
        """The log without its last ``count`` events (what undo replays)."""
        if count < 0:
            raise ValueError(f"cannot remove {count} events")
        return Log._sharing(self._items, max(0, self._size - count))

    def grew_from(self, older: Log) -> bool:
        """True if this log is known, without reading either, to be ``older`` with events
        appended: both are versions of one storage (an event once stored there is never
        written again: :mod:`referee.core.chunked`) and this one is at least as long. A log
        read again from a store is another storage: ``False``, whatever its events."""
        return self._items is older._items and self._size >= older._size

    def since(self, number: int) -> tuple[Event, ...]:
        """The events numbered after ``number``."""
        return tuple(self._items.slice(max(0, number), self._size))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Event]:
        return self._items.iterate(self._size)

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...
    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._size)
            if step == 1:  # only the chunks it spans are read
                return tuple(self._items.slice(start, stop))
            return self.events[index]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("log index out of range")
        return self._items.get(index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Log) and self.events == other.events

    def __hash__(self) -> int:
        return hash(self.events)

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"

    def to_json(self) -> list[dict[str, Any]]:
        """The events as JSON, in order."""
        return [e.to_json() for e in self]

    @classmethod
    def from_json(cls, data: Iterable[Mapping[str, Any]]) -> Log:
        """Inverse of :meth:`to_json` (numbers are kept as written)."""
        return cls(Event.from_json(e) for e in data)


def view(log: Log | Iterable[Event], viewer: Viewer | ViewerId) -> tuple[Event, ...]:
    """The events ``viewer`` may see, with the secret parts they may not see removed.

    This is the only way an interface reads a log. A removed part is named in the event's
    ``redacted``; its value is gone.
    """
    who = as_viewer(viewer)
    seen = (e.seen_by(who) for e in log)
    return tuple(e for e in seen if e is not None)
