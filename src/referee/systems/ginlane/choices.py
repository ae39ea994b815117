"""What each seat may do now, with real domains: who is in reach, which zones, which Aspects.

Gin Lane, "Fighting": before the first turn the referee rolls "Initiative"; then the character
whose turn it is (and anyone Waiting) takes one Full Action; at any time a character may make a
Declaration, pay Maintenance or recover, and the referee awards Experience and ends sessions.
Each :class:`~referee.core.Choice` offers only values the scene allows: attack targets in the
weapon's reach, zones next door with a clear way, sprint paths of at most four zones, Aspects
the character bears. An attack's choice carries the exact odds against each target's best
defence (everything in a Gin Lane scene is in plain sight, so every seat may see them).

>>> from referee.systems.ginlane.scene import setup_scene
>>> state = setup_scene({"zones": ["room", "hall"], "links": [["room", "hall"]],
...                      "characters": {"moll": {"weapon": "sword"}, "jack": {}}})
>>> [c.kind for c in legal_actions(state, "referee")][:2], actors(state)
(['initiative', 'award'], ('referee',))
"""

from __future__ import annotations

from dataclasses import replace

from referee.core import (
    REFEREE,
    ActorId,
    Between,
    Choice,
    Domain,
    OddsPreview,
    OneOf,
    RuleError,
    SomeOf,
    Text,
)
from referee.core.naming import title_of
from referee.core.values import Json
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.blocks import protector_of
from referee.systems.ginlane.cards import check_preview
from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll, OpposedRoll
from referee.systems.ginlane.scene import Combatant, SceneState
from referee.systems.ginlane.tables import manoeuvres, sephirot
from referee.systems.ginlane.tables import weapon as weapon_entry

__all__ = ["actors", "attack_check", "legal_actions", "previews", "sprint_paths"]

BLOCKING: tuple[Json, ...] = ("Weapons", "Brawl", "Strength", "Agility")
"""Skills offered for a Block of a named action, and for beating one (the referee may name
another)."""

MOST_PATHS = 40
"""At most this many sprint paths are offered (the shortest first)."""


def actors(state: SceneState) -> tuple[ActorId, ...]:
    """Whose move it is: the referee before initiative and after the fight; during it, the
    character whose turn it is and anyone Waiting."""
    if not state.order or state.over:
        return (REFEREE,)
    current = state.current
    waiting = tuple(c.id for c in state.combatants if c.waiting and c.id != current)
    return (str(current), *waiting)


def _opponents(state: SceneState, me: Combatant) -> list[Combatant]:
    return [c for c in state.combatants if c.side != me.side and not c.taken_out]


def _distance(state: SceneState, a: str, b: str) -> int | None:
    try:
        return state.distance(a, b)
    except RuleError:
        return None


def attack_check(
    state: SceneState, me: Combatant, target: Combatant
) -> DifficultyCheck | OpposedRoll | None:
    """The check of an attack with the weapon in hand against ``target``'s best defence
    (no tags), or ``None`` if the target is out of the weapon's reach."""
    weapon = weapon_entry(me.weapon)
    distance = _distance(state, me.zone, target.zone)
    if distance is None or distance > weapon.range:
        return None
    attack = GinLaneRoll(me.level(weapon.skill), mode=state.mode)
    protector = protector_of(state, target.id)
    floor = protector.block.strength if protector and protector.block else None
    allowed = rules.defence_skills(weapon.skill, small_weapon=weapon.small, track="Health")
    skill = max(allowed, key=lambda s: (target.level(s), s == "Agility"))
    standing = target.standing(skill)
    if standing is not None:
        return DifficultyCheck(attack, max(standing, floor or standing))
    bonus = rules.FULL_DEFENCE_BONUS if target.full_defence else 0
    defence = GinLaneRoll(target.level(skill), mode=state.mode, modifier=bonus)
    if rules.is_long_range(weapon, distance):
        defence = replace(defence, tags=1, free_tags=1)
    return OpposedRoll(attack, defence, floor)


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


def _clear_steps(state: SceneState, here: str) -> tuple[str, ...]:
    costs = dict(state.zone_costs)
    out = []
    for a, b, cost in state.links:
        if here in (a, b):
            there = b if a == here else a
            if cost == 1 and costs.get(there, 1) == 1:
                out.append(there)
    return tuple(sorted(set(out)))


def _grappled(state: SceneState, me: Combatant) -> bool:
    return any(
        c.block is not None and c.block.kind == "grapple" and c.block.target == me.id
        for c in state.combatants
    )


