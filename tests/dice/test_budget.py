"""The dice's CPU budget (``referee.dice.budget``): what counts against an expression's work."""

from __future__ import annotations

import gc

import pytest

from referee.dice.budget import Budget
from referee.dice.errors import NotationError


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
