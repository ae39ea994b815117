"""Characters, the skill pyramid, Experience and the pool, tracks and languages (Gin Lane,
"Characters", "Experience Points", "Getting Experience", "The Free Experience Pool",
"Experience Pool Refresh", "The Skill Pyramid", "The Skills List", "Stress Tracks",
"Languages"), and the sheet as a file reads and writes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.systems.ginlane.character import (
    SOCIETY,
    Character,
    ExperiencePool,
    aspects_for_spending,
    check_pyramid,
    check_sheet,
    language_allowance,
    pyramid_problems,
    skill_cost,
    stress_track_length,
)

from .helpers import _hit_of_13, _new
from .test_procedure import act, duel


def test_the_texts_three_valid_pyramids_cost_ten() -> None:
    # "for a +3 skill, you must also have two +2 skills and thus three +1 skills, costing 10"
    for levels in ([3, 2, 2, 1, 1, 1], [1] * 10, [2, 2, 2, 1, 1, 1, 1]):
        assert pyramid_problems(levels) == []
        assert skill_cost(levels) == 10


def test_the_texts_invalid_pyramid() -> None:
    # "but not as one at +1 and three at +3"
    assert skill_cost([1, 3, 3, 3]) == 10
    with pytest.raises(RuleError, match=r"The Skill Pyramid: 3 skills at \+3 need at least 4"):
        check_pyramid([1, 3, 3, 3])


def test_pyramid_needs_strictly_more_below() -> None:
    assert pyramid_problems([2, 2, 1, 1]) == [
        "2 skills at +2 need at least 3 at +1, but there are 2"
    ]
    assert pyramid_problems([2, 1]) != [] and pyramid_problems([2, 1, 1]) == []
    assert pyramid_problems([3, 2, 1]) != []


@given(st.lists(st.integers(1, 5), max_size=15))
def test_a_pyramid_built_column_by_column_is_valid(tops: list[int]) -> None:
    """Fate's columns: a skill at +n brings one at each level below; adding a +1 base keeps it
    strictly wider below."""
    levels = [1]
    for top in tops:
        levels += list(range(1, top + 1))
        levels.append(1)
    counts = {lv: levels.count(lv) for lv in set(levels)}
    valid = all(counts.get(lv - 1, 0) > counts[lv] for lv in counts if lv > 1)
    assert (pyramid_problems(levels) == []) == valid


def test_experience_spent_unspent_and_extra_aspects() -> None:
    moll = Character.build(
        "Moll",
        skills={
            "Weapons": 3,
            "Agility": 2,
            "Resolve": 2,
            "Endurance": 1,
            "Alertness": 1,
            "Charm": 1,
        },
        experience=13,
    )
    assert moll.spent == 10 and moll.unspent == 3
    assert moll.extra_aspects == 2 == aspects_for_spending(10)
    assert aspects_for_spending(3) == 0 and aspects_for_spending(4) == 1
    assert moll.pool() == ExperiencePool(3, 3)


def test_experience_must_cover_the_skills() -> None:
    sheet = Character.build("Tom", skills={"Brawl": 1, "Agility": 1}, experience=1)
    assert ("Buying Skills", "the skills cost 2 points, experience is 1") in check_sheet(sheet)


def test_aspects_must_be_unique() -> None:
    sheet = Character.build("Tom", aspects=["Gin Sot", "gin sot"])
    with pytest.raises(RuleError, match="Aspects: Aspect 'gin sot' appears 2 times"):
        sheet.validate()


def test_every_pc_has_the_free_society_aspect() -> None:
    sheet = Character.build("Tom")
    assert sheet.is_free_taggable(SOCIETY) and sheet.has_aspect(SOCIETY)
    assert not sheet.is_free_taggable("Gin Sot")


def test_possessions_are_aspects() -> None:
    sheet = Character.build("Tom", possessions=["A House in Soho"])
    assert sheet.has_aspect("a house in soho") and not sheet.is_free_taggable("A House in Soho")


def test_unknown_skills_and_zero_levels_refused() -> None:
    sheet = Character.build("Tom", skills={"Fencing": 1, "Brawl": 0})
    rules = [rule for rule, _ in check_sheet(sheet)]
    assert rules == ["The Skills List", "Skills"]


def test_stress_tracks_from_endurance_resolve_assets() -> None:
    assert [stress_track_length(n) for n in range(7)] == [5, 6, 6, 7, 7, 8, 8]
    sheet = Character.build(
        "Tom",
        skills={
            "Endurance": 3,
            "Resolve": 1,
            "Brawl": 2,
            "Agility": 1,
            "Assets": 1,
            "Alertness": 1,
            "Charm": 2,
        },
    )
    assert sheet.tracks == {"Health": 7, "Composure": 6, "Wealth": 6}
    assert Character.build("Nobody").tracks == {"Health": 5, "Composure": 5, "Wealth": 5}


def test_languages_from_knowledge_skills_and_languages() -> None:
    # one per odd level of the other knowledge skills, one per level of Languages
    assert language_allowance({"Scholarship": 1}) == 1
    assert language_allowance({"Scholarship": 2}) == 1
    assert language_allowance({"Scholarship": 3, "Arts": 1, "Languages": 2}) == 5
    assert language_allowance({"Brawl": 3}) == 0
    sheet = Character.build("Tom", skills={"Scholarship": 1}, languages=["Latin", "Greek"])
    assert ("Languages", "2 languages claimed, the skills allow 1") in check_sheet(sheet)


def test_pool_spend_refresh_and_excess_lost() -> None:
    pool = ExperiencePool(points=4, full=4)
    pool = pool.spend(3)
    assert pool.points == 1
    assert pool.refresh(2).points == 3
    assert pool.refresh(6).points == 4  # never above full
    assert pool.award(3).points == 4
    assert pool.award(5).refresh(1).points == 4  # excess received in play is lost at the rest
    with pytest.raises(RuleError, match="The Free Experience Pool: a tag needs 2 points"):
        pool.spend(2)


def test_sheet_from_json_checks_types() -> None:
    sheet = Character.from_json("Moll", {"skills": {"Weapons": 1}, "aspects": ["Quick"]})
    assert sheet.level("weapons") == 1 and sheet.level("Brawl") is None
    with pytest.raises(RuleError, match="skill 'Weapons' has level 'x'"):
        Character.from_json("Moll", {"skills": {"Weapons": "x"}})
    assert sheet.to_json()["tracks"] == {"Health": 5, "Composure": 5, "Wealth": 5}


def test_only_player_characters_are_members_of_the_society() -> None:
    # "all player characters have the (free) Aspect Member of the Society for Effectual Redress"
    assert Character.from_json("moll", {}).free_aspects == (SOCIETY,)
    assert Character.from_json("bravo", {"npc": True}).free_aspects == ()
    assert Character.from_json("spy", {"npc": True, "free_aspects": [SOCIETY]}).free_aspects == (
        SOCIETY,
    )
    with pytest.raises(RuleError, match="npc is true or false"):
        Character.from_json("bravo", {"npc": "yes"})


def test_experience_awarded_to_one_character_goes_to_that_pool_only() -> None:
    """Getting Experience: the referee awards points to the characters named; named none, to
    everyone at the table."""
    table = duel()
    one = act(table, "referee", "award", points=2, characters=["moll"])
    assert _new(table, one) == [("pool.awarded", {"character": "moll", "points": 2})]
    assert (one.state.get("moll").pool.points, one.state.get("jack").pool.points) == (5, 2)
    everyone = act(table, "referee", "award", points=2)
    assert [d["character"] for _, d in _new(table, everyone)] == ["moll", "jack"]


def test_the_end_of_a_session_refills_only_the_pools_of_those_named() -> None:
    """Experience Pool Refresh: "Characters usually start a session with a full experience
    pool" — a session ended for jack alone refills jack's pool, not moll's."""
    table = act(duel(), "moll", "declare", aspect="Fencing Mistress", fact="x")
    ended = act(table, "referee", "end_session", characters=["jack"])
    assert _new(table, ended) == [
        ("scene.ended", {"lapsed": []}),
        ("session.ended", {"character": "jack", "wealth_cleared": True, "pool": 2}),
    ]
    assert ended.state.get("moll").pool.points == 2


