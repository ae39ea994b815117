"""The percentile core: Base Chance, Difficulty Rating, criticals, Assist Die, Chaos Dice.

Zweihänder's core facts (parent-games.md, "Zweihänder"), which the house rules use throughout:
a Skill Test rolls d100 under its Total Chance = Base Chance + Difficulty Rating, clamped to
1–99; matching digits (11 … 99) are critical, 01 always a Critical Success and 100 (00) always a
Critical Failure. An Assist Die is a d10 that may replace either digit of the roll, the better
for the tester. A Chaos Die is a d6 that triggers on a 6.

>>> test = SkillTest(base_chance=45, difficulty=difficulty("Hard"))
>>> test.total_chance
25
>>> test.odds().success
Fraction(1, 4)
>>> from referee.dice import ScriptedSource
>>> test.roll(ScriptedSource([22])).outcome.value
'critical success'
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from referee.core import CheckOdds, CheckResult, Outcome, PercentileCheck, RuleError
from referee.dice import DiceSource, roll
from referee.systems.zweihander.tables import DifficultyRating, difficulty_ladder

__all__ = [
    "DIFFICULTY_NAMES",
    "MAX_CHANCE",
    "MIN_CHANCE",
    "OUTCOME_RANK",
    "ChaosDice",
    "ChaosResult",
    "Difficulty",
    "SkillTest",
    "assisted_face",
    "base_chance",
    "bump",
    "canonical",
    "difficulty",
    "difficulty_name",
    "digits",
    "face_of",
    "roll_peril",
    "step_difficulty",
    "total_chance",
]

MIN_CHANCE = 1
"""Total Chance never falls below 1 (parent-games.md)."""
MAX_CHANCE = 99
"""Total Chance never rises above 99 (parent-games.md)."""

OUTCOME_RANK: Mapping[Outcome, int] = {
    Outcome.CRITICAL_FAILURE: 0,
    Outcome.FAILURE: 1,
    Outcome.SUCCESS: 2,
    Outcome.CRITICAL_SUCCESS: 3,
}
"""How good an outcome is for the tester (what the Assist Die maximises)."""


DifficultyName = Literal["Trivial", "Easy", "Routine", "Standard", "Challenging", "Hard", "Arduous"]
DIFFICULTY_NAMES: tuple[str, ...] = typing.get_args(DifficultyName)
"""The Difficulty Ratings by name, easiest first (the ladder's, checked against its data file)."""


def canonical(names: Sequence[str]) -> Callable[[Any], Any]:
    """A reader for a closed set of words: any case and spacing reads as the word as written.

    Anything else is handed on unchanged, for the parameter's type to refuse by name.

    >>> canonical(("Stress", "Fear"))(" fear"), canonical(("Stress",))(3)
    ('Fear', 3)
    """
    by_key = {" ".join(n.lower().split()): n for n in names}

    def read(value: Any) -> Any:
        if isinstance(value, str):
            return by_key.get(" ".join(value.lower().split()), value)
        return value

    return read


def _difficulty_words(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip().rstrip("%").replace("+/-", "")
        named = canonical(DIFFICULTY_NAMES)(text)
        if named in DIFFICULTY_NAMES:
            return named
        try:
            return int(text)
        except ValueError:
            return value
    return value


Difficulty = Annotated[
    Literal[
        "Trivial",
        "Easy",
        "Routine",
        "Standard",
        "Challenging",
        "Hard",
        "Arduous",
        30,
        20,
        10,
        0,
        -10,
        -20,
        -30,
    ],
    BeforeValidator(_difficulty_words),
]
"""A Difficulty Rating as a parameter: its name (any case) or its modifier (``-20``, ``"-20%"``)."""


def base_chance(primary_attribute: int, skill_ranks: int) -> int:
    """Base Chance = primary attribute + 10 per Skill Rank (parent-games.md, "Skill test").

    >>> base_chance(42, 2)
    62
    """
    if skill_ranks < 0:
        raise RuleError("Base Chance", f"skill ranks cannot be negative ({skill_ranks})")
    return primary_attribute + 10 * skill_ranks


def difficulty(name_or_modifier: str | int) -> int:
    """The modifier of a Difficulty Rating given by name ("Hard") or modifier (-20, "-20%").

    >>> difficulty("Trivial"), difficulty("hard"), difficulty(-10), difficulty("+10%")
    (30, -20, -10, 10)
    """
    ladder = difficulty_ladder()
    if isinstance(name_or_modifier, int) and not isinstance(name_or_modifier, bool):
        value = name_or_modifier
    else:
        text = str(name_or_modifier).strip().rstrip("%").replace("+/-", "")
        for rating in ladder:
            if rating.name.lower() == text.lower():
                return rating.modifier
        try:
            value = int(text)
        except ValueError:
            names = ", ".join(r.name for r in ladder)
            raise RuleError(
                "Difficulty Rating", f"{name_or_modifier!r} is not one of {names}"
            ) from None
    if value not in {r.modifier for r in ladder}:
        raise RuleError(
            "Difficulty Rating", f"{value:+d} is not on the ladder (+30 to -30 in steps of 10)"
        )
    return value


def difficulty_name(modifier: int) -> str:
    """The name of the Difficulty Rating with this modifier.

    >>> difficulty_name(-30)
    'Arduous'
    """
    return _rating(modifier).name


def _rating(modifier: int) -> DifficultyRating:
    for rating in difficulty_ladder():
        if rating.modifier == modifier:
            return rating
    raise RuleError("Difficulty Rating", f"{modifier:+d} is not on the ladder")


def step_difficulty(modifier: int, steps: int) -> int:
    """The Difficulty Rating ``steps`` harder (positive) or easier (negative), kept on the ladder.

    >>> step_difficulty(-20, 1), step_difficulty(-30, 1), step_difficulty(30, -1)
    (-30, -30, 30)
    """
    ladder = [r.modifier for r in difficulty_ladder()]
    index = ladder.index(difficulty(modifier)) + steps
    return ladder[max(0, min(len(ladder) - 1, index))]


def total_chance(base: int, modifier: int = 0) -> int:
    """Total Chance = Base Chance + Difficulty Rating, clamped to 1–99 (parent-games.md).

    >>> total_chance(85, 30), total_chance(10, -30), total_chance(45, 0)
    (99, 1, 45)
    """
    return max(MIN_CHANCE, min(MAX_CHANCE, base + modifier))


def digits(face: int) -> tuple[int, int]:
    """The tens and units digits of a d100 face; 100 reads "00".

    >>> digits(37), digits(100), digits(5)
    ((3, 7), (0, 0), (0, 5))
    """
    return (face % 100) // 10, face % 10


def face_of(tens: int, units: int) -> int:
    """The d100 face that two digits read as; "00" is 100.

    >>> face_of(0, 0), face_of(0, 1), face_of(4, 2)
    (100, 1, 42)
    """
    value = 10 * tens + units
    return 100 if value == 0 else value


def _outcome(chance: int, face: int) -> Outcome:
    return PercentileCheck(chance).outcome_of(face)


def assisted_face(chance: int, face: int, assist: int) -> int:
    """The face the tester keeps with an Assist Die: the roll, or either digit replaced.

    ``assist`` is the d10's face (10 reads 0). The best outcome for the tester wins; among
    equally good faces, the lowest (the widest margin). (parent-games.md, "Assist Die".)

    >>> assisted_face(40, 57, 3)   # 37 succeeds where 57 and 53 fail
    37
    >>> assisted_face(40, 57, 5)   # 55 is a critical failure: keep 57
    57
    """
    digit = assist % 10
    tens, units = digits(face)
    candidates = {face, face_of(digit, units), face_of(tens, digit)}
    return min(candidates, key=lambda f: (-OUTCOME_RANK[_outcome(chance, f)], f))


def bump(outcome: Outcome, *, favourable: bool = False, unfavourable: bool = False) -> Outcome:
    """A Favourable Skill bumps a Success to a Critical Success; an Unfavourable Skill drops a
    Failure to a Critical Failure (house rules, "Social Intrigue", Complex Exchange).

    >>> bump(Outcome.SUCCESS, favourable=True).value, bump(Outcome.FAILURE, favourable=True).value
    ('critical success', 'failure')
    """
    if favourable and outcome is Outcome.SUCCESS:
        return Outcome.CRITICAL_SUCCESS
    if unfavourable and outcome is Outcome.FAILURE:
        return Outcome.CRITICAL_FAILURE
    return outcome


@dataclass(frozen=True)
class SkillTest:
    """A percentile Skill Test: Base Chance, Difficulty Rating, and whether an Assist Die helps.

    ``favourable``/``unfavourable`` apply the Complex Exchange bumps (:func:`bump`). One object
    gives the exact odds and the roll, so they cannot disagree.

    >>> SkillTest(50, assist=True).odds().success
    Fraction(377, 500)
    """

    base_chance: int
    difficulty: int = 0
    assist: bool = False
    favourable: bool = False
    unfavourable: bool = False

    @property
    def total_chance(self) -> int:
        """Base Chance + Difficulty Rating, clamped to 1–99."""
        return total_chance(self.base_chance, self.difficulty)

    def outcome_of(self, face: int) -> Outcome:
        """The outcome of a d100 face (after any Assist Die), with the bumps applied."""
        return bump(
            _outcome(self.total_chance, face),
            favourable=self.favourable,
            unfavourable=self.unfavourable,
        )

    def odds(self) -> CheckOdds:
        """Exact odds of the four outcomes and of each margin (Total Chance − face).

        Memoised: a test is a value, and the same test's odds are asked for again and again.
        """
        return _test_odds(self)

    def _odds(self) -> CheckOdds:
        chance = self.total_chance
        weight = Fraction(1, 1000) if self.assist else Fraction(1, 100)
        outcomes = dict.fromkeys(OUTCOME_RANK, Fraction(0))
        margins: dict[int, Fraction] = {}
        for face in range(1, 101):
            kept = [assisted_face(chance, face, a) for a in range(1, 11)] if self.assist else [face]
            for final in kept:
                outcome = self.outcome_of(final)
                outcomes[outcome] += weight
                margin = chance - final
                margins[margin] = margins.get(margin, Fraction(0)) + weight
        ordered = {o: outcomes[o] for o in sorted(outcomes, key=lambda o: -OUTCOME_RANK[o])}
        return CheckOdds(outcomes=ordered, margins=dict(sorted(margins.items())))

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll d100 (then the Assist Die's d10, if any) and read the outcome."""
        chance = self.total_chance
        d100 = roll("1d100", source)
        face = int(d100.total)
        faces = [face]
        rolls = [d100]
        final = face
        if self.assist:
            d10 = roll("1d10", source)
            faces.append(int(d10.total))
            rolls.append(d10)
            final = assisted_face(chance, face, int(d10.total))
        return CheckResult(
            outcome=self.outcome_of(final),
            value=final,
            margin=chance - final,
            rolls=tuple(rolls),
            faces=tuple(faces),
        )

    def to_json(self) -> dict[str, Any]:
        """The test as JSON: base chance, difficulty, total chance, assist."""
        return {
            "base_chance": self.base_chance,
            "difficulty": self.difficulty,
            "total_chance": self.total_chance,
            "assist": self.assist,
        }


@cache
def _test_odds(test: SkillTest) -> CheckOdds:
    return test._odds()


@dataclass(frozen=True)
class ChaosResult:
    """Chaos Dice rolled: their faces and how many triggered (rolled a 6)."""

    faces: tuple[int, ...]

    @property
    def sixes(self) -> int:
        """How many Chaos Dice came up 6."""
        return sum(1 for f in self.faces if f == 6)

    @property
    def triggered(self) -> bool:
        """True when any Chaos Die came up 6."""
        return self.sixes > 0


@dataclass(frozen=True)
class ChaosDice:
    """``count`` Chaos Dice: d6s that trigger on a 6 (parent-games.md, "Chaos Die").

    >>> ChaosDice(2).odds()
    Fraction(11, 36)
    """

    count: int

    def odds(self) -> Fraction:
        """Exact probability that at least one Chaos Die triggers."""
        if self.count <= 0:
            return Fraction(0)
        return 1 - Fraction(5, 6) ** self.count

    def roll(self, source: DiceSource) -> ChaosResult:
        """Roll them (none for a count of 0)."""
        return ChaosResult(tuple(source.roll(6) for _ in range(max(0, self.count))))


def roll_peril(expression: str, source: DiceSource) -> tuple[int, tuple[int, ...]]:
    """Roll a Peril expression such as ``2d10+2``: the total and the faces.

    >>> from referee.dice import ScriptedSource
    >>> roll_peril("2d10+2", ScriptedSource([3, 9]))
    (14, (3, 9))
    """
    rolled = roll(expression, source)
    return int(rolled.total), rolled.faces
