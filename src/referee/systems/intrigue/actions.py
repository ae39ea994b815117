"""The action catalogue: every action kind of an evening, its parameters in the text's words.

Rules text (Intrigue in the Clouds), section by section. The kernel parses an action's
parameters with its spec before :meth:`~referee.systems.intrigue.procedure.Intrigue.decide`
runs, so a misspelt or ill-typed parameter is an :class:`~referee.core.ActionError` naming it:

>>> PERCEIVE.parse({"target": "krockin"}).target
'krockin'
>>> PERCEIVE.parse({"target": "krockin", "modifer": -4})
Traceback (most recent call last):
...
referee.core.errors.ActionError: perceive.modifer: not a parameter of this action \
(its parameters: target)
>>> JOIN.parse({"with": 33}).with_
33

A character is named by id (``"krockin"``) or by the Character Number on their badge (``33``
or ``"07"``): :data:`CharacterRef`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from referee.core import ActionSpec, Catalogue, NoParams, Params, Who
from referee.systems.intrigue.rules import SCREAM_BONUS_LIMIT

__all__ = [
    "ADMIT",
    "CATALOGUE",
    "DECLARE",
    "DRAW",
    "ENCOUNTER",
    "END_COMBAT",
    "ESCAPE",
    "JOIN",
    "MENTAL_ATTACK",
    "NEXT_ROUND",
    "OPEN",
    "PERCEIVE",
    "REPORT",
    "RESOLVE",
    "REVIVE",
    "ROB",
    "ROLL",
    "SEARCH",
    "SLAY",
    "SPEAK",
    "START_COMBAT",
    "USE_MIND",
    "Admit",
    "CharacterRef",
    "CombatAction",
    "Declare",
    "Draw",
    "Encounter",
    "EndCombat",
    "Join",
    "MentalAttack",
    "Open",
    "Report",
    "Rob",
    "Roll",
    "Speak",
    "StartCombat",
    "Target",
    "WhichCombat",
]

CharacterRef = str | int
"""A character: their id in the game file, or the Character Number on their badge."""

CombatAction = Literal[
    "draw",
    "attack",
    "grab",
    "squeeze",
    "throw",
    "release",
    "break_free",
    "defend",
    "scream",
    "hold",
]
"""The Combat Actions ("Combat Actions"), and holding one ("Initiative")."""


class Target(Params):
    """The character acted on."""

    target: CharacterRef


class Rob(Params):
    """The Knocked Out character robbed, and the Item Card taken ("Taking Damage")."""

    target: CharacterRef
    item: str


class Roll(Params):
    """A skill roll ("Skill Rolls"): a ``skill`` or an ``ability``, against a fixed ``target``
    (the Target Number) or ``against`` another character's roll + ``against_skill`` (the same
    skill unless named)."""

    skill: str | None = None
    ability: str | None = None
    target: int | None = Field(default=None, ge=0, le=1000)
    against: CharacterRef | None = None
    against_skill: str | None = None


class Report(Params):
    """What happened to the holder ("Open if shot")."""

    event: str = Field(min_length=1)


class Encounter(Params):
    """The holder saw, met or talked to ``character`` ("Open if you see character 53")."""

    character: CharacterRef
    how: Literal["see", "meet", "talk"] = "meet"


class Open(Params):
    """The Contingency Envelope opened."""

    envelope: str


class Speak(Params):
    """A conversation in ``language`` ("Languages"): only ``listeners`` who understand it hear
    ``content``."""

    language: str
    listeners: list[CharacterRef] = Field(default_factory=list)
    content: str = ""


class Draw(Params):
    """The Item Card drawn ("Draw a Weapon or Item")."""

    item: str


class StartCombat(Params):
    """ "point at the character, or characters, your character is attacking" ("Starting
    Combat"); ``surprised``: the targets who agree they are surprised ("Surprise")."""

    targets: list[CharacterRef] = Field(min_length=1, max_length=100)
    surprised: list[CharacterRef] = Field(default_factory=list)


class Join(Params):
    """Join a combat on the side of ``with`` ("Starting Combat")."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, serialize_by_alias=True, validate_by_name=False
    )

    with_: CharacterRef = Field(alias="with")


class Admit(Join):
    """The referee lets ``character`` into a running combat on the side of ``with``."""

    character: CharacterRef


class Declare(Params):
    """A Combat Action for the round ("Combat Actions"): its ``target``, the ``item`` drawn,
    a mental ``ability`` ("Mixing Mental and Normal Combat"), the ``group`` ganging up with the
    declarer ("Multiple Attackers"), the referee's ``bonus`` for a scream ("Screaming in
    Terror")."""

    action: CombatAction
    target: CharacterRef | None = None
    item: str | None = None
    ability: str | None = None
    group: list[CharacterRef] = Field(default_factory=list, max_length=100)
    bonus: int = Field(default=0, ge=0, le=SCREAM_BONUS_LIMIT)


class WhichCombat(Params):
    """The combat (its id: ``combat-1``); the only one running if not named."""

    combat: str | None = None


class EndCombat(WhichCombat):
    """The referee ends a combat, and why."""

    reason: str = "referee"


class MentalAttack(Params):
    """An unnoticed mental attack ("Mental Combat"): its ``target`` and Special ``ability``."""

    target: CharacterRef
    ability: str


PERCEIVE = ActionSpec(
    "perceive",
    Target,
    section="Perception Envelopes",
    summary="A Perception Check: 3d6 + Perception; the envelopes earned are handed over.",
)
ROLL = ActionSpec(
    "roll",
    Roll,
    section="Skill Rolls",
    summary="3d6 + a skill against a Target Number or another character's roll + skill.",
)
REPORT = ActionSpec(
    "report",
    Report,
    section="Contingency Envelopes",
    summary='The holder reports what happened ("Open if shot").',
)
ENCOUNTER = ActionSpec(
    "encounter",
    Encounter,
    section="Contingency Envelopes",
    summary="The holder saw, met or talked to a character.",
)
OPEN = ActionSpec(
    "open",
    Open,
    section="Contingency Envelopes",
    summary="Open a Contingency Envelope whose condition is met.",
)
SPEAK = ActionSpec(
    "speak",
    Speak,
    section="Languages",
    summary="Say something in a language: only listeners who understand it hear it.",
)
DRAW = ActionSpec(
    "draw",
    Draw,
    section="Combat Actions",
    summary="Draw a weapon or item outside combat.",
    record="everyone",
)
START_COMBAT = ActionSpec(
    "start_combat",
    StartCombat,
    section="Starting Combat",
    summary='"Combat! three, two, one, START!" at one or more characters.',
    record="everyone",
)
JOIN = ActionSpec(
    "join",
    Join,
    section="Starting Combat",
    summary='Declare you are part of a combat when "Start" is called.',
    record="everyone",
)
ADMIT = ActionSpec(
    "admit",
    Admit,
    section="Starting Combat",
    who=Who.REFEREE,
    summary="The referee lets someone into a running combat.",
    record="everyone",
)
USE_MIND = ActionSpec(
    "use_mind",
    NoParams,
    section="Mixing Mental and Normal Combat",
    summary="Rank by Mind this round, to use a mental ability.",
    record="everyone",
)
DECLARE = ActionSpec(
    "declare",
    Declare,
    section="Combat Actions",
    summary="Declare this round's Combat Action, in initiative order.",
    record="everyone",
)
RESOLVE = ActionSpec(
    "resolve",
    WhichCombat,
    section="Initiative",
    summary="Resolve the next place in initiative order.",
    record="everyone",
)
NEXT_ROUND = ActionSpec(
    "next_round",
    WhichCombat,
    section="Initiative",
    summary="Begin the next round of a combat.",
    record="everyone",
)
ESCAPE = ActionSpec(
    "escape",
    NoParams,
    section="Escaping Combat",
    summary="After two unhit Defensive Actions: 3d6 + Combat against the attacker's.",
    record="everyone",
)
END_COMBAT = ActionSpec(
    "end_combat",
    EndCombat,
    section="Combat rules",
    who=Who.REFEREE,
    summary="The referee ends a combat.",
    record="everyone",
)
MENTAL_ATTACK = ActionSpec(
    "mental_attack",
    MentalAttack,
    section="Mental Combat",
    summary="An unnoticed mental attack: 3d6 + Mind against the target's Mind + 10.",
)
REVIVE = ActionSpec(
    "revive",
    Target,
    section="Taking Damage",
    summary="A Medicine roll of 14 or more wakes a Knocked Out character.",
    record="everyone",
)
SLAY = ActionSpec(
    "slay",
    Target,
    section="Taking Damage",
    summary="The victor has their way with a Knocked Out character.",
    record="everyone",
)
SEARCH = ActionSpec(
    "search",
    Target,
    section="Taking Damage",
    summary="The victor searches a Knocked Out character: their items and envelopes' outsides.",
    record="everyone",
)
ROB = ActionSpec(
    "rob",
    Rob,
    section="Taking Damage",
    summary="The victor takes an Item Card from a Knocked Out character.",
)

CATALOGUE = Catalogue(
    [
        PERCEIVE,
        ROLL,
        REPORT,
        ENCOUNTER,
        OPEN,
        SPEAK,
        DRAW,
        START_COMBAT,
        JOIN,
        ADMIT,
        USE_MIND,
        DECLARE,
        RESOLVE,
        NEXT_ROUND,
        ESCAPE,
        END_COMBAT,
        MENTAL_ATTACK,
        REVIVE,
        SLAY,
        SEARCH,
        ROB,
    ]
)
"""Every action kind of an evening, in the order of the rules text."""
