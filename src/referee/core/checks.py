"""Checks: one test of the dice as a value, with its exact odds and its roll (DESIGN.md, "Checks").

A check holds its dice, its modifiers and its success rule. ``check.odds()`` gives the exact
probability of every outcome as ``Fraction``s; ``check.roll(source)`` rolls it with the dice shown.
Both read the same dice expression through :mod:`referee.dice`, so they cannot disagree. What
a check rolls, a :class:`Total` or a :class:`Pool`, is in :mod:`referee.core.sides`.

The kinds the five games need:

============================  ==========================================================
:class:`TargetCheck`          dice + modifier against a target: ``>=`` (meet) or ``>`` (beat)
:class:`ObstacleCheck`        a d6 pool counting successes (shade, open-ended 6s) against Ob
:class:`PercentileCheck`      d100 roll-under with criticals on matching digits
:class:`OpposedCheck`         one side's total or successes against the other's, with a tie rule
============================  ==========================================================

>>> check = TargetCheck("3d6", target=14, modifier=2)
>>> check.odds().success
Fraction(3, 8)
>>> from referee.dice import ScriptedSource
>>> result = check.roll(ScriptedSource([6, 5, 1]))
>>> result.outcome, result.value, result.margin, result.faces
(<Outcome.SUCCESS: 'success'>, 14, 0, (6, 5, 1))
"""

from __future__ import annotations

import bisect
import enum
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeAlias

from referee.core.sides import BLACK, GREY, WHITE, Pool, Side, Total, distribution_of
from referee.dice import DiceSource, Roll, roll

__all__ = [
    "BLACK",
    "GREY",
    "WHITE",
    "Check",
    "CheckOdds",
    "CheckResult",
    "Comparison",
    "ObstacleCheck",
    "OpposedCheck",
    "Outcome",
    "PercentileCheck",
    "Pool",
    "Side",
    "TargetCheck",
    "TieRule",
    "Total",
]

Comparison: TypeAlias = Literal[">=", ">"]
"""How a total meets its target: ``">="`` "equal to or greater", ``">"`` "beat", "exceed"."""


class Outcome(enum.Enum):
    """What a check came to. Each check kind produces only some of these (see its docstring)."""

    CRITICAL_SUCCESS = "critical success"
    SUCCESS = "success"
    TIE = "tie"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical failure"

    @property
    def is_success(self) -> bool:
        """True for a success, critical or not."""
        return self in (Outcome.SUCCESS, Outcome.CRITICAL_SUCCESS)

    @property
    def is_failure(self) -> bool:
        """True for a failure, critical or not (a tie is neither)."""
        return self in (Outcome.FAILURE, Outcome.CRITICAL_FAILURE)

    @property
    def is_critical(self) -> bool:
        """True for a critical success or a critical failure."""
        return self in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE)


class TieRule(enum.Enum):
    """Who wins an opposed check whose two sides come out equal.

    ``ACTOR_WINS``: the acting side (Hursagmu; Intrigue's "equal to or greater").
    ``OPPONENT_WINS``: the defender (Burning Wheel's versus test; "strictly greater" to win).
    ``TIE``: a tie stands as :attr:`Outcome.TIE` (Gin Lane's "a Match").
    """

    ACTOR_WINS = "actor wins"
    OPPONENT_WINS = "opponent wins"
    TIE = "tie"


