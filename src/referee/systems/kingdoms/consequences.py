"""Consequences at the table: who counts as a defeated faction's conqueror (the defeated
player chooses on a tie), the defeated Faction Leader joining a faction still in contention
(losing Resources and the highest affiliation unless it joins its conqueror), and the
conqueror buying that affiliation with the Cash on Hand it inherits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import BUY_AFFILIATION, CHOOSE_CONQUEROR, JOIN
from referee.systems.kingdoms.events import AFFILIATION_BOUGHT, CONQUEROR_NAMED, LEADER_JOINED
from referee.systems.kingdoms.state import Faction, KingdomsState
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    faction_name,
    names_of_ids,
    refuse,
    require_phase,
    require_under_way,
    tell,
)

__all__ = ["FOLDS", "buy_affiliation", "choose_conqueror", "join"]

RULE = "Consequences"


def choose_conqueror(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``choose_conqueror``: the defeated faction names its conqueror among those tied."""
    faction = acting_faction(b, action)
    chosen = CHOOSE_CONQUEROR.of(action).conqueror
    require_phase(b.state, "consequences")
    candidates = b.state.pending_conquest.get(faction.id)
    if candidates is None:
        raise refuse(RULE, f"{faction.name} have no tied conquerors to choose between")
    if chosen not in candidates:
        raise refuse(
            RULE,
            f"the conqueror is one of {', '.join(names_of_ids(b.state, candidates))}, "
            f"not {chosen!r}",
        )
    named = {"defeated": faction.id, "conqueror": chosen, "why": "chosen by the defeated player"}
    tell(b, CONQUEROR_NAMED, named)


def join(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``join``: the defeated leader joins a faction still in contention; joining another
    than the conqueror loses the Resources (Cash on Hand to the conqueror) and the highest
    affiliation."""
    faction = acting_faction(b, action)
    new = JOIN.of(action).faction
    state = b.state
    require_under_way(state, "defeated leader joins another faction")
    if not faction.out:
        raise refuse(
            RULE,
            f"{faction.name} are still in contention: only a defeated leader joins another faction",
        )
    if faction.joined is not None:
        raise refuse(
            RULE, f"{faction.leader.name} has already joined {faction_name(state, faction.joined)}"
        )
    if faction.id in state.pending_conquest:
        raise refuse(RULE, "first choose who counts as the conqueror")
    if new not in state.factions or state.factions[new].out:
        raise refuse(RULE, f"{new!r} is not a faction still in contention")
    payload: dict[str, Any] = {
        "defeated": faction.id,
        "leader": faction.leader.name,
        "faction": new,
        "conqueror": faction.conqueror,
    }
    if faction.conqueror is not None and new != faction.conqueror:
        payload.update(_losses(faction, faction.conqueror))
    tell(b, LEADER_JOINED, payload)


def _losses(faction: Faction, conqueror: str) -> dict[str, Any]:
    """What a defeated leader joining another than its conqueror loses."""
    affiliations = dict(faction.leader.affiliations)
    highest = max(affiliations, key=lambda a: affiliations[a]) if affiliations else None
    return {
        "resources_lost": faction.leader.resources,
        "affiliation_lost": highest,
        "affiliation_dice": affiliations.get(highest, 0) if highest else 0,
        "cash_on_hand_to": conqueror,
    }


def buy_affiliation(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``buy_affiliation``: the conqueror buys a defeated foe's lost affiliation with the Cash
    on Hand it inherited."""
    faction = acting_faction(b, action)
    BUY_AFFILIATION.of(action)
    require_under_way(b.state, "affiliation bought")
    for other in b.state.factions.values():
        if (
            other.conqueror == faction.id
            and other.lost_affiliation is not None
            and not other.affiliation_bought
        ):
            payload = {
                "faction": faction.id,
                "from": other.id,
                "affiliation": other.lost_affiliation,
                "dice": other.lost_affiliation_dice,
                "cash_spent": other.lost_resources,
            }
            tell(b, AFFILIATION_BOUGHT, payload)
            return
    raise refuse(RULE, f"{faction.name} have no defeated foe's affiliation to buy")


# ------------------------------------------------------------------------------------ folds


def conqueror_named(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`CONQUEROR_NAMED`: the defeated faction's conqueror; no choice left pending."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["defeated"])
    state = state.with_faction(fid, conqueror=str(data["conqueror"]))
    pending = {k: v for k, v in state.pending_conquest.items() if k != fid}
    return evolved(state, pending_conquest=pending)


def leader_joined(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`LEADER_JOINED`: the leader's new faction and what it lost; downtime (or the
    chronicle's end) once no defeated leader is left to join."""
    data: dict[str, Any] = dict(event.data)
    fid, new = str(data["defeated"]), str(data["faction"])
    state = state.with_faction(fid, joined=new)
    state = state.with_faction(new, allies=(*state.factions[new].allies, fid))
    if data.get("resources_lost") is not None:
        state = _lose_to_the_conqueror(state, fid, data)
    still = any(f.out and f.joined is None for f in state.factions.values())
    phase = state.phase
    if phase == "consequences" and not still and not state.pending_conquest:
        phase = "over" if state.winner else "downtime"
    return evolved(state, phase=phase)


def _lose_to_the_conqueror(
    state: KingdomsState, fid: str, data: Mapping[str, Any]
) -> KingdomsState:
    """The defeated leader's Resources (to the conqueror's Cash on Hand) and affiliation."""
    lost = str(data["affiliation_lost"]) if data.get("affiliation_lost") else None
    leader = state.factions[fid].leader
    state = state.with_faction(
        fid,
        lost_resources=int(data["resources_lost"]),
        lost_affiliation=lost,
        lost_affiliation_dice=int(data.get("affiliation_dice") or 0),
    )
    affiliations = {k: v for k, v in leader.affiliations.items() if k != lost}
    state = state.with_faction(fid, leader=evolved(leader, resources=0, affiliations=affiliations))
    heir = str(data["cash_on_hand_to"])
    heir_leader = state.factions[heir].leader
    cash = heir_leader.cash_on_hand + int(data["resources_lost"])
    return state.with_faction(heir, leader=evolved(heir_leader, cash_on_hand=cash))


def affiliation_bought(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`AFFILIATION_BOUGHT`: the affiliation, paid in Cash on Hand."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["faction"])
    leader = state.factions[fid].leader
    bought = evolved(
        leader,
        affiliations={**leader.affiliations, str(data["affiliation"]): int(data["dice"])},
        cash_on_hand=max(0, leader.cash_on_hand - int(data["cash_spent"])),
    )
    state = state.with_faction(fid, leader=bought)
    return state.with_faction(str(data["from"]), affiliation_bought=True)


FOLDS: Mapping[str, Fold] = {
    CONQUEROR_NAMED: conqueror_named,
    LEADER_JOINED: leader_joined,
    AFFILIATION_BOUGHT: affiliation_bought,
}
"""This section's folds, by event kind."""
