"""A table in play: a procedure's state, its log, its clock, its seats and the actions taken.

DESIGN.md, "The table contract". A :class:`Table` is immutable; each step returns a new one.

- **Seats** (:mod:`referee.core.seats`). A :class:`Seat` is a player and the characters or
  factions they play; the seat ``"referee"`` (where the game has one) sees everything and may
  act for anyone.
- **Actions recorded.** :meth:`Table.act` parses the action's parameters with its spec
  (:class:`~referee.core.errors.ActionError` if malformed), checks that the seat may take it
  (:class:`~referee.core.errors.SeatError`), lets the game decide, and records an
  :class:`ActionRecord` (:mod:`referee.core.recording`): who did what, with which parameters,
  which dice, and which events it caused (every event names its cause). ``expect_version=``
  refuses a stale table (:class:`~referee.core.errors.StaleTableError`). :meth:`Table.undo`
  takes the last action back.
- **A record.** :meth:`Table.to_record` is the whole table as JSON; :meth:`Table.from_record`
  reads one back and re-decides every action with its recorded dice, refusing a record whose
  events are not what its actions produce (:mod:`referee.core.record`).
- **One read path.** :func:`observe` is everything one viewer may know
  (:mod:`referee.core.observe`).

Every name of the table contract is importable from here, wherever it is defined.

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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from referee.core.actions import ActionSpec, Choice
from referee.core.clock import (
    ADVANCE,
    CLOCK_ADVANCED,
    TIMER_CANCELLED,
    TIMER_SET,
    Clock,
    GameTime,
    Timer,
)
from referee.core.errors import ActionError, RuleError, SeatError, StaleTableError
from referee.core.events import (
    EVERYONE,
    REFEREE,
    Event,
    Log,
    Viewer,
    ViewerId,
    as_viewer,
    only,
    view,
)
from referee.core.fairness import (
    DICE_EVENTS,
    REVEAL_DICE,
    SEED_DICE,
    DiceLedger,
    DiceSeeds,
    kernel_dice_events,
)
from referee.core.observe import Observation, narrate, observe, preview
from referee.core.procedures import Action, ActorId, Procedure
from referee.core.prompts import Prompt, Result, check_prompts, open_choices, whose_move
from referee.core.record import RECORD_FORMAT, replay_record
from referee.core.recording import ActionList, ActionRecord, NoDice, RecordingDice, ReplayingDice
from referee.core.remembered import Remembered
from referee.core.seats import Seat, SeatId, permit, seats_from
from referee.core.values import JsonObject, to_json
from referee.dice import DiceSource

__all__ = [
    "ADVANCE",
    "RECORD_FORMAT",
    "ActionList",
    "ActionRecord",
    "Observation",
    "Seat",
    "SeatId",
    "Table",
    "narrate",
    "observe",
    "preview",
    "seats_from",
]

S = TypeVar("S")

_CLOCK_OR_LEDGER = frozenset({TIMER_SET, TIMER_CANCELLED, CLOCK_ADVANCED}) | DICE_EVENTS
"""The kinds of event that change the table's clock or dice ledger when folded."""

# The dice sources an action is taken with, under the names they had when they lived here.
_Recording = RecordingDice
_Replaying = ReplayingDice
_NoDice = NoDice


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
    actions: ActionList[ActionRecord] = field(default_factory=ActionList)
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
        ``preamble``: kernel events to log first (a record's commitment, on replay); ``start``:
        the wall clock at game time 0, unless the game's setup sets its own
        (:meth:`~referee.core.procedures.Procedure.start_time`), which wins.
        """
        state = procedure.initial_state(setup)
        if seats is None:
            seats = seats_from(procedure, state, players)
        start = procedure.start_time(state) or start  # the game's own start, where it sets one
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

    @property
    def remembered(self) -> Remembered[S]:
        """The procedure's answers about this table's state, each asked once and shared by
        every seat that observes it (:class:`~referee.core.remembered.Remembered`).

        Kept beside the table's fields, for as long as the state is this one: a copy of the
        table with another state asks afresh."""
        found: Remembered[S] | None = self.__dict__.get("_remembered")
        if found is None or found.state is not self.state or found.procedure is not self.procedure:
            found = Remembered(self.procedure, self.state)
            self.__dict__["_remembered"] = found  # beside the frozen fields, not one of them
        return found

    def legal_actions(self, actor: ActorId) -> Sequence[Choice]:
        """The choices open to ``actor`` now: the procedure's, its prompts taken into account
        (:func:`~referee.core.prompts.open_choices`)."""
        return open_choices(self.remembered, self.state, actor)

    def prompts(self) -> tuple[Prompt, ...]:
        """The decisions the table waits for now (the procedure's prompts)."""
        return tuple(self.remembered.prompts(self.state))

    def to_move(self) -> tuple[ActorId, ...]:
        """Who may act now (:func:`~referee.core.prompts.whose_move`)."""
        return whose_move(self.remembered, self.state)

    def result(self) -> Result:
        """Whether the game is over and who won (the procedure's answer)."""
        return self.remembered.result(self.state)

    def conflict(self) -> Result | None:
        """The current or last conflict, whether it is over and who won (the procedure's)."""
        return self.remembered.conflict(self.state)

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
            permit(self.seat(seat), action.actor, spec)
        number = len(self.actions) + 1
        source = RecordingDice(dice if dice is not None else NoDice())
        table = self if at is None else self._advance(at, cause=number)
        taken = Action(action.actor, action.kind, params, at=table.now, args=args)
        check_prompts(table.remembered, table.state, taken)  # as the seats were shown them
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
        if state is not None and at is None:
            events = tuple(events)
            if not any(e.kind in _CLOCK_OR_LEDGER for e in events):
                return self._stamped(events, cause, state)
        table = self
        for event in events:
            log = table.log.append_stamped(
                event, at=table.clock.now if at is None else at, cause=cause
            )
            table = table._fold(log[-1], log=log, folded=state is not None)
        return table if state is None else table._with(state=state)

    def _stamped(self, events: tuple[Event, ...], cause: int, state: S) -> Table[S]:
        """The table with the events of an action the game decided, and folded already, stamped
        into the log at the time now, in one copy of the table: none of them sets a timer,
        moves the clock or touches the dice ledger (:data:`_CLOCK_OR_LEDGER`), so stamped at
        the time now none moves the clock either, and the state is the game's."""
        now, log = self.clock.now, self.log
        for event in events:
            log = log.append_stamped(event, at=now, cause=cause)
        return self._with(log=log, state=state)

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
        one whose events are not what its actions produce, naming the first event that differs
        (:func:`referee.core.record.replay_record`).
        """
        return replay_record(cls, data, procedure)