def test_a_rest_after_the_scene_ends_no_scene_again_and_keeps_the_consequences() -> None:
    """Experience Pool Refresh: "a night's rest" comes after the scene — once the scene has
    ended, a rest only rests: jack's consequence (no Aspect of the scene) does not end it again,
    and it stays on him."""
    table = _hit_of_13({"severity": "slight", "aspect": "Winded"})
    ended = act(table, "referee", "end_scene")
    rested = act(ended, "referee", "rest", [1, 1])
    assert [k for k, _ in _new(ended, rested)] == ["rested", "rested"]
    assert [(a.name, a.on) for a in rested.state.aspects] == [("Winded", "jack")]


def test_a_sheet_as_json_carries_its_fields_and_what_they_give() -> None:
    """Characters: the sheet written out (``referee ginlane sheet --json``) — its Aspects,
    possessions, skills and experience, and what they give: points spent and left, the extra
    Aspects earned (one per 4 spent), the tracks (5, +1 per odd level of Endurance, Resolve,
    Assets) and the languages allowed."""
    sheet = Character.build(
        "Moll",
        aspects=["Fencing Mistress"],
        possessions=["House in Soho"],
        skills={"Weapons": 3, "Endurance": 2, "Resolve": 2, "Scholarship": 1, "Languages": 1},
        experience=12,
        languages=["French"],
    )
    assert sheet.to_json() == {
        "name": "Moll",
        "aspects": ["Fencing Mistress"],
        "free_aspects": [SOCIETY],
        "possessions": ["House in Soho"],
        "skills": {"Weapons": 3, "Endurance": 2, "Resolve": 2, "Scholarship": 1, "Languages": 1},
        "experience": 12,
        "spent": 9,
        "unspent": 3,
        "extra_aspects": 2,
        "tracks": {"Health": 6, "Composure": 6, "Wealth": 5},
        "language_allowance": 2,
        "languages": ["French"],
    }


