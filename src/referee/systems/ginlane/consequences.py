"""Stress and consequences in play: a hit marked on a track, less the consequences taken.

Gin Lane, "Stress Tracks", "Taken Out", "Consequences". The tracks themselves are
:mod:`referee.systems.ginlane.stress`.
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's folds
(``after_*``, in ``FOLDS``) change the scene by event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import (
    Action,
    Builder,
    Choice,
    OneOf,
    Prompt,
    Record,
    RuleError,
    Steps,
    Text,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.scene import (
    Combatant,
    PendingHit,
    SceneAspect,
    SceneFold,
    SceneState,
)
from referee.systems.ginlane.stress import MAX_CONSEQUENCES, TakenConsequence
from referee.systems.ginlane.tables import consequence as consequence_row


def take_stress(
    b: Builder[SceneState],
    attacker: Combatant,
    target: Combatant,
    stress: int,
    track: str,
    chosen: Sequence[acts.Consequence] | None,
    *,
    fuse: bool = False,
) -> None:
    """Stress on a track, less any consequences the target takes ("Consequences").

    ``chosen`` ``None``: the target has not said yet, so a hit she could take a Consequence
    against waits for her (:func:`absorb`); with every slot full there is nothing to choose.
    ``fuse``: the hit is a fizzled grenade's, on the thrower's turn before their Full Action.
    """
    if stress <= 0:  # a consequence is taken only against a stress hit
        return
    if chosen is None:
        if b.state.get(target.id).consequences.free_severities():
            b.emit(
                ev.HIT_LANDED,
                {
                    "character": target.id,
                    "by": attacker.id,
                    "stress": stress,
                    "track": track,
                    **({"fuse": True} if fuse else {}),
                },
            )
            return
        chosen = ()
    left = stress
    for item in chosen:
        now = b.state.get(target.id)
        taken = TakenConsequence(
            severity=item.severity,
            aspect=item.aspect,
            track=track,
            inflicted_by=attacker.side,
            replaces=item.replaces,
        )
        now.consequences.take(taken)  # refuses a full slot
        if taken.replaces and str(taken.replaces).lower() not in (
            a.lower() for a in now.sheet.aspects
        ):
            raise RuleError("Consequences", f"{now.id} has no Aspect {taken.replaces!r} to replace")
        left = max(0, left - consequence_row(taken.severity).mitigates)
        b.emit(
            ev.CONSEQUENCE_TAKEN,
            {
                "character": target.id,
                "severity": taken.severity,
                "aspect": taken.aspect,
                "track": track,
                "mitigates": consequence_row(taken.severity).mitigates,
                "inflicted_by": attacker.side,
                "replaces": taken.replaces,
            },
        )
    if left <= 0:
        return
    now = b.state.get(target.id)
    _, hit = now.track(track).hit(left)
    b.emit(
        ev.STRESS_TAKEN,
        {"character": target.id, "track": track, **hit.to_json()},
    )
    if hit.taken_out:
        b.emit(ev.TAKEN_OUT, {"character": target.id, "by": attacker.id})


def absorb(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Consequences: the hit waiting for its target taken — on the stress track, or less the
    Consequences she takes instead ("Rather than take too may stress hits and be Taken Out
    characters can chose to take a Consequence instead"); Taken Out only past the track."""
    hit = b.state.hit
    if hit is None or hit.character != action.actor:
        raise RuleError("Consequences", f"no hit waits for {title_of(action.actor)} to take")
    chosen = acts.ABSORB.of(action).consequences
    attacker, target = b.state.get(hit.attacker), b.state.get(hit.character)
    take_stress(b, attacker, target, hit.stress, hit.track, chosen)


