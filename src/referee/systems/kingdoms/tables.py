"""The printed tables of Burning Kingdoms as validated data (DESIGN.md, "Data").

- ``data/matrix.yaml``: "Matrix" — the Independent and Versus Maneuver Matrix.
- ``data/maneuvers.yaml``: "Conquest Maneuvers" — each maneuver's skills and conditions.
- ``data/setup.yaml``: "Territorial Conquest" Steps One–Seven, "Faction Leaders" (lifepaths,
  caps, starting artha), "Prologues" (the skill list) and "Scene Economy".
- ``data/skill_roots.yaml``: the root stats of every skill the text lists, from the parent
  game (its source named in the file), for the tie-breaker ("Independent and Versus
  Maneuvers": "testing the root stats for the skills used").

Each file is read once and checked when loaded: a malformed table raises
:class:`~referee.core.RefereeError` naming the file and the bad cell.

>>> len(MANEUVERS), MANEUVERS[0], MANEUVERS[-1]
(11, 'Assault', 'Sap')
>>> matrix().cell("Harry", "Ensnare")
'aV'
>>> maneuver("Onslaught").bonus
3
>>> skill_roots("tactics"), skill_roots("Logistics"), skill_roots("Juggling")
(('Will', 'Perception'), ('Perception',), ())
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from referee.core import RefereeError

__all__ = [
    "CELLS",
    "MANEUVERS",
    "ROOT_STATS",
    "ManeuverInfo",
    "Matrix",
    "SetupTables",
    "load_yaml",
    "maneuver",
    "matrix",
    "setup_tables",
    "skill_roots",
]

MANEUVERS = (
    "Assault",
    "Assess",
    "Conserve",
    "Ensnare",
    "Fortify",
    "Gambit",
    "Harry",
    "Infiltrate",
    "Onslaught",
    "Ploy",
    "Sap",
)
"""The eleven maneuvers, in the text's order ("Maneuvering in the Chronicle")."""

CELLS = frozenset({"I", "V", "dV", "aV"})
"""What a matrix cell may hold: independent, versus, Harry's defence or attack dice versus."""


class TableError(RefereeError):
    """A data file of the game is malformed."""


