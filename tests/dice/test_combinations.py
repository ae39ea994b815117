"""Combinations of dice by a function (``d100*d100``, ``100d6//100d6``, ``(d6, d8)kh1``):
icepool's own weights, visited pair by pair within the budget."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dice import budget as budget_module
from referee.dice import probability
from referee.dice.budget import Budget
from referee.dice.errors import NotationError
from referee.dice.rolling import compute

dice = st.dictionaries(st.integers(-6, 12), st.integers(1, 9), min_size=1, max_size=6).map(
    icepool.Die
)
FUNCTIONS: list[Callable[..., Any]] = [
    lambda a, b: a + b,
    lambda a, b: a * b,
    lambda a, b: max(a, b),
    lambda a, b: compute("//", a, b) if b else 0,
    lambda a, b: a > b,
]


def _weights(die: icepool.Die[Any]) -> dict[Any, int]:
    return {outcome: quantity for outcome, quantity in die.items() if quantity}


@given(dice, dice, st.sampled_from(FUNCTIONS))
def test_a_pair_of_dice_combined_has_icepools_weights(
    a: icepool.Die[int], b: icepool.Die[int], fn: Callable[..., Any]
) -> None:
    mine = probability._map(fn, [a, b], Budget(10.0, "too long"))
    assert _weights(mine) == _weights(icepool.map(fn, a, b))


@given(dice, dice, dice)
def test_three_dice_and_one_die_combined_have_icepools_weights(
    a: icepool.Die[int], b: icepool.Die[int], c: icepool.Die[int]
) -> None:
    def middle(*faces: int) -> int:
        return sorted(faces)[len(faces) // 2]

    budget = Budget(10.0, "too long")
    assert _weights(probability._map(middle, [a, b, c], budget)) == _weights(
        icepool.map(middle, a, b, c)
    )
    assert _weights(probability._map(operator.neg, [a], budget)) == _weights(-a)


def test_the_die_a_combination_makes_is_priced_before_it_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The die is built in one step that cannot be interrupted: on a clock that stands still,
    a budget with room for the 10,000 pairs of ``d100`` and ``d100`` and not for a die of
    10,000 totals is refused after the pairs, before the die."""
    monkeypatch.setattr(budget_module, "spent", lambda: 0.0)
    d100 = icepool.d(100)
    built: list[object] = []
    monkeypatch.setattr(probability.icepool, "Die", lambda *args: built.append(args))
    pairs = 100 * 100 * probability.MAP_PAIR_SECONDS
    die = 100 * 100 * probability.DIE_OUTCOME_SECONDS
    assert pairs < die
    budget = Budget((pairs + die) / 2, "too long")
    with pytest.raises(NotationError, match="too long"):
        probability._map(lambda a, b: a * 1000 + b, [d100, d100], budget)
    assert built == []
