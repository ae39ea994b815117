"""Exact odds of a dice expression, as :class:`~fractions.Fraction` s, built on icepool.

Each dice term is turned into an :class:`icepool.Die` of what it contributes (its sum, or its
count of successes); terms are independent, so the expression's tree combines them with
icepool's exact arithmetic. A term takes the first exact path that fits it:

1. plain ``NdS``: icepool's sum of N dice (or of N 0/1 success dice);
2. operators that look at each die's own value only (``rr1``, ``e6``, ``k>3``, ``mi2`` …):
   every die is independent, so one die is enumerated through the roller itself and N of them
   are summed;
3. rerolls and limits, then keep/drop by rank (``4d6kh3``, ``4d6ro1kh3``): icepool's pools;
4. anything else: the roller itself, enumerated over every sequence of faces.

Explosions and repeated rerolls are followed until a branch's probability falls below
:data:`TRUNCATE_BELOW`; the probability not followed is reported as ``truncated`` and the
distribution is that of the rolls that stop before it (renormalised). Nothing else is
approximate.

>>> odds("3d6+2>=14").probability(True)
Fraction(19, 54)
>>> odds("4d6kh3").mean
Fraction(15869, 1296)
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

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
from referee.dice.rolling import (
    COMPARATORS,
    FUNCTIONS,
    Roller,
    compute,
    final_total,
    normalise,
    select,
)

#: A branch of an explosion or reroll chain less likely than this is not followed.
TRUNCATE_BELOW = Fraction(1, 10**12)
#: Most roller runs the general enumeration may make for one term.
MAX_ENUMERATION = 200_000
#: Most distinct sorted pools the keep/drop path may expand.
MAX_POOL_STATES = 300_000
#: Most outcome pairs one combination may visit.
MAX_PRODUCT = 5_000_000

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

    @property
    def mean(self) -> Fraction:
        """The expected total (true counts 1)."""
        return sum((Fraction(int(o)) * p for o, p in self.distribution.items()), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """The variance of the total."""
        mean = self.mean
        return sum(((int(o) - mean) ** 2 * p for o, p in self.distribution.items()), Fraction(0))

    @property
    def stdev(self) -> float:
        """The standard deviation of the total (a float: a square root)."""
        return math.sqrt(self.variance)

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


@dataclass(frozen=True, slots=True)
class _Dist:
    """A term's distribution and the probability truncated while building it."""

    die: Any  # icepool.Die
    truncated: Fraction = Fraction(0)


def _die_from(weights: dict[Any, Fraction]) -> Any:
    """An icepool Die from outcome → probability (any positive total)."""
    denominator = math.lcm(*(p.denominator for p in weights.values()))
    return icepool.Die({o: int(p * denominator) for o, p in weights.items() if p})


def _joint_truncation(*parts: Fraction) -> Fraction:
    kept = Fraction(1)
    for t in parts:
        kept *= 1 - t
    return 1 - kept


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Replay:
    """A dice source that replays a prefix of faces, then asks for the next die."""

    __slots__ = ("faces", "used")

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.faces):
            raise _NeedDie(sides)
        face = self.faces[self.used]
        self.used += 1
        return face


def enumerate_roller(run: Callable[[Roller], Outcome | Number]) -> tuple[dict[Any, Fraction], Fraction]:
    """Every outcome of ``run`` (which rolls through the roller it is given) with its exact
    probability, following chains until they fall below :data:`TRUNCATE_BELOW`.

    Returns the outcome weights (summing to 1 − truncated) and the truncated probability.
    """
    results: dict[Any, Fraction] = defaultdict(Fraction)
    truncated = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    runs = 0
    while stack:
        prefix, p = stack.pop()
        runs += 1
        if runs > MAX_ENUMERATION:
            raise NotationError(
                "too many possible rolls to enumerate exactly; simplify the expression"
            )
        try:
            outcome = run(Roller(_Replay(prefix)))
        except _NeedDie as need:
            if p < TRUNCATE_BELOW:
                truncated += p
                continue
            share = p / need.sides
            stack.extend((prefix + (face,), share) for face in range(need.sides, 0, -1))
            continue
        except NotationError as error:
            if "dice rolled" in error.reason:  # the roller's own cap: the roll never ends
                truncated += p
                continue
            raise
        results[outcome] += p
    return dict(results), truncated


