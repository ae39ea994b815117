"""The disposition builder ("Territorial Conquest", Steps One to Seven, and "Disposition Total").

Each faction answers the seven steps; each answer's points come from ``data/setup.yaml``.
:func:`build_disposition` shows every step's contribution.

>>> dwarves = DispositionAnswers(
...     faction="dwarves", territorial_relation="native", lifepath_settings=4, sub_settings=2,
...     mechanical_aptitude="advanced tool users", mystical_abilities=("Dwarven Arts",),
...     population_density="cities", population_growth="normal",
...     political_placement="currently in power")
>>> built = build_disposition(dwarves, factions=4)
>>> [(s.step, s.points) for s in built.steps]  # doctest: +NORMALIZE_WHITESPACE
[('territorial relation', 3), ('civilization complexity', 8), ('mechanical aptitude', 3),
 ('mystical ability', 1), ('population density', 2), ('population growth', 1),
 ('political placement', 4), ('factions', -3)]
>>> built.total
19
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import RuleError
from referee.systems.kingdoms.tables import setup_tables

__all__ = [
    "FAR_APART",
    "DispositionAnswers",
    "DispositionStep",
    "DispositionTotal",
    "build_disposition",
    "civilization_complexity",
    "disposition_warning",
    "faction_reduction",
]

FAR_APART = 5
"""Totals more than this many points apart draw the "too disparaging" warning (a ruling)."""


@dataclass(frozen=True)
class DispositionAnswers:
    """A faction's answers to Steps One to Six."""

    faction: str
    territorial_relation: str
    lifepath_settings: int
    sub_settings: int
    mechanical_aptitude: str
    mystical_abilities: tuple[str, ...]
    population_density: str
    population_growth: str
    political_placement: str

    @classmethod
    def from_json(cls, faction: str, data: Mapping[str, Any]) -> DispositionAnswers:
        """From a mapping of the answers (a scenario's or a file's ``disposition:``)."""
        mystical = data.get("mystical_abilities", ())
        if mystical is None:
            mystical = ()
        elif isinstance(mystical, str):
            mystical = (mystical,)  # one type, named
        elif isinstance(mystical, int):
            if mystical < 0:
                raise RuleError(
                    "Disposition, Step Four",
                    f"types of mystical ability are 0 or more, not {mystical}",
                )
            mystical = tuple(f"type {i + 1}" for i in range(mystical))
        return cls(
            faction=faction,
            territorial_relation=str(data["territorial_relation"]),
            lifepath_settings=int(data["lifepath_settings"]),
            sub_settings=int(data.get("sub_settings", 0)),
            mechanical_aptitude=str(data["mechanical_aptitude"]),
            mystical_abilities=tuple(str(m) for m in mystical),
            population_density=str(data["population_density"]),
            population_growth=str(data["population_growth"]),
            political_placement=str(data["political_placement"]),
        )


@dataclass(frozen=True)
class DispositionStep:
    """One step's contribution: its name, the answer given and the points it is worth."""

    step: str
    answer: str
    points: int


@dataclass(frozen=True)
class DispositionTotal:
    """A faction's starting disposition, step by step."""

    faction: str
    steps: tuple[DispositionStep, ...]

    @property
    def total(self) -> int:
        """The sum of the steps (never below 0)."""
        return max(0, sum(s.points for s in self.steps))

    def to_json(self) -> dict[str, Any]:
        """``{"faction", "steps": [{"step", "answer", "points"}], "total"}``."""
        return {
            "faction": self.faction,
            "steps": [{"step": s.step, "answer": s.answer, "points": s.points} for s in self.steps],
            "total": self.total,
        }


def _pick(table: Mapping[str, int], answer: str, step: str) -> int:
    key = answer.strip().casefold()
    for name, points in table.items():
        if name.casefold() == key:
            return points
    choices = ", ".join(table)
    raise RuleError(f"Disposition, {step}", f"{answer!r} is not one of: {choices}")


def civilization_complexity(settings: int, sub_settings: int) -> int:
    """Step Two: 2 per lifepath setting, or 1 per setting and sub-setting, whichever is more.

    >>> civilization_complexity(3, 4), civilization_complexity(3, 2)
    (7, 6)
    """
    if settings < 0 or sub_settings < 0:
        raise RuleError("Disposition, Step Two", "settings cannot be negative")
    t = setup_tables()
    return max(
        t.complexity_per_setting * settings,
        t.complexity_per_setting_or_subsetting * (settings + sub_settings),
    )


def faction_reduction(factions: int, players: int | None = None) -> int:
    """Step Seven: disposition each faction loses for the number of factions.

    Three factions −1, four −3, five −6. Six or more players play three two-player factions.

    >>> faction_reduction(3), faction_reduction(4), faction_reduction(5), faction_reduction(3, 6)
    (1, 3, 6, 1)
    """
    t = setup_tables()
    if players is not None and players >= 6:
        if factions != 3:
            raise RuleError(
                "Disposition, Step Seven",
                f"six or more players divide into three two-player factions, not {factions}",
            )
        return t.faction_reduction[3]
    if factions not in t.faction_reduction:
        raise RuleError(
            "Disposition, Step Seven", f"the text covers 1 to 5 factions, not {factions}"
        )
    return t.faction_reduction[factions]


def build_disposition(
    answers: DispositionAnswers, factions: int, players: int | None = None
) -> DispositionTotal:
    """A faction's starting disposition from its answers (Steps One to Seven)."""
    t = setup_tables()
    steps = (
        DispositionStep(
            "territorial relation",
            answers.territorial_relation,
            _pick(t.territorial_relation, answers.territorial_relation, "Step One"),
        ),
        DispositionStep(
            "civilization complexity",
            f"{answers.lifepath_settings} settings, {answers.sub_settings} sub-settings",
            civilization_complexity(answers.lifepath_settings, answers.sub_settings),
        ),
        DispositionStep(
            "mechanical aptitude",
            answers.mechanical_aptitude,
            _pick(t.mechanical_aptitude, answers.mechanical_aptitude, "Step Three"),
        ),
        DispositionStep(
            "mystical ability",
            ", ".join(answers.mystical_abilities) or "no magic",
            t.mystical_per_type * len(set(answers.mystical_abilities)),
        ),
        DispositionStep(
            "population density",
            answers.population_density,
            _pick(t.population_density, answers.population_density, "Step Five"),
        ),
        DispositionStep(
            "population growth",
            answers.population_growth,
            _pick(t.population_growth, answers.population_growth, "Step Five"),
        ),
        DispositionStep(
            "political placement",
            answers.political_placement,
            _pick(t.political_placement, answers.political_placement, "Step Six"),
        ),
        DispositionStep("factions", f"{factions} factions", -faction_reduction(factions, players)),
    )
    return DispositionTotal(answers.faction, steps)


def disposition_warning(totals: Sequence[DispositionTotal]) -> str | None:
    """ "Disposition Total": a warning when totals are too far apart, else ``None``.

    >>> a = DispositionTotal("a", (DispositionStep("x", "", 20),))
    >>> b = DispositionTotal("b", (DispositionStep("x", "", 12),))
    >>> disposition_warning([a, b])
    'dispositions are far apart (a 20, b 12): consider a different concept for a faction'
    """
    if len(totals) < 2:
        return None
    values = [t.total for t in totals]
    if max(values) - min(values) <= FAR_APART:
        return None
    listed = ", ".join(f"{t.faction} {t.total}" for t in totals)
    return f"dispositions are far apart ({listed}): consider a different concept for a faction"
