"""The fold: the scene after each event (never rolls, never refuses)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core import (
    Event,
)
from referee.core.fairness import SALT
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.magia import Charm
from referee.systems.ginlane.scene import (
    Block,
    Fizzle,
    SceneAspect,
    SceneState,
)
from referee.systems.ginlane.stress import (
    TakenConsequence,
)


def _aims_kept(state: SceneState) -> SceneState:
    """Take Aim: "This can be kept up for as long as the aimer finds practical if the target
    doesn't do something to break the aim which might be as simple as walking out of sight":
    an Aspect unique to its setter (the Target) on a character lapses when either walks out of
    the other's sight."""
    ids = {c.id: c for c in state.combatants}
    kept = []
    for a in state.aspects:
        if a.unique_to in ids and a.on in ids:
            aimer, target = ids[a.unique_to], ids[a.on]
            far = rules.zone_distance([(x, y) for x, y, _ in state.links], aimer.zone, target.zone)
            if far is None or far >= rules.OUT_OF_SIGHT:
                continue
        kept.append(a)
    return state if len(kept) == len(state.aspects) else replace(state, aspects=tuple(kept))


def evolve(state: SceneState, event: Event) -> SceneState:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == ev.INITIATIVE_ROLLED:
        return replace(state, order=tuple(d["order"]))
    if kind == ev.TURN_STARTED:
        cid = str(d["character"])
        me = state.get(cid)
        me = replace(me, full_defence=False, defences=(), waiting=False)
        if me.block is not None and me.block.kind != "grapple":
            me = replace(me, block=None)
        aspects = tuple(a for a in state.aspects if a.until_turn_of != cid)
        return replace(
            state.put(me),
            turn=int(d["turn"]),
            round=int(d["round"]),
            aspects=aspects,
        )
    if kind == ev.WAIT_ACTED:
        me = replace(state.get(str(d["character"])), waiting=False)
        plans = tuple(p for p in state.plans if p[0] != me.id)
        return replace(state.put(me), order=tuple(d["order"]), turn=int(d["turn"]), plans=plans)
    if kind == ev.SCENE_ENDED:
        # "Manoeuvre Aspects are temporary, lasting no longer than the scene"
        calm = tuple(
            replace(c, block=None, full_defence=False, defences=(), waiting=False)
            for c in state.combatants
        )
        return replace(
            state,
            combatants=calm,
            aspects=tuple(a for a in state.aspects if a.consequence),
            order=(),
            turn=0,
            round=0,
            over=False,
            fizzles=(),
        )
    if kind == ev.FIGHT_OVER:
        return replace(state, over=True)
    if kind == ev.WAITING:
        cid = str(d["character"])
        waiting = state.put(replace(state.get(cid), waiting=True))
        sealed = d.get("sealed")
        if isinstance(sealed, dict) and isinstance(d.get(SALT), str):
            plan = (cid, str(sealed["choice"]), str(d.get("plan", "")), str(d[SALT]))
            plans = (*(p for p in state.plans if p[0] != cid), plan)
            return replace(waiting, plans=plans)
        return waiting
    if kind == ev.FULL_DEFENCE:
        return state.put(replace(state.get(str(d["character"])), full_defence=True))
    if kind == ev.ASPECT_PLACED:
        aspect = SceneAspect(
            id=int(d["id"]),
            name=str(d["name"]),
            on=str(d["on"]),
            setter=str(d["setter"]),
            free_side=str(d["free_side"]),
            unique_to=d.get("unique_to"),
            until_turn_of=d.get("until_turn_of"),
            consequence=bool(d.get("consequence", False)),
        )
        return replace(state, aspects=(*state.aspects, aspect), next_aspect=aspect.id + 1)
    if kind == ev.ASPECT_TAGGED:
        aid = d.get("id")
        if d.get("free") and isinstance(aid, int):
            aspects = tuple(
                replace(a, free_tags=a.free_tags - 1) if a.id == aid else a for a in state.aspects
            )
            return replace(state, aspects=aspects)
        return state
    if kind == ev.ASPECT_REMOVED:
        return replace(state, aspects=tuple(a for a in state.aspects if a.id != d["id"]))
    if kind == ev.POOL_SPENT:
        me = state.get(str(d["character"]))
        return state.put(replace(me, pool=me.pool.spend(int(d["points"]))))
    if kind == ev.POOL_AWARDED:
        me = state.get(str(d["character"]))
        return state.put(replace(me, pool=me.pool.award(int(d["points"]))))
    if kind == ev.DEFENCE_ROLLED:
        me = state.get(str(d["character"]))
        defences = (
            *tuple(x for x in me.defences if x[0] != d["skill"]),
            (str(d["skill"]), int(d["total"])),
        )
        return state.put(replace(me, defences=defences))
    if kind == ev.STRESS_TAKEN:
        me = state.get(str(d["character"]))
        if d.get("taken_out"):
            return state.put(replace(me, wealth_hit=me.wealth_hit or d["track"] == "Wealth"))
        track = me.track(str(d["track"]))
        box = int(d["box"])
        marked = replace(track, boxes=tuple(t or i == box - 1 for i, t in enumerate(track.boxes)))
        tracks = tuple(marked if t.name == track.name else t for t in me.tracks)
        me = replace(me, tracks=tracks, wealth_hit=me.wealth_hit or track.name == "Wealth")
        return state.put(me)
    if kind == ev.TAKEN_OUT:
        me = replace(state.get(str(d["character"])), taken_out=True, block=None)
        return state.put(me)
    if kind == ev.CONSEQUENCE_TAKEN:
        me = state.get(str(d["character"]))
        taken = TakenConsequence(
            severity=str(d["severity"]),
            aspect=str(d["aspect"]),
            track=str(d["track"]),
            inflicted_by=str(d["inflicted_by"]),
            replaces=d.get("replaces"),
        )
        sheet = me.sheet
        if taken.replaces:
            sheet = replace(
                sheet,
                aspects=tuple(
                    taken.aspect if a.lower() == str(taken.replaces).lower() else a
                    for a in sheet.aspects
                ),
            )
        me = replace(
            me,
            sheet=sheet,
            consequences=me.consequences.take(taken),
            wealth_hit=me.wealth_hit or taken.track == "Wealth",
        )
        aspect = SceneAspect(
            id=state.next_aspect,
            name=taken.aspect,
            on=me.id,
            setter=me.id,
            free_side=taken.inflicted_by or "",
            consequence=True,
        )
        return replace(
            state.put(me), aspects=(*state.aspects, aspect), next_aspect=state.next_aspect + 1
        )
    if kind == ev.CONSEQUENCE_RECOVERING:
        me = state.get(str(d["character"]))
        named = d.get("aspect")
        cons = me.consequences.recover(int(d["days"]), aspect=str(named) if named else None)
        gone = {str(x).lower() for x in d.get("recovered", [])}
        aspects = tuple(
            a
            for a in state.aspects
            if not (a.consequence and a.on == me.id and a.name.lower() in gone)
        )
        return replace(state.put(replace(me, consequences=cons)), aspects=aspects)
    if kind == ev.MOVED:
        moved = state.put(replace(state.get(str(d["character"])), zone=str(d["to"])))
        return _aims_kept(moved)
    if kind == ev.BLOCK_SET:
        me = state.get(str(d["character"]))
        blk = Block(str(d["kind"]), int(d["strength"]), str(d["target"]))
        return state.put(replace(me, block=blk))
    if kind == ev.GRAPPLE_SET:
        me = state.get(str(d["character"]))
        blk = Block("grapple", int(d["strength"]), str(d["target"]))
        return state.put(replace(me, block=blk))
    if kind in (ev.GRAPPLE_RELEASED, ev.GRAPPLE_BROKEN):
        holder = str(d["character"]) if kind == ev.GRAPPLE_RELEASED else str(d["by"])
        return state.put(replace(state.get(holder), block=None))
    if kind == ev.WEAPON_DROPPED:
        me = state.get(str(d["character"]))
        return state.put(replace(me, weapon="fists", dropped=str(d["weapon"])))
    if kind == ev.WEAPON_RECOVERED:
        me = state.get(str(d["character"]))
        return state.put(replace(me, weapon=str(d["weapon"]), dropped=None))
    if kind == ev.WEAPON_DRAWN:
        return state.put(replace(state.get(str(d["character"])), weapon=str(d["weapon"])))
    if kind == ev.GRENADE_FIZZLED:
        on = d.get("on_target")
        fizzle = Fizzle(str(d["character"]), str(d["zone"]), str(on) if on else None)
        return replace(state, fizzles=(*state.fizzles, fizzle))
    if kind == ev.GRENADE_FUSE:
        return replace(
            state, fizzles=tuple(f for f in state.fizzles if f.thrower != d["character"])
        )
    if kind == ev.SEIZED:
        holdings = tuple(h for h in state.holdings if h[0] != d["thing"])
        return replace(state, holdings=(*holdings, (str(d["thing"]), str(d["character"]))))
    if kind == ev.CHARM_MADE:
        # Magia: charms "hold that effect for a period until it is needed"
        charm = Charm(str(d["sephira"]), str(d["effect"]), str(d["maker"]), int(d["strength"]))
        return replace(state, charms=(*state.charms, charm))
    if kind == ev.DECLARATION_MADE:
        return replace(
            state, declarations=(*state.declarations, (str(d["character"]), str(d["fact"])))
        )
    if kind == ev.RESTED:
        me = state.get(str(d["character"]))
        tracks = tuple(t if t.name == "Wealth" else t.cleared() for t in me.tracks)
        return state.put(replace(me, tracks=tracks, pool=me.pool.refresh(int(d["d6"]))))
    if kind == ev.SESSION_ENDED:
        me = state.get(str(d["character"]))
        tracks = me.tracks
        if d.get("wealth_cleared"):
            tracks = tuple(t.cleared() if t.name == "Wealth" else t for t in tracks)
        pool = me.pool
        if isinstance(d.get("pool"), int):
            pool = replace(pool, points=int(d["pool"]))
        return state.put(replace(me, tracks=tracks, wealth_hit=False, pool=pool))
    return state
