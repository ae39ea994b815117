"""Overland travel in play: the forced march's Toughness Test and its 24 hours without recovery."""

from __future__ import annotations

from referee.core import HOUR, Action
from referee.dice import ScriptedSource

from .helpers import act, last, table

PARTY = {
    "g": {"skills": {"Navigation": 50, "Toughness": 45}},
    "s": {"skills": {"Survival": 50, "Toughness": 45}},
}


def test_forced_march_incapacitates_and_blocks_recovery_for_24_hours() -> None:
    t = table(PARTY, journey={"travellers": ["g", "s"], "stretches": [{"days": 2}]})
    t = act(t, "referee", "travel.forced_march", [20, 80], characters=["g", "s"])
    marched = [e.data for e in t.log.events if e.kind == "travel.forced_march"]
    assert [m["test"]["total_chance"] for m in marched] == [25, 25]  # Hard (-20%)
    assert [m["incapacitated"] for m in marched] == [False, True]
    assert marched[0]["extra_miles"] == 10
    assert t.state.character("s").peril_condition == "Incapacitated!"
    t = act(t, "referee", "journey.roles", [40], guide="g")  # s cannot take a Role
    t = act(t, "referee", "journey.toughness", [20, 3])  # g tests; Threat up 1: a Chaos Die
    camped = act(t, "referee", "journey.camp")
    assert last(camped, "journey.camp")["recovered"]["s"].endswith("(no recovery: forced march)")
    assert camped.state.character("s").is_incapacitated
    later = t.act(Action("referee", "journey.camp"), ScriptedSource([]), at=24 * HOUR)
    assert last(later, "journey.camp")["recovered"]["s"] == "Imperiled"
    assert later.state.no_recovery == ()


def test_journey_days_count_towards_the_24_hours_without_recovery() -> None:
    """Audit W1: camps (24 hours) and Stretches (their days) are game time for the forced
    march's 24 hours, with no hand-moved clock: after the march, a Stretch of 3 days and a camp,
    the next camp recovers the marcher."""
    setup = {"travellers": ["g", "s"], "stretches": [{"name": "one", "days": 3}, {"days": 4}]}
    t = table(PARTY, journey=setup)
    t = act(t, "referee", "travel.forced_march", [20, 80], characters=["g", "s"])
    t = act(t, "referee", "journey.roles", [40], guide="g")
    t = act(t, "referee", "journey.toughness", [20, 3])
    t = act(t, "referee", "journey.camp")
    assert t.state.character("s").is_incapacitated  # the camp began as the march ended
    t = act(t, "referee", "journey.end_stretch")
    assert last(t, "travel.recovery_allowed") == {"character": "s"}
    t = act(t, "referee", "journey.roles", [40], guide="g")
    t = act(t, "referee", "journey.toughness", [20, 3])
    t = act(t, "referee", "journey.camp")
    assert t.state.character("s").peril_condition == "Imperiled"
    assert t.state.no_recovery == ()
    assert t.now == 0  # the table's clock was never moved: the journey's own days counted


def test_journey_days_count_towards_the_requisition_limits() -> None:
    """Audit W1: a minor requisition is allowed again once a day of travel has passed."""
    party = {**PARTY, "g": {**PARTY["g"], "reputation": 5}}
    t = table(party, journey={"travellers": ["g", "s"], "stretches": [{"days": 2}]})
    t = act(t, "g", "requisition", weight="minor")
    t = act(t, "referee", "journey.roles", [40, 40], guide="g", survivalist="s")
    t = act(t, "referee", "journey.toughness", [20, 20, 3])
    t = act(t, "referee", "journey.end_stretch")
    assert t.state.requisitions_pending == ()
    t = act(t, "g", "requisition", weight="minor")
    assert t.state.character("g").reputation == 3
