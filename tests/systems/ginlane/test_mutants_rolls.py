"""Tests that kill the mutants of ``rolls.py`` mutmut left alive in round 4 of issue 13
(docs/systems/ginlane.md, "Mutation testing", "Round 4"): each asserts an outcome of the rules
text ("Rolling the Dice", "Difficulty & Target Number", "Tagging an Aspect" and its options in
the Rulings) or of the public API the procedure builds on."""

from __future__ import annotations

from fractions import Fraction

from referee.core import CheckResult, Outcome, TargetCheck, Total
from referee.dice import ScriptedSource
from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll, Resolution, TagMode


def test_each_tagging_option_is_named_by_its_letter_or_its_words() -> None:
    """RULINGS.md, Gin Lane: tagging option a (an extra die) or b (a re-roll), as a scene file
    or the command line names it, in any case."""
    for words in ("a", "extra", "extra_die", "extra-die", " Extra-Die ", "EXTRA_DIE"):
        assert TagMode.parse(words) is TagMode.EXTRA_DIE, words
    for words in ("b", "reroll", "re-roll", "Re-Roll", "REROLL"):
        assert TagMode.parse(words) is TagMode.REROLL, words


def test_option_b_with_no_number_to_beat_rerolls_each_die_of_three_or_less() -> None:
    """Option b with no number to beat (a Block's strength, initiative; Rulings): each tag
    re-rolls the dice showing 3 or less — a 3 is re-rolled, a 4 is kept; when no die is that
    low, the tags left are not used."""
    spec = GinLaneRoll(skill=1, tags=2, mode=TagMode.REROLL, free_tags=1)
    threes = spec.roll(ScriptedSource([3, 4, 5, 1]))
    assert (threes.kept, threes.total, threes.faces) == ((5, 4), 10, (3, 4, 5))
    assert (threes.tags_used, threes.tags_paid) == (1, 0)
    fours = spec.roll(ScriptedSource([4, 5]))
    assert (fours.kept, fours.total, fours.tags_used, fours.tags_paid) == ((4, 5), 10, 0, 0)
    twice = spec.roll(ScriptedSource([2, 6, 1, 6]))
    assert (twice.kept, twice.total, twice.tags_used, twice.tags_paid) == ((6, 6), 13, 2, 1)


def test_the_distribution_of_a_roll_with_no_number_to_beat_follows_its_tagging_option() -> None:
    """Option a keeps the best two of 2 + tags dice; option b re-rolls what shows 3 or less."""
    extra = GinLaneRoll(skill=1, tags=1)
    assert extra.distribution() == Total("3d6kh2", 1).distribution()
    reroll = GinLaneRoll(skill=1, tags=1, mode=TagMode.REROLL)
    dist = reroll.distribution()
    assert sum(dist.values()) == 1
    assert dist != extra.distribution()
    # a natural 3 (+1 = 4): both dice first at 3 or less (9 in 36), both re-rolled to 1 and 2
    assert dist[4] == Fraction(9, 36) * Fraction(2, 36)


def test_the_kernel_check_behind_a_difficulty_is_to_beat_it() -> None:
    """Difficulty & Target Number: the roll must beat the difficulty (``>``); the kernel's
    check says so, and its odds of a success are the Gin Lane check's."""
    check = DifficultyCheck(GinLaneRoll(skill=1, tags=1), 7)
    kernel = check.kernel_check()
    assert kernel == TargetCheck("3d6kh2", 7, 1, ">")
    assert kernel.odds().outcomes[Outcome.SUCCESS] == check.odds().outcomes[Outcome.SUCCESS]


def test_a_rolled_difficulty_check_carries_its_difficulty_and_the_kernels_result() -> None:
    """A rolled check (``Resolution``): 3 + 4 + 2 = 9 against 7 succeeds by 2; it keeps the
    difficulty (for the event) and the kernel's result of the same roll."""
    result = DifficultyCheck(GinLaneRoll(skill=2), 7).roll(ScriptedSource([3, 4]))
    assert isinstance(result, Resolution)
    assert (result.outcome, result.margin, result.opponent, result.difficulty) == (
        Outcome.SUCCESS,
        2,
        None,
        7,
    )
    assert result.check == CheckResult(Outcome.SUCCESS, 9, 2, faces=(3, 4))
    assert result.to_json() == {
        "outcome": "success",
        "margin": 2,
        "success_level": "Fair",
        "difficulty": 7,
        "rolled": {
            "dice": [4, 3],
            "natural": 7,
            "total": 9,
            "faces": [3, 4],
            "tags_used": 0,
            "tags_paid": 0,
            "shown": "2d6 (3, 4) = 7 +2 = 9",
        },
    }
