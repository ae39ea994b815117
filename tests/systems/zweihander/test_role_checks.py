"""Wilderness travel rules, Roles: Guide (Navigation), Survivalist (Survival) and Scout (Stealth),
the Role Checks at the beginning of each Stretch in that order, assisting, and every result."""

from __future__ import annotations

import pytest

from referee.core import REFEREE, Choice, OneOf, Record, RuleError, SomeOf
from referee.systems.zweihander import wilderness
from referee.systems.zweihander.roles import role_assignments

from .helpers import act, last, table
from .test_wilderness import PARTY, journey, roles


def test_each_role_check_is_recorded_with_its_role_skill_helpers_card_and_result() -> None:
    """Wilderness travel rules (Roles): the Guide tests Navigation (the others assisting: an
    Assist Die), the Survivalist Survival, the Scout Stealth, each at the terrain's Difficulty
    under its roll card, with the text's result; a Role nobody takes is a Failure."""
    t = act(
        journey(threat=1),
        "referee",
        "journey.roles",
        [40, 5, 99],
        guide="g",
        survivalist="s",
        assists={"guide": ["c"]},
    )
    guide, survivalist, scout = (
        dict(e.data) for e in t.log.events if e.kind == "journey.role_check"
    )
    assert {k: guide[k] for k in ("role", "skill", "character", "assisted_by")} == {
        "role": "Guide",
        "skill": "Navigation",
        "character": "g",
        "assisted_by": ["c"],
    }
    assert (guide["test"]["skill"], guide["test"]["assist"], guide["test"]["total_chance"]) == (
        "Navigation",
        True,
        50,
    )
    assert (guide["roll"]["label"], guide["roll"]["rule"], guide["roll"]["dice"]) == (
        "Guide G tests Navigation",
        "Wilderness travel rules (Roles)",
        "d100 ≤ 50, with an Assist Die",
    )
    assert (guide["outcome"], guide["result"]) == (
        "success",
        "1 day of provisions is required per day of travel",
    )
    assert (guide["provisions_per_day"], guide["terrain"]) == (1, 0)
    assert {k: survivalist[k] for k in ("role", "skill", "character", "assisted_by")} == {
        "role": "Survivalist",
        "skill": "Survival",
        "character": "s",
        "assisted_by": [],
    }
    assert survivalist["roll"]["label"] == "Survivalist S tests Survival"
    assert (survivalist["outcome"], survivalist["result"]) == (
        "critical failure",
        "as Failure, plus add an extra Toughness Test",
    )
    assert (survivalist["camp_recovery"], survivalist["toughness_tests"]) == ("Imperiled", 2)
    assert scout == {
        "role": "Scout",
        "skill": "Stealth",
        "character": None,
        "assisted_by": [],
        "unfilled": True,
        "outcome": "failure",
        "result": "increase Threat Level by 1 step",
        "threat": 2,
        "surprise": None,
    }


def _roles_choice(fit: tuple[str, ...], stretch: str = "one") -> Choice:
    holder = OneOf((None, *fit))
    return Choice(
        REFEREE,
        "journey.roles",
        {
            "guide": holder,
            "survivalist": holder,
            "scout": holder,
            "assists": Record({role: SomeOf(fit) for role in ("guide", "survivalist", "scout")}),
        },
        label=f"the Role Checks of {stretch}: Guide, Survivalist, Scout",
    )


