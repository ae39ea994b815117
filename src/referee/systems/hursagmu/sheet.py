"""Characters and the skill roll: 2d6 + attribute + skill (RULINGS.md, "Hursagmu encounters").

hursagmu-encounters.txt leans on its parent game's core roll without restating it. Referee's
reading: a skill roll is 2d6 + the skill's attribute + the skill; an unopposed roll succeeds when
it meets the challenge level set by the Master; in an opposed roll the acting side succeeds on a
tie. Every roll is a kernel check, so its exact odds are known before it is rolled.

>>> bob = Character("bob", dexterity=2, skills={"striking": 5, "defense": 6})
>>> bob.skill_roll("striking", modifier=-2).side.expression
'2d6+5'
>>> bob.skill_roll("striking").against(14).odds().success
Fraction(7, 12)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.core import OpposedCheck, RuleError, ScenarioError, TargetCheck, TieRule, Total
from referee.systems.hursagmu.tables import SKILL_ATTRIBUTES

__all__ = [
    "SKILL_DICE",
    "Character",
    "SkillRoll",
    "Stance",
    "character_from_json",
    "skill_attribute",
    "skill_stance",
]

SKILL_DICE = "2d6"
"""The dice of every skill roll (the parent game's core roll, RULINGS.md)."""


class Stance(enum.Enum):
    """What a character decides in the Initiative phase ("Initiative").

    "[players] must decide whether the character will manuever (for physical actions) or
    concentrate (for mental actions)". Maneuvering rolls Quickness and allows Dexterity skills;
    concentrating rolls Command and allows Intelligence skills.
    """

    MANEUVER = "maneuver"
    CONCENTRATE = "concentrate"

    @property
    def initiative_skill(self) -> str:
        """Quickness for a maneuver, Command to concentrate ("Initiative").

        >>> Stance.CONCENTRATE.initiative_skill
        'command'
        """
        return "quickness" if self is Stance.MANEUVER else "command"

    @property
    def attribute(self) -> str:
        """``dexterity`` (physical) or ``intelligence`` (mental)."""
        return "dexterity" if self is Stance.MANEUVER else "intelligence"


def skill_attribute(skill: str) -> str:
    """The attribute a skill rolls with (``data/skills.yaml``); a bare attribute rolls alone.

    >>> skill_attribute("Quickness"), skill_attribute("strength")
    ('dexterity', 'strength')
    """
    key = skill.lower()
    if key in SKILL_ATTRIBUTES:
        return SKILL_ATTRIBUTES[key]
    if key in ("dexterity", "intelligence", "strength", "willpower"):
        return key
    raise RuleError("Skills", f"no skill {skill!r} (known: {', '.join(SKILL_ATTRIBUTES)})")


def skill_stance(skill: str) -> Stance | None:
    """The stance a skill belongs to: Dex skills maneuver, Int skills concentrate ("Initiative").

    Strength and Willpower rolls belong to neither (``None``).

    >>> skill_stance("defiance"), skill_stance("striking"), skill_stance("strength")
    (<Stance.CONCENTRATE: 'concentrate'>, <Stance.MANEUVER: 'maneuver'>, None)
    """
    attribute = skill_attribute(skill)
    if attribute == "dexterity":
        return Stance.MANEUVER
    if attribute == "intelligence":
        return Stance.CONCENTRATE
    return None


@dataclass(frozen=True)
class SkillRoll:
    """One skill roll as a value: 2d6 + attribute + skill + modifier (RULINGS.md).

    ``modifier`` holds the round's multiple-action penalty and any other bonus or penalty.

    >>> roll = SkillRoll(attribute=2, skill=3)
    >>> roll.against(12).odds().success
    Fraction(7, 12)
    >>> roll.versus(SkillRoll(2, 3)).odds().success
    Fraction(721, 1296)
    """

    attribute: int
    skill: int
    modifier: int = 0

    @property
    def bonus(self) -> int:
        """What is added to the 2d6."""
        return self.attribute + self.skill + self.modifier

    @property
    def side(self) -> Total:
        """The rolling side, for a kernel check."""
        return Total(SKILL_DICE, self.bonus)

    def against(self, challenge: int) -> TargetCheck:
        """An unopposed roll: success when the total meets ``challenge`` (≥)."""
        return TargetCheck(SKILL_DICE, target=challenge, modifier=self.bonus, comparison=">=")

    def versus(self, opponent: SkillRoll, opponent_modifier: int = 0) -> OpposedCheck:
        """An opposed roll: this (acting) side succeeds on a tie (RULINGS.md).

        ``opponent_modifier`` is added to the opponent's total (a range challenge added to the
        defensive roll, "Range").
        """
        theirs = Total(SKILL_DICE, opponent.bonus + opponent_modifier)
        return OpposedCheck(self.side, theirs, TieRule.ACTOR_WINS)

    def success_odds(self, challenge: int) -> Fraction:
        """The exact chance of meeting ``challenge``."""
        return self.against(challenge).odds().success


@dataclass(frozen=True)
class Character:
    """A character sheet as the encounter rules use it (issue 8, "Characters").

    ``skills`` by lower-case name (a missing skill is 0: "base Dex for those without the skill");
    ``stamina`` is the maximum hits of Stamina, ``hits`` the hits left (``None``: all);
    ``health_ok``/``sanity_ok`` whether the character is OK on Health and Sanity ("Recovery");
    ``max_lift`` and ``load`` in pounds for encumbrance; ``weapon`` the weapon's damage and
    ``weapon_type`` ``melee``, ``thrown weapon`` or ``missile weapon``; ``mount`` the yards the
    character's horse covers in one riding action (20 to 40, "Movement"), 0 for none;
    ``prone`` whether he starts lying prone and ``mounted`` whether he starts on his horse
    (``None``: mounted if he has one).

    >>> Character("fred", dexterity=3, skills={"Quickness": 2}).skill("quickness")
    2
    """

    name: str
    dexterity: int = 0
    intelligence: int = 0
    strength: int = 0
    willpower: int = 0
    skills: Mapping[str, int] = field(default_factory=dict)
    stamina: int = 10
    hits: int | None = None
    health_ok: bool = True
    sanity_ok: bool = True
    max_lift: int = 100
    load: int = 0
    weapon: int = 0
    weapon_type: str = "melee"
    mount: int = 0
    prone: bool = False
    mounted: bool | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "skills", {k.lower(): v for k, v in self.skills.items()})
        if self.hits is None:
            object.__setattr__(self, "hits", self.stamina)

    def attribute(self, name: str) -> int:
        """The value of an attribute by name."""
        if name not in ("dexterity", "intelligence", "strength", "willpower"):
            raise RuleError("Attributes", f"no attribute {name!r}")
        value: int = getattr(self, name)
        return value

    def skill(self, name: str) -> int:
        """The skill's level; 0 for a skill the character lacks (a bare attribute is 0 too)."""
        return self.skills.get(name.lower(), 0)

    def skill_roll(self, skill: str, modifier: int = 0, *, bonus: int = 0) -> SkillRoll:
        """The roll of ``skill``: its attribute (plus ``bonus``, e.g. pushed power) and level."""
        attribute = skill_attribute(skill)
        return SkillRoll(self.attribute(attribute) + bonus, self.skill(skill), modifier)


