"""The setup of a Zweihänder table, as a model: unknown keys refused with their path.

A setup names the ``characters`` (each a sheet of entered numbers: see
:class:`~referee.systems.zweihander.character.Character`), the party's ``fortune_points``, the
players' character ``stables``, and optionally a ``journey`` under way from the start (a route:
travellers and Stretches).

>>> check({"characters": {"anna": {"skills": {"Charm": 50}}}, "fortune_points": 2})
>>> check({"characters": {"anna": {"skils": {"Charm": 50}}}})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: characters.anna.skils: Extra inputs are not permitted
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.core import ScenarioError
from referee.systems.zweihander.wilderness import RouteParams

__all__ = ["CharacterSheet", "Setup", "check"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class CharacterSheet(_Model):
    """A character's sheet: Base Chances (``skills``), Skill ``ranks``, Bonuses ([AB], [BB] …),
    the Peril and Damage Condition Tracks (a step or its name), and the house rules' pools."""

    skills: dict[str, int] = {}
    ranks: dict[str, int] = {}
    bonuses: dict[str, int] = {}
    initiative: int | None = None
    peril_threshold: int | None = None
    encumbrance_overage: int = 0
    peril: int | str = 0
    damage: int | str = 0
    fate_points: int = 1
    reputation: int = 1
    order_ranks: int = 0
    chaos_ranks: int = 0
    permanent_order_ranks: int = 0
    permanent_chaos_ranks: int = 0
    corruption: int = 0
    disorders: list[str] = []
    reward_points: int = 0
    social_class: str = ""
    daemon_expert: bool = False
    npc: bool = False


class Setup(_Model):
    """A table's setup."""

    characters: dict[str, CharacterSheet | None] = {}
    fortune_points: int = Field(default=0, ge=0)
    stables: dict[str, list[str]] = {}
    journey: RouteParams | None = None


_UNION_TAGS = frozenset({"int", "str", "CharacterSheet", "list[str]", "dict[str,int]"})


def check(setup: Any) -> None:
    """Refuse a setup of the wrong shape: :class:`ScenarioError` with the path to the field."""
    if not isinstance(setup, dict):
        raise ScenarioError(f"a setup is a mapping of fields, not {type(setup).__name__}")
    try:
        Setup.model_validate(setup)
    except ValidationError as error:
        first = error.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "Extra inputs are not permitted"
        loc = tuple(p for p in first["loc"] if p not in _UNION_TAGS)
        raise ScenarioError(message, loc) from None
