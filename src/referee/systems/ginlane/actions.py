"""Gin Lane's action catalogue: every action kind, its parameters in the text's words.

Gin Lane, "Fighting" ("3. Actions": the Full Actions, supplemental actions at −1), "Grenades",
"Declarations", "Maintenance", "Getting Experience", "Experience Pool Refresh", "Stress
Recovery", "Consequences", "How you do magic". Each kind is an
:class:`~referee.core.ActionSpec`: the kernel parses its parameters before the procedure
decides, so a misspelt or ill-typed parameter is an :class:`~referee.core.ActionError` naming
its path, and a well-formed action the rules forbid stays a :class:`~referee.core.RuleError`.

>>> ATTACK.parse({"target": "jack", "tags": ["Over-Extended"]}).tags
('Over-Extended',)
>>> ATTACK.parse({"target": "jack", "modifer": -4})
Traceback (most recent call last):
...
referee.core.errors.ActionError: attack.modifer: not a parameter of this action (its \
parameters: ...)
>>> MANOEUVRE.parse({"named": "unbalance", "skill": "Fencing"})
Traceback (most recent call last):
...
referee.core.errors.ActionError: manoeuvre.skill: no skill 'Fencing' ...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from referee.core import ActionSpec, Catalogue, NoParams, Params, RuleError, Who
from referee.systems.ginlane.tables import difficulty_number
from referee.systems.ginlane.tables import manoeuvre as named_manoeuvre
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry

__all__ = [
    "ABSORB",
    "ATTACK",
    "AWARD",
    "BLOCK",
    "CATALOGUE",
    "CHECK_SHEET",
    "CONCEDE",
    "DECLARE",
    "DEFEND",
    "END_SCENE",
    "END_SESSION",
    "FULL_DEFENCE",
    "FUSE",
    "GRAPPLE",
    "INITIATIVE",
    "MAINTAIN",
    "MANOEUVRE",
    "MOVE",
    "OVERCOME",
    "RECOVER",
    "RELEASE",
    "REST",
    "RITUAL",
    "SEIZE",
    "SOMETHING_ELSE",
    "SPRINT",
    "THROW_GRENADE",
    "TURN_ACTIONS",
    "WAIT",
    "Consequence",
    "Defence",
]


def _known(lookup: object) -> AfterValidator:
    """A validator: the name must be in a table (a RuleError from the lookup → ValueError)."""

    def check(value: str) -> str:
        try:
            lookup(value)  # type: ignore[operator]
        except RuleError as error:
            raise ValueError(error.reason) from None
        return value

    return AfterValidator(check)


def _difficulty(value: int | str) -> int | str:
    try:
        difficulty_number(value)
    except RuleError as error:
        raise ValueError(error.reason) from None
    return value


SkillName = Annotated[str, _known(skill_entry)]
"""A skill of "The Skills List" (any case; ``Craft: tailor`` finds Craft)."""
WeaponName = Annotated[str, _known(weapon_entry)]
"""A weapon of "Weapons Notes"."""
ManoeuvreName = Annotated[str, _known(named_manoeuvre)]
"""One of "Some Manoeuvres": blind, unbalance, take cover, disarm, take aim, concentrate."""
DifficultyName = Annotated[int | str, AfterValidator(_difficulty)]
"""A difficulty of "Difficulty & Target Number": a number or a ladder name (``Great``)."""
Track = Literal["Health", "Composure", "Wealth"]
"""A stress track ("Stress Tracks")."""
Severity = Literal["slight", "moderate", "heavy", "extreme"]
"""A consequence's severity ("Consequences")."""
AspectName = Annotated[str, Field(min_length=1)]


