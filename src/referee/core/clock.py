"""Game time and timers (DESIGN.md, "Clock").

Game time is an ``int``: **seconds since the start of play** (:data:`GameTime`). A scenario may
say what the clock on the wall showed at the start (``start: "19:00"``), so that "at nine
o'clock" is ``clock_time("21:00", start="19:00") == 2 * HOUR``.

A :class:`Timer` holds an event to fire at a game time. :meth:`Clock.advance` returns the
events of the timers it passes, each stamped with its due time, in order. Procedures set and
cancel timers by returning the events :func:`set_timer` and :func:`cancel_timer` make; the
:class:`~referee.core.procedures.Table` keeps the clock, so timers replay with the log.

>>> clock = Clock().set(Timer("cooldown", 15 * MINUTE, Event("perception.ready")))
>>> clock, fired = clock.advance(20 * MINUTE)
>>> [(e.kind, e.at) for e in fired], clock.now, clock.timers
([('perception.ready', 900)], 1200, ())
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TypeAlias

from referee.core.errors import RuleError
from referee.core.events import REFEREE_ONLY, Audience, Event, Secret
from referee.core.values import Json

__all__ = [
    "ADVANCE",
    "CLOCK_ADVANCED",
    "DAY",
    "HOUR",
    "MINUTE",
    "SECOND",
    "TIMER_CANCELLED",
    "TIMER_SET",
    "Clock",
    "GameTime",
    "Timer",
    "cancel_timer",
    "clock_time",
    "describe_timer",
    "format_time",
    "parse_duration",
    "set_timer",
    "time_of_day",
]

GameTime: TypeAlias = int
"""Seconds since the start of play."""

ADVANCE = "advance"
"""The kernel's own action kind: move game time on (``{"to": seconds}``), firing timers."""

SECOND: GameTime = 1
MINUTE: GameTime = 60
HOUR: GameTime = 3600
DAY: GameTime = 86400

TIMER_SET = "timer.set"
"""Kernel event kind: a timer was set (payload: name, after or due, and label if the game gave
one; secret part: event)."""
TIMER_CANCELLED = "timer.cancelled"
"""Kernel event kind: a timer was cancelled (payload: name, and label if the game gave one)."""
CLOCK_ADVANCED = "clock.advanced"
"""Kernel event kind: game time moved on (payload: to)."""

_UNITS = {"d": DAY, "h": HOUR, "m": MINUTE, "s": SECOND}
_DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")
_CLOCK = re.compile(r"^(\d{1,3}):([0-5]\d)(?::([0-5]\d))?$")


def parse_duration(text: str) -> GameTime:
    """A duration written ``"15m"``, ``"1h30m"``, ``"90s"``, ``"2d"`` in seconds.

    >>> parse_duration("1h30m")
    5400
    """
    match = _DURATION.match(text.strip())
    if not text.strip() or match is None:
        raise ValueError(f"a duration is written like '15m', '1h30m', '90s' or '2d', not {text!r}")
    return sum(int(g) * u for g, u in zip(match.groups(), _UNITS.values(), strict=True) if g)


def _clock_seconds(text: str) -> int:
    match = _CLOCK.match(text.strip())
    if match is None:
        raise ValueError(f"a clock time is written like '21:00' or '21:00:30', not {text!r}")
    hours, minutes, seconds = (int(part or 0) for part in match.groups())
    if hours > 23 or minutes > 59 or seconds > 59:
        raise ValueError(f"{text!r} is not a time of day (00:00 to 23:59:59)")
    return hours * HOUR + minutes * MINUTE + seconds


def clock_time(text: str, start: str = "00:00") -> GameTime:
    """Game time at the wall-clock time ``text``, when play started at ``start``.

    A time earlier than ``start`` is taken as the next day.

    >>> clock_time("21:00", start="19:00")
    7200
    >>> clock_time("01:00", start="23:00")
    7200
    """
    at, origin = _clock_seconds(text), _clock_seconds(start)
    return at - origin if at >= origin else at + DAY - origin


def format_time(time: GameTime, start: str = "00:00") -> str:
    """The wall-clock time ``HH:MM`` (``HH:MM:SS`` if seconds) at game time ``time``.

    >>> format_time(7230, start="19:00")
    '21:00:30'
    """
    total = (time + _clock_seconds(start)) % DAY
    hours, rest = divmod(total, HOUR)
    minutes, seconds = divmod(rest, MINUTE)
    return f"{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def time_of_day(time: GameTime, start: str = "00:00") -> str:
    """The wall-clock time at game time ``time`` as a person reads it in a log line: ``HH:MM``
    (:func:`format_time`), with "the next day" once the clock has passed midnight since the
    start, and ", N days later" after that.

    >>> time_of_day(2 * HOUR, start="19:00"), time_of_day(2 * HOUR, start="23:00")
    ('21:00', '01:00 the next day')
    >>> time_of_day(2 * DAY + HOUR, start="12:00")
    '13:00, 2 days later'
    """
    days = (max(0, time) + _clock_seconds(start)) // DAY
    when = format_time(time, start)
    if days == 0:
        return when
    return f"{when} the next day" if days == 1 else f"{when}, {days} days later"


