"""One way to decide an action: a handler per action kind, and one builder for its events.

A game's :class:`~referee.core.procedures.Procedure` names a handler for every kind in its
catalogue (:class:`Handlers`). The kernel looks the handler up, gives it a :class:`Builder`
holding the state, and the handler emits the events the rules say, in order. The builder folds
each event into its state as it is emitted, so a later rule of the same step sees what an
earlier one did ("when Pursuit Value reaches Escape Value, immediately…"), and the table keeps
the builder's state: **each event is folded once**, while it is decided, and again only when a
log is replayed.

>>> from referee.core.procedures import Action
>>> def add(b: Builder[int], action, dice) -> None:
...     b.emit("added", {"by": action.actor})
...     if b.state >= 3:  # a later rule of the same step sees the count after the first
...         b.emit("full")
>>> handlers = Handlers({"add": add})
>>> b = Builder(2, lambda n, e: n + 1 if e.kind == "added" else n)
>>> handlers.handler("add")(b, Action("ann", "add"), None)
>>> b.state, [e.kind for e in b.events]
(3, ['added', 'full'])
>>> handlers.handler("fly")
Traceback (most recent call last):
...
referee.core.errors.RuleError: Actions: no action 'fly' (actions: add)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from referee.core.clock import CLOCK_ADVANCED, TIMER_CANCELLED, TIMER_SET, GameTime
from referee.core.errors import RuleError
from referee.core.events import EVERYONE, Audience, Event, Secret
from referee.core.values import to_json

if TYPE_CHECKING:
    from referee.core.procedures import Action
    from referee.dice import DiceSource

__all__ = ["KERNEL_KINDS", "Builder", "Fold", "Handler", "Handlers"]

S = TypeVar("S")

KERNEL_KINDS = frozenset({TIMER_SET, TIMER_CANCELLED, CLOCK_ADVANCED})
"""Event kinds the table folds into its clock; they never reach a procedure's ``evolve``."""

Fold: TypeAlias = Callable[[S, Event], S]
"""A game's ``evolve``: the state after one event."""


class Builder(Generic[S]):
    """The events of one action, each folded into :attr:`state` as it is emitted.

    ``at`` is the game time of the action (``action.at``): every event is stamped with it, as
    the table will stamp it, so a fold that reads the time reads the same while deciding as on
    replay. Kernel events (timers) are kept but not folded: the table folds them into its clock.
    """

    def __init__(self, state: S, fold: Fold[S], at: GameTime | None = None) -> None:
        self.state = state
        self.events: list[Event] = []
        self._fold = fold
        self._at = at or 0

    def emit(
        self,
        kind: str,
        payload: Mapping[str, Any] | None = None,
        *,
        audience: Audience = EVERYONE,
        secrets: tuple[Secret, ...] = (),
    ) -> Event:
        """Make the event ``kind`` (its payload made JSON), fold it, and return it."""
        event = Event(kind, to_json(dict(payload or {})), audience=audience, secrets=secrets)
        return self.add(event)

    def add(self, event: Event) -> Event:
        """Take an event already made (a timer, a game's own constructor), and fold it."""
        if self._at and event.at != self._at:
            event = event.stamped(at=self._at)
        self.events.append(event)
        if event.kind not in KERNEL_KINDS:
            self.state = self._fold(self.state, event)
        return event

    def extend(self, events: Iterable[Event]) -> None:
        """:meth:`add` each of ``events`` in order."""
        for event in events:
            self.add(event)


Handler: TypeAlias = Callable[[Builder[Any], "Action", "DiceSource"], None]
"""What a rule does with an action: read ``b.state`` and ``action.args``, roll from ``dice``,
emit events into ``b``; raise :class:`~referee.core.errors.RuleError` to refuse it (nothing
emitted then reaches the table)."""


class Handlers(Mapping[str, Handler]):
    """A game's handlers, by action kind: the one place an action kind is decided.

    ``rule`` names the refusal of an unknown kind (the rules section that lists the actions).
    :meth:`check` holds the handlers to a catalogue: every kind handled, nothing else.
    """

    def __init__(self, handlers: Mapping[str, Handler], rule: str = "Actions") -> None:
        self._handlers = dict(handlers)
        self.rule = rule

    def __getitem__(self, kind: str) -> Handler:
        return self._handlers[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._handlers)

    def __len__(self) -> int:
        return len(self._handlers)

    def handler(self, kind: str) -> Handler:
        """The handler of ``kind``; :class:`RuleError` naming the kinds there are."""
        found = self._handlers.get(kind)
        if found is None:
            known = ", ".join(self._handlers) or "none"
            raise RuleError(self.rule, f"no action {kind!r} (actions: {known})")
        return found

    def check(self, kinds: Iterable[str]) -> None:
        """Raise :class:`ValueError` unless the handled kinds are exactly ``kinds``."""
        wanted = set(kinds)
        missing = sorted(wanted - set(self._handlers))
        extra = sorted(set(self._handlers) - wanted)
        if missing or extra:
            raise ValueError(f"handlers: not handled {missing}, not in the catalogue {extra}")

    def build(self, state: S, action: Action, dice: DiceSource, fold: Fold[S]) -> Builder[S]:
        """Decide ``action``: its handler's events, folded into ``state`` as they were made."""
        builder = Builder(state, fold, action.at)
        self.handler(action.kind)(builder, action, dice)
        return builder
