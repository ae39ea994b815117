"""Burning Wheel dice (parent-games.md, "Burning Wheel"): exact odds against brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import BLACK, GREY, WHITE, ObstacleCheck, Outcome, Pool, RuleError
from referee.dice import ScriptedSource
from referee.systems.kingdoms.dice import (
    Artha,
    BurningPool,
    BurningTest,
    BurningVersus,
    Shade,
    artha_choices,
    difficulty,
    fork_dice,
    help_dice,
    obstacle_odds,
    roll_pool,
    success_distribution,
    versus_odds,
)
from referee.systems.kingdoms.procedure import successes_preview

SHADES = (BLACK, GREY, WHITE)
ALL_ARTHA_AFTER = [Artha(fate=f, deeds_after=d) for f in (False, True) for d in (False, True)]


def brute_closed(dice: int, shade: int) -> dict[int, Fraction]:
    counts = Counter(
        sum(f >= shade for f in faces) for faces in itertools.product(range(1, 7), repeat=dice)
    )
    total = 6**dice
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


class _Need(Exception):
    pass


class _Prefix:
    """A source handing out a fixed prefix of faces, then asking for more."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.faces):
            raise _Need
        face = self.faces[self.used]
        self.used += 1
        return face


def brute_roller(
    dice: int, shade: int, open_ended: bool, artha: Artha, cap: int
) -> dict[int, Fraction]:
    """Enumerate every sequence of faces ``roll_pool`` can ask for, exactly.

    A face sequence whose successful faces already reach ``cap`` is cut: successes are never
    taken away, so its capped count is ``cap`` whatever follows.
    """
    out: dict[int, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        weight = Fraction(1, 6 ** len(prefix))
        if sum(f >= shade for f in prefix) >= cap:
            out[cap] = out.get(cap, Fraction(0)) + weight
            continue
        try:
            result = roll_pool(dice, shade, open_ended, artha, _Prefix(prefix))
        except _Need:
            stack.extend((*prefix, f) for f in range(1, 7))
            continue
        key = min(result.successes, cap)
        out[key] = out.get(key, Fraction(0)) + weight
    return dict(sorted(out.items()))


@pytest.mark.parametrize("shade", SHADES)
@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_closed_pool_matches_enumeration_and_kernel(dice: int, shade: int) -> None:
    """Shades: Black 4–6, Grey 3–6, White 2–6 succeed; a pool counts its successes."""
    mine = success_distribution(dice, shade, False)
    if dice == 0:
        assert mine == {0: 1}
        return
    assert mine == brute_closed(dice, shade)
    assert mine == Pool(dice, shade).distribution()


@pytest.mark.parametrize("shade", SHADES)
@pytest.mark.parametrize("dice", [1, 2])
@pytest.mark.parametrize("open_ended", [False, True])
@pytest.mark.parametrize("artha", ALL_ARTHA_AFTER, ids=lambda a: a.label())
def test_after_roll_artha_matches_the_roller(
    dice: int, shade: int, open_ended: bool, artha: Artha
) -> None:
    """Fate (open-ended 6s, or one failed die rerolled) and Deeds (reroll failures): odds = roll."""
    cap = 3
    assert success_distribution(dice, shade, open_ended, artha, cap=cap) == brute_roller(
        dice, shade, open_ended, artha, cap
    )


def test_deeds_reroll_closed_pool_by_product() -> None:
    """Deeds after the roll rerolls every failed die once: enumerate first faces and rerolls."""
    for shade in SHADES:
        dice = 3
        counts: Counter[int] = Counter()
        for faces in itertools.product(range(1, 7), repeat=2 * dice):
            first, again = faces[:dice], faces[dice:]
            counts[sum(f >= shade or a >= shade for f, a in zip(first, again, strict=True))] += 1
        expected = {k: Fraction(v, 6 ** (2 * dice)) for k, v in sorted(counts.items())}
        assert success_distribution(dice, shade, False, Artha(deeds_after=True)) == expected


def test_open_ended_pool_agrees_with_kernel_below_truncation() -> None:
    """Open-ended dice: every 6 adds a die. Our exact capped counts agree with the kernel's pool."""
    mine = success_distribution(3, BLACK, True, cap=8)
    kernel = Pool(3, BLACK, open_ended=True).distribution()
    for k in range(8):
        assert abs(float(mine[k] - kernel[k])) < 1e-11


@pytest.mark.parametrize("a", [1, 2, 3])
@pytest.mark.parametrize("b", [0, 1, 2, 3])
def test_versus_defender_wins_ties_by_product(a: int, b: int) -> None:
    """Versus: the attacker must exceed the defender's successes; ties go to the defender."""
    wins = 0
    for faces in itertools.product(range(1, 7), repeat=a + b):
        mine = sum(f >= BLACK for f in faces[:a])
        theirs = sum(f >= GREY for f in faces[a:])
        wins += mine > theirs
    expected = Fraction(wins, 6 ** (a + b))
    assert versus_odds(BurningPool(a), BurningPool(b, Shade.GREY)) == expected


def test_obstacle_odds_is_pass_when_successes_meet_ob() -> None:
    """Pass when successes ≥ Ob: 4 black dice against Ob 2."""
    dist = brute_closed(4, BLACK)
    assert obstacle_odds(BurningPool(4), Artha(), 2) == sum(p for k, p in dist.items() if k >= 2)
    assert obstacle_odds(BurningPool(4), Artha(), 0) == 1


def test_persona_and_deeds_before_change_the_pool() -> None:
    """Persona +1D each (at most 3); Deeds before the roll doubles the base exponent."""
    pool = BurningPool(exponent=4, forks=1, helping=2)
    assert pool.dice == 7
    assert pool.dice_with(Artha(persona=3)) == 10
    assert pool.dice_with(Artha(deeds_before=True)) == 11
    with pytest.raises(RuleError, match="at most 3 Persona"):
        Artha(persona=4)


def test_wound_penalty_and_bonus_dice() -> None:
    """Wound penalties take dice away; Onslaught's +3D and advantages add; never below 0."""
    assert BurningPool(exponent=4, bonus=3, penalty=2).dice == 5
    assert BurningPool(exponent=2, penalty=5).dice == 0


def test_forks_and_help() -> None:
    """FoRKs +1D (+2D at exponent 7+); helpers +1D at exponent 4 or less, +2D at 5+."""
    assert [fork_dice(e) for e in (1, 6, 7, 9)] == [1, 1, 2, 2]
    assert [help_dice(e) for e in (1, 4, 5, 6)] == [1, 1, 2, 2]


def test_every_artha_choice_listed_and_each_helps() -> None:
    """Odds for each choice of artha: more artha never lowers the chance to pass."""
    pool = BurningPool(exponent=3)
    choices = artha_choices(pool)
    assert len(choices) == 4 * 4 * 2  # Persona 0–3 × Deeds (none, before, after, both) × Fate
    none = obstacle_odds(pool, Artha(), 3)
    for artha in choices:
        assert obstacle_odds(pool, artha, 3) >= none
    assert obstacle_odds(pool, Artha(fate=True), 3) > none
    assert obstacle_odds(pool, Artha(deeds_after=True), 3) > obstacle_odds(
        pool, Artha(fate=True), 3
    )


def test_artha_choices_respect_what_is_available() -> None:
    """At most 1 Fate, 3 Persona, 2 Deeds per test — and no more than the sheet holds."""
    choices = artha_choices(BurningPool(3), {"fate": 0, "persona": 5, "deeds": 1})
    assert max(a.persona for a in choices) == 3
    assert not any(a.fate for a in choices)
    assert not any(a.deeds_before and a.deeds_after for a in choices)


def test_roll_order_fate_then_deeds() -> None:
    """Faces: the pool, then Fate's open-ended dice for the 6s, then Deeds' reroll of failures."""
    source = ScriptedSource([6, 1, 2, 6, 3, 5, 4, 1])
    rolled = roll_pool(3, BLACK, False, Artha(fate=True, deeds_after=True), source)
    # pool 6,1,2 (1 success, one 6); fate: 6 (explodes) then 3; failures 1,2,3 rerolled: 5,4,1
    assert dict(rolled.stages) == {"pool": (6, 1, 2), "fate": (6, 3), "deeds": (5, 4, 1)}
    assert rolled.successes == 4


def test_fate_on_open_ended_rerolls_one_failed_die() -> None:
    """Fate on a test already open-ended rerolls one failed die."""
    rolled = roll_pool(2, BLACK, True, Artha(fate=True), ScriptedSource([1, 2, 5]))
    assert dict(rolled.stages) == {"pool": (1, 2), "fate": (5,)}
    assert rolled.successes == 1


def test_difficulty() -> None:
    """Routine / Difficult / Challenging by dice and Ob (parent-games.md)."""
    assert difficulty(2, 1) == "routine"
    assert difficulty(2, 2) == "difficult"
    assert difficulty(7, 4) == "routine"
    assert difficulty(7, 5) == "difficult"
    assert difficulty(3, 4) == "challenging"


@settings(max_examples=40, deadline=None)
@given(
    dice=st.integers(0, 7),
    shade=st.sampled_from(SHADES),
    open_ended=st.booleans(),
    fate=st.booleans(),
    deeds=st.booleans(),
    cap=st.integers(1, 12),
)
def test_distributions_sum_to_one(
    dice: int, shade: int, open_ended: bool, fate: bool, deeds: bool, cap: int
) -> None:
    """Every distribution is a distribution: exactly 1, no negative mass, nothing above the cap."""
    dist = success_distribution(dice, shade, open_ended, Artha(fate=fate, deeds_after=deeds), cap)
    assert sum(dist.values()) == 1
    assert all(p >= 0 for p in dist.values())
    assert max(dist) <= cap


@settings(max_examples=30, deadline=None)
@given(exponent=st.integers(1, 6), ob=st.integers(1, 6), persona=st.integers(0, 2))
def test_one_more_persona_never_hurts(exponent: int, ob: int, persona: int) -> None:
    """Persona adds a die: the chance to pass never falls."""
    pool = BurningPool(exponent)
    assert obstacle_odds(pool, Artha(persona=persona + 1), ob) >= obstacle_odds(
        pool, Artha(persona=persona), ob
    )


@pytest.mark.parametrize("dice", [1, 3, 5])
@pytest.mark.parametrize("ob", [1, 2, 4])
def test_burning_test_is_the_kernel_check_without_after_roll_artha(dice: int, ob: int) -> None:
    """Without Fate or Deeds after the roll a test is the kernel's ObstacleCheck itself."""
    from referee.core import ObstacleCheck

    test = BurningTest(BurningPool(dice, Shade.GREY), ob, Artha(persona=1))
    assert test.kernel == ObstacleCheck(dice + 1, ob, GREY)
    assert test.odds() == ObstacleCheck(dice + 1, ob, GREY).odds()


@pytest.mark.parametrize("artha", ALL_ARTHA_AFTER[1:], ids=lambda a: a.label())
def test_burning_test_with_artha_odds_and_roll_agree(artha: Artha) -> None:
    """With artha after the roll, one object gives the odds and the roll, and they agree."""
    test = BurningTest(BurningPool(2), 2, artha)
    assert test.kernel is None
    brute = brute_roller(2, BLACK, False, artha, cap=2)
    assert test.odds().success == brute[2]
    result = test.roll(ScriptedSource([6, 1, 5, 4, 4, 4]))
    assert result.is_success == (result.value >= 2)


def test_burning_versus_is_the_kernel_opposed_check() -> None:
    """A versus test: the kernel's OpposedCheck with the opponent winning ties."""
    from referee.core import OpposedCheck, TieRule

    versus = BurningVersus(BurningPool(3), BurningPool(2, Shade.GREY))
    kernel = versus.kernel
    assert isinstance(kernel, OpposedCheck) and kernel.ties is TieRule.OPPONENT_WINS
    assert versus.odds().success == versus_odds(BurningPool(3), BurningPool(2, Shade.GREY))
    fated = BurningVersus(BurningPool(3), BurningPool(2, Shade.GREY), Artha(fate=True))
    assert fated.odds().success == versus_odds(
        BurningPool(3), BurningPool(2, Shade.GREY), Artha(fate=True)
    )
    assert sum(fated.odds().margins.values()) == 1
    result = versus.roll(ScriptedSource([4, 4, 1, 3, 3]))
    assert (result.value, result.opponent_value, result.is_success) == (2, 2, False)


def test_the_attacker_who_beats_the_defenders_successes_wins_by_the_difference() -> None:
    """Versus: "each side's successes are the other's Ob": 4,4,1 (2 successes, Black) beat
    3,1 (1 success, Grey), margin 1."""
    versus = BurningVersus(BurningPool(3), BurningPool(2, Shade.GREY))
    result = versus.roll(ScriptedSource([4, 4, 1, 3, 1]))
    assert (result.outcome, result.value, result.opponent_value) == (Outcome.SUCCESS, 2, 1)
    assert (result.margin, result.faces) == (1, (4, 4, 1, 3, 1))


def test_open_ended_pools_explode_in_a_versus_roll() -> None:
    """Open-ended: a 6 rolls another die. 6 then 4 is 2 successes; 6 then 1 is 1."""
    pool = BurningPool(1, open_ended=True)
    source = ScriptedSource([6, 4, 6, 1])
    result = BurningVersus(pool, pool).roll(source)
    assert source.remaining == ()
    assert (result.value, result.opponent_value, result.is_success) == (2, 1, True)


def test_fractions_are_exact() -> None:
    """Odds are Fractions, never floats (STYLE: probabilities are Fractions)."""
    odds = BurningVersus(BurningPool(1), BurningPool(1), Artha(fate=True)).odds()
    assert all(isinstance(p, Fraction) for p in odds.outcomes.values())


def test_a_versus_pools_preview_counts_successes_open_ended_to_a_top_bucket() -> None:
    """Dice (a versus test's odds before the opponent is known): 2D black succeed on 4–6 —
    0, 1, 2 successes at 1/4, 1/2, 1/4. Open-ended, a 6 is rolled again: 1 success is one die
    failing and the other a 4 or 5, or a 6 whose re-roll fails (2·½·⅓ + 2·½·⅙·½ = 5/12), and the
    last bucket, three above the dice, is "5+"."""
    plain = successes_preview(BurningPool(exponent=2), "jack's pool", "Versus")
    assert (plain.label, plain.rule, plain.dice) == ("jack's pool", "Versus", "2d6 B")
    assert dict(plain.odds) == {"0 successes": "1/4", "1 success": "1/2", "2 successes": "1/4"}
    wild = successes_preview(BurningPool(exponent=2, open_ended=True), "jack's pool", "Versus")
    assert wild.dice == "2d6 B open-ended"
    odds = {k: Fraction(v) for k, v in wild.odds.items()}
    assert list(odds) == [
        "0 successes",
        "1 success",
        "2 successes",
        "3 successes",
        "4 successes",
        "5+ successes",
    ]
    assert (odds["0 successes"], odds["1 success"], sum(odds.values())) == (
        Fraction(1, 4),
        Fraction(5, 12),
        1,
    )


def test_routine_is_ob_at_most_dice_less_one_two_or_three_by_the_pools_size() -> None:
    """parent-games.md: "Routine if Ob ≤ dice − k (k = 1 for 1–3 dice, 2 for 4–6, 3 for 7+);
    Difficult otherwise": each band at its edges."""
    assert [difficulty(3, ob) for ob in (2, 3)] == ["routine", "difficult"]
    assert [difficulty(4, ob) for ob in (2, 3)] == ["routine", "difficult"]
    assert [difficulty(6, ob) for ob in (4, 5)] == ["routine", "difficult"]
    assert [difficulty(7, ob) for ob in (4, 5)] == ["routine", "difficult"]


def test_an_obstacle_of_nothing_is_passed_and_ob_1_is_not_certain() -> None:
    """Pass when successes ≥ Ob: Ob 0 is always passed, open-ended or not; Ob 1 on one black
    die is passed on 4–6, half the time."""
    assert obstacle_odds(BurningPool(3, open_ended=True), Artha(), 0) == 1
    assert obstacle_odds(BurningPool(3), Artha(), 0) == 1
    assert obstacle_odds(BurningPool(1), Artha(), 1) == Fraction(1, 2)


def test_an_open_ended_die_can_pass_ob_2_alone() -> None:
    """Open-ended: a 6 adds another die. One black open-ended die passes Ob 2 on a 6 then 4–6:
    1/6 × 1/2; a closed die never can."""
    assert obstacle_odds(BurningPool(1, open_ended=True), Artha(), 2) == Fraction(1, 12)
    assert obstacle_odds(BurningPool(1), Artha(), 2) == 0


def test_a_test_without_artha_after_the_roll_has_the_kernel_checks_odds_open_ended_too() -> None:
    """Without Fate or Deeds after the roll an independent test is the kernel's ObstacleCheck,
    odds included, for an open-ended pool as for a closed one."""
    for ob in (0, 1, 3):
        test = BurningTest(BurningPool(2, open_ended=True), ob)
        assert test.odds() == ObstacleCheck(2, ob, BLACK, True).odds()


def test_a_test_rolls_open_ended_and_counts_its_margin_against_the_ob() -> None:
    """Pass when successes ≥ Ob; margin = successes − Ob; a 6 on an open-ended pool adds a die."""
    won = BurningTest(BurningPool(1, open_ended=True), 2).roll(ScriptedSource([6, 4]))
    assert (won.outcome, won.value, won.margin, won.faces) == (Outcome.SUCCESS, 2, 0, (6, 4))
    lost = BurningTest(BurningPool(2), 2).roll(ScriptedSource([4, 1]))
    assert (lost.outcome, lost.value, lost.margin, lost.faces) == (Outcome.FAILURE, 1, -1, (4, 1))


def test_a_rolled_pool_is_recorded_with_every_part_of_its_dice() -> None:
    """The test's record keeps what went into the pool: exponent, shade letter, FoRKs, help,
    bonus, penalty, open-endedness."""
    pool = BurningPool(5, Shade.GREY, forks=1, helping=2, bonus=3, penalty=4, open_ended=True)
    assert pool.to_json() == {
        "exponent": 5,
        "shade": "G",
        "forks": 1,
        "helping": 2,
        "bonus": 3,
        "penalty": 4,
        "open_ended": True,
    }


def test_versus_odds_count_the_attackers_successes_up_to_the_cap() -> None:
    """Open-ended counts are capped at ``cap``; equal capped counts go to the defender. At cap 1
    one open-ended die beats one closed die only when that one fails: 1/2 × 1/2."""
    attacker, defender = BurningPool(1, open_ended=True), BurningPool(1)
    assert versus_odds(attacker, defender, cap=1) == Fraction(1, 4)
    assert versus_odds(attacker, defender) == Fraction(1, 4) + Fraction(1, 24)
