"""Wilderness travel rules, Strike Camp: recovery to Imperiled or Unhindered after the Stretch's
Toughness Tests, and the forced march's 24 hours without recovery (Overland exploration,
"Forced march") that the journey's days end."""

from __future__ import annotations

import pytest

from referee.core import REFEREE_ONLY, Event, RuleError
from referee.systems.zweihander import PROCEDURE

from .helpers import _s_and_c_take_roles, act, last, table
from .test_wilderness import PARTY, journey, roles


def test_camp_is_struck_once_the_party_has_travelled_and_only_then() -> None:
    """Wilderness travel rules (Strike Camp): not before the party has set out; on the road,
    and at the beginning of a later Stretch, it may."""
    t = journey(threat=0)
    with pytest.raises(RuleError, match="has not travelled yet"):
        act(t, "referee", "journey.camp")
    t = roles(t, [40, 40, 40])
    assert last(act(t, "referee", "journey.camp"), "journey.camp")["hours"] == 24
    t = act(t, "referee", "journey.toughness", [20, 20, 20])
    t = act(t, "referee", "journey.end_stretch")  # the second Stretch's Role Checks are next
    assert t.state.journey is not None and t.state.journey.index == 1
    assert act(t, "referee", "journey.camp").state.journey.days == 4  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", "journey.camp")
    assert refused.value.rule == "journey.camp"


def test_a_slain_traveller_or_a_forced_marcher_at_camp_does_not_stop_the_others_recovering() -> (
    None
):
    """Strike Camp: the Slain! recover nothing, a forced marcher recovers nothing for 24 hours;
    every other traveller still recovers."""
    weary = {
        "g": {**PARTY["g"], "peril": 2},
        "s": {**PARTY["s"], "peril": 2},
        "c": {**PARTY["c"], "peril": 2},
    }
    slain = {**weary, "g": {**weary["g"], "damage": "Slain!"}}
    t = _s_and_c_take_roles(journey(threat=0, party=slain), [40, 40])
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["recovered"] == {"s": "Unhindered", "c": "Unhindered"}
    t = act(
        journey(threat=0, party=weary),
        "referee",
        "travel.forced_march",
        [80, 20, 20],
        characters=["g", "s", "c"],
    )
    t = _s_and_c_take_roles(t, [40, 40])  # g: Incapacitated!
    t = act(t, "referee", "journey.camp")
    recovered = last(t, "journey.camp")["recovered"]
    assert recovered["g"].endswith("(no recovery: forced march)")
    assert (recovered["s"], recovered["c"]) == ("Unhindered", "Unhindered")


def test_travel_that_ends_a_wait_cancels_its_timer_for_the_referee_only() -> None:
    """Waits (ruling 31): the journey's days that end a forced marcher's 24 hours cancel the
    kernel timer, an event only the referee sees, as the timer would have fired."""
    t = act(journey(threat=0), "referee", "travel.forced_march", [80], characters=["g"])
    t = _s_and_c_take_roles(t, [20, 20])
    t = act(t, "referee", "journey.camp")
    [cancelled] = [e for e in t.log.events if e.kind == "timer.cancelled"]
    assert cancelled.data == {"name": "forced-march:g"}
    assert cancelled.audience == REFEREE_ONLY
    assert last(t, "travel.recovery_allowed") == {"character": "g"}


def test_travel_releases_every_wait_it_passes_at_once() -> None:
    """Waits (ruling 31): a camp that ends two forced marchers' 24 hours releases both."""
    t = act(journey(threat=0), "referee", "travel.forced_march", [80, 80], characters=["g", "s"])
    t = act(t, "referee", "journey.roles", [20], scout="c")
    t = act(t, "referee", "journey.camp")
    cancelled = [e.data["name"] for e in t.log.events if e.kind == "timer.cancelled"]
    assert cancelled == ["forced-march:g", "forced-march:s"]
    assert t.state.no_recovery == () and t.state.waits == ()


def test_a_critical_success_at_toughness_is_for_the_camp_of_its_own_stretch_only() -> None:
    """Audit U4: a Toughness Test's Critical Success recovers to Unhindered "if they Strike
    Camp" — at the end of that Stretch, not of the next."""
    weary = {**PARTY, "c": {**PARTY["c"], "peril": "Ignore 2 Skill Ranks"}}
    t = roles(journey(threat=0, party=weary), [40, 60, 40])  # the Survivalist fails
    t = act(t, "referee", "journey.toughness", [20, 20, 11])  # c: a Critical Success
    t = act(t, "referee", "journey.end_stretch")
    t = roles(t, [40, 60, 40])  # the second Stretch: the Survivalist fails again
    t = act(t, "referee", "journey.toughness", [20, 20, 20])
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["recovered"]["c"] == "Imperiled"


def test_striking_camp_passes_24_hours_and_so_does_a_camp_recorded_without_them() -> None:
    """Wilderness travel rules (Strike Camp): a camp is 24 hours of rest, which the travel time
    counts; a ``journey.camp`` written without its hours (an older record) folds the same 24."""
    t = roles(journey(threat=0), [40, 40, 40])
    camped = act(t, "referee", "journey.camp")
    assert camped.state.travel_hours == t.state.travel_hours + 24
    [camp] = [e for e in camped.log.events if e.kind == "journey.camp"]
    older = Event(camp.kind, {k: v for k, v in camp.payload.items() if k != "hours"})
    assert PROCEDURE.evolve(t.state, older).travel_hours == t.state.travel_hours + 24


def test_a_camp_folded_where_no_journey_is_under_way_changes_nothing() -> None:
    """Wilderness travel rules (Strike Camp): a camp is a day of a journey; its event folded
    into a table with no journey (a record cut or edited by hand) passes no day and no hours."""
    t = roles(journey(threat=0), [40, 40, 40])
    [camp] = [e for e in act(t, "referee", "journey.camp").log.events if e.kind == "journey.camp"]
    idle = table(PARTY).state
    assert PROCEDURE.evolve(idle, camp) == idle
