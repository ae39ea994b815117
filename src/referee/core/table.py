"""A table in play: a procedure's state, its log, its clock, its seats and the actions taken.

DESIGN.md, "The table contract". A :class:`Table` is immutable; each step returns a new one.

- **Seats.** A :class:`Seat` is a player and the characters or factions they play; the seat
  ``"referee"`` (where the game has one) sees everything and may act for anyone.
- **Actions recorded.** :meth:`Table.act` parses the action's parameters with its spec
  (:class:`~referee.core.errors.ActionError` if malformed), checks that the seat may take it
  (:class:`~referee.core.errors.SeatError`), lets the game decide, and records an
  :class:`ActionRecord`: who did what, with which parameters, which dice, and which events it
  caused (every event names its cause). ``expect_version=`` refuses a stale table
  (:class:`~referee.core.errors.StaleTableError`). :meth:`Table.undo` takes the last action back.
- **A record.** :meth:`Table.to_record` is the whole table as JSON; :meth:`Table.from_record`
  reads one back and re-decides every action with its recorded dice, refusing a record whose
  events are not what its actions produce.
- **One read path.** :func:`observe` is everything one viewer may know.

>>> from referee.core.actions import Catalogue, ActionSpec, Choice, NoParams, Who
>>> from referee.core.events import Event
>>> class Counter(Procedure[int]):
...     catalogue = Catalogue([ActionSpec("add", NoParams, section="Counting", record="everyone")])
...     def initial_state(self, setup): return 0
...     def legal_actions(self, state, actor): return (Choice(actor, "add"),)
...     def decide(self, state, action, dice): return (Event("added", {"by": action.actor}),)
...     def evolve(self, state, event): return state + 1
...     def actors(self, state): return ("ann", "bob")
>>> table = Table.start(Counter(), {}, system="counter")
>>> [seat.id for seat in table.seats]
['referee', 'ann', 'bob']
>>> table = table.act(Action("ann", "add"), None, seat="ann", expect_version=0)
>>> table.state, table.version, table.log[0].cause
(1, 1, 1)
>>> table.act(Action("ann", "add"), None, seat="bob")
Traceback (most recent call last):
...
referee.core.errors.SeatError: seat 'bob' does not play 'ann'
>>> Table.from_record(table.to_record(), Counter()).state
1
>>> observe(table, "bob").to_json()["events"][0]["text"]
"added: by='ann'"
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from referee.core.actions import ActionSpec, Choice, Who
from referee.core.chunked import Chunks, Fetch
from referee.core.clock import (
    CLOCK_ADVANCED,
    TIMER_CANCELLED,
    TIMER_SET,
    Clock,
    GameTime,
    Timer,
)
from referee.core.errors import (
    ActionError,
    RefereeError,
    RuleError,
    ScenarioError,
    SeatError,
    StaleTableError,
)
from referee.core.events import (
    EVERYONE,
    REFEREE,
    Audience,
    Event,
    Log,
    Viewer,
    ViewerId,
    as_viewer,
    only,
    view,
)
from referee.core.fairness import (
    DICE_COMMITTED,
    DICE_EVENTS,
    DICE_REVEALED,
    REVEAL_DICE,
    SALT,
    SEAT_SEEDED,
    SEED_DICE,
    DiceLedger,
    DiceSeeds,
    draw_salt,
    kernel_dice_events,
)
from referee.core.procedures import Action, ActorId, Procedure
from referee.core.prompts import (
    Prompt,
    Result,
    check_prompts,
    open_choices,
    prompts_seen_by,
    whose_move,
)
from referee.core.values import JsonObject, to_json
from referee.dice import DiceSource, DiceSourceError

__all__ = [
    "ADVANCE",
    "RECORD_FORMAT",
    "ActionRecord",
    "Chain",
    "Observation",
    "Seat",
    "SeatId",
    "Table",
    "narrate",
    "observe",
    "preview",
]

S = TypeVar("S")
T = TypeVar("T")

SeatId = str
"""A seat: ``"referee"`` or a player's name."""

