"""The set-up of a chronicle as a model: every key in the text's words, unknown keys refused
with their path ("Territorial Conquest", "Faction Leaders", "Prologues").

The model checks the shape; :func:`.chronicle.faction_from` and the sheets check the text's
limits (5 to 10 lifepaths, caps, Seconds in Command). :func:`check_setup` is what both the
registry (``SYSTEM.setup_model``) and the procedure's ``initial_state`` apply, so a setup of the
wrong shape is a :class:`~referee.core.ScenarioError` naming its path, never a traceback.

>>> check_setup({"factions": {"elves": {"disposition": 9, "leader": {"name": "Aeluin"}}}})
>>> check_setup({"factions": {"elves": {"dispositon": 9, "leader": {}}}})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: factions.elves.dispositon: Extra inputs are not permitted
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from referee.core import ScenarioError

__all__ = [
    "AbilityObject",
    "DispositionAnswersModel",
    "DispositionFile",
    "FactionSetup",
    "KingdomsSetup",
    "SheetSetup",
    "check_disposition_file",
    "check_setup",
]


class _StrictModel(BaseModel):
    """A set-up part: no field the model does not know, and immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class AbilityObject(_StrictModel):
    """An ability written out: ``{shade: G, exponent: 5, open_ended: true}``."""

    shade: str = "B"
    exponent: StrictInt = Field(ge=0, le=20)
    open_ended: StrictBool = False


class OpenAbility(_StrictModel):
    """An ability as a table record shows an open-ended one: ``{ability: B5, open_ended: true}``."""

    ability: str
    open_ended: StrictBool = False


Ability = str | AbilityObject | OpenAbility
"""``"B6"``, or an ability written out."""


class Relationship(_StrictModel):
    """A relationship ("Mandatory Relationships", "Rival Relationships")."""

    name: str
    faction: str
    inimical: StrictBool = True


class Artha(_StrictModel):
    """Fate, Persona and Deeds points."""

    fate: StrictInt = Field(default=0, ge=0, le=99)
    persona: StrictInt = Field(default=0, ge=0, le=99)
    deeds: StrictInt = Field(default=0, ge=0, le=99)


class SheetSetup(_StrictModel):
    """A Faction Leader's or a Second in Command's sheet ("Faction Leaders")."""

    name: str | None = None
    lifepaths: StrictInt | None = Field(default=None, ge=0, le=99)
    stats: dict[str, Ability] = Field(default_factory=dict)
    skills: dict[str, Ability] = Field(default_factory=dict)
    artha: Artha | None = None
    resources: StrictInt = Field(default=0, ge=0, le=99)
    circles: StrictInt = Field(default=0, ge=0, le=99)
    cash_on_hand: StrictInt = Field(default=0, ge=0, le=99)
    affiliations: dict[str, StrictInt] = Field(default_factory=dict)
    wound_dice: StrictInt = Field(default=0, ge=0, le=99)
    superficial: StrictBool = False
    relationships: list[Relationship] = Field(default_factory=list)
    burned_up: StrictBool = True


class DispositionAnswersModel(_StrictModel):
    """The answers of "Territorial Conquest", Steps One to Seven."""

    territorial_relation: str
    lifepath_settings: StrictInt = Field(ge=0, le=99)
    sub_settings: StrictInt = Field(default=0, ge=0, le=99)
    mechanical_aptitude: str
    mystical_abilities: StrictInt | str | list[str] | None = None
    population_density: str
    population_growth: str
    political_placement: str


class FactionSetup(_StrictModel):
    """A faction in seat order: its leader (and 2iC), disposition (a number or the builder's
    answers), players, objective and statuses earned in earlier maneuvers."""

    name: str | None = None
    leader: SheetSetup
    second: SheetSetup | None = None
    players: list[str] = Field(default_factory=list)
    disposition: StrictInt | DispositionAnswersModel
    objective: str = ""
    assessed: list[str] = Field(default_factory=list)
    infiltrated: dict[str, StrictInt] = Field(default_factory=dict)
    sapped: StrictInt = Field(default=0, ge=0, le=99)
    cannot_act: StrictBool = False


