"""Why a faction with nothing to do cannot act now, and until when (the kernel's
:class:`~referee.core.Waiting`), in the words of the phase it is in ("Structure of Play",
"Maneuvering in the Chronicle", "Spending Scenes", "Maneuver Resolution", "Consequences",
"Downtime").

A faction is told only what its seat may know: who has not sealed a slip yet (a sealed slip is
announced to all, its content hidden), who has scenes left, whose roll is unsettled — never what
another faction wrote.

>>> from referee.systems.kingdoms import PROCEDURE
>>> state = PROCEDURE.initial_state({"strict_sheets": False, "factions": {
...     "elves": {"disposition": 10, "leader": {"skills": {"Logistics": "B4"}}},
...     "orcs": {"disposition": 9, "leader": {"skills": {"Tactics": "B4"}}}}})
>>> from referee.systems.kingdoms.state import Slip
>>> from dataclasses import replace
>>> slips = {f: Slip(f, "Fortify", "Logistics") for f in ("elves", "orcs")}
>>> passed = replace(state, slips=slips, passed=frozenset({"elves"}))
>>> waiting_for(passed, "elves").reason
'your slip is sealed and your scenes passed: the reveal waits for the Orcs'
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core import ActorId, Waiting
from referee.core.naming import possessive
from referee.systems.kingdoms.state import KingdomsState

__all__ = ["waiting_for"]


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _names(state: KingdomsState, fids: Sequence[str]) -> str:
    return _listed([state.factions[f].name for f in fids])


def _cannot_act(state: KingdomsState, fid: str) -> Waiting:
    """A faction that cannot act this maneuver, and why: the maneuver of its own that failed
    last maneuver (an Onslaught that did not wipe out its target, a failed Ploy)."""
    last = state.history[-1] if state.history else {}
    slips = last.get("slips") or {}
    failed = (slips.get(fid) or {}).get("maneuver")
    why = f" (failed {failed})" if failed else ""
    return Waiting(
        fid,
        f"cannot act this maneuver{why}: no slip to script",
        f"until maneuver {state.maneuver + 1}",
        failed or "Maneuvering in the Chronicle",
    )


def _in_maneuver(state: KingdomsState, fid: str) -> Waiting | None:
    faction = state.factions[fid]
    unsealed = [f for f in state.acting() if f not in state.slips]
    if faction.cannot_act and (unsealed or fid in state.passed):
        return _cannot_act(state, fid)
    playing = [f for f in state.standing() if f not in state.passed]
    if fid in state.passed and playing:
        return Waiting(
            fid,
            f"your slip is sealed and your scenes passed: the reveal waits for "
            f"{_names(state, playing)}",
            "until every faction has spent or passed its scenes",
            "Spending Scenes",
        )
    return None


def _rolled(state: KingdomsState, fid: str) -> Waiting:
    unsettled = [f for f, t in state.rolls.items() if not t.decided]
    if unsettled:
        return Waiting(
            fid,
            f"your roll is settled: the resolution waits for {_names(state, unsettled)} "
            "to keep their roll or spend artha",
            "until every roll is settled",
            "Independent and Versus Maneuvers",
        )
    reader = state.reader or ""
    return Waiting(
        fid,
        f"every roll is settled: {state.factions[reader].name} read the slips and resolve them",
        "until the slips are resolved",
        "Maneuver Resolution",
    )


def waiting_for(state: KingdomsState, fid: ActorId) -> Waiting | None:
    """Why faction ``fid`` cannot act now and until when; ``None`` where the kernel's words
    (whose move it is) say enough."""
    faction = state.factions.get(fid)
    if faction is None:
        return None
    if state.phase == "over":
        winner = state.factions[state.winner].name if state.winner else None
        won = f"won by {winner}" if winner else "nobody is left standing"
        return Waiting(fid, f"the chronicle is over: {won}", None, "Structure of Play")
    if faction.out:
        joined = state.factions[faction.joined].name if faction.joined else None
        also = f"; your leader now plays in {possessive(joined)} scenes" if joined else ""
        return Waiting(fid, f"out of contention (reduced to 0){also}", None, "Consequences")
    if state.phase == "prologue":
        left = [f for f, x in state.factions.items() if x.prologue is None]
        return Waiting(
            fid,
            f"your prologue is tested: the chronicle waits for {_names(state, left)}",
            "until every faction has tested its prologue",
            "Prologues",
        )
    if state.phase == "maneuver":
        return _in_maneuver(state, fid)
    if state.phase == "rolled":
        return _rolled(state, fid)
    if state.phase == "consequences":
        deciding = [f for f, x in state.factions.items() if x.out and x.joined is None]
        deciding += [f for f in state.pending_conquest if f not in deciding]
        if deciding:
            return Waiting(
                fid,
                f"the consequences wait for {_names(state, deciding)} to choose a side",
                "until the defeated leaders have joined a faction",
                "Consequences",
            )
    if state.phase in ("consequences", "downtime"):
        owing = [f for f in state.standing() if state.factions[f].maintenance]
        if owing:
            return Waiting(
                fid,
                f"downtime: the next maneuver waits for {_names(state, owing)} "
                "to make their Resources maintenance tests",
                "until every maintenance test is made",
                "Downtime",
            )
    return None
