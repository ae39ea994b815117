"""Round 4 of issue 13's mutation testing (docs/systems/zweihander.md, "Mutation testing"):
tests that kill the mutants of ``percentile.py``, ``skill_tests.py`` and ``social.py`` that the
suite left alive. Each asserts an outcome of the rules text (parent-games.md's d100 core, the
house rules' "Social Intrigue")."""

from __future__ import annotations

from referee.core import Outcome
from referee.dice import ScriptedSource
from referee.systems.zweihander import emit
from referee.systems.zweihander.percentile import ChaosDice, SkillTest, total_chance


class _Recording:
    """A dice source that records the die asked for and rolls its highest face."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        self.asked.append(sides)
        return sides


def test_total_chance_without_a_difficulty_is_the_base_chance() -> None:
    """parent-games.md: Total Chance = Base Chance + Difficulty Rating; none given is Standard
    (+0)."""
    assert total_chance(45) == 45
    assert total_chance(1) == 1
    assert total_chance(99) == 99


def test_an_unfavourable_skill_turns_a_failure_critical_in_the_tests_own_reading() -> None:
    """Social Intrigue, Complex Exchange: the Unfavourable Skill turns Failures into Critical
    Failures; a Success stays a Success."""
    test = SkillTest(40, unfavourable=True)
    assert test.outcome_of(57) is Outcome.CRITICAL_FAILURE
    assert test.outcome_of(23) is Outcome.SUCCESS
    assert test.roll(ScriptedSource([57])).outcome is Outcome.CRITICAL_FAILURE
    assert test.odds().outcomes[Outcome.FAILURE] == 0


def test_a_tests_odds_read_best_outcome_first() -> None:
    """A roll card lists the outcomes best first: critical success, success, failure,
    critical failure."""
    assert list(SkillTest(50).odds().outcomes) == [
        Outcome.CRITICAL_SUCCESS,
        Outcome.SUCCESS,
        Outcome.FAILURE,
        Outcome.CRITICAL_FAILURE,
    ]
    card = emit.test_card(SkillTest(50), SkillTest(50).roll(ScriptedSource([50])), "x", "r")
    assert list(card["odds"]) == ["critical success", "success", "failure", "critical failure"]


def test_a_rolled_test_reports_its_d100_and_its_assist_die() -> None:
    """A Skill Test rolls d100; with an Assist Die, a d10 after it (parent-games.md)."""
    result = SkillTest(40, assist=True).roll(ScriptedSource([57, 3]))
    assert result.value == 37
    assert [r.describe() for r in result.rolls] == ["1d100 (57) = 57", "1d10 (3) = 3"]
    assert result.describe() == "1d100 (57) = 57; 1d10 (3) = 3 → success (margin +3)"
    plain = SkillTest(40).roll(ScriptedSource([57]))
    assert plain.describe() == "1d100 (57) = 57 → failure (margin -17)"


def test_a_chaos_die_is_a_d6() -> None:
    """parent-games.md, "Chaos Die": a d6 that triggers on a 6."""
    source = _Recording()
    rolled = ChaosDice(2).roll(source)
    assert source.asked == [6, 6]
    assert rolled.faces == (6, 6)
    assert rolled.sixes == 2


def test_a_skill_test_as_json_names_its_chances_and_assist_die() -> None:
    """A Skill Test as JSON: Base Chance, Difficulty Rating, the Total Chance they make
    (clamped to 1–99) and whether an Assist Die helps."""
    assert SkillTest(45, -20, assist=True).to_json() == {
        "base_chance": 45,
        "difficulty": -20,
        "total_chance": 25,
        "assist": True,
    }
    assert SkillTest(90, 30).to_json() == {
        "base_chance": 90,
        "difficulty": 30,
        "total_chance": 99,
        "assist": False,
    }
