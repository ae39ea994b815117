"""Characters, the skill pyramid, Experience and the pool, tracks and languages (Gin Lane,
"Characters", "Experience Points", "The Skill Pyramid", "Stress Tracks", "Languages")."""

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
