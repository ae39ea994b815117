"""Wilderness travel rules, Stretches: a route divided into Stretches (Short, Medium, Long and
their days of travel), setting out, each Stretch's end, journey's end."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    REFEREE,
    Between,
    Choice,
    Depends,
    OneOf,
    Record,
    RuleError,
    ScenarioError,
    SomeOf,
    Steps,
)
from referee.systems.zweihander import wilderness
from referee.systems.zweihander.events import JOURNEY_STARTED
from referee.systems.zweihander.stretches import start_payload
from referee.systems.zweihander.wilderness import Stretch, parse_stretch, stretch_length_and_days

from .helpers import _line, act, last, table
from .test_wilderness import PARTY, journey, roles


def test_the_log_names_a_journeys_travellers_and_stretches_in_order() -> None:
    """Wilderness travel: a journey is its travellers and its Stretches, in order."""
    assert (
        _line(
            JOURNEY_STARTED,
            travellers=["anna", "bert"],
            stretches=[{"name": "the Moor", "days": 2}, {"name": "the Pass"}],
        )
        == "A journey begins for Anna, Bert: the Moor, the Pass."
    )


def test_a_stretch_given_nothing_is_a_short_day_of_standard_terrain_named_by_its_place() -> None:
    """Wilderness travel rules (Stretches): a route's Stretch with no name is named by its place
    in the route; no terrain is Standard, no Threat Level is No Danger, one day's Short Stretch,
    neither conveyed nor in bad weather."""
    assert parse_stretch({}, 2) == Stretch(
        name="stretch 3",
        length="short",
        terrain=0,
        threat=0,
        days=1,
        conveyed=False,
        bad_weather=False,
    )
    assert parse_stretch({"name": "", "days": 3}, 0).name == "stretch 1"


@pytest.mark.parametrize(
    ("data", "path", "reason"),
    [
        ([], ("route", 1), "a Stretch is a mapping"),
        ({"conveyed": 1}, ("route", 1, "conveyed"), "true or false, not 1"),
        ({"bad_weather": "no"}, ("route", 1, "bad_weather"), "true or false, not 'no'"),
        ({"terrain": "lava"}, ("route", 1), "'lava' is neither a terrain"),
        ({"threat": 9}, ("route", 1), "not a Threat Level"),
        ({"days": True}, ("route", 1, "days"), "at least 1, not True"),
        ({"days": 0}, ("route", 1, "days"), "at least 1, not 0"),
        ({"days": "3"}, ("route", 1, "days"), "at least 1, not '3'"),
        ({"length": "short", "days": 9}, ("route", 1), "a short Stretch is 1 to 7 days"),
        ({"length": "endless"}, ("route", 1), "endless"),
    ],
)
def test_a_bad_stretch_is_refused_at_its_place_in_the_route(
    data: Any, path: tuple[str | int, ...], reason: str
) -> None:
    """Wilderness travel rules (Stretches): a route file's bad Stretch is refused naming the
    Stretch (and the field) at fault."""
    with pytest.raises(ScenarioError) as refused:
        parse_stretch(data, 1, ("route",))
    assert refused.value.path == path
    assert reason in refused.value.reason


def test_a_stretch_of_one_day_or_more_is_accepted() -> None:
    """Wilderness travel rules (Stretches): a day of travel is the least a Stretch lasts."""
    assert parse_stretch({"days": 1}, 0).days == 1
    assert parse_stretch({"length": "long"}, 0).days == 21


def test_a_stretch_ends_only_once_its_toughness_tests_are_done() -> None:
    """Wilderness travel rules (Stretches): the Stretch is over when the Role Checks and every
    Toughness Test it calls for are made."""
    with pytest.raises(RuleError) as refused:
        act(journey(), "referee", "journey.end_stretch")
    assert refused.value.rule == "journey.end_stretch"
    assert refused.value.reason == "the Stretch is not done: 0 Toughness Tests left (phase roles)"
    t = roles(journey(threat=0), [40, 40, 40])
    with pytest.raises(RuleError, match=r"1 Toughness Tests left \(phase toughness\)"):
        act(t, "referee", "journey.end_stretch")


def test_the_journeys_end_names_the_survivors_and_is_final() -> None:
    """Wilderness travel rules: at journey's end the GM may award a Fortune Point per surviving
    character; an ended journey takes no more steps, and a new one may start."""
    t = act(journey(), "referee", "journey.end")
    assert last(t, "journey.ended") == {"survivors": ["g", "s", "c"], "fortune_points": 0}
    assert t.state.journey is not None and t.state.journey.ended
    with pytest.raises(RuleError, match="the journey has ended") as refused:
        act(t, "referee", "journey.end")
    assert refused.value.rule == "journey.end"
    route = {"travellers": ["g"], "stretches": [{"days": 2, "name": "home"}]}
    again = act(t, "referee", "journey.start", **route)
    assert again.state.journey is not None
    assert again.state.journey.travellers == ("g",)
    assert again.state.journey.stretch.name == "home"


def test_a_journey_start_is_refused_under_its_own_name_with_the_routes_fault() -> None:
    """Wilderness travel rules (Stretches): the GM's route must name each traveller once."""
    with pytest.raises(RuleError) as refused:
        act(table(PARTY), "referee", "journey.start", travellers=["g", "g"], stretches=[{}])
    assert refused.value.rule == "journey.start"
    assert "a traveller is named twice" in refused.value.reason
    with pytest.raises(RuleError, match="a journey is already under way") as twice:
        act(journey(), "referee", "journey.start", travellers=["g"], stretches=[{}])
    assert twice.value.rule == "journey.start"


