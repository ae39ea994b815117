"""A Gin Lane scene in play: a fight across zones, Aspects in play, stress and recovery.

The :class:`GinLane` procedure (``system: ginlane`` in scenario files) plays Gin Lane,
"Fighting" with the rules of :mod:`~referee.systems.ginlane.conflict`, the rolls of
:mod:`~referee.systems.ginlane.rolls`, the sheets of :mod:`~referee.systems.ginlane.character`
and the tracks of :mod:`~referee.systems.ginlane.stress`.

Setup::

    mode: a                      # tagging option a (extra die) or b (re-roll)
    zones: [street, tavern]
    links: [[street, tavern], [tavern, yard, 3]]   # adjacent zones; a third item: barrier cost
    costs: {yard: 2}             # zones that cost more to move through
    characters:
      moll: {side: society, zone: tavern, weapon: sword, skills: {...}, aspects: [...],
             experience: 12, pool: 2}

Actions (``params``): ``initiative`` (the referee), ``attack {target, skill, weapon, tags,
track, defence: {skill, tags}, consequences: [{severity, aspect}]}``, ``manoeuvre {target |
zone | scene, aspect | named, skill, difficulty, defence, remove, tags}``, ``block {skill,
protect | doorway | hold}``, ``grapple {target, tag}``, ``release``, ``sprint {path}``,
``move {to}``, ``wait {plan}``, ``full_defence``, ``something_else {what}``, ``throw_grenade
{zone, on_target, defences, consequences}``, ``fuse``, ``seize {thing, holder, skill}``; and at
any time ``declare {aspect, fact}``, ``award {points}``, ``rest``, ``end_session``, ``recover
{aspect, days}``. Every roll may carry ``tags`` (Aspect names) and ``supplemental`` (−1), and
the ``move_to`` supplemental.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from referee.core import (
    Action,
    ActorId,
    CheckOdds,
    Event,
    Procedure,
    RuleError,
    ScenarioError,
    Secret,
    Viewer,
    only,
)
from referee.core.values import JsonObject, to_json
from referee.dice import DiceSource, roll
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.character import Character, ExperiencePool, check_sheet
from referee.systems.ginlane.magia import Ritual, interruption_risk
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
    OpposedRoll,
    Resolution,
    RollResult,
    TagMode,
    effective_skill,
    limited_skill,
)
from referee.systems.ginlane.stress import (
    TRACKS,
    Consequences,
    StressTrack,
    TakenConsequence,
)
from referee.systems.ginlane.tables import consequence as consequence_row
from referee.systems.ginlane.tables import difficulty_number
from referee.systems.ginlane.tables import manoeuvre as named_manoeuvre
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry

__all__ = [
    "PROCEDURE",
    "Block",
    "Combatant",
    "Fizzle",
    "GinLane",
    "SceneAspect",
    "SceneState",
]

SCENE = "scene"
"""Where a scene Aspect sits when it is on the whole scene."""

SPIN_ASPECT = "Over-Extended"
"""The name given to a spin's temporary disadvantage Aspect (the text names none)."""

SITTING_DUCK = "Sitting Duck"
ON_TARGET = "On Target"
AT_LONG_RANGE = "At Long Range"
DEFAULT_DIFFICULTY = 8
"""A manoeuvre against the surroundings with no difficulty given: Fair (Rulings)."""


# ---------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class SceneAspect:
    """An Aspect placed in play ("Manoeuvres"; "Spin"; "Consequences").

    ``on`` a character id, a zone, or ``"scene"``; ``free_side`` the side whose members may
    use the free tags (``"!side"``: anyone not on that side); ``unique_to`` the only
    character who may tag it at all (Take Aim's Target); ``until_turn_of`` it lapses when that
    character's turn starts (a spin, a Sitting Duck); ``consequence`` for a consequence's Aspect.
    """

    id: int
    name: str
    on: str
    setter: str
    free_side: str
    free_tags: int = 1
    unique_to: str | None = None
    until_turn_of: str | None = None
    consequence: bool = False

    def is_free_for(self, side: str) -> bool:
        """True if a member of ``side`` may use a free tag on it now."""
        if self.free_tags <= 0:
            return False
        if self.free_side.startswith("!"):
            return side != self.free_side[1:]
        return side == self.free_side


@dataclass(frozen=True)
class Block:
    """A Block in force ("Action: Block"): its kind, strength, and what it holds.

    ``kind``: ``protect`` (a character), ``doorway`` (the way to a zone), ``hold`` (a thing),
    ``grapple`` (a character).
    """

    kind: str
    strength: int
    target: str


@dataclass(frozen=True)
class Fizzle:
    """A grenade that fizzled ("Fizzle"): who threw it, where, and who was On Target."""

    thrower: str
    zone: str
    on_target: str | None


@dataclass(frozen=True)
class Combatant:
    """A character in the scene: sheet, side, zone, weapon, pool, tracks and conditions."""

    id: str
    sheet: Character
    side: str
    zone: str
    weapon: str
    pool: ExperiencePool
    tracks: tuple[StressTrack, ...]
    consequences: Consequences = field(default_factory=Consequences)
    taken_out: bool = False
    full_defence: bool = False
    defences: tuple[tuple[str, int], ...] = ()
    waiting: bool = False
    block: Block | None = None
    dropped: str | None = None
    wealth_hit: bool = False

    def level(self, skill: str) -> int:
        """The skill's level, or −2 with none ("No Relevant Skill"); arcane: impossible."""
        entry = skill_entry(skill)
        level = self.sheet.level(skill)
        if level is None and ":" not in skill:
            level = self.sheet.level(entry.name)
        return effective_skill(level, arcane=entry.arcane)

    def track(self, name: str) -> StressTrack:
        """The named stress track."""
        for t in self.tracks:
            if t.name == name:
                return t
        raise RuleError("Stress Tracks", f"no track {name!r}")

    def standing(self, skill: str) -> int | None:
        """A defence result still on the table for ``skill`` ("Defence")."""
        return dict(self.defences).get(skill)


@dataclass(frozen=True)
class SceneState:
    """The whole scene: characters, zones, Aspects in play, the order of turns."""

    combatants: tuple[Combatant, ...]
    zones: tuple[str, ...] = ()
    links: tuple[tuple[str, str, int], ...] = ()
    zone_costs: tuple[tuple[str, int], ...] = ()
    aspects: tuple[SceneAspect, ...] = ()
    next_aspect: int = 1
    order: tuple[str, ...] = ()
    turn: int = 0
    round: int = 0
    mode: TagMode = TagMode.EXTRA_DIE
    fizzles: tuple[Fizzle, ...] = ()
    holdings: tuple[tuple[str, str], ...] = ()
    declarations: tuple[tuple[str, str], ...] = ()
    over: bool = False

    def get(self, cid: str) -> Combatant:
        """The combatant ``cid``; :class:`RuleError` if there is none."""
        for c in self.combatants:
            if c.id == cid:
                return c
        raise RuleError("Characters", f"no character {cid!r} in the scene")

    def put(self, combatant: Combatant) -> SceneState:
        """The state with ``combatant`` replaced."""
        return replace(
            self,
            combatants=tuple(combatant if c.id == combatant.id else c for c in self.combatants),
        )

    @property
    def current(self) -> str | None:
        """Whose turn it is (``None`` before initiative)."""
        return self.order[self.turn] if self.order else None

    def distance(self, a: str, b: str) -> int:
        """Zones between two zones; :class:`RuleError` if there is no way."""
        d = rules.zone_distance([(x, y) for x, y, _ in self.links], a, b)
        if d is None:
            raise RuleError("Zones", f"no way from {a!r} to {b!r}")
        return d

    def link_costs(self) -> dict[tuple[str, str], int]:
        """Adjacent zones and the cost of moving between them."""
        return {(a, b): cost for a, b, cost in self.links}

    def aspect(self, aid: int) -> SceneAspect:
        """The scene Aspect numbered ``aid``."""
        for a in self.aspects:
            if a.id == aid:
                return a
        raise RuleError("Aspects", f"no Aspect number {aid}")