def _any_time(state: SceneState, me: Combatant) -> list[Choice]:
    out: list[Choice] = []
    aspects: tuple[Json, ...] = tuple(me.sheet.all_aspects)
    if aspects and me.pool.points >= 1:
        out.append(
            Choice(
                me.id,
                "declare",
                {"aspect": OneOf(aspects), "fact": Text("it was always so")},
                label="a Declaration covered by an Aspect, for a point",
            )
        )
        out.append(
            Choice(
                me.id,
                "maintain",
                {"aspect": OneOf(aspects), "points": Between(1, me.pool.points)},
                label="Maintenance: points paid to run an Aspect",
            )
        )
    if me.consequences.taken:
        out.append(Choice(me.id, "recover", {"days": Between(1, 60)}, label="days of recovery"))
    if any(s.startswith("Occult Philosophy") for s, _ in me.sheet.skills):
        paths = tuple(s.name for s in sephirot())
        out.append(
            Choice(
                me.id,
                "ritual",
                {"sephira": OneOf(paths), "hours": Between(1, 12), "difficulty": Between(6, 12)},
                label="a ritual on a Sephira's path",
            )
        )
    return out


Release = dict[str, OneOf]
"""``{"release": True}`` offered with every Full Action of a grappler ("Releasing the Grapple":
"release a grapple at will and perform a normal action"), else nothing."""


