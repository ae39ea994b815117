"""Folding events into the chronicle's state: the procedure's ``evolve`` (DESIGN.md,
"Procedures": the state is a fold over the log, so replaying a log gives the same state)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.core import Event
from referee.core.fairness import SALT
from referee.systems.kingdoms.dice import WOUND_DICE
from referee.systems.kingdoms.events import (
    AFFILIATION_BOUGHT,
    ARTHA_SPENT,
    CHRONICLE_WON,
    CONQUEROR_NAMED,
    EFFECT_APPLIED,
    HEALTH_TESTED,
    LEADER_JOINED,
    MAINTENANCE_TESTED,
    MANEUVER_ENDED,
    MANEUVER_RESOLVED,
    MANEUVER_STARTED,
    OBJECTIVE_SET,
    PROLOGUE_ENDED,
    PROLOGUE_ROLLED,
    ROLL_KEPT,
    SCENE_PLAYED,
    SCENES_PASSED,
    SESSION_STARTED,
    SLIP_WRITTEN,
    SLIPS_REVEALED,
    TEST_ROLLED,
    TIE_BREAK_OFFERED,
    TIE_BREAK_ROLLED,
)
from referee.systems.kingdoms.scripting import can_spend_after
from referee.systems.kingdoms.state import (
    Faction,
    KingdomsState,
    RolledTest,
    SceneRecord,
    Slip,
)

__all__ = ["apply_effect", "fold"]


def fold(state: KingdomsState, event: Event) -> KingdomsState:
    """The state after ``event`` (the procedure's ``evolve``): never rolls, never refuses."""
    data: dict[str, Any] = dict(event.data)
    kind = event.kind
    factions = dict(state.factions)

    def put(fid: str, **changes: Any) -> None:
        factions[fid] = replace(factions[fid], **changes)

    if kind == PROLOGUE_ROLLED:
        fid = str(data["faction"])
        n = int(data["successes"])
        f = factions[fid]
        put(
            fid,
            prologue=n,
            disposition=f.disposition + n,
            starting_disposition=f.starting_disposition + n,
        )
        return replace(state, factions=factions)
    if kind == PROLOGUE_ENDED:
        return replace(state, phase="maneuver", cap=int(data["cap"]))
    if kind == SESSION_STARTED:
        return replace(state, session=int(data["session"]))
    if kind == OBJECTIVE_SET:
        put(str(data["faction"]), objective=str(data["objective"]))
        return replace(state, factions=factions)
    if kind == SLIP_WRITTEN:
        raw = data.get("slip")
        if not isinstance(raw, Mapping):
            return state
        slip = Slip.from_json(raw)
        salts = dict(state.salts)
        if isinstance(data.get(SALT), str):
            salts[slip.faction] = str(data[SALT])
        return replace(state, slips={**state.slips, slip.faction: slip}, salts=salts)
    if kind == SCENE_PLAYED:
        scene = SceneRecord(
            faction=str(data["faction"]),
            kind=str(data["kind"]),
            by=str(data["by"]),
            target=None if data.get("target") is None else str(data["target"]),
            helpers=tuple(str(h) for h in data.get("helpers", ()) or ()),
            skill=None if data.get("skill") is None else str(data["skill"]),
            obstacle=None if data.get("ob") is None else int(data["ob"]),
            successes=None if data.get("successes") is None else int(data["successes"]),
            outcome=str(data.get("outcome", "")),
            player=None if data.get("player") is None else str(data["player"]),
        )
        wounds = data.get("wounds") or {}
        assert isinstance(wounds, Mapping)
        for ref, severity in wounds.items():
            fid, _, role = str(ref).partition(".")
            key = "second" if role == "second" else "leader"
            f = factions[fid]
            ch = f.character(key)
            sev = str(severity)
            if sev == "superficial":
                ch = replace(ch, superficial=True)
            else:
                ch = replace(ch, wound_dice=ch.wound_dice + WOUND_DICE[sev])
            put(fid, **{key: ch})
        hurt = frozenset(
            f"{str(ref).partition('.')[0]}.{'second' if str(ref).endswith('.second') else 'leader'}"
            for ref in wounds
        )
        return replace(
            state,
            factions=factions,
            scenes=(*state.scenes, scene),
            wounded=state.wounded | hurt,
        )
    if kind == SCENES_PASSED:
        return replace(state, passed=state.passed | {str(data["faction"])})
    if kind == HEALTH_TESTED:
        fid = str(data["faction"])
        key = str(data["character"])
        ch = replace(
            factions[fid].character(key),
            wound_dice=int(data["wound_dice"]),
            superficial=bool(data["superficial"]),
        )
        put(fid, **{key: ch})
        return replace(
            state, factions=factions, health_tested=state.health_tested | {f"{fid}.{key}"}
        )
    if kind == SLIPS_REVEALED:
        order = tuple(str(f) for f in data["order"])
        void = {str(k): str(v) for k, v in data["void"].items()}
        return replace(state, phase="rolled", reader=str(data["reader"]), order=order, void=void)
    if kind == EFFECT_APPLIED:
        return apply_effect(state, factions, data)
    if kind == TEST_ROLLED:
        fid = str(data["faction"])
        slip = state.slips[fid]
        who = factions[fid].character(slip.roller)
        spent = data.get("artha")
        if not isinstance(spent, Mapping):
            spent = {"persona": slip.persona, "deeds": int(slip.deeds_before)}
        who = who.spend({"persona": int(spent["persona"]), "deeds": int(spent["deeds"])})
        put(fid, **{slip.roller: who})
        used = [str(t) for t in data.get("advantage_used", ()) or ()]
        if used:
            put(
                fid,
                infiltrated={
                    k: (0 if k in used else v) for k, v in factions[fid].infiltrated.items()
                },
            )
        test = RolledTest(
            faction=fid,
            roller=slip.roller,
            skill=slip.skill,
            exponent=int(data["exponent"]),
            successes=int(data["successes"]),
            attack=int(data.get("attack", 0) or 0),
            pool=dict(data["pool_roll"]),
            attack_pool=dict(data["attack_pool_roll"]) if data.get("attack_pool_roll") else None,
            # no roll made (Sapped to nothing, an unopposed Conserve): no artha to spend on it
            decided=int(data["dice"]) == 0
            or not can_spend_after(factions[fid].character(slip.roller)),
        )
        return replace(state, factions=factions, rolls={**state.rolls, fid: test})
    if kind == ARTHA_SPENT:
        fid = str(data["faction"])
        test = state.rolls[fid]
        who = (
            factions[fid]
            .character(test.roller)
            .spend({"fate": int(bool(data["fate"])), "deeds": int(bool(data["deeds"]))})
        )
        put(fid, **{test.roller: who})
        if data["pool"] == "attack":
            test = replace(test, attack=int(data["attack"]), attack_pool=dict(data["pool_roll"]))
        else:
            test = replace(test, successes=int(data["successes"]), pool=dict(data["pool_roll"]))
        test = replace(test, decided=True)  # after-the-roll artha settles the whole test
        return replace(state, factions=factions, rolls={**state.rolls, fid: test})
    if kind == ROLL_KEPT:
        fid = str(data["faction"])
        return replace(state, rolls={**state.rolls, fid: replace(state.rolls[fid], decided=True)})
    if kind == TIE_BREAK_OFFERED:
        return replace(
            state,
            tie_offers={
                **state.tie_offers,
                str(data["faction"]): (str(data["opponent"]), str(data["root"])),
            },
        )
    if kind == TIE_BREAK_ROLLED:
        extra = data["extra"]
        assert isinstance(extra, Mapping)
        pools = data.get("pools") or {}
        assert isinstance(pools, Mapping)
        rolls = dict(state.rolls)
        for fid, n in extra.items():
            t = rolls[fid]
            marked = {**t.tie_break, "extra": int(n)}
            if pools.get(fid) == "attack":  # a Harry's attack dice tied (audit W3)
                rolls[fid] = replace(t, attack=t.attack + int(n), tie_break=marked)
            else:
                rolls[fid] = replace(t, successes=t.successes + int(n), tie_break=marked)
        offers = {k: v for k, v in state.tie_offers.items() if k not in extra}
        return replace(state, rolls=rolls, tie_offers=offers)
    if kind == MANEUVER_RESOLVED:
        summary = {
            "maneuver": state.maneuver,
            "narrator": data.get("narrator"),
            "dispositions": data.get("dispositions"),
            "slips": {f: s.to_json() for f, s in state.slips.items()},
            "scenes": len(state.scenes),
        }
        return replace(state, history=(*state.history, summary))
    if kind == CONQUEROR_NAMED:
        fid = str(data["defeated"])
        put(fid, conqueror=str(data["conqueror"]))
        pending = {k: v for k, v in state.pending_conquest.items() if k != fid}
        return replace(state, factions=factions, pending_conquest=pending)
    if kind == CHRONICLE_WON:
        return replace(state, winner=str(data["faction"]))
    if kind == MANEUVER_ENDED:
        pending_raw = data.get("pending_conquest") or {}
        assert isinstance(pending_raw, Mapping)
        pending = {str(k): tuple(str(c) for c in v) for k, v in pending_raw.items()}
        needs_join = any(f.out and f.joined is None for f in factions.values()) or pending
        nobody_left = all(f.out for f in factions.values())
        if state.winner or nobody_left:
            phase = "over"
        else:
            phase = "consequences" if needs_join else "downtime"
        return replace(state, phase=phase, pending_conquest=pending)
    if kind == LEADER_JOINED:
        fid = str(data["defeated"])
        new = str(data["faction"])
        put(fid, joined=new)
        put(new, allies=(*factions[new].allies, fid))
        if data.get("resources_lost") is not None:
            lost = str(data["affiliation_lost"]) if data.get("affiliation_lost") else None
            leader = factions[fid].leader
            put(
                fid,
                lost_resources=int(data["resources_lost"]),
                lost_affiliation=lost,
                lost_affiliation_dice=int(data.get("affiliation_dice") or 0),
            )
            put(
                fid,
                leader=replace(
                    leader,
                    resources=0,
                    affiliations={k: v for k, v in leader.affiliations.items() if k != lost},
                ),
            )
            heir = str(data["cash_on_hand_to"])
            hl = factions[heir].leader
            put(
                heir,
                leader=replace(hl, cash_on_hand=hl.cash_on_hand + int(data["resources_lost"])),
            )
        still = any(f.out and f.joined is None for f in factions.values())
        phase = state.phase
        if phase == "consequences" and not still and not state.pending_conquest:
            phase = "over" if state.winner else "downtime"
        return replace(state, factions=factions, phase=phase)
    if kind == AFFILIATION_BOUGHT:
        fid = str(data["faction"])
        leader = factions[fid].leader
        put(
            fid,
            leader=replace(
                leader,
                affiliations={
                    **leader.affiliations,
                    str(data["affiliation"]): int(data["dice"]),
                },
                cash_on_hand=max(0, leader.cash_on_hand - int(data["cash_spent"])),
            ),
        )
        put(str(data["from"]), affiliation_bought=True)
        return replace(state, factions=factions)
    if kind == MAINTENANCE_TESTED:
        fid = str(data["faction"])
        f = factions[fid]
        put(
            fid,
            maintenance=f.maintenance[1:],
            leader=replace(f.leader, resources=int(data["resources"])),
        )
        return replace(state, factions=factions)
    if kind == MANEUVER_STARTED:
        healed = {str(h) for h in data.get("healed", ()) or ()}
        for fid, f in list(factions.items()):
            changes: dict[str, Any] = {
                "sapped": f.next_sapped,
                "cannot_act": f.next_cannot_act,
                "next_sapped": 0,
                "next_cannot_act": False,
                "earned_downtime": False,
            }
            if fid in healed:
                changes["leader"] = replace(f.leader, wound_dice=0, superficial=False)
                if f.second is not None:
                    changes["second"] = replace(f.second, wound_dice=0, superficial=False)
            put(fid, **changes)
        return replace(
            state,
            factions=factions,
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
    return state


def apply_effect(
    state: KingdomsState, factions: dict[str, Faction], data: Mapping[str, Any]
) -> KingdomsState:
    """Fold one ``effect.applied`` event into the factions."""
    fid = str(data["faction"])
    kind = str(data["kind"])
    f = factions[fid]
    if kind == "disposition":
        factions[fid] = replace(f, disposition=int(data["value"]))
    elif kind == "out":
        factions[fid] = replace(f, out=True)
    elif kind == "assessed":
        factions[fid] = replace(f, assessed=f.assessed | {str(data["target"])})
    elif kind == "infiltrated":
        factions[fid] = replace(
            f, infiltrated={**f.infiltrated, str(data["target"]): int(data["amount"])}
        )
    elif kind == "sapped":
        factions[fid] = replace(f, next_sapped=max(f.next_sapped, int(data["amount"])))
    elif kind == "cannot_act":
        factions[fid] = replace(f, next_cannot_act=True)
    elif kind == "downtime":
        factions[fid] = replace(
            f, downtime_months=f.downtime_months + int(data["amount"]), earned_downtime=True
        )
    elif kind == "maintenance":
        tests = int(data.get("value") or 1)
        factions[fid] = replace(f, maintenance=f.maintenance + (int(data["amount"]),) * tests)
    return replace(state, factions=factions)
