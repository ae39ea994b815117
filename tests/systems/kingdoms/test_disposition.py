"""The disposition builder ("Territorial Conquest", Steps One to Seven; "Disposition Total")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.systems.kingdoms.disposition import (
    FAR_APART,
    DispositionAnswers,
    DispositionStep,
    DispositionTotal,
    build_disposition,
    civilization_complexity,
    disposition_warning,
    faction_reduction,
)
from referee.systems.kingdoms.setup import check_disposition_file

from .helpers import ANSWERS, _refusal


def answers(**over: object) -> DispositionAnswers:
    base: dict[str, object] = {
        "faction": "orcs",
        "territorial_relation": "hostile",
        "lifepath_settings": 3,
        "sub_settings": 0,
        "mechanical_aptitude": "simple tool users",
        "mystical_abilities": ("Hatred", "Rituals of Blood", "Rituals of Night"),
        "population_density": "villages",
        "population_growth": "fast",
        "political_placement": "rival faction",
    }
    base.update(over)
    return DispositionAnswers(**base)  # type: ignore[arg-type]


def test_each_step_contributes() -> None:
    """Steps One–Seven each add their points; the breakdown shows each."""
    built = build_disposition(answers(), factions=4)
    assert [(s.step, s.points) for s in built.steps] == [
        ("territorial relation", 0),
        ("civilization complexity", 6),
        ("mechanical aptitude", 2),
        ("mystical ability", 3),
        ("population density", 1),
        ("population growth", 2),
        ("political placement", 2),
        ("factions", -3),
    ]
    assert built.total == 13


def test_civilization_complexity_whichever_is_more() -> None:
    """Step Two: 2 per setting, or 1 per setting and sub-setting, whichever is more."""
    assert civilization_complexity(3, 0) == 6
    assert civilization_complexity(3, 3) == 6
    assert civilization_complexity(3, 4) == 7
    with pytest.raises(RuleError):
        civilization_complexity(-1, 0)


def test_mystical_ability_one_per_type() -> None:
    """Step Four: 1 per type (Elves: Skill Songs and Spell Songs give 2); no magic 0."""
    elves = answers(mystical_abilities=("Skill Songs", "Spell Songs"))
    assert build_disposition(elves, 2).steps[3].points == 2
    assert build_disposition(answers(mystical_abilities=()), 2).steps[3].points == 0


def test_faction_reduction() -> None:
    """Step Seven: three factions −1 each, four −3, five −6; six players: three pairs."""
    assert [faction_reduction(n) for n in (2, 3, 4, 5)] == [0, 1, 3, 6]
    assert faction_reduction(3, players=6) == 1
    with pytest.raises(RuleError, match="three two-player factions"):
        faction_reduction(4, players=6)
    with pytest.raises(RuleError, match="1 to 5 factions"):
        faction_reduction(6)


def test_bad_answer_names_the_step() -> None:
    """An answer not in a step's list is refused, naming the step and the choices."""
    with pytest.raises(RuleError, match=r"Step One.*'friendly' is not one of"):
        build_disposition(answers(territorial_relation="friendly"), 3)


def test_answers_are_case_insensitive() -> None:
    """Answers match the text's words whatever their case."""
    assert build_disposition(answers(territorial_relation="Native"), 2).steps[0].points == 3


def test_warning_when_far_apart() -> None:
    """ "If the numbers are too disparaging": totals more than 5 apart draw a warning."""
    near = [build_disposition(answers(faction=f), 2) for f in ("a", "b")]
    assert disposition_warning(near) is None
    far = [
        *near,
        build_disposition(
            answers(
                faction="c",
                political_placement="foreign entity",
                mystical_abilities=(),
                lifepath_settings=1,
            ),
            2,
        ),
    ]
    warning = disposition_warning(far)
    assert warning is not None and "far apart" in warning


@given(settings=st.integers(0, 8), subs=st.integers(0, 8))
def test_complexity_is_never_less_than_either_rule(settings: int, subs: int) -> None:
    """Step Two takes the better of the two counts."""
    got = civilization_complexity(settings, subs)
    assert got >= 2 * settings and got >= settings + subs
    assert got in (2 * settings, settings + subs)


def test_from_json() -> None:
    """Answers read from a file's mapping (mystical abilities as a list or a count)."""
    a = DispositionAnswers.from_json(
        "elves",
        {
            "territorial_relation": "native",
            "lifepath_settings": 4,
            "mechanical_aptitude": "simple tool users",
            "mystical_abilities": 2,
            "population_density": "rural",
            "population_growth": "slow",
            "political_placement": "highly-placed",
        },
    )
    assert build_disposition(a, 3).total == 3 + 8 + 2 + 2 + 0 + 0 + 3 - 1


