"""What each viewer may see of an evening's state: the referee everything, a player their own.

RULINGS.md: a character never sees the contents of their own perception envelopes; a
Contingency Envelope's contents reach its holder on opening. Combats are public: their part of
the view is built once per state for every seat (:func:`combats_json`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from referee.core import Json
from referee.core.clock import time_of_day
from referee.core.remembered import by_identity
from referee.core.values import SharedJson
from referee.systems.intrigue.characters import ENGLISH, Character, CharacterId
from referee.systems.intrigue.rounds import pending_declarers
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = ["combats_json", "game_json"]


def _character_json(state: IntrigueState, c: Character) -> dict[str, Json]:
    status = state.status(c.id)
    return {
        "name": c.name,
        "number": c.number,
        "combat": c.combat,
        "strength": c.strength,
        "stamina": state.stamina(c.id),
        "stamina_stat": c.stamina,
        "mind": c.mind,
        "wounds": c.wounds,
        "wounds_marked": status.wounds_marked,
        "wounds_left": c.wounds - status.wounds_marked,
        "damage": status.damage,
        "knocked_out": status.knocked_out,
        "wake_due": status.wake_due,
        "wakes_at": None if status.wake_due is None else time_of_day(status.wake_due, state.start),
        "pending_wounds": status.pending_wounds,
        "dead": status.dead,
        "drawn": status.drawn,
        "skills": dict(c.skills),
        "languages": ([ENGLISH] if c.speaks_english else []) + list(c.languages),
        "abilities": [a.name for a in c.abilities],
        "items": [i.name for i in c.items],
    }


def game_json(state: IntrigueState, identities: frozenset[str] | None) -> dict[str, Any]:
    """The state as JSON: everything when ``identities`` is ``None`` (the referee), otherwise
    what a viewer who is those characters may see."""
    everything = identities is None
    mine = identities or frozenset()
    characters: dict[str, Any] = {}
    for c in state.characters:
        if everything or c.id in mine:
            characters[c.id] = _character_json(state, c)
        else:
            status = state.status(c.id)
            characters[c.id] = {
                "name": c.name,
                "number": c.number,
                "knocked_out": status.knocked_out,
                "dead": status.dead,
            }
    perception: dict[str, Any] = {}
    for p in state.perception_envelopes:
        if everything:
            perception[p.id] = {
                "holder": p.holder,
                "label": p.label,
                "contents": p.contents,
                "directions": p.directions,
            }
        elif p.holder in mine:
            perception[p.id] = {"holder": p.holder, "label": p.label}
    contingency: dict[str, Any] = {}
    for e in state.contingency_envelopes:
        if everything or e.holder in mine:
            entry: dict[str, Any] = {
                "holder": e.holder,
                "label": e.condition.label,
                # the time of day it may be opened, as the evening's clock reads it
                "opens_at": None
                if e.condition.at is None
                else time_of_day(e.condition.at, state.start),
                "openable": e.id in state.openable,
                "opened": e.id in state.opened,
            }
            if everything or e.id in state.opened:
                entry["contents"] = e.contents
            contingency[e.id] = entry
    cooldowns = [
        {"perceiver": a, "target": b, "until": time_of_day(until, state.start), "due": until}
        for a, b, until in state.cooldowns
        if everything or a in mine
    ]
    return {
        "start": state.start,
        "characters": characters,
        "perception_envelopes": perception,
        "contingency_envelopes": contingency,
        "cooldowns": cooldowns,
        "combats": combats_json(state),
    }


@by_identity(8)
def combats_json(state: IntrigueState) -> SharedJson:
    """The combats as everyone sees them ("Combats are public"): built once per state and
    shared by every seat (issue 29). Between rounds they depend on the combats alone, so the
    same combats (most actions of an evening touch none) are written once for every state that
    holds them, and each combat between rounds once for as long as it stays the same value."""
    if any(combat.in_round for combat in state.combats):  # who has still to declare: the state's
        return SharedJson(
            {
                combat.id: _combat_json(combat, pending_declarers(state, combat))
                if combat.in_round
                else _combat_between_rounds(combat)
                for combat in state.combats
            }
        )
    return _combats_between_rounds(state.combats)


@by_identity(8)
def _combats_between_rounds(combats: tuple[Combat, ...]) -> SharedJson:
    return SharedJson({combat.id: _combat_between_rounds(combat) for combat in combats})


@by_identity(4096)
def _combat_between_rounds(combat: Combat) -> dict[str, Json]:
    return _combat_json(combat, ())


def _combat_json(combat: Combat, pending: Iterable[CharacterId]) -> dict[str, Json]:
    return {
        "starter": combat.starter,
        "sides": {c: s for c, s in combat.sides},
        "surprised": sorted(combat.surprised),
        "round": combat.round,
        "ended": combat.ended,
        "in_round": combat.in_round,
        "declarations": {
            d.actor: {"action": d.kind, "target": d.target, "resolved": d.resolved}
            for d in combat.declarations
        },
        "holds": {h.held: h.holder for h in combat.holds},
        "streaks": dict(combat.streaks),
        "escaped": sorted(combat.escaped),
        "pending": list(pending),
    }
