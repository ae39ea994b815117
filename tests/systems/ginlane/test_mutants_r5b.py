"""Tests that kill the mutants of ``between_scenes.py``, ``magia.py``, ``actions.py``,
``character.py``, ``tables.py`` and ``cards.py`` mutmut left alive in round 5 of issue 13
(docs/systems/ginlane.md, "Mutation testing", "Round 5, part B"): each asserts an outcome of the
rules text ("Getting Experience", "Experience Pool Refresh", "Consequences", "Magia", "How you do
magic", "Characters")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import ActionError, RuleError, ScenarioError, Table
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.cards import check_card, odds_json
from referee.systems.ginlane.character import (
    SOCIETY,
    Character,
    ExperiencePool,
    check_sheet,
    pyramid_problems,
)
from referee.systems.ginlane.magia import can_practise, philosophy_aspect
from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll, OpposedRoll
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.tables import (
    _need,
    consequence,
    difficulty_number,
    manoeuvre,
    skill,
    weapon,
)

from .test_mutants import _hit_of_13
from .test_procedure import act, duel

DEE = {
    "side": "s",
    "aspects": ["Adept of Hod"],
    "skills": {"Occult Philosophy: Hod": 1},
    "experience": 3,
}
"""A Philosopher of Hod with 2 points in her pool."""


def _new(before: Table[SceneState], after: Table[SceneState]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in after.log.events[len(before.log.events) :]]


def _ritual(mode: str, faces: list[int], *tags: str) -> tuple[Table[SceneState], Table[SceneState]]:
    table = Table.start(PROCEDURE, {"mode": mode, "characters": {"dee": DEE}})
    params = {"sephira": "Hod", "effect": "find the letter", "difficulty": "Fair"}
    return table, act(table, "dee", "ritual", faces, **params, tags=list(tags))


# ------------------------------------------------------------------ between_scenes.py


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


def test_a_named_consequence_recovers_and_the_others_stay_on_the_scene() -> None:
    """Consequences recover only with their circumstances: a week's treatment of jack's
    Bleeding Cut (moderate, a week) heals it; his Winded (slight, a day) had no treatment and
    stays, an Aspect still on him."""
    table = _hit_of_13(
        {"severity": "slight", "aspect": "Winded"},
        {"severity": "moderate", "aspect": "Bleeding Cut"},
    )
    treated = act(table, "jack", "recover", days=7, aspect="Bleeding Cut")
    assert _new(table, treated) == [
        (
            "consequence.recovering",
            {
                "character": "jack",
                "days": 7,
                "aspect": "Bleeding Cut",
                "recovered": ["Bleeding Cut"],
            },
        )
    ]
    assert treated.state.get("jack").consequences.aspects() == ("Winded",)
    assert [(a.name, a.on) for a in treated.state.aspects] == [("Winded", "jack")]


def test_a_ritual_under_option_b_tags_only_when_short() -> None:
    """How you do magic, with tagging option b: Dee's 4 + 5 + Occult Philosophy: Hod 1 = 10
    beats Fair (8) without the Aspect she offered, so no die is re-rolled and no point paid; the
    charm's strength is the margin, 2."""
    before, after = _ritual("b", [4, 5], "Adept of Hod")
    new = _new(before, after)
    assert [k for k, _ in new] == ["ritual.rolled", "charm.made"]
    rolled = new[0][1]
    assert (rolled["rolled"]["faces"], rolled["rolled"]["tags_used"]) == ([4, 5], 0)
    assert (rolled["margin"], rolled["roll"]["dice"]) == (2, "2d6+1 > 8")
    assert new[1][1]["strength"] == 2
    assert after.state.get("dee").pool.points == 2


def test_a_ritual_tags_the_society_for_free() -> None:
    """Aspects: the Society membership is free-taggable — tagged for a ritual it adds its die
    (3d6, the best two kept) and costs no point from the pool."""
    before, after = _ritual("a", [3, 3, 4], SOCIETY)
    new = _new(before, after)
    assert [k for k, _ in new] == ["aspect.tagged", "ritual.rolled"]
    assert new[0][1]["free"] is True
    rolled = new[1][1]
    assert (rolled["rolled"]["total"], rolled["rolled"]["tags_paid"]) == (8, 0)
    assert after.state.get("dee").pool.points == 2


# ------------------------------------------------------------------ magia.py


def test_the_philosophers_aspect_names_the_sephira_in_any_case() -> None:
    """Magia: a Philosopher needs an Aspect in the Sephira — "student of hod" names Hod."""
    dee = Character.build("Dee", aspects=["student of hod"], skills={"Occult Philosophy: Hod": 1})
    assert philosophy_aspect(dee, "Hod") == "student of hod"
    assert can_practise(dee, "HOD")


def test_a_rest_after_the_scene_ends_no_scene_again_and_keeps_the_consequences() -> None:
    """Experience Pool Refresh: "a night's rest" comes after the scene — once the scene has
    ended, a rest only rests: jack's consequence (no Aspect of the scene) does not end it again,
    and it stays on him."""
    table = _hit_of_13({"severity": "slight", "aspect": "Winded"})
    ended = act(table, "referee", "end_scene")
    rested = act(ended, "referee", "rest", [1, 1])
    assert [k for k, _ in _new(ended, rested)] == ["rested", "rested"]
    assert [(a.name, a.on) for a in rested.state.aspects] == [("Winded", "jack")]


