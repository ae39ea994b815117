"""The dice's CPU budget (``referee.dice.budget``): what counts against an expression's work."""

from __future__ import annotations

import gc
from collections.abc import Callable

import icepool
import pytest

from referee.dice import budget as budget_module
from referee.dice.budget import Budget
from referee.dice.errors import NotationError
from referee.dice.notation import parse
from referee.dice.terms import dice_term


def test_a_garbage_collection_inside_the_work_does_not_count_against_its_budget() -> None:
    """A full collection of a large heap (a long-lived server's, a test worker's) is the
    process's cost: an expression of two milliseconds is not refused because one landed
    inside it."""
    heap = [[i] for i in range(300_000)]  # containers the collector must walk
    budget = Budget(0.001, "over budget")
    gc.collect()  # far more than a millisecond of this thread's CPU time
    budget.check()
    assert budget.left > 0
    del heap


def test_work_past_its_budget_is_stopped_with_its_message() -> None:
    budget = Budget(0.001, "stops after 0.001 s of CPU time")
    with pytest.raises(NotationError, match=r"stops after 0\.001 s"):
        while True:
            budget.tick()


def test_the_dice_an_explosion_adds_each_look_at_the_clock_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``d6!ra>2!rr<2``: its chains add dice to dice 38 times, and one such step may add two
    long chains (too long to interrupt), so the work looks at the clock before each face it
    maps, not one in every few hundred. On a clock that moves a second at each look, a budget
    of 40 seconds stops it within the first few of those 38 steps."""
    clock = iter(range(10**6))
    monkeypatch.setattr(budget_module, "spent", lambda: float(next(clock)))
    steps = 0
    add, radd = icepool.Die.__add__, icepool.Die.__radd__

    def counted(add: Callable[[icepool.Die[int], object], object]) -> Callable[..., object]:
        def step(self: icepool.Die[int], other: object) -> object:
            nonlocal steps
            steps += 1
            return add(self, other)

        return step

    monkeypatch.setattr(icepool.Die, "__add__", counted(add))
    monkeypatch.setattr(icepool.Die, "__radd__", counted(radd))
    term = parse("d6!ra>2!rr<2").root
    with pytest.raises(NotationError, match="over budget"):
        dice_term(term, None, Budget(40.0, "over budget"))
    assert 0 < steps <= 10
