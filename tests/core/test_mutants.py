"""Tests that kill the mutants mutmut left alive in the kernel (issue 13, docs/kernel.md,
"Mutation testing")."""

from __future__ import annotations

from referee.core import REFEREE, REFEREE_ONLY
from referee.core.clock import cancel_timer

from .test_table import new_table


def test_the_referee_seat_moves_the_clock_and_the_record_names_it() -> None:
    """Only the referee's seat moves the game clock in a game that has one — and it does; the
    action record names the seat, the actor and the events the move made."""
    table = new_table()
    moved = table.advance(table.now + 60, seat=REFEREE)
    assert moved.now == table.now + 60
    record = moved.actions[-1]
    assert (record.seat, record.actor) == (REFEREE, REFEREE)
    assert record.events == (table.version + 1, moved.version)


def test_a_cancelled_timer_is_the_referees_by_default() -> None:
    """A timer is the referee's business unless its audience is given."""
    assert cancel_timer("alarm").audience == REFEREE_ONLY
