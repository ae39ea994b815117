"""Perception, Observation, Stealth, Shadowing and Divination."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from referee.core import RuleError
from referee.systems.hursagmu.perception import (
    SOFT_NOISE_WHILE_ASLEEP,
    Awareness,
    divination_check,
    observation_check,
    perception_check,
    shadowing_check,
    stealth_check,
)
from referee.systems.hursagmu.sheet import Character

SEER = Character(
    "seer",
    dexterity=2,
    intelligence=3,
    skills={"perception": 2, "observation": 1, "divination": 4, "stealth": 3, "shadowing": 1},
)
TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def test_perception_challenge_parts() -> None:
    check = perception_check(SEER, 8, sense="vision", yards=250, factors={"pitch darkness": 3})
    assert check.target == 8 + 2 + 3
    assert check.modifier == 5


def test_perception_odds_brute_force() -> None:
    check = perception_check(SEER, 12, sense="smell", yards=1)
    assert check.odds().success == Fraction(sum(1 for a, b in TWO_D6 if a + b + 5 >= 12), 36)


def test_unconscious_characters_get_no_roll() -> None:
    with pytest.raises(RuleError, match="unconscious"):
        perception_check(SEER, 8, awareness=Awareness.UNCONSCIOUS)


def test_sleepers_roll_hearing_only_harder_for_soft_noises() -> None:
    with pytest.raises(RuleError, match="hearing only"):
        perception_check(SEER, 8, sense="vision", awareness=Awareness.ASLEEP)
    loud = perception_check(SEER, 8, sense="hearing", awareness=Awareness.ASLEEP)
    soft = perception_check(SEER, 8, sense="hearing", awareness=Awareness.ASLEEP, soft_noise=True)
    assert soft.target == loud.target + SOFT_NOISE_WHILE_ASLEEP
    assert soft.odds().success < loud.odds().success


def test_unknown_factor_and_sense() -> None:
    with pytest.raises(RuleError, match="no factor 'rain'"):
        perception_check(SEER, 8, factors={"rain": 1})
    with pytest.raises(RuleError, match="smell, hearing or vision"):
        perception_check(SEER, 8, sense="divination")


def test_observation_distraction_raises_the_challenge() -> None:
    assert observation_check(SEER, 7, factors={"distraction": 3}).target == 10


def test_stealth_against_perception_sneak_wins_ties() -> None:
    watcher = Character("w", intelligence=1, skills={"perception": 2, "observation": 3})
    check = stealth_check(SEER, watcher)  # 2d6+5 against 2d6+3
    wins = sum(1 for a, b in TWO_D6 for c, d in TWO_D6 if a + b + 5 >= c + d + 3)
    assert check.odds().success == Fraction(wins, 36 * 36)
    shadow = shadowing_check(SEER, watcher)  # 2d6+3 against 2d6+4
    wins = sum(1 for a, b in TWO_D6 for c, d in TWO_D6 if a + b + 3 >= c + d + 4)
    assert shadow.odds().success == Fraction(wins, 36 * 36)


def test_divination_range_is_a_thousand_yards_an_increment() -> None:
    assert divination_check(SEER, 9, yards=1000).target == 9
    assert divination_check(SEER, 9, yards=1001).target == 10
