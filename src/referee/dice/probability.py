"""Exact odds of a dice expression, as :class:`~fractions.Fraction` s, built on icepool.

Each dice term is turned into an :class:`icepool.Die` of what it contributes (its sum, or its
count of successes); terms are independent, so the expression's tree combines them with
icepool's exact arithmetic. A term takes the first exact path that fits it:

1. plain ``NdS``: icepool's sum of N dice (or of N 0/1 success dice);
2. operators that look at each die's own value only (``rr1``, ``e6``, ``k>3``, ``mi2`` …):
   every die is independent, so one die's distribution of kept faces is worked out and N of
   them are summed;
3. rerolls and limits, then keep/drop (``4d6kh3``, ``4d6ro1kh3``): icepool's pools;
4. anything else (``4d6e6kh3``): the distribution of the sorted kept faces of all N dice,
   operator by operator.

Paths 2 and 4 follow the operators' meanings in :mod:`referee.dice.rolling`, and the tests check
every operator against the roller itself enumerated over every sequence of faces. ``rr``
(reroll until no face matches) is exact: the kept face is uniform over the faces not rerolled.
Explosions are followed until a chain's probability falls below :data:`TRUNCATE_BELOW`; the
probability not followed is reported as ``truncated`` and the distribution is that of the
rolls that stop before it (renormalised). Nothing else is approximate. Terms too large to count
exactly in about a second are refused with a :class:`NotationError` that says so.

>>> odds("3d6+2>=14").probability(True)
Fraction(3, 8)
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
    Op,
    Set_,
    SuccessCount,
    Unary,
    parse,
)
from referee.dice.rolling import (
    COMPARATORS,
    FUNCTIONS,
    compute,
    final_total,
    normalise,
    select,
)

#: A branch of an explosion or reroll chain less likely than this is not followed.
TRUNCATE_BELOW = Fraction(1, 10**12)
#: Most distinct sorted pools the keep/drop path may expand.
MAX_POOL_STATES = 300_000
#: Most outcome pairs one combination may visit.
MAX_PRODUCT = 500_000
#: Most possible totals one dice term may have.
MAX_TOTALS = 3_000
#: Most dice icepool sums in one step (its sum recurses once per die).
SUM_CHUNK = 300

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


# --- dice terms as distributions over their kept faces ------------------------------------
#
# A term's state is the sorted tuple of the faces still kept. Operators map a state to a
# distribution of states, with the same meanings as ``Roller.apply``: ``k``/``p`` keep or drop
# the chosen faces; ``rr`` replaces each chosen face by a face it would not reroll (rerolling
# until none is chosen); ``ro`` replaces each chosen face by a fresh roll; ``ra`` adds a fresh
# roll for each chosen face; ``e`` adds, for each chosen face, a chain of rolls that goes on
# while the new face is chosen; ``mi``/``ma`` raise or lower faces. The tests check these
# against the roller itself, enumerated over every sequence of faces.

State = tuple[int, ...]
States = dict[State, Fraction]
Outcomes = list[tuple[State, Fraction]]


def _only(face: int) -> Outcomes:
    return [((face,), Fraction(1))]


def _uniform(faces: list[int]) -> Outcomes:
    share = Fraction(1, len(faces))
    return [((f,), share) for f in faces]


def _product(parts: list[list[tuple[State, Fraction]]]) -> list[tuple[State, Fraction]]:
    """Every way of taking one outcome from each part, faces merged."""
    out: dict[State, Fraction] = defaultdict(Fraction)
    out[()] = Fraction(1)
    for part in parts:
        if len(out) * len(part) > MAX_PRODUCT:
            raise NotationError(
                "too many combinations of dice to count exactly; "
                "simplify the expression (explosions kept or dropped by rank grow fastest)"
            )
        merged: dict[State, Fraction] = defaultdict(Fraction)
        for state, p in out.items():
            for extra, q in part:
                merged[tuple(sorted(state + extra))] += p * q
        if len(merged) > MAX_POOL_STATES:
            raise NotationError(f"more than {MAX_POOL_STATES} states: too many to count exactly")
        out = merged
    return list(out.items())


def _chain(
    sides: int, chosen: Callable[[int], bool]
) -> tuple[list[tuple[State, Fraction]], Fraction]:
    """The faces an explosion adds: roll, and roll again while the new face is chosen."""
    out: list[tuple[State, Fraction]] = []
    level: list[tuple[State, Fraction]] = [((), Fraction(1))]
    truncated = Fraction(0)
    share = Fraction(1, sides)
    while level:
        deeper: dict[State, Fraction] = defaultdict(Fraction)
        for faces, p in level:
            if p < TRUNCATE_BELOW:
                truncated += p
                continue
            for f in range(1, sides + 1):
                if chosen(f):
                    deeper[tuple(sorted((*faces, f)))] += p * share
                else:
                    out.append(((*faces, f), p * share))
        level = list(deeper.items())
    return out, truncated


class _Term:
    """Applies a dice term's operators to distributions of states."""

    def __init__(self, sides: int) -> None:
        self.sides = sides
        self.faces = list(range(1, sides + 1))
        self._chains: dict[Op, list[tuple[State, Fraction]]] = {}

    def step(self, op: Op, state: State) -> list[tuple[State, Fraction]]:
        if op.name == "mi":
            return [(tuple(sorted(max(f, op.selectors[0].value) for f in state)), Fraction(1))]
        if op.name == "ma":
            return [(tuple(sorted(min(f, op.selectors[0].value) for f in state)), Fraction(1))]
        chosen = select(op.selectors, state)
        if not chosen and op.name != "k":
            return [(state, Fraction(1))]
        kept = tuple(f for i, f in enumerate(state) if i not in chosen)
        picked = [f for i, f in enumerate(state) if i in chosen]
        name = op.name
        if name == "k":
            return [(tuple(picked), Fraction(1))]
        if name == "p":
            return [(kept, Fraction(1))]
        parts: list[Outcomes]
        if name == "ro":
            parts = [_uniform(self.faces)] * len(picked)
        elif name == "rr":
            stays = [f for f in self.faces if not any(s.matches(f) for s in op.selectors)]
            parts = [_uniform(stays)] * len(picked)
        elif name == "ra":
            parts = [_only(f) for f in picked] + [_uniform(self.faces)] * len(picked)
        else:  # "e"
            if op not in self._chains:
                self._chains[op] = _chain(
                    self.sides, lambda f: any(s.matches(f) for s in op.selectors)
                )[0]
            chain = self._chains[op]
            parts = [_only(f) for f in picked] + [chain] * len(picked)
        return [(tuple(sorted(kept + extra)), q) for extra, q in _product(parts)]


