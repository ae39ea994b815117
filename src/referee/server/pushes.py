"""What a live socket is sent (docs/server.md, "Live updates"), built from a seat's observation:
a full observation (a long one in pages of events before it), or a patch against the last.

These are the messages' shapes; :mod:`referee.server.live` decides which one each socket is due
and sends it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["LOG_FIELDS", "PAGE_EVENTS", "Message", "full_asked", "in_pages", "text"]


@dataclass(frozen=True, eq=False)
class Message:
    """What is built for a socket, and what the socket will have been sent once it is: its
    first text, and for a long catch-up (pages of events before its observation) the bodies
    of the others, each written as JSON only when the one before it is sent, so that a socket
    holds one page's text at a time."""

    text: str
    more: tuple[dict[str, Any], ...]
    version: int
    tag: str
    base: dict[str, Any]
    epoch: int
    marks: dict[str, bytes | None]


PAGE_EVENTS = 250
"""The most events one message carries: a longer catch-up (a socket back at a ``since`` many
events ago) is sent as pages of events
before the observation, so that a client that does not read holds at most a page in the
server's buffers. (A socket opened without ``since``, one asking for a full observation since
0, and the reset after an undo carry only the latest events, as an open does.)"""


def text(body: dict[str, Any]) -> str:
    """A message's JSON text, compact."""
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def in_pages(table_id: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """A full observation as messages: ``{"type": "events"}`` pages of :data:`PAGE_EVENTS`
    events each (the first one with ``reset`` if the observation has it), then the
    observation with the last events (``since``: where the pages stopped)."""
    events, actions = data["events"], data["actions"]
    pages: list[dict[str, Any]] = []
    since, reset = int(data["since"]), bool(data["reset"])
    while len(events) > PAGE_EVENTS:
        page, events = events[:PAGE_EVENTS], events[PAGE_EVENTS:]
        through = int(page[-1]["number"])
        page_actions = [a for a in actions if max(a["events"], default=0) <= through]
        actions = [a for a in actions if max(a["events"], default=0) > through]
        pages.append(
            {
                "type": "events",
                "table": table_id,
                "since": since,
                "through": through,
                "reset": reset,
                "events": page,
                "actions": page_actions,
            }
        )
        since, reset = through, False
    last = {**data, "type": "observation", "since": since, "reset": reset}
    last["events"], last["actions"] = events, actions
    return [*pages, last]


LOG_FIELDS = frozenset(("events", "actions", "since", "version", "tag", "reset", "table"))
"""An observation's fields that a patch message carries itself: the log since the version the
socket was last sent, and where it stands. The rest (the state, the choices, ...) is patched."""


def full_asked(text: str) -> tuple[int, str | None] | None:
    """``{"type": "full", "since": n, "tag": t}``: a client asking for a full observation
    since version ``n`` (the version it holds; ``0``: none, answered as an open is) with the tag
    it holds;
    ``None`` for anything else."""
    if len(text) > 256:
        return None
    try:
        asked = json.loads(text)
    except ValueError:
        return None
    if not isinstance(asked, dict) or asked.get("type") != "full":
        return None
    since, tag = asked.get("since", 0), asked.get("tag")
    if type(since) is not int or since < 0:
        return None
    if tag is not None and (not isinstance(tag, str) or len(tag) > 64):
        return None
    return since, tag
