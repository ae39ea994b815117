"""Wilderness travel rules, Toughness Tests: each fit traveller's Test at the terrain's
Difficulty (an Assist Die when conveyed), 2D10+2 / 3D10+3 Peril, the Chaos Dice after it."""

from __future__ import annotations

import pytest

from referee.core import Event, RuleError
from referee.systems.zweihander import PROCEDURE, wilderness

from .helpers import _s_and_c_take_roles, act, last, table
from .test_wilderness import PARTY, journey, roles


def test_a_stretchs_toughness_tests_chaos_dice_camp_and_end_are_recorded() -> None:
    """Wilderness travel rules (Toughness Tests, Threat Level, Strike Camp, Stretches): each fit
    traveller's Toughness Test (conveyed: an Assist Die) with its card and result, a Failure's
    2D10+2 Peril; then the Threat Level's Chaos Dice; a camp of 24 hours recovers Peril; the
    Stretch's end counts its days and provisions and moves on to the next Stretch."""
    t = roles(journey(threat=1, conveyed=True), [40, 40, 60])  # the Scout fails: Threat 2
    assert [p.label for p in wilderness.previews(t.state)] == [
        "G tests Toughness",
        "S tests Toughness",
        "C tests Toughness",
    ]
    assert {(p.rule, p.dice) for p in wilderness.previews(t.state)} == {
        ("Wilderness travel rules (Toughness Tests)", "d100 ≤ 50, with an Assist Die")
    }
    t = act(t, "referee", "journey.toughness", [20, 5, 60, 5, 95, 9, 3, 4, 6, 2])
    assert wilderness.previews(t.state) == []
    toughness = last(t, "journey.toughness")
    g, s, c = toughness["tests"]
    assert (g["character"], g["test"]["skill"], g["test"]["assist"]) == ("g", "Toughness", True)
    assert (g["result"], s["result"], c["result"]) == (
        "no Peril is suffered",
        "no Peril is suffered",
        "suffer 2D10+2 Peril",
    )
    assert "peril" not in g
    assert (c["peril"], c["peril_faces"], c["peril_condition"]) == (9, [3, 4], "Imperiled")
    assert toughness["unhindered_at_camp"] == []
    assert [(r["label"], r["rule"]) for r in toughness["rolls"]] == [
        (f"{who.upper()} tests Toughness", "Wilderness travel rules (Toughness Tests)")
        for who in "gsc"
    ]
    chaos = last(t, "journey.chaos")
    assert {k: v for k, v in chaos.items() if k != "roll"} == {
        "chaos_dice": 2,
        "faces": [6, 2],
        "odds": "11/36",
        "encounter": True,
        "surprise": None,
    }
    assert (chaos["roll"]["label"], chaos["roll"]["rule"]) == (
        "the Threat Level's Chaos Dice",
        "Wilderness travel rules (Threat Level)",
    )
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["hours"] == 24
    assert t.state.character("c").peril_condition == "Unhindered"
    t = act(t, "referee", "journey.end_stretch")
    assert last(t, "journey.stretch_ended") == {
        "stretch": "one",
        "days": 3,
        "provisions_per_day": 1,
        "provisions": 9,
    }
    j = t.state.journey
    assert j is not None
    assert (j.index, j.phase, j.terrain, j.threat, j.surprise) == (1, "roles", 0, 0, None)
    assert (j.days, j.provisions, j.encounters) == (4, 9, 1)
    assert t.state.travel_hours == 24 + 3 * 24


def test_the_toughness_previews_leave_out_who_cannot_test() -> None:
    """Wilderness travel rules (Toughness Tests): the GM sees the odds of each fit traveller's
    next Toughness Test; an Incapacitated! one tests none."""
    party = {**PARTY, "g": {**PARTY["g"], "peril": "Incapacitated!"}}
    t = _s_and_c_take_roles(journey(threat=0, party=party), [40, 40])
    assert [p.label for p in wilderness.previews(t.state)] == [
        "S tests Toughness",
        "C tests Toughness",
    ]
    hard = roles(journey(terrain="Hard", threat=0), [40, 40, 40])
    assert {p.dice for p in wilderness.previews(hard.state)} == {"d100 ≤ 30"}
    ended = act(hard, "referee", "journey.end")
    assert wilderness.previews(ended.state) == []
    assert wilderness.previews(table(PARTY).state) == []


def test_the_toughness_tests_are_at_the_terrains_difficulty_for_each_fit_traveller() -> None:
    """Wilderness travel rules (Toughness Tests): at the terrain's Difficulty (Hard: 50 - 20);
    an Incapacitated! traveller tests none, the others still do."""
    party = {**PARTY, "g": {**PARTY["g"], "peril": "Incapacitated!"}}
    t = journey(terrain="Hard", threat=0, party=party)
    t = _s_and_c_take_roles(t, [20, 20])
    t = act(t, "referee", "journey.toughness", [20, 20])
    tests = last(t, "journey.toughness")["tests"]
    assert [(x["character"], x["test"]["total_chance"]) for x in tests] == [("s", 30), ("c", 30)]
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", "journey.toughness")
    assert refused.value.rule == "journey.toughness"


def test_a_toughness_record_notes_for_camp_only_a_list_of_travellers() -> None:
    """Wilderness travel rules (Toughness Tests, Strike Camp): the travellers whose Critical
    Success lets them recover to Unhindered at camp are read from the record's list and nothing
    else; a bare name is not a list (its letters are nobody)."""
    t = roles(journey(threat=0), [40, 40, 40])
    j = t.state.journey
    assert j is not None and j.unhindered_at_camp == ()
    for named in ("gs", None):
        event = Event("journey.toughness", {"tests": [], "unhindered_at_camp": named})
        after = PROCEDURE.evolve(t.state, event).journey
        assert after is not None
        assert (after.unhindered_at_camp, after.toughness_tests_left) == (
            (),
            j.toughness_tests_left - 1,
        )
