"""Procedures: multi-step rules as state machines over immutable state (DESIGN.md, "Procedures").

A game writes a :class:`Procedure`: how a table starts from a setup (``initial_state``), which
actions an actor may take (``legal_actions``), what an action does (``decide``: state, action,
dice in → events out, or :class:`~referee.core.errors.RuleError`), and how each event changes
the state (``evolve``). Dice are only rolled in ``decide``, from the source it is given, and the
faces go into the events, so ``evolve`` never rolls: **the state is a fold of ``evolve`` over the
log**, and replaying a log gives the same state without any dice source.

A :class:`Table` is a procedure in play: its state, its log and its clock. It is immutable;
each step returns a new table.

>>> from referee.core.events import Event
>>> from referee.core.errors import RuleError
>>> class Counter(Procedure[int]):
...     def initial_state(self, setup): return int(setup.get("start", 0))
...     def legal_actions(self, state, actor): return (Action(actor, "add"),)
...     def decide(self, state, action, dice):
...         if action.kind != "add":
...             raise RuleError("Counting", f"no such action {action.kind!r}")
...         return (Event("added", {"by": action.actor}),)
...     def evolve(self, state, event): return state + 1 if event.kind == "added" else state
>>> table = Table.start(Counter(), {"start": 1}).act(Action("ann", "add"), dice=None)
>>> table.state, [e.kind for e in table.log]
(2, ['added'])
>>> Table.replay(Counter(), {"start": 1}, table.log).state
2
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeAlias, TypeVar

from referee.core.clock import (
    CLOCK_ADVANCED,
    TIMER_CANCELLED,
    TIMER_SET,
    Clock,
    GameTime,
    Timer,
)
from referee.core.events import EVERYONE, Event, Log, Viewer, ViewerId, as_viewer, view
from referee.core.values import JsonObject, to_json
from referee.dice import DiceSource

__all__ = ["KERNEL_KINDS", "Action", "ActorId", "Procedure", "Table"]

S = TypeVar("S")

ActorId: TypeAlias = str
"""Who acts: a character's, a faction's or a player's id, or ``"referee"``."""

KERNEL_KINDS = frozenset({TIMER_SET, TIMER_CANCELLED, CLOCK_ADVANCED})
"""Event kinds the table folds into its clock; they never reach a procedure's ``evolve``."""


@dataclass(frozen=True)
class Action:
    """What an actor does: ``kind`` names it, ``params`` are its JSON parameters.

    ``at`` is the game time the action is taken: :meth:`Table.act` sets it, so ``decide`` can
    read the clock (``action.at``); it takes no part in comparisons, so
    ``action in legal_actions(...)`` works.

    >>> Action("scarface", "perceive", {"target": "krockin"}).to_json()
    {'actor': 'scarface', 'kind': 'perceive', 'params': {'target': 'krockin'}}
    """

    actor: ActorId
    kind: str
    params: JsonObject = field(default_factory=dict)
    at: GameTime | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """``{"actor", "kind", "params"}``, and ``"at"`` when set."""
        data = {"actor": self.actor, "kind": self.kind, "params": to_json(self.params)}
        if self.at is not None:
            data["at"] = self.at
        return data


