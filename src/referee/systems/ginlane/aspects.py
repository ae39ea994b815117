"""Aspects in play: tagging, the roll they go into, supplemental actions, Declarations, Maintenance.

Gin Lane, "Aspects", "Rolling the Dice", "Team Work", "3. Actions" (supplemental), "Declarations",
"Maintenance".
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import (
    Action,
    Between,
    Builder,
    Choice,
    OneOf,
    RuleError,
    Text,
)
from referee.core.values import Json, evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.rolls import (
    GinLaneRoll,
    RollResult,
    effective_skill,
    limited_skill,
)
from referee.systems.ginlane.scene import (
    SCENE,
    Combatant,
    SceneAspect,
    SceneFold,
    SceneState,
    Tag,
)
from referee.systems.ginlane.tables import weapon as weapon_entry
from referee.systems.ginlane.zones import check_can_move, past_doorway, step


def resolve_tags(
    state: SceneState, who: Combatant, names: Sequence[str], near: Sequence[str]
) -> list[Tag]:
    """Find each tagged Aspect and whether it is free ("Aspects", "Team Work")."""
    tags: list[Tag] = []
    used_free: set[int] = set()
    places = {*near, who.id, who.zone, SCENE}
    seen: set[str] = set()
    for raw in names:
        name = str(raw)
        if name.strip().lower() in seen:
            raise RuleError("Aspects", f"{name!r} is tagged twice: each Aspect adds to a roll once")
        seen.add(name.strip().lower())
        found = [a for a in state.aspects if a.name.lower() == name.lower() and a.on in places]
        if found:
            for a in found:
                if a.unique_to is not None and a.unique_to != who.id:
                    continue
                free = a.is_free_for(who.side) and a.id not in used_free
                if free:
                    used_free.add(a.id)
                tags.append(Tag(a.name, free, a.id))
                break
            else:
                raise RuleError(
                    "Team Work", f"{name!r} is unique to its setter and can't be passed on"
                )
            continue
        if who.sheet.has_aspect(name):
            tags.append(Tag(name, who.sheet.is_free_taggable(name)))
            continue
        others = [state.get(cid) for cid in near if cid in {c.id for c in state.combatants}]
        if any(o.sheet.has_aspect(name) for o in others):
            tags.append(Tag(name, False))
            continue
        raise RuleError("Aspects", f"{who.id} has no Aspect {name!r} to tag here")
    if who.pool.points < sum(1 for t in tags if not t.free):
        raise RuleError(
            "The Free Experience Pool",
            f"{who.id} tags {sum(1 for t in tags if not t.free)} Aspects for points, "
            f"the pool has {who.pool.points}",
        )
    return sorted(tags, key=lambda t: not t.free)


def taggable(state: SceneState, who: Combatant, near: Sequence[str]) -> tuple[str, ...]:
    """The Aspects ``who`` may tag on a roll against ``near``: her own (those given at
    creation, free-taggable, among them), those in play on her, her zone, the scene or those
    near, and theirs ("Rolling the Dice", "Team Work") — what :func:`resolve_tags` accepts."""
    places = {*near, who.id, who.zone, SCENE}
    names = [*who.sheet.all_aspects]
    names += [
        a.name
        for a in state.aspects
        if a.on in places and (a.unique_to is None or a.unique_to == who.id)
    ]
    people = {c.id: c for c in state.combatants}
    names += [n for cid in near if cid in people for n in people[cid].sheet.all_aspects]
    return tuple(dict.fromkeys(names))


def roll_spec(
    state: SceneState,
    who: Combatant,
    skill: str,
    tags: Sequence[Tag],
    modifier: int,
    params: acts.Roll | None = None,
) -> GinLaneRoll:
    """The roll: the skill's level ("No Relevant Skill": ``related: true`` rolls an
    untrained skill at 0; "Skill Interaction": ``limited_by: Ride`` rolls the lower)."""
    level = who.level(skill)
    if params is not None and params.related and who.rated(skill) is None:
        level = effective_skill(None, related=True)
    if params is not None and params.limited_by:
        level = limited_skill(level, who.level(params.limited_by))
    return GinLaneRoll(
        skill=level,
        tags=len(tags),
        mode=state.mode,
        modifier=modifier,
        free_tags=sum(1 for t in tags if t.free),
    )


def pay(b: Builder[SceneState], who: str, tags: Sequence[Tag], rolled: RollResult) -> None:
    """Record the tags a roll used: free tags spent, Experience Pool points paid."""
    for tag in tags[: rolled.tags_used]:
        b.emit(
            ev.ASPECT_TAGGED,
            {"character": who, "aspect": tag.name, "free": tag.free, "id": tag.scene_id},
        )
    if rolled.tags_paid:
        b.emit(ev.POOL_SPENT, {"character": who, "points": rolled.tags_paid, "for": "tags"})


def modifier(
    b: Builder[SceneState],
    who: Combatant,
    params: acts.Roll,
    dice: DiceSource,
) -> int:
    """Supplemental actions (−1), including a supplemental move of one zone."""
    mod = 0
    if params.supplemental:
        mod += rules.SUPPLEMENTAL_PENALTY
    to = params.move_to
    if to:
        check_can_move(b.state, who)
        step(b.state, who.zone, to, clear=True)
        if past_doorway(b, who, who.zone, to, params.past, dice):
            b.emit(ev.MOVED, {"character": who.id, "from": who.zone, "to": to})
        mod += rules.SUPPLEMENTAL_PENALTY
    draw = params.draw
    if draw:
        draw = weapon_entry(draw).name
        b.emit(ev.WEAPON_DRAWN, {"character": who.id, "weapon": draw})
        mod += rules.SUPPLEMENTAL_PENALTY
    return mod


def place(
    b: Builder[SceneState],
    name: str,
    *,
    on: str,
    setter: str,
    free_side: str,
    until_turn_of: str | None = None,
    unique_to: str | None = None,
    consequence: bool = False,
    aim: bool = False,
) -> None:
    """An Aspect placed in play: by a manoeuvre, a spin, a distraction, a grenade; ``aim``: the
    Target of "Take Aim"."""
    b.emit(
        ev.ASPECT_PLACED,
        {
            "id": b.state.next_aspect,
            "name": name,
            "on": on,
            "setter": setter,
            "free_side": free_side,
            "until_turn_of": until_turn_of,
            "unique_to": unique_to,
            "consequence": consequence,
            **({"aim": True} if aim else {}),
        },
    )


def declare(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Declarations: a small fact covered by an Aspect, for an Experience Point."""
    me = b.state.get(action.actor)
    params = acts.DECLARE.of(action)
    aspect, fact = params.aspect, params.fact
    if not me.sheet.has_aspect(aspect):
        raise RuleError("Declarations", f"{me.id} has no Aspect {aspect!r}")
    me.pool.spend(1, why="a declaration")
    b.emit(ev.DECLARATION_MADE, {"character": me.id, "aspect": aspect, "fact": fact})
    b.emit(ev.POOL_SPENT, {"character": me.id, "points": 1, "for": "declaration"})


