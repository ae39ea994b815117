"""Responses for one seat, built from :func:`~referee.core.table.observe` and nothing else.

:func:`observation` is the table as a seat sees it since a version, with the two fields a
client needs to catch up after missing messages: ``reset`` (the events start again from the
first, because an undo rewrote the log after ``since``) and ``tag`` (a digest of the last event
this seat has seen, as it saw it, to send back with ``since``). A tag is a digest of what the
seat may see and nothing else, so it tells nothing about the events hidden from it.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import marshal
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from referee.core.events import Event, Viewer
from referee.core.observe import seen_between, seen_since
from referee.core.table import Table, observe

__all__ = [
    "OPEN_EVENTS",
    "ObservationCache",
    "choices",
    "earlier_events",
    "latest",
    "observation",
    "tag_at",
]

EMPTY_TAG = "0"

OPEN_EVENTS = 100
"""How many of the latest events a seat's observation carries when a table is opened: the rest
are paged in on demand (:func:`earlier_events`), so opening a table costs the same at any age."""


def _json_tag(event: dict[str, Any]) -> str:
    text = json.dumps(event, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class EventTags:
    """Each seen event's tag worked out once for every seat that sees it alike (issue 29).

    A tag is a digest of the event as a seat sees it (less its narration): a sorted
    ``json.dumps`` and a SHA-256. Every seat of a table that sees an event unredacted sees the
    same value, so the tag is remembered by that value: its :mod:`marshal` bytes (version 2,
    which write what a value is, each type and each key in order, and nothing of its
    identity). Equal bytes are the same JSON value, so they have the same tag; a value marshal
    refuses is digested each time. At most ``size`` tags are kept (the oldest let go first)."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._known: OrderedDict[bytes, str] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, event: dict[str, Any]) -> str:
        """The tag of ``event``, a seen event's JSON less its ``text``."""
        try:
            key = marshal.dumps(event, 2)
        except ValueError:
            return _json_tag(event)
        with self._lock:
            found = self._known.get(key)
        if found is None:
            found = _json_tag(event)
            with self._lock:
                self._known[key] = found
                if len(self._known) > self._size:
                    self._known.popitem(last=False)
        return found


