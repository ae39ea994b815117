"""Downtime at the table: the Resources maintenance tests owed (a failure taxes Resources)
and the next maneuver, which the last maneuver's statuses take hold in and downtime heals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event, RollCard
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import MAINTENANCE, NEXT_MANEUVER
from referee.systems.kingdoms.dice import BurningPool, BurningTest, difficulty
from referee.systems.kingdoms.events import MAINTENANCE_TESTED, MANEUVER_STARTED
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    names_of_ids,
    refuse,
    require_phase,
    tell,
)

__all__ = ["FOLDS", "maintenance", "next_maneuver"]

RULE = "Downtime"


def maintenance(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``maintenance``: the leader's Resources against the maintenance Ob (plus a Sap's extra
    Ob); a failure taxes 1 (routine), 2 (difficult) or the margin (challenging)."""
    faction = acting_faction(b, action)
    MAINTENANCE.of(action)
    state = b.state
    require_phase(state, "downtime", "consequences")
    if not faction.maintenance:
        raise refuse(RULE, f"{faction.name} owe no Resources maintenance test")
    extra = faction.maintenance[0]
    ob = state.maintenance_ob + extra
    exponent = faction.leader.resources
    test = BurningTest(BurningPool(exponent), ob)
    result = test.roll(dice)
    passed = result.is_success
    kind = difficulty(exponent, ob)
    tax = 0
    if not passed:
        tax = {"routine": 1, "difficult": 2}.get(kind, ob - result.value)
    label = f"{faction.leader.name}'s Resources maintenance test"
    payload = {
        "faction": faction.id,
        "ob": ob,
        "extra_ob": extra,
        "dice": exponent,
        "odds": str(test.odds().success),
        "successes": result.value,
        "passed": passed,
        "difficulty": kind,
        "tax": tax,
        "resources": max(0, exponent - tax),
        "roll": RollCard.of(test.kernel or test, result, label, rule=RULE).to_json(),
    }
    tell(b, MAINTENANCE_TESTED, payload)


def next_maneuver(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``next_maneuver``: once every maintenance test is made; downtime heals the factions
    that earned it."""
    acting_faction(b, action)
    NEXT_MANEUVER.of(action)
    state = b.state
    require_phase(state, "downtime")
    owing = [f for f in state.standing() if state.factions[f].maintenance]
    if owing:
        raise refuse(
            RULE,
            "the next maneuver waits for the maintenance tests owed by "
            + ", ".join(names_of_ids(state, owing)),
        )
    healed = [f for f in state.standing() if state.factions[f].earned_downtime]
    tell(b, MANEUVER_STARTED, {"maneuver_number": state.maneuver + 1, "healed": healed})


# ------------------------------------------------------------------------------------ folds


def maintenance_tested(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`MAINTENANCE_TESTED`: one test fewer owed; Resources after the tax."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["faction"])
    faction = state.factions[fid]
    return state.with_faction(
        fid,
        maintenance=faction.maintenance[1:],
        leader=evolved(faction.leader, resources=int(data["resources"])),
    )


def maneuver_started(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`MANEUVER_STARTED`: the statuses of the last maneuver take hold, downtime heals,
    and the maneuver's slips, scenes and rolls start afresh."""
    data: dict[str, Any] = dict(event.data)
    healed = {str(h) for h in data.get("healed", ()) or ()}
    for fid, faction in state.factions.items():
        changes: dict[str, Any] = {
            "sapped": faction.next_sapped,
            "cannot_act": faction.next_cannot_act,
            "next_sapped": 0,
            "next_cannot_act": False,
            "earned_downtime": False,
        }
        if fid in healed:
            changes["leader"] = evolved(faction.leader, wound_dice=0, superficial=False)
            if faction.second is not None:
                changes["second"] = evolved(faction.second, wound_dice=0, superficial=False)
        state = state.with_faction(fid, **changes)
    return evolved(
        state,
        phase="maneuver",
        maneuver=int(data["maneuver_number"]),
        slips={},
        salts={},
        scenes=(),
        passed=frozenset(),
        health_tested=frozenset(),
        wounded=frozenset(),
        reader=None,
        order=(),
        void={},
        rolls={},
        tie_offers={},
    )


FOLDS: Mapping[str, Fold] = {
    MAINTENANCE_TESTED: maintenance_tested,
    MANEUVER_STARTED: maneuver_started,
}
"""This section's folds, by event kind."""