def absorb_choices(state: SceneState, me: Combatant) -> list[Choice]:
    """The hit waiting for ``me``: Consequences of the severities still open, each with the
    stress it mitigates, as many as her slots still free hold (three slots, four severities:
    "Consequences"), or none (the stress on the track)."""
    hit = state.hit
    if hit is None or hit.character != me.id:
        return []
    open_rows = [consequence_row(s) for s in me.consequences.free_severities()]
    kinds = tuple(r.severity for r in open_rows if r.severity != "extreme") + (
        ("extreme",) if me.sheet.aspects and "extreme" in {r.severity for r in open_rows} else ()
    )
    one = Record(
        {
            "severity": OneOf(kinds),
            "aspect": Text("Bruised Hand"),
            **({"replaces": OneOf(tuple(me.sheet.aspects))} if "extreme" in kinds else {}),
        },
        optional=frozenset({"replaces"}),
    )
    most = min(len(kinds), MAX_CONSEQUENCES - len(me.consequences.taken))
    mitigates = ", ".join(f"{r.severity} {r.mitigates}" for r in open_rows)
    label = (
        f"take {title_of(hit.attacker)}'s hit of {hit.stress} {hit.track} stress: "
        f"on the track, or Consequences ({mitigates})"
    )
    return [Choice(me.id, "absorb", {"consequences": Steps(one, least=0, most=most)}, label=label)]


def absorb_prompt(state: SceneState) -> Prompt | None:
    """The hit waiting for its target: she decides how to take it; by default on the track."""
    hit = state.hit
    if hit is None:
        return None
    me = state.get(hit.character)
    track = me.track(hit.track)
    _, would = track.hit(hit.stress)
    fate = "Taken Out" if would.taken_out else f"box {would.box} marked"
    return Prompt(
        hit.character,
        ("absorb",),
        "Consequences",
        f"{title_of(hit.attacker)} hits {title_of(hit.character)} for {hit.stress} "
        f"{hit.track} stress ({fate} if taken on the track): take it, or Consequences instead",
        default=Action(hit.character, "absorb", {"consequences": []}),
    )


# -- the fold: the scene after stress, Taken Out and consequences


def _taken(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """The hit waiting for the character is taken (stress or a Consequence)."""
    if state.hit is not None and state.hit.character == d["character"]:
        return evolved(state, hit=None)
    return state


def after_hit_landed(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """A hit waits for its target to take it."""
    hit = PendingHit(
        str(d["character"]),
        str(d["by"]),
        int(d["stress"]),
        str(d["track"]),
        fuse=bool(d.get("fuse", False)),
    )
    return evolved(state, hit=hit)


def after_stress_taken(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Stress Tracks: the box marked (none if the hit takes the character out)."""
    state = _taken(state, d)
    me = state.get(str(d["character"]))
    if d.get("taken_out"):
        return state.put(evolved(me, wealth_hit=me.wealth_hit or d["track"] == "Wealth"))
    track = me.track(str(d["track"]))
    box = int(d["box"])
    marked = evolved(track, boxes=tuple(t or i == box - 1 for i, t in enumerate(track.boxes)))
    tracks = tuple(marked if t.name == track.name else t for t in me.tracks)
    me = evolved(me, tracks=tracks, wealth_hit=me.wealth_hit or track.name == "Wealth")
    return state.put(me)


def after_taken_out(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Taken Out: out of the fight, and letting go of whatever the character held."""
    return state.put(evolved(state.get(str(d["character"])), taken_out=True, block=None))


def after_consequence_taken(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Consequences: the slot taken (an Aspect it replaces renamed on the sheet), and the
    consequence an Aspect in the scene, its free tag for the side that inflicted it."""
    state = _taken(state, d)
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
        replaced = str(taken.replaces).lower()
        renamed = tuple(taken.aspect if a.lower() == replaced else a for a in sheet.aspects)
        sheet = evolved(sheet, aspects=renamed)
    me = evolved(
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
    return evolved(
        state.put(me), aspects=(*state.aspects, aspect), next_aspect=state.next_aspect + 1
    )


FOLDS: Mapping[str, SceneFold] = {
    ev.HIT_LANDED: after_hit_landed,
    ev.STRESS_TAKEN: after_stress_taken,
    ev.TAKEN_OUT: after_taken_out,
    ev.CONSEQUENCE_TAKEN: after_consequence_taken,
}
"""The scene after each event of this section."""