class EventJson:
    """Each event's JSON (less its narration) written once for every seat that sees it as it
    was logged (issue 29: a change observed once for all seats, not once a seat).

    An event a seat sees unredacted is the log's own object (:meth:`Event.seen_by` gives it
    back as it is), so every such seat's ``seen_since`` asks for the same object: it is written
    once and the JSON shared (each seat adds its own narration around it). A redacted event is
    a copy of the seat's own, written for it alone. Remembered by the event's identity, the
    event held meanwhile (so no other object takes its ``id``); at most ``size`` kept."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._known: OrderedDict[int, tuple[Event, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.written = 0
        """How many events were written (for tests: the work done)."""

    def of(self, event: Event) -> dict[str, Any]:
        """``event.to_json()``, written once for every asker of the same object: shared, do
        not change it."""
        key = id(event)
        with self._lock:
            found = self._known.get(key)
        if found is not None and found[0] is event:
            return found[1]
        written = event.to_json()
        with self._lock:
            self.written += 1
            self._known[key] = (event, written)
            while len(self._known) > self._size:
                self._known.popitem(last=False)
        return written


def _event_tag(event: Event) -> str:
    return _json_tag(event.to_json())


def tag_at(table: Table[Any], viewer: Viewer, version: int) -> str:
    """The tag of ``viewer``'s view of the log up to ``version``: the digest of the last event
    numbered at most ``version`` that the viewer may see, as they see it (``"0"`` if none)."""
    log = table.log
    for number in range(min(version, len(log)), 0, -1):
        seen = log[number - 1].seen_by(viewer)
        if seen is not None:
            return _event_tag(seen)
    return EMPTY_TAG


def observation(
    table: Table[Any], table_id: str, seat: str, since: int = 0, tag: str | None = None
) -> dict[str, Any]:
    """What ``seat`` sees of ``table`` after version ``since``, ready to send.

    If ``since`` is past the table's version, or ``tag`` does not match the seat's view at
    ``since`` (an undo rewrote what it saw), the events start again from the first and
    ``reset`` is true.
    """
    viewer = table.viewer(seat)
    reset = since > table.version or (
        since > 0 and tag is not None and tag != tag_at(table, viewer, since)
    )
    if reset:
        since = 0
    seen = observe(table, seat, since=since)
    data = seen.to_json()
    if seen.events:
        data["tag"] = _event_tag(seen.events[-1])
    elif tag is not None and not reset:
        data["tag"] = tag
    else:
        data["tag"] = tag_at(table, viewer, since)
    data["reset"] = reset
    data["table"] = table_id
    return data


def choices(table: Table[Any], seen: dict[str, Any]) -> dict[str, Any]:
    """The actions open to a seat now, from its observation ``seen`` of ``table``, each with its
    parameters' JSON Schema, section and summary from the game's catalogue."""
    catalogue = table.procedure.catalogue
    out = []
    for choice in seen["choices"]:
        spec = catalogue.get(choice["kind"]) if catalogue else None
        out.append(
            {
                **choice,
                "section": spec.section if spec is not None else "",
                "summary": spec.summary if spec is not None else "",
                "parameters": spec.schema() if spec is not None else {},
            }
        )
    return {
        "table": seen["table"],
        "version": seen["version"],
        "to_move": seen["to_move"],
        "prompts": seen.get("prompts", []),
        "choices": out,
    }


def _grows(old: Table[Any], new: Table[Any]) -> bool:
    """True if ``new`` is known to be ``old`` with actions and events appended: same game,
    seats and start, and its log and actions versions of ``old``'s own storage (an item once
    stored is never written again, so ``old``'s are a prefix: :meth:`Log.grew_from`). Told in
    constant time, whatever the table's age; a table read again from a store is not known to
    be one (its seats' observations are built again, from the end of the log)."""
    return (
        new.log.grew_from(old.log)
        and new.actions.grew_from(old.actions)
        and new.system == old.system
        and new.seats == old.seats
        and new.start_time == old.start_time
    )


def _state_alike(old: Table[Any], new: Table[Any]) -> bool:
    """True if every field of a seat's observation of ``new`` but the log's (its events,
    actions, version, since and tag) is known to be what it is of ``old``, which ``new`` grew
    from (:func:`_grows`: the same game, seats and start): the same state object and the same
    game time. The rest of :func:`~referee.core.table.observe` (the state as the seat sees it,
    its choices, whose move, the prompts, previews, waits, result) is a function of the state
    and the seat alone (a rule is a pure function of values; the core's ``Remembered`` relies
    on the same): an action whose events leave the state as it was (a roll that changes
    nothing) costs each seat only its new events."""
    return new.state is old.state and new.now == old.now


HELD_MOST = 2 * 1024
"""The most events a seat's held observation keeps as its table grows: beyond it the oldest
half are let go (they are read again from the log if someone pages back to them)."""


@dataclass(eq=False)
class _Held:
    """One seat's observation of one table, as much of its log as has been asked for.

    ``head`` is the observation's every field for ``table`` (its ``events``, ``actions``,
    ``since`` and ``tag`` are cut from the rest); ``events`` are every event the seat sees
    numbered after ``floor`` (their ``numbers``, and their ``tags`` worked out when first
    needed), ``actions`` every record it sees whose last event is after ``floor`` (``ends``:
    those last events). ``floor_tag``: the seat's tag at ``floor`` (``None`` until asked).
    ``tags_of``: the cache's tags, shared by every seat (an event's tag is worked out once).
    """

    table: Table[Any]
    viewer: Viewer
    tags_of: EventTags
    head: dict[str, Any]
    floor: int
    floor_tag: str | None
    events: list[dict[str, Any]]
    numbers: list[int]
    tags: list[str | None]
    actions: list[dict[str, Any]]
    ends: list[int]

    def add(self, events: list[dict[str, Any]], actions: list[dict[str, Any]]) -> None:
        """Events and records newer than those held, appended in place (amortised O(1))."""
        self.events.extend(events)
        self.numbers.extend(int(e["number"]) for e in events)
        self.tags.extend([None] * len(events))
        newest = int(self.actions[-1]["number"]) if self.actions else 0
        fresh = [a for a in actions if int(a["number"]) > newest]  # a record that caused no
        self.actions.extend(fresh)  # event is after the version: both tables' observe had it
        self.ends.extend(_last_event(a) for a in fresh)

    def add_before(self, floor: int, events: list[dict[str, Any]], actions: list[Any]) -> None:
        """Events and records older than those held, from ``floor`` on (paged back)."""
        self.events[:0] = events
        self.numbers[:0] = [int(e["number"]) for e in events]
        self.tags[:0] = [None] * len(events)
        self.actions[:0] = actions
        self.ends[:0] = [_last_event(a) for a in actions]
        self.floor, self.floor_tag = floor, (EMPTY_TAG if floor == 0 else None)

    def let_go(self, keep: int) -> None:
        """Keep only the latest ``keep`` events (and the records that end after them)."""
        cut = len(self.events) - keep
        if cut <= 0:
            return
        self.floor, self.floor_tag = self.numbers[cut - 1], self.tag(cut - 1)
        drop = bisect.bisect_right(self.ends, self.floor)
        for held in (self.events, self.numbers, self.tags):
            del held[:cut]
        del self.actions[:drop], self.ends[:drop]

    def tag(self, index: int) -> str:
        """The tag of the held event at ``index``."""
        found = self.tags[index]
        if found is None:
            event = self.events[index]
            found = self.tags[index] = self.tags_of.of(
                {k: v for k, v in event.items() if k != "text"}
            )
        return found

    def tag_at(self, number: int) -> str:
        """The seat's tag at version ``number`` (``floor`` or later)."""
        index = bisect.bisect_right(self.numbers, number)
        if index:
            return self.tag(index - 1)
        if self.floor_tag is None:
            self.floor_tag = tag_at(self.table, self.viewer, self.floor)
        return self.floor_tag

    def below(self, number: int) -> int:
        """How many held events are numbered below ``number``."""
        return bisect.bisect_left(self.numbers, number)

    def cut(self, since: int) -> dict[str, Any]:
        """The observation since ``since`` (``floor`` or later), as :func:`observation` has it
        when the seat's tag fits."""
        first = bisect.bisect_right(self.numbers, since)
        events = self.events[first:]
        return {
            **self.head,
            "since": since,
            "events": events,
            "actions": self.actions[bisect.bisect_right(self.ends, since) :],
            "tag": self.tag(len(self.events) - 1) if events else self.tag_at(since),
        }


@dataclass(eq=False)
class _Slot:
    """A seat's place in the cache: its held observation, and the lock of its reads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    held: _Held | None = None


class ObservationCache:
    """Observations already built, for as long as their table is the table now.

    A table is an immutable value and the store hands out the same object until the table
    changes, so each seat's observation is built once per table object (a :class:`_Held`)
    and every answer is cut from it: a refresh, a second tab, the push after a change and the
    answer to the seat's own action share one ``observe``.

    What is held starts at the end of the log: the latest :data:`OPEN_EVENTS` events the seat
    sees, read from there (``observe(since=...)``: nothing older is read), so a table's first
    open costs the same at any age. Older events are observed when asked for (a ``since``
    further back, a page of earlier events, a whole observation) and held from then on.

    When the table changes by growing (an action, not an undo; told in constant time,
    :func:`_grows`), only what is new is observed (``observe(since=<the old version>)``) and
    appended to what is held: an event's narration depends on the event, the viewer and the
    table's start alone, so the old events are as a new ``observe`` would write them, and a
    change costs what changed, not the log. A change that leaves the state and the game time
    as they were (:func:`_state_alike`) keeps the rest of the observation, the same objects,
    and observes only the new events (their JSON written once for every seat that sees them
    unredacted: :class:`EventJson`). Beyond ``hold`` events the oldest half are let
    go. Entries are dropped oldest first beyond ``size``. Each seat's held observation is read
    and grown under a lock of its own, so a long read holds up no other seat. What it returns
    is shared: do not change it.
    """

    def __init__(self, size: int = 4096, hold: int = HELD_MOST) -> None:
        self._size = size
        self._hold = hold
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, str], _Slot] = OrderedDict()
        self._tags = EventTags()
        self._json = EventJson()
        self.events_observed = 0
        """How many events were observed into held observations (for tests: the work done)."""
        self.heads_kept = 0
        """How many changes kept a seat's head as it was (:func:`_state_alike`; for tests)."""

    @contextmanager
    def _holding(self, table: Table[Any], table_id: str, seat: str) -> Iterator[_Held]:
        """The seat's held observation of ``table``, under its own lock: one seat's long read
        (a page back, a ``since`` long past) holds up no other seat or table."""
        key = (table_id, seat)
        with self._lock:
            slot = self._entries.get(key)
            if slot is None:
                slot = self._entries[key] = _Slot()
                while len(self._entries) > self._size:
                    self._entries.popitem(last=False)
            self._entries.move_to_end(key)
        with slot.lock:
            slot.held = self._current(slot.held, table, table_id, seat)
            yield slot.held

    def _current(self, found: _Held | None, table: Table[Any], table_id: str, seat: str) -> _Held:
        """``found`` as it is for ``table``: itself, grown by what is new, or built afresh
        from the end of the log."""
        if found is not None and found.table is table:
            return found
        if found is not None and _grows(found.table, table):
            old = found.table
            if _state_alike(old, table):  # only the log moved: the head is kept, member by
                # member (the same objects: no patch to find), each event written once a change
                events, actions = seen_since(table, seat, old.version, self._json.of)
                head = {**found.head, "version": table.version}
                self.heads_kept += 1
            else:
                seen = observe(table, seat, since=old.version).to_json()
                events, actions, head = seen["events"], seen["actions"], _head(seen, table_id)
            self.events_observed += len(events)
            found.add(events, actions)
            found.table, found.head = table, head
            if len(found.events) > self._hold:
                found.let_go(self._hold // 2)
            return found
        floor = max(0, table.version - OPEN_EVENTS - 1)
        seen = observe(table, seat, since=floor).to_json()
        self.events_observed += len(seen["events"])
        held = _Held(
            table,
            table.viewer(seat),
            self._tags,
            head=_head(seen, table_id),
            floor=floor,
            floor_tag=EMPTY_TAG if floor == 0 else None,
            events=[],
            numbers=[],
            tags=[],
            actions=[],
            ends=[],
        )
        held.add(seen["events"], seen["actions"])
        return held

    def _reach(self, held: _Held, since: int) -> None:
        """Hold every event the seat sees after ``since`` (observing back from ``floor``)."""
        if since < held.floor:
            events, actions = seen_between(held.table, held.viewer, since, held.floor)
            self.events_observed += len(events)
            held.add_before(since, events, actions)

    def _reach_below(self, held: _Held, number: int, count: int) -> None:
        """Hold at least ``count`` events the seat sees numbered below ``number``, or all of
        them: observed back from ``floor`` in stretches that double, so a seat that sees few
        events is not read back one event at a time."""
        stretch = max(count, OPEN_EVENTS)
        while held.floor > 0 and held.below(number) < count:
            self._reach(held, max(0, min(held.floor, number) - stretch))
            stretch *= 2

    def forget(self, table_id: str) -> None:
        """Drop every seat's observation of ``table_id`` (no seat watches it any more)."""
        with self._lock:
            for key in [key for key in self._entries if key[0] == table_id]:
                del self._entries[key]

    def count(self, table_id: str | None = None) -> int:
        """How many observations are kept (of ``table_id``, or of every table)."""
        with self._lock:
            return sum(
                1
                for key, slot in self._entries.items()
                if slot.held is not None and (table_id is None or key[0] == table_id)
            )

    def _since(self, held: _Held, since: int, tag: str | None) -> dict[str, Any] | None:
        """The observation since ``since``, or ``None`` if it must start from the first event
        (``since`` past the table, or ``tag`` not the seat's at ``since``: an undo)."""
        if since > held.table.version:
            return None
        self._reach(held, since)
        if since > 0 and tag is not None and tag != held.tag_at(since):
            return None
        return held.cut(since)

    def observation(
        self, table: Table[Any], table_id: str, seat: str, since: int = 0, tag: str | None = None
    ) -> dict[str, Any]:
        """:func:`observation`, the same to the byte, from the seat's held observation."""
        with self._holding(table, table_id, seat) as held:
            found = self._since(held, since, tag)
            if found is not None:
                return found
            self._reach(held, 0)
            return {**held.cut(0), "reset": True}

    def opening(
        self,
        table: Table[Any],
        table_id: str,
        seat: str,
        since: int = 0,
        tag: str | None = None,
        limit: int = OPEN_EVENTS,
    ) -> dict[str, Any]:
        """What a seat opening the table is sent: :meth:`observation`, but when that would
        start from the first event (no ``since``, or ``reset``) only its last ``limit`` events,
        as :func:`latest` cuts them (``earlier``: where older ones begin); otherwise with
        ``earlier`` null. Only those events are read, whatever the table's age."""
        with self._holding(table, table_id, seat) as held:
            if since > 0:
                found = self._since(held, since, tag)
                if found is not None:
                    return {**found, "earlier": None}
            self._reach_below(held, table.version + 2, limit + 1)
            if held.floor == 0 and len(held.events) <= limit:
                data = {**held.cut(0), "earlier": None}
            else:
                first = held.numbers[-limit]
                data = {**held.cut(first - 1), "earlier": first}
            data["reset"] = since > 0
            return data

    def earlier(
        self, table: Table[Any], table_id: str, seat: str, before: int, limit: int
    ) -> dict[str, Any]:
        """:func:`earlier_events` of the seat's whole observation, reading only the page (and
        what the seat does not see between it and what is held)."""
        with self._holding(table, table_id, seat) as held:
            self._reach_below(held, before, limit + 1)
            end = held.below(before)
            start = max(0, end - limit)
            low = held.numbers[start] if start > 0 else 0
            return {
                "table": table_id,
                "version": table.version,
                "before": before,
                "events": held.events[start:end],
                "actions": held.actions[
                    bisect.bisect_left(held.ends, low) : bisect.bisect_left(held.ends, before)
                ],
                "earlier": low if start > 0 else None,
            }


def _head(seen: dict[str, Any], table_id: str) -> dict[str, Any]:
    """An observation's fields (its log cut out later), in :func:`observation`'s order."""
    return {
        **seen,
        "events": [],
        "actions": [],
        "tag": EMPTY_TAG,
        "reset": False,
        "table": table_id,
    }


def _first_at_or_after(events: list[dict[str, Any]], number: int) -> int:
    """The index in ``events`` (ordered by number) of the first event numbered ``number`` or
    more."""
    return bisect.bisect_left(events, number, key=lambda e: int(e["number"]))


def _last_event(record: dict[str, Any]) -> int:
    return max(record["events"], default=0)


def _records_from(actions: list[dict[str, Any]], number: int) -> int:
    """The index in ``actions`` (in the order taken, so their events in order too) of the first
    record whose last event is numbered ``number`` or more."""
    return bisect.bisect_left(actions, number, key=_last_event)


def latest(seen: dict[str, Any], limit: int = OPEN_EVENTS) -> dict[str, Any]:
    """``seen`` (a seat's observation) with only its last ``limit`` events and the action
    records that end at or after the first of them, ``since`` moved to just before it (the
    events after ``since`` are still all there), and ``earlier``: the number to page back from
    (``before``) if the seat may see older events, else ``None``. The state is left whole."""
    events = seen["events"]
    if len(events) <= limit:
        return {**seen, "earlier": None}
    kept = events[len(events) - limit :]
    first = int(kept[0]["number"])
    return {
        **seen,
        "since": first - 1,
        "events": kept,
        "actions": seen["actions"][_records_from(seen["actions"], first) :],
        "earlier": first,
    }


def earlier_events(whole: dict[str, Any], table_id: str, before: int, limit: int) -> dict[str, Any]:
    """A page of ``whole`` (a seat's whole observation, ``since=0``): the last ``limit`` events
    numbered below ``before``, the action records that end among them (and, on the first page,
    those that end before any event the seat sees), and ``earlier`` as :func:`latest` has it."""
    events, actions = whole["events"], whole["actions"]
    end = _first_at_or_after(events, before)
    start = max(0, end - limit)
    page = events[start:end]
    low = int(page[0]["number"]) if start > 0 else 0
    return {
        "table": table_id,
        "version": whole["version"],
        "before": before,
        "events": page,
        "actions": actions[_records_from(actions, low) : _records_from(actions, before)],
        "earlier": low if start > 0 else None,
    }
