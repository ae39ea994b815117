"""Wound Recovery at the table: "a character can recover 1D of wounds each maneuver with a
successful Health test" (a wound taken this maneuver heals from the next; downtime heals all,
:mod:`.downtime`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event, RollCard
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import HEALTH_TEST
from referee.systems.kingdoms.dice import BurningPool, BurningTest
from referee.systems.kingdoms.events import HEALTH_TESTED
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.structure import Fold, acting_faction, refuse, require_phase, tell

__all__ = ["FOLDS", "health_test"]

RULE = "Wound Recovery"


def health_test(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``health_test``: the leader or 2iC tests Health against the Ob of their worst wound,
    once a maneuver; a pass recovers 1D (or the Superficial wound, when no dice are lost)."""
    faction = acting_faction(b, action)
    who_key = HEALTH_TEST.of(action).character
    state = b.state
    require_phase(state, "maneuver")
    who = faction.character(who_key)
    key = f"{faction.id}.{who_key}"
    if key in state.wounded:
        raise refuse(
            RULE, f"{who.name} was wounded this maneuver and acts at the penalty until the next"
        )
    if key in state.health_tested:
        raise refuse(RULE, f"{who.name} has made a Health test this maneuver")
    if not who.wound_dice and not who.superficial:
        raise refuse(RULE, f"{who.name} has no wound to recover from")
    health = who.stat("Health")
    if health is None:
        raise refuse(RULE, f"{who.name}'s sheet has no Health")
    ob = who.health_ob
    test = BurningTest(BurningPool(health.exponent, health.shade, open_ended=health.open_ended), ob)
    result = test.roll(dice)
    passed = result.is_success
    card = RollCard.of(test.kernel or test, result, f"{who.name} tests Health", rule=RULE)
    payload = {
        "faction": faction.id,
        "character": who_key,
        "ob": ob,
        "odds": str(test.odds().success),
        "successes": result.value,
        "passed": passed,
        "wound_dice": who.wound_dice - 1 if passed and who.wound_dice else who.wound_dice,
        "superficial": who.superficial and not (passed and not who.wound_dice),
        "roll": card.to_json(),
    }
    tell(b, HEALTH_TESTED, payload)


def health_tested(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`HEALTH_TESTED`: the wounds left, and the test made this maneuver."""
    data: dict[str, Any] = dict(event.data)
    fid, key = str(data["faction"]), str(data["character"])
    healed = evolved(
        state.factions[fid].character(key),
        wound_dice=int(data["wound_dice"]),
        superficial=bool(data["superficial"]),
    )
    state = state.with_faction(fid, **{key: healed})
    return evolved(state, health_tested=state.health_tested | {f"{fid}.{key}"})


FOLDS: Mapping[str, Fold] = {HEALTH_TESTED: health_tested}
"""This section's folds, by event kind."""
