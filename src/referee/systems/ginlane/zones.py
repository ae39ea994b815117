"""Zones and movement: a move, a Sprint, a held doorway, and a grapple that stops both.

Gin Lane, "Zones", "Action: Sprint", "Difficult terrain", "Hold a doorway".
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import (
    Action,
    Builder,
    Choice,
    OneOf,
    RollCard,
    RuleError,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource, roll
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.cards import check_card, odds_json
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
)
from referee.systems.ginlane.scene import (
    Combatant,
    Release,
    SceneFold,
    SceneState,
)
from referee.systems.ginlane.tables import skill as skill_entry


def check_can_move(state: SceneState, who: Combatant) -> None:
    """Grapple: the target "can't move (Sprint or move Zones) at all"."""
    if grappler_of(state, who.id) is not None:
        raise RuleError("Grapple", f"{who.id} is grappled and can't move")


def step(state: SceneState, here: str, there: str, *, clear: bool) -> int:
    """The cost of one step between adjacent zones ("Difficult terrain"); ``clear``: a
    move needs a clear way (cost 1)."""
    cost = state.link_costs().get((here, there), state.link_costs().get((there, here)))
    if cost is None:
        raise RuleError("Zones", f"{there!r} is not next to {here!r}")
    cost += max(0, dict(state.zone_costs).get(there, 1) - 1)
    if clear and cost > 1:
        raise RuleError("Zones", f"no clear way from {here!r} to {there!r}: Sprint")
    return cost


def grappler_of(state: SceneState, cid: str) -> Combatant | None:
    """Who grapples ``cid``, if anyone."""
    for c in state.combatants:
        if c.block is not None and c.block.kind == "grapple" and c.block.target == cid:
            return c
    return None


def move(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Moving between two adjacent zones with a clear way."""
    me = b.state.get(action.actor)
    params = acts.MOVE.of(action)
    to = params.to
    check_can_move(b.state, me)
    step(b.state, me.zone, to, clear=True)
    if not past_doorway(b, me, me.zone, to, params.past, dice):
        return
    b.emit(ev.MOVED, {"character": me.id, "from": me.zone, "to": to})


def past_doorway(
    b: Builder[SceneState],
    me: Combatant,
    here: str,
    to: str,
    past_skill: str,
    dice: DiceSource,
) -> bool:
    """Hold a doorway: getting past needs Weapons or Agility beating the Block, whether
    the move is a full action, a supplemental move or a step of a Sprint."""
    for c in b.state.combatants:
        blk = c.block
        if blk is None or blk.kind != "doorway" or c.side == me.side or c.taken_out:
            continue
        if {here, to} != {c.zone, blk.target}:
            continue
        skill = skill_entry(past_skill).name
        if skill not in ("Agility", "Weapons", "Brawl"):
            raise RuleError("Hold a doorway", f"get past with Weapons or Agility, not {skill}")
        past = DifficultyCheck(GinLaneRoll(me.level(skill), mode=b.state.mode), blk.strength)
        odds = past.odds()
        result = past.roll(dice)
        b.emit(
            ev.BLOCK_TESTED,
            {
                "blocker": c.id,
                "strength": blk.strength,
                "character": me.id,
                **result.to_json(),
                "odds": odds_json(odds),
                "roll": check_card(
                    past,
                    result,
                    f"{title_of(me.id)} gets past {title_of(c.id)}",
                    rule="Hold a doorway",
                    odds=odds,
                ),
            },
        )
        if not result.is_success:
            return False
    return True


