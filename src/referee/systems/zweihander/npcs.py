"""Non-player characters: the GM's, and what of them is the GM's alone.

A character whose sheet says ``npc: true`` is played by the GM: no seat plays it. The house
rules keep a character's Corruption and its Order and Chaos Ranks as the bookkeeping of its
player ("Characters accumulate Corruption points during game. At the end of a session, check
your Corruption total", "Corruption into Order & Chaos"): for a non-player character that
player is the GM, so those numbers — with the Disorders they bring — are the GM's to know, not
every player's (Referee's ruling). Everything else of an NPC (its Conditions, its place in a
chase) the table sees as before.

Events carry them hidden: a change to an NPC's secret fields moves from the public
``characters`` part to the secret part ``npc_characters`` (the referee's), the Corruption an
event gives it to ``npc_corruption``, and an event about nothing but an NPC's Corruption
(``corruption.gained``, ``corruption.resolved``) is the referee's whole. The fold reads the
merged data, so every seat's replay agrees with the referee's.

>>> from referee.core import Event
>>> from referee.systems.zweihander.character import Character
>>> from referee.systems.zweihander.state import ZweihanderState
>>> s = ZweihanderState(characters=(Character("anna"), Character("otto", npc=True)))
>>> e = guard(s, Event("x", {"characters": {"anna": {"corruption": 2}, "otto": {"corruption": 3,
...                                                                       "peril": 1}}}))
>>> e.payload["characters"], e.secrets[0].name, e.secrets[0].value
({'anna': {'corruption': 2}, 'otto': {'peril': 1}}, 'npc_characters', {'otto': {'corruption': 3}})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import REFEREE_ONLY, Event, Secret
from referee.core.values import Json, JsonObject, evolved
from referee.systems.zweihander.events import (
    CORRUPTION_GAINED,
    CORRUPTION_RESOLVED,
    MADNESS_WITHSTOOD,
)
from referee.systems.zweihander.state import ZweihanderState

__all__ = ["NPC_CHANGES", "SECRET_FIELDS", "guard", "npc_ids", "redact_state"]

SECRET_FIELDS = (
    "corruption",
    "order_ranks",
    "chaos_ranks",
    "permanent_order_ranks",
    "permanent_chaos_ranks",
    "disorders",
    "fate_points",
    "reputation",
)
"""An NPC's fields only the GM sees: its Corruption, its Order and Chaos Ranks, its Disorders,
and the Fate Points and Reputation that ten ranks and Disorders bring (which would tell them)."""
NPC_CHANGES = "npc_characters"
"""The secret part of an event holding the changes to NPCs' secret fields."""
_WHOLE = frozenset({CORRUPTION_GAINED, CORRUPTION_RESOLVED})
"""Kinds about one character's Corruption alone: an NPC's is the referee's whole event."""


def npc_ids(state: ZweihanderState) -> frozenset[str]:
    """The ids of the non-player characters."""
    return frozenset(c.id for c in state.characters if c.npc)


def guard(state: ZweihanderState, event: Event) -> Event:
    """``event`` with what of an NPC is the GM's moved out of every player's sight (its data,
    payload and secrets merged, is unchanged)."""
    npcs = npc_ids(state)
    if not npcs:
        return event
    data = event.payload
    if event.kind in _WHOLE and data.get("character") in npcs:
        return evolved(event, audience=REFEREE_ONLY)
    payload: dict[str, Json] = dict(data)
    secrets: list[Secret] = list(event.secrets)
    changes = data.get("characters")
    if isinstance(changes, Mapping):
        public: dict[str, Json] = {}
        hidden: dict[str, Json] = {}
        for cid, fields in changes.items():
            if cid in npcs and isinstance(fields, Mapping):
                kept = {k: v for k, v in fields.items() if k not in SECRET_FIELDS}
                gone = {k: v for k, v in fields.items() if k in SECRET_FIELDS}
                if gone:
                    hidden[cid] = gone
                if kept:
                    public[cid] = kept
            else:
                public[cid] = fields
        if hidden:
            secrets.append(Secret(NPC_CHANGES, hidden, REFEREE_ONLY))
            if public:
                payload["characters"] = public
            else:
                payload.pop("characters")
    offences = data.get("offences")
    if isinstance(offences, list) and any(
        isinstance(o, Mapping) and o.get("character") in npcs for o in offences
    ):
        secrets.append(Secret("offences", offences, REFEREE_ONLY))
        payload.pop("offences")
    if event.kind == MADNESS_WITHSTOOD and data.get("character") in npcs and "corruption" in data:
        secrets.append(Secret("corruption", data["corruption"], REFEREE_ONLY))
        payload.pop("corruption")
    if len(secrets) == len(event.secrets):
        return event
    return evolved(event, payload=payload, secrets=tuple(secrets))


def redact_state(data: JsonObject, npcs: frozenset[str]) -> JsonObject:
    """A player's view of the state: the NPCs without their secret fields."""
    chars = data.get("characters")
    if not npcs or not isinstance(chars, Mapping):
        return data
    shown: dict[str, Any] = {}
    for cid, sheet in chars.items():
        if cid in npcs and isinstance(sheet, Mapping):
            shown[cid] = {k: v for k, v in sheet.items() if k not in SECRET_FIELDS}
        else:
            shown[cid] = sheet
    return {**data, "characters": shown}