ADVANCE = "advance"
"""The kernel's own action kind: move game time on (``{"to": seconds}``), firing timers."""

RECORD_FORMAT = "referee.table/1"
"""The ``format`` of a table record."""


# ---------------------------------------------------------------------------------- seats


@dataclass(frozen=True)
class Seat:
    """A seat at the table: a player (or the referee) and what they play.

    >>> Seat("alice", ("scarface",)).viewer
    Viewer(id='alice', characters=frozenset({'scarface'}))
    """

    id: SeatId
    plays: tuple[ActorId, ...] = ()

    @property
    def is_referee(self) -> bool:
        """True for the referee's seat."""
        return self.id == REFEREE

    @property
    def viewer(self) -> Viewer:
        """Who this seat reads the log as: the seat and everything it plays."""
        return Viewer(self.id, frozenset(self.plays))

    def may_play(self, actor: ActorId) -> bool:
        """True if this seat acts for ``actor`` (the referee acts for anyone)."""
        return self.is_referee or actor == self.id or actor in self.plays

    def to_json(self) -> dict[str, Any]:
        """``{"id", "plays"}``."""
        return {"id": self.id, "plays": list(self.plays)}


def seats_from(
    procedure: Procedure[Any], state: Any, players: Mapping[str, Sequence[str]] | None = None
) -> tuple[Seat, ...]:
    """The seats of a new table: the referee's (where the game has one), then each player's.

    ``players`` maps a player to the characters or factions they play; each character the game
    lists that no player plays gets a seat of its own, named after it.
    """
    seats = [Seat(REFEREE)] if procedure.has_referee else []
    players = dict(players or {})
    seats += [Seat(player, tuple(plays)) for player, plays in players.items()]
    played = {actor for plays in players.values() for actor in plays} | set(players)
    seats += [Seat(actor, (actor,)) for actor in procedure.characters(state) if actor not in played]
    return tuple(seats)


# ------------------------------------------------------------------------------ records


class Chain(Generic[T]):
    """A table's action records: an append-only sequence whose append is amortised O(1)
    (shared storage, copy on branch: :mod:`referee.core.chunked`)."""

    __slots__ = ("_items", "_size")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: Chunks[T] = Chunks(list(items))
        self._size = self._items._length

    @classmethod
    def paged(cls, count: int, fetch: Fetch[T], then: Sequence[T] = ()) -> Chain[T]:
        """``count`` items read when first looked at, then ``then`` (see :meth:`Log.paged`)."""
        chain: Chain[T] = cls.__new__(cls)
        chain._items = Chunks.paged(count, fetch, then)
        chain._size = chain._items._length
        return chain

    def append(self, item: T) -> Chain[T]:
        chain: Chain[T] = Chain.__new__(Chain)
        chain._items, chain._size = self._items.append(self._size, item), self._size + 1
        return chain

    def without_last(self, count: int = 1) -> Chain[T]:
        chain: Chain[T] = Chain.__new__(Chain)
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
        return isinstance(other, Chain) and list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Chain({list(self)!r})"


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
        data = self.to_json()
        del data["audience"]
        if not viewer.is_referee:
            del data["dice"]
        return data


class _Recording:
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
        return draw_salt(None if isinstance(inner, _NoDice) else inner)


class _Replaying:
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


class _NoDice:
    """The source for actions played without dice: any die asked of it is an error."""

    def roll(self, sides: int) -> int:
        raise DiceSourceError(f"this action was played without dice, but a d{sides} was asked for")


# -------------------------------------------------------------------------------- table


