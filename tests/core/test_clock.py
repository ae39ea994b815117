"""Clock (docs/kernel.md, "Clock"): game time and wall-clock times, who moves the clock and how
the move is recorded, and timers."""

from __future__ import annotations

import pytest

from referee.core import (
    HOUR,
    MINUTE,
    REFEREE,
    REFEREE_ONLY,
    Action,
    ActionError,
    Clock,
    Event,
    RuleError,
    SeatError,
    Table,
    Timer,
    clock_time,
    format_time,
    observe,
    parse_duration,
    set_timer,
)
from referee.core.clock import cancel_timer

from .helpers import _Hushed, _NoReferee
from .test_table import PLAYERS, SETUP, new_table
from .toy_procedure import PROCEDURE


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("15m", 900), ("5m", 300), ("1h30m", 5400), ("90s", 90), ("2d", 172800), ("1d2h3m4s", 93784)],
)
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "15", "m", "1x", "15 minutes"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


def test_clock_times() -> None:
    assert clock_time("21:00", "19:00") == 2 * HOUR
    assert clock_time("19:00", "19:00") == 0
    assert clock_time("00:30", "23:00") == 90 * MINUTE
    assert format_time(2 * HOUR, "19:00") == "21:00"
    with pytest.raises(ValueError):
        clock_time("9 o'clock")


def test_timers_fire_in_due_order_when_passed() -> None:
    clock = (
        Clock()
        .set(Timer("b", 10 * MINUTE, Event("b")))
        .set(Timer("a", 5 * MINUTE, Event("a")))
        .set(Timer("c", 10 * MINUTE, Event("c")))
        .set(Timer("late", HOUR, Event("late")))
    )
    clock, fired = clock.advance(10 * MINUTE)
    assert [(e.kind, e.at) for e in fired] == [("a", 300), ("b", 600), ("c", 600)]
    assert [t.name for t in clock.timers] == ["late"]
    assert clock.advance(10 * MINUTE)[1] == ()
    with pytest.raises(RuleError, match="cannot go back"):
        clock.advance(0)


def test_a_timer_of_the_same_name_replaces_the_old_one_and_can_be_cancelled() -> None:
    clock = Clock().set(Timer("x", 100, Event("one"))).set(Timer("x", 200, Event("two")))
    assert [t.event.kind for t in clock.timers] == ["two"]
    assert clock.cancel("x").timers == ()


def test_set_timer_takes_after_or_at() -> None:
    with pytest.raises(ValueError):
        set_timer("x", Event("e"))
    with pytest.raises(ValueError):
        set_timer("x", Event("e"), after=1, at=2)
    assert set_timer("x", Event("e"), at=60).payload == {"name": "x", "due": 60}


# -- the clock in words (issue 26) --------------------------------------------------------


def test_a_time_of_day_says_when_it_wraps_past_midnight() -> None:
    from referee.core.clock import time_of_day

    assert time_of_day(2 * 3600, "19:00") == "21:00"
    assert time_of_day(2 * 3600, "23:30") == "01:30 the next day"
    assert time_of_day(2 * 86400, "00:00") == "00:00, 2 days later"


def test_a_timer_is_told_by_its_label_and_time_never_its_name() -> None:
    from referee.core.clock import (
        CLOCK_ADVANCED,
        TIMER_CANCELLED,
        TIMER_SET,
        cancel_timer,
        describe_timer,
        set_timer,
    )
    from referee.core.events import Event

    timer = set_timer(
        "perception:scarface:krockin",
        Event("perception.ready"),
        after=15 * 60,
        label="ScarFace may perceive Krockin again",
    )
    words = describe_timer(TIMER_SET, timer.payload, "21:00", at=0)
    assert words == "ScarFace may perceive Krockin again at 21:15."
    at_twelve = set_timer("contingency:12", Event("x"), at=7200, label="Envelope #12 may be opened")
    assert describe_timer(TIMER_SET, at_twelve.payload, "19:00") == (
        "Envelope #12 may be opened at 21:00."
    )
    unlabelled = set_timer("wake:krockin", Event("x"), after=300)
    assert describe_timer(TIMER_SET, unlabelled.payload, "21:00", at=600) == (
        "Something is due at 21:15."
    )
    assert "wake:" not in describe_timer(TIMER_CANCELLED, cancel_timer("wake:krockin").payload)
    cancelled = cancel_timer("wake:krockin", label="Krockin wakes").payload
    assert describe_timer(TIMER_CANCELLED, cancelled) == "No longer due: Krockin wakes."
    assert describe_timer(CLOCK_ADVANCED, {"to": 3600}, "23:30") == (
        "The clock moves on to 00:30 the next day."
    )


# -- wall-clock times ----------------------------------------------------------------------------