@pytest.mark.parametrize("kind", ["journey.end_stretch", "journey.end"])
def test_a_journey_step_with_no_journey_is_refused_under_its_own_name(kind: str) -> None:
    """Wilderness travel rules: a Stretch's end or the journey's end needs a journey under way."""
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", kind)
    assert refused.value.rule == kind


def test_a_journey_starts_at_its_first_stretchs_threat_level_and_weather() -> None:
    """Wilderness travel rules (Stretches): the journey sets out at the first Stretch's Threat
    Level, and the Stretch keeps its bad weather."""
    j = journey(threat=2, bad_weather=True).state.journey
    assert j is not None and (j.threat, j.stretch.bad_weather) == (2, True)


def test_each_stretch_ends_into_the_next_and_the_last_ends_the_journey() -> None:
    """Wilderness travel rules (Stretches): a route of three Stretches is travelled in order; at
    each Stretch's end the next one's terrain and Threat Level are taken and the Scout's surprise
    is over; after the last one the journey is done. (wilderness.evolve #214, #225, #227,
    #234, #236–#238.)"""
    stretch = {"length": "short", "days": 1}
    t = table(
        PARTY,
        journey={
            "travellers": ["g", "s", "c"],
            "stretches": [
                {**stretch, "name": "one", "terrain": "Standard", "threat": 2},
                {**stretch, "name": "two", "terrain": "meadows", "threat": 1},
                {**stretch, "name": "three", "terrain": "Standard", "threat": 0},
            ],
        },
    )
    t = roles(t, [40, 40, 11])  # the Scout's Critical Success: the party would surprise
    assert t.state.journey is not None and t.state.journey.surprise == "party"
    seen = []
    # Toughness for three, then one Chaos Die while the Threat Level (lowered by each Scout) is 1.
    for dice in ([20, 20, 20, 1], [20, 20, 20], [20, 20, 20]):
        t = act(t, "referee", "journey.toughness", dice)
        t = act(t, "referee", "journey.end_stretch")
        j = t.state.journey
        assert j is not None
        seen.append((j.index, j.phase, j.stretch.name, j.terrain, j.threat, j.surprise))
        if j.phase == "roles":
            t = roles(t, [40, 40, 40])
    assert seen == [
        (1, "roles", "two", 20, 1, None),
        (2, "roles", "three", 0, 0, None),
        (2, "done", "three", 0, 0, None),
    ]


@pytest.mark.parametrize(
    ("days", "length"),
    [(1, "short"), (7, "short"), (8, "medium"), (20, "medium"), (21, "long"), (60, "long")],
)
def test_a_stretchs_length_follows_its_days_of_travel(days: int, length: str) -> None:
    """Wilderness travel rules (Stretches): a Short Stretch is a day to a week's travel, a
    Medium one a week or two (up to the Long's three weeks), a Long one three weeks or more."""
    assert stretch_length_and_days(None, days) == (length, days)


