"""Stress tracks, roll-up, Taken Out and consequences (Gin Lane, "Stress Tracks",
"Consequences"; RULINGS.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.systems.ginlane.stress import (
    Consequences,
    StressTrack,
    TakenConsequence,
    mitigation,
)


def test_a_hit_ticks_only_the_nth_box() -> None:
    track, hit = StressTrack.empty("Health", 5).hit(3)
    assert track.marked == (3,) and hit.box == 3 and not hit.taken_out


def test_a_used_box_rolls_up() -> None:
    track = StressTrack.empty("Health", 5)
    track, _ = track.hit(3)
    track, _ = track.hit(4)
    track, hit = track.hit(3)
    assert hit.box == 5 and track.marked == (3, 4, 5)


def test_past_the_end_is_taken_out() -> None:
    track = StressTrack.empty("Composure", 5)
    assert track.hit(6)[1].taken_out
    track, _ = track.hit(5)
    assert track.hit(5)[1].taken_out


def test_zero_stress_ticks_nothing_and_clearing() -> None:
    track, hit = StressTrack.empty("Wealth", 6).hit(0)
    assert hit.box is None and not hit.taken_out and track.marked == ()
    track, _ = track.hit(2)
    assert track.cleared().marked == ()
    with pytest.raises(RuleError):
        StressTrack.empty("Sanity", 5)


@given(st.lists(st.integers(1, 9), max_size=12), st.integers(5, 8))
def test_roll_up_invariants(hits: list[int], length: int) -> None:
    track = StressTrack.empty("Health", length)
    for n in hits:
        before = track
        track, hit = track.hit(n)
        if hit.taken_out:
            assert track == before
            assert n > length or all(before.boxes[n - 1 :])
        else:
            assert hit.box is not None and hit.box >= n
            assert len(track.marked) == len(before.marked) + 1


def test_consequences_mitigate_2_4_6_8() -> None:
    assert mitigation(["slight"]) == 2
    assert mitigation(["moderate", "heavy"]) == 10
    assert mitigation(["extreme"]) == 8


def test_three_slots_one_of_each_severity() -> None:
    slots = Consequences()
    slots = slots.take(TakenConsequence("slight", "Black Eye"))
    with pytest.raises(RuleError, match="already has a slight consequence"):
        slots.take(TakenConsequence("slight", "Winded"))
    slots = slots.take(TakenConsequence("moderate", "Bleeding Cut"))
    slots = slots.take(TakenConsequence("heavy", "Broken Arm"))
    assert slots.free_severities() == ()
    with pytest.raises(RuleError, match="all three consequence slots are full"):
        slots.take(TakenConsequence("extreme", "One Eye", replaces="Keen-Eyed"))


def test_extreme_replaces_an_aspect_and_is_permanent() -> None:
    with pytest.raises(RuleError, match="replaces a character Aspect"):
        Consequences().take(TakenConsequence("extreme", "Lost a Hand"))
    slots = Consequences().take(TakenConsequence("extreme", "Lost a Hand", replaces="Deft"))
    assert slots.recover(10_000).taken[0].is_permanent


def test_recovery_only_counts_days_under_the_circumstances() -> None:
    slots = Consequences().take(TakenConsequence("moderate", "Twisted Ankle"))
    slots = slots.take(TakenConsequence("slight", "Drunk"))
    slots = slots.recover(1, aspect="Drunk")
    assert slots.aspects() == ("Twisted Ankle",)
    slots = slots.recover(6)
    assert slots.aspects() == ("Twisted Ankle",)
    assert slots.recover(1).aspects() == ()