def test_a_time_of_day_runs_from_00_00_to_23_59_59() -> None:
    """A scenario's wall-clock times (docs/kernel.md, "Clock"): hours 0 to 23, minutes and
    seconds 0 to 59, each counted."""
    from referee.core.clock import clock_time

    assert clock_time("23:59:59") == 23 * 3600 + 59 * 60 + 59
    assert clock_time("12:59") == 12 * 3600 + 59 * 60
    assert clock_time("00:00:59") == 59
    assert clock_time("21:00:30", start="21:00") == 30
    for bad in ("24:00", "25:00", "99:59"):
        with pytest.raises(ValueError, match="is not a time of day"):
            clock_time(bad)


def test_play_starts_at_midnight_unless_told() -> None:
    from referee.core.clock import clock_time, format_time

    assert clock_time("01:00") == 3600
    assert format_time(3600) == "01:00"


def test_a_wall_clock_time_shows_its_seconds_only_when_there_are_some() -> None:
    from referee.core.clock import format_time

    assert format_time(7230, start="19:00") == "21:00:30"
    assert format_time(7200, start="19:00") == "21:00"


def test_the_clocks_move_is_narrated_on_the_tables_own_wall_clock() -> None:
    """Clock (docs/kernel.md): game time is seconds since the start of play, shown on the
    table's wall clock — fifteen minutes into an evening that starts at 19:00 is 19:15."""
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, start="19:00"
    ).advance(15 * 60)
    seen = observe(table, "alice", since=table.version - 1)
    assert seen.narration == ("The clock moves on to 19:15.",)


# -- who moves the clock, and how it is recorded -------------------------------------------------


def test_the_referee_seat_moves_the_clock_and_the_record_names_it() -> None:
    """Only the referee's seat moves the game clock in a game that has one — and it does; the
    action record names the seat, the actor and the events the move made."""
    table = new_table()
    moved = table.advance(table.now + 60, seat=REFEREE)
    assert moved.now == table.now + 60
    record = moved.actions[-1]
    assert (record.seat, record.actor) == (REFEREE, REFEREE)
    assert record.events == (table.version + 1, moved.version)


def test_the_referee_moves_the_clock_by_an_advance_action_recorded_as_theirs() -> None:
    """Game time (docs/kernel.md, "The clock"): an *advance* action moves the clock to its
    ``to``, or to the ``at`` it is taken at when it names none; it is recorded as an action of
    the seat that took it."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    moved = table.act(Action(REFEREE, "advance", {"to": 60}), None, seat=REFEREE)
    assert moved.now == 60
    [record] = moved.actions
    assert (record.kind, record.seat, record.params, record.at) == (
        "advance",
        REFEREE,
        {"to": 60},
        60,
    )
    by_at = table.act(Action(REFEREE, "advance", {}), None, at=90)
    assert by_at.now == 90
    assert by_at.actions[-1].params == {"to": 90}


def test_an_advance_needs_a_time_in_seconds_and_only_the_referee_takes_it() -> None:
    """An *advance* without a time, with a time that is not a number of seconds (a flag, a
    text, a list of parameters), or taken by a player's seat in a game with a referee, is
    refused; the table is unchanged."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    for params in ({}, {"to": True}, {"to": "60"}, [60]):
        with pytest.raises(ActionError, match="a game time in seconds is needed"):
            table.act(Action(REFEREE, "advance", params), None)  # type: ignore[arg-type]
    with pytest.raises(SeatError, match="only the referee moves the game clock, not seat 'alice'"):
        table.act(Action("scarface", "advance", {"to": 60}), None, seat="alice")
    assert table.now == 0 and len(table.actions) == 0


def test_a_clock_move_is_recorded_as_the_referees_action_asked_for_the_time_it_moves_to() -> None:
    """Moving the clock is an action of the referee's seat: its record asks for and is taken at
    the time it moves to, rolls no dice, and names the events it made — the timers it passed
    (each at its own due time) and the clock's move, all caused by it."""
    table = new_table().advance(3 * 3600, seat=REFEREE)
    assert table.actions[-1].to_json() == {
        "number": 1,
        "seat": REFEREE,
        "actor": REFEREE,
        "kind": "advance",
        "params": {"to": 10800},
        "at": 10800,
        "asked_at": 10800,
        "dice": [],
        "events": [2, 3],
        "audience": "everyone",
    }
    rang, moved = table.log[1], table.log[2]
    assert (rang.kind, rang.at, rang.cause, rang.payload) == (
        "alarm.rang",
        7200,
        1,
        {"says": "nine o'clock"},
    )
    assert (moved.kind, moved.at, moved.cause, moved.payload) == (
        "clock.advanced",
        10800,
        1,
        {"to": 10800},
    )
    assert moved.audience.everyone
    assert table.now == 10800
    assert table.advance(10800, seat=REFEREE) is table