def test_the_gms_journey_menu_follows_the_stretch_and_players_have_none() -> None:
    """Wilderness travel rules: at a Stretch's beginning the GM gives the Roles (any traveller
    to any Role, or nobody; any others assisting: a form, not a list of finished assignments);
    then the Toughness Tests; then the Stretch's end or journey's end; Strike Camp once the
    party has travelled; after journey's end, a new journey."""
    t = journey(threat=1, conveyed=True)
    assert wilderness.choices(t.state, REFEREE) == [_roles_choice(("g", "s", "c"))]
    assert wilderness.choices(t.state, "g") == []
    camp = Choice(REFEREE, "journey.camp", label="Strike Camp")
    t = roles(t, [40, 40, 60])  # the Scout fails: Threat 2
    assert wilderness.choices(t.state, REFEREE) == [
        Choice(REFEREE, "journey.toughness", label="the Toughness Tests"),
        camp,
    ]
    t = act(t, "referee", "journey.toughness", [20, 5, 60, 5, 95, 9, 3, 4, 6, 2])
    assert wilderness.choices(t.state, REFEREE) == [
        Choice(REFEREE, "journey.end_stretch", label="end the Stretch"),
        Choice(
            REFEREE, "journey.end", {"award_fortune": OneOf((False, True))}, label="journey's end"
        ),
        camp,
    ]
    t = act(t, "referee", "journey.end", award_fortune=True)
    assert [c.kind for c in wilderness.choices(t.state, REFEREE)] == ["journey.start"]
    assert wilderness.choices(table({}).state, REFEREE) == []


def test_an_incapacitated_traveller_is_offered_no_role() -> None:
    """Wilderness travel rules (Roles): the Roles go to fit travellers; an Incapacitated! one
    neither takes one nor assists."""
    party = {**PARTY, "g": {**PARTY["g"], "peril": "Incapacitated!"}}
    t = journey(threat=0, party=party)
    assert wilderness.choices(t.state, REFEREE)[0] == _roles_choice(("s", "c"))


def test_any_traveller_may_take_any_role_the_form_composes() -> None:
    """Wilderness travel rules (Roles): "Each character must take a Role (or assist another)":
    any fit traveller may be given any Role — the Guide to one, the Scout to another, the rest
    assisting whom the GM says — and the choice offered allows every such assignment."""
    every = {"Navigation": 40, "Survival": 40, "Stealth": 40, "Toughness": 40}
    t = journey(threat=1, party={who: {"skills": every} for who in ("g", "s", "c")})
    offered = wilderness.choices(t.state, REFEREE)[0]
    chosen = {
        "guide": "c",
        "survivalist": None,
        "scout": "g",
        "assists": {"guide": [], "survivalist": ["s"], "scout": []},
    }
    assert offered.allows(chosen)
    t = act(t, "referee", "journey.roles", [40, 40], **chosen)
    checks = [dict(e.data) for e in t.log.events if e.kind == "journey.role_check"]
    assert [(c["role"], c["character"], c["assisted_by"]) for c in checks] == [
        ("Guide", "c", []),
        ("Survivalist", None, ["s"]),
        ("Scout", "g", []),
    ]


def test_a_role_given_to_one_without_its_skill_is_refused_in_words() -> None:
    """Wilderness travel rules (Roles): the Role's check tests its Skill; a traveller with no
    Base Chance entered for it is refused, saying which and why."""
    t = table(
        {"g": {"skills": {"Survival": 40}}, "s": {"skills": {"Survival": 40}}},
        journey={"travellers": ["g", "s"], "stretches": [{"days": 1}]},
    )
    with pytest.raises(
        RuleError, match="G has no Base Chance entered for Navigation, which the guide"
    ):
        act(t, "referee", "journey.roles", guide="g", survivalist="s")


@pytest.mark.parametrize(("face", "surprise"), [(6, "party"), (2, None)])
def test_the_scouts_surprise_comes_with_an_encounter_only(face: int, surprise: str | None) -> None:
    """Wilderness travel rules (Scout, Threat Level): the Scout's Critical Success lowers the
    Threat Level one step and the party surprises an encounter — if the Chaos Dice bring one."""
    t = roles(journey(threat=2), [40, 40, 11])  # Threat 1: one Chaos Die
    t = act(t, "referee", "journey.toughness", [20, 20, 20, face])
    chaos = last(t, "journey.chaos")
    assert (chaos["encounter"], chaos["surprise"]) == (face == 6, surprise)


