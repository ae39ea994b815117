"""Maneuver slips at the table ("Maneuvering in the Chronicle": "At the beginning of each
Maneuver, players decide their faction's intent, declare it privately"): writing a slip, sealed
for its faction alone until the reveal, and the odds of its test as the faction writes it.

The rules a slip must keep (prerequisites, skills, FoRKs, targets, Harry's split) are
:func:`referee.systems.kingdoms.scripting.slip_from`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.core import Action, Builder, Event, OddsPreview, Secret, only
from referee.core.fairness import SALT, seal
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import WRITE_SLIP, WriteSlip
from referee.systems.kingdoms.cards import successes_preview
from referee.systems.kingdoms.dice import BurningTest
from referee.systems.kingdoms.events import SLIP_WRITTEN
from referee.systems.kingdoms.scripting import (
    dice_rolled,
    pool_for,
    refuse,
    require_phase,
    slip_from,
)
from referee.systems.kingdoms.state import Faction, KingdomsState, Slip
from referee.systems.kingdoms.structure import Fold, acting_faction, faction_name, tell
from referee.systems.kingdoms.tables import maneuver

__all__ = ["FOLDS", "slip_choice", "slip_odds", "slip_to_write", "write_slip"]

RESOLUTION = "Maneuver Resolution"


def slip_choice(maneuver_number: int, faction: str) -> str:
    """The name a faction's slip is sealed under: one per faction and maneuver."""
    return f"maneuver {maneuver_number}: the slip of {faction}"


def slip_to_write(state: KingdomsState, faction: Faction, params: WriteSlip) -> Slip:
    """The slip ``faction`` would seal with ``params`` now, or the rule that refuses it."""
    require_phase(state, "maneuver")
    if faction.out:
        raise refuse("Consequences", f"{faction.id} is out of contention")
    if faction.cannot_act:
        raise refuse("Maneuvers", f"{faction.id} cannot act this maneuver and scripts nothing")
    if state.scenes:
        # "Maneuver": "At the beginning of each Maneuver, players decide their faction's
        # intent, declare it privately" (audit W1)
        raise refuse(
            "Maneuver",
            f"the slips are fixed once the maneuver's first scene is played; {faction.id} "
            "declares its intent at the beginning of the maneuver",
        )
    return slip_from(state, faction, params)


def write_slip(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``write_slip``: the slip sealed: every seat sees the commitment, the faction alone its
    slip and salt (issue 12; checked against the slip when the reveal publishes both)."""
    faction = acting_faction(b, action)
    state = b.state
    slip = slip_to_write(state, faction, WRITE_SLIP.of(action))
    content = slip.to_json()
    sealed, salt = seal(slip_choice(state.maneuver, faction.id), content, dice, only(faction.id))
    tell(
        b,
        SLIP_WRITTEN,
        {"faction": faction.id, "maneuver_number": state.maneuver, "sealed": sealed},
        secrets=(Secret("slip", content, only(faction.id)), salt),
    )


def slip_odds(state: KingdomsState, slip: Slip) -> tuple[OddsPreview, ...]:
    """The odds of ``slip``'s maneuver test as the reveal rolls it (before any help)."""
    pool, _, _, _ = pool_for(state, slip, {})
    n = dice_rolled(state, slip, pool)
    rolled = replace(pool, exponent=n, forks=0, helping=0, bonus=0, penalty=0)
    label = f"{faction_name(state, slip.faction)}: {slip.maneuver} with {slip.skill}"
    info = maneuver(slip.maneuver)
    if slip.maneuver == "Harry":
        defence = min(slip.defence, n)
        return (
            successes_preview(
                replace(rolled, exponent=defence), f"{label}: defence dice", RESOLUTION
            ),
            successes_preview(
                replace(rolled, exponent=n - defence), f"{label}: attack dice", RESOLUTION
            ),
        )
    out = [successes_preview(rolled, label, RESOLUTION)]
    if isinstance(info.independent_ob, int):
        who = state.factions[slip.faction].character(slip.roller)
        test = BurningTest(rolled, info.independent_ob + (1 if who.superficial else 0))
        when = "if nobody attacks" if slip.maneuver == "Fortify" else "if independent"
        out.insert(0, OddsPreview.of(test.kernel or test, f"{label}, {when}", rule=slip.maneuver))
    return tuple(out)


def slip_written(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`SLIP_WRITTEN`: the slip (and its salt), where the event holds it (a log read by
    another seat has neither)."""
    data: dict[str, Any] = dict(event.data)
    raw = data.get("slip")
    if not isinstance(raw, Mapping):
        return state
    slip = Slip.from_json(raw)
    salts = dict(state.salts)
    if isinstance(data.get(SALT), str):
        salts[slip.faction] = str(data[SALT])
    return replace(state, slips={**state.slips, slip.faction: slip}, salts=salts)


FOLDS: Mapping[str, Fold] = {SLIP_WRITTEN: slip_written}
"""This section's folds, by event kind."""