def test_in_a_game_without_a_referee_any_seat_moves_the_clock() -> None:
    """Only the referee's seat moves the clock in a game that has a referee; in one without,
    any seat does, and the move is recorded as that seat's."""
    table = Table.start(_NoReferee(), SETUP, players=PLAYERS)
    with pytest.raises(SeatError, match="no seat 'zed'"):
        table.advance(60, seat="zed")
    moved = table.advance(60, seat="alice")
    assert (moved.now, moved.actions[-1].seat, moved.actions[-1].actor) == (60, "alice", "alice")
    with pytest.raises(SeatError, match="only the referee moves the game clock"):
        new_table().advance(60, seat="alice")


# -- timers at the table -------------------------------------------------------------------------


def test_a_cancelled_timer_is_the_referees_by_default() -> None:
    """A timer is the referee's business unless its audience is given."""
    assert cancel_timer("alarm").audience == REFEREE_ONLY


def test_a_timer_whose_event_has_secrets_shows_that_event_to_the_referee_alone() -> None:
    """Setting a timer never shows its event early: an event with secret parts is kept for the
    referee alone until it fires; one without keeps its own audience."""
    from referee.core import EVERYONE, REFEREE_ONLY, Secret, only
    from referee.core.clock import set_timer

    secret = Event("slip.opened", {"by": "elves"}, secrets=(Secret("maneuver", "feint"),))
    assert set_timer("open", secret, after=60).secrets[0].audience == REFEREE_ONLY
    public = Event("alarm.rang", audience=only("elves"))
    assert set_timer("alarm", public, at=60).secrets[0].audience == only("elves")
    assert set_timer("alarm", Event("alarm.rang"), at=60).secrets[0].audience == EVERYONE


def test_a_cancelled_timer_never_fires_and_its_cancelling_is_logged() -> None:
    """Timers (docs/kernel.md, "The clock"): a timer cancelled before it is due does not fire
    when the clock passes its time; the cancelling is an event of the log like any other."""
    table = Table.start(_Hushed(), SETUP, system="kernel_toy", players=PLAYERS)
    assert [t.name for t in table.clock.timers] == ["alarm"]
    hushed = table.act(Action("scarface", "hush", {}), None)
    assert hushed.version == table.version + 1
    assert hushed.log[-1].kind == "timer.cancelled"
    assert hushed.clock.timers == ()
    later = hushed.advance(3 * 3600)
    assert [e.kind for e in later.log][hushed.version :] == ["clock.advanced"]
    assert not later.state.alarm_rang


def test_a_timer_due_at_the_very_time_the_clock_reaches_fires_once() -> None:
    """Timers: moving the clock to exactly a timer's time fires it, and it is gone: moving the
    clock on does not fire it again."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.advance(2 * 3600).advance(3 * 3600)
    assert [e.kind for e in table.log].count("alarm.rang") == 1
    assert table.clock.timers == ()


def test_a_log_replayed_up_to_a_timer_that_fired_is_at_that_timers_time() -> None:
    """Timers: an event a timer fires happens at the timer's time, so a log replayed up to it
    (before the clock's own move that follows it) stands at that time."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.advance(3 * 3600)
    kinds = [e.kind for e in table.log]
    assert kinds[-2:] == ["alarm.rang", "clock.advanced"]
    cut = Table.replay(PROCEDURE, SETUP, table.log.without_last(1))
    assert cut.now == 2 * 3600
    assert cut.state.alarm_rang
    assert Table.replay(PROCEDURE, SETUP, table.log).now == 3 * 3600


def test_an_action_whose_events_move_the_clock_is_recorded_at_the_time_it_was_taken() -> None:
    """Game time (docs/kernel.md, "The clock"): an action is recorded at the time it was taken,
    though its own events move the clock on (a game's action that takes five minutes); the
    game's own event is folded once (the clock's move is the table's to fold)."""
    from collections.abc import Iterable, Sequence
    from typing import Any

    from referee.core import Choice, Procedure
    from referee.core.clock import CLOCK_ADVANCED
    from referee.dice import DiceSource

    class Slow(Procedure[int]):
        def initial_state(self, setup: Any) -> int:
            return 0

        def actors(self, state: int) -> Sequence[str]:
            return ("ann",)

        def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
            return ()

        def decide(self, state: int, action: Action, dice: DiceSource) -> Iterable[Event]:
            return [Event("searched"), Event(CLOCK_ADVANCED, {"to": action.at + 300})]

        def evolve(self, state: int, event: Event) -> int:
            folded.append(event.kind)
            return state + 1

    folded: list[str] = []
    table = Table.start(Slow(), {}, system="kernel_toy", players={"ann": ["ann"]})
    done = table.act(Action("ann", "search"), None, at=60)
    assert done.now == 360
    [record] = done.actions
    assert (record.at, record.asked_at) == (60, 60)
    assert (folded, done.state) == (["searched"], 1)