def _single_die(node: Dice, count: bool, meets: Callable[[int], bool] | None) -> _Dist:
    """One die of ``node`` with all its operators, enumerated through the roller."""
    one = Dice(1, node.sides, node.ops, node.text)

    def run(roller: Roller) -> int:
        dice = roller.dice(one)
        if meets is None:
            return sum(d.face for d in dice if d.kept)
        return sum(1 for d in dice if d.kept and meets(d.face))

    weights, truncated = enumerate_roller(run)
    return _Dist(_die_from(weights), truncated)


def _dice_term(node: Dice, meets: Callable[[int], bool] | None) -> _Dist:
    counting = meets is not None
    if node.count == 0:
        return _Dist(icepool.Die([0]))
    if not node.ops:
        base = icepool.d(node.sides)
        if meets is not None:
            base = icepool.Die({1: sum(1 for f in range(1, node.sides + 1) if meets(f)),
                                0: sum(1 for f in range(1, node.sides + 1) if not meets(f))})
        return _Dist(node.count @ base)
    if all(op.is_by_value() for op in node.ops):
        one = _single_die(node, counting, meets)
        return _Dist(node.count @ one.die, _joint_truncation(*[one.truncated] * node.count))
    first_keep = next((i for i, op in enumerate(node.ops) if op.name in ("k", "p")), 0)
    prefix, rest = node.ops[:first_keep], node.ops[first_keep:]
    if all(op.name in ("rr", "ro", "mi", "ma") for op in prefix) and all(
        op.name in ("k", "p") for op in rest
    ):
        return _pool_term(node, prefix, rest, meets)
    return _enumerated_term(node, meets)


def _pool_term(node: Dice, prefix: tuple[Any, ...], rest: tuple[Any, ...],
               meets: Callable[[int], bool] | None) -> _Dist:
    truncated = Fraction(0)
    if prefix:
        one = _single_die(Dice(1, node.sides, prefix, node.text), False, None)
        face, truncated = one.die, _joint_truncation(*[one.truncated] * node.count)
    else:
        face = icepool.d(node.sides)
    pool = face.pool(node.count)
    if (len(rest) == 1 and len(rest[0].selectors) == 1 and meets is None
            and not rest[0].selectors[0].is_by_value()):
        sel = rest[0].selectors[0]
        n = min(sel.value, node.count)
        if rest[0].name == "k":
            kept = pool.highest(n) if sel.kind == "h" else pool.lowest(n)
        else:
            kept = pool.lowest(node.count - n) if sel.kind == "h" else pool.highest(node.count - n)
        return _Dist(kept.sum(), truncated)
    states = math.comb(node.count + len(face) - 1, node.count)
    if states > MAX_POOL_STATES:
        raise NotationError(
            f"{node.text}: {states} distinct pools is too many to enumerate exactly"
        )

    def finish(values: tuple[int, ...]) -> int:
        keep = list(values)
        for op in rest:
            chosen = select(op.selectors, keep)
            keep = [v for i, v in enumerate(keep) if (i in chosen) == (op.name == "k")]
        if meets is None:
            return sum(keep)
        return sum(1 for v in keep if meets(v))

    expanded = pool.expand()
    return _Dist(icepool.map(finish, expanded), truncated)


def _enumerated_term(node: Dice, meets: Callable[[int], bool] | None) -> _Dist:
    def run(roller: Roller) -> int:
        dice = roller.dice(node)
        if meets is None:
            return sum(d.face for d in dice if d.kept)
        return sum(1 for d in dice if d.kept and meets(d.face))

    weights, truncated = enumerate_roller(run)
    return _Dist(_die_from(weights), truncated)