_INTS = (
    "dexterity",
    "intelligence",
    "strength",
    "willpower",
    "stamina",
    "max_lift",
    "load",
    "weapon",
    "mount",
)


NOT_IN_THE_TEXT = {
    **dict.fromkeys(
        ("armour", "armor"),
        "armour is not in the text: the encounter rules give none (damage is weapon + Strength "
        "+ the damage roll, taken off the hits)",
    ),
    **dict.fromkeys(
        ("health", "sanity"),
        "Health and Sanity and their damage are not in the text (Recovery names only the parent "
        "book's chapter on pain and suffering): give health_ok / sanity_ok, the Master's ruling",
    ),
}
"""Sheet fields a table might expect that the text only names from its parent book, or not at
all: refused with the reason rather than as an unknown field (issue 13)."""


def character_from_json(name: str, data: Any, path: tuple[str | int, ...] = ()) -> Character:
    """A :class:`Character` from a scenario's setup; :class:`ScenarioError` names the bad field.

    >>> character_from_json("bob", {"dexterity": 2, "skills": {"striking": 5}}).skill("striking")
    5
    """
    if not isinstance(data, Mapping):
        raise ScenarioError("a character is a mapping of fields", path)
    known = {*_INTS, "skills", "hits", "health_ok", "sanity_ok", "weapon_type", "prone", "mounted"}
    for key in data:
        if key in NOT_IN_THE_TEXT:
            raise ScenarioError(NOT_IN_THE_TEXT[key], (*path, str(key)))
        if key not in known:
            raise ScenarioError(
                f"unknown field {key!r} (known: {', '.join(sorted(known))})", (*path, str(key))
            )
    values: dict[str, Any] = {}
    for key in (*_INTS, "hits"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise ScenarioError(f"expected a whole number, not {value!r}", (*path, key))
            values[key] = value
    for key in ("health_ok", "sanity_ok", "prone", "mounted"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ScenarioError("expected true or false", (*path, key))
            values[key] = data[key]
    if "weapon_type" in data:
        if data["weapon_type"] not in ("melee", "thrown weapon", "missile weapon"):
            raise ScenarioError(
                "weapon_type is 'melee', 'thrown weapon' or 'missile weapon'",
                (*path, "weapon_type"),
            )
        values["weapon_type"] = data["weapon_type"]
    skills = data.get("skills", {})
    if not isinstance(skills, Mapping):
        raise ScenarioError("skills is a mapping of skill to level", (*path, "skills"))
    for skill, level in skills.items():
        try:
            skill_attribute(str(skill))
        except RuleError as error:
            raise ScenarioError(error.reason, (*path, "skills", str(skill))) from None
        if isinstance(level, bool) or not isinstance(level, int):
            raise ScenarioError(
                f"expected a whole number, not {level!r}", (*path, "skills", str(skill))
            )
    values["skills"] = {str(k): int(v) for k, v in skills.items()}
    if len({k.lower() for k in values["skills"]}) != len(values["skills"]):
        raise ScenarioError("a skill is named twice (names ignore case)", (*path, "skills"))
    if values.get("max_lift", 100) <= 0:
        raise ScenarioError("max_lift must be positive", (*path, "max_lift"))
    stamina = values.get("stamina", 10)
    if stamina < 1:
        raise ScenarioError(
            f"stamina (hits of Stamina) is at least 1, not {stamina}", (*path, "stamina")
        )
    if "hits" in values and not 0 <= values["hits"] <= stamina:
        raise ScenarioError(
            f"hits left are 0 to stamina ({stamina}), not {values['hits']}", (*path, "hits")
        )
    for key in ("load", "weapon"):
        if values.get(key, 0) < 0:
            raise ScenarioError(f"{key} cannot be negative ({values[key]})", (*path, key))
    mount = values.get("mount", 0)
    if mount and not 20 <= mount <= 40:
        raise ScenarioError(
            f"a horse rides 20 to 40 yards an action, not {mount} (0: no mount)", (*path, "mount")
        )
    if values.get("mounted") and not mount:
        raise ScenarioError(
            "mounted on no horse: give the horse's yards (mount: 20 to 40)", (*path, "mounted")
        )
    if values.get("mounted") and values.get("prone"):
        raise ScenarioError("a rider is not lying prone", (*path, "prone"))
    return Character(name, **values)