def test_mystical_abilities_from_a_file_one_type_a_name() -> None:
    """Step Four from a file: one type written as a plain name counts 1 (not one per letter);
    a count counts itself; a negative count is refused."""
    data = {
        "territorial_relation": "native",
        "lifepath_settings": 1,
        "mechanical_aptitude": "no tools",
        "population_density": "rural",
        "population_growth": "slow",
        "political_placement": "outcast",
    }
    one = DispositionAnswers.from_json("elves", {**data, "mystical_abilities": "Faith"})
    assert one.mystical_abilities == ("Faith",)
    step = build_disposition(one, factions=2).steps[3]
    assert (step.step, step.points) == ("mystical ability", 1)
    two = DispositionAnswers.from_json("elves", {**data, "mystical_abilities": 2})
    assert build_disposition(two, factions=2).steps[3].points == 2
    with pytest.raises(RuleError, match="Step Four"):
        DispositionAnswers.from_json("elves", {**data, "mystical_abilities": -2})


def totals(*points: int) -> list[DispositionTotal]:
    return [DispositionTotal(f"f{i}", (DispositionStep("x", "", p),)) for i, p in enumerate(points)]


def test_totals_exactly_far_apart_draw_no_warning() -> None:
    """ "Disposition Total" (ruling): totals more than FAR_APART (5) apart draw the warning; 5
    apart do not, 6 apart do."""
    assert disposition_warning(totals(12, 12 + FAR_APART)) is None
    assert disposition_warning(totals(12, 13 + FAR_APART)) == (
        "dispositions are far apart (f0 12, f1 18): consider a different concept for a faction"
    )


def test_a_disposition_total_as_json() -> None:
    """The breakdown a table shows: each step's answer and points, and the total."""
    total = DispositionTotal("orcs", (DispositionStep("x", "a", 3), DispositionStep("y", "b", 4)))
    assert total.to_json() == {
        "faction": "orcs",
        "steps": [
            {"step": "x", "answer": "a", "points": 3},
            {"step": "y", "answer": "b", "points": 4},
        ],
        "total": 7,
    }


BASE = {
    "territorial_relation": "native",
    "lifepath_settings": 1,
    "mechanical_aptitude": "no tools",
    "population_density": "rural",
    "population_growth": "slow",
    "political_placement": "highly-placed",
}


def test_answers_from_a_file_default_to_no_sub_settings_and_no_mystical_ability() -> None:
    """Steps Two and Four from a file: no sub-settings and no mystical ability unless written;
    a count of 0 types is no type; a count names its types 1, 2 …"""
    a = DispositionAnswers.from_json("elves", BASE)
    assert (a.sub_settings, a.mystical_abilities) == (0, ())
    assert DispositionAnswers.from_json("elves", {**BASE, "mystical_abilities": 0}) == a
    b = DispositionAnswers.from_json("elves", {**BASE, "mystical_abilities": None})
    assert b.mystical_abilities == ()
    c = DispositionAnswers.from_json("elves", {**BASE, "mystical_abilities": 2, "sub_settings": 3})
    assert (c.mystical_abilities, c.sub_settings) == (("type 1", "type 2"), 3)


ORCS = DispositionAnswers(
    faction="orcs",
    territorial_relation="hostile",
    lifepath_settings=3,
    sub_settings=1,
    mechanical_aptitude="simple tool users",
    mystical_abilities=("Hatred", "Rituals of Blood"),
    population_density="villages",
    population_growth="fast",
    political_placement="rival faction",
)


def test_the_breakdown_names_each_answer() -> None:
    """Steps One to Seven: the breakdown shows the answer behind each step's points."""
    answers = [s.answer for s in build_disposition(ORCS, factions=4).steps]
    assert answers == [
        "hostile",
        "3 settings, 1 sub-settings",
        "simple tool users",
        "Hatred, Rituals of Blood",
        "villages",
        "fast",
        "rival faction",
        "4 factions",
    ]
    magicless = build_disposition(replace(ORCS, mystical_abilities=()), factions=4)
    assert magicless.steps[3].answer == "no magic"


def test_six_players_in_four_factions_is_refused_by_step_seven() -> None:
    """Step Seven: "six or more players divide into three two-player factions"."""
    with pytest.raises(RuleError, match="Step Seven"):
        build_disposition(ORCS, factions=4, players=6)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (3, "needs 'factions:' with each faction's answers"),
        ({"factions": {"elves": ANSWERS}, "x": 1}, "x: Extra inputs are not permitted"),
        (
            {"factions": {"elves": {**ANSWERS, "lifepath_settings": -1}}, "x": 1},
            "x: Extra inputs are not permitted",
        ),
        (
            {"factions": {"elves": {**ANSWERS, "lifepath_settings": -1}}},
            "factions.elves.lifepath_settings: Input should be greater than or equal to 0",
        ),
        (
            {"factions": {"elves": {**ANSWERS, "population_density": 2}}},
            "factions.elves.population_density: Input should be a valid string",
        ),
        (
            {"factions": {"elves": {**ANSWERS, "mystical_abilities": {"songs": 1}}}},
            "factions.elves.mystical_abilities: Input should be a valid integer",
        ),
        (
            {"factions": {}},
            "factions: Dictionary should have at least 1 item after validation, not 0",
        ),
    ],
)
def test_a_disposition_file_of_the_wrong_shape_is_refused_naming_its_path(
    data: Any, words: str
) -> None:
    """The builder's file of answers ("Territorial Conquest", Steps One to Seven): refused with
    the first bad path; a file of good answers is taken."""
    assert _refusal(check_disposition_file, data) == words
    check_disposition_file({"factions": {"elves": ANSWERS}, "players": 3})
