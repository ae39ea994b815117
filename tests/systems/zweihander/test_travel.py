"""Overland travel in play: the forced march's Toughness Test and its 24 hours without recovery."""

from __future__ import annotations

import pytest

from referee.core import HOUR, Action, RuleError, ScenarioError
from referee.dice import ScriptedSource
from referee.systems.zweihander.events import FORCED_MARCH
from referee.systems.zweihander.overland import Route, miles_per_day, transport_row

from .helpers import _card, _line, act, last, table

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


def test_a_transport_named_alone_finds_its_row() -> None:
    """Distance table: "dwarf, halfling, gnome (on foot)" — a gnome walks 10 miles a day by
    road; a row may be named whole, in any case."""
    assert transport_row("gnome").road == 10
    assert transport_row("Ogre").road == 15
    assert transport_row("Chariot, Wagon").path == 8


def test_currents_on_sea_and_no_forced_march_on_water() -> None:
    """Waterways: a current or good winds apply on river or sea (+5 at sea: 35); a forced
    march is made on road or path, never on river or sea."""
    assert miles_per_day("longship", "sea", current=5) == 35
    assert miles_per_day("longship", "river", current=-5) == 10
    for route in ("river", "sea"):
        with pytest.raises(RuleError, match="Forced march"):
            miles_per_day("longship", route, forced_march=True)
    assert miles_per_day("horse", "road", forced_march=True) == 50


def test_a_route_from_a_file_defaults_to_a_human_walking_by_road() -> None:
    """Overland exploration: a leg names its distance; transport, route and flags default to
    a human on foot, by road, no forced march, fair weather (15 miles a day)."""
    route = Route.from_data({"legs": [{"distance": 30}, {"distance": 0}]})
    first = route.legs[0]
    assert (first.transport, first.route, first.forced_march, first.bad_weather) == (
        "human",
        "road",
        False,
        False,
    )
    assert (first.days, route.legs[1].days) == (2, 0)


@pytest.mark.parametrize(
    "data",
    [
        [{"distance": 30}],
        {"legs": []},
        {"legs": [{"distance": "thirty"}]},
        {"legs": [{"distance": 30, "bad_weather": "yes"}]},
        {"legs": [{"distance": 30, "forced_march": 1}]},
    ],
    ids=["not-a-mapping", "no-legs", "distance-not-a-number", "weather-not-a-flag", "march-int"],
)
def test_a_bad_route_is_refused_by_name(data: object) -> None:
    """A route file's errors are ScenarioErrors naming the field, never a traceback."""
    with pytest.raises(ScenarioError):
        Route.from_data(data)


def test_the_log_says_whether_a_forced_march_incapacitates() -> None:
    """Overland exploration, Forced march: a failed Toughness Test leaves the character
    Incapacitated!, with no Peril recovery for 24 hours; a passed one holds on."""
    assert (
        _line(FORCED_MARCH, character="anna", incapacitated=True, roll=_card(78))
        == "Anna force-marches — d100 78: failure: Incapacitated!, no recovery for 24 hours."
    )
    assert (
        _line(FORCED_MARCH, character="anna", incapacitated=False, roll=_card(34))
        == "Anna force-marches — d100 34: success: holds on."
    )
