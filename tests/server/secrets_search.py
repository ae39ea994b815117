"""What a seat must never be sent, as byte patterns to search raw responses for.

:func:`hidden_fragments` gathers every piece of a table that a viewer may not see: the events
outside its audience, the secret parts of events it may see, the action records it may not see,
the referee's state and the setup. Each piece is a fragment of compact JSON, as a response would
carry it (a string's escaped text, or a whole object or list). What the seat *may* be sent is
``observe`` for it, its own seat and the game's public catalogue: a hidden piece that appears
there too is not a secret from this seat (a name everyone knows, a slip after the reveal). Every
other hidden piece must appear in no response and no WebSocket message for that seat: the raw
bytes are searched, as UTF-8 and with ``\\uXXXX`` escapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from referee.core.events import REFEREE, Viewer
from referee.core.registry import system
from referee.core.table import Table, observe

__all__ = ["find_leaks", "forbidden_for", "hidden_fragments"]

MIN_LENGTH = 5
"""Shorter strings (a number, ``"yes"``) are too common to search for on their own; they are
still searched for inside their objects and as ``"name":value`` pairs."""


def compact(value: Any) -> str:
    """Compact JSON, UTF-8 (as the server writes it)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


FRACTION = re.compile(r"\d+/\d+")
"""A probability alone (``"20/27"``) is no secret: any seat's own odds may hold the same number.
It is still searched for inside its object (``{"failure":"20/27",...}``)."""


def _fragments(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) >= MIN_LENGTH and not FRACTION.fullmatch(value):
            yield compact(value)[1:-1]
        return
    if isinstance(value, dict):
        if value:
            yield compact(value)
        for key, item in value.items():
            if isinstance(item, dict | list) and item:
                yield f"{compact(key)}:{compact(item)}"
            yield from _fragments(item)
    elif isinstance(value, list):
        if value:
            yield compact(value)
        for item in value:
            yield from _fragments(item)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def hidden_fragments(table: Table[Any], viewer: Viewer) -> set[str]:
    """Every piece of ``table`` hidden from ``viewer`` (before subtracting what ``observe``
    shows them anyway)."""
    found: set[str] = set()
    for event in table.log:
        data = event.to_json()
        if not event.audience.includes(viewer):
            found.add(f'"kind":{compact(event.kind)}')
            found.update(_fragments(data["payload"]))
            for secret in data["secrets"]:
                found.update(_fragments(secret["value"]))
            continue
        for secret, shown in zip(event.secrets, data["secrets"], strict=True):
            if not secret.audience.includes(viewer):
                value = shown["value"]
                found.update(_fragments(value))
                found.add(f'"name":{compact(secret.name)},"value":{compact(value)}')
                found.add(f"{compact(secret.name)}:{compact(value)}")
    for record in table.actions:
        if not record.audience.includes(viewer):
            found.update(_fragments(record.to_json()["params"]))
    referee_state = table.procedure.visible_state(table.state, Viewer(REFEREE))
    found.update(_fragments(_json(referee_state)))
    found.update(_fragments(_json(dict(table.setup))))
    return found


def allowed_text(table: Table[Any], seat: str | None) -> str:
    """Everything ``seat`` may be sent (``None``: someone with no seat: the catalogue only)."""
    parts: list[Any] = [system(table.system).to_json()] if table.system else []
    if seat is not None:
        parts += [observe(table, seat).to_json(), table.seat(seat).to_json()]
    return "\n".join(compact(_json(part)) for part in parts)


def forbidden_for(table: Table[Any], seat: str | None) -> set[str]:
    """What ``seat`` (``None``: someone with no seat at this table) must never be sent."""
    if seat == REFEREE:
        return set()
    viewer = table.viewer(seat) if seat is not None else Viewer("__nobody__")
    allowed = allowed_text(table, seat)
    return {piece for piece in hidden_fragments(table, viewer) if piece not in allowed}


def _ascii(fragment: str) -> str:
    return "".join(c if ord(c) < 128 else json.dumps(c)[1:-1] for c in fragment)


def find_leaks(bodies: Iterable[tuple[str, bytes]], forbidden: Iterable[str]) -> list[str]:
    """Each ``(where, body)`` that holds a forbidden piece, with the piece."""
    patterns = [
        (piece, encoded)
        for piece in forbidden
        for encoded in {piece.encode(), _ascii(piece).encode()}
    ]
    leaks = []
    for where, body in bodies:
        for piece, pattern in patterns:
            if pattern in body:
                leaks.append(f"{where}: {piece[:100]!r}")
    return leaks
