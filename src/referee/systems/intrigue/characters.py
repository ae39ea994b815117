"""Characters: the badge, the skills, the special abilities, the languages and the stats.

Rules text (Intrigue in the Clouds), "Character Badges", "Statistics (Stats)", "Languages",
"Other Skills and Special Abilities", "Mental Combat".

>>> scarface = Character("scarface", "ScarFace", "15", combat=2, strength=2, stamina=5, mind=1,
...                      items=(Item("knife", damage=3),))
>>> scarface.wounds, scarface.skill("Perception"), scarface.item("knife").damage
(5, 0, 3)
>>> scarface.can_follow("English"), scarface.can_follow("French")
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypeAlias

__all__ = [
    "ENGLISH",
    "MEDICINE",
    "PERCEPTION",
    "Ability",
    "Character",
    "CharacterId",
    "Item",
    "is_character_number",
]

CharacterId: TypeAlias = str
"""A character's id in the game file (``scarface``); it is also the character's viewer id."""

PERCEPTION = "Perception"
"""The skill every character has ("Perception Envelopes": "All characters also have the
Perception Skill")."""

MEDICINE = "Medicine"
"""The skill that wakes a Knocked Out character ("Taking Damage")."""

ENGLISH = "English"
""""Every player in the game speaks English, unless they are told otherwise" ("Languages")."""

_NUMBER = re.compile(r"^\d\d$")


def is_character_number(text: str) -> bool:
    """True for a Character Number: "A two digit number" ("Character Badges").

    >>> is_character_number("07"), is_character_number("7"), is_character_number("153")
    (True, False, False)
    """
    return bool(_NUMBER.match(text))


@dataclass(frozen=True)
class Item:
    """An Item Card: a weapon states "the amount of damage done" ("Doing Damage").

    ``damage`` is ``None`` for an item that is not a weapon; ``gun``: the card is a gun's ("Doing
    Damage": "Guns are treated in exactly the same way"), so a hit with it is being shot ("Open
    if shot", "Contingency Envelopes").
    """

    name: str
    damage: int | None = None
    description: str = ""
    gun: bool = False


@dataclass(frozen=True)
class Ability:
    """A Special Ability as written on the character sheet ("Other Skills and Special Abilities").

    Every ability is described text; the optional mechanics are those of "Mental Combat":

    - ``mental``: the ability attacks in Mental Combat (Mind replaces Combat);
    - ``target``: a set Target Number instead of the target's Mind + 10;
    - ``damage``: the damage it does when it succeeds (0: a subtler effect);
    - ``obvious``: whether it is an obvious mental attack, declared like combat ("Mixing Mental
      and Normal Combat"), or unnoticed, resolved to one side with no declaration ("Unless the
      Special Ability states otherwise ... not noticeable by anyone"); by default, obvious when
      it does damage (RULINGS.md, Round 3);
    - ``in_combat``: whether it may be used during normal combat;
    - ``dodgeable``: whether a Defensive Action counts against it (the referee's discretion;
      by default: when it does physical damage);
    - ``value``: a skill value to add to 3d6, if it has one ("Skill Rolls": "some special
      abilities do not have a skill value, so you simply roll 3d6");
    - ``effect``: what a success does, told to the two characters.
    """

    name: str
    description: str = ""
    mental: bool = False
    target: int | None = None
    damage: int = 0
    obvious: bool | None = None
    in_combat: bool = True
    dodgeable: bool | None = None
    value: int | None = None
    effect: str = ""

    @property
    def can_be_dodged(self) -> bool:
        """True when a Defensive Action adds its +3 against this ability.

        "Normally, it's not possible to dodge a mental attack, but since this attack does actual
        physical damage, the referee allows ScarFace his +3 bonus for dodging."
        """
        return self.dodgeable if self.dodgeable is not None else self.damage > 0

    @property
    def is_obvious(self) -> bool:
        """True when using it is an obvious mental attack, declared as a combat.

        "Unless the Special Ability states otherwise, Mental Combat requires no movement and is
        not noticeable by anyone"; "some of them are more violent and obvious": a damaging
        ability is obvious unless its card says ``obvious: false`` (RULINGS.md, Round 3).
        """
        return self.obvious if self.obvious is not None else self.damage > 0


@dataclass(frozen=True)
class Character:
    """A character: badge (name and two-digit number), skills, abilities, languages and stats.

    ``wounds`` is the Wounds stat: "All characters start with the same number of wounds as their
    Stamina Stat" (it is set to ``stamina`` unless given). ``speaks_english`` is ``False`` only
    for a character who has been "told otherwise". Skills are ``(name, value)`` pairs.
    """

    id: CharacterId
    name: str
    number: str
    combat: int = 1
    strength: int = 1
    stamina: int = 6
    mind: int = 1
    wounds: int = -1
    skills: tuple[tuple[str, int], ...] = ()
    abilities: tuple[Ability, ...] = ()
    languages: tuple[str, ...] = ()
    speaks_english: bool = True
    items: tuple[Item, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.wounds < 0:
            object.__setattr__(self, "wounds", self.stamina)

    def skill(self, name: str) -> int:
        """The value of skill ``name`` (0 if the sheet does not list it; case-insensitive)."""
        for skill, value in self.skills:
            if skill.casefold() == name.casefold():
                return value
        return 0

    def has_skill(self, name: str) -> bool:
        """True if the sheet lists skill ``name``."""
        return any(skill.casefold() == name.casefold() for skill, _ in self.skills)

    def ability(self, name: str) -> Ability | None:
        """The Special Ability called ``name`` (case-insensitive), if the character has it."""
        for ability in self.abilities:
            if ability.name.casefold() == name.casefold():
                return ability
        return None

    def item(self, name: str) -> Item | None:
        """The Item Card called ``name`` (case-insensitive), if the character has it."""
        for item in self.items:
            if item.name.casefold() == name.casefold():
                return item
        return None

    @property
    def spoken(self) -> frozenset[str]:
        """Every language the character understands, English included unless told otherwise."""
        known = {language.casefold() for language in self.languages}
        if self.speaks_english:
            known.add(ENGLISH.casefold())
        return frozenset(known)

    def can_follow(self, language: str) -> bool:
        """True if the character understands ``language`` ("Languages")."""
        return language.casefold() in self.spoken

    @property
    def has_mental_ability(self) -> bool:
        """True if some Special Ability permits Mental Combat ("Mental Combat")."""
        return any(ability.mental for ability in self.abilities)

    @property
    def badge(self) -> str:
        """The badge as worn: the name (which may be an alias) and the number."""
        return f"{self.name} [{self.number}]"