@dataclass(frozen=True)
class Table(Generic[S]):
    """A procedure in play: see the module's doc.

    ``state`` is the fold of the log from ``initial_state(setup)``; ``version`` the number of
    events. Build one with :meth:`start`, :meth:`replay` or :meth:`from_record`; step it with
    :meth:`act`, :meth:`advance` and :meth:`undo`; each returns a new table.
    """

    procedure: Procedure[S]
    setup: Mapping[str, Any]
    state: S
    log: Log = field(default_factory=Log)
    clock: Clock = field(default_factory=Clock)
    system: str = ""
    seats: tuple[Seat, ...] = ()
    start_time: str = "00:00"
    actions: Chain[ActionRecord] = field(default_factory=Chain)
    ledger: DiceLedger = field(default_factory=DiceLedger)
    """The fair-dice events folded (``referee.core.fairness``): what the next roll needs."""

    @classmethod
    def start(
        cls,
        procedure: Procedure[S],
        setup: Mapping[str, Any],
        *,
        system: str = "",
        seats: Sequence[Seat] | None = None,
        players: Mapping[str, Sequence[str]] | None = None,
        start: str = "00:00",
        dice: DiceSeeds | None = None,
        preamble: Sequence[Event] = (),
    ) -> Table[S]:
        """A table at game time 0, with the procedure's initial events logged.

        Seats: ``seats`` as given, or from ``players`` (player → what they play) and the
        referee's seat where the game has one (:func:`seats_from`). ``dice``: the table's
        secret dice seeds, whose commitment is logged first (``referee.core.fairness``);
        ``preamble``: kernel events to log first (a record's commitment, on replay).
        """
        state = procedure.initial_state(setup)
        if seats is None:
            seats = seats_from(procedure, state, players)
        table = cls(procedure, setup, state, system=system, seats=tuple(seats), start_time=start)
        first = (dice.commitment_event(),) if dice is not None else tuple(preamble)
        return table._record((*first, *procedure.initial_events(state)), cause=0)

    @classmethod
    def replay(cls, procedure: Procedure[S], setup: Mapping[str, Any], log: Log) -> Table[S]:
        """The table that ``log`` leads to from ``setup``: a fold, no dice needed (no actions
        are recorded: use :meth:`from_record` for a whole table)."""
        table = cls(procedure, setup, procedure.initial_state(setup))
        for event in log:
            table = table._fold(event)
        return replace(table, log=log)

    # -- reading ----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of events in the log: what ``expect_version`` compares."""
        return len(self.log)

    @property
    def now(self) -> GameTime:
        """Game time now, in seconds since the start of play."""
        return self.clock.now

    def seat(self, seat_id: SeatId) -> Seat:
        """The seat ``seat_id``; :class:`SeatError` if the table has none such."""
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        known = ", ".join(s.id for s in self.seats) or "none"
        raise SeatError(f"this table has no seat {seat_id!r} (seats: {known})")

    def viewer(self, who: Seat | Viewer | SeatId) -> Viewer:
        """The viewer a seat reads as. A seat id must be one of the table's seats; a table
        with no seats (played through the library) takes any id as a bare viewer."""
        if isinstance(who, Viewer):
            return who
        if isinstance(who, Seat):
            return who.viewer
        if not self.seats:
            return as_viewer(who)
        return self.seat(who).viewer

    def legal_actions(self, actor: ActorId) -> Sequence[Choice]:
        """The choices open to ``actor`` now: the procedure's, its prompts taken into account
        (:func:`~referee.core.prompts.open_choices`)."""
        return open_choices(self.procedure, self.state, actor)

    def prompts(self) -> tuple[Prompt, ...]:
        """The decisions the table waits for now (the procedure's prompts)."""
        return tuple(self.procedure.prompts(self.state))

    def to_move(self) -> tuple[ActorId, ...]:
        """Who may act now (:func:`~referee.core.prompts.whose_move`)."""
        return whose_move(self.procedure, self.state)

    def result(self) -> Result:
        """Whether the game is over and who won (the procedure's answer)."""
        return self.procedure.result(self.state)

    def conflict(self) -> Result | None:
        """The current or last conflict, whether it is over and who won (the procedure's)."""
        return self.procedure.conflict(self.state)

    def view(self, viewer: Viewer | ViewerId) -> tuple[Event, ...]:
        """The log as ``viewer`` may see it (:func:`~referee.core.events.view`)."""
        return view(self.log, viewer)

    def visible_state(self, viewer: Viewer | ViewerId) -> JsonObject | None:
        """The state as ``viewer`` may see it (the procedure decides)."""
        return self.procedure.visible_state(self.state, as_viewer(viewer))

    def spec(self, kind: str) -> ActionSpec[Any] | None:
        """The spec of an action kind (``None`` for a game with an empty catalogue)."""
        if kind == ADVANCE or not self.procedure.catalogue:
            return None
        return self.procedure.catalogue.spec(kind)

    # -- acting -----------------------------------------------------------------------------

    def act(
        self,
        action: Action,
        dice: DiceSource | None,
        *,
        at: GameTime | None = None,
        seat: SeatId | None = None,
        expect_version: int | None = None,
    ) -> Table[S]:
        """Take ``action``: move the clock to ``at`` (if given), then let the game decide.

        ``seat`` is who takes it (checked against the seats; ``None`` for library use, with no
        check); ``expect_version`` the version the seat read. Raises :class:`StaleTableError`,
        :class:`ActionError`, :class:`SeatError`, :class:`RuleError` (the procedure, or ``at``
        in the past) and :class:`~referee.dice.DiceSourceError` (a script ran out); the table
        is unchanged then. ``dice=None`` is allowed for actions that roll nothing.
        """
        self._check_version(expect_version)
        if action.kind in (SEED_DICE, REVEAL_DICE):
            return self._act_on_dice(action, seat)
        if action.kind == ADVANCE:
            to = action.params.get("to", at) if isinstance(action.params, Mapping) else None
            if not isinstance(to, int) or isinstance(to, bool):
                raise ActionError(ADVANCE, ("to",), "a game time in seconds is needed")
            return self.advance(to, seat=seat)
        spec = self.spec(action.kind)
        params: JsonObject = action.params
        args: Any = None
        if spec is not None:
            args, params = spec.normalise(action.params)
        if seat is not None:
            self._permit(self.seat(seat), action.actor, spec)
        number = len(self.actions) + 1
        source = _Recording(dice if dice is not None else _NoDice())
        table = self if at is None else self._advance(at, cause=number)
        taken = Action(action.actor, action.kind, params, at=table.now, args=args)
        check_prompts(table.procedure, table.state, taken)
        state, events = table.procedure.apply(table.state, taken, source)
        table = table._record(events, cause=number, state=state)
        audience = (
            EVERYONE
            if spec is None or spec.record == "everyone"
            else only(*sorted({action.actor, *([seat] if seat else [])}))
        )
        record = ActionRecord(
            number=number,
            seat=seat,
            actor=action.actor,
            kind=action.kind,
            params=params,
            at=taken.at if taken.at is not None else table.now,
            asked_at=at,
            dice=tuple(source.rolled),
            events=(self.version + 1, table.version),
            audience=audience,
        )
        return table._with(actions=self.actions.append(record))

    def advance(self, to: GameTime, *, seat: SeatId | None = None) -> Table[S]:
        """Move game time to ``to``, firing the timers passed; recorded as an action.

        Only the referee's seat moves the clock in a game that has one.
        """
        if seat is not None:
            who = self.seat(seat)
            if self.procedure.has_referee and not who.is_referee:
                raise SeatError(f"only the referee moves the game clock, not seat {seat!r}")
        if to == self.clock.now:
            return self
        number = len(self.actions) + 1
        table = self._advance(to, cause=number)
        record = ActionRecord(
            number=number,
            seat=seat,
            actor=seat or REFEREE,
            kind=ADVANCE,
            params={"to": to},
            at=to,
            asked_at=to,
            dice=(),
            events=(self.version + 1, table.version),
        )
        return table._with(actions=self.actions.append(record))

    def undo(self, count: int = 1, *, seat: SeatId | None = None) -> Table[S]:
        """The table without its last ``count`` actions (a replay without their events).

        A seat may undo only if it is the referee's, or, in a game without a referee, if it
        took the action itself.
        """
        kept = self.undo_to(count, seat=seat)
        if count == 0:
            return self
        log = self.log.without_last(len(self.log) - kept)
        table = replace(
            self,
            state=self.procedure.initial_state(self.setup),
            log=Log(),
            clock=Clock(),
            ledger=DiceLedger(),
            actions=self.actions.without_last(count),
        )
        for event in log:
            table = table._fold(event)
        return replace(table, log=log)

    def undo_to(self, count: int = 1, *, seat: SeatId | None = None) -> int:
        """How many events an undo of the last ``count`` actions keeps, if ``seat`` may take
        it (else :class:`SeatError`; :class:`RuleError` if there are not that many): what a
        store checks before it rebuilds the table from a snapshot instead of from the start."""
        if count < 0:
            raise ValueError(f"cannot undo {count} actions")
        if seat is not None and self.procedure.has_referee and not self.seat(seat).is_referee:
            raise SeatError(f"seat {seat!r} may not undo: only the referee undoes actions")
        if count > len(self.actions):
            raise RuleError("Undo", f"there are only {len(self.actions)} actions to undo")
        if count == 0:
            return self.version
        last = [self.actions[-i] for i in range(1, count + 1)]
        if seat is not None:
            who = self.seat(seat)
            if not who.is_referee and (
                self.procedure.has_referee or any(r.seat != seat for r in last)
            ):
                raise SeatError(f"seat {seat!r} may not undo: only the referee undoes actions")
        return last[-1].events[0] - 1

    def _act_on_dice(self, action: Action, seat: SeatId | None) -> Table[S]:
        if seat is not None:
            who = self.seat(seat)
            if action.kind == REVEAL_DICE and self.procedure.has_referee and not who.is_referee:
                raise SeatError(f"only the referee reveals the dice seed, not seat {seat!r}")
        params = dict(action.params) if isinstance(action.params, Mapping) else {}
        events = kernel_dice_events(self, action.kind, params, seat)
        number = len(self.actions) + 1
        table = self._record(events, cause=number)
        record = ActionRecord(
            number=number,
            seat=seat,
            actor=seat or REFEREE,
            kind=action.kind,
            params=params,
            at=self.now,
            asked_at=None,
            dice=(),
            events=(self.version + 1, table.version),
        )
        return table._with(actions=self.actions.append(record))

    def _check_version(self, expect_version: int | None) -> None:
        if expect_version is not None and expect_version != self.version:
            raise StaleTableError(expect_version, self.version)

    def _permit(self, seat: Seat, actor: ActorId, spec: ActionSpec[Any] | None) -> None:
        if seat.is_referee:
            return
        if spec is not None and spec.who is Who.REFEREE:
            raise SeatError(f"only the referee may take {spec.kind!r} ({spec.section})")
        if not seat.may_play(actor):
            raise SeatError(f"seat {seat.id!r} does not play {actor!r}")

    def _advance(self, to: GameTime, cause: int) -> Table[S]:
        if to == self.clock.now:
            return self
        _, fired = self.clock.advance(to)
        table = self
        for event in fired:
            table = table._record((event,), at=event.at, cause=cause)
        advanced = Event(CLOCK_ADVANCED, {"to": to}, audience=EVERYONE)
        return table._record((advanced,), at=to, cause=cause)

    # -- the fold ---------------------------------------------------------------------------

    def _record(
        self,
        events: Iterable[Event],
        cause: int,
        at: GameTime | None = None,
        state: S | None = None,
    ) -> Table[S]:
        """The table with ``events`` stamped into the log and folded; ``state`` is the game's
        state after them when the procedure has folded them already (:meth:`Procedure.apply`),
        so they are folded once: only into the clock and the dice ledger here."""
        table = self
        for event in events:
            log = table.log.append_stamped(
                event, at=table.clock.now if at is None else at, cause=cause
            )
            table = table._fold(log[-1], log=log, folded=state is not None)
        return table if state is None else table._with(state=state)

    def _with(self, **changes: Any) -> Table[S]:
        """This table with some fields changed: a plain copy (``dataclasses.replace`` would run
        ``__init__`` again, which costs as much as a small game's whole step)."""
        copy: Table[S] = object.__new__(Table)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    def _fold(self, event: Event, *, folded: bool = False, **more: Any) -> Table[S]:
        """This table with ``event`` folded in (and ``more`` fields changed: the log, as an
        event is recorded, in the same copy); ``folded`` if the game's state has it already."""
        clock = self.clock
        if event.kind == TIMER_SET:
            payload = event.data
            after = payload.get("after")
            due = event.at + int(after) if isinstance(after, int) else int(payload["due"])  # type: ignore[arg-type]
            fire = Event.from_json(payload["event"])  # type: ignore[arg-type]
            clock = clock.set(Timer(str(payload["name"]), due, fire))
            return self._with(clock=clock, **more)
        if event.kind == TIMER_CANCELLED:
            return self._with(clock=clock.cancel(str(event.payload["name"])), **more)
        if event.kind == CLOCK_ADVANCED:
            to = int(event.payload["to"])  # type: ignore[arg-type]
            pending = tuple(t for t in clock.timers if t.due > to)
            return self._with(clock=Clock(now=max(to, clock.now), timers=pending), **more)
        state = self.state if folded else self.procedure.evolve(self.state, event)
        if event.at > clock.now:
            clock = replace(clock, now=event.at)
        if event.kind in DICE_EVENTS:
            return self._with(state=state, clock=clock, ledger=self.ledger.fold(event), **more)
        return self._with(state=state, clock=clock, **more)

    # -- the record -------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The whole table as JSON: system, setup, seats, start, actions and events.

        It holds every secret: only the referee's seat (and the store) may have it.
        """
        return {
            "format": RECORD_FORMAT,
            "system": self.system,
            "setup": to_json(self.setup),
            "seats": [seat.to_json() for seat in self.seats],
            "start": self.start_time,
            "version": self.version,
            "actions": [record.to_json() for record in self.actions],
            "events": self.log.to_json(),
        }

    @classmethod
    def from_record(cls, data: Any, procedure: Procedure[S]) -> Table[S]:
        """The table a record holds, re-decided action by action with the recorded dice.

        :class:`ScenarioError` (with the path in the record) for a malformed record, and for
        one whose events are not what its actions produce, naming the first event that differs.
        """
        from referee.core.record import parse_record

        record = parse_record(data)
        try:
            preamble = []
            for first in record.events:
                if first.cause != 0 or first.kind != DICE_COMMITTED:
                    break
                preamble.append(replace(Event.from_json(first.model_dump()), number=0, at=0))
            table = cls.start(
                procedure,
                record.setup,
                system=record.system,
                seats=[Seat(s.id, tuple(s.plays)) for s in record.seats],
                start=record.start,
                preamble=preamble,
            )
        except ScenarioError as error:
            raise ScenarioError(error.reason, ("setup", *error.path)) from None
        except RefereeError as error:
            raise ScenarioError(f"the game could not set up: {error}", ("setup",)) from None
        recorded = [Event.from_json(e.model_dump()) for e in record.events]
        _same_events(recorded, table.log, 0, "the start of play")
        for index, entry in enumerate(record.actions):
            saved = ActionRecord.from_json(entry.model_dump())
            if saved.number != index + 1:
                raise ScenarioError(
                    f"action {index + 1} is numbered {saved.number}", ("actions", index, "number")
                )
            before = table.version
            dice = _Replaying(saved.dice, _salts(recorded, saved.events))
            try:
                if saved.kind == ADVANCE:
                    to = int(saved.params.get("to", -1))  # type: ignore[arg-type]
                    table = table.advance(to, seat=saved.seat)
                elif saved.kind in (SEED_DICE, REVEAL_DICE):
                    action = Action(saved.actor, saved.kind, dict(saved.params))
                    table = table.act(action, None, seat=saved.seat)
                else:
                    action = Action(saved.actor, saved.kind, dict(saved.params))
                    table = table.act(action, dice, at=saved.asked_at, seat=saved.seat)
            except RefereeError as error:
                raise ScenarioError(
                    f"action {saved.number} ({saved.kind}) is refused on replay: {error}",
                    ("actions", index),
                ) from None
            if dice.used != len(saved.dice):
                raise ScenarioError(
                    f"action {saved.number} ({saved.kind}) rolled {dice.used} dice on replay, "
                    f"but {len(saved.dice)} are recorded",
                    ("actions", index, "dice"),
                )
            _same_events(recorded, table.log, before, f"action {saved.number} ({saved.kind})")
            replayed = table.actions[-1] if table.actions else None
            if replayed is None or replayed.to_json() != saved.to_json():
                raise ScenarioError(
                    f"action {saved.number} ({saved.kind}) is recorded differently from how it "
                    "replays (seat, time, dice or events)",
                    ("actions", index),
                )
        if len(recorded) != table.version:
            raise ScenarioError(
                f"the record holds {len(recorded)} events, but its actions produce {table.version}",
                ("events", table.version),
            )
        if record.version is not None and record.version != table.version:
            raise ScenarioError(
                f"the record says version {record.version}, but it holds {table.version} events",
                ("version",),
            )
        return table


def _salts(recorded: Sequence[Event], span: tuple[int, int]) -> list[bytes]:
    """The salts of the choices sealed by the events ``span`` (first, last) of a record."""
    out: list[bytes] = []
    for event in recorded[span[0] - 1 : span[1]]:
        for part in event.secrets:
            if part.name == SALT:
                try:
                    out.append(bytes.fromhex(str(part.value)))
                except ValueError:
                    out.append(b"")
    return out


def _same_events(recorded: Sequence[Event], log: Log, before: int, cause: str) -> None:
    for number in range(before + 1, len(log) + 1):
        produced = log[number - 1]
        if number > len(recorded):
            raise ScenarioError(
                f"{cause} produces event {number} ({produced.kind}), which the record lacks",
                ("events",),
            )
        if recorded[number - 1] != produced:
            raise ScenarioError(
                f"event {number} ({recorded[number - 1].kind}) is not what {cause} produces "
                f"({produced.kind}): the record was altered or is corrupt",
                ("events", number - 1),
            )


# ------------------------------------------------------------------------------- observe


@dataclass(frozen=True)
class Observation:
    """Everything one viewer may know of a table (see :func:`observe`)."""

    system: str
    viewer: Viewer
    version: int
    since: int
    now: GameTime
    start: str
    events: tuple[Event, ...]
    narration: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]
    state: JsonObject | None
    choices: tuple[Choice, ...]
    to_move: tuple[ActorId, ...]
    previews: tuple[Any, ...]
    seat: Seat | None = None
    prompts: tuple[Prompt, ...] = ()
    result: Result | None = None
    conflict: Result | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: what a seat's screen, a handout or a response is built from."""
        return {
            "system": self.system,
            "viewer": self.viewer.id,
            "plays": sorted(self.viewer.characters),
            "version": self.version,
            "since": self.since,
            "now": self.now,
            "start": self.start,
            "events": [
                {**event.to_json(), "text": text}
                for event, text in zip(self.events, self.narration, strict=True)
            ],
            "actions": list(self.actions),
            "state": to_json(self.state),
            "choices": [choice.to_json() for choice in self.choices],
            "to_move": list(self.to_move),
            "previews": [p.to_json() for p in self.previews],
            "prompts": [p.to_json() for p in self.prompts],
            "result": {
                **(self.result or Result("the game")).to_json(),
                "conflict": None if self.conflict is None else self.conflict.to_json(),
            },
        }


