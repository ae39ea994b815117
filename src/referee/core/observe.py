"""The one read path: everything one seat or viewer may know of a table (DESIGN.md, "The table
contract"; docs/kernel.md).

:func:`observe` gives an :class:`Observation`: the events after a version the viewer may see,
redacted and narrated (:func:`narrate`), the action records they may see, the state as the game
shows it to them, the choices open to them, whose move it is, the prompts they may know of, the
odds previews and the result. :func:`preview` gives the odds of an action before it is sent.
The server's answers, the pages, the handouts and ``referee table show`` are built from these.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.actions import Choice, Who
from referee.core.clock import (
    CLOCK_ADVANCED,
    TIMER_CANCELLED,
    TIMER_SET,
    GameTime,
    describe_timer,
)
from referee.core.errors import RuleError
from referee.core.events import REFEREE, Event, Viewer, view
from referee.core.fairness import DICE_COMMITTED, DICE_REVEALED, SEAT_SEEDED
from referee.core.procedures import Action, ActorId
from referee.core.prompts import (
    Prompt,
    Result,
    Waiting,
    open_choices,
    prompts_seen_by,
    waits_of,
    whose_move,
    whose_move_seen_by,
)
from referee.core.recording import ActionList, ActionRecord
from referee.core.seats import Seat, SeatId, permit
from referee.core.values import JsonObject, to_json

if TYPE_CHECKING:
    from referee.core.table import Table

__all__ = ["Observation", "narrate", "observe", "preview", "seen_between", "seen_since"]


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
    waiting: tuple[Waiting, ...] = ()

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
            "events": _events_json(self.events, self.narration),
            "actions": list(self.actions),
            "state": to_json(self.state),
            "choices": [choice.to_json() for choice in self.choices],
            "to_move": list(self.to_move),
            "previews": [p.to_json() for p in self.previews],
            "prompts": [p.to_json() for p in self.prompts],
            "waiting": [w.to_json() for w in self.waiting],
            "result": {
                **(self.result or Result("the game")).to_json(),
                "conflict": None if self.conflict is None else self.conflict.to_json(),
            },
        }


def narrate(table: Table[Any], event: Event, viewer: Viewer) -> str:
    """An event in words for ``viewer``: the kernel's own kinds (the clock, timers) here, the
    game's through its ``describe``. ``event`` must already be redacted for ``viewer``."""
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


def _actions_since(actions: ActionList[ActionRecord], since: int) -> list[ActionRecord]:
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


def _events_json(
    events: Sequence[Event],
    narration: Sequence[str],
    written: Callable[[Event], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    write = Event.to_json if written is None else written
    return [{**write(event), "text": text} for event, text in zip(events, narration, strict=True)]


def _last_event(record: ActionRecord) -> int:
    return max(record.events)


def seen_between(
    table: Table[Any], who: Seat | Viewer | SeatId, after: int, upto: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A stretch of what :func:`observe` gives ``who``, as its ``to_json`` writes it: the events
    numbered after ``after`` up to ``upto`` that they may see, narrated, and the action records
    they may see whose last event is numbered in that stretch. Only that stretch of the log and
    of the actions is read (the actions found by bisection: each record's last event number
    never decreases), so an old part of a table's log costs what it holds, at any age.

    ``observe(table, who, since=a)``'s events and records are those of ``seen_between(table,
    who, a, b)`` then ``seen_between(table, who, b, table.version)``, bar a last record that
    caused no event (numbered after the version: ``observe`` has it)."""
    viewer = table.viewer(who)
    events = view(table.log[after:upto], viewer)
    narration = [narrate(table, event, viewer) for event in events]
    actions = table.actions
    first = bisect.bisect_right(actions, after, key=_last_event)
    last = bisect.bisect_right(actions, upto, key=_last_event)
    records = [
        seen
        for index in range(first, last)
        for seen in (actions[index].seen_by(viewer),)
        if seen is not None
    ]
    return _events_json(events, narration), records


def seen_since(
    table: Table[Any],
    who: Seat | Viewer | SeatId,
    since: int,
    written: Callable[[Event], dict[str, Any]] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The log's part of what :func:`observe` gives ``who`` since ``since``, as its ``to_json``
    writes it: the events they may see numbered after ``since``, narrated, and the action
    records they may see that caused them (``observe(table, who, since).to_json()``'s
    ``events`` and ``actions``, to the byte). Nothing of the state is asked: a seat whose view
    of the state is known not to have changed needs only this of a change (issue 29).

    ``written``: what gives an event's :meth:`Event.to_json` (``None``: that method itself):
    an event every seat sees unredacted is the same object for each, so its JSON may be
    written once for them all (shared then, so not to be changed)."""
    viewer = table.viewer(who)
    events = view(table.log.since(since), viewer)
    narration = [narrate(table, event, viewer) for event in events]
    records = [
        seen
        for record in _actions_since(table.actions, since)
        for seen in (record.seen_by(viewer),)
        if seen is not None
    ]
    return _events_json(events, narration, written), records


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
    # what depends on the state alone is asked once and shared by every seat (issue 29)
    procedure, state = table.remembered, table.state
    visible = procedure.visible_state(state, viewer)
    to_move = whose_move(procedure, state)
    if viewer.is_referee:
        actors: Sequence[ActorId] = tuple(dict.fromkeys((*to_move, REFEREE)))
    else:
        actors = tuple(a for a in to_move if a in viewer.identities)
    prompts = prompts_seen_by(procedure, state, viewer)
    answering = [p.actor for p in prompts if p.actor in viewer.identities or viewer.is_referee]
    actors = tuple(dict.fromkeys((*(a for a in answering if a in actors), *actors)))
    choices = tuple(
        choice
        for actor in actors
        for choice in open_choices(procedure, state, actor)
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
        state=visible,
        choices=choices,
        to_move=whose_move_seen_by(procedure, state, viewer),
        previews=tuple(procedure.previews(state, viewer)),
        seat=seat,
        prompts=prompts,
        result=procedure.result(state),
        conflict=procedure.conflict(state),
        waiting=waits_of(
            procedure,
            state,
            viewer,
            prompts,
            tuple(dict.fromkeys(c.actor for c in choices)),
        ),
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
        permit(seat, action.actor, spec)
    taken = Action(action.actor, action.kind, params, at=table.now, args=args)
    try:
        return tuple(table.procedure.odds_of(table.state, taken, viewer))
    except RuleError:  # the rules would refuse it: it has no odds
        return ()
