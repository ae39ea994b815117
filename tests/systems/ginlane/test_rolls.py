"""The core roll (Gin Lane, "Dice", "Difficulty & Target Number", "Success Levels", "No
Relevant Skill", "Skill Interaction", "Resolving attacks") and tagging options a and b
(RULINGS.md): exact odds against brute-force enumeration over the faces. More of tagging is in
``test_tagging.py``."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import CheckResult, Outcome, RuleError, TargetCheck, TieRule
from referee.dice import ScriptedSource
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
    OpposedRoll,
    Resolution,
    TagMode,
    effective_skill,
    limited_skill,
    reroll_policy,
    untargeted_reroll,
)

FACES = range(1, 7)
B = TagMode.REROLL


def brute_extra_die(skill: int, tags: int, modifier: int = 0) -> dict[int, Fraction]:
    """Option a by hand: every face of 2 + tags dice, the best two kept."""
    counts: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=2 + tags):
        best = sorted(faces)[-2:]
        total = sum(best) + skill + modifier
        counts[total] = counts.get(total, 0) + 1
    n = 6 ** (2 + tags)
    return {t: Fraction(c, n) for t, c in sorted(counts.items())}


@functools.cache
def expectimax(a: int, b: int, tags: int, need: int) -> Fraction:
    """Option b by hand: the best chance of the dice summing above ``need``."""
    if a + b > need:
        return Fraction(1)
    if tags == 0:
        return Fraction(0)
    one = max(
        sum(expectimax(x, b, tags - 1, need) for x in FACES) / 6,
        sum(expectimax(a, x, tags - 1, need) for x in FACES) / 6,
    )
    both = sum(expectimax(x, y, tags - 1, need) for x in FACES for y in FACES) / 36
    return max(one, both)


def test_the_roll_is_2d6_plus_skill() -> None:
    result = DifficultyCheck(GinLaneRoll(skill=2), 7).roll(ScriptedSource([3, 4]))
    assert result.total == 9
    assert result.actor.kept == (3, 4) or result.actor.kept == (4, 3)


@pytest.mark.parametrize("tags", [0, 1, 2, 3])
@pytest.mark.parametrize("difficulty", [6, 8, 10, 12])
def test_option_a_odds_equal_brute_force(tags: int, difficulty: int) -> None:
    check = DifficultyCheck(GinLaneRoll(skill=1, tags=tags), difficulty)
    dist = brute_extra_die(1, tags)
    odds = check.odds()
    assert odds.success == sum(p for t, p in dist.items() if t > difficulty)
    assert odds.tie == dist.get(difficulty, Fraction(0))
    assert odds.failure == sum(p for t, p in dist.items() if t < difficulty)
    assert sum(odds.outcomes.values()) == 1


def test_beat_means_strictly_greater_and_a_tie_is_a_match() -> None:
    check = DifficultyCheck(GinLaneRoll(skill=1), 7)
    assert check.roll(ScriptedSource([3, 3])).outcome is Outcome.TIE
    assert check.roll(ScriptedSource([3, 3])).success_level == "Match"
    assert check.roll(ScriptedSource([3, 4])).success_level == "Minimal"
    assert check.roll(ScriptedSource([5, 6])).success_level == "Significant"
    assert check.roll(ScriptedSource([6, 6])).success_level == "Near Perfect"
    assert check.roll(ScriptedSource([1, 2])).success_level == "Failure"


def test_option_a_keeps_the_best_two_and_pays_every_tag() -> None:
    spec = GinLaneRoll(skill=0, tags=2, free_tags=1)
    result = DifficultyCheck(spec, 8).roll(ScriptedSource([1, 6, 2, 5]))
    assert result.total == 11 and result.actor.tags_paid == 1 and result.actor.tags_used == 2


@pytest.mark.parametrize("tags", [1, 2, 3])
@pytest.mark.parametrize("need", [5, 8, 10, 11])
def test_option_b_odds_are_the_best_play(tags: int, need: int) -> None:
    check = DifficultyCheck(GinLaneRoll(skill=0, tags=tags, mode=B), need)
    best = sum(expectimax(a, b, tags, need) for a in FACES for b in FACES) / 36
    assert check.odds().success == best


@pytest.mark.parametrize("tags", [1, 2])
def test_option_b_roll_agrees_with_its_odds(tags: int) -> None:
    """Every script of 2 + 2·tags faces: the rolls' margins are distributed as the odds say."""
    check = DifficultyCheck(GinLaneRoll(skill=1, tags=tags, mode=B), 9)
    length = 2 + 2 * tags
    counts: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=length):
        margin = check.roll(ScriptedSource(faces)).margin
        counts[margin] = counts.get(margin, 0) + 1
    assert {m: Fraction(c, 6**length) for m, c in counts.items()} == dict(check.odds().margins)


