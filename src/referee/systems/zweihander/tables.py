"""The tables the house rules print, read from the data files beside this module and validated.

Every number the rules text prints in a table lives in a YAML file under ``data/``; this module
reads each file once (on first use), checks its shape and types, and returns frozen values.
A malformed file raises :class:`TableError` naming the file and the field.

>>> [r.name for r in difficulty_ladder()][:3]
['Trivial', 'Easy', 'Routine']
>>> movement_modes()["on foot"].modifier
3
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from referee.core import RefereeError

__all__ = [
    "DifficultyRating",
    "MilesPerDay",
    "MoraleCondition",
    "MovementMode",
    "Offence",
    "OffenceWeight",
    "RequisitionWeight",
    "RoleTable",
    "StretchLength",
    "TableError",
    "TakedownCondition",
    "TerrainStep",
    "ThreatLevel",
    "Withstanding",
    "difficulty_ladder",
    "disorders",
    "load",
    "madness_situations",
    "miles_per_day_table",
    "morale_conditions",
    "morale_results",
    "movement_modes",
    "offence_weights",
    "overland_rules",
    "requisition_weights",
    "role_tables",
    "social_table",
    "stretch_lengths",
    "takedown_conditions",
    "terrain_steps",
    "threat_levels",
    "toughness_results",
    "withstanding_table",
]

OUTCOME_KEYS = ("critical success", "success", "failure", "critical failure")


class TableError(RefereeError):
    """A data file that does not have the shape its table needs: names the file and field."""


def load(name: str) -> Any:
    """The parsed YAML of ``data/<name>.yaml`` (cached)."""
    return _load(name)


@functools.cache
def _load(name: str) -> Any:
    import yaml

    text = resources.files(__package__).joinpath("data", f"{name}.yaml").read_text("utf-8")
    return yaml.safe_load(text)


def _get(data: Any, key: str | int, where: str, kind: type | tuple[type, ...]) -> Any:
    try:
        value = data[key]
    except (KeyError, IndexError, TypeError):
        raise TableError(f"{where}: missing {key!r}") from None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise TableError(f"{where}.{key}: expected {kind}, found {value!r}")
    return value


def _rows(file: str, key: str) -> Iterator[tuple[str, Any]]:
    """Each row of the list ``key`` in ``data/<file>.yaml``, with its path for messages."""
    for i, row in enumerate(_get(load(file), key, f"{file}.yaml", list)):
        yield f"{file}.yaml.{key}.{i}", row


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise TableError(f"{where}: expected a list of texts, found {value!r}")
    return tuple(value)


def _range(value: Any, where: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) for v in value)
        or value[0] > value[1]
    ):
        raise TableError(f"{where}: expected [low, high], found {value!r}")
    return (value[0], value[1])


# ------------------------------------------------------------------------------ difficulty


@dataclass(frozen=True)
class DifficultyRating:
    """One step of the Difficulty Rating ladder: its name and modifier (parent-games.md)."""

    name: str
    modifier: int


@functools.cache
def difficulty_ladder() -> tuple[DifficultyRating, ...]:
    """The seven Difficulty Ratings, easiest (Trivial +30) to hardest (Arduous −30)."""
    ladder = tuple(
        DifficultyRating(_get(r, "name", where, str), _get(r, "modifier", where, int))
        for where, r in _rows("difficulty", "ratings")
    )
    mods = [r.modifier for r in ladder]
    if mods != sorted(mods, reverse=True) or len(ladder) != 7:
        raise TableError("difficulty.yaml.ratings: seven ratings, easiest first")
    return ladder


# ------------------------------------------------------------------------------ morale


@dataclass(frozen=True)
class MoraleCondition:
    """A row of the morale condition table: its key, the text's words, the Resolve modifier."""

    key: str
    condition: str
    modifier: int


@functools.cache
def morale_conditions() -> Mapping[str, MoraleCondition]:
    """Morale check conditions by key (house rules, "Morale checks")."""
    out: dict[str, MoraleCondition] = {}
    for where, r in _rows("morale", "conditions"):
        row = MoraleCondition(
            _get(r, "key", where, str),
            _get(r, "condition", where, str),
            _get(r, "modifier", where, int),
        )
        out[row.key] = row
    return out


@functools.cache
def morale_results() -> Mapping[str, str]:
    """What each Resolve result means for the foes, by outcome name."""
    data = _get(load("morale"), "results", "morale.yaml", dict)
    return {k: _get(data, k, "morale.yaml.results", str) for k in OUTCOME_KEYS}


