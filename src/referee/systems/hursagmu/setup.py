"""An encounter's setup: the characters and the Master's options (hursagmu-encounters.txt,
"Conflict", "Action", "Movement"; RULINGS.md, "Hursagmu encounters").

:class:`Setup` is the setup's model (its JSON Schema, unknown keys refused with their path);
:func:`encounter_from_setup` builds the :class:`~referee.systems.hursagmu.state.Encounter`,
refusing a bad setup with a :class:`~referee.core.ScenarioError` naming the field.

>>> encounter_from_setup({"characters": {"bob": {"dexterity": 2}}}).fighters["bob"].hits
10
>>> encounter_from_setup({"characters": {"bob": {}}, "optoins": {}})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: unknown field 'optoins'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.core import REFEREE, ScenarioError
from referee.systems.hursagmu.rounds import DefenceMode
from referee.systems.hursagmu.sheet import character_from_json
from referee.systems.hursagmu.state import Encounter, Fighter, Options

__all__ = ["CharacterSetup", "OptionsSetup", "Setup", "encounter_from_setup"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class CharacterSetup(_Strict):
    """A character sheet as the encounter rules use it (see
    :func:`~referee.systems.hursagmu.sheet.character_from_json`)."""

    dexterity: int = 0
    intelligence: int = 0
    strength: int = 0
    willpower: int = 0
    skills: dict[str, int] = Field(default_factory=dict)
    stamina: int = Field(10, ge=1)
    hits: int | None = Field(None, ge=0)
    health_ok: bool = True
    sanity_ok: bool = True
    max_lift: int = Field(100, ge=1)
    load: int = Field(0, ge=0)
    weapon: int = Field(0, ge=0)
    weapon_type: Literal["melee", "thrown weapon", "missile weapon"] = "melee"
    mount: int = Field(0, ge=0, le=40)
    prone: bool = False
    mounted: bool | None = None


class OptionsSetup(_Strict):
    """The Master's options: how defences count, the damage roll, charge momentum."""

    defence: Literal["each", "cinematic"] = "each"
    damage_roll: Literal["2d6", "1d6"] = "2d6"
    charge_momentum: bool = False


class Setup(_Strict):
    """An encounter's setup: ``characters`` by id, and ``options``."""

    characters: dict[str, CharacterSetup] = Field(min_length=1)
    options: OptionsSetup | None = None


def _options(data: Any) -> Options:
    if data is None:
        return Options()
    if not isinstance(data, Mapping):
        raise ScenarioError("options is a mapping", ("options",))
    unknown = set(data) - {"defence", "damage_roll", "charge_momentum"}
    if unknown:
        raise ScenarioError(f"unknown option {sorted(unknown)[0]!r}", ("options",))
    try:
        mode = DefenceMode(data.get("defence", "each"))
    except (ValueError, TypeError):
        raise ScenarioError("defence is 'each' or 'cinematic'", ("options", "defence")) from None
    dice = data.get("damage_roll", "2d6")
    if dice not in ("2d6", "1d6"):
        raise ScenarioError("damage_roll is '2d6' or '1d6'", ("options", "damage_roll"))
    momentum = data.get("charge_momentum", False)
    if not isinstance(momentum, bool):
        raise ScenarioError("charge_momentum is true or false", ("options", "charge_momentum"))
    return Options(mode, str(dice), momentum)


def encounter_from_setup(setup: Mapping[str, Any]) -> Encounter:
    """The encounter a setup describes; :class:`ScenarioError` with the path of a bad field."""
    if not isinstance(setup, Mapping):
        raise ScenarioError("a setup is a mapping of fields", ())
    unknown = set(setup) - {"characters", "options"}
    if unknown:
        raise ScenarioError(f"unknown field {sorted(map(str, unknown))[0]!r}", ())
    characters = setup.get("characters")
    if not isinstance(characters, Mapping) or not characters:
        raise ScenarioError("an encounter needs characters", ("characters",))
    fighters: dict[str, Fighter] = {}
    for name, data in characters.items():
        if not isinstance(name, str) or not name:
            raise ScenarioError("a character's id is a name", ("characters", str(name)))
        if name == REFEREE:
            raise ScenarioError("'referee' is the Master, not a character", ("characters", name))
        sheet = character_from_json(name, data, ("characters", name))
        hits = sheet.hits if sheet.hits is not None else sheet.stamina
        mounted = sheet.mount > 0 if sheet.mounted is None else sheet.mounted
        fighters[name] = Fighter(
            sheet,
            hits,
            conscious=hits > 0,
            health_ok=sheet.health_ok,
            sanity_ok=sheet.sanity_ok,
            prone=sheet.prone,
            mounted=mounted,
        )
    return Encounter(_options(setup.get("options")), fighters)
