"""Gin Lane's printed tables as validated data (the YAML files in ``data/``).

Each table the text prints lives in a data file beside this module and is read, checked and
turned into frozen values here: the ladder and the success levels ("Difficulty & Target Number",
"Success Levels"), the skills list ("The Skills List"), the consequences ("Consequences"), the
weapons ("Weapons Notes") and the Sephirot ("The Sephirot").

>>> ladder_name(9), success_level(4).success
('Great', 'Good')
>>> skill("Endurance").track
'Health'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

from referee.core import RuleError, ScenarioError

__all__ = [
    "Consequence",
    "Difficulty",
    "Manoeuvre",
    "Sephira",
    "Skill",
    "SuccessLevel",
    "Weapon",
    "consequence",
    "consequences",
    "difficulties",
    "difficulty_number",
    "ladder_name",
    "manoeuvre",
    "manoeuvres",
    "sephirot",
    "skill",
    "skills",
    "success_level",
    "success_levels",
    "weapon",
    "weapons",
]


@dataclass(frozen=True)
class Difficulty:
    """A rung of the ladder ("Difficulty & Target Number"): 6 Negligible … 12 Heroic."""

    number: int
    name: str


@dataclass(frozen=True)
class SuccessLevel:
    """A row of "Success Levels": degree (margin), success, magnitude, duration, notes.

    ``gloss``: the Match row's "in the balance" (the cell where the numbered rows have their
    name); empty for the others.
    """

    degree: int
    success: str
    magnitude: str
    duration: str
    notes: str
    gloss: str = ""


@dataclass(frozen=True)
class Skill:
    """A skill of "The Skills List" (v3), with its specialities and the track it sets."""

    name: str
    specialities: tuple[str, ...]
    track: str | None = None
    knowledge: bool = False
    choice: bool = False
    arcane: bool = False
    formerly: str | None = None


@dataclass(frozen=True)
class Consequence:
    """A row of "Consequences": severity, stress mitigated, examples, duration (in days)."""

    severity: str
    mitigates: int
    examples: tuple[str, ...]
    lasts: str
    days: int | None


@dataclass(frozen=True)
class Weapon:
    """A weapon ("Weapons Notes"): attack skill, damage bonus, range in zones, small or not.

    ``bonus_beyond_0`` is the bonus past range 0 when it differs (the blunderbuss: +3 at 0,
    +1 at range 1+).
    """

    name: str
    skill: str
    bonus: int
    range: int
    small: bool
    bonus_beyond_0: int | None = None


@dataclass(frozen=True)
class Sephira:
    """One of "The Sephirot": number, name, path, effect; ``ritual`` False for Kether."""

    number: int
    name: str
    path: str
    effect: str
    ritual: bool


def _load(name: str) -> Any:
    import yaml

    text = resources.files("referee.systems.ginlane").joinpath("data", name).read_text("utf-8")
    return yaml.safe_load(text)


def _need(row: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(row, dict) or key not in row:
        raise ScenarioError(f"missing {key!r}", (where,))
    value = row[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ScenarioError(f"{key!r} has the wrong type: {value!r}", (where,))
    return value


@functools.cache
def difficulties() -> tuple[Difficulty, ...]:
    """The ladder, 6 to 12, validated: numbers consecutive from 6, names unique."""
    rows = _load("ladder.yaml")["difficulties"]
    out = tuple(
        Difficulty(_need(r, "number", int, "ladder.yaml"), _need(r, "name", str, "ladder.yaml"))
        for r in rows
    )
    if [d.number for d in out] != list(range(6, 13)):
        raise ScenarioError("the ladder runs 6 to 12", ("ladder.yaml", "difficulties"))
    return out


@functools.cache
def success_levels() -> tuple[SuccessLevel, ...]:
    """The success levels, Match (0) to Near Perfect (6), validated: degrees 0…6."""
    rows = _load("ladder.yaml")["success_levels"]
    out = tuple(
        SuccessLevel(
            _need(r, "degree", int, "ladder.yaml"),
            _need(r, "success", str, "ladder.yaml"),
            _need(r, "magnitude", str, "ladder.yaml"),
            _need(r, "duration", str, "ladder.yaml"),
            _need(r, "notes", str, "ladder.yaml"),
            _need(r, "gloss", str, "ladder.yaml") if "gloss" in r else "",
        )
        for r in rows
    )
    if [s.degree for s in out] != list(range(7)):
        raise ScenarioError("success degrees run 0 to 6", ("ladder.yaml", "success_levels"))
    return out


def ladder_name(number: int) -> str:
    """The ladder's name for a difficulty: 6 or less is Negligible; above 12 is still Heroic.

    >>> ladder_name(3), ladder_name(12), ladder_name(14)
    ('Negligible', 'Heroic', 'Heroic')
    """
    clamped = min(max(number, 6), 12)
    return difficulties()[clamped - 6].name


def difficulty_number(name_or_number: str | int) -> int:
    """A difficulty by ladder name (any case) or number: ``"Fair"`` → 8.

    >>> difficulty_number("great"), difficulty_number(11)
    (9, 11)
    """
    if isinstance(name_or_number, int):
        return name_or_number
    text = name_or_number.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    for d in difficulties():
        if d.name.lower() == text.lower():
            return d.number
    names = ", ".join(d.name for d in difficulties())
    raise RuleError("Difficulty & Target Number", f"no difficulty {name_or_number!r} ({names})")


def success_level(degree: int) -> SuccessLevel:
    """The row of "Success Levels" for a margin of ``degree`` ≥ 0 (beyond 6: Near Perfect).

    >>> success_level(0).success, success_level(9).success
    ('Match', 'Near Perfect')
    """
    if degree < 0:
        raise RuleError("Success Levels", f"a margin of {degree} is a failure, not a success")
    return success_levels()[min(degree, 6)]


@functools.cache
def skills() -> tuple[Skill, ...]:
    """The v3 skills list, validated: names unique, tracks only Health, Composure, Wealth."""
    out: list[Skill] = []
    for r in _load("skills.yaml"):
        out.append(
            Skill(
                name=_need(r, "name", str, "skills.yaml"),
                specialities=tuple(_need(r, "specialities", list, "skills.yaml")),
                track=r.get("track"),
                knowledge=bool(r.get("knowledge", False)),
                choice=bool(r.get("choice", False)),
                arcane=bool(r.get("arcane", False)),
                formerly=r.get("formerly"),
            )
        )
    names = [s.name for s in out]
    if len(set(names)) != len(names):
        raise ScenarioError("skill names repeat", ("skills.yaml",))
    if sorted(s.track for s in out if s.track) != ["Composure", "Health", "Wealth"]:
        raise ScenarioError("one skill for each of Health, Composure, Wealth", ("skills.yaml",))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def skill(name: str) -> Skill:
    """A skill by name (any case); ``"Craft: tailor"`` finds Craft; Rapport finds Charm.
    Remembered by the name as given: every level read and every roll asks it (14,000 asks
    in 150 simulated duels), each a split, a strip and a lower case of the name otherwise.

    >>> skill("craft: peruquier").name, skill("Rapport").name
    ('Craft', 'Charm')
    """
    found = _skills_by_name().get(name.split(":")[0].split("(")[0].strip().lower())
    if found is None:
        raise RuleError("The Skills List", f"no skill {name!r} in the v3 list")
    return found


@functools.cache
def _skills_by_name() -> dict[str, Skill]:
    """Each skill by its name and its former name, lower case: the first on the list that
    answers to a name (as a search of the list in order finds it). Every roll and every
    choice asks for skills by name, so the list is read once."""
    index: dict[str, Skill] = {}
    for s in skills():
        index.setdefault(s.name.lower(), s)
        if s.formerly is not None:
            index.setdefault(s.formerly.lower(), s)
    return index


@functools.cache
def consequences() -> tuple[Consequence, ...]:
    """The four consequences, slight 2 to extreme 8, validated."""
    out = tuple(
        Consequence(
            severity=_need(r, "severity", str, "consequences.yaml"),
            mitigates=_need(r, "mitigates", int, "consequences.yaml"),
            examples=tuple(_need(r, "examples", list, "consequences.yaml")),
            lasts=_need(r, "lasts", str, "consequences.yaml"),
            days=r.get("days"),
        )
        for r in _load("consequences.yaml")
    )
    if [c.mitigates for c in out] != [2, 4, 6, 8]:
        raise ScenarioError("consequences mitigate 2, 4, 6, 8", ("consequences.yaml",))
    return out


def consequence(severity: str) -> Consequence:
    """A consequence by severity: ``"moderate"`` → mitigates 4, lasts a week."""
    for c in consequences():
        if c.severity == severity.strip().lower():
            return c
    names = ", ".join(c.severity for c in consequences())
    raise RuleError("Consequences", f"no consequence {severity!r} ({names})")


@functools.cache
def weapons() -> tuple[Weapon, ...]:
    """The weapons of "Weapons Notes", validated: bonuses 0–4, ranges 0–4."""
    data = _load("weapons.yaml")
    out = tuple(
        Weapon(
            name=_need(r, "name", str, "weapons.yaml"),
            skill=_need(r, "skill", str, "weapons.yaml"),
            bonus=_need(r, "bonus", int, "weapons.yaml"),
            range=_need(r, "range", int, "weapons.yaml"),
            small=bool(_need(r, "small", bool, "weapons.yaml")),
            bonus_beyond_0=r.get("bonus_beyond_0"),
        )
        for r in data["weapons"]
    )
    for w in out:
        skill(w.skill)
        if not 0 <= w.bonus <= 4 or not 0 <= w.range <= 4:
            raise ScenarioError(f"weapon {w.name!r} out of range", ("weapons.yaml",))
    return out


def weapon(name: str) -> Weapon:
    """A weapon by name (any case).

    >>> weapon("Sword").bonus, weapon("musket").range
    (2, 4)
    """
    for w in weapons():
        if w.name == name.strip().lower():
            return w
    names = ", ".join(w.name for w in weapons())
    raise RuleError("Weapons Notes", f"no weapon {name!r} ({names})")


@functools.cache
def sephirot() -> tuple[Sephira, ...]:
    """The ten Sephirot, Kether (1) to Malkuth (10); only Kether is beyond mortal ritual."""
    out = tuple(
        Sephira(
            _need(r, "number", int, "sephirot.yaml"),
            _need(r, "name", str, "sephirot.yaml"),
            _need(r, "path", str, "sephirot.yaml"),
            _need(r, "effect", str, "sephirot.yaml"),
            bool(_need(r, "ritual", bool, "sephirot.yaml")),
        )
        for r in _load("sephirot.yaml")
    )
    if [s.number for s in out] != list(range(1, 11)):
        raise ScenarioError("the Sephirot are numbered 1 to 10", ("sephirot.yaml",))
    return out


def damage_bonus_table() -> dict[int, tuple[str, ...]]:
    """The "Damage Bonus" list: bonus → the examples printed for it."""
    return {
        _need(r, "bonus", int, "weapons.yaml"): tuple(r["examples"])
        for r in _load("weapons.yaml")["damage_bonuses"]
    }


def ranges() -> dict[str, int]:
    """Range: thrown things 2 zones, pistols 3, muskets 4."""
    return {str(k): int(v) for k, v in _load("weapons.yaml")["ranges"].items()}


@dataclass(frozen=True)
class Manoeuvre:
    """One of "Some Manoeuvres": the Aspect it sets, its usual skill, on an opponent or self."""

    name: str
    aspect: str
    skill: str
    on: str
    unique: bool
    removed_by: str | None = None


@functools.cache
def manoeuvres() -> tuple[Manoeuvre, ...]:
    """Blind, Unbalance, Take Cover, Disarm, Take Aim, Concentrate, validated."""
    out = tuple(
        Manoeuvre(
            name=_need(r, "name", str, "manoeuvres.yaml"),
            aspect=_need(r, "aspect", str, "manoeuvres.yaml"),
            skill=_need(r, "skill", str, "manoeuvres.yaml"),
            on=_need(r, "target", str, "manoeuvres.yaml"),
            unique=bool(_need(r, "unique", bool, "manoeuvres.yaml")),
            removed_by=r.get("removed_by"),
        )
        for r in _load("manoeuvres.yaml")
    )
    for m in out:
        skill(m.skill)
        if m.on not in ("opponent", "self"):
            raise ScenarioError(f"manoeuvre {m.name!r}: on is opponent or self", ("manoeuvres",))
    return out


def manoeuvre(name: str) -> Manoeuvre:
    """A named manoeuvre (any case): ``"Take Aim"`` sets the unique Target Aspect.

    >>> manoeuvre("take aim").aspect, manoeuvre("Take Aim").unique
    ('Target', True)
    """
    for m in manoeuvres():
        if m.name == name.strip().lower():
            return m
    names = ", ".join(m.name for m in manoeuvres())
    raise RuleError("Manoeuvres", f"no manoeuvre {name!r} ({names})")
