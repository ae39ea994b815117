"""Range, movement, encumbrance, jumps, charges, races and damage, with exact odds."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.dice import ScriptedSource
from referee.systems.hursagmu.movement import (
    DamageRoll,
    charge_momentum,
    damage_base,
    jump_distance,
    movement_actions,
    movement_rate,
    race_check,
    race_gain,
    range_challenge,
    range_increment,
)

TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def test_bow_example() -> None:
    # "If a target is within ten yards, the challenge number is zero. If a target is between ten
    # and twenty yards, the challenge number is 1. Between twenty and thirty yards, it is 2."
    assert [range_challenge(y, "missile weapon") for y in (0, 5, 10)] == [0, 0, 0]
    assert [range_challenge(y, "missile weapon") for y in (11, 15, 20)] == [1, 1, 1]
    assert [range_challenge(y, "missile weapon") for y in (21, 25, 30)] == [2, 2, 2]


@given(st.integers(0, 5000), st.sampled_from([1, 2, 10, 100, 1000]))
def test_range_challenge_is_one_per_further_increment_or_part(yards: int, inc: int) -> None:
    challenge = range_challenge(yards, inc)
    assert challenge == max(0, math.ceil(yards / inc) - 1)
    assert (challenge + 1) * inc >= yards > challenge * inc or yards <= inc


def test_range_increments_by_name() -> None:
    assert range_increment("Thrown Weapon") == 2
    assert range_increment("talamu") == 1
    assert range_increment("hearing") == 10
    with pytest.raises(RuleError, match="no range increment for 'sling'"):
        range_increment("sling")
    with pytest.raises(RuleError, match="negative"):
        range_challenge(-1, 10)


def test_encumbrance_rate() -> None:
    # "If a character were carrying 50% of his maximum lift ... he would move 5 yards"
    assert movement_rate(200, 100) == 5
    assert movement_rate(200, 19) == 10  # under 10%: unencumbered
    assert movement_rate(200, 20) == 9
    assert movement_rate(200, 200) == 0
    with pytest.raises(RuleError):
        movement_rate(0, 0)
    with pytest.raises(RuleError):
        movement_rate(10, -1)


def test_movement_actions() -> None:
    assert movement_actions("foot", 16) == 2  # "one for every ten yards or fraction thereof"
    assert movement_actions("foot", 30) == 3
    assert movement_actions("stand") == movement_actions("leap") == 1
    assert movement_actions("mount") == movement_actions("dismount") == 1
    assert movement_actions("ride", 40, mount=40) == 1
    assert movement_actions("ride", 40, mount=20) == 2
    assert movement_actions("prone") == 0
    with pytest.raises(RuleError, match="too encumbered"):
        movement_actions("foot", 5, rate=0)
    with pytest.raises(RuleError, match="20 to 40"):
        movement_actions("ride", 40, mount=50)
    with pytest.raises(RuleError, match="needs a mount"):
        movement_actions("ride", 40)


def test_jumps() -> None:
    # "a standing long jump for a number of yards equal to his Maximum lift / 50. A running
    # start doubles the distance. Encumbrance lowers it at the same rate"
    assert jump_distance(250) == 5
    assert jump_distance(250, running=True) == 10
    assert jump_distance(250, 125, running=True) == 5


def test_charge_momentum() -> None:
    assert charge_momentum(40) == 4
    assert charge_momentum(9) == 0
    assert charge_momentum(16) == 1


def test_knight_and_spearman_damage() -> None:
    # "His lance does 14 damage (10 for the lance + 4 for Strength). He rolls a 6 ... 20 ...
    # adds his movement ... for a total of 24."
    assert damage_base(10, 4) == 14
    assert DamageRoll(14, charge_momentum(40)).roll(ScriptedSource([1, 5]))[0] == 24
    assert DamageRoll(11, 4).roll(ScriptedSource([2, 3]))[0] == 20
    assert DamageRoll(14, 4, dice="1d6").roll(ScriptedSource([6]))[0] == 24
    with pytest.raises(RuleError, match="2d6 or 1d6"):
        DamageRoll(1, dice="3d6")


def test_damage_distribution_matches_brute_force() -> None:
    dist = DamageRoll(11, 4).distribution()
    for total, p in dist.items():
        assert p == Fraction(sum(1 for a, b in TWO_D6 if 15 + a + b == total), 36)


def test_race_odds_and_yards() -> None:
    check = race_check(5, 3)
    odds = check.odds()
    brute = {}
    for a, b in TWO_D6:
        for c, d in TWO_D6:
            m = (a + b + 5) - (c + d + 3)
            brute[m] = brute.get(m, 0) + 1
    assert dict(odds.margins) == {m: Fraction(n, 36 * 36) for m, n in sorted(brute.items())}
    assert race_gain(check.roll(ScriptedSource([1, 1, 6, 6]))) == -8
    assert race_gain(check.roll(ScriptedSource([2, 2, 3, 3]))) == 0
