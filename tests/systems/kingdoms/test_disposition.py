"""The disposition builder ("Territorial Conquest", Steps One to Seven; "Disposition Total")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.systems.kingdoms.disposition import (
    DispositionAnswers,
    build_disposition,
    civilization_complexity,
    disposition_warning,
    faction_reduction,
)


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
