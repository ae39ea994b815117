"""Hursagmu's action catalogue: every action kind, its parameters in the text's words, its
section, who takes it and who sees it recorded (DESIGN.md, "The table contract").

The kernel parses an action's parameters with its spec before the encounter decides it, so a
misspelt, missing or ill-typed parameter is an :class:`~referee.core.ActionError` naming its
path; what the rules forbid stays a :class:`~referee.core.RuleError`.

>>> INITIATIVE.parse({"stance": "maneuver", "modifer": -4})
Traceback (most recent call last):
...
referee.core.errors.ActionError: initiative.modifer: not a parameter of this action \
(did you mean 'modifier'? its parameters: modifier, stance)
>>> DECLARE.parse({"actions": [{"attack": "fred"}]}).actions[0].attack
'fred'
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from referee.core import ActionSpec, Catalogue, NoParams, Params, Who

__all__ = [
    "ACT",
    "CATALOGUE",
    "CONDITION",
    "DECLARE",
    "DEFEND",
    "END_ROUND",
    "HOLD",
    "INITIATIVE",
    "MAX_STEPS",
    "MODIFIER",
    "PERCEIVE",
    "PUSH",
    "RACE",
    "ROUND_ZERO",
    "SNEAK",
    "TAKE",
    "WAIT",
    "Condition",
    "Declare",
    "Defend",
    "Initiative",
    "Perceive",
    "Push",
    "Race",
    "RoundZero",
    "Sneak",
    "StepParams",
    "step_json",
]

MODIFIER = 20
"""The largest bonus or penalty an action's ``modifier`` takes (the Master's, either way)."""
MAX_STEPS = 24
"""The most steps one declaration holds (a round allows far fewer; the rules refuse them)."""
MAX_YARDS = 100_000
"""The longest distance a step or a roll names, in yards (divination reaches far)."""
MAX_CHALLENGE = 100
"""The highest challenge level a step or a roll names."""
MAX_HITS = 10_000
"""The most hits of Stamina one push spends."""

StanceName = Literal["maneuver", "concentrate"]
MovementName = Literal["stand", "foot", "mount", "dismount", "ride", "leap", "prone"]


class StepParams(Params):
    """One declared step, as scenario files write it ("Action", "Movement", "Haste").

    A short form names the kind by its key: ``{attack: fred}``, ``{defend: true}`` (or
    ``defend: defiance``), ``{move: foot, yards: 16}``, ``{minor: draw sword}``,
    ``{task: hold the door, skill: strength, challenge: 9}``, ``{haste: true}``; the long form
    says ``kind:``. The rules' own checks (a known skill, a range table entry, a defence of
    Defense or Defiance) are made when the step is declared.
    """

    kind: Literal["attack", "defend", "task", "move", "minor", "haste"] | None = None
    attack: str | None = None
    defend: bool | str | None = None
    task: str | None = None
    move: MovementName | None = None
    minor: str | None = None
    haste: bool | None = None
    skill: str | None = None
    target: str | None = None
    movement: MovementName | None = None
    yards: int = Field(0, ge=0, le=MAX_YARDS)
    initiative_penalty: int = Field(0, ge=-MODIFIER, le=MODIFIER)
    engrossing: bool = False
    rounds: int = Field(1, ge=1, le=100)
    challenge: int = Field(0, ge=-MAX_CHALLENGE, le=MAX_CHALLENGE)
    name: str | None = None
    ability: str | None = None
    slope: int = Field(0, ge=-10, le=10)


class RoundZero(Params):
    """Round Zero: the initiator (and ``with`` his side) opens the conflict; ``surprised``
    are "totally surprised"."""

    model_config = ConfigDict(serialize_by_alias=True, validate_by_alias=True)

    stance: StanceName = "maneuver"
    with_: list[str] = Field(default_factory=list, alias="with", max_length=100)
    surprised: list[str] = Field(default_factory=list, max_length=100)


class Initiative(Params):
    """Initiative: "manuever (for physical actions) or concentrate (for mental actions)"."""

    stance: StanceName
    modifier: int = Field(0, ge=-MODIFIER, le=MODIFIER)


class Declare(Params):
    """Action: "declare all of his actions for the round"."""

    actions: list[StepParams] = Field(max_length=MAX_STEPS)


class Defend(Params):
    """Action: the target of an attack defends; ``actions`` are his declared actions for the
    round when he has not declared them yet."""

    actions: list[StepParams] | None = Field(None, max_length=MAX_STEPS)


class Push(Params):
    """Pushing Power: ``hits`` of Stamina spent, +1 Strength and Willpower each."""

    hits: int = Field(1, ge=1, le=MAX_HITS)


class Condition(Params):
    """Recovery: the Master says whether ``character`` is OK on Health and Sanity; and
    (Perception and Observation) whether he is asleep."""

    character: str
    health_ok: bool | None = None
    sanity_ok: bool | None = None
    asleep: bool | None = None


class Perceive(Params):
    """Perception and Observation: the Master rolls in secret for ``character``."""

    character: str
    skill: Literal["perception", "observation", "divination"] = "perception"
    challenge: int = Field(0, ge=-MAX_CHALLENGE, le=MAX_CHALLENGE)
    sense: Literal["smell", "hearing", "vision", "divination"] = "vision"
    yards: int = Field(0, ge=0, le=MAX_YARDS)
    factors: dict[str, int] = Field(default_factory=dict, max_length=20)
    asleep: bool | None = None
    soft: bool = False


class Sneak(Params):
    """Stealth against the perceiver's Perception, or Shadowing against his Observation."""

    perceiver: str
    skill: Literal["stealth", "shadowing"] = "stealth"
    modifier: int = Field(0, ge=-MODIFIER, le=MODIFIER)