# ---------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CheckOdds:
    """The exact odds of a check.

    ``outcomes`` gives each outcome the check kind can produce, exclusive of each other (a
    critical success is not also counted under ``SUCCESS``); they sum to 1. ``margins`` is the
    distribution of the margin (see each check kind), ascending. ``successes`` is, for pool
    checks, the distribution of the (actor's) successes; ``None`` otherwise.

    >>> o = PercentileCheck(50).odds()
    >>> o.success, o.critical_success, o.outcomes[Outcome.SUCCESS]
    (Fraction(1, 2), Fraction(1, 20), Fraction(9, 20))
    """

    outcomes: Mapping[Outcome, Fraction]
    margins: Mapping[int, Fraction]
    successes: Mapping[int, Fraction] | None = None

    def probability(self, outcome: Outcome) -> Fraction:
        """Probability of exactly ``outcome`` (0 if this kind cannot produce it)."""
        return self.outcomes.get(outcome, Fraction(0))

    @property
    def success(self) -> Fraction:
        """Probability of any success, critical included."""
        return sum((p for o, p in self.outcomes.items() if o.is_success), Fraction(0))

    @property
    def failure(self) -> Fraction:
        """Probability of any failure, critical included (a tie is not a failure)."""
        return sum((p for o, p in self.outcomes.items() if o.is_failure), Fraction(0))

    @property
    def critical_success(self) -> Fraction:
        """Probability of a critical success."""
        return self.probability(Outcome.CRITICAL_SUCCESS)

    @property
    def critical_failure(self) -> Fraction:
        """Probability of a critical failure."""
        return self.probability(Outcome.CRITICAL_FAILURE)

    @property
    def tie(self) -> Fraction:
        """Probability of a tie that stands (only with :attr:`TieRule.TIE`)."""
        return self.probability(Outcome.TIE)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: fractions as ``"n/d"`` strings."""
        return {
            "outcomes": {o.value: str(p) for o, p in self.outcomes.items()},
            "margins": {str(m): str(p) for m, p in self.margins.items()},
            "successes": None
            if self.successes is None
            else {str(s): str(p) for s, p in self.successes.items()},
        }


@dataclass(frozen=True)
class CheckResult:
    """A rolled check: its outcome, value and margin, and the dice behind it.

    ``value`` is the actor's total, successes, or d100 face; ``margin`` as the check kind
    defines it; ``opponent_value`` the other side's value in an opposed check. ``rolls`` are the
    :class:`referee.dice.Roll` s behind it (the actor's, then the opponent's), and ``faces`` every
    face rolled, in the order the source gave them — what an event records so a log replays.
    """

    outcome: Outcome
    value: int
    margin: int
    rolls: tuple[Roll, ...] = field(default=(), compare=False)
    faces: tuple[int, ...] = ()
    opponent_value: int | None = None

    @property
    def is_success(self) -> bool:
        """True for a success, critical or not."""
        return self.outcome.is_success

    def describe(self) -> str:
        """One line for a person: the rolls and the outcome."""
        shown = "; ".join(r.describe() for r in self.rolls) or "no dice"
        return f"{shown} → {self.outcome.value} (margin {self.margin:+d})"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for an event payload: outcome, value, margin, faces, opponent value."""
        data: dict[str, Any] = {
            "outcome": self.outcome.value,
            "value": self.value,
            "margin": self.margin,
            "faces": list(self.faces),
        }
        if self.opponent_value is not None:
            data["opponent_value"] = self.opponent_value
        return data


class Check(Protocol):
    """What every check kind offers: exact odds and a roll, from the same dice."""

    def odds(self) -> CheckOdds:
        """The exact probability of each outcome."""
        ...

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll it, taking every die from ``source``."""
        ...


#: Most checks whose odds are kept in memory at once.
ODDS_CACHE_SIZE = 1024


def _memoised(check: TargetCheck | ObstacleCheck | PercentileCheck | OpposedCheck) -> CheckOdds:
    """``check``'s odds, worked out once per check value (checks are frozen values): a copy, so
    that a caller changing its dictionaries cannot change the next caller's."""
    odds = _odds_of(check)
    return CheckOdds(
        outcomes=dict(odds.outcomes),
        margins=dict(odds.margins),
        successes=None if odds.successes is None else dict(odds.successes),
    )


@functools.lru_cache(maxsize=ODDS_CACHE_SIZE)
def _odds_of(check: TargetCheck | ObstacleCheck | PercentileCheck | OpposedCheck) -> CheckOdds:
    return check._odds()


def _term(side: Side) -> str:
    """A side as a term of a dice expression: its value, in parentheses."""
    if isinstance(side, Pool) and side.dice <= 0:
        return "0"
    return f"({side.expression})"


class _Recording:
    """A dice source that remembers every face it hands out, in order."""

    __slots__ = ("faces", "source")

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.faces: list[int] = []

    def roll(self, sides: int) -> int:
        face = self.source.roll(sides)
        self.faces.append(face)
        return face


def _rolls(*rolls: Roll | None) -> tuple[Roll, ...]:
    return tuple(r for r in rolls if r is not None)


def _accumulate(
    pairs: Mapping[tuple[Outcome, int], Fraction],
) -> tuple[dict[Outcome, Fraction], dict[int, Fraction]]:
    outcomes: dict[Outcome, Fraction] = {}
    margins: dict[int, Fraction] = {}
    for (outcome, margin), p in pairs.items():
        outcomes[outcome] = outcomes.get(outcome, Fraction(0)) + p
        margins[margin] = margins.get(margin, Fraction(0)) + p
    return outcomes, dict(sorted(margins.items()))


def _odds_against(
    distribution: Mapping[int, Fraction], outcome_of: Callable[[int], Outcome], threshold: int
) -> tuple[dict[Outcome, Fraction], dict[int, Fraction]]:
    """Pass/fail odds and margins of a value (a total, successes) against a fixed threshold."""
    pairs: dict[tuple[Outcome, int], Fraction] = {}
    for value, p in distribution.items():
        key = (outcome_of(value), value - threshold)
        pairs[key] = pairs.get(key, Fraction(0)) + p
    outcomes, margins = _accumulate(pairs)
    for o in (Outcome.SUCCESS, Outcome.FAILURE):
        outcomes.setdefault(o, Fraction(0))
    return outcomes, margins


