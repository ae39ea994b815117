"""Exact odds of a dice expression, as :class:`~fractions.Fraction` s, built on icepool.

Each dice term becomes an :class:`icepool.Die` of what it contributes (:mod:`referee.dice.terms`
says how); terms are independent, so the expression's tree combines them with icepool's exact
arithmetic, and the operators' meanings come from :mod:`referee.dice.rolling`, so a roll and its
odds cannot disagree.

Every computation carries a :class:`~referee.dice.budget.Budget` of CPU time
(:data:`~referee.dice.budget.ODDS_SECONDS`): it is checked as the work goes, and odds that would
take longer are refused with a :class:`NotationError` that says so. So are odds too large to
write down: a probability whose denominator has more than :data:`MAX_DIGITS` digits, a total
beyond ±10^300 (:data:`MAX_MAGNITUDE`), more than :data:`MAX_PAIRS` pairs of outcomes
in one combination by a function.

>>> odds("3d6+2>=14").probability(True)
Fraction(3, 8)
>>> odds("4d6kh3").mean
Fraction(15869, 1296)
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import icepool

from referee.dice.budget import ODDS_WORK_SECONDS, Budget
from referee.dice.errors import NotationError
from referee.dice.notation import (
    Annotated,
    Binary,
    Compare,
    Dice,
    Expression,
    Function,
    Literal_,
    Node,
    Number,
    Set_,
    SuccessCount,
    Unary,
    parse,
)
from referee.dice.rolling import COMPARATORS, FUNCTIONS, compute, final_total, normalise, select
from referee.dice.terms import TRUNCATE_BELOW, Dist, add, dice_term, joint_truncation

__all__ = ["MAX_DIGITS", "MAX_MAGNITUDE", "MAX_PAIRS", "TRUNCATE_BELOW", "Odds", "odds"]

#: Most pairs (or tuples) of outcomes one combination by a function may visit: each makes an
#: outcome, so this bounds memory as well as time.
MAX_PAIRS = 1_000_000
#: Most digits in the denominator of an exact probability (Python writes integers of up to
#: 4,300 digits; a mean multiplies a probability by a total of up to 300 digits).
MAX_DIGITS = 3_000
#: Largest total, either way, that odds are given for (a mean or a standard deviation must
#: still be a float).
MAX_MAGNITUDE = 10**300
#: Digits kept in a truncated mass (rounded up): it is reported, not computed with.
TRUNCATED_DIGITS = 60
# Estimated cost of one pair of outcomes a combination by a function visits (before it starts).
MAP_PAIR_SECONDS = 2e-6
# Estimated cost of each outcome of a die icepool builds from its weights (5 µs on a host
# 2.2 times slower than the reference machine).
DIE_OUTCOME_SECONDS = 5e-6

Outcome = int | bool


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact distribution of an expression's total.

    ``distribution`` maps each total (a whole number, or true/false) to its probability, in
    ascending order. ``truncated`` is the probability of explosion or reroll chains not
    followed (0 when exact).
    """

    expression: str
    distribution: dict[Outcome, Fraction]
    truncated: Fraction
    moments: tuple[Fraction, Fraction] | None = field(default=None, compare=False, repr=False)
    """The mean and variance, when worked out with the distribution (a cache)."""

    @property
    def mean(self) -> Fraction:
        """The expected total (true counts 1)."""
        if self.moments is not None:
            return self.moments[0]
        return sum((Fraction(int(o)) * p for o, p in self.distribution.items()), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """The variance of the total."""
        if self.moments is not None:
            return self.moments[1]
        mean = self.mean
        return sum(((int(o) - mean) ** 2 * p for o, p in self.distribution.items()), Fraction(0))

    @property
    def stdev(self) -> float:
        """The standard deviation of the total (a float: a square root)."""
        variance = self.variance
        try:
            return math.sqrt(variance)
        except OverflowError:  # beyond a float: take the root of numerator and denominator
            return math.exp((math.log(variance.numerator) - math.log(variance.denominator)) / 2)

    def probability(self, outcome: Outcome) -> Fraction:
        """The probability of exactly ``outcome``."""
        return self.distribution.get(outcome, Fraction(0))

    def at_least(self, outcome: Outcome) -> Fraction:
        """The probability of ``outcome`` or more."""
        return sum((p for o, p in self.distribution.items() if o >= outcome), Fraction(0))

    def at_most(self, outcome: Outcome) -> Fraction:
        """The probability of ``outcome`` or less."""
        return sum((p for o, p in self.distribution.items() if o <= outcome), Fraction(0))

    def __iter__(self) -> Iterator[tuple[Outcome, Fraction]]:
        return iter(self.distribution.items())

    def to_json(self) -> dict[str, Any]:
        """``expression``, ``distribution`` as ``[outcome, "n/d"]`` pairs, ``mean``, ``stdev``,
        ``truncated``."""
        return {
            "expression": self.expression,
            "distribution": [[o, _frac(p)] for o, p in self.distribution.items()],
            "mean": _frac(self.mean),
            "stdev": self.stdev,
            "truncated": _frac(self.truncated),
        }


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p else "0"


def _map(fn: Callable[..., Any], dice: list[Any], budget: Budget) -> Any:
    """The die of ``fn`` of one outcome of each of ``dice`` (``icepool.map(fn, *dice)``, the
    same weights), bounded: refused first when its pairs are too many, the budget ticked at
    every pair, and the die it makes priced before it is built (that cannot be interrupted)."""
    pairs = math.prod(len(d) for d in dice)
    if pairs > MAX_PAIRS:
        raise NotationError(f"{pairs} combinations of outcomes is too many to combine exactly")
    budget.afford(pairs * MAP_PAIR_SECONDS)
    tick = budget.tick
    weights: dict[Any, int] = defaultdict(int)
    if len(dice) == 1:
        for outcome, quantity in dice[0].items():
            tick()
            weights[fn(outcome)] += quantity
    elif len(dice) == 2:
        right = list(dice[1].items())
        for a, left in dice[0].items():
            for b, quantity in right:
                tick()
                weights[fn(a, b)] += left * quantity
    else:
        for each in itertools.product(*(list(d.items()) for d in dice)):
            tick()
            weights[fn(*(o for o, _ in each))] += math.prod(q for _, q in each)
    budget.afford(len(weights) * DIE_OUTCOME_SECONDS)
    return icepool.Die({outcome: quantity for outcome, quantity in weights.items() if quantity})


def _all_ints(die: Any) -> bool:
    return all(type(o) is int for o in die.outcomes())


def _distribution(node: Node, budget: Budget) -> Dist:
    match node:
        case Literal_():
            return Dist(icepool.Die([node.value]))
        case Dice():
            return dice_term(node, None, budget)
        case SuccessCount():
            target, meets_op = node.target, COMPARATORS[node.comparator]
            return dice_term(node.dice, lambda face: meets_op(face, target), budget)
        case Annotated():
            return _distribution(node.inner, budget)
        case Unary():
            inner = _distribution(node.operand, budget)
            if node.op == "+":
                return inner
            return Dist(_map(operator.neg, [inner.die], budget), inner.truncated)
        case Binary():
            left, right = _distribution(node.left, budget), _distribution(node.right, budget)
            trunc = joint_truncation(left.truncated, right.truncated)
            op = node.op
            if op in ("+", "-") and _all_ints(left.die) and _all_ints(right.die):
                fn = operator.add if op == "+" else operator.sub
                return Dist(add(left.die, right.die, budget, fn), trunc)
            if op in ("/", "//", "%") and 0 in right.die.outcomes():
                raise NotationError(f"division by zero can happen ({op} by a total that may be 0)")
            return Dist(_map(lambda a, b: compute(op, a, b), [left.die, right.die], budget), trunc)
        case Compare():
            left, right = _distribution(node.left, budget), _distribution(node.right, budget)
            trunc = joint_truncation(left.truncated, right.truncated)
            cmp = COMPARATORS[node.op]
            pairs = len(left.die) * len(right.die)
            many = pairs > 4 * (len(left.die) + len(right.die))
            if many and _all_ints(left.die) and _all_ints(right.die):
                # a op b exactly when a - b op 0: one subtraction, then one outcome at a time
                difference = add(left.die, right.die, budget, operator.sub)
                return Dist(_map(lambda d: bool(cmp(d, 0)), [difference], budget), trunc)
            die = _map(lambda a, b: bool(cmp(a, b)), [left.die, right.die], budget)
            return Dist(die, trunc)
        case Function():
            args = [_distribution(a, budget) for a in node.args]
            fn = FUNCTIONS[node.name]
            die = _map(lambda *vs: fn(*vs), [a.die for a in args], budget)
            return Dist(die, joint_truncation(*(a.truncated for a in args)))
        case Set_():
            return _set(node, budget)
    raise NotationError(f"no odds for {node!r}")  # pragma: no cover


def _set(node: Set_, budget: Budget) -> Dist:
    items = [_distribution(i, budget) for i in node.items]
    trunc = joint_truncation(*(i.truncated for i in items))
    if not items:
        return Dist(icepool.Die([0]))
    if not node.ops:
        die = items[0].die
        for other in items[1:]:
            if _all_ints(die) and _all_ints(other.die):
                die = add(die, other.die, budget)
            else:
                die = _map(lambda a, b: normalise(a + b), [die, other.die], budget)
        return Dist(die, trunc)

    def keep(*values: Number) -> Number:
        live = list(range(len(values)))
        for op in node.ops:
            chosen = {live[i] for i in select(op.selectors, [values[j] for j in live])}
            live = [j for j in live if (j in chosen) == (op.name == "k")]
        return normalise(sum((values[j] for j in live), start=0))

    return Dist(_map(keep, [i.die for i in items], budget), trunc)


def _bounded(p: Fraction) -> Fraction:
    """``p`` itself, or rounded up to :data:`TRUNCATED_DIGITS` decimals when it is longer."""
    scale = 10**TRUNCATED_DIGITS
    if p.denominator <= scale:
        return p
    return Fraction(-(-p.numerator * scale // p.denominator), scale)


def _finish(expression: Expression, dist: Dist, budget: Budget) -> Odds:
    """The distribution of the final total as fractions, with its mean and variance."""
    weights: dict[Outcome, int] = defaultdict(int)
    for outcome, quantity in dist.die.items():
        budget.tick()
        weights[final_total(outcome)] += quantity
    if any(abs(o) > MAX_MAGNITUDE for o in (min(weights), max(weights))):
        raise NotationError(
            "totals beyond 10^300 either way are too large for odds", expression.text[:60]
        )
    total = sum(weights.values())
    if total.bit_length() > MAX_DIGITS * 3.33:
        raise NotationError(
            f"the exact odds would need fractions of more than {MAX_DIGITS:,} digits; "
            "roll it instead, or use fewer dice"
        )
    distribution: dict[Outcome, Fraction] = {}
    first = second = 0
    for o in sorted(weights):
        budget.tick()
        w = weights[o]
        distribution[o] = Fraction(w, total)
        first += int(o) * w
        second += int(o) * int(o) * w
    mean = Fraction(first, total)
    variance = Fraction(second, total) - mean * mean
    budget.check()
    return Odds(expression.text, distribution, _bounded(dist.truncated), (mean, variance))


@functools.lru_cache(maxsize=512)
def _odds_of(expression: Expression) -> Odds:
    budget = Budget(
        ODDS_WORK_SECONDS,
        "working out these odds exactly takes too long (Referee stops after "
        f"{ODDS_WORK_SECONDS:g} s of CPU time); roll it instead, or use fewer dice",
    )
    return _finish(expression, _distribution(expression.root, budget), budget)


def odds(expression: str | Expression) -> Odds:
    """The exact distribution of ``expression``'s total (cached per expression).

    Refused with :class:`NotationError` when it would take more than a second of CPU time
    (or is too large to write down); the refusal says so.

    >>> odds("2d6").probability(7)
    Fraction(1, 6)
    >>> odds("d6!").truncated > 0
    True
    >>> try:
    ...     odds("1000d6kh500")
    ... except NotationError as error:
    ...     print(error)
    working out these odds exactly takes too long (Referee stops after 0.8 s of CPU time); ...
    """
    parsed = parse(expression) if isinstance(expression, str) else expression
    return _odds_of(parsed)
