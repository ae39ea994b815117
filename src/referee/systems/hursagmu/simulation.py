"""Hursagmu offers the simulator a melee until one side is unconscious ("Action").

Nothing to begin: the encounter's round begins with initiative. Each fighter takes the first
of the preferred actions (initiative, declare, defend, act, take, end the round) until the game
says the melee is over. The winner is the side the game names (still conscious); the damage
counted is the hits each fighter lost. The exact model is :mod:`referee.systems.hursagmu.exact`.

>>> MELEE.name
'a melee to unconsciousness'
"""

from __future__ import annotations

from typing import Any

from referee.core import Action, Table
from referee.core.simulation import (
    EncounterOutcome,
    PlayedAlike,
    SimulatedConflict,
    conflict_over,
    sole_winner,
)
from referee.systems.hursagmu.state import Encounter

__all__ = ["MELEE", "SIMULATIONS"]


def begin(table: Table[Any], seat: str | None) -> list[Action]:
    """Nothing to begin: the round begins with initiative."""
    return []


def is_over(start: Table[Any], table: Table[Any]) -> bool:
    return conflict_over(table)


def outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The side the game names; the hits each fighter lost; the rounds played since ``start``."""
    before: Encounter = start.state
    after: Encounter = table.state
    damage = {
        who: max(0, before.fighters[who].hits - fighter.hits)
        for who, fighter in after.fighters.items()
    }
    over = conflict_over(table)
    return EncounterOutcome(
        sole_winner(table) if over else "unfinished",
        after.round - before.round + 1,
        damage,
        over,
    )


def played_alike(table: Table[Any], seat: str | None) -> PlayedAlike | None:
    """The melee's encounters played on the same dice as the procedure, where the table is at
    the start of the melee the default policy fights
    (:mod:`referee.systems.hursagmu.melee_dice`)."""
    from referee.systems.hursagmu.melee_dice import melee_on_dice

    return melee_on_dice(table)


def melee_odds(table: Table[Any], seat: str | None, time_limit: float | None) -> dict[str, Any]:
    """The exact odds of the melee (:func:`referee.systems.hursagmu.exact.duel_odds`)."""
    from referee.systems.hursagmu.exact import duel_odds

    return duel_odds(table, seat, time_limit=time_limit).to_json()


MELEE = SimulatedConflict(
    "a melee to unconsciousness",
    frozenset({"initiative", "declare", "act", "defend", "take", "wait", "hold", "end_round"}),
    ("initiative", "declare", "defend", "act", "take", "end_round"),
    begin,
    is_over,
    outcome,
    exact=melee_odds,
    played_alike=played_alike,
)
"""The melee ("Action")."""

SIMULATIONS = (MELEE,)
"""What ``SYSTEM.simulations`` names."""
