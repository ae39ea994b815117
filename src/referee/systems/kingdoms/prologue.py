"""Before the first maneuver: "Prologues" (each Faction Leader tests a prologue skill, its
successes added to disposition, the narration order and the cap fixed once all have) and the
"Chronicle Objective"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import OBJECTIVE, PROLOGUE
from referee.systems.kingdoms.cards import pool_card
from referee.systems.kingdoms.dice import roll_before, success_distribution
from referee.systems.kingdoms.events import OBJECTIVE_SET, PROLOGUE_ENDED, PROLOGUE_ROLLED
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    refuse,
    require_phase,
    require_under_way,
    tell,
)
from referee.systems.kingdoms.tables import setup_tables

__all__ = ["FOLDS", "objective", "prologue"]


def prologue(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``prologue``: the leader tests a skill from the prologue list, open-ended; once every
    faction has, the narration order (most successes first) and the cap follow."""
    faction = acting_faction(b, action)
    params = PROLOGUE.of(action)
    require_phase(b.state, "prologue")
    if faction.prologue is not None:
        raise refuse("Prologues", f"{faction.name} have already tested their prologue skill")
    skill = params.skill
    if (
        skill.casefold() not in {s.casefold() for s in setup_tables().prologue_skills}
        and not params.substitute
    ):
        raise refuse("Prologues", f"{skill!r} is not on the prologue list")
    ability = faction.leader.skill(skill)
    if ability is None:
        raise refuse("Prologues", f"{faction.leader.name} has no {skill!r} skill")
    # the odds before the roll: the chance of each number of successes (open-ended; the top
    # bucket is that many or more)
    top = ability.exponent + 3
    chances = success_distribution(ability.exponent, ability.shade, True, cap=top)
    odds = {(f"{k}+" if k == top else str(k)): str(p) for k, p in chances.items()}
    rolled = roll_before(ability.exponent, ability.shade, True, dice)
    card = pool_card(
        rolled, f"{faction.leader.name} tests {skill} for the prologue", "Prologues", odds=odds
    )
    payload = {
        "faction": faction.id,
        "skill": skill,
        "odds": odds,
        "successes": rolled.successes,
        "roll": card.to_json(),
        "pool_roll": rolled.to_json(),
    }
    tell(b, PROLOGUE_ROLLED, payload)
    state = b.state  # the successes added to this faction's disposition
    done = {f: x.prologue for f, x in state.factions.items()}
    if all(v is not None for v in done.values()):
        order = sorted(state.seats, key=lambda f: -(done[f] or 0))
        cap = max(state.factions[f].disposition for f in state.seats)
        tell(b, PROLOGUE_ENDED, {"narration_order": order, "cap": cap})


def objective(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``objective``: the faction's Chronicle Objective, in words."""
    faction = acting_faction(b, action)
    text = OBJECTIVE.of(action).text.strip()
    require_under_way(b.state, "Chronicle Objective")
    if not text:
        raise refuse("Chronicle Objective", "an objective needs words")
    tell(b, OBJECTIVE_SET, {"faction": faction.id, "objective": text})


# ------------------------------------------------------------------------------------ folds


def prologue_rolled(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`PROLOGUE_ROLLED`: the successes add to disposition (and to the starting one)."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["faction"])
    successes = int(data["successes"])
    faction = state.factions[fid]
    return state.with_faction(
        fid,
        prologue=successes,
        disposition=faction.disposition + successes,
        starting_disposition=faction.starting_disposition + successes,
    )


def prologue_ended(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`PROLOGUE_ENDED`: the first maneuver, and the cap."""
    data: dict[str, Any] = dict(event.data)
    return evolved(state, phase="maneuver", cap=int(data["cap"]))


def objective_set(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`OBJECTIVE_SET`: the faction's objective."""
    data: dict[str, Any] = dict(event.data)
    return state.with_faction(str(data["faction"]), objective=str(data["objective"]))


FOLDS: Mapping[str, Fold] = {
    PROLOGUE_ROLLED: prologue_rolled,
    PROLOGUE_ENDED: prologue_ended,
    OBJECTIVE_SET: objective_set,
}
"""This section's folds, by event kind."""
