"""Gin Lane offers the simulator a fight to Taken Out ("Fighting").

The referee rolls Initiative; then on each turn the character whose turn it is Attacks where
they can (the first foe offered, no Aspect tagged, the defender answering with her best
allowed skill and taking no Consequence), else Moves (or Sprints) into a zone holding a foe
not yet Taken Out ("Zones": you can only attack someone in your zone), else takes the first
of the preferred actions. The winner is the side the game names (someone on it not Taken
Out). The damage counted is the Health stress each character has ticked. The exact model is
:mod:`referee.systems.ginlane.exact`. A fight in one zone, or in two a clear step apart, is
played on the same dice without the procedure's steps (:mod:`referee.systems.ginlane.fight_dice`).

>>> FIGHT.name
'a fight to Taken Out'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core import REFEREE, Action, Choice, Table
from referee.core.simulation import (
    EncounterOutcome,
    PlayedAlike,
    SimulatedConflict,
    conflict_result,
    sole_winner,
)
from referee.systems.ginlane.scene import SceneState

__all__ = ["FIGHT", "SIMULATIONS"]


def begin(table: Table[Any], seat: str | None) -> list[Action]:
    """The referee rolls Initiative, unless it has been rolled this scene: a fight under way
    goes on from where it stands, and one that is over is the answer (its winner, every time;
    the next fight waits for the scene's end, "Initiative")."""
    state: SceneState = table.state
    if state.order:
        return []
    return [Action(REFEREE, "initiative", {})]


def is_over(start: Table[Any], table: Table[Any]) -> bool:
    """The game says the fight is over (before Initiative, the fight is still to come)."""
    result = conflict_result(table)
    return result is not None and result.over


def health_stress(state: SceneState) -> dict[str, int]:
    """The sum of the ticked Health boxes of each character."""
    return {
        c.id: sum(sum(t.marked) for t in c.tracks if t.name == "Health") for c in state.combatants
    }


def outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The side the game names; each character's Health stress; how many were Taken Out."""
    state: SceneState = table.state
    over = is_over(start, table)
    return EncounterOutcome(
        sole_winner(table) if over else "unfinished",
        state.round,
        health_stress(state),
        over,
        {"taken_out": sum(1 for c in state.combatants if c.taken_out)},
    )


def fighters(table: Table[Any]) -> Sequence[str]:
    """Who may move in the fight: the procedure's actors less the referee, whose choices
    (Initiative, awards, the scene's and the session's end, a sheet to check) are none of the
    fight's kinds; Initiative is rolled by :func:`begin`. (The simulator would ask for the
    referee's choices at every step only to drop them all.)"""
    return tuple(a for a in table.remembered.actors(table.state) if a != REFEREE)


def pick(table: Table[Any], choices: Sequence[Choice]) -> Action | None:
    """Answer what waits: a defence with the best allowed skill, no Aspect tagged; a hit on
    the track. Attack the first foe offered, tagging nothing. Close with the enemy: where
    nobody can Attack, Move (else Sprint) into a zone that holds a foe not yet Taken Out
    ("Zones": you can only attack someone in your zone); otherwise the conflict's preferences
    (Attack first)."""
    state: SceneState = table.state
    for choice in choices:
        if choice.kind == "defend":  # her best allowed skill, first offered; no Aspect tagged
            skills: tuple[Any, ...] = tuple(getattr(choice.params["skill"], "values", ()))
            return Action(choice.actor, "defend", {"skill": skills[0], "tags": []})
        if choice.kind == "absorb":  # the stress on the track, no Consequence
            return Action(choice.actor, "absorb", {"consequences": []})
    attack = next((choice for choice in choices if choice.kind == "attack"), None)
    if attack is not None:
        targets: tuple[Any, ...] = tuple(getattr(attack.params.get("target"), "values", ()))
        return Action(attack.actor, "attack", {"target": targets[0], "tags": []})
    sides = {c.id: c.side for c in state.combatants}

    def has_foe(actor: str, zone: Any) -> bool:
        side = sides.get(actor, actor)
        return any(c.zone == zone and c.side != side and not c.taken_out for c in state.combatants)

    for kind, param in (("move", "to"), ("sprint", "path")):
        for choice in choices:
            if choice.kind != kind or param not in choice.params:
                continue
            for value in getattr(choice.params[param], "values", ()):
                zone = value[-1] if isinstance(value, list) and value else value
                if has_foe(choice.actor, zone):
                    return Action(choice.actor, kind, {param: value})
    return None


def fight_odds(table: Table[Any], seat: str | None, time_limit: float | None) -> dict[str, Any]:
    """The exact odds of the fight (:func:`referee.systems.ginlane.exact.fight_odds`)."""
    from referee.systems.ginlane.exact import fight_odds as solve_fight

    return solve_fight(table, seat, time_limit=time_limit).to_json()


def played_alike(table: Table[Any], seat: str | None) -> PlayedAlike | None:
    """The fight's encounters played on the same dice as the procedure, where the fight is one
    :mod:`referee.systems.ginlane.fight_dice` plays."""
    from referee.systems.ginlane.fight_dice import fight_on_dice

    return fight_on_dice(table)


FIGHT = SimulatedConflict(
    "a fight to Taken Out",
    frozenset(
        {"attack", "manoeuvre", "block", "grapple", "release", "move", "sprint", "wait"}
        | {"full_defence", "seize", "overcome", "throw_grenade", "fuse", "something_else"}
        | {"defend", "absorb"}
    ),
    ("attack", "seize", "overcome", "release", "full_defence", "move", "defend", "absorb"),
    begin,
    is_over,
    outcome,
    fighters,
    pick=pick,
    exact=fight_odds,
    played_alike=played_alike,
)
"""The fight ("Fighting")."""

SIMULATIONS = (FIGHT,)
"""What ``SYSTEM.simulations`` names."""
