"""Overland exploration: the Distance table's rows and a route file's legs, Waterways, and the
Forced march in play (its Toughness Test and its 24 hours without recovery)."""

from __future__ import annotations

import pytest

from referee.core import HOUR, Action, Choice, RuleError, ScenarioError, SomeOf
from referee.dice import ScriptedSource
from referee.systems.zweihander import overland
from referee.systems.zweihander.events import FORCED_MARCH
from referee.systems.zweihander.overland import Leg, Route, miles_per_day, transport_row

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


def test_a_route_from_a_file_keeps_every_field_each_leg_names() -> None:
    """Overland exploration / Distance: a leg's transport, route, Forced march, current and bad
    weather, as the file writes them (the defaults apply only to what a leg leaves out)."""
    route = Route.from_data(
        {
            "legs": [
                {
                    "distance": 50,
                    "transport": "horse",
                    "route": "path",
                    "forced_march": True,
                    "bad_weather": True,
                },
                {"distance": 60, "transport": "river barge", "route": "river", "current": -5},
            ]
        }
    )
    assert route.legs == (
        Leg(50, "horse", "path", True, 0, True),
        Leg(60, "river barge", "river", False, -5, False),
    )
    assert [leg.miles_per_day for leg in route.legs] == [
        overland.miles_per_day("horse", "path", forced_march=True, bad_weather=True),
        overland.miles_per_day("river barge", "river", current=-5),
    ]
    assert route.distance == 110


def test_a_forced_march_event_names_the_toughness_test_and_its_roll_card() -> None:
    """Overland exploration / Forced march: each marcher's Hard (-20%) Toughness Test, shown as
    "<who> force-marches" under the rule "Forced march"; a failure sets the 24-hour timer named
    for the marcher."""
    t = table({"g": {"skills": {"Toughness": 45}}})
    t = act(t, "referee", "travel.forced_march", [80], characters=["g"])
    marched = last(t, "travel.forced_march")
    assert marched["test"]["skill"] == "Toughness"
    assert marched["test"]["difficulty_rating"] == "Hard"
    assert (marched["roll"]["label"], marched["roll"]["rule"]) == (
        "G force-marches",
        "Forced march",
    )
    assert marched["roll"]["dice"] == "d100 ≤ 25"
    assert marched["incapacitated"] is True
    timer = last(t, "timer.set")
    assert (timer["name"], timer["after"]) == ("forced-march:g", 24 * 3600)
    assert timer["label"] == "G may recover from Peril again"
    assert timer["event"]["kind"] == "travel.recovery_allowed"
    assert timer["event"]["payload"] == {"character": "g"}
    assert t.state.waits == (("forced-march:g", 24),)
    assert t.state.no_recovery == ("g",)


def test_a_marcher_who_passes_keeps_recovering_and_waits_for_nothing() -> None:
    """Forced march: only a failed Toughness Test stops recovery for 24 hours."""
    t = table({"g": {"skills": {"Toughness": 45}}})
    t = act(t, "referee", "travel.forced_march", [20], characters=["g"])
    assert last(t, "travel.forced_march")["incapacitated"] is False
    assert (t.state.no_recovery, t.state.waits) == ((), ())


def test_recovery_allowed_again_clears_the_marchers_wait() -> None:
    """Forced march: once the 24 hours are over, the marcher recovers and nothing is waited."""
    t = table({"g": {"skills": {"Toughness": 45}}})
    t = act(t, "referee", "travel.forced_march", [80], characters=["g"])
    later = t.act(
        Action("referee", "reputation.award", {"character": "g", "story_arc": 1}),
        ScriptedSource([]),
        at=24 * 3600,
    )
    assert (later.state.no_recovery, later.state.waits) == ((), ())


def test_the_gm_calls_a_forced_march_for_those_able_to_test_toughness() -> None:
    """Forced march: a Toughness Test each; who lacks Toughness, or is Incapacitated!, is not
    offered; a player is never offered it, nor is the GM with nobody able."""
    t = table(
        {
            "g": {"skills": {"Toughness": 45}},
            "s": {"skills": {"Toughness": 40}},
            "n": {"skills": {"Survival": 50}},
        }
    )
    assert overland.choices(t.state, "referee") == [
        Choice(
            "referee",
            "travel.forced_march",
            {"characters": SomeOf(("g", "s"), least=1)},
            label="a forced march",
        )
    ]
    assert overland.choices(t.state, "g") == []
    t = act(t, "referee", "travel.forced_march", [80], characters=["s"])
    assert overland.choices(t.state, "referee") == [
        Choice(
            "referee",
            "travel.forced_march",
            {"characters": SomeOf(("g",), least=1)},
            label="a forced march",
        )
    ]
    assert overland.choices(table({"n": {"skills": {"Survival": 50}}}).state, "referee") == []
