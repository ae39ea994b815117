"""The percentile core: Total Chance, the Difficulty ladder, criticals, Assist Die, Chaos Dice —
exact odds checked against brute-force enumeration of every face; a Test's roll card and margins."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import Outcome, RuleError
from referee.dice import ScriptedSource
from referee.systems.zweihander import emit, percentile
from referee.systems.zweihander.percentile import (
    ChaosDice,
    SkillTest,
    _difficulty_words,
    assisted_face,
    base_chance,
    bump,
    canonical,
    difficulty,
    difficulty_name,
    digits,
    face_of,
    step_difficulty,
    total_chance,
)

from .helpers import act, last, table
from .test_social import CHARS

RANK = {"critical failure": 0, "failure": 1, "success": 2, "critical success": 3}


def reference_outcome(chance: int, face: int) -> str:
    """The parent game's reading of a d100 face, written independently of the library."""
    chance = max(1, min(99, chance))
    if face == 1:
        return "critical success"
    if face == 100:
        return "critical failure"
    text = f"{face:02d}"
    matching = text[0] == text[1]
    if face <= chance:
        return "critical success" if matching else "success"
    return "critical failure" if matching else "failure"


def reference_assisted(chance: int, face: int, d10: int) -> str:
    text = "00" if face == 100 else f"{face:02d}"
    digit = str(d10 % 10)
    options = [text, digit + text[1], text[0] + digit]
    faces = [100 if o == "00" else int(o) for o in options]
    return max((reference_outcome(chance, f) for f in faces), key=RANK.__getitem__)


def test_base_chance_is_attribute_plus_ten_per_rank() -> None:
    assert base_chance(38, 0) == 38
    assert base_chance(38, 3) == 68
    with pytest.raises(RuleError):
        base_chance(38, -1)


@pytest.mark.parametrize(
    ("name", "modifier"),
    [
        ("Trivial", 30),
        ("Easy", 20),
        ("Routine", 10),
        ("Standard", 0),
        ("Challenging", -10),
        ("Hard", -20),
        ("Arduous", -30),
    ],
)
def test_difficulty_rating_ladder(name: str, modifier: int) -> None:
    assert difficulty(name) == modifier
    assert difficulty(name.upper()) == modifier
    assert difficulty(modifier) == modifier
    assert difficulty_name(modifier) == name


def test_difficulty_off_the_ladder_is_refused() -> None:
    for bad in ("Impossible", 15, "+40%", 40):
        with pytest.raises(RuleError, match="Difficulty Rating"):
            difficulty(bad)


def test_difficulty_steps_stay_on_the_ladder() -> None:
    assert step_difficulty(0, 1) == -10
    assert step_difficulty(0, -1) == 10
    assert step_difficulty(-30, 2) == -30
    assert step_difficulty(30, -5) == 30


@given(st.integers(-50, 200), st.sampled_from([30, 20, 10, 0, -10, -20, -30]))
def test_total_chance_is_clamped_to_1_99(base: int, modifier: int) -> None:
    total = total_chance(base, modifier)
    assert 1 <= total <= 99
    if 1 <= base + modifier <= 99:
        assert total == base + modifier


def test_01_is_always_a_critical_success_and_100_a_critical_failure() -> None:
    for chance in (-20, 1, 50, 99, 150):
        assert SkillTest(chance).outcome_of(1) is Outcome.CRITICAL_SUCCESS
        assert SkillTest(chance).outcome_of(100) is Outcome.CRITICAL_FAILURE


def test_matching_digits_are_critical() -> None:
    test = SkillTest(50)
    assert test.outcome_of(44) is Outcome.CRITICAL_SUCCESS
    assert test.outcome_of(55) is Outcome.CRITICAL_FAILURE
    assert test.outcome_of(50) is Outcome.SUCCESS
    assert test.outcome_of(51) is Outcome.FAILURE


def test_clamped_chance_99_still_fails_on_100_and_1_still_succeeds_on_01() -> None:
    assert SkillTest(130).odds().success == Fraction(99, 100)
    assert SkillTest(-40).odds().success == Fraction(1, 100)


