"""Game time and timers."""

from __future__ import annotations

import pytest

from referee.core import (
    HOUR,
    MINUTE,
    Clock,
    Event,
    RuleError,
    Timer,
    clock_time,
    format_time,
    parse_duration,
    set_timer,
)


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
