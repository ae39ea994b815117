"""Names in the log: a person reads "ScarFace" and "the Elves'", never ``scarface`` or
``elves's`` (issue 26; DESIGN.md, "Event vocabulary": one ``describe(event, viewer)`` per game).

A game's ``describe`` is given the event alone, so the display names of the characters or
factions an event mentions travel with it: :func:`with_names` adds ``"names"`` (id → name) to
the payload for the ids the payload mentions, and for an id that only a secret part mentions, a
secret part ``"<part>_names"`` beside it with that part's audience, so that a name never tells
a viewer more than the part they may see. :func:`name_in` reads a name back from the event's
data as a viewer received it; a game with no names of its own shows its ids capitalised
(:func:`title_of`). :func:`possessive` writes "the Elves'" and "Artha's".

>>> from referee.core.events import Event, Secret, only
>>> roster = {"orcs": "the Orcs", "elves": "the Elves"}
>>> slip = with_names(Event("slip.written", {"faction": "orcs"},
...     secrets=(Secret("slip", {"targets": ["elves"]}, only("orcs")),)), roster)
>>> slip.payload["names"], slip.secrets[1].name, slip.secrets[1].value
({'orcs': 'the Orcs'}, 'slip_names', {'elves': 'the Elves'})
>>> data = slip.seen_by("orcs").data
>>> possessive(name_in(data, "orcs")), name_in(data, "elves")
("the Orcs'", 'the Elves')
>>> name_in(slip.seen_by("dwarves").data, "elves")
'elves'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from referee.core.events import Event, Secret
from referee.core.values import Json

__all__ = [
    "NAMES",
    "name_in",
    "names_in",
    "possessive",
    "possessive_of",
    "title_of",
    "titled",
    "with_names",
]

NAMES = "names"
"""The payload key of an event's names: id → display name."""

_SUFFIX = "_names"


def possessive(name: str) -> str:
    """``name``'s possessive: "Artha's", "ScarFace's", and "the Elves'" for a name ending in s.

    >>> possessive("Artha"), possessive("the Elves"), possessive("ScarFace")
    ("Artha's", "the Elves'", "ScarFace's")
    """
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def title_of(identifier: str) -> str:
    """An id as a name, for a game whose characters have no name but their id: each word
    capitalised (``_`` and ``-`` read as spaces), capitals already there kept.

    >>> title_of("moll_cutpurse"), title_of("bob"), title_of("ScarFace"), title_of("")
    ('Moll Cutpurse', 'Bob', 'ScarFace', '')
    """
    words = identifier.replace("_", " ").replace("-", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words)


def possessive_of(identifier: str) -> str:
    """An id as a name (:func:`title_of`) in the possessive: for a game with no names.

    >>> possessive_of("marcos"), possessive_of("bob")
    ("Marcos'", "Bob's")
    """
    return possessive(title_of(identifier))


