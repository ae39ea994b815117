"""What a table records of each action: its :class:`ActionRecord`, the append-only list of them
(:class:`ActionList`), and the dice sources an action is taken with, so that its dice are recorded
(:class:`RecordingDice`), handed out again on replay (:class:`ReplayingDice`), or refused when
it was played without dice (:class:`NoDice`).

>>> dice = RecordingDice(ReplayingDice([(6, 4), (20, 17)]))
>>> dice.roll(6), dice.roll(20), dice.rolled
(4, 17, [(6, 4), (20, 17)])
>>> ReplayingDice([(6, 4)]).roll(8)
Traceback (most recent call last):
...
referee.dice.errors.DiceSourceError: die 1 was recorded as a d6, but a d8 was asked for
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from referee.core.chunked import Chunks, Fetch
from referee.core.clock import GameTime
from referee.core.events import EVERYONE, Audience, Viewer
from referee.core.fairness import draw_salt
from referee.core.procedures import Action, ActorId
from referee.core.seats import SeatId
from referee.core.values import JsonObject, to_json
from referee.dice import DiceSource, DiceSourceError

__all__ = ["ActionList", "ActionRecord", "NoDice", "RecordingDice", "ReplayingDice"]

T = TypeVar("T")


class ActionList(Generic[T]):
    """A table's action records: an append-only sequence whose append is amortised O(1)
    (shared storage, copy on branch: :mod:`referee.core.chunked`)."""

    __slots__ = ("_items", "_size")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: Chunks[T] = Chunks(list(items))
        self._size = self._items._length

    @classmethod
    def paged(cls, count: int, fetch: Fetch[T], then: Sequence[T] = ()) -> ActionList[T]:
        """``count`` items read when first looked at, then ``then`` (see :meth:`Log.paged`)."""
        chain: ActionList[T] = cls.__new__(cls)
        chain._items = Chunks.paged(count, fetch, then)
        chain._size = chain._items._length
        return chain

    def append(self, item: T) -> ActionList[T]:
        chain: ActionList[T] = ActionList.__new__(ActionList)
        chain._items, chain._size = self._items.append(self._size, item), self._size + 1
        return chain

    def grew_from(self, older: ActionList[T]) -> bool:
        """True if this list is known, without reading either, to be ``older`` with items
        appended (see :meth:`referee.core.events.Log.grew_from`)."""
        return self._items is older._items and self._size >= older._size

    def without_last(self, count: int = 1) -> ActionList[T]:
        chain: ActionList[T] = ActionList.__new__(ActionList)
        chain._items, chain._size = self._items, max(0, self._size - count)
        return chain

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[T]:
        return self._items.iterate(self._size)

    def __getitem__(self, index: int) -> T:
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("index out of range")
        return self._items.get(index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionList) and list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ActionList({list(self)!r})"


@dataclass(frozen=True)
class ActionRecord:
    """One action as the table recorded it.

    ``number`` counts actions from 1; ``seat`` is who took it (``None``: played through the
    library, with no seat); ``asked_at`` the game time the action asked to be taken at (the
    clock was moved there first), ``at`` the time it was taken; ``dice`` every die it rolled as
    ``(sides, face)``; ``events`` the numbers of the first and last events it caused
    (``first > last`` when it caused none); ``audience`` who may see the record.
    """

    number: int
    seat: SeatId | None
    actor: ActorId
    kind: str
    params: JsonObject
    at: GameTime
    asked_at: GameTime | None
    dice: tuple[tuple[int, int], ...]
    events: tuple[int, int]
    audience: Audience = EVERYONE

    @property
    def action(self) -> Action:
        """The action as the game decided it."""
        return Action(self.actor, self.kind, dict(self.params), at=self.at)

    def to_json(self) -> dict[str, Any]:
        """The whole record, dice included: for the referee and the store only."""
        return {
            "number": self.number,
            "seat": self.seat,
            "actor": self.actor,
            "kind": self.kind,
            "params": to_json(self.params),
            "at": self.at,
            "asked_at": self.asked_at,
            "dice": [list(d) for d in self.dice],
            "events": list(self.events),
            "audience": self.audience.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActionRecord:
        """Inverse of :meth:`to_json`."""
        first, last = data["events"]
        return cls(
            number=int(data["number"]),
            seat=None if data.get("seat") is None else str(data["seat"]),
            actor=str(data["actor"]),
            kind=str(data["kind"]),
            params=dict(data.get("params", {})),
            at=int(data["at"]),
            asked_at=None if data.get("asked_at") is None else int(data["asked_at"]),
            dice=tuple((int(s), int(f)) for s, f in data.get("dice", ())),
            events=(int(first), int(last)),
            audience=Audience.from_json(data.get("audience", "everyone")),
        )

    def seen_by(self, viewer: Viewer) -> dict[str, Any] | None:
        """The record as ``viewer`` may see it: nothing outside its audience, dice only for the
        referee (the events show each viewer the rolls they may see)."""
        if not self.audience.includes(viewer):
            return None
        return dict(self._seen(viewer.is_referee))

    def _seen(self, referee: bool) -> dict[str, Any]:
        """The record as the referee, or as any other viewer in its audience, sees it: written
        once for each and kept beside the fields (a record never changes, and every seat of a
        table is sent it: issue 29). Shared: :meth:`seen_by` hands out copies."""
        key = "_seen_by_referee" if referee else "_seen_by_players"
        found: dict[str, Any] | None = self.__dict__.get(key)
        if found is None:
            found = self.to_json()
            del found["audience"]
            if not referee:
                del found["dice"]
            self.__dict__[key] = found  # beside the frozen fields, not one of them
        return found


class RecordingDice:
    """A dice source that remembers every die it handed out, with its size; it also hands out
    the salts of sealed choices (:func:`referee.core.fairness.draw_salt`)."""

    __slots__ = ("_source", "rolled")

    def __init__(self, source: DiceSource) -> None:
        self._source = source
        self.rolled: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        face = self._source.roll(sides)
        self.rolled.append((sides, face))
        return face

    def salt(self) -> bytes:
        inner = self._source
        return draw_salt(None if isinstance(inner, NoDice) else inner)


class ReplayingDice:
    """The recorded dice of an action, handed out again; a die of another size is an error.
    The salts of the choices it sealed come back from its recorded events' salt parts."""

    __slots__ = ("_dice", "_salts", "used")

    def __init__(self, dice: Sequence[tuple[int, int]], salts: Sequence[bytes] = ()) -> None:
        self._dice = dice
        self._salts = list(salts)
        self.used = 0

    def salt(self) -> bytes:
        if not self._salts:
            raise DiceSourceError("the record holds no salt for a choice this action seals")
        return self._salts.pop(0)

    def roll(self, sides: int) -> int:
        if self.used >= len(self._dice):
            raise DiceSourceError(f"the record holds no more dice (a d{sides} was asked for)")
        recorded_sides, face = self._dice[self.used]
        if recorded_sides != sides:
            raise DiceSourceError(
                f"die {self.used + 1} was recorded as a d{recorded_sides}, but a d{sides} "
                "was asked for"
            )
        self.used += 1
        return face


class NoDice:
    """The source for actions played without dice: any die asked of it is an error."""

    def roll(self, sides: int) -> int:
        raise DiceSourceError(f"this action was played without dice, but a d{sides} was asked for")
