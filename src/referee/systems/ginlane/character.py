"""Characters: Aspects, Skills, the skill pyramid, Experience and the Experience Pool, tracks.

Gin Lane, "Characters", "Aspects", "Experience Points", "Skills", "Stress Tracks". A sheet is a
frozen value; :func:`check_sheet` lists every problem with it, :meth:`Character.validate`
raises the first as a :class:`~referee.core.RuleError`.

>>> hero = Character.build("Moll", aspects=["Gin-Soaked Gossip"],
...                        skills={"Weapons": 3, "Agility": 2, "Resolve": 2,
...                                "Endurance": 1, "Alertness": 1, "Charm": 1}, experience=12)
>>> hero.validate().spent, hero.unspent, hero.tracks["Health"], hero.extra_aspects
(10, 2, 6, 2)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core import RuleError
from referee.core.values import evolved
from referee.systems.ginlane.tables import skill as skill_entry

__all__ = [
    "SOCIETY",
    "Character",
    "ExperiencePool",
    "aspects_for_spending",
    "check_pyramid",
    "check_sheet",
    "language_allowance",
    "level_in",
    "pyramid_problems",
    "skill_cost",
    "stress_track_length",
]

SOCIETY = "Member of the Society for Effectual Redress"
"""The free-taggable Aspect every player character has ("Background")."""

POINTS_PER_ASPECT = 4
"""Experience Points: "For every 4 points you spend on Skills you can take another Aspect"."""

BASE_TRACK = 5
"""Stress tracks start at 5 boxes (RULINGS.md, Gin Lane; Spirit of the Century)."""

TRACK_SKILLS = {"Health": "Endurance", "Composure": "Resolve", "Wealth": "Assets"}
"""Which skill sets each stress track's length ("Stress Tracks", "The Skills List")."""


def stress_track_length(level: int) -> int:
    """Boxes on a track: 5, +1 for each odd level of its skill (1–2 → 6, 3–4 → 7, 5–6 → 8).

    >>> [stress_track_length(n) for n in range(7)]
    [5, 6, 6, 7, 7, 8, 8]
    """
    return BASE_TRACK + (max(level, 0) + 1) // 2


def skill_cost(levels: Iterable[int]) -> int:
    """Experience spent on skills: one point per level ("Buying Skills").

    >>> skill_cost([3, 2, 2, 1, 1, 1])
    10
    """
    return sum(levels)


def aspects_for_spending(spent: int) -> int:
    """Extra Aspects earned: one for every 4 points spent on Skills.

    >>> aspects_for_spending(10), aspects_for_spending(12)
    (2, 3)
    """
    return spent // POINTS_PER_ASPECT


def pyramid_problems(levels: Iterable[int]) -> list[str]:
    """What breaks "The Skill Pyramid": every level above +1 needs more skills a level below.

    *For each skill above +1, you must have one more skill at the lower level.*

    >>> pyramid_problems([3, 2, 2, 1, 1, 1]), pyramid_problems([1] * 10)
    ([], [])
    >>> pyramid_problems([1, 3, 3, 3])
    ['3 skills at +3 need at least 4 at +2, but there are 0']
    """
    counts = Counter(level for level in levels if level > 0)
    problems = []
    for level in sorted(counts, reverse=True):
        if level <= 1:
            continue
        below = counts.get(level - 1, 0)
        if below < counts[level] + 1:
            problems.append(
                f"{counts[level]} skill{'s' if counts[level] > 1 else ''} at +{level} need at "
                f"least {counts[level] + 1} at +{level - 1}, but there are {below}"
            )
    return problems


def check_pyramid(levels: Iterable[int]) -> None:
    """Raise :class:`RuleError` ("The Skill Pyramid") naming the first problem, if any."""
    problems = pyramid_problems(levels)
    if problems:
        raise RuleError("The Skill Pyramid", problems[0])


def language_allowance(skills: Mapping[str, int]) -> int:
    """Languages a character may claim ("Languages (choice:)").

    One for each odd level of the other knowledge skills (Arts, Lore, Natural Philosophy,
    Occult Philosophy, Professions, Scholarship: Rulings) and one per level of Languages;
    the native tongue comes free (Rulings).

    >>> language_allowance({"Scholarship": 3, "Languages": 2, "Lore": 1})
    5
    """
    total = 0
    for name, level in skills.items():
        try:
            entry = skill_entry(name)
        except RuleError:  # not on the list: check_sheet reports it
            continue
        if entry.name == "Languages":
            total += level
        elif entry.knowledge:
            total += (level + 1) // 2
    return total


