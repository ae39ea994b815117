"""One read path at any age and for any number of seats (docs/kernel.md, "One read path:
observe"; issue 29): what depends on the state alone — whose move it is, the prompts, each
actor's choices, the waits, the result — is asked of the game once per state, whichever seats
observe it, and an observation since a version reads only the events after it. Work is counted,
never timed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from referee.core import (
    Action,
    ActionSpec,
    Catalogue,
    Choice,
    Event,
    NoParams,
    Procedure,
    Prompt,
    Table,
    observe,
)
from referee.core.events import Log
from referee.core.prompts import Result, Waiting

SIX = ("ann", "bob", "cat", "dan", "eve", "fay")


class _Asked(Procedure[int]):
    """Six fencers lunge in turn; the state is the number of lunges. Counts what it is asked."""

    catalogue = Catalogue([ActionSpec("lunge", NoParams, section="Lunge", record="everyone")])

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        return 0

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        self.asked[f"legal_actions {actor}"] += 1
        return (Choice(actor, "lunge"),) if actor == SIX[state % 6] else ()

    def decide(self, state: int, action: Action, dice: Any) -> Sequence[Event]:
        return (Event("lunged", {"by": action.actor}),)

    def evolve(self, state: int, event: Event) -> int:
        return state + 1 if event.kind == "lunged" else state

    def actors(self, state: int) -> Sequence[str]:
        self.asked["actors"] += 1
        return (SIX[state % 6],)

    def characters(self, state: int) -> Sequence[str]:
        return SIX

    def prompts(self, state: int) -> Sequence[Prompt]:
        self.asked["prompts"] += 1
        return ()

    def waiting(self, state: int, actor: str) -> Waiting | None:
        self.asked[f"waiting {actor}"] += 1
        return None

    def result(self, state: int) -> Result:
        self.asked["result"] += 1
        return Result("the bout")

    def conflict(self, state: int) -> Result | None:
        self.asked["conflict"] += 1
        return None


def _six_seats() -> tuple[_Asked, Table[int]]:
    procedure = _Asked()
    table = Table.start(procedure, {}, players={name: [name] for name in SIX})
    return procedure, table


def test_six_seats_ask_the_game_each_question_once_per_state() -> None:
    """Whose move it is, the prompts, an actor's choices and waits, the result and the conflict
    are the game's answers about the state: six seats (and the referee) observing one table ask
    each of them once, not once per seat (issue 29: a game recomputed its actors' choices for
    every seat)."""
    procedure, table = _six_seats()
    seen = [observe(table, seat.id) for seat in table.seats]
    assert len(seen) == 7
    assert seen[1].choices == (Choice("ann", "lunge"),)  # ann's seat: her lunge is open
    assert all(not o.choices for o in seen[2:])
    assert max(procedure.asked.values()) == 1, procedure.asked
    assert procedure.asked["actors"] == 1
    assert procedure.asked["prompts"] == 1


def test_a_new_state_is_asked_afresh() -> None:
    """Remembered answers belong to one state: after an action the next seat's observation is
    the new state's (bob to lunge), asked once more for all seats."""
    procedure, table = _six_seats()
    for seat in table.seats:
        observe(table, seat.id)
    after = table.act(Action("ann", "lunge"), None, seat="ann")
    seen = {seat.id: observe(after, seat.id) for seat in after.seats}
    assert seen["bob"].choices == (Choice("bob", "lunge"),)
    assert not seen["ann"].choices
    assert after.to_move() == ("bob",)
    assert procedure.asked["actors"] == 2


class _InPlainSight(_Asked):
    """The same bout, shown to every seat in plain sight: its players see alike."""

    players_see_alike = True

    def visible_state(self, state: int, viewer: Any) -> dict[str, Any]:
        self.asked["visible_state"] += 1
        return {"lunges": state, "order": SIX}


def test_a_state_players_see_alike_is_shown_from_one_copy() -> None:
    """A game whose players see alike (``players_see_alike``) is asked for the state once for
    the players and once for the referee, and every player's observation holds the same copy,
    written as JSON once."""
    procedure = _InPlainSight()
    table = Table.start(procedure, {}, players={name: [name] for name in SIX})
    shown = [observe(table, seat.id).to_json()["state"] for seat in table.seats]
    assert procedure.asked["visible_state"] == 2
    assert shown[1] == {"lunges": 0, "order": list(SIX)}
    assert all(s is shown[1] for s in shown[2:])


def _old_table(events: int) -> Table[int]:
    """A six-seat table of ``events`` lunges, replayed from its log (nothing decided)."""
    procedure = _Asked()
    log = Log().append(*(Event("lunged", {"by": SIX[i % 6]}) for i in range(events)))
    return Table.replay(procedure, {}, log)


def test_observing_since_a_version_reads_only_the_events_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``observe(since=v)``: the events numbered after ``v``, and only those are looked at — on
    a 10,000-event table, the last three events are redacted and narrated for each viewer, not
    the whole log (what a push costs does not grow with the table's age)."""
    table = _old_table(10_000)
    looked: list[int] = []
    narrated: list[int] = []
    seen_by, describe = Event.seen_by, _Asked.describe

    def counted_seen_by(event: Event, viewer: Any) -> Event | None:
        looked.append(event.number)
        return seen_by(event, viewer)

    def counted_describe(procedure: _Asked, event: Event, viewer: Any) -> str:
        narrated.append(event.number)
        return describe(procedure, event, viewer)

    monkeypatch.setattr(Event, "seen_by", counted_seen_by)
    monkeypatch.setattr(_Asked, "describe", counted_describe)
    for who in SIX:
        seen = observe(table, who, since=9_997)
        assert [e.number for e in seen.events] == [9_998, 9_999, 10_000]
    assert sorted(looked) == sorted(narrated) == sorted([9_998, 9_999, 10_000] * 6)