def load_yaml(name: str) -> Any:
    """A data file of the package, parsed: YAML's safe loader, libyaml's where installed (the
    same values as the pure-Python one, in a tenth of the time)."""
    import yaml

    text = resources.files("referee.systems.kingdoms").joinpath("data", name).read_text("utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@dataclass(frozen=True)
class Matrix:
    """The maneuver matrix: ``cell(row, column)`` is I, V, dV or aV.

    >>> m = matrix()
    >>> m.cell("Assault", "Fortify"), m.is_versus("Sap", "Harry")
    ('V', True)
    """

    rows: Mapping[str, Mapping[str, str]]

    def cell(self, row: str, column: str) -> str:
        """The cell for ``row`` meeting ``column``."""
        return self.rows[row][column]

    def is_versus(self, row: str, column: str) -> bool:
        """True if the cell is any kind of versus (V, dV, aV)."""
        return self.cell(row, column) != "I"


def _matrix_from(data: Any) -> Matrix:
    where = "matrix.yaml"
    if not isinstance(data, dict) or list(data.get("columns", ())) != list(MANEUVERS):
        raise TableError(f"{where}: columns must be the eleven maneuvers in order")
    rows = data.get("rows")
    if not isinstance(rows, dict) or list(rows) != list(MANEUVERS):
        raise TableError(f"{where}: rows must be the eleven maneuvers in order")
    out: dict[str, dict[str, str]] = {}
    for row, cells in rows.items():
        if not isinstance(cells, list) or len(cells) != len(MANEUVERS):
            raise TableError(f"{where}: rows.{row}: needs {len(MANEUVERS)} cells")
        for column, cell in zip(MANEUVERS, cells, strict=True):
            if cell not in CELLS:
                raise TableError(f"{where}: rows.{row}.{column}: {cell!r} is not I, V, dV or aV")
            if cell in ("dV", "aV") and row != "Harry":
                raise TableError(f"{where}: rows.{row}.{column}: only Harry's row splits its dice")
        out[row] = dict(zip(MANEUVERS, (str(c) for c in cells), strict=True))
    return Matrix(out)


@functools.cache
def matrix() -> Matrix:
    """The maneuver matrix from ``data/matrix.yaml``."""
    return _matrix_from(load_yaml("matrix.yaml"))


@dataclass(frozen=True)
class ManeuverInfo:
    """One maneuver's entry in "Conquest Maneuvers"."""

    name: str
    skills: tuple[str, ...]
    targets: int
    conflict: Literal["required", "optional", "forbidden"]
    offensive: bool
    requires: str | None = None
    cost: int = 0
    bonus: int = 0
    independent_ob: int | str = "none"

    def has_skill(self, skill: str) -> bool:
        """True if ``skill`` is on this maneuver's list (case-insensitive)."""
        return skill.casefold() in {s.casefold() for s in self.skills}


def _maneuvers_from(data: Any) -> dict[str, ManeuverInfo]:
    where = "maneuvers.yaml"
    if not isinstance(data, dict) or list(data) != list(MANEUVERS):
        raise TableError(f"{where}: needs the eleven maneuvers in order")
    out: dict[str, ManeuverInfo] = {}
    for name, entry in data.items():
        try:
            info = ManeuverInfo(
                name=name,
                skills=tuple(str(s) for s in entry["skills"]),
                targets=int(entry["targets"]),
                conflict=entry["conflict"],
                offensive=bool(entry["offensive"]),
                requires=entry.get("requires"),
                cost=int(entry.get("cost", 0)),
                bonus=int(entry.get("bonus", 0)),
                independent_ob=entry.get("independent_ob", "none"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise TableError(f"{where}: {name}: {error}") from None
        if info.conflict not in ("required", "optional", "forbidden"):
            raise TableError(f"{where}: {name}.conflict: {info.conflict!r}")
        if info.requires not in (None, "assessed", "infiltrated"):
            raise TableError(f"{where}: {name}.requires: {info.requires!r}")
        if info.independent_ob not in ("none", "circles", "exponent") and not isinstance(
            info.independent_ob, int
        ):
            raise TableError(f"{where}: {name}.independent_ob: {info.independent_ob!r}")
        if not info.skills:
            raise TableError(f"{where}: {name}.skills: empty")
        out[name] = info
    return out


@functools.cache
def _maneuvers() -> dict[str, ManeuverInfo]:
    return _maneuvers_from(load_yaml("maneuvers.yaml"))


def maneuver(name: str) -> ManeuverInfo:
    """The entry for maneuver ``name`` (exact spelling, as in :data:`MANEUVERS`)."""
    return _maneuvers()[name]


@dataclass(frozen=True)
class SetupTables:
    """``data/setup.yaml``: the disposition steps, the leaders' table and the prologue list."""

    territorial_relation: Mapping[str, int]
    mechanical_aptitude: Mapping[str, int]
    population_density: Mapping[str, int]
    population_growth: Mapping[str, int]
    political_placement: Mapping[str, int]
    complexity_per_setting: int
    complexity_per_setting_or_subsetting: int
    mystical_per_type: int
    faction_reduction: Mapping[int, int]
    leader_lifepaths: tuple[int, int]
    leader_stat_cap: int
    leader_skill_cap: int
    starting_artha: Mapping[int, Mapping[str, int]]
    second_lifepaths_fewer: int
    second_cap_lower: int
    rival_relationships: int
    prologue_skills: tuple[str, ...]
    scenes: Mapping[str, int]
    downtime_months_per_success: int


def _setup_from(data: Any) -> SetupTables:
    where = "setup.yaml"
    try:
        lp = data["leader_lifepaths"]
        tables = SetupTables(
            territorial_relation={str(k): int(v) for k, v in data["territorial_relation"].items()},
            mechanical_aptitude={str(k): int(v) for k, v in data["mechanical_aptitude"].items()},
            population_density={str(k): int(v) for k, v in data["population_density"].items()},
            population_growth={str(k): int(v) for k, v in data["population_growth"].items()},
            political_placement={str(k): int(v) for k, v in data["political_placement"].items()},
            complexity_per_setting=int(data["complexity_per_setting"]),
            complexity_per_setting_or_subsetting=int(data["complexity_per_setting_or_subsetting"]),
            mystical_per_type=int(data["mystical_per_type"]),
            faction_reduction={int(k): int(v) for k, v in data["faction_reduction"].items()},
            leader_lifepaths=(int(lp["min"]), int(lp["max"])),
            leader_stat_cap=int(data["leader_stat_cap"]),
            leader_skill_cap=int(data["leader_skill_cap"]),
            starting_artha={
                int(k): {a: int(n) for a, n in v.items()} for k, v in data["starting_artha"].items()
            },
            second_lifepaths_fewer=int(data["second_lifepaths_fewer"]),
            second_cap_lower=int(data["second_cap_lower"]),
            rival_relationships=int(data["rival_relationships"]),
            prologue_skills=tuple(str(s) for s in data["prologue_skills"]),
            scenes={str(k): int(v) for k, v in data["scenes"].items()},
            downtime_months_per_success=int(data["downtime_months_per_success"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise TableError(f"{where}: {error!r}") from None
    low, high = tables.leader_lifepaths
    if sorted(tables.starting_artha) != list(range(low, high + 1)):
        raise TableError(f"{where}: starting_artha needs every lifepath count {low}–{high}")
    for lps, artha in tables.starting_artha.items():
        if set(artha) != {"fate", "persona", "deeds"}:
            raise TableError(f"{where}: starting_artha.{lps}: needs fate, persona, deeds")
    return tables


@functools.cache
def setup_tables() -> SetupTables:
    """The set-up tables from ``data/setup.yaml``."""
    return _setup_from(load_yaml("setup.yaml"))


ROOT_STATS = frozenset({"Will", "Perception", "Agility", "Speed", "Power", "Forte", "Hatred"})
"""What a skill may be rooted in: the parent game's stats (and the Orcs' Hatred)."""


def _roots_from(data: Any) -> dict[str, tuple[str, ...]]:
    where = "skill_roots.yaml"
    try:
        if not str(data["source"]).strip():
            raise ValueError("source: name where the roots come from")
        roots = {
            str(k).casefold(): tuple(str(r) for r in v["roots"]) for k, v in data["skills"].items()
        }
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise TableError(f"{where}: {error!r}") from None
    for skill, stats in roots.items():
        if not 1 <= len(stats) <= 3 or not set(stats) <= ROOT_STATS:
            raise TableError(f"{where}: {skill}: roots {list(stats)} (one to three stats)")
    return roots


@functools.cache
def _skill_roots() -> dict[str, tuple[str, ...]]:
    return _roots_from(load_yaml("skill_roots.yaml"))


def skill_roots(skill: str) -> tuple[str, ...]:
    """The root stats of ``skill`` (case-insensitive) from ``data/skill_roots.yaml``; none for
    a skill the text does not list (a substituted spell song or racial skill)."""
    return _skill_roots().get(skill.casefold(), ())