def _guard(*dice: Any) -> None:
    size = 1
    for d in dice:
        size *= len(d)
    if size > MAX_PRODUCT:
        raise NotationError(f"{size} combinations of outcomes is too many to combine exactly")


def _distribution(node: Node) -> _Dist:
    match node:
        case Literal_():
            return _Dist(icepool.Die([node.value]))
        case Dice():
            return _dice_term(node, None)
        case SuccessCount():
            target, meets_op = node.target, COMPARATORS[node.comparator]
            return _dice_term(node.dice, lambda face: meets_op(face, target))
        case Annotated():
            return _distribution(node.inner)
        case Unary():
            inner = _distribution(node.operand)
            if node.op == "+":
                return inner
            return _Dist(inner.die.map(lambda v: -v), inner.truncated)
        case Binary():
            left, right = _distribution(node.left), _distribution(node.right)
            trunc = _joint_truncation(left.truncated, right.truncated)
            op = node.op
            if op in ("+", "-") and _all_ints(left.die) and _all_ints(right.die):
                die = left.die + right.die if op == "+" else left.die - right.die
                return _Dist(die, trunc)
            if op in ("/", "//", "%") and 0 in right.die.outcomes():
                raise NotationError(f"division by zero can happen ({op} by a total that may be 0)")
            _guard(left.die, right.die)
            return _Dist(icepool.map(lambda a, b: compute(op, a, b), left.die, right.die), trunc)
        case Compare():
            left, right = _distribution(node.left), _distribution(node.right)
            _guard(left.die, right.die)
            cmp = COMPARATORS[node.op]
            die = icepool.map(lambda a, b: bool(cmp(a, b)), left.die, right.die)
            return _Dist(die, _joint_truncation(left.truncated, right.truncated))
        case Function():
            args = [_distribution(a) for a in node.args]
            fn = FUNCTIONS[node.name]
            _guard(*(a.die for a in args))
            die = icepool.map(lambda *vs: fn(*vs), *(a.die for a in args))
            return _Dist(die, _joint_truncation(*(a.truncated for a in args)))
        case Set_():
            return _set(node)
    raise NotationError(f"no odds for {node!r}")  # pragma: no cover


def _all_ints(die: Any) -> bool:
    return all(type(o) is int for o in die.outcomes())


def _set(node: Set_) -> _Dist:
    items = [_distribution(i) for i in node.items]
    trunc = _joint_truncation(*(i.truncated for i in items))
    if not items:
        return _Dist(icepool.Die([0]))
    if not node.ops:
        die = items[0].die
        for other in items[1:]:
            _guard(die, other.die)
            die = icepool.map(lambda a, b: normalise(a + b), die, other.die)
        return _Dist(die, trunc)
    _guard(*(i.die for i in items))

    def keep(*values: Number) -> Number:
        live = list(range(len(values)))
        for op in node.ops:
            chosen = {live[i] for i in select(op.selectors, [values[j] for j in live])}
            live = [j for j in live if (j in chosen) == (op.name == "k")]
        return normalise(sum((values[j] for j in live), start=0))

    return _Dist(icepool.map(keep, *(i.die for i in items)), trunc)


@functools.lru_cache(maxsize=512)
def _odds_of(expression: Expression) -> Odds:
    dist = _distribution(expression.root)
    weights: dict[Outcome, int] = defaultdict(int)
    for outcome, quantity in dist.die.items():
        weights[final_total(outcome)] += quantity
    total = sum(weights.values())
    distribution = {o: Fraction(weights[o], total) for o in sorted(weights)}
    return Odds(expression.text, distribution, dist.truncated)


def odds(expression: str | Expression) -> Odds:
    """The exact distribution of ``expression``'s total (cached per expression).

    >>> odds("2d6").probability(7)
    Fraction(1, 6)
    >>> odds("d6!").truncated > 0
    True
    """
    parsed = parse(expression) if isinstance(expression, str) else expression
    return _odds_of(parsed)