# ---------------------------------------------------------------------------------- setup


def _setup_character(cid: str, data: Any, zones: Sequence[str]) -> Combatant:
    if not isinstance(data, Mapping):
        raise ScenarioError("a character is a mapping", ("characters", cid))
    try:
        sheet = Character.from_json(cid, data).validate()
    except RuleError as error:
        raise ScenarioError(str(error), ("characters", cid)) from None
    zone = str(data.get("zone", zones[0] if zones else "here"))
    if zones and zone not in zones:
        raise ScenarioError(f"no zone {zone!r}", ("characters", cid, "zone"))
    weapon = str(data.get("weapon", "fists"))
    try:
        weapon_entry(weapon)
    except RuleError as error:
        raise ScenarioError(str(error), ("characters", cid, "weapon")) from None
    full = sheet.unspent
    points = data.get("pool", full)
    if not isinstance(points, int) or points < 0:
        raise ScenarioError("the pool is a whole number of points", ("characters", cid, "pool"))
    tracks = tuple(StressTrack.empty(t, sheet.tracks[t]) for t in TRACKS)
    return Combatant(
        id=cid,
        sheet=sheet,
        side=str(data.get("side", cid)),
        zone=zone,
        weapon=weapon,
        pool=ExperiencePool(points, full),
        tracks=tracks,
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _setup(setup: Mapping[str, Any]) -> SceneState:
    raw_zones = setup.get("zones", [])
    if not isinstance(raw_zones, list | tuple):
        raise ScenarioError("zones is a list of zone names", ("zones",))
    zones = tuple(str(z) for z in raw_zones)
    raw_links = setup.get("links", [])
    if not isinstance(raw_links, list | tuple):
        raise ScenarioError("links is a list of [zone, zone] or [zone, zone, cost]", ("links",))
    links: list[tuple[str, str, int]] = []
    for i, link in enumerate(raw_links):
        if not isinstance(link, list | tuple) or len(link) not in (2, 3):
            raise ScenarioError("a link is [zone, zone] or [zone, zone, cost]", ("links", i))
        a, b = str(link[0]), str(link[1])
        for z in (a, b):
            if z not in zones:
                raise ScenarioError(f"no zone {z!r}", ("links", i))
        if len(link) == 3 and not _whole(link[2]):
            raise ScenarioError(
                f"a barrier's cost is a whole number, not {link[2]!r}", ("links", i)
            )
        links.append((a, b, int(link[2]) if len(link) == 3 else 1))
    costs = setup.get("costs", {})
    if not isinstance(costs, Mapping):
        raise ScenarioError("costs map zones to a cost", ("costs",))
    for zone, cost in costs.items():
        if str(zone) not in zones:
            raise ScenarioError(f"no zone {zone!r}", ("costs", str(zone)))
        if not _whole(cost):
            raise ScenarioError(f"a zone's cost is a whole number, not {cost!r}", ("costs", zone))
    raw_holdings = setup.get("holdings", {})
    if not isinstance(raw_holdings, Mapping):
        raise ScenarioError("holdings map a thing to who holds it", ("holdings",))
    chars = setup.get("characters", {})
    if not isinstance(chars, Mapping) or not chars:
        raise ScenarioError("at least one character", ("characters",))
    try:
        mode = TagMode.parse(str(setup.get("mode", "a")))
    except RuleError as error:
        raise ScenarioError(str(error), ("mode",)) from None
    combatants = tuple(_setup_character(str(k), v, zones) for k, v in chars.items())
    holdings = tuple((str(k), str(v)) for k, v in raw_holdings.items())
    return SceneState(
        combatants=combatants,
        zones=zones,
        links=tuple(links),
        zone_costs=tuple((str(k), int(v)) for k, v in costs.items()),
        mode=mode,
        holdings=holdings,
    )


# ---------------------------------------------------------------------------------- helpers


def _odds_json(odds: CheckOdds) -> dict[str, str]:
    """The exact chances of a roll, worked out before it was rolled, as ``"n/d"`` strings."""
    return {"success": str(odds.success), "match": str(odds.tie), "failure": str(odds.failure)}


def _fizzle_chance(spec: GinLaneRoll) -> Fraction:
    """Fizzle: the exact chance that the grenade's attack shows a natural 2 or 3."""
    return sum(
        (p for t, p in spec.distribution().items() if rules.is_fizzle(t - spec.bonus)),
        Fraction(0),
    )


def _str(params: Mapping[str, Any], key: str, rule: str) -> str:
    value = params.get(key)
    if not isinstance(value, str) or not value:
        raise RuleError(rule, f"needs {key!r}")
    return value


def _list(params: Mapping[str, Any], key: str) -> list[Any]:
    value = params.get(key, [])
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list | tuple):
        raise RuleError("Actions", f"{key!r} is a list")
    return list(value)


@dataclass(frozen=True)
class _Tag:
    """An Aspect tagged for a roll: which, and whether it is free."""

    name: str
    free: bool
    scene_id: int | None = None


class _Builder:
    """Events for one action, folded into a running state as they are made."""

    def __init__(self, procedure: GinLane, state: SceneState) -> None:
        self.procedure = procedure
        self.state = state
        self.events: list[Event] = []

    def emit(self, kind: str, payload: Mapping[str, Any], **kw: Any) -> None:
        event = Event(kind, to_json(dict(payload)), **kw)
        self.events.append(event)
        self.state = self.procedure.evolve(self.state, event)


# ---------------------------------------------------------------------------------- procedure