@pytest.mark.parametrize("chance", [-5, 1, 9, 10, 11, 33, 45, 50, 67, 90, 99, 120])
@pytest.mark.parametrize("modifier", [-30, 0, 20])
def test_exact_odds_match_brute_force(chance: int, modifier: int) -> None:
    odds = SkillTest(chance, modifier).odds()
    counts = dict.fromkeys(RANK, 0)
    for face in range(1, 101):
        counts[reference_outcome(chance + modifier, face)] += 1
    assert {o.value: p for o, p in odds.outcomes.items()} == {
        k: Fraction(v, 100) for k, v in counts.items()
    }


@pytest.mark.parametrize("chance", [1, 5, 25, 44, 50, 70, 99])
def test_assist_die_odds_match_brute_force(chance: int) -> None:
    odds = SkillTest(chance, assist=True).odds()
    counts = dict.fromkeys(RANK, 0)
    for face, d10 in itertools.product(range(1, 101), range(1, 11)):
        counts[reference_assisted(chance, face, d10)] += 1
    assert {o.value: p for o, p in odds.outcomes.items()} == {
        k: Fraction(v, 1000) for k, v in counts.items()
    }


@given(st.integers(1, 99), st.integers(1, 100), st.integers(1, 10))
def test_the_assist_die_never_hurts(chance: int, face: int, d10: int) -> None:
    kept = assisted_face(chance, face, d10)
    assert RANK[reference_outcome(chance, kept)] >= RANK[reference_outcome(chance, face)]
    assert RANK[reference_outcome(chance, kept)] == RANK[reference_assisted(chance, face, d10)]


def test_the_assist_die_replaces_either_digit() -> None:
    assert assisted_face(40, 57, 3) == 37  # the tens digit
    assert assisted_face(40, 91, 3) == 31  # tens: 31 is a success; 93 is not
    assert assisted_face(3, 5, 2) == 2  # the units digit: 02 succeeds, 25 does not
    assert assisted_face(50, 100, 4) == 4  # 00 with a 4: 40 or 04, both succeed; 04 kept
    assert digits(100) == (0, 0) and face_of(0, 0) == 100


def test_roll_with_assist_records_both_dice() -> None:
    result = SkillTest(40, assist=True).roll(ScriptedSource([57, 3]))
    assert result.faces == (57, 3)
    assert result.value == 37
    assert result.outcome is Outcome.SUCCESS
    assert result.margin == 3


@given(st.integers(-10, 130), st.sampled_from([30, 0, -30]), st.booleans())
def test_odds_sum_to_one(chance: int, modifier: int, assist: bool) -> None:
    odds = SkillTest(chance, modifier, assist=assist).odds()
    assert sum(odds.outcomes.values()) == 1
    assert sum(odds.margins.values()) == 1


@given(st.integers(1, 99), st.integers(1, 100))
def test_roll_and_odds_agree(chance: int, face: int) -> None:
    test = SkillTest(chance)
    result = test.roll(ScriptedSource([face]))
    assert test.odds().outcomes[result.outcome] > 0
    assert result.outcome.value == reference_outcome(chance, face)


def test_favourable_and_unfavourable_bumps() -> None:
    assert bump(Outcome.SUCCESS, favourable=True) is Outcome.CRITICAL_SUCCESS
    assert bump(Outcome.FAILURE, favourable=True) is Outcome.FAILURE
    assert bump(Outcome.FAILURE, unfavourable=True) is Outcome.CRITICAL_FAILURE
    assert bump(Outcome.SUCCESS, unfavourable=True) is Outcome.SUCCESS
    odds = SkillTest(50, favourable=True).odds()
    assert odds.critical_success == Fraction(50, 100)
    assert odds.success == Fraction(50, 100)


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_chaos_dice_trigger_on_a_six_exactly(count: int) -> None:
    hits = sum(1 for faces in itertools.product(range(1, 7), repeat=count) if 6 in faces)
    assert ChaosDice(count).odds() == Fraction(hits, 6**count)