@pytest.mark.parametrize(
    ("length", "days", "span"),
    [("short", 8, "1 to 7"), ("medium", 6, "7 to 20"), ("long", 20, "21 or more")],
)
def test_days_that_do_not_fit_a_stretchs_length_are_refused(
    length: str, days: int, span: str
) -> None:
    """Wilderness travel rules (Stretches): the days of travel must fit the Stretch's length;
    the refusal gives the length's span (a Long Stretch has no upper bound)."""
    with pytest.raises(RuleError) as refused:
        stretch_length_and_days(length, days)
    assert refused.value.reason == f"a {length} Stretch is {span} days of travel, not {days}"


def test_the_gm_composes_the_route_stretch_by_stretch_at_the_table() -> None:
    """Wilderness travel rules (Stretches): "The GM divides the route into manageable
    Stretches": with no journey under way the GM sets out with one or more of the characters on
    a route composed at the table — a list of Stretches, each with its length and the days that
    length allows, a terrain the text lists, a Threat Level, the weather and the transport."""
    t = table(PARTY)
    [choice] = wilderness.choices(t.state, REFEREE)
    assert (choice.kind, choice.params["travellers"]) == (
        "journey.start",
        SomeOf(("g", "s", "c"), least=1),
    )
    stretches = choice.params["stretches"]
    assert isinstance(stretches, Steps) and stretches.least == 1
    step = stretches.step
    assert isinstance(step, Record)
    days = step.fields["days"]
    assert isinstance(days, Depends) and days.on == "length"
    assert dict(days.cases) == {
        "short": Between(1, 7),
        "medium": Between(7, 20),
        "long": Between(21, 365),
    }
    assert "mountains" in step.fields["terrain"].values  # type: ignore[union-attr]
    assert step.fields["threat"] == OneOf(
        ("No Danger", "Mildly Dangerous", "Moderately Dangerous", "Highly Dangerous")
    )
    route = [
        {
            "name": "the marsh road",
            "length": "short",
            "days": 3,
            "terrain": "marshes",
            "threat": "Mildly Dangerous",
            "bad_weather": True,
            "conveyed": False,
        },
        {
            "name": "the pass",
            "length": "long",
            "days": 24,
            "terrain": "mountains",
            "threat": "Highly Dangerous",
            "bad_weather": False,
            "conveyed": True,
        },
    ]
    assert choice.allows({"travellers": ["g", "s"], "stretches": route})
    assert not choice.allows(
        {"travellers": ["g"], "stretches": [{**route[0], "length": "short", "days": 12}]}
    )
    t = act(t, REFEREE, "journey.start", travellers=["g", "s"], stretches=route)
    j = t.state.journey
    assert [(s.name, s.length, s.days, s.terrain, s.threat, s.conveyed) for s in j.stretches] == [
        ("the marsh road", "short", 3, -10, 1, False),  # Standard, one step worse: bad weather
        ("the pass", "long", 24, -30, 3, True),
    ]
    assert wilderness.choices(t.state, "g") == []


def test_after_the_last_stretch_the_gm_may_only_end_the_journey_or_strike_camp() -> None:
    """Wilderness travel rules (Stretches): once the last Stretch is over there is no next one;
    the GM ends the journey (or strikes camp first)."""
    t = table(PARTY, journey={"travellers": ["g", "s", "c"], "stretches": [{"days": 1}]})
    t = roles(t, [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [20, 20, 20])
    t = act(t, "referee", "journey.end_stretch")
    assert t.state.journey is not None and t.state.journey.phase == "done"
    assert wilderness.choices(t.state, REFEREE) == [
        Choice(
            REFEREE, "journey.end", {"award_fortune": OneOf((False, True))}, label="journey's end"
        ),
        Choice(REFEREE, "journey.camp", label="Strike Camp"),
    ]


def test_a_route_with_no_travellers_or_no_stretches_is_refused() -> None:
    """Wilderness travel rules (Stretches): a route is travelled by someone and divided into
    at least one Stretch; an empty list of either is refused at its field."""
    state = table(PARTY).state
    for field in ("travellers", "stretches"):
        route: dict[str, Any] = {"travellers": ["g"], "stretches": [{"length": "short"}]}
        route[field] = []
        with pytest.raises(ScenarioError) as refused:
            start_payload(state, route, ("journey",))
        assert refused.value.path == ("journey", field)