@dataclass(frozen=True)
class ExperiencePool:
    """The Free Experience Pool: ``points`` now, ``full`` the unspent experience it refreshes to.

    >>> pool = ExperiencePool(3, 3).spend(2)
    >>> pool.points, pool.refresh(6).points, pool.award(4).points, pool.award(4).refresh(1).points
    (1, 3, 5, 3)
    """

    points: int
    full: int

    def spend(self, amount: int = 1, *, why: str = "a tag") -> ExperiencePool:
        """Pay ``amount`` points; :class:`RuleError` if the pool cannot fuel it."""
        if amount < 0:
            raise RuleError("The Free Experience Pool", f"cannot spend {amount} points")
        if amount > self.points:
            raise RuleError(
                "The Free Experience Pool",
                f"{why} needs {amount} point{'s' if amount != 1 else ''}, "
                f"the pool has {self.points}",
            )
        return evolved(self, points=self.points - amount)

    def award(self, amount: int) -> ExperiencePool:
        """Points received in play go into the pool (they may take it above full)."""
        return evolved(self, points=self.points + amount)

    def refresh(self, d6: int) -> ExperiencePool:
        """Experience Pool Refresh: a night's rest restores 1d6, never above full; any excess
        received in play is lost."""
        return evolved(self, points=min(self.points + d6, self.full))


@dataclass(frozen=True)
class Character:
    """A character sheet ("Characters").

    ``aspects`` the character's own (unique); ``free_aspects`` those free-taggable (the
    Society membership); ``possessions`` major holdings taken as Aspects ("Possessions");
    ``skills`` name → level; ``experience`` points given at creation and for play;
    ``languages`` those claimed so far; ``philosophy`` the Aspect in a Sephira (if any).
    """

    name: str
    aspects: tuple[str, ...] = ()
    free_aspects: tuple[str, ...] = (SOCIETY,)
    possessions: tuple[str, ...] = ()
    skills: tuple[tuple[str, int], ...] = ()
    experience: int = 0
    languages: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def build(
        cls,
        name: str,
        *,
        aspects: Iterable[str] = (),
        skills: Mapping[str, int] | None = None,
        experience: int | None = None,
        free_aspects: Iterable[str] = (SOCIETY,),
        possessions: Iterable[str] = (),
        languages: Iterable[str] = (),
    ) -> Character:
        """A sheet from plain values; ``experience`` defaults to exactly what the skills cost."""
        levels = dict(skills or {})
        return cls(
            name=name,
            aspects=tuple(aspects),
            free_aspects=tuple(free_aspects),
            possessions=tuple(possessions),
            skills=tuple(levels.items()),
            experience=skill_cost(levels.values()) if experience is None else experience,
            languages=tuple(languages),
        )

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> Character:
        """A sheet from a scenario's or a file's mapping (keys as :meth:`build`)."""
        skills = data.get("skills", {})
        if not isinstance(skills, Mapping):
            raise RuleError("Skills", f"{name}: skills are a mapping of name to level")
        for key, value in skills.items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise RuleError("Skills", f"{name}: skill {key!r} has level {value!r}")
        experience = data.get("experience")
        if experience is not None and (
            not isinstance(experience, int) or isinstance(experience, bool)
        ):
            raise RuleError(
                "Experience Points", f"{name}: experience is a whole number, not {experience!r}"
            )

        def names(key: str, default: Iterable[str] = ()) -> list[str]:
            value = data.get(key, default)
            if not isinstance(value, list | tuple) or not all(
                isinstance(v, str | int | float) and not isinstance(v, bool) for v in value
            ):
                raise RuleError("Characters", f"{name}: {key} is a list of names, not {value!r}")
            return [str(v) for v in value]

        npc = data.get("npc", False)
        if not isinstance(npc, bool):
            raise RuleError("Aspects", f"{name}: npc is true or false, not {npc!r}")
        # "all player characters have the (free) Aspect Member of the Society ..." ("Aspects"):
        # a character marked npc is no player character and is not a member by default.
        society = () if npc else (SOCIETY,)
        return cls.build(
            name,
            aspects=names("aspects"),
            skills={str(k): int(v) for k, v in skills.items()},
            experience=experience,
            free_aspects=names("free_aspects", society),
            possessions=names("possessions"),
            languages=names("languages"),
        )

    def level(self, skill_name: str) -> int | None:
        """The level of a skill the character has (``None`` if untrained), by name in any
        case."""
        return level_in(self.skills, skill_name)

    @property
    def spent(self) -> int:
        """Experience spent on skills."""
        return skill_cost(level for _, level in self.skills)

    @property
    def unspent(self) -> int:
        """Experience not spent on skills: what the pool holds at the start of a game."""
        return self.experience - self.spent

    @property
    def extra_aspects(self) -> int:
        """Aspects earned by spending on skills (one per 4 points)."""
        return aspects_for_spending(self.spent)

    @property
    def all_aspects(self) -> tuple[str, ...]:
        """Every Aspect the character bears: own, free-taggable and possessions."""
        return self.aspects + self.free_aspects + self.possessions

    def is_free_taggable(self, aspect: str) -> bool:
        """True for an Aspect "specifically Free-Taggable" (the Society membership)."""
        return aspect.lower() in (a.lower() for a in self.free_aspects)

    def has_aspect(self, aspect: str) -> bool:
        """True if the character bears this Aspect."""
        return aspect.lower() in (a.lower() for a in self.all_aspects)

    @property
    def tracks(self) -> dict[str, int]:
        """Health, Composure and Wealth track lengths from Endurance, Resolve and Assets."""
        return {
            track: stress_track_length(self.level(skill) or 0)
            for track, skill in TRACK_SKILLS.items()
        }

    @property
    def language_allowance(self) -> int:
        """Languages this character may claim beyond the native tongue."""
        return language_allowance(dict(self.skills))

    def pool(self) -> ExperiencePool:
        """The Experience Pool at the start of a game: the unspent points."""
        return ExperiencePool(self.unspent, self.unspent)

    def validate(self) -> Character:
        """The sheet itself if it is legal; else :class:`RuleError` naming the first problem."""
        problems = check_sheet(self)
        if problems:
            rule, reason = problems[0]
            raise RuleError(rule, reason)
        return self

    def to_json(self) -> dict[str, Any]:
        """The sheet with its derived values, as plain JSON."""
        return {
            "name": self.name,
            "aspects": list(self.aspects),
            "free_aspects": list(self.free_aspects),
            "possessions": list(self.possessions),
            "skills": dict(self.skills),
            "experience": self.experience,
            "spent": self.spent,
            "unspent": self.unspent,
            "extra_aspects": self.extra_aspects,
            "tracks": self.tracks,
            "language_allowance": self.language_allowance,
            "languages": list(self.languages),
        }


