"""The exact distribution of one dice term (``4d6kh3``, ``6d6!>=4``), built on icepool.

A term becomes an :class:`icepool.Die` of what it contributes to the total: the sum of its kept
dice, or, when it counts successes, how many of them succeed. It takes the first of these
paths that fits:

1. plain ``NdS``: the sum of N dice (or of N 0/1 dice for a count);
2. operators that look at each die's own value only (``rr1``, ``e6``, ``ra6``, ``k>3``,
   ``mi2``, …): every die, with the dice it adds, is independent of the others, so one die's
   contribution is worked out (:func:`one_die`) and N of them are summed;
3. rerolls and limits by value, then keep/drop (``4d6kh3``, ``29d6kh1kl1``, ``4d6ro1kh3``,
   ``5d6p1kh2``): icepool's pool evaluation, on a multiset expression that keeps and drops
   the sorted dice as the roller does (:func:`pool_term`);
4. anything else (``4d6!kh3``): the distribution of the sorted faces still kept, operator by
   operator (:func:`state_term`).

Paths 2 and 4 follow the operators' meanings in :mod:`referee.dice.rolling`, and the tests check
every operator against the roller itself enumerated over every sequence of faces. ``rr``
(reroll until no face matches) is exact: the kept face is uniform over the faces not rerolled.

**Explosions** can go on for ever. The chain of dice an explosion adds is followed until the
chance of it going on that long falls below :data:`TRUNCATE_BELOW`; a chain cut there counts as
the outcome ``math.inf`` while the die is built (``inf`` plus anything is ``inf``), so the
probability cut is exactly what lands on ``inf``. It is then reported as the term's
``truncated`` mass, and the term's distribution is that of the rolls that stop before any cut
(renormalised).

**Work** is bounded by a :class:`~referee.dice.budget.Budget`: every loop ticks it, icepool's
pool evaluation ticks it at every transition, and each sum of two dice is estimated before it
starts.

>>> from referee.dice.budget import Budget
>>> from referee.dice.notation import parse
>>> term = dice_term(parse("4d6kh3").root, None, Budget(1.0, "too long"))
>>> term.die.probability(18)  # 21 of the 1296 rolls
Fraction(7, 432)
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from referee.dice.budget import Budget
from referee.dice.errors import NotationError
from referee.dice.notation import Dice, Op, Selector
from referee.dice.rolling import select
from referee.dice.sums import add, sum_of

__all__ = [
    "MAX_CHAIN",
    "MAX_POOL_FACES",
    "MAX_STATES",
    "TRUNCATE_BELOW",
    "Dist",
    "add",
    "chain_depth",
    "dice_term",
    "one_die",
    "pool_term",
    "state_term",
    "sum_of",
]

#: An explosion's chain is followed while the chance of it going on that long is at least this.
TRUNCATE_BELOW = Fraction(1, 10**12)
#: Most faces a die may have in a keep/drop by rank (icepool's pool evaluation recurses once
#: per face, and its cost grows with their square).
MAX_POOL_FACES = 500

#: Deepest chain of explosions followed (``d10000e>1`` would need some 276,000 dice).
MAX_CHAIN = 1000
#: Most combinations of kept faces path 4 may follow at once (memory, not only time).
MAX_STATES = 300_000

#: The outcome standing for a chain of explosions cut short.
CUT = math.inf

Meets = Callable[[int], bool]


@dataclass(frozen=True, slots=True)
class Dist:
    """A distribution (an icepool Die) and the probability truncated while building it."""

    die: Any  # icepool.Die
    truncated: Fraction = Fraction(0)


def joint_truncation(*parts: Fraction) -> Fraction:
    """The probability that at least one of several independent parts was cut short.

    >>> joint_truncation(Fraction(1, 2), Fraction(1, 2))
    Fraction(3, 4)
    """
    kept = Fraction(1)
    for t in parts:
        kept *= 1 - t
    return 1 - kept


def _split_cut(die: Any) -> Dist:
    """The die without its cut chains (renormalised), and their probability."""
    cut = die.quantity(CUT)
    if not cut:
        return Dist(die)
    truncated = Fraction(cut, die.denominator())
    return Dist(icepool.Die({o: q for o, q in die.items() if o != CUT}), truncated)


def _matches(selectors: Sequence[Selector]) -> Callable[[int], bool]:
    return lambda face: any(s.matches(face) for s in selectors)


# ------------------------------------------------------------------ path 2: one die at a time


def one_die(sides: int, ops: Sequence[Op], meets: Meets | None, budget: Budget) -> Dist:
    """What one die contributes to the total, with every die it adds, when every operator looks
    at each die's own value only.

    Working back from the last operator: ``value[i](f)`` is what a die showing ``f`` when it
    reaches operator ``i`` contributes, counting the dice that operator or later ones add.
    After the last operator a die contributes its face (or 1 when it is a success, 0 when
    not). ``k``/``p`` make a die contribute 0 or go on; ``mi``/``ma`` change its face; ``rr``
    replaces a chosen face by one not chosen, ``ro`` by any face; ``ra`` adds a fresh die that
    goes on to the next operator; ``e`` adds a fresh die that meets ``e`` again.

    >>> one_die(6, (), None, Budget(1.0, "too long")).die.mean()
    Fraction(7, 2)
    """
    faces = icepool.d(sides)
    ticking = _ticking(budget)

    def last(face: int) -> int:
        return face if meets is None else int(meets(face))

    value: Callable[[int], Any] = last
    for op in reversed(ops):
        value = _through(op, sides, faces, value, ticking, budget)
    return _split_cut(faces.map(ticking(value)))


def _through(
    op: Op,
    sides: int,
    faces: Any,
    after: Callable[[int], Any],
    ticking: Callable[[Callable[..., Any]], Callable[..., Any]],
    budget: Budget,
) -> Callable[[int], Any]:
    """``value[i]`` from ``value[i + 1]`` (``after``) for the by-value operator ``op``."""
    chosen = _matches(op.selectors)
    after = functools.cache(after)
    name = op.name
    if name == "k":
        return lambda f: after(f) if chosen(f) else 0
    if name == "p":
        return lambda f: 0 if chosen(f) else after(f)
    if name in ("mi", "ma"):
        limit = op.selectors[0].value
        bound = max if name == "mi" else min
        return lambda f: after(bound(f, limit))
    if name == "rr":
        stays = icepool.Die([f for f in range(1, sides + 1) if not chosen(f)]).map(ticking(after))
        return lambda f: stays if chosen(f) else after(f)
    if name in ("ro", "ra"):
        budget.afford(sides * sides * 2.5e-7)  # a fresh die of dice mixed in, per face
        fresh = faces.map(ticking(after))  # a new die, going on to the next operator
        if name == "ro":
            return lambda f: fresh if chosen(f) else after(f)
        return lambda f: after(f) + fresh if chosen(f) else after(f)
    # "e": a chosen face adds a fresh die that may explode again. Follow the chain while the
    # chance of reaching that depth is at least TRUNCATE_BELOW; the rest is cut (inf).
    depth = chain_depth(sum(1 for f in range(1, sides + 1) if chosen(f)), sides)
    if depth > MAX_CHAIN:
        raise NotationError(
            f"{op} explodes a d{sides} so often that its chains would be followed more than "
            f"{MAX_CHAIN} dice deep; roll it instead"
        )
    # one level mixes ``sides`` dice each as wide as the chain so far (up to ``sides`` times
    # the depth), and icepool merges their weights pairwise: about sides² × depth² in all
    budget.afford(depth * depth * (sides * 2e-6 + sides * sides * 2.5e-7))
    chain: Any = icepool.Die([CUT])
    for _ in range(depth):
        chain = faces.map(ticking(_explode_once(after, chosen, chain)))
    added = chain
    return lambda f: after(f) + added if chosen(f) else after(f)


def chain_depth(chosen: int, sides: int) -> int:
    """How many dice deep an explosion's chain is followed: the least depth whose chance of
    being reached, ``(chosen / sides) ** depth``, is below :data:`TRUNCATE_BELOW`.

    >>> chain_depth(1, 6)  # 6 ** -16 < 10 ** -12 <= 6 ** -15
    16
    >>> chain_depth(0, 6)
    1
    """
    if chosen == 0:
        return 1
    # a first guess from logarithms, then the exact least depth, in whole numbers
    depth = max(1, math.floor(math.log(TRUNCATE_BELOW) / math.log(chosen / sides)) - 1)
    if depth > MAX_CHAIN:
        return depth
    bound = TRUNCATE_BELOW.denominator
    while depth > 1 and chosen ** (depth - 1) * bound < sides ** (depth - 1):
        depth -= 1
    while chosen**depth * bound >= sides**depth:
        depth += 1
    return depth


def _explode_once(after: Callable[[int], Any], chosen: Meets, chain: Any) -> Callable[[int], Any]:
    def step(face: int) -> Any:
        return after(face) + chain if chosen(face) else after(face)

    return step


def _ticking(budget: Budget) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a function that icepool maps over one die's faces so that each call checks the
    budget first. The calls are few (a face of each die of a chain) but one may add two dice
    of long chains, so every one looks at the clock, not one in
    :data:`~referee.dice.budget.TICK`."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def ticked(*args: Any) -> Any:
            budget.check()
            return fn(*args)

        return ticked

    return wrap


# ------------------------------------------------------------------ path 3: icepool's pools


class _Sum(icepool.MultisetEvaluator):  # type: ignore[misc]
    """icepool's sum of a multiset (of faces, or of 0/1 for successes), ticking the budget at
    every transition so that a pool too large to count stops in time."""

    def __init__(self, budget: Budget, meets: Meets | None) -> None:
        self.budget = budget
        self.meets = meets

    def next_state(self, state: Any, order: Any, outcome: int, count: int) -> int:
        self.budget.tick()
        value = outcome if self.meets is None else int(self.meets(outcome))
        return (state or 0) + value * count

    def final_outcome(self, final_state: Any, *args: Any, **kwargs: Any) -> int:
        return final_state or 0

    @property
    def next_state_key(self) -> Hashable:
        no_cache: Hashable = icepool.NoCache  # no cache across calls: memory stays bounded
        return no_cache


def pool_term(
    node: Dice, prefix: Sequence[Op], rest: Sequence[Op], meets: Meets | None, budget: Budget
) -> Dist | None:
    """Rerolls and limits on each die (``prefix``), then keeps and drops (``rest``): icepool's
    pool evaluation. None when ``rest`` cannot be written as icepool keeps (one operator that
    picks by rank and by value at once, or by both ends after a drop by value).

    While no drop by value has happened the pool's size is known, and the ranks kept are
    worked out directly (``kh1kl1`` of 29 dice keeps sorted positions 0 and 28); after one,
    a keep by rank is anchored at its end (``highest(2)``).
    """
    face = icepool.d(node.sides)
    if prefix:
        face = one_die(node.sides, prefix, None, budget).die
    if len(face) > MAX_POOL_FACES:
        raise NotationError(
            f"{node.text}: keeping or dropping dice of more than {MAX_POOL_FACES} possible "
            "faces is too much to count exactly; roll it instead"
        )
    count = node.count
    live: list[int] | None = list(range(count))  # sorted positions kept, while size is known
    expression: Any = None
    for op in rest:
        ranks = [s for s in op.selectors if not s.is_by_value()]
        values = [s for s in op.selectors if s.is_by_value()]
        if ranks and values:
            return None
        if values:
            if live is not None:
                expression = _keep_positions(face, count, live)
                live = None
            chosen = _matches(values)
            if op.name == "k":
                expression = expression.keep_outcomes(chosen)
            else:
                expression = expression.drop_outcomes(chosen)
            continue
        if live is not None:
            picked = set(select(ranks, live))
            live = [p for i, p in enumerate(live) if (i in picked) == (op.name == "k")]
            continue
        kinds = {s.kind for s in ranks}
        if len(kinds) > 1:
            return None
        n = max(s.value for s in ranks)
        if n == 0:  # keep none (nothing is left), or drop none (nothing changes)
            if op.name == "k":
                return Dist(icepool.Die([0]))
            continue
        if kinds == {"h"}:
            expression = expression.highest(n) if op.name == "k" else expression.highest(drop=n)
        else:
            expression = expression.lowest(n) if op.name == "k" else expression.lowest(drop=n)
    if live is not None:
        if not live:
            return Dist(icepool.Die([0]))
        expression = _keep_positions(face, count, live)
    try:
        return Dist(_Sum(budget, meets).evaluate(expression))
    except icepool.order.ConflictingOrderError:
        return None  # icepool finds no order to evaluate it in: the sorted kept faces will
    except RecursionError:  # pragma: no cover - MAX_POOL_FACES keeps icepool's recursion short
        raise NotationError(f"{node.text}: too many faces to count exactly") from None


def _keep_positions(face: Any, count: int, live: list[int]) -> Any:
    kept = set(live)
    return face.pool(count).keep(tuple(1 if i in kept else 0 for i in range(count)))


# ------------------------------------------------------------------ path 4: sorted kept faces
#
# A term's state is the sorted tuple of the faces still kept. Operators map a state to a
# distribution of states, with the same meanings as ``Roller.apply``: ``k``/``p`` keep or drop
# the chosen faces; ``rr`` replaces each chosen face by a face it would not reroll (rerolling
# until none is chosen); ``ro`` replaces each chosen face by a fresh roll; ``ra`` adds a fresh
# roll for each chosen face; ``e`` adds, for each chosen face, a chain of rolls that goes on
# while the new face is chosen; ``mi``/``ma`` raise or lower faces.

State = tuple[int, ...]
States = dict[State, Fraction]
Outcomes = list[tuple[State, Fraction]]


def _only(face: int) -> Outcomes:
    return [((face,), Fraction(1))]


def _uniform(faces: list[int]) -> Outcomes:
    share = Fraction(1, len(faces))
    return [((f,), share) for f in faces]


def _product(
    parts: list[Outcomes], budget: Budget, trim: Callable[[State], State] | None = None
) -> Outcomes:
    """Every way of taking one outcome from each part, faces merged (and trimmed to the faces
    that can still matter, when ``trim`` says which)."""
    out: dict[State, Fraction] = defaultdict(Fraction)
    out[()] = Fraction(1)
    for part in parts:
        merged: dict[State, Fraction] = defaultdict(Fraction)
        for state, p in out.items():
            for extra, q in part:
                budget.tick()
                joined = tuple(sorted(state + extra))
                merged[trim(joined) if trim else joined] += p * q
            if len(merged) > MAX_STATES:
                raise NotationError(
                    f"more than {MAX_STATES:,} combinations of kept dice to follow: "
                    "too many to count exactly; roll it instead"
                )
        out = merged
    return list(out.items())


def _chain(sides: int, chosen: Meets, budget: Budget) -> tuple[Outcomes, Fraction]:
    """The faces an explosion adds: roll, and roll again while the new face is chosen; the
    chain stops where the chance of reaching that depth falls below ``TRUNCATE_BELOW``."""
    out: Outcomes = []
    level: Outcomes = [((), Fraction(1))]
    share = Fraction(1, sides)
    depth = chain_depth(sum(1 for f in range(1, sides + 1) if chosen(f)), sides)
    if depth > MAX_CHAIN:
        raise NotationError(f"a d{sides}'s explosions would be followed too deep; roll it instead")
    for _ in range(depth):
        deeper: dict[State, Fraction] = defaultdict(Fraction)
        for faces, p in level:
            for f in range(1, sides + 1):
                budget.tick()
                if chosen(f):
                    deeper[tuple(sorted((*faces, f)))] += p * share
                else:
                    out.append(((*faces, f), p * share))
        level = list(deeper.items())
    truncated = sum((p for _, p in level), Fraction(0))
    return out, truncated


class _Term:
    """Applies a dice term's operators to distributions of states."""

    def __init__(self, sides: int, budget: Budget) -> None:
        self.sides = sides
        self.faces = list(range(1, sides + 1))
        self.budget = budget
        self._chains: dict[Op, Outcomes] = {}

    def step(self, op: Op, state: State) -> Outcomes:
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
                self._chains[op] = _chain(self.sides, _matches(op.selectors), self.budget)[0]
            chain = self._chains[op]
            parts = [_only(f) for f in picked] + [chain] * len(picked)
        return [(tuple(sorted(kept + extra)), q) for extra, q in _product(parts, self.budget)]

    def apply(self, op: Op, states: States, lost: Fraction) -> tuple[States, Fraction]:
        """Apply ``op`` to every state; what an explosion chain cut short loses is added to
        ``lost`` (the outcomes of a state then sum to less than its probability)."""
        out: States = defaultdict(Fraction)
        for state, p in states.items():
            kept = Fraction(0)
            for new, q in self.step(op, state):
                self.budget.tick()
                out[new] += p * q
                kept += q
            lost += p * (1 - kept)
        return out, lost


