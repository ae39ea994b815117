"""Philosophy and Magia (Gin Lane, "Philosophy", "The Sephirot", "Magia", "How you do magic",
"Society").

A Philosopher needs an Aspect in the Sephira they wish to manipulate ("Magia"), and the ritual
skill of that Sephira ("Occult Philosophy (choice:)": *the nine skills of sephirotic ritual
magic*; Kether is *too pure for mortal ritual to control*). A ritual takes hours and makes a
charm that holds its effect until needed ("How you do magic"). Long rituals risk interruption
unless worked in a Place of Art (or, less surely, a place of Residence) ("Society").

>>> sheet = Character.build("Dee", aspects=["Adept of Hod"],
...                         skills={"Occult Philosophy: Hod": 1})
>>> can_practise(sheet, "Hod"), ritual_skill("Hod")
(True, 'Occult Philosophy: Hod')
>>> interruption_risk(["Labouritorium in Clerkenwell"])
'protected'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from referee.core import RuleError
from referee.systems.ginlane.character import Character
from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll, TagMode
from referee.systems.ginlane.tables import Sephira, sephirot

__all__ = [
    "PLACE_OF_ART_WORDS",
    "RESIDENCE_WORDS",
    "Charm",
    "Ritual",
    "can_practise",
    "interruption_risk",
    "philosophy_aspect",
    "ritual_skill",
    "sephira",
]

PLACE_OF_ART_WORDS = ("place of art", "labouritorium", "laboratorium", "sanctum")
"""Aspects that make a ritual's home ground: "a Place of Art, Labouritorium, or Sanctum"."""

RESIDENCE_WORDS = ("residence", "lodgings", "house")
"""Aspects of "a specific place of Residence": some protection, less than a Place of Art."""


def sephira(name: str) -> Sephira:
    """A Sephira by name (any case) or number.

    >>> sephira("malkuth").path, sephira("1").name
    ('Nature', 'Kether')
    """
    key = name.strip().lower()
    for s in sephirot():
        if s.name.lower() == key or str(s.number) == key:
            return s
    raise RuleError("The Sephirot", f"no Sephira {name!r}")


def ritual_skill(name: str) -> str:
    """The Occult Philosophy skill of a Sephira; Kether has none (beyond mortal ritual)."""
    s = sephira(name)
    if not s.ritual:
        raise RuleError("The Sephirot", f"{s.name} is too pure for mortal ritual to control")
    return f"Occult Philosophy: {s.name}"


def philosophy_aspect(character: Character, name: str) -> str | None:
    """The character's Aspect in the Sephira (an Aspect naming it), if any ("Magia")."""
    s = sephira(name)
    word = re.compile(rf"\b{re.escape(s.name)}\b", re.IGNORECASE)
    for aspect in character.all_aspects:
        if word.search(aspect):
            return aspect
    return None


def can_practise(character: Character, name: str) -> bool:
    """True if the character has the Sephira's Aspect and its ritual skill."""
    s = sephira(name)
    if not s.ritual:
        return False
    has_skill = character.level(ritual_skill(s.name)) is not None
    return has_skill and philosophy_aspect(character, s.name) is not None


def interruption_risk(aspects: Iterable[str]) -> str:
    """The Matter of Interruptions: ``protected`` in a Place of Art, ``reduced`` at a place of
    Residence, else ``exposed`` (Rulings: the text gives no numbers; the referee decides)."""
    names = list(aspects)

    def names_one(words: Iterable[str]) -> bool:
        return any(
            re.search(rf"\b{re.escape(w)}\b", a, re.IGNORECASE) for a in names for w in words
        )

    if names_one(PLACE_OF_ART_WORDS):
        return "protected"
    if names_one(RESIDENCE_WORDS):
        return "reduced"
    return "exposed"


@dataclass(frozen=True)
class Charm:
    """A charm: the effect a ritual holds until it is needed ("How you do magic")."""

    sephira: str
    effect: str
    maker: str
    strength: int


@dataclass(frozen=True)
class Ritual:
    """A ritual: a Philosopher works a Sephira's path for ``hours`` against a difficulty.

    The roll is 2d6 + the Sephira's ritual skill (tags allowed), beating the difficulty makes a
    :class:`Charm` whose strength is the margin (Rulings).
    """

    philosopher: Character
    sephira: str
    effect: str
    difficulty: int
    hours: int = 1

    def check(self, tags: int = 0, mode: TagMode = TagMode.EXTRA_DIE) -> DifficultyCheck:
        """The ritual's check; :class:`RuleError` if the Philosopher cannot practise it."""
        s = sephira(self.sephira)
        if not can_practise(self.philosopher, s.name):
            raise RuleError(
                "Magia",
                f"{self.philosopher.name} needs an Aspect in {s.name} and {ritual_skill(s.name)}",
            )
        level = self.philosopher.level(ritual_skill(s.name)) or 0
        return DifficultyCheck(GinLaneRoll(level, tags=tags, mode=mode), self.difficulty)

    def charm(self, margin: int) -> Charm | None:
        """The charm made by a roll of this margin (none unless the difficulty is beaten)."""
        if margin <= 0:
            return None
        return Charm(sephira(self.sephira).name, self.effect, self.philosopher.name, margin)