def test_a_sheet_read_from_a_file_refuses_experience_or_names_of_the_wrong_kind() -> None:
    """Characters, Experience Points: a sheet's experience is a whole number (not a word, not
    a flag), and its Aspects are a list of names (not nothing, not a flag)."""
    for data, refusal in (
        ({"experience": "x"}, "experience is a whole number, not 'x'"),
        ({"experience": True}, "experience is a whole number, not True"),
        ({"aspects": [None]}, r"aspects is a list of names, not \[None\]"),
        ({"aspects": [True]}, r"aspects is a list of names, not \[True\]"),
    ):
        with pytest.raises(RuleError, match=refusal):
            Character.from_json("Moll", data)


def test_a_skill_listed_twice_in_any_case_is_a_problem_of_the_sheet() -> None:
    """The Skills List: a sheet lists each skill once — Weapons and weapons are one skill
    listed twice, and the sheet says so."""
    sheet = Character.build("Moll", skills={"Weapons": 1, "weapons": 1, "Brawl": 1})
    assert check_sheet(sheet) == [("Skills", "skill 'weapons' is listed 2 times")]


def test_a_skill_not_on_the_list_is_a_problem_and_the_others_still_give_languages() -> None:
    """Languages (choice:): one per level of Languages, one per odd level of a knowledge skill
    — a skill not on the list before them is reported, and does not stop them counting."""
    sheet = Character.build(
        "Moll", skills={"Juggling": 1, "Languages": 2, "Lore": 1}, languages=["French"] * 3
    )
    assert sheet.language_allowance == 3
    assert check_sheet(sheet) == [("The Skills List", "'Juggling' is not on the v3 skills list")]


def test_the_pyramids_problems_are_named_from_the_top_down() -> None:
    """The Skill Pyramid: "For each skill above +1, you must have one more skill at the lower
    level" — two +3s over one +2 over one +1 break it twice, and the sheet names the top
    problem first (the one a refusal names)."""
    assert pyramid_problems([3, 3, 2, 1]) == [
        "2 skills at +3 need at least 3 at +2, but there are 1",
        "1 skill at +2 need at least 2 at +1, but there are 1",
    ]


def test_a_tag_costs_one_point_and_paying_nothing_leaves_the_pool() -> None:
    """The Free Experience Pool: a tag costs a point (the default payment); a payment of
    nothing is no payment and leaves the pool as it was."""
    pool = ExperiencePool(3, 3)
    assert pool.spend().points == 2
    assert pool.spend(0).points == 3
    assert ExperiencePool(0, 3).spend(0).points == 0