def test_a_rest_for_one_character_rests_that_character_only() -> None:
    """Stress Recovery: a night's rest clears the Health of the one who rests — moll rests,
    jack (not named) keeps his stress and his pool."""
    table = act(duel(), "moll", "attack", [5, 4, 4, 4], target="jack")
    rested = act(table, "referee", "rest", [6], characters=["moll"])
    assert [d["character"] for k, d in _new(table, rested) if k == "rested"] == ["moll"]
    assert rested.state.get("jack").track("Health").marked != ()


# ------------------------------------------------------------------ character.py


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


# ------------------------------------------------------------------ tables.py


def test_a_difficulty_is_a_ladder_name_or_a_number_written_as_text() -> None:
    """Difficulty & Target Number: a difficulty is a name of the ladder or a number, also a
    number written as text (a negative one too); anything else is refused, naming the ladder."""
    assert [difficulty_number(t) for t in ("Fair", " 10 ", "-1", 4)] == [8, 10, -1, 4]
    ladder = "Negligible, Low, Fair, Great, Exceeding, Superb, Heroic"
    for text in ("X5", "Dire"):
        with pytest.raises(RuleError, match=rf"no difficulty '{text}' \({ladder}\)"):
            difficulty_number(text)


def test_an_unknown_severity_manoeuvre_or_weapon_is_refused_naming_the_known_ones() -> None:
    """Consequences, "Some Manoeuvres", "Weapons Notes": a name not in the table is refused,
    and the refusal lists the table's names."""
    with pytest.raises(
        RuleError, match=r"no consequence 'dire' \(slight, moderate, heavy, extreme\)"
    ):
        consequence("dire")
    with pytest.raises(
        RuleError,
        match=r"no manoeuvre 'lunge' \(blind, unbalance, take cover, disarm, take aim, "
        r"concentrate\)",
    ):
        manoeuvre("lunge")
    with pytest.raises(
        RuleError, match=r"no weapon 'lance' \(fists, knife, cosh, .*, swivel gun\)"
    ):
        weapon("lance")


def test_a_table_row_missing_a_field_or_of_the_wrong_type_is_refused() -> None:
    """The tables are checked as they load: a row without the field, or with a value of the
    wrong type (a flag for a number), is refused naming the file."""
    assert _need({"bonus": 2}, "bonus", int, "weapons.yaml") == 2
    assert _need({"small": True}, "small", bool, "weapons.yaml") is True
    for row, kind in (({}, int), ("bonus", int), ({"bonus": "2"}, int), ({"bonus": True}, int)):
        with pytest.raises(ScenarioError, match="bonus") as refused:
            _need(row, "bonus", kind, "weapons.yaml")
        assert refused.value.path == ("weapons.yaml",)


# ------------------------------------------------------------------ cards.py


def test_the_card_of_an_attack_on_one_behind_a_block_shows_the_block_and_its_odds() -> None:
    """One roll card: the dice as written, with the protecting Block's floor ("Protect"), and
    the exact odds of the roll worked out when none are given."""
    check = OpposedRoll(GinLaneRoll(3, tags=1), GinLaneRoll(2), floor=9)
    card = check_card(
        check, check.roll(ScriptedSource([6, 5, 1, 3, 3])), "jack cuts at moll", rule="Attack"
    )
    assert card["dice"] == "3d6kh2+3 vs 2d6+2 (and a Block of 9)"
    assert card["odds"] == odds_json(check.odds())
    assert (card["value"], card["opponent"], card["margin"]) == (14, 8, 5)


def test_odds_with_no_match_possible_show_a_match_of_nothing() -> None:
    """A check with no Match among its outcomes (the kernel's check behind a difficulty, "to
    beat") shows a Match's odds as 0."""
    odds = DifficultyCheck(GinLaneRoll(skill=1), difficulty=7).kernel_check().odds()
    assert odds_json(odds) == {"success": "7/12", "match": "0", "failure": "5/12"}


def test_a_skill_is_found_before_its_speciality_and_a_name_of_no_skill_is_refused() -> None:
    """The Skills List: "Craft (tailor)" and "Craft: tailor" are Craft; a name with no skill in
    it (blank, or only a speciality) is no skill — it used to find Agility, the first skill
    with no former name, and a manoeuvre with the skill "(x)" rolled Agility."""
    assert [skill(n).name for n in ("Craft (tailor)", "craft: peruquier", "Rapport")] == [
        "Craft",
        "Craft",
        "Charm",
    ]
    for name in ("", " ", "(tailor)", "xxxx"):
        with pytest.raises(RuleError, match="The Skills List: no skill"):
            skill(name)
    with pytest.raises(ActionError, match="no skill"):
        act(duel(), "moll", "manoeuvre", [4, 3], skill="(x)", aspect="Ready", scene=True)