def check_sheet(character: Character) -> list[tuple[str, str]]:
    """Every problem with a sheet, as (rule, reason) pairs; empty when it is legal.

    Checks: skills are on the v3 list with levels 1 or more ("The Skills List"); the pyramid;
    experience covers the skills ("Buying Skills"); Aspects are unique ("Aspects"); languages
    within the allowance ("Languages").
    """
    problems: list[tuple[str, str]] = []
    for name, level in character.skills:
        try:
            skill_entry(name)
        except RuleError:
            problems.append(("The Skills List", f"{name!r} is not on the v3 skills list"))
            continue
        if level < 1:
            problems.append(("Skills", f"{name} at {level:+d}: a skill is bought at +1 or more"))
    names = [n.lower() for n, _ in character.skills]
    for name, count in Counter(names).items():
        if count > 1:
            problems.append(("Skills", f"skill {name!r} is listed {count} times"))
    levels = [level for _, level in character.skills]
    problems += [("The Skill Pyramid", p) for p in pyramid_problems(levels)]
    if character.unspent < 0:
        problems.append(
            (
                "Buying Skills",
                f"the skills cost {character.spent} points, experience is {character.experience}",
            )
        )
    seen = Counter(a.strip().lower() for a in character.all_aspects)
    for aspect, count in seen.items():
        if count > 1:
            reason = f"Aspect {aspect!r} appears {count} times (must be unique)"
            problems.append(("Aspects", reason))
    if len(character.languages) > character.language_allowance:
        problems.append(
            (
                "Languages",
                f"{len(character.languages)} languages claimed, the skills allow "
                f"{character.language_allowance}",
            )
        )
    return problems


def level_in(skills: tuple[tuple[str, int], ...], skill_name: str) -> int | None:
    """The level of ``skill_name`` among ``skills`` (``None`` if untrained), by name in any
    case: :meth:`Character.level` of a sheet's skills."""
    return _levels_by_name(skills).get(skill_name.lower())


@functools.lru_cache(maxsize=256)
def _levels_by_name(skills: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """A sheet's skills by their lowered names (the first of a name counts): every roll and
    every choice of a fight looks skills up, and the sheets of a table are few."""
    index: dict[str, int] = {}
    for name, level in skills:
        index.setdefault(name.lower(), level)
    return index
