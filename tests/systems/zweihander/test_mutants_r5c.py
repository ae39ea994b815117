"""Mutation testing, round 5, second wave, part 2: the survivors of `wilderness.py`'s route
parsing, journey actions and Role Checks, and of `procedure.py`'s setup and fold — each test
names the rule it pins."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, ScenarioError
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.wilderness import Stretch, parse_stretch

from .helpers import act, last, table
from .test_wilderness import PARTY, journey, roles

# ------------------------------------------------------------------------------ parse_stretch


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


def test_bad_weather_makes_the_terrain_a_step_harder_and_a_conveyed_party_is_kept() -> None:
    """Wilderness travel rules (Terrain): bad weather makes the terrain's Difficulty one step
    harder; the Stretch keeps whether the party is conveyed."""
    s = parse_stretch(
        {
            "name": "the pass",
            "length": "medium",
            "terrain": "Standard",
            "threat": 2,
            "days": 9,
            "bad_weather": True,
            "conveyed": True,
        },
        0,
    )
    assert s == Stretch("the pass", "medium", -10, 2, 9, True, True)


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


# ------------------------------------------------------------------------------ decide


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


def test_a_stretchs_provisions_are_for_the_days_and_the_living_travellers() -> None:
    """Wilderness travel rules (Guide): provisions per day of travel (1, or 2 when the Guide
    fails) for every traveller still alive."""
    slain = {**PARTY, "c": {**PARTY["c"], "damage": "Slain!"}}
    t = act(
        journey(days=4, threat=0, party=slain),
        "referee",
        "journey.roles",
        [60, 40],
        guide="g",
        survivalist="s",
    )
    t = act(t, "referee", "journey.toughness", [20, 20, 1])  # Threat 1 (no Scout): a Chaos Die
    t = act(t, "referee", "journey.end_stretch")
    assert last(t, "journey.stretch_ended") == {
        "stretch": "one",
        "days": 4,
        "provisions_per_day": 2,
        "provisions": 4 * 2 * 2,
    }
    j = t.state.journey
    assert j is not None and (j.provisions, j.days, j.index) == (16, 4, 1)
    assert t.state.travel_hours == 4 * 24


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


# ------------------------------------------------------------------------------ _roles


def test_role_checks_are_made_once_at_the_beginning_of_a_stretch_by_travellers() -> None:
    """Wilderness travel rules (Roles): the Role Checks open a Stretch, by the travelling
    characters, and every fit traveller takes a Role or assists."""
    t = roles(journey(threat=0), [40, 40, 40])
    with pytest.raises(RuleError) as refused:
        act(t, "referee", "journey.roles", guide="g")
    assert (refused.value.rule, refused.value.reason) == (
        "journey.roles",
        "Role Checks are made at the beginning of a Stretch",
    )
    with pytest.raises(RuleError) as stranger:
        act(journey(travellers=["g", "s"]), "referee", "journey.roles", guide="g", scout="c")
    assert (stranger.value.rule, stranger.value.reason) == (
        "journey.roles",
        "'c' is not travelling",
    )
    with pytest.raises(RuleError) as idle:
        act(journey(), "referee", "journey.roles", guide="g")
    assert (idle.value.rule, idle.value.reason) == (
        "journey.roles (Roles)",
        "each character must take a Role or assist another: s, c",
    )


# ------------------------------------------------------------------------------ procedure.py


def test_the_setup_seats_its_characters_fortune_points_stables_and_journey() -> None:
    """The table's setup: each character (a blank sheet for one given nothing), the party's
    Fortune Points (none unless given), each player's stable, and a journey only if one is set."""
    t = table({"a": None, "b": {}}, stables={"pat": ["a", "b"]})
    assert [c.id for c in t.state.characters] == ["a", "b"]
    assert t.state.character("a").reputation == t.state.character("b").reputation
    assert t.state.fortune_points == 0
    assert t.state.stables == {"pat": ("a", "b")}
    assert t.state.journey is None
    assert table({"a": {}}, fortune_points=3, journey=None).state.fortune_points == 3
    assert PROCEDURE.initial_state({}).characters == ()
    j = journey().state.journey
    assert j is not None and j.travellers == ("g", "s", "c") and j.stretch.name == "one"


@pytest.mark.parametrize(
    ("stable", "reason"),
    [(["a", "z"], "no character 'z'"), (["a", "a"], "a stable is up to 3 different characters")],
)
def test_a_stable_of_strangers_or_one_naming_a_character_twice_is_refused(
    stable: list[str], reason: str
) -> None:
    """Character stable: up to three different characters of the table, per player."""
    with pytest.raises(ScenarioError) as refused:
        table({"a": {}}, stables={"pat": stable})
    assert refused.value.path == ("stables", "pat")
    assert reason in refused.value.reason


def test_only_the_gm_takes_the_gms_actions_and_only_a_seated_character_acts() -> None:
    """The table: the GM's actions (a journey's steps) are refused to a player; an action by
    someone who is no character at the table is refused."""
    with pytest.raises(RuleError) as player:
        act(journey(), "g", "journey.camp")
    assert (player.value.rule, player.value.reason) == (
        "journey.camp",
        "only the referee (the GM) takes this action, not 'g'",
    )
    with pytest.raises(RuleError, match="no character 'z'"):
        PROCEDURE.decide(journey().state, Action("z", "chase.move", {}), None)


def test_a_survivalists_critical_success_saves_one_toughness_test_of_a_medium_stretch() -> None:
    """Wilderness travel rules (Survivalist): "Critical Success: as Success, plus ignore 1
    Toughness Test" — a Medium Stretch's two become one."""
    t = roles(journey(length="medium"), [40, 11, 40])
    assert last(t, "journey.role_check")["threat"] == 0
    survivalist = [e.data for e in t.log.events if e.kind == "journey.role_check"][1]
    assert (survivalist["outcome"], survivalist["toughness_tests"]) == ("critical success", 1)
    assert t.state.journey is not None and t.state.journey.toughness_tests_left == 1


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


def test_chaos_dice_with_no_six_bring_no_encounter() -> None:
    """Wilderness travel rules (Threat Level): only a 6 on the Chaos Dice is an encounter."""
    t = roles(journey(threat=1), [40, 40, 60])  # the Scout fails: Threat 2, two Chaos Dice
    t = act(t, "referee", "journey.toughness", [20, 20, 20, 1, 2])
    assert last(t, "journey.chaos")["encounter"] is False
    assert t.state.journey is not None and t.state.journey.encounters == 0


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