def sprint(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Sprint: |d6 − d6| + Agility zones of movement, at most 4 zones."""
    me = b.state.get(action.actor)
    check_can_move(b.state, me)
    params = acts.SPRINT.of(action)
    path = list(params.path)
    rolled = roll("abs(1d6-1d6)", dice)
    points = int(rolled.total) + me.level("Agility")
    route = rules.sprint_route(
        path, me.zone, points, b.state.link_costs(), dict(b.state.zone_costs)
    )
    b.emit(
        ev.SPRINT_ROLLED,
        {
            "character": me.id,
            "dice": list(rolled.faces),
            "points": points,
            "route": list(route),
            "roll": RollCard(
                label=f"{title_of(me.id)} sprints",
                rule="Action: Sprint",
                dice=f"|d6 - d6|{me.level('Agility'):+d}",
                odds=None,
                faces=tuple(rolled.faces),
                outcome="rolled",
                margin=None,
                value=points,
                shown=f"{rolled.describe()} {me.level('Agility'):+d} = {points}",
            ).to_json(),
        },
    )
    here = me.zone
    for there in route:
        if not past_doorway(b, me, here, there, params.past, dice):
            break
        here = there
    if here != me.zone:
        b.emit(ev.MOVED, {"character": me.id, "from": me.zone, "to": here})


# -- the choices


MOST_PATHS = 40
"""At most this many sprint paths are offered (the shortest first)."""


def zones_between(state: SceneState, here: str, there: str) -> int | None:
    """Zones between two zones, or ``None`` if there is no way."""
    try:
        return state.distance(here, there)
    except RuleError:
        return None


def sprint_paths(state: SceneState, start: str) -> tuple[tuple[str, ...], ...]:
    """Every path of one to four adjacent zones from ``start`` without going back."""
    neighbours: dict[str, list[str]] = {}
    for a, b, _ in state.links:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    paths: list[tuple[str, ...]] = []
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(rules.SPRINT_MAX_ZONES):
        grown: list[tuple[str, ...]] = []
        for path in frontier:
            here = path[-1] if path else start
            for there in sorted(neighbours.get(here, [])):
                if there != start and there not in path:
                    grown.append((*path, there))
        paths.extend(grown)
        frontier = grown
        if len(paths) >= MOST_PATHS:
            break
    return tuple(paths[:MOST_PATHS])


def clear_steps(state: SceneState, here: str) -> tuple[str, ...]:
    """The zones next to ``here`` with a clear way (moving costs 1)."""
    costs = dict(state.zone_costs)
    out = []
    for a, b, cost in state.links:
        if here in (a, b):
            there = b if a == here else a
            if cost == 1 and costs.get(there, 1) == 1:
                out.append(there)
    return tuple(sorted(set(out)))


def movement_choices(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Zones: a move next door with a clear way, and "Action: Sprint" (none for the grappled:
    they "can't move (Sprint or move Zones) at all")."""
    if grappler_of(state, me.id) is not None:
        return []
    out: list[Choice] = []
    steps = clear_steps(state, me.zone)
    if steps:
        out.append(Choice(me.id, "move", {"to": OneOf(steps), **release}))
    paths = sprint_paths(state, me.zone)
    if paths:
        out.append(
            Choice(me.id, "sprint", {"path": OneOf(tuple(list(p) for p in paths)), **release})
        )
    return out


# -- the fold: the scene after a move


def aims_kept(state: SceneState) -> SceneState:
    """Take Aim: "This can be kept up for as long as the aimer finds practical if the target
    doesn't do something to break the aim which might be as simple as walking out of sight":
    the Target Aspect of a Take Aim lapses when aimer or target walks out of the other's sight.
    Any other manoeuvre's Aspect, unique to its setter or not, lasts "for the rest of the scene
    or until another manoeuvre removes it" ("Manoeuvres")."""
    ids = {c.id: c for c in state.combatants}
    kept = []
    for a in state.aspects:
        if a.aim and a.setter in ids and a.on in ids:
            aimer, target = ids[a.setter], ids[a.on]
            far = rules.zone_distance([(x, y) for x, y, _ in state.links], aimer.zone, target.zone)
            if far is None or far >= rules.OUT_OF_SIGHT:
                continue
        kept.append(a)
    return state if len(kept) == len(state.aspects) else evolved(state, aspects=tuple(kept))


def after_moved(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Zones: the character is in the zone moved to; an aim out of sight lapses."""
    moved = state.put(evolved(state.get(str(d["character"])), zone=str(d["to"])))
    return aims_kept(moved)


FOLDS: Mapping[str, SceneFold] = {ev.MOVED: after_moved}
"""The scene after each event of this section."""