def narrate(table: Table[Any], event: Event, viewer: Viewer) -> str:
    """An event in words for ``viewer``: the kernel's own kinds (the clock, timers) here, the
    game's through its ``describe``. ``event`` must already be redacted for ``viewer``."""
    from referee.core.clock import describe_timer

    data = event.data
    if event.kind in (CLOCK_ADVANCED, TIMER_CANCELLED, TIMER_SET):
        return describe_timer(event.kind, data, table.start_time, at=event.at)
    if event.kind == DICE_COMMITTED:
        return (
            f"The dice are sealed: every face of epoch {data['epoch']} comes from a seed whose "
            f"SHA-256 is {str(data['commitment'])[:16]}…"
        )
    if event.kind == SEAT_SEEDED:
        return f"{data['seat']} mixes a seed of their own into the dice."
    if event.kind == DICE_REVEALED:
        return (
            f"The dice seed of epoch {data['epoch']} is revealed: every face rolled with it can "
            "now be checked ('referee verify')."
        )
    return table.procedure.describe(event, viewer)


def _may_choose(table: Table[Any], seat_viewer: Viewer, choice: Choice) -> bool:
    spec = table.spec(choice.kind) if choice.kind in table.procedure.catalogue else None
    if seat_viewer.is_referee:
        return True
    if spec is not None and spec.who is Who.REFEREE:
        return False
    return choice.actor in seat_viewer.identities


