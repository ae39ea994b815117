"""Burning Wheel dice (parent-games.md, "Burning Wheel"): exact odds against brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import BLACK, GREY, WHITE, Pool, RuleError
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
