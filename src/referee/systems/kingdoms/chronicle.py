"""Setting up a chronicle from a set-up mapping ("Territorial Conquest", "Faction Leaders"):
factions in seat order, their dispositions (a number or the builder's answers), leaders and
Seconds in Command, checked against the text's limits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import (
    RuleError,
    ScenarioError,
)
from referee.systems.kingdoms.disposition import DispositionAnswers, build_disposition
from referee.systems.kingdoms.events import the
from referee.systems.kingdoms.sheets import (
    Character,
    check_leader,
    check_rivals,
    check_second,
)
from referee.systems.kingdoms.state import (
    Faction,
    KingdomsState,
)
from referee.systems.kingdoms.tables import setup_tables

__all__ = [
    "check_sheets",
    "faction_from",
]


# ---------------------------------------------------------------------------------- set-up


def faction_from(fid: str, data: Mapping[str, Any], count: int, players: int | None) -> Faction:
    """A faction from its set-up mapping; its disposition a number or the builder's answers."""
    path = ("factions", fid)
    if not isinstance(data, Mapping):
        raise ScenarioError("a faction is a mapping", path)
    leader_data = data.get("leader")
    if not isinstance(leader_data, Mapping):
        raise ScenarioError("every faction needs a leader", (*path, "leader"))
    leader = Character.from_json(str(leader_data.get("name", fid)), leader_data)
    second = None
    if isinstance(data.get("second"), Mapping):
        second = Character.from_json(
            str(data["second"].get("name", f"{fid} 2iC")), data["second"], leader=False
        )
    disposition = data.get("disposition")
    if isinstance(disposition, Mapping):
        try:
            built = build_disposition(
                DispositionAnswers.from_json(fid, disposition), count, players
            )
        except (KeyError, ValueError) as error:
            raise ScenarioError(f"disposition answers: {error!r}", (*path, "disposition")) from None
        except RuleError as error:
            raise ScenarioError(str(error), (*path, "disposition")) from None
        value = built.total
    elif isinstance(disposition, int) and not isinstance(disposition, bool):
        if disposition < 0:
            raise ScenarioError(
                f"a disposition is 0 or more (RULINGS: never below zero), not {disposition}",
                (*path, "disposition"),
            )
        value = disposition
    else:
        raise ScenarioError(
            "a disposition: a number or the builder's answers", (*path, "disposition")
        )
    return Faction(
        id=fid,
        name=str(data.get("name") or the(fid)),
        leader=leader,
        second=second,
        players=tuple(str(p) for p in data.get("players", ())),
        disposition=value,
        starting_disposition=value,
        objective=str(data.get("objective", "")),
        assessed=frozenset(str(t) for t in data.get("assessed", ())),
        infiltrated={str(k): int(v) for k, v in (data.get("infiltrated") or {}).items()},
        sapped=int(data.get("sapped", 0)),
        cannot_act=bool(data.get("cannot_act", False)),
    )


QUICK_PLAY = "strict_sheets: false lets a quick table play without it"
"""What a refusal of a missing 2iC or rival says a table may do instead (RULINGS.md, Round 3)."""


def check_sheets(state: KingdomsState, strict: bool) -> tuple[str, ...]:
    """Refuse sheets outside "Faction Leaders" and "Mandatory Relationships", naming the field:
    every leader's lifepaths and caps; a Second in Command, and two rival relationships with
    NPCs of opposing factions, which the text says leaders "are required to purchase" (RULINGS.md,
    Round 3). With ``strict`` off (``strict_sheets: false``, quick play) a missing 2iC or rival
    is not refused but returned, what the chronicle notes when it begins; a 2iC given is
    always checked.
    """
    pcs = frozenset(f.leader.name for f in state.factions.values())
    skipped: list[str] = []
    for fid, faction in state.factions.items():
        where = ("factions", fid)
        missing: list[str] = []
        try:
            check_leader(faction.leader)
        except RuleError as error:
            raise ScenarioError(str(error), where) from None
        if faction.second is None:
            if strict:
                raise ScenarioError(
                    f"Seconds in Command: {faction.name} need a Second in Command: "
                    f'"Faction Leaders are required to purchase" one ({QUICK_PLAY})',
                    (*where, "second"),
                )
            missing.append("no Second in Command")
        else:
            try:
                check_second(faction.leader, faction.second)
            except RuleError as error:
                raise ScenarioError(str(error), (*where, "second")) from None
        opposing = frozenset(state.factions) - {fid}
        try:
            check_rivals(faction.leader, fid, pcs, opposing)
        except RuleError as error:
            if strict:
                raise ScenarioError(
                    f"{error} ({QUICK_PLAY})", (*where, "leader", "relationships")
                ) from None
            missing.append(_rivals_missing(faction, opposing, error))
        if missing:
            skipped.append(f"{faction.name}: {', '.join(missing)}")
    return tuple(skipped)


def _rivals_missing(faction: Faction, opposing: frozenset[str], error: RuleError) -> str:
    """What quick play notes of a leader's rivals: how many of the two, or why one is none."""
    wanted = setup_tables().rival_relationships
    have = sum(1 for r in faction.leader.relationships if r.faction in opposing)
    return f"{have} of {wanted} rival relationships" if have < wanted else error.reason