class GinLane(Procedure[SceneState]):
    """Gin Lane in play: a fight (or any scene) turn by turn, and recovery between scenes."""

    TURN_ACTIONS = (
        "attack",
        "manoeuvre",
        "block",
        "grapple",
        "release",
        "sprint",
        "move",
        "wait",
        "full_defence",
        "something_else",
        "throw_grenade",
        "seize",
    )
    ANY_TIME = (
        "declare",
        "award",
        "rest",
        "end_session",
        "recover",
        "fuse",
        "initiative",
        "check_sheet",
        "ritual",
        "maintain",
    )

    # -- kernel hooks ---------------------------------------------------------------------

    def evolve(self, state: SceneState, event: Event) -> SceneState:
        """The scene after an event (a fold: never rolls, never refuses)."""
        return _evolve(state, event)

    def state_json(self, state: SceneState) -> JsonObject:
        """The scene as JSON: what scenario ``expect: path`` reads."""
        return _state_json(state)

    def visible_state(self, state: SceneState, viewer: Viewer) -> JsonObject | None:
        """Everything in the scene is in plain sight; a Wait's plan lives only in its event."""
        return _state_json(state)

    def initial_state(self, setup: Mapping[str, Any]) -> SceneState:
        """The scene from a scenario's ``setup`` (see the module docstring)."""
        return _setup(setup)

    def actors(self, state: SceneState) -> Sequence[ActorId]:
        """Everyone not Taken Out."""
        return tuple(c.id for c in state.combatants if not c.taken_out)

    def legal_actions(self, state: SceneState, actor: ActorId) -> Sequence[Action]:
        """A menu: before initiative, ``initiative``; on one's turn, the full actions."""
        if not state.order:
            return (Action("referee", "initiative"),)
        me = state.get(actor) if actor in state.order else None
        if me is None or me.taken_out:
            return ()
        if actor != state.current and not me.waiting:
            return ()
        out = [Action(actor, "full_defence"), Action(actor, "wait")]
        for a, z, cost in state.links:
            if cost == 1 and me.zone in (a, z):
                out.append(Action(actor, "move", {"to": z if a == me.zone else a}))
        for other in state.combatants:
            if other.side != me.side and not other.taken_out and other.zone == me.zone:
                out.append(Action(actor, "attack", {"target": other.id}))
        return tuple(out)

    def decide(self, state: SceneState, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events of an action, or :class:`RuleError` naming the rule that refuses it."""
        handler: Callable[[_Builder, Action, DiceSource], None] | None = getattr(
            self, f"_do_{action.kind}", None
        )
        if handler is None or action.kind not in self.TURN_ACTIONS + self.ANY_TIME:
            known = ", ".join(self.TURN_ACTIONS + self.ANY_TIME)
            raise RuleError("Actions", f"no action {action.kind!r} (known: {known})")
        b = _Builder(self, state)
        if action.kind in self.TURN_ACTIONS:
            self._start_of_action(b, action)
            handler(b, action, dice)
            self._end_turn(b)
        else:
            handler(b, action, dice)
        return tuple(b.events)

    # -- turns ------------------------------------------------------------------------------

    def _start_of_action(self, b: _Builder, action: Action) -> None:
        state = b.state
        if state.over:
            raise RuleError("Taken Out", "the fight is over")
        if not state.order:
            raise RuleError("Initiative", "roll initiative first")
        me = state.get(action.actor)
        if me.taken_out:
            raise RuleError("Taken Out", f"{me.id} has been Taken Out")
        if action.actor != state.current:
            if not me.waiting:
                raise RuleError("Initiative", f"it is {state.current}'s turn, not {me.id}'s")
            # Action: Wait: acting out of turn moves the waiter here for the rest of the fight
            order = [c for c in state.order if c != me.id]
            index = order.index(str(state.current))
            order.insert(index, me.id)
            b.emit("wait.acted", {"character": me.id, "order": order, "turn": index})
        if any(f.thrower == me.id for f in b.state.fizzles):
            raise RuleError("Fizzle", f"{me.id} must roll the fizzled grenade's fuse first (fuse)")
        if me.block is not None and me.block.kind == "grapple" and action.kind != "grapple":
            # Releasing the Grapple: "release a grapple at will and perform a normal action"
            if action.kind != "release" and not action.params.get("release"):
                raise RuleError(
                    "Grapple",
                    f"{me.id} is grappling {me.block.target}: keep the grapple or release it "
                    "(release: true) to act otherwise",
                )
            if action.kind != "release":
                self._release(b, me)

    def _end_turn(self, b: _Builder) -> None:
        state = b.state
        if state.over or not state.order:
            return
        sides = {c.side for c in state.combatants if not c.taken_out}
        if len(sides) <= 1:
            b.emit("fight.over", {"standing": sorted(sides)})
            return
        index, rnd = state.turn, state.round
        for _ in range(len(state.order)):
            index += 1
            if index >= len(state.order):
                index, rnd = 0, rnd + 1
            if not state.get(state.order[index]).taken_out:
                break
        b.emit("turn.started", {"character": state.order[index], "turn": index, "round": rnd})

    def _do_initiative(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Initiative: 2d6 + Alertness; the winner goes first, then around the table."""
        if b.state.order:
            raise RuleError("Initiative", "initiative has been rolled")
        seats = [c.id for c in b.state.combatants if not c.taken_out]
        rolls: dict[str, list[int]] = {cid: [] for cid in seats}
        contenders = seats
        while True:
            for cid in contenders:
                c = b.state.get(cid)
                result = GinLaneRoll(c.level("Alertness")).roll(dice)
                rolls[cid].append(result.total)
            best = max(rolls[cid][-1] for cid in contenders)
            contenders = [cid for cid in contenders if rolls[cid][-1] == best]
            if len(contenders) == 1:
                break
        winner = contenders[0]
        start = seats.index(winner)
        order = seats[start:] + seats[:start]
        b.emit("initiative.rolled", {"rolls": rolls, "order": order, "winner": winner})
        b.emit("turn.started", {"character": winner, "turn": 0, "round": 1})

    # -- tags and rolls -------------------------------------------------------------------------

    def _resolve_tags(
        self, state: SceneState, who: Combatant, names: Sequence[str], near: Sequence[str]
    ) -> list[_Tag]:
        """Find each tagged Aspect and whether it is free ("Aspects", "Team Work")."""
        tags: list[_Tag] = []
        used_free: set[int] = set()
        places = {*near, who.id, who.zone, SCENE}
        seen: set[str] = set()
        for raw in names:
            name = str(raw)
            if name.strip().lower() in seen:
                raise RuleError(
                    "Aspects", f"{name!r} is tagged twice: each Aspect adds to a roll once"
                )
            seen.add(name.strip().lower())
            found = [a for a in state.aspects if a.name.lower() == name.lower() and a.on in places]
            if found:
                for a in found:
                    if a.unique_to is not None and a.unique_to != who.id:
                        continue
                    free = a.is_free_for(who.side) and a.id not in used_free
                    if free:
                        used_free.add(a.id)
                    tags.append(_Tag(a.name, free, a.id))
                    break
                else:
                    raise RuleError(
                        "Team Work", f"{name!r} is unique to its setter and can't be passed on"
                    )
                continue
            if who.sheet.has_aspect(name):
                tags.append(_Tag(name, who.sheet.is_free_taggable(name)))
                continue
            others = [state.get(cid) for cid in near if cid in {c.id for c in state.combatants}]
            if any(o.sheet.has_aspect(name) for o in others):
                tags.append(_Tag(name, False))
                continue
            raise RuleError("Aspects", f"{who.id} has no Aspect {name!r} to tag here")
        if who.pool.points < sum(1 for t in tags if not t.free):
            raise RuleError(
                "The Free Experience Pool",
                f"{who.id} tags {sum(1 for t in tags if not t.free)} Aspects for points, "
                f"the pool has {who.pool.points}",
            )
        return sorted(tags, key=lambda t: not t.free)

    def _spec(
        self,
        state: SceneState,
        who: Combatant,
        skill: str,
        tags: Sequence[_Tag],
        modifier: int,
        params: Mapping[str, Any] | None = None,
    ) -> GinLaneRoll:
        """The roll: the skill's level ("No Relevant Skill": ``related: true`` rolls an
        untrained skill at 0; "Skill Interaction": ``limited_by: Ride`` rolls the lower)."""
        p = params or {}
        level = who.level(skill)
        if p.get("related") and who.sheet.level(skill) is None:
            level = effective_skill(None, related=True)
        if p.get("limited_by"):
            level = limited_skill(level, who.level(str(p["limited_by"])))
        return GinLaneRoll(
            skill=level,
            tags=len(tags),
            mode=state.mode,
            modifier=modifier,
            free_tags=sum(1 for t in tags if t.free),
        )

    def _pay(self, b: _Builder, who: str, tags: Sequence[_Tag], rolled: RollResult) -> None:
        """Record the tags a roll used: free tags spent, Experience Pool points paid."""
        for tag in tags[: rolled.tags_used]:
            b.emit(
                "aspect.tagged",
                {"character": who, "aspect": tag.name, "free": tag.free, "id": tag.scene_id},
            )
        if rolled.tags_paid:
            b.emit("pool.spent", {"character": who, "points": rolled.tags_paid, "for": "tags"})

    def _modifier(
        self,
        b: _Builder,
        who: Combatant,
        params: Mapping[str, Any],
        dice: DiceSource,
    ) -> int:
        """Supplemental actions (−1), including a supplemental move of one zone."""
        mod = 0
        if params.get("supplemental"):
            mod += rules.SUPPLEMENTAL_PENALTY
        to = params.get("move_to")
        if to:
            self._check_can_move(b.state, who)
            self._step(b.state, who.zone, str(to), clear=True)
            if self._past_doorway(b, who, who.zone, str(to), params, dice):
                b.emit("moved", {"character": who.id, "from": who.zone, "to": str(to)})
            mod += rules.SUPPLEMENTAL_PENALTY
        draw = params.get("draw")
        if draw:
            weapon_entry(str(draw))
            b.emit("weapon.drawn", {"character": who.id, "weapon": str(draw)})
            mod += rules.SUPPLEMENTAL_PENALTY
        return mod

    def _held(self, b: _Builder, me: Combatant, skill: str, total: int, breaking: str) -> bool:
        """Grapple: a grappled character must beat the grapple strength to do anything
        physical; beating it with an action against the grappler breaks the grapple."""
        grappler = self._grappler_of(b.state, me.id)
        if grappler is None or skill not in rules.PHYSICAL_SKILLS:
            return False
        assert grappler.block is not None
        if total <= grappler.block.strength:
            b.emit(
                "grapple.held",
                {"character": me.id, "by": grappler.id, "strength": grappler.block.strength},
            )
            return True
        if grappler.id == breaking:
            b.emit("grapple.broken", {"character": me.id, "by": grappler.id, "total": total})
        return False

    def _check_can_move(self, state: SceneState, who: Combatant) -> None:
        if self._grappler_of(state, who.id) is not None:
            raise RuleError("Grapple", f"{who.id} is grappled and can't move")

    def _step(self, state: SceneState, here: str, there: str, *, clear: bool) -> int:
        cost = state.link_costs().get((here, there), state.link_costs().get((there, here)))
        if cost is None:
            raise RuleError("Zones", f"{there!r} is not next to {here!r}")
        cost += max(0, dict(state.zone_costs).get(there, 1) - 1)
        if clear and cost > 1:
            raise RuleError("Zones", f"no clear way from {here!r} to {there!r}: Sprint")
        return cost

    def _grappler_of(self, state: SceneState, cid: str) -> Combatant | None:
        for c in state.combatants:
            if c.block is not None and c.block.kind == "grapple" and c.block.target == cid:
                return c
        return None

    # -- defence and stress ------------------------------------------------------------------

    def _defend(
        self,
        b: _Builder,
        attacker: Combatant,
        target: Combatant,
        spec: GinLaneRoll,
        attack_skill: str,
        params: Mapping[str, Any],
        *,
        small: bool = False,
        extra_free: int = 0,
        floor: int | None = None,
        track: str | None = None,
        dice: DiceSource,
        announce: Callable[[Resolution, str, CheckOdds], None],
    ) -> tuple[Resolution, str]:
        """Roll (or reuse) the target's defence against an attack or manoeuvre ("Defence").

        ``announce`` records the attacker's roll, with its exact odds worked out before the
        dice were rolled, ahead of the defence's events.
        """
        dparams = params.get("defence", {})
        if isinstance(dparams, str):
            dparams = {"skill": dparams}
        if not isinstance(dparams, Mapping):
            raise RuleError("Defence", "defence is {skill, tags}")
        skill = dparams.get("skill")
        if skill is None:
            allowed = rules.defence_skills(attack_skill, small_weapon=small, track=track)
            skill = max(allowed, key=lambda s: (target.level(s), s == "Agility"))
        skill = skill_entry(str(skill)).name
        if not rules.can_defend(skill, attack_skill, small_weapon=small, track=track):
            raise RuleError("Defence", f"{skill} can't defend against a {attack_skill} attack")
        standing = target.standing(skill)
        if standing is not None:
            standing_check = DifficultyCheck(spec, max(standing, floor or standing))
            odds = standing_check.odds()
            result = standing_check.roll(dice)
            announce(result, skill, odds)
            b.emit(
                "defence.stands",
                {"character": target.id, "skill": skill, "total": standing},
            )
            return result, skill
        tags = self._resolve_tags(b.state, target, _list(dparams, "tags"), [attacker.id])
        bonus = rules.FULL_DEFENCE_BONUS if target.full_defence else 0
        dspec = self._spec(b.state, target, skill, tags, bonus)
        if extra_free:
            dspec = replace(
                dspec, tags=dspec.tags + extra_free, free_tags=dspec.free_tags + extra_free
            )
        opposed = OpposedRoll(spec, dspec, floor)
        odds = opposed.odds()
        result = opposed.roll(dice)
        assert result.opponent is not None
        announce(result, skill, odds)
        self._pay(b, target.id, tags, result.opponent)
        b.emit(
            "defence.rolled",
            {
                "character": target.id,
                "skill": skill,
                "total": result.opponent.total,
                "roll": result.opponent.to_json(),
                "full_defence": target.full_defence,
            },
        )
        return result, skill

    def _stress(
        self,
        b: _Builder,
        attacker: Combatant,
        target: Combatant,
        stress: int,
        track: str,
        chosen: Sequence[Any],
    ) -> None:
        """Stress on a track, less any consequences the target takes ("Consequences")."""
        if stress <= 0:
            if chosen:
                raise RuleError("Consequences", "a consequence is taken against a stress hit")
            return
        left = stress
        for item in chosen:
            if not isinstance(item, Mapping) or "severity" not in item or "aspect" not in item:
                raise RuleError("Consequences", "a consequence is {severity, aspect}")
            now = b.state.get(target.id)
            taken = TakenConsequence(
                severity=str(item["severity"]).lower(),
                aspect=str(item["aspect"]),
                track=track,
                inflicted_by=attacker.side,
                replaces=item.get("replaces"),
            )
            now.consequences.take(taken)  # refuses a full slot
            if taken.replaces and str(taken.replaces).lower() not in (
                a.lower() for a in now.sheet.aspects
            ):
                raise RuleError(
                    "Consequences", f"{now.id} has no Aspect {taken.replaces!r} to replace"
                )
            left = max(0, left - consequence_row(taken.severity).mitigates)
            b.emit(
                "consequence.taken",
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
            "stress.taken",
            {"character": target.id, "track": track, **hit.to_json()},
        )
        if hit.taken_out:
            b.emit("taken_out", {"character": target.id, "by": attacker.id})

    # -- full actions -----------------------------------------------------------------------

    def _do_attack(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Attack: 2d6 + a combat skill against the target's defence."""
        p = action.params
        me = b.state.get(action.actor)
        target = b.state.get(_str(p, "target", "Action: Attack"))
        if target.taken_out:
            raise RuleError("Taken Out", f"{target.id} is already Taken Out")
        weapon = weapon_entry(str(p.get("weapon", me.weapon)))
        skill = skill_entry(str(p.get("skill", weapon.skill))).name
        mod = self._modifier(b, me, p, dice)
        me = b.state.get(me.id)
        distance = b.state.distance(me.zone, target.zone)
        if skill in rules.SOCIAL_ATTACKS:
            # words: no weapon, reach as far as a raised voice carries (Rulings)
            if distance > rules.SOCIAL_REACH:
                raise RuleError("Zones", f"{target.id} is {distance} zones away, out of earshot")
            bonus, long_range = 0, False
        elif skill != weapon.skill:
            # a weapon used with another skill (a pistol as a club) is improvised (Rulings)
            if distance > 0:
                raise RuleError("Range", f"a {weapon.name} used with {skill} reaches 0 zones")
            bonus, long_range = rules.IMPROVISED_BONUS, False
        else:
            bonus = rules.damage_bonus(weapon, distance)
            long_range = rules.is_long_range(weapon, distance)
        track = str(p.get("track", "Composure" if skill in rules.SOCIAL_ATTACKS else "Health"))
        if track not in TRACKS:
            raise RuleError("Stress Tracks", f"no track {track!r}")
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [target.id])
        spec = self._spec(b.state, me, skill, tags, mod, p)
        protector = next(
            (
                c
                for c in b.state.combatants
                if c.block is not None
                and c.block.kind == "protect"
                and c.block.target == target.id
                and not c.taken_out
            ),
            None,
        )

        def announce(result: Resolution, dskill: str, odds: CheckOdds) -> None:
            self._pay(b, me.id, tags, result.actor)
            b.emit(
                "attack.rolled",
                {
                    "character": me.id,
                    "target": target.id,
                    "skill": skill,
                    "weapon": weapon.name,
                    "total": result.actor.total,
                    "defence": result.actor.total - result.margin,
                    "defence_skill": dskill,
                    "roll": result.actor.to_json(),
                    "long_range": long_range,
                    "bonus": bonus,
                    "odds": _odds_json(odds),
                },
            )

        result, _ = self._defend(
            b,
            me,
            target,
            spec,
            skill,
            p,
            small=weapon.small,
            extra_free=1 if long_range else 0,
            floor=protector.block.strength if protector and protector.block else None,
            track=track,
            dice=dice,
            announce=announce,
        )
        attack = result.actor.total
        # the margin is against the higher of the defence and a protecting Block
        against = attack - result.margin
        if self._held(b, me, skill, attack, breaking=target.id):
            return
        if protector is not None and protector.block is not None:
            b.emit(
                "block.tested",
                {"blocker": protector.id, "strength": protector.block.strength, "total": attack},
            )
        stress = rules.attack_stress(attack, against, bonus)
        if attack == against:
            b.emit("attack.match", {"character": me.id, "target": target.id, "stress": stress})
        if rules.is_spin(attack, against):
            self._place(
                b,
                SPIN_ASPECT,
                on=me.id,
                setter=target.id,
                free_side=target.side,
                until_turn_of=me.id,
            )
            b.emit("spin", {"character": target.id, "against": me.id})
        self._stress(b, me, target, stress, track, _list(p, "consequences"))

    def _place(
        self,
        b: _Builder,
        name: str,
        *,
        on: str,
        setter: str,
        free_side: str,
        until_turn_of: str | None = None,
        unique_to: str | None = None,
        consequence: bool = False,
    ) -> None:
        b.emit(
            "aspect.placed",
            {
                "id": b.state.next_aspect,
                "name": name,
                "on": on,
                "setter": setter,
                "free_side": free_side,
                "until_turn_of": until_turn_of,
                "unique_to": unique_to,
                "consequence": consequence,
            },
        )

    def _do_manoeuvre(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Manoeuvre: set (or remove) an Aspect, against a defence or a difficulty."""
        p = action.params
        me = b.state.get(action.actor)
        named = named_manoeuvre(str(p["named"])) if p.get("named") else None
        name = str(p.get("aspect") or (named.aspect if named else ""))
        if not name:
            raise RuleError("Action: Manoeuvre", "needs an 'aspect' or a 'named' manoeuvre")
        skill = skill_entry(str(p.get("skill") or (named.skill if named else ""))).name
        if named is not None and named.on == "self":
            on = me.id
        elif p.get("target"):
            on = str(p["target"])
            b.state.get(on)
        elif p.get("zone"):
            on = str(p["zone"])
            if on not in b.state.zones:
                raise RuleError("Zones", f"no zone {on!r}")
        elif p.get("scene"):
            on = SCENE
        else:
            on = me.id
        mod = self._modifier(b, me, p, dice)
        me = b.state.get(me.id)
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [on])
        spec = self._spec(b.state, me, skill, tags, mod, p)
        opponent = on if on in {c.id for c in b.state.combatants} and on != me.id else None
        if opponent is not None:
            far = b.state.distance(me.zone, b.state.get(opponent).zone)
            if far >= rules.OUT_OF_SIGHT:
                raise RuleError("Zones", f"{opponent} is {far} zones away: out of sight")

        def announce(result: Resolution, _skill: str, odds: CheckOdds) -> None:
            self._pay(b, me.id, tags, result.actor)
            b.emit(
                "manoeuvre.rolled",
                {
                    "character": me.id,
                    "aspect": name,
                    "on": on,
                    "skill": skill,
                    **result.to_json(),
                    "odds": _odds_json(odds),
                },
            )

        if opponent is not None and "difficulty" not in p:
            target = b.state.get(opponent)
            result, _ = self._defend(b, me, target, spec, skill, p, dice=dice, announce=announce)
        else:
            difficulty = difficulty_number(str(p.get("difficulty", DEFAULT_DIFFICULTY)))
            fixed = DifficultyCheck(spec, difficulty)
            odds = fixed.odds()
            result = fixed.roll(dice)
            announce(result, skill, odds)
        if self._held(b, me, skill, result.total, breaking=on):
            return
        if not result.is_success:
            return
        if p.get("remove"):
            found = [a for a in b.state.aspects if a.name.lower() == name.lower() and a.on == on]
            if not found:
                raise RuleError("Manoeuvres", f"no Aspect {name!r} on {on} to remove")
            b.emit("aspect.removed", {"id": found[0].id, "name": found[0].name, "on": on})
            if found[0].name == "Disarmed" and on == me.id and me.dropped:
                b.emit("weapon.recovered", {"character": me.id, "weapon": me.dropped})
            return
        unique = bool(p.get("unique", named.unique if named else False))
        self._place(
            b,
            name,
            on=on,
            setter=me.id,
            free_side=me.side,
            unique_to=me.id if unique else None,
        )
        if named is not None and named.name == "disarm" and opponent is not None:
            b.emit(
                "weapon.dropped", {"character": opponent, "weapon": b.state.get(opponent).weapon}
            )

    def _do_block(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Block: the roll is the Block's strength until the blocker's next turn."""
        p = action.params
        me = b.state.get(action.actor)
        kind = next((k for k in ("protect", "doorway", "hold") if p.get(k)), None)
        if kind is None:
            raise RuleError("Action: Block", "say what to block: protect, doorway or hold")
        target = str(p[kind])
        if kind == "protect":
            b.state.get(target)
        elif kind == "doorway":
            b.state.distance(me.zone, target)
        default = "Strength" if kind == "hold" else "Weapons"
        skill = skill_entry(str(p.get("skill", default))).name
        mod = self._modifier(b, me, p, dice)
        me = b.state.get(me.id)
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [target])
        rolled = self._spec(b.state, me, skill, tags, mod, p).roll(dice)
        self._pay(b, me.id, tags, rolled)
        if self._held(b, me, skill, rolled.total, breaking=""):
            return
        b.emit(
            "block.set",
            {
                "character": me.id,
                "kind": kind,
                "target": target,
                "strength": rolled.total,
                "skill": skill,
                "roll": rolled.to_json(),
            },
        )

    def _do_grapple(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Grapple: Strength, tagging an Aspect on the target; maintained turn by turn."""
        p = action.params
        me = b.state.get(action.actor)
        target = b.state.get(_str(p, "target", "Grapple"))
        if target.zone != me.zone:
            raise RuleError("Grapple", f"{target.id} is not in {me.id}'s zone")
        maintaining = (
            me.block is not None and me.block.kind == "grapple" and (me.block.target == target.id)
        )
        names = _list(p, "tags")
        if not maintaining:
            tag = p.get("tag")
            if not tag:
                raise RuleError("Grapple", "tag an Aspect that lets you lay hands on the target")
            on_target = [a for a in b.state.aspects if a.on == target.id]
            if not any(a.name.lower() == str(tag).lower() for a in on_target) and not (
                target.sheet.has_aspect(str(tag))
            ):
                raise RuleError(
                    "Grapple", f"{target.id} has no Aspect {tag!r} to take advantage of"
                )
            names = [str(tag), *names]
        mod = self._modifier(b, me, p, dice)
        me = b.state.get(me.id)
        tags = self._resolve_tags(b.state, me, names, [target.id])
        rolled = self._spec(b.state, me, "Strength", tags, mod).roll(dice)
        self._pay(b, me.id, tags, rolled)
        if self._held(b, me, "Strength", rolled.total, breaking=target.id):
            return
        b.emit(
            "grapple.set",
            {
                "character": me.id,
                "target": target.id,
                "strength": rolled.total,
                "maintained": maintaining,
                "supplemental": p.get("supplemental"),
                "roll": rolled.to_json(),
            },
        )

    def _release(self, b: _Builder, me: Combatant) -> None:
        if me.block is None or me.block.kind != "grapple":
            raise RuleError("Releasing the Grapple", f"{me.id} is not grappling anyone")
        b.emit("grapple.released", {"character": me.id, "target": me.block.target})

    def _do_release(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Releasing the Grapple; with ``to``, the bum's rush: move the opponent a zone, a
        Strength roll against the opponent's defence ("The opponent gets a defence in these
        cases as the grapple is off now")."""
        p = action.params
        me = b.state.get(action.actor)
        if me.block is None or me.block.kind != "grapple":
            raise RuleError("Releasing the Grapple", f"{me.id} is not grappling anyone")
        target = b.state.get(me.block.target)
        to = p.get("to")
        if to:
            self._step(b.state, target.zone, str(to), clear=True)
        self._release(b, me)
        if not to:
            return
        me = b.state.get(me.id)
        mod = self._modifier(b, me, p, dice)
        me = b.state.get(me.id)
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [target.id])
        spec = self._spec(b.state, me, "Strength", tags, mod, p)

        def announce(result: Resolution, dskill: str, odds: CheckOdds) -> None:
            self._pay(b, me.id, tags, result.actor)
            b.emit(
                "rush.rolled",
                {
                    "character": me.id,
                    "target": target.id,
                    "to": str(to),
                    "defence_skill": dskill,
                    **result.to_json(),
                    "odds": _odds_json(odds),
                },
            )

        result, _ = self._defend(b, me, target, spec, "Strength", p, dice=dice, announce=announce)
        if result.is_success:
            b.emit(
                "moved", {"character": target.id, "from": target.zone, "to": str(to), "by": me.id}
            )

    def _do_move(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Moving between two adjacent zones with a clear way."""
        me = b.state.get(action.actor)
        to = _str(action.params, "to", "Zones")
        self._check_can_move(b.state, me)
        self._step(b.state, me.zone, to, clear=True)
        if not self._past_doorway(b, me, me.zone, to, action.params, dice):
            return
        b.emit("moved", {"character": me.id, "from": me.zone, "to": to})

    def _past_doorway(
        self,
        b: _Builder,
        me: Combatant,
        here: str,
        to: str,
        p: Mapping[str, Any],
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
            skill = skill_entry(str(p.get("past", "Agility"))).name
            if skill not in ("Agility", "Weapons", "Brawl"):
                raise RuleError("Hold a doorway", f"get past with Weapons or Agility, not {skill}")
            past = DifficultyCheck(GinLaneRoll(me.level(skill), mode=b.state.mode), blk.strength)
            odds = past.odds()
            result = past.roll(dice)
            b.emit(
                "block.tested",
                {
                    "blocker": c.id,
                    "strength": blk.strength,
                    "character": me.id,
                    **result.to_json(),
                    "odds": _odds_json(odds),
                },
            )
            if not result.is_success:
                return False
        return True

    def _do_sprint(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Sprint: |d6 − d6| + Agility zones of movement, at most 4 zones."""
        me = b.state.get(action.actor)
        self._check_can_move(b.state, me)
        path = [str(z) for z in _list(action.params, "path")]
        if not path:
            raise RuleError("Action: Sprint", "needs a 'path' of zones")
        rolled = roll("abs(1d6-1d6)", dice)
        points = int(rolled.total) + me.level("Agility")
        route = rules.sprint_route(
            path, me.zone, points, b.state.link_costs(), dict(b.state.zone_costs)
        )
        b.emit(
            "sprint.rolled",
            {
                "character": me.id,
                "dice": list(rolled.faces),
                "points": points,
                "route": list(route),
            },
        )
        here = me.zone
        for there in route:
            if not self._past_doorway(b, me, here, there, action.params, dice):
                break
            here = there
        if here != me.zone:
            b.emit("moved", {"character": me.id, "from": me.zone, "to": here})

    def _do_wait(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Wait: forgo the turn to react later; what for is the waiter's secret."""
        me = b.state.get(action.actor)
        plan = str(action.params.get("plan", ""))
        b.emit(
            "waiting",
            {"character": me.id},
            secrets=(Secret("plan", plan, only(me.id)),) if plan else (),
        )

    def _do_full_defence(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Full defence: +2 on defensive rolls until the next turn."""
        b.emit("full_defence", {"character": action.actor})

    def _do_something_else(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Action: Something Else: the distraction is a free-taggable Sitting Duck."""
        me = b.state.get(action.actor)
        b.emit("something_else", {"character": me.id, "what": str(action.params.get("what", ""))})
        self._place(
            b, SITTING_DUCK, on=me.id, setter=me.id, free_side="!" + me.side, until_turn_of=me.id
        )

    def _do_seize(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Hold a thing: seizing it needs an appropriate roll beating the Block."""
        p = action.params
        me = b.state.get(action.actor)
        thing = _str(p, "thing", "Hold a thing")
        skill = skill_entry(str(p.get("skill", "Agility"))).name
        strength = None
        for c in b.state.combatants:
            if c.block and c.block.kind == "hold" and c.block.target == thing and c.id != me.id:
                strength = c.block.strength
        mod = self._modifier(b, me, p, dice)
        me = b.state.get(me.id)
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [])
        spec = self._spec(b.state, me, skill, tags, mod, p)
        seize = DifficultyCheck(spec, strength if strength is not None else 0)
        odds = seize.odds()
        result = seize.roll(dice)
        self._pay(b, me.id, tags, result.actor)
        if self._held(b, me, skill, result.total, breaking=""):
            return
        b.emit(
            "seize.rolled",
            {
                "character": me.id,
                "thing": thing,
                "against": strength,
                **result.to_json(),
                "odds": _odds_json(odds),
            },
        )
        if result.is_success:
            b.emit("seized", {"character": me.id, "thing": thing})

    # -- grenades -------------------------------------------------------------------------------

    def _do_throw_grenade(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Grenades: Agility against 7 (range penalties), On Target at 3+, one Firearms attack."""
        p = action.params
        me = b.state.get(action.actor)
        zone = _str(p, "zone", "Grenades")
        distance = b.state.distance(me.zone, zone)
        if distance >= rules.OUT_OF_SIGHT:
            raise RuleError("Zones", f"{zone!r} is {distance} zones away: out of sight")
        mod = self._modifier(b, me, p, dice) + rules.throw_modifier(distance)
        me = b.state.get(me.id)
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [])
        spec = self._spec(b.state, me, "Agility", tags, mod, p)
        throw_check = DifficultyCheck(spec, rules.GRENADE_DIFFICULTY)
        throw_odds = throw_check.odds()
        throw = throw_check.roll(dice)
        self._pay(b, me.id, tags, throw.actor)
        b.emit(
            "grenade.thrown",
            {
                "character": me.id,
                "zone": zone,
                "distance": distance,
                **throw.to_json(),
                "odds": _odds_json(throw_odds),
            },
        )
        if self._held(b, me, "Agility", throw.total, breaking=""):
            return
        if throw.margin < 0:
            b.emit("grenade.astray", {"character": me.id, "zone": zone})
            return
        on_target = p.get("on_target")
        if on_target and throw.margin >= rules.ON_TARGET_EXCESS:
            victim = b.state.get(str(on_target))
            if victim.zone != zone:
                raise RuleError("Grenades", f"{victim.id} is not in {zone!r}")
            self._place(b, ON_TARGET, on=victim.id, setter=me.id, free_side=me.side)
        else:
            on_target = None
        me = b.state.get(me.id)
        names = _list(p, "attack_tags") + ([ON_TARGET] if on_target else [])
        atags = self._resolve_tags(b.state, me, names, [str(on_target)] if on_target else [])
        aspec = self._spec(b.state, me, "Firearms", atags, 0)
        fizzle_odds = _fizzle_chance(aspec)
        attack = aspec.roll(dice)
        self._pay(b, me.id, atags, attack)
        b.emit(
            "grenade.attack",
            {
                "character": me.id,
                "zone": zone,
                "roll": attack.to_json(),
                "odds": {"fizzle": str(fizzle_odds)},
            },
        )
        if rules.is_fizzle(attack.natural):
            b.emit("grenade.fizzled", {"character": me.id, "zone": zone, "on_target": on_target})
            return
        self._blast(b, me, zone, attack.total, str(on_target) if on_target else None, p, dice)

    def _blast(
        self,
        b: _Builder,
        thrower: Combatant,
        zone: str,
        attack: int,
        on_target: str | None,
        p: Mapping[str, Any],
        dice: DiceSource,
    ) -> None:
        """One attack against everyone in the zone: Health stress On Target, Composure else."""
        defences = p.get("defences", {})
        consequences = p.get("consequences", {})
        if not isinstance(defences, Mapping) or not isinstance(consequences, Mapping):
            raise RuleError("Grenades", "defences and consequences map characters to choices")
        for victim in [c for c in b.state.combatants if c.zone == zone and not c.taken_out]:
            track = "Health" if victim.id == on_target else "Composure"
            dp = defences.get(victim.id, {})
            if isinstance(dp, str):
                dp = {"skill": dp}
            if not isinstance(dp, Mapping):
                raise RuleError("Grenades", f"{victim.id}'s defence is a skill or {{skill, tags}}")
            skill = skill_entry(str(dp.get("skill", "Agility"))).name
            if skill not in ("Agility", "Resolve") or (skill == "Resolve" and track == "Health"):
                raise RuleError(
                    "Grenades",
                    f"{victim.id} defends on Agility (or Resolve for Composure), not {skill}",
                )
            standing = victim.standing(skill)
            if standing is not None:
                total = standing
            else:
                tags = self._resolve_tags(b.state, victim, _list(dp, "tags"), [thrower.id])
                bonus = rules.FULL_DEFENCE_BONUS if victim.full_defence else 0
                dspec = self._spec(b.state, victim, skill, tags, bonus)
                rolled = dspec.roll_to(dice, attack, beat=False)
                self._pay(b, victim.id, tags, rolled)
                total = rolled.total
            b.emit(
                "defence.rolled",
                {
                    "character": victim.id,
                    "skill": skill,
                    "total": total,
                    "full_defence": victim.full_defence,
                },
            )
            stress = rules.attack_stress(attack, total, rules.GRENADE_BONUS)
            self._stress(
                b,
                thrower,
                victim,
                stress,
                track,
                _list(consequences, victim.id) if victim.id in consequences else [],
            )

    def _do_fuse(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Fizzle: on the thrower's next turn, roll again: EVEN 'phut', ODD a normal attack."""
        me = b.state.get(action.actor)
        fizzle = next((f for f in b.state.fizzles if f.thrower == me.id), None)
        if fizzle is None:
            raise RuleError("Fizzle", f"{me.id} has no fizzled grenade")
        if b.state.current != me.id:
            raise RuleError("Fizzle", "the fuse is rolled on the thrower's next turn")
        fuse = GinLaneRoll(me.level("Firearms"))
        goes_off = sum(
            (p for t, p in fuse.distribution().items() if rules.fuse_goes_off(t - fuse.bonus)),
            Fraction(0),
        )
        rolled = fuse.roll(dice)
        b.emit(
            "grenade.fuse",
            {
                "character": me.id,
                "zone": fizzle.zone,
                "roll": rolled.to_json(),
                "goes_off": rules.fuse_goes_off(rolled.natural),
                "odds": {"goes_off": str(goes_off)},
            },
        )
        if not rules.fuse_goes_off(rolled.natural):
            return
        self._blast(b, me, fizzle.zone, rolled.total, fizzle.on_target, action.params, dice)

    # -- any time ------------------------------------------------------------------------------

    def _who(self, b: _Builder, action: Action) -> list[Combatant]:
        names = _list(action.params, "characters")
        if names:
            return [b.state.get(str(n)) for n in names]
        if action.actor == "referee":
            return list(b.state.combatants)
        return [b.state.get(action.actor)]

    def _do_declare(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Declarations: a small fact covered by an Aspect, for an Experience Point."""
        me = b.state.get(action.actor)
        aspect = _str(action.params, "aspect", "Declarations")
        fact = _str(action.params, "fact", "Declarations")
        if not me.sheet.has_aspect(aspect):
            raise RuleError("Declarations", f"{me.id} has no Aspect {aspect!r}")
        me.pool.spend(1, why="a declaration")
        b.emit("declaration.made", {"character": me.id, "aspect": aspect, "fact": fact})
        b.emit("pool.spent", {"character": me.id, "points": 1, "for": "declaration"})

    def _do_maintain(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Maintenance: an Aspect standing for tedious upkeep costs Experience Points to run."""
        me = b.state.get(action.actor)
        aspect = _str(action.params, "aspect", "Maintenance")
        if not me.sheet.has_aspect(aspect):
            raise RuleError("Maintenance", f"{me.id} has no Aspect {aspect!r}")
        points = action.params.get("points", 1)
        if not isinstance(points, int) or points < 1:
            raise RuleError("Maintenance", "pay a positive number of points")
        me.pool.spend(points, why="maintenance")
        b.emit("pool.spent", {"character": me.id, "points": points, "for": f"maintain {aspect}"})

    def _do_award(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Experience awarded in play goes to the pool."""
        points = action.params.get("points")
        if not isinstance(points, int) or points <= 0:
            raise RuleError("Getting Experience", "award a positive number of points")
        for c in self._who(b, action):
            b.emit("pool.awarded", {"character": c.id, "points": points})

    def _do_rest(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """A night's rest and a strong coffee: Health and Composure clear; the pool +1d6."""
        for c in self._who(b, action):
            d6 = int(roll("1d6", dice).total)
            b.emit("rested", {"character": c.id, "d6": d6, "pool": c.pool.refresh(d6).points})

    def _do_end_session(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Wealth stress clears at the end of a session without Wealth stress or consequences."""
        for c in self._who(b, action):
            b.emit("session.ended", {"character": c.id, "wealth_cleared": not c.wealth_hit})

    def _do_recover(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Consequences recover only with their circumstances (rest, treatment) for their time."""
        me = b.state.get(action.actor)
        days = action.params.get("days")
        if not isinstance(days, int) or days <= 0:
            raise RuleError("Consequences", "recover for a positive number of days")
        aspect = action.params.get("aspect")
        before = set(me.consequences.aspects())
        after = me.consequences.recover(days, aspect=str(aspect) if aspect else None)
        b.emit(
            "consequence.recovering",
            {
                "character": me.id,
                "days": days,
                "aspect": aspect,
                "recovered": sorted(before - set(after.aspects())),
            },
        )

    def _do_check_sheet(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """A character sheet checked: the pyramid, Experience, Aspects, tracks, languages."""
        p = action.params
        name = str(p.get("name", "sheet"))
        sheet = Character.from_json(name, p)
        problems = check_sheet(sheet)
        b.emit(
            "sheet.checked",
            {
                "name": name,
                "valid": not problems,
                "problems": [f"{rule}: {reason}" for rule, reason in problems],
                "spent": sheet.spent,
                "unspent": sheet.unspent,
                "extra_aspects": sheet.extra_aspects,
                "tracks": sheet.tracks,
                "language_allowance": sheet.language_allowance,
            },
        )

    def _do_ritual(self, b: _Builder, action: Action, dice: DiceSource) -> None:
        """Magia: a ritual of hours on a Sephira's path makes a charm; interruptions threaten."""
        p = action.params
        me = b.state.get(action.actor)
        hours = p.get("hours", 1)
        if not isinstance(hours, int) or hours < 1:
            raise RuleError("How you do magic", "a ritual takes a whole number of hours")
        ritual = Ritual(
            me.sheet,
            _str(p, "sephira", "Magia"),
            str(p.get("effect", "")),
            difficulty_number(str(p.get("difficulty", DEFAULT_DIFFICULTY))),
            hours,
        )
        tags = self._resolve_tags(b.state, me, _list(p, "tags"), [])
        check = ritual.check(tags=len(tags), mode=b.state.mode)
        spec = replace(check.roll_spec, free_tags=sum(1 for t in tags if t.free))
        ritual_check = DifficultyCheck(spec, check.difficulty)
        odds = ritual_check.odds()
        result = ritual_check.roll(dice)
        self._pay(b, me.id, tags, result.actor)
        place = [str(a) for a in _list(p, "place")] or list(me.sheet.all_aspects)
        charm = ritual.charm(result.margin)
        b.emit(
            "ritual.rolled",
            {
                "character": me.id,
                "sephira": ritual.sephira,
                "hours": ritual.hours,
                "interruption": interruption_risk(place),
                **result.to_json(),
                "odds": _odds_json(odds),
            },
        )
        if charm is not None:
            b.emit("charm.made", to_json(charm))


# ---------------------------------------------------------------------------------- evolve


def _evolve(state: SceneState, event: Event) -> SceneState:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "initiative.rolled":
        return replace(state, order=tuple(d["order"]))
    if kind == "turn.started":
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
    if kind == "wait.acted":
        me = replace(state.get(str(d["character"])), waiting=False)
        return replace(state.put(me), order=tuple(d["order"]), turn=int(d["turn"]))
    if kind == "fight.over":
        return replace(state, over=True)
    if kind == "waiting":
        return state.put(replace(state.get(str(d["character"])), waiting=True))
    if kind == "full_defence":
        return state.put(replace(state.get(str(d["character"])), full_defence=True))
    if kind == "aspect.placed":
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
    if kind == "aspect.tagged":
        aid = d.get("id")
        if d.get("free") and isinstance(aid, int):
            aspects = tuple(
                replace(a, free_tags=a.free_tags - 1) if a.id == aid else a for a in state.aspects
            )
            return replace(state, aspects=aspects)
        return state
    if kind == "aspect.removed":
        return replace(state, aspects=tuple(a for a in state.aspects if a.id != d["id"]))
    if kind == "pool.spent":
        me = state.get(str(d["character"]))
        return state.put(replace(me, pool=me.pool.spend(int(d["points"]))))
    if kind == "pool.awarded":
        me = state.get(str(d["character"]))
        return state.put(replace(me, pool=me.pool.award(int(d["points"]))))
    if kind in ("defence.rolled",):
        me = state.get(str(d["character"]))
        defences = (
            *tuple(x for x in me.defences if x[0] != d["skill"]),
            (str(d["skill"]), int(d["total"])),
        )
        return state.put(replace(me, defences=defences))
    if kind == "stress.taken":
        me = state.get(str(d["character"]))
        if d.get("taken_out"):
            return state.put(replace(me, wealth_hit=me.wealth_hit or d["track"] == "Wealth"))
        track = me.track(str(d["track"]))
        box = int(d["box"])
        marked = replace(track, boxes=tuple(t or i == box - 1 for i, t in enumerate(track.boxes)))
        tracks = tuple(marked if t.name == track.name else t for t in me.tracks)
        me = replace(me, tracks=tracks, wealth_hit=me.wealth_hit or track.name == "Wealth")
        return state.put(me)
    if kind == "taken_out":
        me = replace(state.get(str(d["character"])), taken_out=True, block=None)
        return state.put(me)
    if kind == "consequence.taken":
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
    if kind == "consequence.recovering":
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
    if kind == "moved":
        return state.put(replace(state.get(str(d["character"])), zone=str(d["to"])))
    if kind == "block.set":
        me = state.get(str(d["character"]))
        blk = Block(str(d["kind"]), int(d["strength"]), str(d["target"]))
        return state.put(replace(me, block=blk))
    if kind == "grapple.set":
        me = state.get(str(d["character"]))
        blk = Block("grapple", int(d["strength"]), str(d["target"]))
        return state.put(replace(me, block=blk))
    if kind in ("grapple.released", "grapple.broken"):
        holder = str(d["character"]) if kind == "grapple.released" else str(d["by"])
        return state.put(replace(state.get(holder), block=None))
    if kind == "weapon.dropped":
        me = state.get(str(d["character"]))
        return state.put(replace(me, weapon="fists", dropped=str(d["weapon"])))
    if kind == "weapon.recovered":
        me = state.get(str(d["character"]))
        return state.put(replace(me, weapon=str(d["weapon"]), dropped=None))
    if kind == "weapon.drawn":
        return state.put(replace(state.get(str(d["character"])), weapon=str(d["weapon"])))
    if kind == "grenade.fizzled":
        on = d.get("on_target")
        fizzle = Fizzle(str(d["character"]), str(d["zone"]), str(on) if on else None)
        return replace(state, fizzles=(*state.fizzles, fizzle))
    if kind == "grenade.fuse":
        return replace(
            state, fizzles=tuple(f for f in state.fizzles if f.thrower != d["character"])
        )
    if kind == "seized":
        holdings = tuple(h for h in state.holdings if h[0] != d["thing"])
        return replace(state, holdings=(*holdings, (str(d["thing"]), str(d["character"]))))
    if kind == "declaration.made":
        return replace(
            state, declarations=(*state.declarations, (str(d["character"]), str(d["fact"])))
        )
    if kind == "rested":
        me = state.get(str(d["character"]))
        tracks = tuple(t if t.name == "Wealth" else t.cleared() for t in me.tracks)
        return state.put(replace(me, tracks=tracks, pool=me.pool.refresh(int(d["d6"]))))
    if kind == "session.ended":
        me = state.get(str(d["character"]))
        tracks = me.tracks
        if d.get("wealth_cleared"):
            tracks = tuple(t.cleared() if t.name == "Wealth" else t for t in tracks)
        return state.put(replace(me, tracks=tracks, wealth_hit=False))
    return state


def _state_json(state: SceneState) -> dict[str, Any]:
    return {
        "mode": state.mode.value,
        "round": state.round,
        "turn": state.current,
        "order": list(state.order),
        "over": state.over,
        "characters": {
            c.id: {
                "side": c.side,
                "zone": c.zone,
                "weapon": c.weapon,
                "pool": c.pool.points,
                "tracks": {t.name: list(t.marked) for t in c.tracks},
                "track_lengths": {t.name: t.length for t in c.tracks},
                "consequences": {x.severity: x.aspect for x in c.consequences.taken},
                "aspects": list(c.sheet.aspects),
                "taken_out": c.taken_out,
                "full_defence": c.full_defence,
                "waiting": c.waiting,
                "block": to_json(c.block),
                "defences": dict(c.defences),
            }
            for c in state.combatants
        },
        "aspects": [
            {"name": a.name, "on": a.on, "free_tags": a.free_tags, "setter": a.setter}
            for a in state.aspects
        ],
        "aspect_names": sorted({a.name for a in state.aspects}),
        "fizzles": [to_json(f) for f in state.fizzles],
        "holdings": dict(state.holdings),
        "declarations": [list(x) for x in state.declarations],
    }


PROCEDURE = GinLane()
"""The procedure scenario files with ``system: ginlane`` play."""