def state_term(node: Dice, meets: Meets | None, budget: Budget) -> Dist:
    """The distribution of a term's sorted kept faces, operator by operator."""
    term = _Term(node.sides, budget)
    ops = node.ops
    split = next((i for i, op in enumerate(ops) if not op.is_by_value()), len(ops))
    one: States = {(f,): Fraction(1, node.sides) for f in term.faces}
    lost = Fraction(0)
    for op in ops[:split]:
        one, lost = term.apply(op, one, lost)
    # The dice so far are independent: merge N copies. When all that follows keeps the n
    # highest (or lowest) faces, no other face can matter: merge only those.
    trim = _keeps_one_end(ops[split:])
    joint: States = dict(_product([list(one.items())] * node.count, budget, trim))
    lost = joint_truncation(*[lost] * node.count)
    for op in ops[split:]:
        joint, lost = term.apply(op, joint, lost)
    values: dict[int, Fraction] = defaultdict(Fraction)
    for state, p in joint.items():
        budget.tick()
        values[sum(state) if meets is None else sum(1 for f in state if meets(f))] += p
    return Dist(_die_from(values), lost)


def _keeps_one_end(ops: Sequence[Op]) -> Callable[[State], State] | None:
    """For operators that just keep the n highest or lowest faces (``kh3``), the trim of a
    sorted state to those faces; otherwise None."""
    if len(ops) != 1 or ops[0].name != "k" or len(ops[0].selectors) != 1:
        return None
    selector = ops[0].selectors[0]
    n = selector.value
    if selector.kind == "h":
        return lambda state: state[len(state) - n :] if n else ()
    if selector.kind == "l":
        return lambda state: state[:n]
    return None