def titled(data: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """``data`` with the ids under ``keys`` (a string, or a list of them) written as names
    (:func:`title_of`): for a game whose characters have no name but their id.

    >>> titled({"attacker": "moll_cutpurse", "targets": ["jack", 3], "zone": "alley"},
    ...        ["attacker", "targets"])
    {'attacker': 'Moll Cutpurse', 'targets': ['Jack', 3], 'zone': 'alley'}
    """
    out = dict(data)
    for key in set(keys) & out.keys():
        value = out[key]
        if isinstance(value, str):
            out[key] = title_of(value)
        elif isinstance(value, list):
            out[key] = [title_of(v) if isinstance(v, str) else v for v in value]
    return out


def names_in(data: Mapping[str, Any]) -> dict[str, str]:
    """Every name an event's data carries (its payload's and each visible secret part's)."""
    found: dict[str, str] = {}
    for key, value in data.items():
        if (key == NAMES or key.endswith(_SUFFIX)) and isinstance(value, Mapping):
            found.update({str(k): str(v) for k, v in value.items()})
    return found


def name_in(data: Mapping[str, Any], ident: Any, default: Callable[[str], str] = str) -> str:
    """The name of ``ident`` as the event's ``data`` gives it, or ``default(ident)`` (the id as
    given unless the game says otherwise)."""
    key = str(ident)
    names = data.get(NAMES)
    if isinstance(names, Mapping) and key in names:
        return str(names[key])
    return names_in(data).get(key) or default(key)


_SCALARS = (int, float, type(None))
"""JSON values that mention nobody (``bool`` is an ``int``)."""
_LEAVES = frozenset({int, float, bool, type(None)})
"""The exact types of :data:`_SCALARS`' usual values, told apart by ``type`` alone."""


def _mention(value: str, roster: Mapping[str, str], found: dict[str, str]) -> None:
    if value in roster:
        found[value] = roster[value]


def _mentions(value: Any, roster: Mapping[str, str], found: dict[str, str]) -> None:
    """Add to ``found`` the roster's ids ``value`` mentions, in the order they are met (a
    mapping's key before its value). A payload is read once an event, so this walk is on every
    action's path: the JSON types a payload is made of are told by their exact type first, and
    scalars are not descended into; anything else (a subclass, another mapping) takes
    :func:`_mentions_of`."""
    kind = type(value)
    if kind is dict:
        for key, inner in value.items():
            if key in roster:
                found[key] = roster[key]
            inner_kind = type(inner)
            if inner_kind is str:
                if inner in roster:
                    found[inner] = roster[inner]
            elif inner_kind not in _LEAVES:
                _mentions(inner, roster, found)
    elif kind is str:
        if value in roster:
            found[value] = roster[value]
    elif kind is list or kind is tuple:
        for inner in value:
            inner_kind = type(inner)
            if inner_kind is str:
                if inner in roster:
                    found[inner] = roster[inner]
            elif inner_kind not in _LEAVES:
                _mentions(inner, roster, found)
    elif kind not in _LEAVES:
        _mentions_of(value, roster, found)


def _mentions_of(value: Json, roster: Mapping[str, str], found: dict[str, str]) -> None:
    """:func:`_mentions` of a value of no exact JSON type: tested by ``isinstance``."""
    if isinstance(value, str):
        _mention(value, roster, found)
        return
    if isinstance(value, list | tuple):
        for inner in value:
            _mentions(inner, roster, found)
        return
    if isinstance(value, _SCALARS) or not isinstance(value, dict | Mapping):
        return
    for key, inner in value.items():
        if key in roster:
            found[key] = roster[key]
        _mentions(inner, roster, found)


def _named(ids: Iterable[tuple[str, Json]], roster: Mapping[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in ids:
        if key == NAMES or key.endswith(_SUFFIX):
            continue
        _mentions(value, roster, found)
    return found


def with_names(event: Event, roster: Mapping[str, str]) -> Event:
    """``event`` with the names (from ``roster``, id → name) of the ids it mentions: see the
    module's doc. A timer's event to fire (``timer.set``'s secret part ``event``) is named
    too. An event that mentions nobody is returned as it is."""
    if not roster:
        return event
    payload_names = _named(event.payload.items(), roster)
    secrets: list[Secret] = []
    changed = False
    for secret in event.secrets:
        if secret.name.endswith(_SUFFIX):
            secrets.append(secret)
            continue
        value = secret.value
        if secret.name == "event" and isinstance(value, Mapping) and "kind" in value:
            value = with_names(Event.from_json(value), roster).to_json()
            changed = changed or value != secret.value
            secrets.append(replace(secret, value=value))
            continue
        secrets.append(secret)
        more = {
            k: v
            for k, v in _named([(secret.name, value)], roster).items()
            if k not in payload_names
        }
        if more and f"{secret.name}{_SUFFIX}" not in event.payload:
            secrets.append(Secret(f"{secret.name}{_SUFFIX}", dict(more), secret.audience))
            changed = True
    if not payload_names and not changed:
        return event
    payload = dict(event.payload)
    if payload_names:
        payload[NAMES] = dict(payload_names)
    if not event.secrets:  # nothing to check again: a plain copy (``Event.stamped``)
        return event.stamped(payload=payload)
    return replace(event, payload=payload, secrets=tuple(secrets))