def maintain(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Maintenance: an Aspect standing for tedious upkeep costs Experience Points to run."""
    me = b.state.get(action.actor)
    params = acts.MAINTAIN.of(action)
    aspect, points = params.aspect, params.points
    if not me.sheet.has_aspect(aspect):
        raise RuleError("Maintenance", f"{me.id} has no Aspect {aspect!r}")
    me.pool.spend(points, why="maintenance")
    b.emit(ev.POOL_SPENT, {"character": me.id, "points": points, "for": f"maintain {aspect}"})


# -- the choices


def aspect_choices(me: Combatant) -> list[Choice]:
    """Declarations and Maintenance, at any time, on the Aspects the character bears with the
    points in their pool."""
    aspects: tuple[Json, ...] = tuple(me.sheet.all_aspects)
    if not aspects or me.pool.points < 1:
        return []
    return [
        Choice(
            me.id,
            "declare",
            {"aspect": OneOf(aspects), "fact": Text("it was always so")},
            label="a Declaration covered by an Aspect, for a point",
        ),
        Choice(
            me.id,
            "maintain",
            {"aspect": OneOf(aspects), "points": Between(1, me.pool.points)},
            label="Maintenance: points paid to run an Aspect",
        ),
    ]


# -- the fold: the scene after each event of Aspects, the pool and supplemental actions


def after_aspect_placed(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """An Aspect placed in play, with its free tag for the setter's side."""
    aspect = SceneAspect(
        id=int(d["id"]),
        name=str(d["name"]),
        on=str(d["on"]),
        setter=str(d["setter"]),
        free_side=str(d["free_side"]),
        unique_to=d.get("unique_to"),
        until_turn_of=d.get("until_turn_of"),
        consequence=bool(d.get("consequence", False)),
        aim=bool(d.get("aim", False)),
    )
    return evolved(state, aspects=(*state.aspects, aspect), next_aspect=aspect.id + 1)


def after_aspect_tagged(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """A free tag used is gone; a tag paid for costs the pool (:data:`~.events.POOL_SPENT`)."""
    aid = d.get("id")
    if d.get("free") and isinstance(aid, int):
        aspects = tuple(
            evolved(a, free_tags=a.free_tags - 1) if a.id == aid else a for a in state.aspects
        )
        return evolved(state, aspects=aspects)
    return state


def after_aspect_removed(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Manoeuvres: an Aspect removed."""
    return evolved(state, aspects=tuple(a for a in state.aspects if a.id != d["id"]))


def after_pool_spent(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """The Free Experience Pool: points spent on tags, Declarations or Maintenance."""
    me = state.get(str(d["character"]))
    return state.put(evolved(me, pool=me.pool.spend(int(d["points"]))))


def after_declaration_made(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Declarations: the fact stands in the scene."""
    made = (str(d["character"]), str(d["fact"]))
    return evolved(state, declarations=(*state.declarations, made))


def after_weapon_drawn(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """A supplemental action: a weapon drawn is the one in hand."""
    return state.put(evolved(state.get(str(d["character"])), weapon=str(d["weapon"])))


FOLDS: Mapping[str, SceneFold] = {
    ev.ASPECT_PLACED: after_aspect_placed,
    ev.ASPECT_TAGGED: after_aspect_tagged,
    ev.ASPECT_REMOVED: after_aspect_removed,
    ev.POOL_SPENT: after_pool_spent,
    ev.DECLARATION_MADE: after_declaration_made,
    ev.WEAPON_DRAWN: after_weapon_drawn,
}
"""The scene after each event of this section."""
