"""Exact odds against brute-force enumeration of the roller, and known closed forms."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from referee.dice import odds
from tests.dice.reference import brute_force

# Every operator and form, small enough to enumerate every sequence of faces.
# fmt: off
EXACT = [
    "1d6", "2d6", "3d4+2", "d4-d4", "2d4*2", "7/2", "d6/2", "d6//2", "d6%3", "-d6", "+d4",
    "--d4", "abs(d4-d4)", "max(d4,d4)", "min(d6,d4,3)", "1.5+d4", "d4/3*3",
    "2d4>=3", "3d4>2", "3d4<=2", "2d4==2", "2d4!=2", "3d4<2",
    "(2d4)>=5", "(2d4>=3)>=1", "2d4+1>=6", "d6>d6", "d4==d4", "d4!=d4", "d6<=d4",
    "3d4kh2", "3d4kl1", "3d4ph1", "3d4pl1", "4d4dl1", "3d4dh1", "3d4k>2", "3d4k<3", "3d4k2",
    "3d4p2", "3d4k1k2", "3d4kh1kl1", "3d4k1ph1", "3d4ph1pl1", "3d4kh5", "3d4pl5", "3d4kh0",
    "2d4ro1", "2d4rol1", "2d4roh1", "2d4ra1", "2d4ra4", "2d4ral1", "2d4mi2", "2d4ma3",
    "2d4mi2ma3", "3d4mi3kh2", "2d4ro1kh1", "2d4ro<3k>2", "2d4ma2>=2", "3d4kh2>=3",
    "(d4, d4, 2)kh1", "(d4, 3)pl1", "(d4,)", "(1d4, 2+2, 3d4kl1)kh1", "(d4, d4)k>2", "()",
    "(d4, d4, d4)kh1kl1", "0d6", "d1", "3d1+1", "10d2", "d%", "(1, 2, 3)k1k2",
    # a keep or drop by rank of none after one by value
    "1d2k>0ph0", "3d4p<3ph0", "3d4k>1kl0", "3d4p<2pl0>=2",
]
# fmt: on

# Rerolls until, and explosions: followed until a branch is rarer than the cut-off.
# fmt: off
CHAINS = [
    "2d4rr1", "2d4r1", "d4rr<3", "2d3e3", "2d3!", "2d3!>=2", "d3e>2", "d2e2", "3d3!>=3",
    "2d3e3kh1", "2d3!kl1", "d4rr1ro2", "d3!mi2", "2d3e3p1", "d3ra3!",
]
# fmt: on


@pytest.mark.parametrize("expression", EXACT)
def test_exact_odds_match_brute_force(expression: str) -> None:
    expected, pruned = brute_force(expression)
    assert pruned == 0
    got = odds(expression)
    assert got.truncated == 0
    assert got.distribution == expected
    assert list(got.distribution) == sorted(got.distribution)  # type: ignore[type-var]


@pytest.mark.parametrize("expression", CHAINS)
def test_chained_odds_match_brute_force_within_the_cut(expression: str) -> None:
    expected, pruned = brute_force(expression)
    got = odds(expression)
    assert set(expected) <= set(got.distribution)
    tolerance = 4 * (pruned + got.truncated) + Fraction(1, 10**9)
    for outcome, p in got.distribution.items():
        assert abs(p - expected.get(outcome, Fraction(0))) <= tolerance, outcome
    assert sum(got.distribution.values()) == 1


def test_three_d6_plus_two_at_least_fourteen() -> None:
    hits = sum(1 for faces in product(range(1, 7), repeat=3) if sum(faces) + 2 >= 14)
    assert odds("3d6+2>=14").probability(True) == Fraction(hits, 216) == Fraction(3, 8)


def test_four_d6_keep_highest_three_against_enumeration() -> None:
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=4):
        total = sum(sorted(faces)[1:])
        counts[total] = counts.get(total, 0) + 1
    assert odds("4d6kh3").distribution == {t: Fraction(c, 6**4) for t, c in sorted(counts.items())}


def test_success_count_is_binomial() -> None:
    # Eight black-shade dice: successes are Binomial(8, 1/2).
    from math import comb

    assert odds("8d6>=4").distribution == {k: Fraction(comb(8, k), 2**8) for k in range(9)}


def test_exploding_die_mean_and_truncation() -> None:
    # A d6 exploding on 6 has mean 3.5 / (1 - 1/6) = 4.2; the cut-off mass is reported.
    chances = odds("d6!")
    assert 0 < chances.truncated < Fraction(1, 10**11)
    assert abs(chances.mean - Fraction(21, 5)) < Fraction(1, 10**9)


def test_burning_wheel_pool_with_open_ended_sixes() -> None:
    # One black-shade die, open-ended: a success on 4-5, a success and another die on 6.
    # P(exactly k successes) = (1/6)^k * (1/2) + (1/6)^(k-1) * ... (closed form below).
    chances = odds("1d6!>=4")

    # k = 0: first die 1-3. k >= 1: (k-1) sixes then either a 4-5 (k successes) or a six
    # followed by 1-3 (k successes, ending on a failure).
    def closed(k: int) -> Fraction:
        if k == 0:
            return Fraction(1, 2)
        return Fraction(1, 6) ** (k - 1) * (Fraction(2, 6) + Fraction(1, 6) * Fraction(1, 2))

    for k in range(0, 8):
        assert abs(chances.probability(k) - closed(k)) < Fraction(1, 10**10)


def test_reroll_until_is_conditional_and_exact() -> None:
    assert odds("1d20rr<20").distribution == {20: Fraction(1)}
    assert odds("1d100rr<100").truncated == 0
    assert odds("d6rr1").distribution == {f: Fraction(1, 5) for f in range(2, 7)}


def test_pool_fast_path_agrees_with_general_path() -> None:
    # kh by icepool's pool; k with a value selector after it goes through the expansion.
    assert odds("5d6kh2").distribution == odds("5d6kh2p<1").distribution
    # consecutive keeps are one keep of the union (d20): kh2 or >0 keeps every die
    assert odds("5d6kh2k>0").distribution == odds("5d6").distribution


def test_at_least_and_at_most() -> None:
    chances = odds("2d6")
    assert chances.at_least(7) == Fraction(21, 36)
    assert chances.at_most(7) == Fraction(21, 36)
    assert chances.at_least(2) == 1


def test_json_shape() -> None:
    data = odds("(2d6)>=7").to_json()
    assert data["distribution"] == [[False, "5/12"], [True, "7/12"]]
    assert data["mean"] == "7/12"
    assert data["truncated"] == "0"