def test_option_b_opposed_roll_agrees_with_its_odds() -> None:
    check = OpposedRoll(GinLaneRoll(1, tags=1, mode=B), GinLaneRoll(2, mode=B))
    counts: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=6):
        margin = check.roll(ScriptedSource(faces)).margin
        counts[margin] = counts.get(margin, 0) + 1
    assert {m: Fraction(c, 6**6) for m, c in counts.items()} == dict(check.odds().margins)


def test_option_b_defender_rerolls_to_not_be_beaten() -> None:
    check = OpposedRoll(GinLaneRoll(1, mode=B), GinLaneRoll(1, tags=1, mode=B))
    # actor 5+4+1 = 10; defender 1+2+1 = 4, re-rolls both: 6+3+1 = 10, a Match
    result = check.roll(ScriptedSource([5, 4, 1, 2, 6, 3]))
    assert result.outcome is Outcome.TIE and result.opponent is not None
    assert result.opponent.tags_used == 1


def test_option_b_only_used_tags_are_paid() -> None:
    check = DifficultyCheck(GinLaneRoll(skill=2, tags=2, mode=B), 7)
    result = check.roll(ScriptedSource([6, 5]))
    assert result.actor.tags_used == 0 and result.actor.tags_paid == 0
    result = check.roll(ScriptedSource([6, 1]))  # 6 + 1 + 2 = 9 beats 7: no re-roll
    assert result.actor.tags_used == 0
    result = check.roll(ScriptedSource([1, 1, 6, 5]))
    assert result.actor.tags_used == 1 and result.total == 13


def test_reroll_policy_keeps_a_good_die() -> None:
    assert reroll_policy((6, 1), 1, need=9) == (1,)
    assert reroll_policy((1, 1), 1, need=9) == (0, 1)
    assert reroll_policy((6, 6), 1, need=9) is None


def test_reroll_policy_rerolls_a_roll_that_only_matches_unless_it_need_not_be_beaten() -> None:
    """Option b (a roll must beat the number to succeed, "Rolling the Dice"): 5 + 4 matches 9,
    so the roller re-rolls the 4; a defence that must only not be beaten keeps it."""
    assert reroll_policy((5, 4), 1, need=9) == (1,)
    assert reroll_policy((5, 4), 1, need=9, strict=False) is None


def test_untargeted_reroll_rerolls_low_dice() -> None:
    dist = untargeted_reroll((6, 2), 1)
    assert dist == {6 + f: Fraction(1, 6) for f in FACES}
    spec = GinLaneRoll(skill=1, tags=1, mode=B)
    assert sum(spec.distribution().values()) == 1
    assert spec.roll(ScriptedSource([6, 2, 5])).total == 12


@pytest.mark.parametrize("mode", list(TagMode))
def test_opposed_odds_sum_to_one_and_match_the_kernel(mode: TagMode) -> None:
    check = OpposedRoll(GinLaneRoll(2, tags=1, mode=mode), GinLaneRoll(3, mode=mode))
    odds = check.odds()
    assert sum(odds.outcomes.values()) == 1
    if mode is TagMode.EXTRA_DIE:
        mine, theirs = brute_extra_die(2, 1), brute_extra_die(3, 0)
        tie = sum(p * theirs.get(t, 0) for t, p in mine.items())
        assert odds.tie == tie


def test_mixed_modes_opposed_odds_agree_with_rolls() -> None:
    check = OpposedRoll(GinLaneRoll(1), GinLaneRoll(1, tags=1, mode=B))
    counts: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=6):
        margin = check.roll(ScriptedSource(faces)).margin
        counts[margin] = counts.get(margin, 0) + 1
    assert {m: Fraction(c, 6**6) for m, c in counts.items()} == dict(check.odds().margins)