def test_chaos_dice_roll() -> None:
    rolled = ChaosDice(3).roll(ScriptedSource([2, 6, 6]))
    assert rolled.faces == (2, 6, 6) and rolled.triggered and rolled.sixes == 2
    assert not ChaosDice(2).roll(ScriptedSource([5, 5])).triggered
    assert ChaosDice(0).roll(ScriptedSource([])).faces == ()


@pytest.mark.parametrize(
    "test",
    [SkillTest(45), SkillTest(50, difficulty=-20), SkillTest(60, assist=True)],
    ids=["plain", "hard", "assisted"],
)
def test_a_skill_tests_margins_are_the_margins_its_rolls_make(test: SkillTest) -> None:
    """Skill Tests: the margin shown before the roll is Total Chance − the face kept (after an
    Assist Die, when one helps): the odds of each margin are those of rolling every d100 face
    (and every d10) through the test's own roll, counted one by one."""
    faces = [[d100, d10] for d100 in range(1, 101) for d10 in range(1, 11)]
    if not test.assist:
        faces = [[d100] for d100 in range(1, 101)]
    margins = Counter(test.roll(ScriptedSource(f)).margin for f in faces)
    counted = {m: Fraction(n, len(faces)) for m, n in sorted(margins.items())}
    assert test.odds().margins == counted


def test_a_difficulty_rating_is_read_by_name_or_modifier_as_a_referee_writes_it() -> None:
    """Difficulty Rating: a rating is named ("hard", any case and spacing) or given as its
    modifier, with or without "%" and "+/-" (the ladder's own "+/-0%"); anything else is
    refused naming the ladder."""
    for written, modifier in [("-20%", -20), ("+/-0%", 0), ("+/-0", 0), (" hard ", -20)]:
        assert difficulty(written) == modifier
    assert [_difficulty_words(w) for w in ("-20%", "+/-0%", " hard ", "+10%", "x")] == [
        -20,
        0,
        "Hard",
        10,
        "x",
    ]
    for not_a_rating in (False, True):
        with pytest.raises(RuleError, match="Difficulty Rating"):
            difficulty(not_a_rating)
    with pytest.raises(RuleError) as refused:
        difficulty("x")
    assert str(refused.value) == (
        "Difficulty Rating: 'x' is not one of Trivial, Easy, Routine, Standard, Challenging, "
        "Hard, Arduous"
    )
    read = canonical(("Hard Going", "Fear"))
    assert (read("hard   going"), read(" fear"), read("Anger"), read(3)) == (
        "Hard Going",
        "Fear",
        "Anger",
        3,
    )


def test_total_chance_without_a_difficulty_is_the_base_chance() -> None:
    """parent-games.md: Total Chance = Base Chance + Difficulty Rating; none given is Standard
    (+0)."""
    assert total_chance(45) == 45
    assert total_chance(1) == 1
    assert total_chance(99) == 99


def test_a_tests_odds_and_its_roll_card_read_best_outcome_first() -> None:
    """A roll card lists the outcomes best first: critical success, success, failure,
    critical failure."""
    # the odds are memoised, and other test modules fill the memo when they are imported
    percentile._test_odds.cache_clear()
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


class _Recording:
    """A dice source that records the die asked for and rolls its highest face."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        self.asked.append(sides)
        return sides


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


def test_a_test_of_a_chance_given_outright_is_labelled_with_that_chance() -> None:
    """Skill Test: with no Skill named, the chance given outright is the Base Chance; the roll
    card says so ("anna tests a chance of 45")."""
    t = act(table(CHARS), "anna", "test", [20], chance=45, difficulty="Hard")
    data = last(t, "test.rolled")
    assert data["roll"]["label"] == "Anna tests a chance of 45"
    assert data["roll"]["dice"] == "d100 ≤ 25"
    assert data["outcome"] == "success"


def test_a_probability_reads_as_a_percentage() -> None:
    assert emit.percent(Fraction(1, 4)) == "25.0%"
    assert emit.percent(Fraction(377, 500)) == "75.4%"
