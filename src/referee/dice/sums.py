"""The sum of two dice, and of many copies of one die, exactly and within a budget.

Two ways to sum ``count`` copies of one die:

- **by doubling** (:func:`add`): icepool adds the die to itself, ``log2(count)`` times, visiting
  every pair of outcomes and multiplying their weights;
- **as one power of a big integer** (Kronecker substitution): a die whose outcomes are whole
  numbers is the polynomial whose coefficient of ``x**(o - lowest)`` is the weight of ``o``; the
  sum of ``count`` copies is that polynomial to the ``count``-th power. Written in base
  ``2**width``, where no coefficient of the power can overflow into the next, the polynomial is
  one integer, and Python's own multiplication raises it to the power: some 7 times faster than
  doubling for ``1000d2``, 17 for ``100d20``, 48 for ``20d100`` (docs/performance.md).

:func:`sum_of` takes the power when its estimated cost fits the budget and doubling otherwise
(a die with few outcomes far apart, ``{1, 10**6}``, is cheaper by pairs). Both are exact and give
the same weights.

>>> sum_of(icepool.d(6), 3, Budget(1.0, "too long")).quantity(10)  # 27 of the 216 rolls
27
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import icepool

from referee.dice.budget import Budget

__all__ = [
    "BIT_PAIR_SECONDS",
    "PAIR_SECONDS",
    "POWER_SECONDS",
    "add",
    "doubling_floor",
    "power_cost",
    "sum_of",
]

# Estimated cost of icepool adding two dice: per pair of outcomes, and per pair of bits of
# their weights (multiplying big integers). Fitted on the reference machine (see
# docs/performance.md: 0.28 µs and 4.2e-13 s), with some room. The estimate only decides
# whether to start; the budget is checked again when the sum is done.
PAIR_SECONDS = 0.3e-6
BIT_PAIR_SECONDS = 5e-13
#: A sum estimated to take longer than this checks the budget as it goes.
TICK_ABOVE_SECONDS = 0.02
#: Estimated cost of raising a ``b``-bit integer to the power whose result has ``B`` bits:
#: ``POWER_SECONDS * B ** POWER_EXPONENT`` (Karatsuba's exponent). The power cannot stop half
#: way, so this is the slow end: fitted over sums from 100d20 to 1000d6 at 1.7–2.1e-11 on a
#: host that adds dice 2.2 times slower than the reference machine (docs/performance.md).
POWER_SECONDS = 2.0e-11
POWER_EXPONENT = 1.585


def _bits(die: Any) -> int:
    return int(die.denominator().bit_length())


def add(a: Any, b: Any, budget: Budget, op: Callable[[Any, Any], Any] = operator.add) -> Any:
    """``a + b`` (or ``op(a, b)`` for another operator as cheap as ``+``) with icepool, refused
    first if its estimated cost does not fit the budget. A long one ticks the budget at every
    pair of outcomes (some 30% slower), so it stops in time even if the estimate was short."""
    estimate = len(a) * len(b) * (PAIR_SECONDS + _bits(a) * _bits(b) * BIT_PAIR_SECONDS)
    budget.afford(estimate)
    if estimate < TICK_ABOVE_SECONDS:
        total = a.binary_operator(b, op)
        budget.check()
        return total
    tick = budget.tick

    def ticking(x: Any, y: Any) -> Any:
        tick()
        return op(x, y)

    return a.binary_operator(b, ticking)


def _whole(die: Any) -> bool:
    return all(type(outcome) is int for outcome in die.outcomes())


def _width(die: Any, count: int) -> int:
    """Bits of one coefficient of the power: enough for the largest, at most the
    denominator to the ``count`` (the sum of them all), rounded up to whole bytes."""
    return int((die.denominator() ** count).bit_length() + 8) // 8 * 8


def power_cost(die: Any, count: int) -> float:
    """Estimated seconds of :func:`sum_of`'s big-integer power for ``count`` copies of ``die``
    (whole-number outcomes only)."""
    outcomes = die.outcomes()
    span = count * (outcomes[-1] - outcomes[0]) + 1
    result_bits = (die.denominator().bit_length() * count + 8) * span
    return float(POWER_SECONDS * result_bits**POWER_EXPONENT)


def doubling_floor(die: Any, count: int) -> float:
    """Estimated seconds of doubling's last sum alone for ``count`` copies of ``die``, when
    its outcomes are whole numbers without gaps (so are its sums', so their sizes are known);
    0 otherwise."""
    outcomes = die.outcomes()
    if count < 2 or outcomes[-1] - outcomes[0] + 1 != len(outcomes):
        return 0.0
    half = count // 2
    size = half * (outcomes[-1] - outcomes[0]) + 1
    bits = math.log2(die.denominator()) * half + 1
    return float(size * size * (PAIR_SECONDS + bits * bits * BIT_PAIR_SECONDS))


def _power(die: Any, count: int) -> Any:
    """The sum of ``count`` copies of ``die`` (whole-number outcomes), as one integer power."""
    outcomes = die.outcomes()
    lowest, width = outcomes[0], _width(die, count)
    polynomial = 0
    for outcome, quantity in die.items():
        polynomial |= quantity << (width * (outcome - lowest))
    slots = count * (outcomes[-1] - lowest) + 1
    size = width // 8
    raw = (polynomial**count).to_bytes(size * slots, "little")
    weights = {}
    for i in range(slots):
        quantity = int.from_bytes(raw[i * size : (i + 1) * size], "little")
        if quantity:
            weights[count * lowest + i] = quantity
    return icepool.Die(weights)


def sum_of(die: Any, count: int, budget: Budget) -> Any:
    """The sum of ``count`` independent copies of ``die``: as one big-integer power when that
    fits the budget, else by doubling (``log2(count)`` sums, each estimated before it starts;
    refused at once when neither the power nor doubling's last sum alone would fit)."""
    if count > 1 and _whole(die):
        estimate = power_cost(die, count)
        if estimate <= budget.left:
            total = _power(die, count)
            budget.check()
            return total
        budget.afford(min(estimate, doubling_floor(die, count)))
    total = None
    power = die
    while count:
        if count & 1:
            total = power if total is None else add(total, power, budget)
        count >>= 1
        if count:
            power = add(power, power, budget)
    return total if total is not None else icepool.Die([0])