def describe_timer(
    kind: str, data: Mapping[str, Json], start: str = "00:00", *, at: GameTime = 0
) -> str:
    """A kernel clock event (``timer.set``, ``timer.cancelled``, ``clock.advanced``) in words for
    a person: the game's own words (the timer's ``label``) and its time of day, never the
    timer's name (an id such as ``perception:scarface:krockin``).

    ``data`` is the event's data as the viewer sees it, ``start`` the wall clock at the start of
    play, ``at`` the event's game time (a timer set ``after`` a span is due that long after it).
    A timer without a label is told without its name.

    >>> describe_timer(TIMER_SET, {"name": "perception:scarface:krockin", "after": 900,
    ...     "label": "ScarFace may perceive Krockin again"}, "21:00", at=0)
    'ScarFace may perceive Krockin again at 21:15.'
    >>> describe_timer(TIMER_SET, {"name": "contingency:12", "due": 7200,
    ...     "label": "Envelope #12 may be opened"}, "23:00")
    'Envelope #12 may be opened at 01:00 the next day.'
    >>> describe_timer(TIMER_SET, {"name": "ko:bob", "after": 300}, "19:00", at=600)
    'Something is due at 19:15.'
    >>> describe_timer(TIMER_CANCELLED, {"name": "wake:krockin", "label": "Krockin wakes"})
    'No longer due: Krockin wakes.'
    >>> describe_timer(CLOCK_ADVANCED, {"to": 3600}, "20:30")
    'The clock moves on to 21:30.'
    """
    label = data.get("label")
    words = str(label) if isinstance(label, str) and label else ""
    if kind == CLOCK_ADVANCED:
        return f"The clock moves on to {time_of_day(_int(data.get('to')), start)}."
    if kind == TIMER_CANCELLED:
        return f"No longer due: {words}." if words else "A timer is cancelled."
    if kind == TIMER_SET:
        after = data.get("after")
        due = at + after if isinstance(after, int) else _int(data.get("due"))
        return f"{words or 'Something is due'} at {time_of_day(due, start)}."
    raise ValueError(f"{kind!r} is not a kernel clock event")


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


@dataclass(frozen=True)
class Timer:
    """An event to fire when game time reaches ``due``; ``name`` identifies it for cancelling."""

    name: str
    due: GameTime
    event: Event


@dataclass(frozen=True)
class Clock:
    """The time now and the timers pending, soonest first (ties in the order they were set)."""

    now: GameTime = 0
    timers: tuple[Timer, ...] = ()

    def set(self, timer: Timer) -> Clock:
        """A clock with ``timer`` added, replacing any pending timer of the same name."""
        kept = tuple(t for t in self.timers if t.name != timer.name)
        ordered = sorted((*kept, timer), key=lambda t: t.due)  # stable: set order on ties
        return replace(self, timers=tuple(ordered))

    def cancel(self, name: str) -> Clock:
        """A clock without the timer ``name`` (no change if there is none)."""
        return replace(self, timers=tuple(t for t in self.timers if t.name != name))

    def advance(self, to: GameTime) -> tuple[Clock, tuple[Event, ...]]:
        """Move to game time ``to``; the events of the timers passed (due ≤ ``to``), stamped.

        Raises :class:`RuleError` if ``to`` is before now: game time never goes back.
        """
        if to < self.now:
            raise RuleError("Clock", f"game time cannot go back from {self.now}s to {to}s")
        fired = tuple(replace(t.event, at=t.due) for t in self.timers if t.due <= to)
        pending = tuple(t for t in self.timers if t.due > to)
        return Clock(now=to, timers=pending), fired


def set_timer(
    name: str,
    event: Event,
    *,
    after: GameTime | None = None,
    at: GameTime | None = None,
    audience: Audience = REFEREE_ONLY,
    label: str | None = None,
) -> Event:
    """The kernel event that sets a timer: fire ``event`` ``after`` seconds from now, or ``at``.

    Exactly one of ``after`` and ``at`` is given. ``audience`` is who may see that the timer
    was set (the referee alone by default). ``label`` is what the timer means in the game's own
    words, without the time ("ScarFace may perceive Krockin again"): :func:`describe_timer`
    tells it with the time of day it is due, where ``name`` is only an id for cancelling.
    The event to fire is a secret part ``event`` of the timer event, seen only by the fired
    event's own audience (by the referee alone if the fired event has secret parts), so setting
    a timer never shows its event early to anyone else.

    >>> timer = set_timer("ko:scarface", Event("character.recovered"), after=5 * MINUTE)
    >>> timer.payload, timer.data["event"]["kind"]
    ({'name': 'ko:scarface', 'after': 300}, 'character.recovered')
    >>> set_timer("ko:scarface", Event("character.recovered"), after=300,
    ...           label="ScarFace wakes").payload["label"]
    'ScarFace wakes'
    """
    if (after is None) == (at is None):
        raise ValueError("set_timer takes exactly one of after= and at=")
    payload: dict[str, Json] = {"name": name}
    if after is not None:
        payload["after"] = after
    else:
        payload["due"] = at
    if label:
        payload["label"] = label
    fired_audience = event.audience if not event.secrets else REFEREE_ONLY
    fired = Secret("event", event.to_json(), fired_audience)
    return Event(TIMER_SET, payload, audience=audience, secrets=(fired,))


def cancel_timer(
    name: str, *, audience: Audience = REFEREE_ONLY, label: str | None = None
) -> Event:
    """The kernel event that cancels the pending timer ``name``; ``label`` what it meant, in
    the game's words (as :func:`set_timer`'s).

    >>> cancel_timer("wake:krockin", label="Krockin wakes").payload
    {'name': 'wake:krockin', 'label': 'Krockin wakes'}
    """
    payload: dict[str, Json] = {"name": name}
    if label:
        payload["label"] = label
    return Event(TIMER_CANCELLED, payload, audience=audience)