# ------------------------------------------------------------------------------ chase


@dataclass(frozen=True)
class MovementMode:
    """A mode of transport in a chase: Movement = [bonus] + modifier, at least ``minimum``."""

    mode: str
    bonus: str
    modifier: int
    minimum: int | None


@functools.cache
def movement_modes() -> Mapping[str, MovementMode]:
    """The chase Movement table by mode (house rules, "Chase scene rules")."""
    out: dict[str, MovementMode] = {}
    for where, r in _rows("chase", "movement"):
        bonus = _get(r, "bonus", where, str)
        if bonus not in ("AB", "BB"):
            raise TableError(f"{where}.bonus: AB or BB, not {bonus!r}")
        minimum = r.get("minimum")
        if minimum is not None and not isinstance(minimum, int):
            raise TableError(f"{where}.minimum: an integer or null, not {minimum!r}")
        mode = MovementMode(
            _get(r, "mode", where, str), bonus, _get(r, "modifier", where, int), minimum
        )
        out[mode.mode] = mode
    return out


@dataclass(frozen=True)
class TakedownCondition:
    """A row of the Takedown Coordination Test difficulty table."""

    difficulty: str
    modifier: int
    condition: str


@functools.cache
def takedown_conditions() -> tuple[TakedownCondition, ...]:
    """The Coordination Test difficulty table for Takedowns, easiest first."""
    out = []
    for where, r in _rows("chase", "takedown"):
        out.append(
            TakedownCondition(
                _get(r, "difficulty", where, str),
                _get(r, "modifier", where, int),
                _get(r, "condition", where, str),
            )
        )
    return tuple(out)


# ------------------------------------------------------------------------------ overland


@dataclass(frozen=True)
class MilesPerDay:
    """A row of the overland Distance table: miles per day by route, ``None`` where "-"."""

    transport: str
    road: int | None
    path: int | None
    river: int | None
    sea: int | None

    def on(self, route: str) -> int | None:
        """Miles per day on ``route`` (road, path, river, sea)."""
        value: int | None = getattr(self, route)
        return value


ROUTES = ("road", "path", "river", "sea")


@functools.cache
def miles_per_day_table() -> tuple[MilesPerDay, ...]:
    """The overland Distance table (house rules, "Overland exploration")."""
    data = load("overland")
    if _get(data, "columns", "overland.yaml", list) != list(ROUTES):
        raise TableError(f"overland.yaml.columns: expected {list(ROUTES)}")
    rows = []
    for i, r in enumerate(_get(data, "rows", "overland.yaml", list)):
        where = f"overland.yaml.rows.{i}"
        cells = []
        for col in ROUTES:
            v = r.get(col, "absent") if isinstance(r, dict) else "absent"
            if v is not None and (not isinstance(v, int) or v <= 0):
                raise TableError(f"{where}.{col}: a positive number of miles or null, not {v!r}")
            cells.append(v)
        rows.append(MilesPerDay(_get(r, "transport", where, str), *cells))
    return tuple(rows)


@functools.cache
def overland_rules() -> Mapping[str, int]:
    """Forced march, waterways and bad weather adjustments, in miles (and the 24 hours)."""
    data = load("overland")
    fm = _get(data, "forced_march", "overland.yaml", dict)
    ww = _get(data, "waterways", "overland.yaml", dict)
    bw = _get(data, "bad_weather", "overland.yaml", dict)
    if _get(fm, "difficulty", "overland.yaml.forced_march", str) != "Hard":
        raise TableError("overland.yaml.forced_march.difficulty: the text says Hard")
    return {
        "forced_march": _get(fm, "miles", "overland.yaml.forced_march", int),
        "forced_march_recovery_hours": _get(
            fm, "recovery_hours", "overland.yaml.forced_march", int
        ),
        "downstream": _get(ww, "downstream_or_good_winds", "overland.yaml.waterways", int),
        "upstream": _get(ww, "upstream", "overland.yaml.waterways", int),
        "bad_weather": _get(bw, "miles", "overland.yaml.bad_weather", int),
    }


# ------------------------------------------------------------------------------ wilderness


@dataclass(frozen=True)
class StretchLength:
    """A Stretch length: its name, the text's duration, and how many Toughness Tests it asks."""

    length: str
    duration: str
    toughness_tests: int