class KingdomsSetup(_StrictModel):
    """A chronicle's set-up: the territory, the factions in seat order (clockwise) and the
    table's options.

    ``prologue``: play the Prologue first; ``players``: how many players (when not one per
    faction); ``maneuver``: the maneuver number to start at; ``cap``: the highest starting
    disposition (default: the highest given); ``maintenance_ob``: a Resources maintenance
    test's Ob; ``strict_sheets``: require a 2iC and two rivals (the text's "Mandatory
    Relationships", on unless ``false``: quick play, noted when the chronicle begins);
    ``attacked_first_fulfils``: the
    optional rule of "Conflict Scenes".
    """

    territory: str = ""
    factions: dict[str, FactionSetup] = Field(min_length=1)
    prologue: StrictBool = False
    players: StrictInt | None = Field(default=None, ge=1, le=99)
    maneuver: StrictInt = Field(default=1, ge=1, le=10_000)
    cap: StrictInt | None = Field(default=None, ge=0, le=10_000)
    maintenance_ob: StrictInt = Field(default=1, ge=0, le=99)
    strict_sheets: StrictBool = True
    attacked_first_fulfils: StrictBool = True


_MODELS = {"AbilityObject", "OpenAbility", "DispositionAnswersModel"}
_SCALARS = {"str", "int", "list[str]", "none"}


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def _refusal(errors: list[Any], setup: Any) -> ScenarioError:
    """The clearest of pydantic's errors: inside a union (an ability, a disposition) the
    branch that matches the value's shape."""
    first = errors[0]
    loc = tuple(first["loc"])
    tag = next((i for i, p in enumerate(loc) if p in _MODELS | _SCALARS), None)
    if tag is None:
        return ScenarioError(str(first["msg"]).removeprefix("Value error, "), loc)
    where = loc[:tag]
    value = _at(setup, where)
    if isinstance(value, dict):
        # an ability's mapping is one of two shapes: refuse it as the shape it has, not as
        # the other shape's unknown fields
        ability = len(where) > 1 and where[-2] in ("skills", "stats")
        wanted = "OpenAbility" if "ability" in value else "AbilityObject" if ability else None
        for error in errors:
            eloc = tuple(error["loc"])
            branch = eloc[tag] if len(eloc) > tag and eloc[:tag] == where else None
            if branch in _MODELS and (wanted is None or branch == wanted):
                return ScenarioError(str(error["msg"]), where + eloc[tag + 1 :])
    if "disposition" in where:
        return ScenarioError("a disposition: a number or the builder's answers", where)
    if "skills" in where or "stats" in where:
        return ScenarioError(f"{value!r} is not an ability like 'B6'", where)
    return ScenarioError(str(first["msg"]), where)


class DispositionFile(_StrictModel):
    """A file of the disposition builder's answers: ``factions: {id: answers}``, ``players``."""

    factions: dict[str, DispositionAnswersModel] = Field(min_length=1, max_length=50)
    players: StrictInt | None = Field(default=None, ge=1, le=99)


def check_disposition_file(data: Any) -> None:
    """Refuse a builder's file of the wrong shape, naming the first bad path."""
    if not isinstance(data, Mapping):
        raise ScenarioError("needs 'factions:' with each faction's answers")
    try:
        DispositionFile.model_validate(dict(data))
    except ValidationError as error:
        errors = sorted(error.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise _refusal(errors, dict(data)) from None


def check_setup(setup: Any) -> None:
    """Refuse a setup of the wrong shape: :class:`ScenarioError` naming the first bad path."""
    if not isinstance(setup, Mapping):
        raise ScenarioError(f"a setup is a mapping of fields, not {type(setup).__name__}")
    try:
        KingdomsSetup.model_validate(dict(setup))
    except ValidationError as error:
        errors = sorted(error.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise _refusal(errors, dict(setup)) from None
