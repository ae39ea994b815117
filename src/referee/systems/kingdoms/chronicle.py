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


def check_sheets(state: KingdomsState, strict: bool) -> None:
    """Refuse sheets outside "Faction Leaders" and "Mandatory Relationships" (``strict``: 2iC and
    rivals required).
    """
    pcs = frozenset(f.leader.name for f in state.factions.values())
    for fid, faction in state.factions.items():
        try:
            check_leader(faction.leader)
            if strict:
                if faction.second is None:
                    raise RuleError("Seconds in Command", f"{fid} needs a Second in Command")
                check_second(faction.leader, faction.second)
                check_rivals(faction.leader, fid, pcs)
            elif faction.second is not None:
                check_second(faction.leader, faction.second)
        except RuleError as error:
            raise ScenarioError(str(error), ("factions", fid)) from None