@settings(max_examples=40, deadline=None)
@given(
    skill=st.integers(-2, 6),
    tags=st.integers(0, 3),
    difficulty=st.integers(3, 16),
    mode=st.sampled_from(list(TagMode)),
)
def test_odds_sum_to_one_and_tags_never_hurt(
    skill: int, tags: int, difficulty: int, mode: TagMode
) -> None:
    more = DifficultyCheck(GinLaneRoll(skill, tags=tags, mode=mode), difficulty).odds()
    fewer = DifficultyCheck(GinLaneRoll(skill, tags=0, mode=mode), difficulty).odds()
    assert sum(more.outcomes.values()) == 1
    assert more.success >= fewer.success


def test_no_relevant_skill_related_and_arcane() -> None:
    assert effective_skill(None) == -2
    assert effective_skill(None, related=True) == 0
    assert effective_skill(4) == 4
    with pytest.raises(RuleError, match="No Relevant Skill"):
        effective_skill(None, arcane=True)


def test_two_limiting_skills_use_the_lower() -> None:
    assert limited_skill(3, 1) == 1
    with pytest.raises(RuleError):
        limited_skill()


def test_tag_mode_parse_and_bad_tags() -> None:
    assert TagMode.parse("b") is B and TagMode.parse("extra") is TagMode.EXTRA_DIE
    with pytest.raises(RuleError):
        TagMode.parse("c")
    with pytest.raises(RuleError):
        GinLaneRoll(1, tags=1, free_tags=2)
    with pytest.raises(RuleError, match="at most 12"):
        GinLaneRoll(1, tags=1000, mode=B)
    assert DifficultyCheck(GinLaneRoll(0, tags=12, mode=B), 10).odds().success > Fraction(9, 10)


@pytest.mark.parametrize("floor", [None, 7, 10])
def test_opposed_roll_with_a_protecting_block_floor(floor: int | None) -> None:
    """Protect someone: the attack must exceed both the block and the defence."""
    check = OpposedRoll(GinLaneRoll(2), GinLaneRoll(1), floor=floor)
    counts: dict[int, int] = {}
    for a, b, c, d in itertools.product(FACES, repeat=4):
        against = c + d + 1 if floor is None else max(c + d + 1, floor)
        m = a + b + 2 - against
        counts[m] = counts.get(m, 0) + 1
    assert dict(check.odds().margins) == {m: Fraction(n, 1296) for m, n in counts.items()}


def test_option_b_with_a_floor_agrees_with_its_rolls() -> None:
    check = OpposedRoll(GinLaneRoll(1, tags=1, mode=B), GinLaneRoll(1, mode=B), floor=9)
    counts: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=6):
        margin = check.roll(ScriptedSource(faces)).margin
        counts[margin] = counts.get(margin, 0) + 1
    assert {m: Fraction(c, 6**6) for m, c in counts.items()} == dict(check.odds().margins)


def test_roll_to_a_known_number() -> None:
    spec = GinLaneRoll(1, tags=1, mode=B)
    # 1 + 2 cannot reach 9 - 1 with one die: both are re-rolled, 6 + 3 + 1 = 10
    assert spec.roll_to(ScriptedSource([1, 2, 6, 3]), 9, beat=False).total == 10
    assert spec.roll_to(ScriptedSource([6, 1, 2]), 9, beat=False).total == 9  # keeps the 6
    assert spec.roll_to(ScriptedSource([5, 4]), 9, beat=False).tags_used == 0
    assert GinLaneRoll(1, tags=1).roll_to(ScriptedSource([1, 2, 6]), 9, beat=False).total == 9


def test_the_kernel_check_behind_an_opposed_roll_keeps_a_tie_a_match() -> None:
    """Resolving attacks (RULINGS: a Match): the kernel's check behind an opposed roll of option
    a leaves a tie a Match, with the same odds as the roll itself."""
    opposed = OpposedRoll(GinLaneRoll(1), GinLaneRoll(1))
    kernel = opposed.kernel_check()
    assert kernel.ties is TieRule.TIE
    assert kernel.odds().outcomes == opposed.odds().outcomes
    assert opposed.odds().outcomes[Outcome.TIE] == Fraction(73, 648)


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