def _roll_against(
    side: Total | Pool, source: DiceSource, outcome_of: Callable[[int], Outcome], threshold: int
) -> CheckResult:
    """Roll ``side`` and judge its value against a fixed threshold."""
    rec = _Recording(source)
    value, rolled = side.roll(rec)
    return CheckResult(
        outcome=outcome_of(value),
        value=value,
        margin=value - threshold,
        rolls=_rolls(rolled),
        faces=tuple(rec.faces),
    )


# ---------------------------------------------------------------------------------- kinds


@dataclass(frozen=True)
class TargetCheck:
    """Dice plus a modifier against a fixed target number.

    ``comparison=">="`` succeeds when the total equals or exceeds ``target`` (Intrigue,
    Hursagmu); ``">"`` when it beats it (Gin Lane). Outcomes: ``SUCCESS``, ``FAILURE``.
    Margin: total − target.

    >>> TargetCheck("2d6", target=8, modifier=1, comparison=">").odds().success
    Fraction(5, 12)
    """

    dice: str
    target: int
    modifier: int = 0
    comparison: Comparison = ">="

    @property
    def side(self) -> Total:
        """The rolling side: the dice and the modifier."""
        return Total(self.dice, self.modifier)

    def _outcome(self, total: int) -> Outcome:
        ok = total >= self.target if self.comparison == ">=" else total > self.target
        return Outcome.SUCCESS if ok else Outcome.FAILURE

    def odds(self) -> CheckOdds:
        """Exact odds of success and failure, and of each margin (memoised per check)."""
        return _memoised(self)

    def _odds(self) -> CheckOdds:
        outcomes, margins = _odds_against(self.side.distribution(), self._outcome, self.target)
        return CheckOdds(outcomes=outcomes, margins=margins)

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll the dice and compare the total with the target."""
        return _roll_against(self.side, source, self._outcome, self.target)


@dataclass(frozen=True)
class ObstacleCheck:
    """A d6 pool counting successes against an obstacle (Burning Wheel's independent test).

    Passes when successes ≥ ``obstacle``. Outcomes: ``SUCCESS``, ``FAILURE``. Margin (of
    success): successes − obstacle. ``odds().successes`` is the distribution of successes.

    >>> ObstacleCheck(4, obstacle=2).odds().success
    Fraction(11, 16)
    """

    dice: int
    obstacle: int
    shade: int = BLACK
    open_ended: bool = False

    @property
    def pool(self) -> Pool:
        """The rolling pool."""
        return Pool(self.dice, self.shade, self.open_ended)

    def _outcome(self, successes: int) -> Outcome:
        return Outcome.SUCCESS if successes >= self.obstacle else Outcome.FAILURE

    def odds(self) -> CheckOdds:
        """Exact odds of passing and failing, and of each margin and number of successes
        (memoised per check)."""
        return _memoised(self)

    def _odds(self) -> CheckOdds:
        dist = self.pool.distribution()
        outcomes, margins = _odds_against(dist, self._outcome, self.obstacle)
        return CheckOdds(outcomes=outcomes, margins=margins, successes=dist)

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll the pool and count successes against the obstacle."""
        return _roll_against(self.pool, source, self._outcome, self.obstacle)


@dataclass(frozen=True)
class PercentileCheck:
    """d100 roll-under: succeed when the face (1–100) is at most ``chance`` + ``modifier``.

    Criticals, as Zweihänder: matching digits (11, 22 … 99) are a ``CRITICAL_SUCCESS`` when
    they succeed and a ``CRITICAL_FAILURE`` when they fail; 1 is always a critical success and
    100 always a critical failure, whatever the chance. ``modifier`` is the Difficulty Rating;
    the game clamps the total chance if its rules say so. Margin: total chance − face.

    >>> from referee.dice import ScriptedSource
    >>> PercentileCheck(45, modifier=-10).roll(ScriptedSource([33])).outcome
    <Outcome.CRITICAL_SUCCESS: 'critical success'>
    """

    chance: int
    modifier: int = 0

    @property
    def total_chance(self) -> int:
        """The chance to roll under: ``chance + modifier``."""
        return self.chance + self.modifier

    def outcome_of(self, face: int) -> Outcome:
        """The outcome of a d100 face (1–100)."""
        if face == 1:
            return Outcome.CRITICAL_SUCCESS
        if face == 100:
            return Outcome.CRITICAL_FAILURE
        ok = face <= self.total_chance
        matching = face < 100 and face % 11 == 0
        if ok:
            return Outcome.CRITICAL_SUCCESS if matching else Outcome.SUCCESS
        return Outcome.CRITICAL_FAILURE if matching else Outcome.FAILURE

    def odds(self) -> CheckOdds:
        """Exact odds of the four outcomes, and of each margin (memoised per check)."""
        return _memoised(self)

    def _odds(self) -> CheckOdds:
        pairs: dict[tuple[Outcome, int], Fraction] = {}
        for face, p in distribution_of("1d100").items():
            key = (self.outcome_of(face), self.total_chance - face)
            pairs[key] = pairs.get(key, Fraction(0)) + p
        outcomes, margins = _accumulate(pairs)
        for o in (
            Outcome.CRITICAL_SUCCESS,
            Outcome.SUCCESS,
            Outcome.FAILURE,
            Outcome.CRITICAL_FAILURE,
        ):
            outcomes.setdefault(o, Fraction(0))
        return CheckOdds(outcomes=outcomes, margins=margins)

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll 1d100 and read the face."""
        rec = _Recording(source)
        rolled = roll("1d100", rec)
        face = int(rolled.total)
        return CheckResult(
            outcome=self.outcome_of(face),
            value=face,
            margin=self.total_chance - face,
            rolls=(rolled,),
            faces=tuple(rec.faces),
        )


@dataclass(frozen=True)
class OpposedCheck:
    """One side against the other: totals (:class:`Total`) or successes (:class:`Pool`).

    The actor succeeds with the higher value; ``ties`` says who wins equal values
    (:class:`TieRule`). Outcomes: ``SUCCESS`` (the actor wins), ``FAILURE`` (the opponent wins),
    ``TIE`` (only with ``TieRule.TIE``). Margin: actor's value − opponent's. The two sides are
    independent, so the exact odds are the product of their distributions. The actor rolls first.

    >>> OpposedCheck(Total("2d6", 2), Total("2d6", 2), TieRule.ACTOR_WINS).odds().success
    Fraction(721, 1296)
    """

    actor: Side
    opponent: Side
    ties: TieRule = TieRule.ACTOR_WINS

    def _outcome(self, mine: int, theirs: int) -> Outcome:
        if mine > theirs:
            return Outcome.SUCCESS
        if mine < theirs:
            return Outcome.FAILURE
        return {
            TieRule.ACTOR_WINS: Outcome.SUCCESS,
            TieRule.OPPONENT_WINS: Outcome.FAILURE,
            TieRule.TIE: Outcome.TIE,
        }[self.ties]

    def odds(self) -> CheckOdds:
        """Exact odds of each outcome and margin; for pools, the actor's successes too
        (memoised per check).

        The margin is one exact-probability expression, the actor's side minus the opponent's
        (``(16d6!>=4)-(12d6!>=4)``): the dice layer subtracts the two distributions with
        icepool; each outcome is then a sum over margins (the sign of the margin decides it).
        """
        return _memoised(self)

    def _odds(self) -> CheckOdds:
        margins = distribution_of(f"{_term(self.actor)}-{_term(self.opponent)}")
        mine = self.actor.distribution()
        outcomes = dict.fromkeys(self._outcome_order(mine), Fraction(0))
        for margin, p in margins.items():
            outcomes[self._outcome(margin, 0)] += p
        successes = mine if isinstance(self.actor, Pool) else None
        return CheckOdds(outcomes=outcomes, margins=margins, successes=successes)

    def _outcome_order(self, mine: Mapping[int, Fraction]) -> list[Outcome]:
        """The outcomes in the order the pairs of values first show them (the actor's values
        ascending, then the opponent's), followed by those that cannot happen: the order they
        have always been listed in."""
        theirs = list(self.opponent.distribution())  # ascending
        low, high = theirs[0], theirs[-1]
        first: dict[Outcome, tuple[int, int]] = {}
        for a in mine:  # ascending
            candidates = []  # for each sign of a - b, the least b giving it
            if a > low:
                candidates.append((a, low))
            above = bisect.bisect_right(theirs, a)
            if above and theirs[above - 1] == a:
                candidates.append((a, a))
            if a < high:
                candidates.append((a, theirs[above]))
            for pair in candidates:
                first.setdefault(self._outcome(*pair), pair)
        order = sorted(first, key=first.__getitem__)
        rest = [Outcome.SUCCESS, Outcome.FAILURE]
        if self.ties is TieRule.TIE:
            rest.append(Outcome.TIE)
        return order + [o for o in rest if o not in first]

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll the actor's side, then the opponent's, and compare."""
        rec = _Recording(source)
        mine, my_roll = self.actor.roll(rec)
        theirs, their_roll = self.opponent.roll(rec)
        return CheckResult(
            outcome=self._outcome(mine, theirs),
            value=mine,
            margin=mine - theirs,
            rolls=_rolls(my_roll, their_roll),
            faces=tuple(rec.faces),
            opponent_value=theirs,
        )