class Race(Params):
    """Movement: "participants should roll their Quickness each round"."""

    against: str


ROUND_ZERO = ActionSpec(
    "round_zero",
    RoundZero,
    section="Round Zero",
    who=Who.CHARACTER,
    record="everyone",
    summary="open the conflict: the initiators act on round zero, the surprised not at all",
)
INITIATIVE = ActionSpec(
    "initiative",
    Initiative,
    section="Initiative",
    who=Who.CHARACTER,
    record="everyone",
    summary="maneuver (roll Quickness) or concentrate (roll Command)",
)
DECLARE = ActionSpec(
    "declare",
    Declare,
    section="Action",
    who=Who.CHARACTER,
    record="everyone",
    summary="declare every action of the round, in order",
)
ACT = ActionSpec(
    "act",
    NoParams,
    section="Action",
    who=Who.CHARACTER,
    record="everyone",
    summary="perform the next declared step (movement, minor action, task or attack)",
)
DEFEND = ActionSpec(
    "defend",
    Defend,
    section="Action",
    who=Who.CHARACTER,
    record="everyone",
    summary="make a defensive roll against the attack pending (aborting if need be)",
)
TAKE = ActionSpec(
    "take",
    NoParams,
    section="Action",
    who=Who.CHARACTER,
    record="everyone",
    summary="take the attack pending undefended",
)
WAIT = ActionSpec(
    "wait",
    NoParams,
    section="Waiting",
    who=Who.CHARACTER,
    record="everyone",
    summary="wait upon reaching one's Initiative; act at any time later",
)
HOLD = ActionSpec(
    "hold",
    NoParams,
    section="Waiting",
    who=Who.CHARACTER,
    record="everyone",
    summary="hold a waiting action over into the next round",
)
PUSH = ActionSpec(
    "push",
    Push,
    section="Pushing Power",
    who=Who.CHARACTER,
    record="everyone",
    summary="spend hits of Stamina for +1 Strength and Willpower each this round",
)
END_ROUND = ActionSpec(
    "end_round",
    NoParams,
    section="Recovery",
    who=Who.REFEREE,
    record="everyone",
    summary="end the round: Recovery, then the next round's Initiative",
)
CONDITION = ActionSpec(
    "condition",
    Condition,
    section="Recovery",
    who=Who.REFEREE,
    record="everyone",
    summary="rule a character OK or not on Health and Sanity, or asleep or awake",
)
PERCEIVE = ActionSpec(
    "perceive",
    Perceive,
    section="Perception and Observation",
    who=Who.REFEREE,
    record="actor",
    summary="roll Perception, Observation or Divination in secret",
)
SNEAK = ActionSpec(
    "sneak",
    Sneak,
    section="Perception and Observation",
    who=Who.CHARACTER,
    record="actor",
    summary="Stealth against Perception, or Shadowing against Observation, in secret",
)
RACE = ActionSpec(
    "race",
    Race,
    section="Movement",
    who=Who.CHARACTER,
    record="everyone",
    summary="race another character: Quickness against Quickness, a yard per point",
)

CATALOGUE = Catalogue(
    [
        ROUND_ZERO,
        INITIATIVE,
        DECLARE,
        ACT,
        DEFEND,
        TAKE,
        WAIT,
        HOLD,
        PUSH,
        END_ROUND,
        CONDITION,
        PERCEIVE,
        SNEAK,
        RACE,
    ]
)
"""Every action kind of an encounter."""


def step_json(step: StepParams) -> dict[str, object]:
    """A step's parameters as given (the short or the long form), for :meth:`Step.from_json`.

    >>> step_json(StepParams.model_validate({"move": "foot", "yards": 16}))
    {'move': 'foot', 'yards': 16}
    """
    return step.model_dump(mode="json", exclude_unset=True)