@functools.cache
def stretch_lengths() -> Mapping[str, StretchLength]:
    """Short, medium and long Stretches."""
    out: dict[str, StretchLength] = {}
    for where, r in _rows("wilderness", "stretches"):
        s = StretchLength(
            _get(r, "length", where, str),
            _get(r, "duration", where, str),
            _get(r, "toughness_tests", where, int),
        )
        out[s.length] = s
    return out


@dataclass(frozen=True)
class TerrainStep:
    """A terrain step: its Difficulty Rating and the terrains the text lists under it."""

    difficulty: str
    modifier: int
    terrains: tuple[str, ...]


@functools.cache
def terrain_steps() -> tuple[TerrainStep, ...]:
    """The seven terrain steps, hardest (Arduous) first, as the text lists them."""
    out = []
    for where, r in _rows("wilderness", "terrain"):
        out.append(
            TerrainStep(
                _get(r, "difficulty", where, str),
                _get(r, "modifier", where, int),
                _strings(r.get("terrains"), f"{where}.terrains"),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class ThreatLevel:
    """A Threat Level and the Chaos Dice it rolls."""

    level: str
    chaos_dice: int


@functools.cache
def threat_levels() -> tuple[ThreatLevel, ...]:
    """No Danger (0 Chaos Dice) to Highly Dangerous (3)."""
    out = []
    for where, r in _rows("wilderness", "threat"):
        out.append(ThreatLevel(_get(r, "level", where, str), _get(r, "chaos_dice", where, int)))
    if [t.chaos_dice for t in out] != list(range(len(out))):
        raise TableError("wilderness.yaml.threat: Chaos Dice 0, 1, 2, 3 in order")
    return tuple(out)


@dataclass(frozen=True)
class RoleTable:
    """A travel Role, its Skill, and the text's words for each result of its Role Check."""

    role: str
    skill: str
    results: Mapping[str, str]


@functools.cache
def role_tables() -> tuple[RoleTable, ...]:
    """Guide, Survivalist, Scout: in the order their checks are made."""
    out = []
    for where, r in _rows("wilderness", "roles"):
        out.append(
            RoleTable(
                _get(r, "role", where, str),
                _get(r, "skill", where, str),
                {k: _get(r, k, where, str) for k in OUTCOME_KEYS},
            )
        )
    return tuple(out)


@functools.cache
def toughness_results() -> Mapping[str, str]:
    """The travel Toughness Test results, and the Peril dice for failure and critical failure."""
    data = load("wilderness")
    words = _get(data, "toughness", "wilderness.yaml", dict)
    peril = _get(data, "peril", "wilderness.yaml", dict)
    out = {k: _get(words, k, "wilderness.yaml.toughness", str) for k in OUTCOME_KEYS}
    out["failure peril"] = _get(peril, "failure", "wilderness.yaml.peril", str)
    out["critical failure peril"] = _get(peril, "critical failure", "wilderness.yaml.peril", str)
    return out


# ------------------------------------------------------------------------------ reputation


@dataclass(frozen=True)
class RequisitionWeight:
    """Minor, middling or major requisitions: cost range, how often, and the text's examples."""

    weight: str
    cost: tuple[int, int]
    threshold: str
    examples: tuple[str, ...]


@functools.cache
def requisition_weights() -> Mapping[str, RequisitionWeight]:
    """Requisitions by weight (house rules, "Reputation points")."""
    out: dict[str, RequisitionWeight] = {}
    for where, r in _rows("requisitions", "weights"):
        threshold = _get(r, "threshold", where, str)
        if threshold not in ("day", "week", "month"):
            raise TableError(f"{where}.threshold: day, week or month, not {threshold!r}")
        w = RequisitionWeight(
            _get(r, "weight", where, str),
            _range(r.get("cost"), f"{where}.cost"),
            threshold,
            _strings(r.get("examples"), f"{where}.examples"),
        )
        out[w.weight] = w
    return out


# ------------------------------------------------------------------------------ social


@functools.cache
def social_table() -> Mapping[str, Any]:
    """The Social Intrigue tables: simple exchange difficulties, tactics, dispositions, outcomes.

    Validated: every alignment × rank × class cell names a Difficulty Rating; every tactic has
    one outcome per disposition in both the success and the failure table.
    """
    data = load("social")
    names = {r.name for r in difficulty_ladder()}
    simple = _get(data, "simple_exchange", "social.yaml", dict)
    for npc in ("order", "chaos"):
        for ranks in ("order higher", "chaos higher", "equal"):
            for cls in ("same class", "different class"):
                where = f"social.yaml.simple_exchange.{npc}.{ranks}"
                cell = _get(
                    _get(
                        _get(simple, npc, "social.yaml.simple_exchange", dict),
                        ranks,
                        f"social.yaml.simple_exchange.{npc}",
                        dict,
                    ),
                    cls,
                    where,
                    str,
                )
                if cell not in names:
                    raise TableError(f"{where}.{cls}: not a Difficulty Rating: {cell!r}")
    tactics = _strings(data.get("tactics"), "social.yaml.tactics")
    dispositions = _strings(data.get("dispositions"), "social.yaml.dispositions")
    for table in ("success", "failure"):
        rows = _get(data, table, "social.yaml", dict)
        for tactic in tactics:
            cells = _strings(rows.get(tactic), f"social.yaml.{table}.{tactic}")
            if len(cells) != len(dispositions):
                raise TableError(f"social.yaml.{table}.{tactic}: one cell per disposition")
    _get(data, "critical_failure_peril", "social.yaml", str)
    return dict(data)


# ------------------------------------------------------------------------------ madness


@dataclass(frozen=True)
class Withstanding:
    """A row of "Withstanding madness": Resolve modifier, mental Peril dice, Corruption."""

    situation: str
    resolve_modifier: int
    mental_peril: str
    corruption: int


@functools.cache
def withstanding_table() -> Mapping[str, Withstanding]:
    """Stress, Fear and Terror by name."""
    out: dict[str, Withstanding] = {}
    for where, r in _rows("madness", "withstanding"):
        w = Withstanding(
            _get(r, "situation", where, str),
            _get(r, "resolve_modifier", where, int),
            _get(r, "mental_peril", where, str),
            _get(r, "corruption", where, int),
        )
        out[w.situation] = w
    return out


@functools.cache
def madness_situations() -> tuple[str, ...]:
    """The text's situations that call for Stress, Fear or Terror, in its order."""
    return _strings(load("madness").get("situations"), "madness.yaml.situations")


@dataclass(frozen=True)
class Offence:
    """An offence the text lists, with its Corruption points where printed."""

    offence: str
    points: tuple[int, int] | None
    per: str | None = None


@dataclass(frozen=True)
class OffenceWeight:
    """Minor (1–3), middling (4–6) or major (7–9) offences."""

    weight: str
    points: tuple[int, int]
    examples: tuple[Offence, ...]


@functools.cache
def offence_weights() -> Mapping[str, OffenceWeight]:
    """Offences by weight (house rules, "Corruption")."""
    out: dict[str, OffenceWeight] = {}
    for where, r in _rows("corruption", "offences"):
        examples = []
        for j, e in enumerate(_get(r, "examples", where, list)):
            pts = e.get("points")
            if isinstance(pts, int):
                pts_range: tuple[int, int] | None = (pts, pts)
            elif pts is None:
                pts_range = None
            else:
                pts_range = _range(pts, f"{where}.examples.{j}.points")
            examples.append(
                Offence(_get(e, "offence", f"{where}.examples.{j}", str), pts_range, e.get("per"))
            )
        w = OffenceWeight(
            _get(r, "weight", where, str),
            _range(r.get("points"), f"{where}.points"),
            tuple(examples),
        )
        out[w.weight] = w
    return out


@functools.cache
def disorders() -> Mapping[str, tuple[str, ...]]:
    """The Disorders by kind: addiction, insanity, mutation."""
    data = _get(load("corruption"), "disorders", "corruption.yaml", dict)
    return {
        kind: _strings(data.get(kind), f"corruption.yaml.disorders.{kind}")
        for kind in ("addiction", "insanity", "mutation")
    }


def _all() -> Sequence[Any]:
    """Every table, loaded and validated (what the data test calls)."""
    return (
        difficulty_ladder(),
        morale_conditions(),
        morale_results(),
        movement_modes(),
        takedown_conditions(),
        miles_per_day_table(),
        overland_rules(),
        stretch_lengths(),
        terrain_steps(),
        threat_levels(),
        role_tables(),
        toughness_results(),
        requisition_weights(),
        social_table(),
        withstanding_table(),
        madness_situations(),
        offence_weights(),
        disorders(),
    )