def _actions_since(actions: Chain[ActionRecord], since: int) -> list[ActionRecord]:
    """The action records with an event after ``since``, in order. Read from the newest back
    (each record's last event number never decreases), so a table's old actions are not read."""
    found: list[ActionRecord] = []
    for index in range(len(actions) - 1, -1, -1):
        record = actions[index]
        if max(record.events) <= since:
            break
        found.append(record)
    found.reverse()
    return found


def observe(table: Table[Any], who: Seat | Viewer | SeatId, since: int = 0) -> Observation:
    """Everything ``who`` may know of ``table``: the one read path of every interface.

    The events they may see numbered after ``since`` (redacted, each narrated by the game's
    ``describe``), the action records they may see that caused them, the state as they may see
    it, the choices open to them now (for the actors they play; the referee for everyone),
    whose move it is, and the odds previews they may see.
    """
    viewer = table.viewer(who)
    seat = next((s for s in table.seats if s.id == viewer.id), None)
    events = view(table.log.since(since), viewer)
    narration = tuple(narrate(table, event, viewer) for event in events)
    records = tuple(
        seen
        for record in _actions_since(table.actions, since)
        for seen in (record.seen_by(viewer),)
        if seen is not None
    )
    state = table.procedure.visible_state(table.state, viewer)
    to_move = whose_move(table.procedure, table.state)
    if viewer.is_referee:
        actors: Sequence[ActorId] = tuple(dict.fromkeys((*to_move, REFEREE)))
    else:
        actors = tuple(a for a in to_move if a in viewer.identities)
    prompts = prompts_seen_by(table.procedure, table.state, viewer)
    answering = [p.actor for p in prompts if p.actor in viewer.identities or viewer.is_referee]
    actors = tuple(dict.fromkeys((*(a for a in answering if a in actors), *actors)))
    choices = tuple(
        choice
        for actor in actors
        for choice in open_choices(table.procedure, table.state, actor)
        if _may_choose(table, viewer, choice)
    )
    return Observation(
        system=table.system,
        viewer=viewer,
        version=table.version,
        since=since,
        now=table.now,
        start=table.start_time,
        events=events,
        narration=narration,
        actions=records,
        state=state,
        choices=choices,
        to_move=to_move,
        previews=tuple(table.procedure.previews(table.state, viewer)),
        seat=seat,
        prompts=prompts,
        result=table.procedure.result(table.state),
        conflict=table.procedure.conflict(table.state),
    )


def preview(table: Table[Any], who: Seat | Viewer | SeatId, action: Action) -> tuple[Any, ...]:
    """The odds previews (:class:`~referee.core.cards.OddsPreview`) of the checks ``action``
    would roll now, as ``who`` may see them: the odds a form shows before it is sent.

    The parameters are parsed as :meth:`Table.act` parses them (:class:`ActionError`), and the
    seat must be one that may take the action (:class:`SeatError`); nothing is rolled and the
    table is unchanged. A seat that may not take it learns nothing of its odds.
    """
    viewer = table.viewer(who)
    spec = table.spec(action.kind)
    params: JsonObject = action.params
    args: Any = None
    if spec is not None:
        args, params = spec.normalise(action.params)
    seat = next((s for s in table.seats if s.id == viewer.id), None)
    if seat is not None:
        table._permit(seat, action.actor, spec)
    taken = Action(action.actor, action.kind, params, at=table.now, args=args)
    try:
        return tuple(table.procedure.odds_of(table.state, taken, viewer))
    except RuleError:  # the rules would refuse it: it has no odds
        return ()