class Procedure(ABC, Generic[S]):
    """A multi-step rule: the four methods a game writes, and what the kernel builds on them.

    ``S`` is the procedure's state: immutable values (frozen dataclasses, tuples, frozensets).
    """

    @abstractmethod
    def initial_state(self, setup: Mapping[str, Any]) -> S:
        """The state before any action, from a scenario's ``setup`` mapping.

        Raise :class:`~referee.core.errors.ScenarioError` with the path inside ``setup`` (e.g.
        ``("characters", "scarface", "stamina")``) for a bad setup; the runner prefixes ``setup``.
        """

    def initial_events(self, state: S) -> Sequence[Event]:
        """Events the table logs when play starts (e.g. timers for "open at nine o'clock").

        They are folded like any other event. Default: none.
        """
        return ()

    @abstractmethod
    def legal_actions(self, state: S, actor: ActorId) -> Sequence[Action]:
        """The actions ``actor`` may take now, as far as they can be listed.

        For menus and random play. An action with a free parameter (an amount, a text) is
        listed with representative values; :meth:`decide` is the authority on any action.
        """

    @abstractmethod
    def decide(self, state: S, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events ``action`` causes; raise ``RuleError(rule, reason)`` if it is illegal.

        Take every die from ``dice`` and put the faces (e.g. ``CheckResult.to_json()``) into
        the events. Return events with ``number`` and ``at`` left at 0: the table stamps them.
        Timer events (:func:`~referee.core.clock.set_timer`) may be among them.
        """

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """The state after ``event``. Never rolls, never refuses: the event has happened.

        Read the event's :attr:`~referee.core.events.Event.data`; ignore kinds you don't know.
        """

    def apply(self, state: S, action: Action, dice: DiceSource) -> tuple[S, tuple[Event, ...]]:
        """``decide`` then fold ``evolve``: the new state and the events (unstamped).

        Kernel (timer) events are returned but do not reach ``evolve``. Use a :class:`Table` to
        keep the clock and the log.
        """
        events = tuple(self.decide(state, action, dice))
        for event in events:
            if event.kind not in KERNEL_KINDS:
                state = self.evolve(state, event)
        return state, events

    def actors(self, state: S) -> Sequence[ActorId]:
        """Who may act in ``state`` (for random play and menus). Default: nobody listed."""
        return ()

    def state_json(self, state: S) -> JsonObject:
        """The whole state as a JSON object: what scenario ``expect: path`` reads.

        Default: :func:`~referee.core.values.to_json` of the state.
        """
        data = to_json(state)
        return data if isinstance(data, dict) else {"state": data}

    def visible_state(self, state: S, viewer: Viewer) -> JsonObject | None:
        """The state as ``viewer`` may see it, or ``None`` for nothing.

        Default: the whole state for the referee, nothing for anyone else. Override it to show
        players their part; never include what ``view`` would hide from them.
        """
        return self.state_json(state) if viewer.is_referee else None


@dataclass(frozen=True)
class Table(Generic[S]):
    """A procedure in play: ``state`` is the fold of the log from ``initial_state(setup)``.

    Build one with :meth:`start` or :meth:`replay`; step it with :meth:`act` and
    :meth:`advance`; each returns a new table.
    """

    procedure: Procedure[S]
    setup: Mapping[str, Any]
    state: S
    log: Log = field(default_factory=Log)
    clock: Clock = field(default_factory=Clock)

    @classmethod
    def start(cls, procedure: Procedure[S], setup: Mapping[str, Any]) -> Table[S]:
        """A table at game time 0, with the procedure's initial events logged."""
        state = procedure.initial_state(setup)
        table = cls(procedure, setup, state)
        return table._record(tuple(procedure.initial_events(state)))

    @classmethod
    def replay(cls, procedure: Procedure[S], setup: Mapping[str, Any], log: Log) -> Table[S]:
        """The table that ``log`` leads to from ``setup``: a fold, no dice needed."""
        table = cls(procedure, setup, procedure.initial_state(setup))
        for event in log:
            table = table._fold(event)
        return replace(table, log=log)

    def undo(self, count: int = 1) -> Table[S]:
        """The table without its last ``count`` events (a replay of the shorter log)."""
        return Table.replay(self.procedure, self.setup, self.log.without_last(count))

    @property
    def now(self) -> GameTime:
        """Game time now, in seconds since the start of play."""
        return self.clock.now

    def legal_actions(self, actor: ActorId) -> Sequence[Action]:
        """The procedure's legal actions for ``actor`` now."""
        return self.procedure.legal_actions(self.state, actor)

    def act(
        self, action: Action, dice: DiceSource | None, *, at: GameTime | None = None
    ) -> Table[S]:
        """Advance to ``at`` (if given), then play ``action`` (its ``at`` set to now).

        Raises :class:`RuleError` (from the procedure, or if ``at`` is in the past) and
        :class:`~referee.dice.DiceSourceError` (a script ran out); the table is unchanged then.
        ``dice=None`` is allowed for actions that roll nothing (a die asked of it is an error).
        """
        table = self if at is None else self.advance(at)
        source: DiceSource = dice if dice is not None else _NoDice()
        timed = replace(action, at=table.now)
        events = tuple(table.procedure.decide(table.state, timed, source))
        return table._record(events)

    def advance(self, to: GameTime) -> Table[S]:
        """Move game time to ``to``, firing the timers passed, then log ``clock.advanced``."""
        if to == self.clock.now:
            return self
        _, fired = self.clock.advance(to)
        table = self
        for event in fired:
            table = table._record((event,), at=event.at)
        advanced = Event(CLOCK_ADVANCED, {"to": to}, audience=EVERYONE)
        return table._record((advanced,), at=to)

    def view(self, viewer: Viewer | ViewerId) -> tuple[Event, ...]:
        """The log as ``viewer`` may see it (:func:`~referee.core.events.view`)."""
        return view(self.log, viewer)

    def visible_state(self, viewer: Viewer | ViewerId) -> JsonObject | None:
        """The state as ``viewer`` may see it (the procedure decides)."""
        return self.procedure.visible_state(self.state, as_viewer(viewer))

    # -- the fold ---------------------------------------------------------------------------

    def _record(self, events: Iterable[Event], at: GameTime | None = None) -> Table[S]:
        table = self
        for event in events:
            stamped = replace(event, at=table.clock.now if at is None else at)
            log = table.log.append(stamped)
            table = replace(table._fold(log.events[-1]), log=log)
        return table

    def _fold(self, event: Event) -> Table[S]:
        clock = self.clock
        if event.kind == TIMER_SET:
            payload = event.data
            after = payload.get("after")
            due = event.at + int(after) if isinstance(after, int) else int(payload["due"])  # type: ignore[arg-type]
            fire = Event.from_json(payload["event"])  # type: ignore[arg-type]
            clock = clock.set(Timer(str(payload["name"]), due, fire))
            return replace(self, clock=clock)
        if event.kind == TIMER_CANCELLED:
            return replace(self, clock=clock.cancel(str(event.payload["name"])))
        if event.kind == CLOCK_ADVANCED:
            to = int(event.payload["to"])  # type: ignore[arg-type]
            pending = tuple(t for t in clock.timers if t.due > to)
            return replace(self, clock=Clock(now=max(to, clock.now), timers=pending))
        state = self.procedure.evolve(self.state, event)
        return replace(self, state=state, clock=replace(clock, now=max(clock.now, event.at)))


class _NoDice:
    """The source for actions played without dice: any die asked of it is an error."""

    def roll(self, sides: int) -> int:
        from referee.dice.errors import DiceSourceError

        raise DiceSourceError(f"this action was played without dice, but a d{sides} was asked for")
