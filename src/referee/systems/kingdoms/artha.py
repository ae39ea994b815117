"""Artha after the roll: each faction keeps its maneuver test as rolled or spends Fate and/or
Deeds on it (parent-games.md: Fate opens the 6s, or rerolls one failed die of an open-ended
roll; Deeds rerolls every failed die) before the slips are resolved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event
from referee.core.naming import possessive
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import KEEP, SPEND_ARTHA
from referee.systems.kingdoms.cards import after_card
from referee.systems.kingdoms.dice import Artha, artha_buys_nothing, spend_after
from referee.systems.kingdoms.events import ARTHA_SPENT, ROLL_KEPT
from referee.systems.kingdoms.outcomes import meetings
from referee.systems.kingdoms.scripting import pool_roll_from
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    faction_name,
    refuse,
    require_phase,
    tell,
)

__all__ = ["FOLDS", "keep", "meets_nothing", "spend_artha"]


def meets_nothing(state: KingdomsState, faction: str, pool: str) -> str | None:
    """Why artha on one of ``faction``'s Harry pools could change no result that matters, or
    ``None``: the pool meets nothing that is rolled — the defence dice when no attack on the
    Harrier is rolled, the attack dice with no one to meet ("Harry": the defence "reduce[s]
    all versus enemy's successes", the attack "the disposition of all attacking enemies";
    audit K-N3). Any other maneuver's roll always counts: against its Ob, or its margin."""
    test = state.rolls[faction]
    if test.attack_pool is None or meetings(state, faction, pool):
        return None
    against = "no attack they defend against" if pool == "defence" else "nothing they meet"
    return (
        f"a Fate or Deeds point on {possessive(faction_name(state, faction))} {pool} dice "
        f"buys nothing: {against} is rolled"
    )


def spend_artha(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``spend_artha``: Fate and/or Deeds on the roll (a Harry's defence or attack pool); a
    point that would change no die is refused rather than taken (audit B6)."""
    faction = acting_faction(b, action)
    params = SPEND_ARTHA.of(action)
    state = b.state
    require_phase(state, "rolled")
    test = state.rolls.get(faction.id)
    if test is None:
        raise refuse("Artha", f"{faction.name} rolled no maneuver test this maneuver")
    if test.decided:
        raise refuse(
            "Artha",
            f"{possessive(faction.name)} roll is already settled (kept, or artha spent on it)",
        )
    fate, deeds = params.fate, params.deeds
    if not fate and not deeds:
        raise refuse("Artha", "choose Fate, Deeds or both to spend (or keep the roll as it is)")
    who = state.factions[faction.id].character(test.roller)
    who.spend({"fate": int(fate), "deeds": int(deeds)})
    which = params.pool
    source = test.attack_pool if which == "attack" else test.pool
    if source is None:
        raise refuse("Artha", "only a Harry has an attack pool")
    base = pool_roll_from(source)
    wasted = artha_buys_nothing(base, fate=bool(fate), deeds=bool(deeds))
    wasted = wasted or meets_nothing(state, faction.id, which)
    if wasted is not None:
        raise refuse("Artha", wasted)
    artha = Artha(fate=fate, deeds_after=deeds)
    after = spend_after(base, artha, dice)
    on = f"the {which} roll" if test.attack_pool is not None else "the roll"
    words = f"{possessive(faction_name(state, faction.id))} {artha.label()} on {on}"
    card = after_card(base, after, artha, words)
    payload = {
        "faction": faction.id,
        "fate": fate,
        "deeds": deeds,
        "pool": which,
        "attack" if which == "attack" else "successes": after.successes,
        "roll": card.to_json(),
        "pool_roll": after.to_json(),
    }
    tell(b, ARTHA_SPENT, payload)


def keep(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``keep``: the faction keeps its roll as it stands."""
    faction = acting_faction(b, action)
    KEEP.of(action)
    require_phase(b.state, "rolled")
    test = b.state.rolls.get(faction.id)
    if test is None or test.decided:
        raise refuse(
            "Artha",
            f"{faction.name} have no roll waiting to be kept: it is settled, or not rolled yet",
        )
    tell(b, ROLL_KEPT, {"faction": faction.id})


# ------------------------------------------------------------------------------------ folds


def artha_spent(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`ARTHA_SPENT`: the points spent, and the roll as it ends (settled: after-the-roll
    artha settles the whole test)."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["faction"])
    test = state.rolls[fid]
    spent = {"fate": int(bool(data["fate"])), "deeds": int(bool(data["deeds"]))}
    who = state.factions[fid].character(test.roller).spend(spent)
    state = state.with_faction(fid, **{test.roller: who})
    if data["pool"] == "attack":
        test = evolved(test, attack=int(data["attack"]), attack_pool=dict(data["pool_roll"]))
    else:
        test = evolved(test, successes=int(data["successes"]), pool=dict(data["pool_roll"]))
    test = evolved(test, decided=True)
    return evolved(state, rolls={**state.rolls, fid: test})


def roll_kept(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`ROLL_KEPT`: the roll is settled as it stands."""
    fid = str(event.data["faction"])
    return evolved(state, rolls={**state.rolls, fid: evolved(state.rolls[fid], decided=True)})


FOLDS: Mapping[str, Fold] = {ARTHA_SPENT: artha_spent, ROLL_KEPT: roll_kept}
"""This section's folds, by event kind."""