def _attack(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Attack: the opponents in the weapon's reach, each with the exact odds."""
    in_reach: list[tuple[Combatant, DifficultyCheck | OpposedRoll]] = []
    for target in _opponents(state, me):
        check = attack_check(state, me, target)
        if check is not None:
            in_reach.append((target, check))
    if not in_reach:
        return []
    odds = tuple(
        check_preview(check, f"{title_of(me.id)} attacks {title_of(t.id)}", rule="Action: Attack")
        for t, check in in_reach
    )
    targets = OneOf(tuple(t.id for t, _ in in_reach))
    label = f"attack with the {me.weapon}"
    return [Choice(me.id, "attack", {"target": targets, **release}, odds=odds, label=label)]


def _manoeuvre(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Manoeuvre: the named manoeuvres on an opponent in their reach, one on oneself,
    and the removal of an Aspect on oneself."""
    out: list[Choice] = []
    in_hand = weapon_entry(me.weapon)
    for named in (m for m in manoeuvres() if m.on != "self"):
        reach = rules.manoeuvre_reach(named.skill, in_hand)
        within = tuple(
            t.id
            for t in _opponents(state, me)
            if (d := _distance(state, me.zone, t.zone)) is not None and d <= reach
        )
        if within:
            out.append(
                Choice(
                    me.id,
                    "manoeuvre",
                    {"named": OneOf((named.name,)), "target": OneOf(within), **release},
                    label=f"{named.name}: {named.aspect} on an opponent ({named.skill})",
                )
            )
    on_self = tuple(m.name for m in manoeuvres() if m.on == "self")
    out.append(
        Choice(
            me.id,
            "manoeuvre",
            {"named": OneOf(on_self), "difficulty": Between(6, 12), **release},
            label="a manoeuvre on oneself",
        )
    )
    mine = tuple(a.name for a in state.aspects if a.on == me.id)
    if mine:
        removal: dict[str, Domain] = {
            "aspect": OneOf(mine),
            "remove": OneOf((True,)),
            "skill": OneOf(("Agility", "Resolve")),
            "difficulty": Between(6, 12),
            **release,
        }
        out.append(Choice(me.id, "manoeuvre", removal, label="a manoeuvre to remove an Aspect"))
    return out


def _block(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Block (protect an ally, hold a doorway, prevent a named action), beating a Block
    of a named action, and "Hold a thing" (a Block on a thing, seizing it)."""
    out: list[Choice] = []
    allies = tuple(c.id for c in state.combatants if c.side == me.side and c.id != me.id)
    if allies:
        out.append(Choice(me.id, "block", {"protect": OneOf(allies), **release}))
    doors = tuple(
        sorted({b if a == me.zone else a for a, b, _ in state.links if me.zone in (a, b)})
    )
    if doors:
        out.append(Choice(me.id, "block", {"doorway": OneOf(doors), **release}))
    named_action: dict[str, Domain] = {
        "action": Text("open the door"),
        "skill": OneOf(BLOCKING),
        **release,
    }
    out.append(Choice(me.id, "block", named_action, label="a Block of a named action"))
    blockers = tuple(
        c.id
        for c in state.combatants
        if c.block is not None and c.block.kind == "action" and c.id != me.id and not c.taken_out
    )
    if blockers:
        out.append(
            Choice(
                me.id,
                "overcome",
                {"blocker": OneOf(blockers), "skill": OneOf(BLOCKING), **release},
                label="the action a Block prevents, against it",
            )
        )
    things = tuple(sorted({thing for thing, _ in state.holdings}))
    if things:
        out.append(Choice(me.id, "block", {"hold": OneOf(things), **release}))
        out.append(Choice(me.id, "seize", {"thing": OneOf(things), **release}))
    return out


def _grapple(state: SceneState, me: Combatant) -> list[Choice]:
    """Grapple: a grappler keeps the grapple, lets go, or gives the bum's rush; anyone else
    may grapple an opponent in the zone, tagging an Aspect to lay hands on them."""
    out: list[Choice] = []
    if me.block is not None and me.block.kind == "grapple":
        held = state.get(me.block.target)
        out.append(
            Choice(me.id, "grapple", {"target": OneOf((held.id,))}, label="keep the grapple")
        )
        out.append(Choice(me.id, "release", label="let go"))
        rush = _clear_steps(state, held.zone)
        if rush:
            out.append(Choice(me.id, "release", {"to": OneOf(rush)}, label="the bum's rush"))
        return out
    for target in _opponents(state, me):
        if target.zone != me.zone:
            continue
        on_target = [a.name for a in state.aspects if a.on == target.id]
        handles = tuple(dict.fromkeys(on_target + list(target.sheet.all_aspects)))
        if handles:
            out.append(
                Choice(
                    me.id,
                    "grapple",
                    {"target": OneOf((target.id,)), "tag": OneOf(handles)},
                    label=f"grapple {title_of(target.id)}",
                )
            )
    return out


def _movement(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Zones: a move next door with a clear way and "Action: Sprint" (none for the grappled:
    they "can't move (Sprint or move Zones) at all"); "Grenades": a zone in sight."""
    out: list[Choice] = []
    if not _grappled(state, me):
        steps = _clear_steps(state, me.zone)
        if steps:
            out.append(Choice(me.id, "move", {"to": OneOf(steps), **release}))
        paths = sprint_paths(state, me.zone)
        if paths:
            out.append(
                Choice(me.id, "sprint", {"path": OneOf(tuple(list(p) for p in paths)), **release})
            )
    zones = tuple(
        z
        for z in state.zones
        if (d := _distance(state, me.zone, z)) is not None and d < rules.OUT_OF_SIGHT
    )
    if zones:
        out.append(Choice(me.id, "throw_grenade", {"zone": OneOf(zones), **release}))
    return out


def _turn(state: SceneState, me: Combatant) -> list[Choice]:
    """The Full Actions open on ``me``'s turn ("3. Actions"), section by section; only the
    fuse while a fizzled grenade of theirs lies waiting ("Fizzle")."""
    if any(f.thrower == me.id for f in state.fizzles):
        if state.current == me.id:
            return [Choice(me.id, "fuse", label="the fizzled grenade's fuse")]
        return []
    grappling = me.block is not None and me.block.kind == "grapple"
    release: Release = {"release": OneOf((True,))} if grappling else {}
    return [
        *_attack(state, me, release),
        *_manoeuvre(state, me, release),
        *_block(state, me, release),
        *_grapple(state, me),
        *_movement(state, me, release),
        Choice(
            me.id,
            "wait",
            {"plan": Text(f"{me.id} strikes whoever comes through the door"), **release},
        ),
        Choice(me.id, "full_defence", dict(release)),
        Choice(me.id, "something_else", {"what": Text(f"{me.id} loads a pistol"), **release}),
    ]


def legal_actions(state: SceneState, actor: ActorId) -> tuple[Choice, ...]:
    """The choices open to ``actor`` now (see the module's doc)."""
    everyone = tuple(c.id for c in state.combatants)
    if actor == REFEREE:
        out: list[Choice] = []
        if not state.order:
            out.append(Choice(REFEREE, "initiative", label="roll initiative"))
        out += [
            Choice(
                REFEREE, "award", {"points": Between(1, 5), "characters": SomeOf(everyone, least=1)}
            ),
            Choice(REFEREE, "end_scene", label="the end of the scene"),
            Choice(REFEREE, "rest", label="a night's rest for everyone"),
            Choice(REFEREE, "end_session", label="the end of the session"),
        ]
        return tuple(out)
    if actor not in everyone:
        return ()
    me = state.get(actor)
    if me.taken_out:
        return ()
    out = _any_time(state, me)
    if state.order and not state.over and (actor == state.current or me.waiting):
        out = _turn(state, me) + out
    return tuple(out)


def previews(state: SceneState) -> tuple[OddsPreview, ...]:
    """The odds of the attacks whoever's turn it is could make now."""
    if not state.order or state.over or state.current is None:
        return ()
    me = state.get(state.current)
    return tuple(
        odds for choice in _turn(state, me) if choice.kind == "attack" for odds in choice.odds
    )
