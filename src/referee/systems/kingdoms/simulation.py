"""Burning Kingdoms offers the simulator one maneuver, slips to resolution.

Each faction writes one slip (the boldest maneuver it may: Sap, then Infiltrate, Fortify,
Conserve, Assess), then passes its scenes; then the maneuver is revealed and resolved, keeping
every roll and taking the first tie-break offered. The winner is the faction the game names
(the most disposition gained), ``"tie"`` if it names several. The exact model is
:mod:`referee.systems.kingdoms.exact`.

>>> MANEUVER.name
'a maneuver, slips to resolution'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core import Action, Choice, Table
from referee.core.simulation import (
    EncounterOutcome,
    PlayedAlike,
    SimulatedConflict,
    conflict_result,
    first_of_choice,
)
from referee.systems.kingdoms.state import KingdomsState

__all__ = ["MANEUVER", "SIMULATIONS"]


def begin(table: Table[Any], seat: str | None) -> list[Action]:
    """Nothing to begin: a maneuver begins with its slips."""
    return []


def is_over(start: Table[Any], table: Table[Any]) -> bool:
    """The game's maneuver is over, and it is not the one already over at ``start`` (a table
    between maneuvers waits for the next: the simulation plays none of that)."""
    now = conflict_result(table)
    if now is None or not now.over:
        return False
    then = conflict_result(start)
    return then is None or not then.over or then.name != now.name


def outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The faction the game names as the maneuver's winner (the most disposition gained),
    ``"tie"`` if it names several; each faction's change of disposition from ``start``."""
    before: KingdomsState = start.state
    after: KingdomsState = table.state
    change = {
        f: after.factions[f].disposition - before.factions[f].disposition for f in after.factions
    }
    result = conflict_result(table)
    top = () if result is None else result.winners
    return EncounterOutcome(
        top[0] if len(top) == 1 else "tie",
        1,
        {f: -c for f, c in change.items()},
        is_over(start, table),
        {f"change:{f}": c for f, c in change.items()},
    )


def factions(table: Table[Any]) -> Sequence[str]:
    """Who may move in the maneuver: every faction, in seat order. (The procedure's ``actors``
    works out every faction's choices to see who has a move, and the simulator then asks for
    them again; a faction without a move has only the kinds open at any time, none of them the
    maneuver's, so asking each faction once gives the same choices at half the cost.)"""
    state: KingdomsState = table.state
    return tuple(state.factions)


BOLDNESS = ("Sap", "Infiltrate", "Fortify", "Conserve", "Assess")
"""The maneuvers a simulated faction writes, boldest first."""


def boldness(choice: Choice) -> int:
    """Where the choice's first maneuver stands in :data:`BOLDNESS` (last if not there)."""
    named = getattr(choice.params.get("maneuver"), "values", ("",))[0]
    return BOLDNESS.index(named) if named in BOLDNESS else len(BOLDNESS)


def pick(table: Table[Any], choices: Sequence[Choice]) -> Action | None:
    """Each faction writes one slip (the boldest it may), then passes its scenes; then the
    maneuver is revealed and resolved (keeping every roll, the first tie-break offered)."""
    state: KingdomsState = table.state
    for kind, done in (("write_slip", set(state.slips)), ("pass", set(state.passed))):
        for choice in sorted(choices, key=boldness):
            if choice.kind == kind and choice.actor not in done:
                return first_of_choice(choice)
    agreed = set(state.tie_offers)
    for kind in ("reveal", "keep", "tie_break", "resolve"):
        for choice in choices:
            if choice.kind == kind and not (kind == "tie_break" and choice.actor in agreed):
                return first_of_choice(choice)
    return None


def maneuver_odds(table: Table[Any], seat: str | None, time_limit: float | None) -> dict[str, Any]:
    """The exact odds of the maneuver (:func:`referee.systems.kingdoms.exact.maneuver_odds`)."""
    from referee.systems.kingdoms.exact import maneuver_odds as solve_maneuver

    return solve_maneuver(table, time_limit=time_limit).to_json()


def played_alike(table: Table[Any], seat: str | None) -> PlayedAlike | None:
    """The maneuver's encounters played on the same dice as the procedure, where the table is
    at a maneuver :mod:`referee.systems.kingdoms.maneuver_dice` plays."""
    from referee.systems.kingdoms.maneuver_dice import maneuver_on_dice

    return maneuver_on_dice(table)


MANEUVER = SimulatedConflict(
    "a maneuver, slips to resolution",
    frozenset({"write_slip", "pass", "reveal", "keep", "tie_break", "resolve"}),
    ("write_slip", "pass", "reveal", "keep", "tie_break", "resolve"),
    begin,
    is_over,
    outcome,
    factions,
    pick=pick,
    exact=maneuver_odds,
    played_alike=played_alike,
)
"""One maneuver, slips to resolution."""

SIMULATIONS = (MANEUVER,)
"""What ``SYSTEM.simulations`` names."""
