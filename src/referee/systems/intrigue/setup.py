"""The shape of a game file (a scenario's ``setup:``), as a model: its JSON Schema, and unknown
keys refused with their path before :func:`~referee.systems.intrigue.game.load_game` reads it.

The field names are the text's words ("Character Badges", "Statistics (Stats)", "Perception
Envelopes", "Contingency Envelopes", "Languages"). ``load_game`` still checks what a schema
cannot (two-digit numbers, unique numbers and ids, one condition per envelope, clock times).

>>> GameSetup.model_validate({"characters": {"ann": {"number": 15, "stamna": 5}}})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for GameSetup
characters.ann.stamna
  Extra inputs are not permitted ...
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AbilitySheet",
    "CharacterSheet",
    "ContingencyEnvelopeSheet",
    "GameSetup",
    "ItemCard",
    "PerceptionEnvelopeSheet",
]


class _Sheet(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class AbilitySheet(_Sheet):
    """A Special Ability ("Other Skills and Special Abilities", "Mental Combat")."""

    description: str = ""
    mental: bool = False
    target: int | None = None
    damage: int = Field(default=0, ge=0)
    obvious: bool | None = None
    in_combat: bool = True
    dodgeable: bool | None = None
    value: int | None = None
    effect: str = ""


class ItemCard(_Sheet):
    """An Item Card; a weapon states "the amount of damage done" ("Doing Damage")."""

    damage: int | None = Field(default=None, ge=0)
    description: str = ""
    gun: bool = False


class PerceptionEnvelopeSheet(_Sheet):
    """ "Give to ALL with a Roll of 16 or more" or "Give to Character 12, 20 or 32, if they Roll
    14 or more"."""

    id: str | None = None
    to: str | int | list[str | int]
    target: int = Field(ge=0)
    contents: str
    directions: str = ""


class ContingencyEnvelopeSheet(_Sheet):
    """ "Open at nine o'clock", "Open if shot", "Open if you see / meet / talk to character 53":
    exactly one condition."""

    id: str | None = None
    contents: str
    at: str | int | None = None
    event: str | None = None
    see: str | int | None = None
    meet: str | int | None = None
    talk: str | int | None = None


class CharacterSheet(_Sheet):
    """A character: the badge's name and number, the Stats, skills, abilities, languages, items
    and envelopes."""

    name: str | None = None
    number: str | int
    combat: int = Field(default=1, ge=0)
    strength: int = Field(default=1, ge=0)
    stamina: int = Field(default=6, ge=1)
    wounds: int | None = Field(default=None, ge=1)
    mind: int = Field(default=1, ge=0)
    skills: dict[str, int] = Field(default_factory=dict)
    abilities: dict[str, AbilitySheet | None] = Field(default_factory=dict)
    languages: list[str] = Field(default_factory=list)
    speaks_english: bool = True
    items: dict[str, ItemCard | None] = Field(default_factory=dict)
    perception_envelopes: list[PerceptionEnvelopeSheet] = Field(default_factory=list)
    contingency_envelopes: list[ContingencyEnvelopeSheet] = Field(default_factory=list)


class GameSetup(_Sheet):
    """A game file: the wall clock at game time 0 and the cast, by character id."""

    start: str = "00:00"
    characters: dict[str, CharacterSheet] = Field(min_length=1)