class Defence(Params):
    """A defence ("Defence"): the skill, the Aspects tagged; a bare skill name is the skill."""

    skill: SkillName
    tags: tuple[AspectName, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _a_bare_skill(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"skill": value}
        # a "before" validator hands on Python values, which strict mode checks as Python: the
        # JSON array of tags is a list there, and a strict tuple refuses a list
        if isinstance(value, dict) and isinstance(value.get("tags"), list):
            return {**value, "tags": tuple(value["tags"])}
        return value


class Consequence(Params):
    """A consequence against a hit ("Consequences"); ``replaces``: an extreme one's Aspect."""

    severity: Severity
    aspect: AspectName
    replaces: str | None = None


class Initiative(Params):
    """Initiative: the Aspects each character ``tags`` for their roll, by character."""

    tags: dict[str, tuple[AspectName, ...]] = Field(default_factory=dict)


class Answered(Params):
    """An action its target answers herself ("Defence": "Choose a skill to defend with in
    response to an Attack or Manoeuvre"; "Consequences": "characters can chose to take a
    Consequence instead"): her defence and her consequences are refused from the roller."""

    @model_validator(mode="before")
    @classmethod
    def _not_the_targets_answers(cls, value: Any) -> Any:
        for key in ("defence", "defences", "consequences"):
            if isinstance(value, dict) and key in value:
                raise ValueError(
                    f"{key!r} is not the roller's to give: the target chooses her defence "
                    "('defend') and how she takes a hit ('absorb') from her own seat"
                )
        if isinstance(value, dict):  # JSON arrays for strict tuples (see Defence)
            return {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
        return value


class Roll(Answered):
    """What every rolled Full Action may carry ("Aspects", "3. Actions", "Skills").

    ``tags``: Aspects tagged; ``supplemental`` (true, or what it is): −1; ``move_to``: a
    supplemental move of one zone (−1); ``draw``: a weapon drawn (−1); ``related``: an
    untrained skill rolled at 0 ("No Relevant Skill"); ``limited_by``: another skill that
    limits it ("Skill Interaction"); ``past``: the skill to get past a held doorway on the
    supplemental move.
    """

    tags: tuple[AspectName, ...] = ()
    supplemental: bool | str = False
    move_to: str | None = None
    past: SkillName = "Agility"
    draw: WeaponName | None = None
    related: bool = False
    limited_by: SkillName | None = None


class Attack(Roll):
    """Action: Attack: ``target``; ``weapon`` and ``skill`` default to the one in hand."""

    target: str
    weapon: WeaponName | None = None
    skill: SkillName | None = None
    track: Track | None = None
    release: bool = False


class Absorb(Params):
    """A hit taken ("Consequences"): the ``consequences`` taken instead of its stress."""

    consequences: tuple[Consequence, ...] = ()


class Manoeuvre(Roll):
    """Action: Manoeuvre: an ``aspect`` (or a ``named`` manoeuvre) on a ``target``, a
    ``zone`` or the ``scene`` (else on oneself); ``remove`` takes one away."""

    named: ManoeuvreName | None = None
    aspect: str | None = None
    skill: SkillName | None = None
    target: str | None = None
    zone: str | None = None
    scene: bool = False
    difficulty: DifficultyName | None = None
    remove: bool = False
    unique: bool | None = None
    release: bool = False


class Block(Roll):
    """Action: Block: ``protect`` someone, hold a ``doorway``, ``hold`` a thing, or prevent a
    named ``action`` ("Say what action you want to prevent and roll an appropriate skill")."""

    protect: str | None = None
    doorway: str | None = None
    hold: str | None = None
    action: str | None = None
    skill: SkillName | None = None
    release: bool = False


class Overcome(Roll):
    """The named action a Block prevents, tried against it: the ``blocker`` and the ``skill``."""

    blocker: str
    skill: SkillName
    release: bool = False


class Grapple(Roll):
    """Grapple: the ``target``, and the Aspect ``tag`` ged to lay hands on them."""

    target: str
    tag: str | None = None


class Release(Roll):
    """Releasing the Grapple; ``to``: the bum's rush, the opponent moved a zone."""

    to: str | None = None


class Move(Params):
    """Moving between adjacent zones; ``past``: the skill to get past a held doorway."""

    to: str
    past: SkillName = "Agility"
    release: bool = False


class Sprint(Params):
    """Action: Sprint: the ``path`` of zones; ``past`` as for a move."""

    path: tuple[str, ...] = Field(min_length=1)
    past: SkillName = "Agility"
    release: bool = False


class Wait(Params):
    """Action: Wait: the ``plan`` (a secret of the waiter's until they act)."""

    plan: str = ""
    release: bool = False


class FullDefence(Params):
    """Action: Full defence."""

    release: bool = False


class SomethingElse(Params):
    """Action: Something Else: ``what``."""

    what: str = ""
    release: bool = False


class Seize(Roll):
    """Hold a thing: seize the ``thing`` (beating a Block holding it)."""

    thing: Annotated[str, Field(min_length=1)]
    skill: SkillName = "Agility"
    release: bool = False


class ThrowGrenade(Roll):
    """Grenades: into ``zone``; ``on_target``: who gets the On Target Aspect on 3+;
    ``attack_tags``: Aspects tagged for the Firearms attack; ``harder``: how much harder the
    referee makes a throw through doors, over walls or inside enclosed spaces."""

    zone: str
    on_target: str | None = None
    attack_tags: tuple[AspectName, ...] = ()
    harder: Annotated[int, Field(ge=0, le=10)] = 0
    release: bool = False


class Fuse(Answered):
    """Fizzle: the fuse rolled on the thrower's next turn."""


class Declare(Params):
    """Declarations: a small ``fact`` covered by an ``aspect``."""

    aspect: Annotated[str, Field(min_length=1)]
    fact: Annotated[str, Field(min_length=1)]


class Maintain(Params):
    """Maintenance: ``points`` paid to run an ``aspect``."""

    aspect: Annotated[str, Field(min_length=1)]
    points: Annotated[int, Field(ge=1, le=1000)] = 1


class Characters(Params):
    """Whom it concerns: ``characters`` (the referee: everyone; a player: their own)."""

    characters: tuple[str, ...] = ()


class EndSession(Characters):
    """The end of a session; ``run_on``: the next session runs straight on from this one (the
    pool is not refilled: "There may be exceptions if this is an immediate run-on")."""

    run_on: bool = False


class Award(Characters):
    """Getting Experience: ``points`` into the pool."""

    points: Annotated[int, Field(ge=1, le=1000)]


class Recover(Params):
    """Consequences recover with their circumstances: ``days`` of it, one ``aspect`` or all."""

    days: Annotated[int, Field(ge=1, le=100_000)]
    aspect: str | None = None


class CheckSheet(Params):
    """A character sheet checked ("Characters"): the sheet's own fields."""

    name: str = "sheet"
    aspects: tuple[str, ...] = ()
    skills: dict[str, Annotated[int, Field(ge=-10, le=10)]] = Field(default_factory=dict)
    experience: Annotated[int, Field(ge=0, le=10_000)] | None = None
    free_aspects: tuple[str, ...] | None = None
    possessions: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    npc: bool = False


class Ritual(Params):
    """How you do magic: a ritual on a ``sephira``'s path for ``hours``."""

    sephira: Annotated[str, Field(min_length=1)]
    effect: str = ""
    difficulty: DifficultyName = 8
    hours: Annotated[int, Field(ge=1, le=10_000)] = 1
    tags: tuple[AspectName, ...] = ()
    place: tuple[str, ...] = ()


INITIATIVE = ActionSpec(
    "initiative",
    Initiative,
    section="Initiative",
    who=Who.REFEREE,
    summary="2d6 + Alertness each; the winner goes first, then around the table",
    record="everyone",
)
ATTACK = ActionSpec(
    "attack",
    Attack,
    section="Action: Attack",
    summary="2d6 + a combat skill against the target's defence: stress on a hit",
    record="everyone",
)
DEFEND = ActionSpec(
    "defend",
    Defence,
    section="Defence",
    summary="the defender's answer to an attack: the skill, and Aspects tagged for it",
    record="everyone",
)
CONCEDE = ActionSpec(
    "concede",
    NoParams,
    section="Taken Out",
    summary="give up before the roll: Taken Out, the victor decides what happens",
    record="everyone",
)
ABSORB = ActionSpec(
    "absorb",
    Absorb,
    section="Consequences",
    summary="take a hit: stress on the track, or Consequences instead",
    record="everyone",
)
MANOEUVRE = ActionSpec(
    "manoeuvre",
    Manoeuvre,
    section="Action: Manoeuvre",
    summary="set (or remove) an Aspect on a character, a zone or the scene",
    record="everyone",
)
BLOCK = ActionSpec(
    "block",
    Block,
    section="Action: Block",
    summary="protect someone, hold a doorway or a thing until your next turn",
    record="everyone",
)
OVERCOME = ActionSpec(
    "overcome",
    Overcome,
    section="Action: Block",
    summary="try the action a Block prevents: beat its strength with an appropriate skill",
    record="everyone",
)
GRAPPLE = ActionSpec(
    "grapple",
    Grapple,
    section="Grapple",
    summary="restrain an opponent by Strength, tagging an Aspect to lay hands on them",
    record="everyone",
)
RELEASE = ActionSpec(
    "release",
    Release,
    section="Releasing the Grapple",
    summary="let go; with 'to', the bum's rush moves the opponent a zone",
    record="everyone",
)
MOVE = ActionSpec(
    "move",
    Move,
    section="Zones",
    summary="move to an adjacent zone with a clear way",
    record="everyone",
)
SPRINT = ActionSpec(
    "sprint",
    Sprint,
    section="Action: Sprint",
    summary="|d6 - d6| + Agility zones of movement, at most 4 zones",
    record="everyone",
)
WAIT = ActionSpec(
    "wait",
    Wait,
    section="Action: Wait",
    summary="forgo your place to react to another's turn; the plan is yours alone",
    record="actor",
)
FULL_DEFENCE = ActionSpec(
    "full_defence",
    FullDefence,
    section="Action: Full defence",
    summary="+2 on defensive rolls until your next turn",
    record="everyone",
)
SOMETHING_ELSE = ActionSpec(
    "something_else",
    SomethingElse,
    section="Action: Something Else ?",
    summary="a distraction: you are a free-taggable Sitting Duck",
    record="everyone",
)
SEIZE = ActionSpec(
    "seize",
    Seize,
    section="Hold a thing",
    summary="seize a thing, beating any Block holding it",
    record="everyone",
)
THROW_GRENADE = ActionSpec(
    "throw_grenade",
    ThrowGrenade,
    section="Grenades",
    summary="Agility vs 7 to land it, then one Firearms attack on everyone in the zone",
    record="everyone",
)
FUSE = ActionSpec(
    "fuse",
    Fuse,
    section="Grenades",
    summary="a fizzled grenade's fuse on the thrower's next turn: even 'phut', odd it goes off",
    record="everyone",
)
DECLARE = ActionSpec(
    "declare",
    Declare,
    section="Declarations",
    summary="a small fact covered by an Aspect, for an Experience Point",
    record="everyone",
)
MAINTAIN = ActionSpec(
    "maintain",
    Maintain,
    section="Maintenance",
    summary="Experience Points paid to run an Aspect",
    record="everyone",
)
END_SCENE = ActionSpec(
    "end_scene",
    NoParams,
    section="Action: Manoeuvre",
    who=Who.REFEREE,
    summary="the scene ends: its manoeuvre Aspects lapse, turns and Blocks end",
    record="everyone",
)
AWARD = ActionSpec(
    "award",
    Award,
    section="Getting Experience",
    who=Who.REFEREE,
    summary="Experience Points into the pool",
    record="everyone",
)
REST = ActionSpec(
    "rest",
    Characters,
    section="Experience Pool Refresh",
    summary="a night's rest: Health and Composure clear, the pool refreshes by 1d6",
    record="everyone",
)
END_SESSION = ActionSpec(
    "end_session",
    EndSession,
    section="Stress Recovery",
    summary="the end of a session: Wealth stress clears if none was taken; the pool refills",
    record="everyone",
)
RECOVER = ActionSpec(
    "recover",
    Recover,
    section="Consequences",
    summary="days of rest or treatment: consequences recover in their time",
    record="everyone",
)
CHECK_SHEET = ActionSpec(
    "check_sheet",
    CheckSheet,
    section="Characters",
    summary="a character sheet checked: the pyramid, Experience, Aspects, tracks, languages",
    record="everyone",
)
RITUAL = ActionSpec(
    "ritual",
    Ritual,
    section="How you do magic",
    summary="a ritual of hours on a Sephira's path makes a charm",
    record="everyone",
)

TURN_ACTIONS = frozenset(
    {"attack", "manoeuvre", "block", "grapple", "release", "sprint", "move", "wait"}
    | {"full_defence", "something_else", "throw_grenade", "seize", "overcome"}
)
"""The Full Actions: taken on one's turn, and the turn passes after them."""

CATALOGUE = Catalogue(
    [
        INITIATIVE,
        ATTACK,
        DEFEND,
        CONCEDE,
        ABSORB,
        MANOEUVRE,
        BLOCK,
        GRAPPLE,
        RELEASE,
        MOVE,
        SPRINT,
        WAIT,
        FULL_DEFENCE,
        SOMETHING_ELSE,
        SEIZE,
        OVERCOME,
        THROW_GRENADE,
        FUSE,
        DECLARE,
        MAINTAIN,
        END_SCENE,
        AWARD,
        REST,
        END_SESSION,
        RECOVER,
        CHECK_SHEET,
        RITUAL,
    ]
)
"""Every action kind of a Gin Lane table."""
