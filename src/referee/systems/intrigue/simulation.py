"""Intrigue in the Clouds offers the simulator a combat to a knock-out ("Combat rules").

One character starts a combat on another; each side Attacks the first opponent every round
(the characters declare in turn, the referee resolves after them) until the game says the
combat is over. The winners are those the game names (everyone still standing, not escaped);
if none, ``"escaped"`` where someone got away (the game's return of 0: neither won nor fell).
The exact model is the duel of :mod:`referee.systems.intrigue.exact`.

>>> COMBAT.name, COMBAT.why_not_exact
('a combat to a knock-out', '')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import REFEREE, Action, Choice, RefereeError, Table
from referee.core.simulation import (
    EncounterOutcome,
    PlayedAlike,
    SimulatedConflict,
    conflict_over,
    conflict_result,
    first_of_choice,
)
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = ["COMBAT", "SIMULATIONS"]


class NotADuel(RefereeError):
    """The table's combat is not the duel the exact model solves."""


def last_combat(table: Table[Any]) -> Combat | None:
    """The evening's last combat (under way or over), if any has begun."""
    state: IntrigueState = table.state
    return state.combats[-1] if state.combats else None


def begin(table: Table[Any], seat: str | None) -> list[Action]:
    """``seat``'s character (else the first able to act) starts a combat on the next able."""
    combat = last_combat(table)
    if combat is not None and not combat.ended:
        return []
    state: IntrigueState = table.state
    able = [c.id for c in state.characters if state.status(c.id).can_act]
    starter = seat if seat in able else (able[0] if able else None)
    others = [c for c in able if c != starter]
    if starter is None or not others:
        return []
    return [Action(starter, "start_combat", {"targets": [others[0]]})]


def is_over(start: Table[Any], table: Table[Any]) -> bool:
    return conflict_over(table)


def damage_taken(start: Table[Any], table: Table[Any], sides: Mapping[str, int]) -> dict[str, int]:
    """The damage each side took since ``start``: a standing character's damage is wiped when
    the combat ends, so the events are counted, not the sheets."""
    damage = dict.fromkeys(sides, 0)
    for version in range(start.version, table.version):
        event = table.log[version]
        data: dict[str, Any] = dict(event.data)
        if event.kind == "damage.taken" and data.get("character") in damage:
            damage[str(data["character"])] += int(data["amount"])
    return damage


def outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The winners the game names, joined (see the module's doc); the damage each side took,
    how many died and how many were Knocked Out."""
    state: IntrigueState = table.state
    combat = last_combat(table)
    sides = dict(combat.sides) if combat is not None else {}
    result = conflict_result(table)
    winners = () if result is None else result.winners
    winner = ",".join(sorted(winners)) or "none"
    if not winners and result is not None and any(r == 0 for _, r in result.returns):
        winner = "escaped"
    return EncounterOutcome(
        winner,
        combat.round if combat is not None else 0,
        damage_taken(start, table, sides),
        result is not None and result.over,
        {
            "deaths": sum(1 for c in sides if state.status(c).dead),
            "knocked_out": sum(1 for c in sides if state.status(c).knocked_out),
        },
    )


def actors(table: Table[Any]) -> Sequence[str]:
    """The combat's sides in turn, then the referee."""
    combat = last_combat(table)
    return [*(dict(combat.sides) if combat is not None else {}), REFEREE]


def pick(table: Table[Any], choices: Sequence[Choice]) -> Action | None:
    """Attack the first opponent; the referee resolves when everyone has declared."""
    combat = last_combat(table)
    sides = dict(combat.sides) if combat is not None else {}
    for choice in choices:
        if choice.kind == "declare" and choice.params.get("action") is not None:
            target = choice.params.get("target")
            if "attack" in getattr(choice.params["action"], "values", ()) and target is not None:
                mine = sides.get(choice.actor)
                foes = [t for t in getattr(target, "values", ()) if sides.get(t) != mine]
                if foes:
                    return Action(choice.actor, "declare", {"action": "attack", "target": foes[0]})
    for choice in choices:
        if choice.kind == "declare" and choice.actor != REFEREE:
            return None  # someone must declare but cannot attack: the generic default decides
    for choice in choices:
        if choice.kind == "resolve":
            return first_of_choice(choice)
    return None


def duel_begun(table: Table[Any], seat: str | None) -> tuple[str, str] | None:
    """The duel the combat begins with: its starter and its one target (``None`` if it begins
    no combat of two characters not yet in one)."""
    started = begin(table, seat)
    targets: Any = started[0].params.get("targets") if len(started) == 1 else None
    if not isinstance(targets, list) or len(targets) != 1:
        return None
    return started[0].actor, str(targets[0])


def duel_odds(table: Table[Any], seat: str | None, time_limit: float | None) -> dict[str, Any]:
    """The exact odds of the duel the combat begins with (two characters not yet in one)."""
    from referee.systems.intrigue.exact import duel_from_table
    from referee.systems.intrigue.exact import duel_odds as solve_duel

    begun = duel_begun(table, seat)
    if begun is None:
        raise NotADuel("the exact model is a duel of two characters not yet in a combat")
    return solve_duel(duel_from_table(table, *begun)).to_json()


def played_alike(table: Table[Any], seat: str | None) -> PlayedAlike | None:
    """The duel's encounters played on the same dice as the procedure, where the combat is the
    duel (:mod:`referee.systems.intrigue.duel_dice`)."""
    from referee.systems.intrigue.duel_dice import duel_on_dice

    begun = duel_begun(table, seat)
    return None if begun is None else duel_on_dice(table, *begun)


COMBAT = SimulatedConflict(
    "a combat to a knock-out",
    frozenset({"declare", "resolve"}),
    ("declare", "resolve"),
    begin,
    is_over,
    outcome,
    actors,
    pick,
    first_mover=True,  # the characters declare in turn; the referee resolves after them
    exact=duel_odds,
    played_alike=played_alike,
)
"""The combat ("Combat rules"), solved exactly as a duel where it is one."""

SIMULATIONS = (COMBAT,)
"""What ``SYSTEM.simulations`` names."""
