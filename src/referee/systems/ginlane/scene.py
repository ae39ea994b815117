"""The scene: who is in it, where, the Aspects in play, and the order of turns.

Gin Lane, "Fighting", "Zones", "Aspects". A scene's setup (:class:`Setup`) is read into a
:class:`SceneState`; the procedure folds events into it (:mod:`referee.systems.ginlane.fold`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.core import (
    OneOf,
    RuleError,
    ScenarioError,
)
from referee.core.values import evolved, to_json
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.character import Character, ExperiencePool, level_in
from referee.systems.ginlane.magia import Charm
from referee.systems.ginlane.rolls import (
    TagMode,
    effective_skill,
)
from referee.systems.ginlane.stress import (
    TRACKS,
    Consequences,
    StressTrack,
)
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry

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
    character's turn starts (a spin, a Sitting Duck); ``consequence`` for a consequence's Aspect;
    ``aim`` for the Target of "Take Aim", which lapses out of its setter's sight.
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
    aim: bool = False

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
class PendingAttack:
    """An action waiting for its target's defence ("Defence": "Choose a skill to defend with
    in response to an Attack or Manoeuvre"): who rolls against whom, with what, and the
    action's own parameters as given (its supplemental penalty already counted in
    ``modifier``). ``kind``: ``attack``, ``manoeuvre``, ``rush`` (the bum's rush) or ``blast``
    (a grenade's one attack, ``params`` its total); ``fuse``: a fizzled grenade's blast, on
    the thrower's turn before their Full Action, so the turn does not pass after it."""

    attacker: str
    target: str
    skill: str
    weapon: str
    track: str
    modifier: int
    params: str
    """The action's parameters, as JSON text (a frozen value)."""
    kind: str = "attack"
    fuse: bool = False


@dataclass(frozen=True)
class Blast:
    """A grenade's one attack going through everyone in its zone ("Grenades"): the thrower,
    the zone, the attack's total, who is On Target, the victims still to defend, and whether
    it is a fizzled grenade's fuse."""

    thrower: str
    zone: str
    attack: int
    on_target: str | None
    left: tuple[str, ...]
    fuse: bool = False


@dataclass(frozen=True)
class PendingHit:
    """A hit waiting for its target to absorb it ("Consequences": "characters can chose to take
    a Consequence instead"): the stress, its track, and who inflicted it."""

    character: str
    attacker: str
    stress: int
    track: str
    fuse: bool = False
    """From a fizzled grenade's fuse: the turn does not pass once it is taken."""


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

    def rated(self, skill: str) -> int | None:
        """The sheet's level of ``skill`` (``None`` if untrained): under the name given or, save
        for one craft (``Craft: tailor``), under the Skills List's name or its former one."""
        return _rated(self.sheet.skills, skill)

    def level(self, skill: str) -> int:
        """The skill's level, or −2 with none ("No Relevant Skill"); arcane: impossible.
        Worked out once for each sheet's skills and name (every roll and choice of a fight asks
        it: 38,000 times in a hundred simulated ambushes)."""
        return _level(self.sheet.skills, skill)

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
    charms: tuple[Charm, ...] = ()
    over: bool = False
    pending: PendingAttack | None = None
    """An attack (a manoeuvre, a bum's rush, a blast) waiting for its target's defence."""
    blast: Blast | None = None
    """A grenade's blast with victims still to defend."""
    hit: PendingHit | None = None
    """A hit waiting for its target to take it as stress or Consequences."""
    #: Waits' sealed plans: (character, the name it is sealed under, the plan, its salt)
    plans: tuple[tuple[str, str, str, str], ...] = ()

    def get(self, cid: str) -> Combatant:
        """The combatant ``cid``; :class:`RuleError` if there is none."""
        for c in self.combatants:
            if c.id == cid:
                return c
        raise RuleError("Characters", f"no character {cid!r} in the scene")

    def put(self, combatant: Combatant) -> SceneState:
        """The state with ``combatant`` replaced."""
        return evolved(
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


def _rated(skills: tuple[tuple[str, int], ...], skill: str) -> int | None:
    """:meth:`Combatant.rated` of a sheet's skills."""
    level = level_in(skills, skill)
    if level is None and ":" not in skill:
        entry = skill_entry(skill)
        level = level_in(skills, entry.name)
        if level is None and entry.formerly is not None:
            level = level_in(skills, entry.formerly)
    return level


@functools.lru_cache(maxsize=1024)
def _level(skills: tuple[tuple[str, int], ...], skill: str) -> int:
    """:meth:`Combatant.level` of a sheet's skills (an arcane skill untrained raises, and is
    not kept)."""
    return effective_skill(_rated(skills, skill), arcane=skill_entry(skill).arcane)


def opponents_of(state: SceneState, me: Combatant) -> list[Combatant]:
    """The characters of the other sides still in the fight."""
    return [c for c in state.combatants if c.side != me.side and not c.taken_out]


Release = dict[str, OneOf]
"""``{"release": True}`` offered with every Full Action of a grappler ("Releasing the Grapple":
"release a grapple at will and perform a normal action"), else nothing."""


SceneFold = Callable[[SceneState, Mapping[str, Any]], SceneState]
"""How one kind of event changes the scene: the state and the event's payload in, the state
after it out (never rolls, never refuses). Each section's module holds the folds of its events
in ``FOLDS``; :mod:`~referee.systems.ginlane.fold` gathers them."""


# ---------------------------------------------------------------------------------- setup


Cost = Annotated[int, Field(ge=1, le=100)]
"""What a barrier or a zone costs to move through ("Difficult terrain": 2, 3, 4, &c)."""


class CharacterSetup(BaseModel):
    """A character in a scene's setup: the sheet ("Characters") and where they stand.

    ``side``: who they fight with (default: their own side); ``zone`` (default: the first);
    ``weapon`` in hand (default fists); ``pool``: the Free Experience Pool now (default: the
    unspent Experience); ``npc``: not a player character (no Society membership).
    """

    model_config = ConfigDict(extra="forbid")

    side: str | None = None
    zone: str | None = None
    weapon: str | None = None
    skills: dict[str, int] = Field(default_factory=dict)
    aspects: list[str] = Field(default_factory=list)
    free_aspects: list[str] | None = None
    possessions: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    experience: int | None = Field(default=None, ge=0, le=100_000)
    pool: int | None = Field(default=None, ge=0, le=100_000)
    npc: bool = False


class Setup(BaseModel):
    """A Gin Lane scene's setup: the words of "Zones", "Difficult terrain", "Hold a thing",
    "Aspects" (the tagging option) and the characters.

    >>> Setup.model_validate({"characters": {"moll": {}}, "zone": "x"})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for Setup
    zone
    ...
    """

    model_config = ConfigDict(extra="forbid")

    mode: Literal["a", "b", "extra", "reroll"] = "a"
    zones: list[str] = Field(default_factory=list, max_length=1000)
    links: list[tuple[str, str] | tuple[str, str, Cost]] = Field(
        default_factory=list, max_length=10_000
    )
    costs: dict[str, Cost] = Field(default_factory=dict)
    holdings: dict[str, str] = Field(default_factory=dict)
    characters: dict[str, CharacterSetup] = Field(min_length=1, max_length=1000)


def check_setup(setup: Any) -> None:
    """:class:`ScenarioError` with the path of the first bad field of a setup."""
    if not isinstance(setup, Mapping):
        raise ScenarioError(f"a setup is a mapping of fields, not {type(setup).__name__}")
    try:
        Setup.model_validate(setup)
    except ValidationError as error:
        first = error.errors()[0]
        loc = tuple(p for p in first["loc"] if not str(p).startswith(("tuple[", "function-")))
        message = str(first["msg"])
        if first["type"] == "extra_forbidden":
            message = "not a field of a Gin Lane setup here"
        raise ScenarioError(message, loc) from None


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
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise ScenarioError("the pool is a whole number of points", ("characters", cid, "pool"))
    side = str(data.get("side", cid))
    if not side.strip():
        raise ScenarioError("a side is named, not blank", ("characters", cid, "side"))
    tracks = tuple(StressTrack.empty(t, sheet.tracks[t]) for t in TRACKS)
    return Combatant(
        id=cid,
        sheet=sheet,
        side=side,
        zone=zone,
        weapon=weapon,
        pool=ExperiencePool(points, full),
        tracks=tracks,
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def setup_scene(setup: Mapping[str, Any]) -> SceneState:
    """The scene a setup describes; :class:`ScenarioError` naming the bad field."""
    check_setup(setup)
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


@dataclass(frozen=True)
class Tag:
    """An Aspect tagged for a roll: which, and whether it is free."""

    name: str
    free: bool
    scene_id: int | None = None


def state_json(state: SceneState) -> dict[str, Any]:
    """The scene as JSON: what scenario ``expect: path`` reads, and every seat sees."""
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
                "free_aspects": list(c.sheet.free_aspects),
                "possessions": list(c.sheet.possessions),
                "skills": dict(c.sheet.skills),
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
        "charms": [to_json(c) for c in state.charms],
        "pending": to_json(state.pending),
        "hit": to_json(state.hit),
        "blast": to_json(state.blast),
    }
