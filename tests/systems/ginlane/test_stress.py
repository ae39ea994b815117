"""Stress tracks, roll-up, Taken Out and consequences (Gin Lane, "Stress Tracks", "Taken Out",
"Stress Recovery", "Consequences"; RULINGS.md). More of "Consequences" is in
``test_consequences.py``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.systems.ginlane.scene import state_json
from referee.systems.ginlane.stress import Consequences, StressTrack, TakenConsequence, mitigation

from .helpers import _hit_of_13, _new
from .test_procedure import act, duel, events


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


def test_a_hit_of_one_stress_is_marked_and_a_hit_past_the_track_takes_out() -> None:
    """Stress Tracks and Taken Out: fists (bonus 0), 3 + 2 + Brawl 1 = 6 against jack's parry
    of 2 + 1 + 2 = 5, mark 1 stress; 13 unmitigated take jack out, by moll."""
    table = duel(moll={"weapon": "fists"})
    table = act(table, "moll", "attack", [3, 2, 2, 1], target="jack", skill="Brawl")
    (hit,) = events(table, "stress.taken")
    assert (hit["track"], hit["stress"]) == ("Health", 1)
    out = _hit_of_13()
    assert events(out, "taken_out") == [{"character": "jack", "by": "moll"}]


def test_a_rest_for_one_character_rests_that_character_only() -> None:
    """Stress Recovery: a night's rest clears the Health of the one who rests — moll rests,
    jack (not named) keeps his stress and his pool."""
    table = act(duel(), "moll", "attack", [5, 4, 4, 4], target="jack")
    rested = act(table, "referee", "rest", [6], characters=["moll"])
    assert [d["character"] for k, d in _new(table, rested) if k == "rested"] == ["moll"]
    assert rested.state.get("jack").track("Health").marked != ()


def test_a_hit_of_no_stress_ticks_nothing_and_takes_no_one_out() -> None:
    """Stress Tracks: a hit of 0 ticks no box and does not take the character out."""
    track, hit = StressTrack.empty("Health", 3).hit(0)
    assert track.marked == ()
    assert hit.to_json() == {"stress": 0, "box": None, "taken_out": False}


def test_the_end_of_a_session_clears_wealth_stress_only() -> None:
    """Stress Recovery: Health stress clears "after a night's rest and a strong coffee"; at
    the end of a session only Wealth stress clears. jack's 10 against moll's 9 marks her
    Health; the session ends and the mark stays."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [4, 4, 2, 2], target="moll")
    marked = table.state.get("moll").track("Health").marked
    assert marked != ()
    table = act(table, "referee", "end_session")
    assert events(table, "session.ended")[0] == {
        "character": "moll",
        "wealth_cleared": True,
        "pool": 3,
    }
    assert table.state.get("moll").track("Health").marked == marked
    shown = state_json(table.state)["characters"]["moll"]["tracks"]["Health"]
    assert shown == list(marked)


def test_a_stress_track_is_clear_at_first_and_shows_its_length_and_marked_boxes() -> None:
    """Stress Tracks: a character's tracks start clear, each as long as the sheet says (moll's
    Health and Composure 6: 5, +1 for Endurance 1 and Resolve 1; Wealth 5); a hit of 2 ticks
    box 2 and a second of 2 rolls up to box 3; the track's JSON is its length and the boxes
    marked."""
    table = duel()
    moll = table.state.get("moll")
    assert [(t.name, t.boxes) for t in moll.tracks] == [
        ("Health", (False,) * 6),
        ("Composure", (False,) * 6),
        ("Wealth", (False,) * 5),
    ]
    track = StressTrack.empty("Health", 5)
    assert track.to_json() == {"length": 5, "marked": []}
    track = track.hit(2)[0].hit(2)[0]
    assert track.to_json() == {"length": 5, "marked": [2, 3]}
