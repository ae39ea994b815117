"""Sums of many copies of one die (``referee.dice.sums``): the big-integer power and doubling
give icepool's own sum, weight for weight, and each is taken where it is the cheaper."""

from __future__ import annotations

import functools
import math
import operator
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dice import sums
from referee.dice.budget import Budget
from referee.dice.errors import NotationError
from referee.dice.sums import doubling_floor, power_cost, sum_of

dice = st.dictionaries(st.integers(-6, 12), st.integers(1, 9), min_size=1, max_size=6).map(
    icepool.Die
)


def _icepool_sum(die: icepool.Die[int], count: int) -> icepool.Die[int]:
    """The reference: icepool adding the copies one by one."""
    return functools.reduce(operator.add, [die] * count)


def _weights(die: icepool.Die[int]) -> dict[int, int]:
    return {outcome: quantity for outcome, quantity in die.items() if quantity}


@given(dice, st.integers(1, 14))
def test_the_power_is_icepools_sum_weight_for_weight(die: icepool.Die[int], count: int) -> None:
    total = sums._power(die, count)
    assert _weights(total) == _weights(_icepool_sum(die, count))
    assert total.denominator() == die.denominator() ** count


@given(dice, st.integers(1, 14))
def test_doubling_is_icepools_sum_weight_for_weight(die: icepool.Die[int], count: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sums, "power_cost", lambda die, count: math.inf)
        total = sum_of(die, count, Budget(10.0, "too long"))
    assert _weights(total) == _weights(_icepool_sum(die, count))


def test_a_thousand_coins_are_one_power_and_binomial(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_doubling(*args: object) -> None:
        raise AssertionError("summed by doubling")

    monkeypatch.setattr(sums, "add", no_doubling)
    total = sum_of(icepool.d(2), 1000, Budget(10.0, "too long"))
    assert total.quantity(1500) == math.comb(1000, 500)
    assert total.quantity(1000) == 1 and total.denominator() == 2**1000


def test_two_faces_far_apart_are_summed_by_doubling(monkeypatch: pytest.MonkeyPatch) -> None:
    """``{1, 10**6}``: the power would carry a million empty places for each copy; the
    pairs of outcomes are few."""
    die = icepool.Die([1, 10**6])
    assert power_cost(die, 50) > 1.0

    def no_power(*args: object) -> None:
        raise AssertionError("summed as one power")

    monkeypatch.setattr(sums, "_power", no_power)
    total = sum_of(die, 50, Budget(1.0, "too long"))
    assert _weights(total) == {k * 10**6 + (50 - k): math.comb(50, k) for k in range(51)}


def test_a_power_that_does_not_fit_the_budget_is_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_power(*args: object) -> None:
        raise AssertionError("summed as one power")

    monkeypatch.setattr(sums, "_power", no_power)
    with pytest.raises(NotationError, match="too long"):
        sum_of(icepool.d(6), 1000, Budget(power_cost(icepool.d(6), 1000) / 2, "too long"))


def test_outcomes_that_are_not_whole_numbers_are_summed_by_doubling() -> None:
    """A half has no place in the power's places."""
    die = icepool.Die([Fraction(1, 2), Fraction(1)])
    total = sum_of(die, 3, Budget(1.0, "too long"))
    assert _weights(total) == {Fraction(3, 2): 1, Fraction(2): 3, Fraction(5, 2): 3, Fraction(3): 1}


def test_a_sum_neither_way_can_afford_is_refused_before_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``1000d6``: the power and doubling's last sum are each estimated over the budget, so
    no sum is started."""
    started: list[str] = []
    monkeypatch.setattr(sums, "_power", lambda *args: started.append("power"))
    monkeypatch.setattr(sums, "add", lambda *args: started.append("add"))
    die = icepool.d(6)
    budget = Budget(0.5, "too long")
    assert power_cost(die, 1000) > 0.5 and doubling_floor(die, 1000) > 0.5
    with pytest.raises(NotationError, match="too long"):
        sum_of(die, 1000, budget)
    assert started == []


def test_doublings_last_sum_is_priced_by_the_sizes_it_will_have() -> None:
    """Half the copies each side: ``1000d2``'s last sum adds two dice of 501 outcomes whose
    weights have 501 bits (their denominator is 2**500)."""
    assert doubling_floor(icepool.d(2), 1000) == pytest.approx(
        501 * 501 * (sums.PAIR_SECONDS + 501 * 501 * sums.BIT_PAIR_SECONDS)
    )
    assert doubling_floor(icepool.Die([1, 3]), 1000) == 0.0  # a gap: sizes unknown