def test_role_checks_are_refused_to_the_slain_to_one_with_a_role_and_without_a_journey() -> None:
    """Wilderness travel rules (Roles): one Role per character, none for the Slain!; no Role
    Checks with no journey under way."""
    slain = {**PARTY, "c": {**PARTY["c"], "damage": "Slain!"}}
    with pytest.raises(RuleError, match="C is Slain! and cannot help"):
        act(journey(party=slain), "referee", "journey.roles", guide="g", scout="c")
    with pytest.raises(RuleError, match="G already is the guide"):
        act(journey(), "referee", "journey.roles", guide="g", survivalist="g")
    with pytest.raises(RuleError, match="C already assists the guide and cannot also be the scout"):
        act(journey(), "referee", "journey.roles", guide="g", assists={"guide": ["c"]}, scout="c")
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", "journey.roles", guide="g")
    assert refused.value.rule == "journey.roles"


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
        "C is not travelling",
    )
    with pytest.raises(RuleError) as idle:
        act(journey(), "referee", "journey.roles", guide="g")
    assert (idle.value.rule, idle.value.reason) == (
        "journey.roles (Roles)",
        "each character must take a Role or assist another: S, C has none",
    )


def test_a_survivalists_critical_success_saves_one_toughness_test_of_a_medium_stretch() -> None:
    """Wilderness travel rules (Survivalist): "Critical Success: as Success, plus ignore 1
    Toughness Test" — a Medium Stretch's two become one."""
    t = roles(journey(length="medium"), [40, 11, 40])
    assert last(t, "journey.role_check")["threat"] == 0
    survivalist = [e.data for e in t.log.events if e.kind == "journey.role_check"][1]
    assert (survivalist["outcome"], survivalist["toughness_tests"]) == ("critical success", 1)
    assert t.state.journey is not None and t.state.journey.toughness_tests_left == 1


def test_the_default_assignment_finds_each_role_its_skill_whoever_is_listed_first() -> None:
    """Wilderness travel rules (Roles): the assignment a GM is offered first gives every Role
    to a traveller who has its Skill, however the travellers are listed — here the Scout is
    listed first, the Guide and the Survivalist after."""
    t = journey(threat=1, travellers=["c", "g", "s"])
    j = t.state.journey
    assert j is not None
    assert role_assignments(t.state, j)[0] == {"guide": "g", "survivalist": "s", "scout": "c"}


def test_the_assignments_offered_fill_the_most_roles_first_the_rest_assisting_the_guide() -> None:
    """Wilderness travel rules (Roles): "Each character must take a Role (or assist another)":
    every assignment offered gives each Role once, to a traveller with its Skill, or to nobody
    (the check fails); whoever has no Role assists the Guide; the fullest come first."""
    porter = {"bonuses": {"WB": 3}, "skills": {"Toughness": 50}}
    t = journey(threat=1, party={**PARTY, "d": porter}, travellers=["g", "s", "c", "d"])
    j = t.state.journey
    assert j is not None
    assert role_assignments(t.state, j) == [
        {"guide": "g", "survivalist": "s", "scout": "c", "assists": {"guide": ["d"]}},
        {"guide": "g", "survivalist": "s", "assists": {"guide": ["c", "d"]}},
        {"guide": "g", "scout": "c", "assists": {"guide": ["s", "d"]}},
        {"guide": "g", "assists": {"guide": ["s", "c", "d"]}},
    ]


def test_with_no_guide_every_traveller_must_take_a_role_of_their_own() -> None:
    """Wilderness travel rules (Roles): with nobody able to guide there is no Guide to assist,
    so each way offered gives every traveller a Role — both ways round for two who could take
    either."""
    both = {"bonuses": {"WB": 3}, "skills": {"Survival": 50, "Stealth": 50, "Toughness": 50}}
    t = journey(threat=1, party={"a": both, "b": both}, travellers=["a", "b"])
    j = t.state.journey
    assert j is not None
    assert role_assignments(t.state, j) == [
        {"survivalist": "a", "scout": "b"},
        {"survivalist": "b", "scout": "a"},
    ]
