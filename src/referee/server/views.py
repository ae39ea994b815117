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
import threading
from collections import OrderedDict
from typing import Any

from referee.core.events import Event, Viewer
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


def _json_tag(event: dict[str, Any]) -> str:
    text = json.dumps(event, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


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


def _tags(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [
        (int(e["number"]), _json_tag({k: v for k, v in e.items() if k != "text"})) for e in events
    ]


def _grows(old: Table[Any], new: Table[Any]) -> bool:
    """True if ``new`` is ``old`` with actions and events appended: same game, seats and start,
    and every event and action record of ``old`` the same in ``new`` (not rewritten by an
    undo). Tables acted on in this process share their records, so most are the same objects."""
    if (
        new.version < old.version
        or len(new.actions) < len(old.actions)
        or new.system != old.system
        or new.seats != old.seats
        or new.start_time != old.start_time
    ):
        return False
    # zip stops at the end of ``old``: its prefix of ``new`` is what is compared
    return all(a is b or a == b for a, b in zip(old.log, new.log, strict=False)) and all(
        a is b or a == b for a, b in zip(old.actions, new.actions, strict=False)
    )


class ObservationCache:
    """Observations already built, for as long as their table is the table now.

    A table is an immutable value and the store hands out the same object until the table
    changes, so a seat's whole observation (``since=0``) is built once per table object and
    seat; every other ``since`` is cut from it (the events and action records after ``since``:
    exactly what ``observe(since=...)`` keeps). So a refresh, a second tab, the push after a
    change and the answer to the seat's own action share one ``observe``. When the table
    changes by growing (an action, not an undo), the seat's new whole observation is its old
    one with only what is new observed (``observe(since=<the old version>)``): an event's
    narration depends on the event, the viewer and the table's start alone, so the old events
    are as a new ``observe`` would write them, and a push costs what changed, not the whole
    log. Entries are dropped oldest first beyond ``size``. What it returns is shared: do not
    change it.
    """

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[
            tuple[str, str], tuple[Table[Any], dict[str, Any], list[tuple[int, str]]]
        ] = OrderedDict()
        self._last_growth: tuple[Table[Any], Table[Any], bool] | None = None

    def _grows(self, old: Table[Any], new: Table[Any]) -> bool:
        """:func:`_grows`, remembered for the last pair (every seat of a table asks it)."""
        last = self._last_growth
        if last is not None and last[0] is old and last[1] is new:
            return last[2]
        grows = _grows(old, new)
        self._last_growth = (old, new, grows)
        return grows

    def _whole(
        self, table: Table[Any], table_id: str, seat: str
    ) -> tuple[dict[str, Any], list[tuple[int, str]]]:
        key = (table_id, seat)
        with self._lock:
            found = self._entries.get(key)
            if found is not None and found[0] is table:
                self._entries.move_to_end(key)
                return found[1], found[2]
        if found is not None and self._grows(found[0], table):
            old, before, old_tags = found
            new = observation(table, table_id, seat, old.version)
            numbers = {a["number"] for a in before["actions"]}
            data = {
                **new,
                "since": 0,
                "events": before["events"] + new["events"],
                "actions": before["actions"]
                + [a for a in new["actions"] if a["number"] not in numbers],
                "tag": new["tag"] if new["events"] else before["tag"],
                "reset": False,
            }
            tags = old_tags + _tags(new["events"])
        else:
            data = observation(table, table_id, seat)
            tags = _tags(data["events"])
        with self._lock:
            self._entries[key] = (table, data, tags)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return data, tags

    def forget(self, table_id: str) -> None:
        """Drop every seat's observation of ``table_id`` (no seat watches it any more)."""
        with self._lock:
            for key in [key for key in self._entries if key[0] == table_id]:
                del self._entries[key]
            self._last_growth = None

    def count(self, table_id: str | None = None) -> int:
        """How many observations are kept (of ``table_id``, or of every table)."""
        with self._lock:
            return sum(1 for key in self._entries if table_id is None or key[0] == table_id)

    def observation(
        self, table: Table[Any], table_id: str, seat: str, since: int = 0, tag: str | None = None
    ) -> dict[str, Any]:
        """:func:`observation`, the same to the byte, from the seat's whole observation."""
        whole, tags = self._whole(table, table_id, seat)
        if since == 0:
            return whole
        at_since = next((t for number, t in reversed(tags) if number <= since), EMPTY_TAG)
        if since > table.version or (tag is not None and tag != at_since):
            return {**whole, "reset": True}
        events = [e for e in whole["events"] if e["number"] > since]
        actions = [a for a in whole["actions"] if max(a["events"]) > since]
        return {
            **whole,
            "since": since,
            "events": events,
            "actions": actions,
            "tag": whole["tag"] if events else at_since,
        }


OPEN_EVENTS = 100
"""How many of the latest events a seat's observation carries when a table is opened: the rest
are paged in on demand (:func:`earlier_events`), so opening a table costs the same at any age."""


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
