"""Perception, Observation, Stealth, Shadowing and Divination (hursagmu-encounters.txt,
"Perception and Observation", and the senses table of "Range").

Perception and Observation roll against a challenge level the Master sets; the text's factors
are named modifiers to that challenge (the Master gives their size). A sense's range adds its
range challenge. Stealth is rolled against Perception and Shadowing against Observation
("Shadowing is to Observation what Stealth is to Perception"): the sneaking side acts, so it
wins ties.

>>> alert = Character("guard", intelligence=2, skills={"perception": 3})
>>> perception_check(alert, 9, sense="hearing", yards=25).target
11
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from referee.core import OpposedCheck, RuleError, TargetCheck
from referee.systems.hursagmu.movement import range_challenge
from referee.systems.hursagmu.sheet import Character

__all__ = [
    "FACTORS",
    "SOFT_NOISE_WHILE_ASLEEP",
    "Awareness",
    "PerceptionRoll",
    "divination_check",
    "observation_check",
    "perception_check",
    "shadowing_check",
    "stealth_check",
]

FACTORS = ("bright light", "pitch darkness", "loud noise", "distraction")
"""The factors the text names; the Master sets each one's size (a higher challenge)."""

SOFT_NOISE_WHILE_ASLEEP = 4
"""Ruling: "If the noises are very soft ... the perception roll is far more difficult": +4."""


class Awareness(enum.Enum):
    """The perceiver's state: awake, asleep (hearing only), unconscious ("senseless")."""

    AWAKE = "awake"
    ASLEEP = "asleep"
    UNCONSCIOUS = "unconscious"


@dataclass(frozen=True)
class PerceptionRoll:
    """The challenge of a perception roll and how it was built, for showing to a person."""

    check: TargetCheck
    parts: Mapping[str, int]


def _factors(factors: Mapping[str, int] | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, value in (factors or {}).items():
        if name not in FACTORS:
            raise RuleError(
                "Perception and Observation",
                f"no factor {name!r} (the text names: {', '.join(FACTORS)})",
            )
        out[name] = value
    return out


def perception_parts(
    challenge: int,
    *,
    sense: str = "vision",
    yards: int = 0,
    factors: Mapping[str, int] | None = None,
    awareness: Awareness = Awareness.AWAKE,
    soft_noise: bool = False,
) -> dict[str, int]:
    """The named parts of a Perception challenge (see :func:`perception_check`)."""
    if sense not in ("smell", "hearing", "vision"):
        raise RuleError("Perception", f"Perception senses smell, hearing or vision, not {sense!r}")
    if awareness is Awareness.UNCONSCIOUS:
        raise RuleError("Perception", "unconscious characters get no perception rolls for anything")
    if awareness is Awareness.ASLEEP and sense != "hearing":
        raise RuleError("Perception", f"a sleeping character rolls for hearing only, not {sense}")
    parts = {"challenge": challenge, f"{sense} range": range_challenge(yards, sense)}
    parts.update(_factors(factors))
    if awareness is Awareness.ASLEEP and soft_noise:
        parts["very soft noise while asleep"] = SOFT_NOISE_WHILE_ASLEEP
    return parts


def perception_check(
    character: Character,
    challenge: int,
    *,
    sense: str = "vision",
    yards: int = 0,
    factors: Mapping[str, int] | None = None,
    awareness: Awareness = Awareness.AWAKE,
    soft_noise: bool = False,
    modifier: int = 0,
) -> TargetCheck:
    """A Perception roll: noticing "images, sounds, or smells that are hard to detect".

    The challenge is the Master's, plus the sense's range challenge (smell 1, hearing 10,
    vision 100 yards an increment) and the named factors. Unconscious characters get no roll;
    sleeping characters roll hearing only, harder for very soft noises.

    >>> sleeper = Character("sleeper", intelligence=1, skills={"perception": 2})
    >>> perception_check(sleeper, 8, sense="hearing", awareness=Awareness.ASLEEP,
    ...                  soft_noise=True).target
    12
    """
    parts = perception_parts(
        challenge,
        sense=sense,
        yards=yards,
        factors=factors,
        awareness=awareness,
        soft_noise=soft_noise,
    )
    return character.skill_roll("perception", modifier).against(sum(parts.values()))


def observation_check(
    character: Character,
    challenge: int,
    *,
    factors: Mapping[str, int] | None = None,
    modifier: int = 0,
) -> TargetCheck:
    """An Observation roll: noticing "something subtle that is right in front of them"; anything
    that distracts the character raises the challenge.

    >>> observation_check(Character("x", skills={"observation": 2}), 8,
    ...                   factors={"distraction": 2}).target
    10
    """
    total = challenge + sum(_factors(factors).values())
    return character.skill_roll("observation", modifier).against(total)


def stealth_check(
    sneak: Character,
    perceiver: Character,
    *,
    sneak_modifier: int = 0,
    perceiver_modifier: int = 0,
) -> OpposedCheck:
    """Stealth against Perception: the sneaking (acting) side wins ties.

    >>> a = Character("a", dexterity=2, skills={"stealth": 3})
    >>> b = Character("b", intelligence=2, skills={"perception": 3})
    >>> stealth_check(a, b).odds().success
    Fraction(721, 1296)
    """
    mine = sneak.skill_roll("stealth", sneak_modifier)
    return mine.versus(perceiver.skill_roll("perception", perceiver_modifier))


def shadowing_check(
    shadow: Character,
    watcher: Character,
    *,
    shadow_modifier: int = 0,
    watcher_modifier: int = 0,
) -> OpposedCheck:
    """Shadowing against Observation ("Shadowing is to Observation what Stealth is to
    Perception"); the shadowing (acting) side wins ties."""
    mine = shadow.skill_roll("shadowing", shadow_modifier)
    return mine.versus(watcher.skill_roll("observation", watcher_modifier))


def divination_check(
    diviner: Character, challenge: int, *, yards: int = 0, modifier: int = 0
) -> TargetCheck:
    """Divination senses "the presence of sorcery in the area", its range 1000 yards an
    increment ("Range": "for determining whether the diviner notices the use of sorcery").

    >>> divination_check(Character("d", skills={"divination": 1}), 7, yards=2500).target
    9
    """
    total = challenge + range_challenge(yards, "divination")
    return diviner.skill_roll("divination", modifier).against(total)