def _term_states(node: Dice) -> tuple[States, Fraction]:
    """The distribution of a term's kept faces, and the probability truncated."""
    term = _Term(node.sides)
    ops = node.ops
    split = next((i for i, op in enumerate(ops) if not op.is_by_value()), len(ops))
    one: States = {(f,): Fraction(1, node.sides) for f in term.faces}
    lost = Fraction(0)
    for op in ops[:split]:
        one, lost = _apply_tracking(term, op, one, lost)
    # the dice so far are independent: merge N copies
    joint_items = _product([list(one.items())] * node.count)
    joint: States = dict(joint_items)
    lost = _joint_truncation(*[lost] * node.count)
    for op in ops[split:]:
        joint, lost = _apply_tracking(term, op, joint, lost)
    return joint, lost


def _apply_tracking(term: _Term, op: Op, states: States, lost: Fraction) -> tuple[States, Fraction]:
    """Apply ``op`` to every state; what an explosion chain cut short loses is added to
    ``lost`` (the outcomes of a state then sum to less than its probability)."""
    out: States = defaultdict(Fraction)
    for state, p in states.items():
        kept = Fraction(0)
        for new, q in term.step(op, state):
            out[new] += p * q
            kept += q
        lost += p * (1 - kept)
    return out, lost


def _single_die(node: Dice, meets: Callable[[int], bool] | None) -> _Dist:
    """One die of ``node`` with all its operators (all of them by value)."""
    term = _Term(node.sides)
    states: States = {(f,): Fraction(1, node.sides) for f in term.faces}
    lost = Fraction(0)
    for op in node.ops:
        states, lost = _apply_tracking(term, op, states, lost)
    return _Dist(_die_from(_values(states, meets)), lost)


def _values(states: States, meets: Callable[[int], bool] | None) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for state, p in states.items():
        out[sum(state) if meets is None else sum(1 for f in state if meets(f))] += p
    return out


def _sum_of(node: Dice, die: Any) -> Any:
    """The sum of ``node.count`` independent copies of ``die``, refused past :data:`MAX_TOTALS`
    possible totals (the cost grows with their square)."""
    outcomes = die.outcomes()
    totals = node.count * (max(outcomes) - min(outcomes)) + 1
    if totals > MAX_TOTALS:
        raise NotationError(
            f"{node.text} has {totals} possible totals, more than the {MAX_TOTALS} "
            "Referee counts exactly; roll it instead, or use fewer dice"
        )
    total = None
    count = node.count
    while count > 0:
        chunk = min(count, SUM_CHUNK)
        part = chunk @ die
        total = part if total is None else total + part
        count -= chunk
    return total


def _dice_term(node: Dice, meets: Callable[[int], bool] | None) -> _Dist:
    if node.count == 0:
        return _Dist(icepool.Die([0]))
    if not node.ops:
        if meets is None:
            return _Dist(_sum_of(node, icepool.d(node.sides)))
        hits = sum(1 for f in range(1, node.sides + 1) if meets(f))
        return _Dist(_sum_of(node, icepool.Die({1: hits, 0: node.sides - hits})))
    if all(op.is_by_value() for op in node.ops):
        one = _single_die(node, meets)
        return _Dist(_sum_of(node, one.die), _joint_truncation(*[one.truncated] * node.count))
    first_keep = next((i for i, op in enumerate(node.ops) if op.name in ("k", "p")), 0)
    prefix, rest = node.ops[:first_keep], node.ops[first_keep:]
    if all(op.name in ("rr", "ro", "mi", "ma") and op.is_by_value() for op in prefix) and all(
        op.name in ("k", "p") for op in rest
    ):
        return _pool_term(node, prefix, rest, meets)
    states, lost = _term_states(node)
    return _Dist(_die_from(_values(states, meets)), lost)


def _pool_term(
    node: Dice, prefix: tuple[Op, ...], rest: tuple[Op, ...], meets: Callable[[int], bool] | None
) -> _Dist:
    """Rerolls and limits on each die, then keep/drop: icepool's pools."""
    truncated = Fraction(0)
    face = icepool.d(node.sides)
    if prefix:
        face = _single_die(Dice(1, node.sides, prefix, node.text), None).die
    pool = face.pool(node.count)
    if (
        len(rest) == 1
        and len(rest[0].selectors) == 1
        and meets is None
        and not rest[0].selectors[0].is_by_value()
    ):
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

    return _Dist(icepool.map(finish, pool.expand()), truncated)


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
                _guard(left.die, right.die)
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