def _die_from(weights: dict[Any, Fraction]) -> Any:
    """An icepool Die from outcome → probability (any positive total)."""
    denominator = math.lcm(*(p.denominator for p in weights.values()))
    return icepool.Die({o: int(p * denominator) for o, p in weights.items() if p})


# ------------------------------------------------------------------ choosing a path


def dice_term(node: Dice, meets: Meets | None, budget: Budget) -> Dist:
    """The distribution of what ``node`` contributes: its sum, or its count of the dice that
    ``meets`` (success counting), and the probability truncated."""
    if node.count == 0:
        return Dist(icepool.Die([0]))
    if not node.ops:
        if meets is None:
            return Dist(sum_of(icepool.d(node.sides), node.count, budget))
        hits = sum(1 for f in range(1, node.sides + 1) if meets(f))
        die = icepool.Die({1: hits, 0: node.sides - hits})
        return Dist(sum_of(die, node.count, budget))
    if all(op.is_by_value() for op in node.ops):
        one = one_die(node.sides, node.ops, meets, budget)
        total = sum_of(one.die, node.count, budget)
        return Dist(total, joint_truncation(*[one.truncated] * node.count))
    first_keep = next((i for i, op in enumerate(node.ops) if op.name in ("k", "p")), 0)
    prefix, rest = node.ops[:first_keep], node.ops[first_keep:]
    if all(op.name in ("rr", "ro", "mi", "ma") and op.is_by_value() for op in prefix) and all(
        op.name in ("k", "p") for op in rest
    ):
        pooled = pool_term(node, prefix, rest, meets, budget)
        if pooled is not None:
            return pooled
    return state_term(node, meets, budget)
