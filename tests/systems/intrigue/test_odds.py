"""Exact odds of every roll in the game, against brute-force enumeration of the 3d6 faces."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from referee.systems.intrigue.envelopes import ALL, PerceptionEnvelope
from referee.systems.intrigue.rules import (
    attack_check,
    attack_target_number,
    break_free_check,
    envelope_odds,
    escape_check,
    medicine_check,
    opposed_skill_check,
    skill_check,
)

FACES = range(1, 7)
THREE = list(itertools.product(FACES, repeat=3))
SIX = list(itertools.product(FACES, repeat=6))


def brute(predicate: object, dice: list[tuple[int, ...]]) -> Fraction:
    assert callable(predicate)
    return Fraction(sum(1 for faces in dice if predicate(faces)), len(dice))


@pytest.mark.parametrize("skill", [0, 1, 3, 5])
@pytest.mark.parametrize("target", [3, 10, 14, 18, 22])
def test_skill_roll_meets_or_exceeds_the_target_number(skill: int, target: int) -> None:
    """Skill Rolls: 3d6 + skill ≥ Target Number ("equal to or greater")."""
    expected = brute(lambda f: sum(f) + skill >= target, THREE)
    assert skill_check(skill, target).odds().success == expected


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (2, 1), (1, 3)])
def test_skill_roll_against_another_characters_roll_wins_ties(mine: int, theirs: int) -> None:
    """Skill Rolls: the Target Number may be another character's roll + skill; ≥ succeeds."""
    expected = brute(lambda f: sum(f[:3]) + mine >= sum(f[3:]) + theirs, SIX)
    assert opposed_skill_check(mine, theirs).odds().success == expected


@pytest.mark.parametrize("combat", [0, 1, 2, 5])
@pytest.mark.parametrize("defender", [0, 1, 3])
@pytest.mark.parametrize("grab", [False, True])
@pytest.mark.parametrize("defensive", [False, True])
def test_attack_must_be_greater_than_combat_plus_ten(
    combat: int, defender: int, grab: bool, defensive: bool
) -> None:
    """Attacking: 3d6 + Combat > Combat + 10 (+1 to grab, +3 against a Defensive Action)."""
    number = defender + (11 if grab else 10) + (3 if defensive else 0)
    assert attack_target_number(defender, grab=grab, defensive=defensive) == number
    expected = brute(lambda f: sum(f) + combat > number, THREE)
    assert attack_check(combat, number).odds().success == expected


@pytest.mark.parametrize(("held", "holder"), [(1, 1), (2, 1), (1, 3)])
def test_break_free_must_exceed_the_holders_roll(held: int, holder: int) -> None:
    """Break Free: 3d6 + Strength each; the Held Character's total must exceed the Attacker's."""
    expected = brute(lambda f: sum(f[:3]) + held > sum(f[3:]) + holder, SIX)
    assert break_free_check(held, holder).odds().success == expected


@pytest.mark.parametrize(("mine", "theirs"), [(2, 1), (1, 1), (0, 3)])
def test_escape_must_beat_the_attackers_roll(mine: int, theirs: int) -> None:
    """Escaping Combat: beat the attacker's 3d6 + Combat with 3d6 + Combat (strictly)."""
    expected = brute(lambda f: sum(f[:3]) + mine > sum(f[3:]) + theirs, SIX)
    assert escape_check(mine, theirs).odds().success == expected


@pytest.mark.parametrize("medicine", [0, 2, 4])
def test_medicine_wakes_on_fourteen_or_more(medicine: int) -> None:
    """Taking Damage: "awakened with a Medicine roll of 14 or more"."""
    expected = brute(lambda f: sum(f) + medicine >= 14, THREE)
    assert medicine_check(medicine).odds().success == expected


def test_envelope_odds_are_the_chance_of_being_handed_each_envelope() -> None:
    """Perception Envelopes: before the roll, the chance of each envelope being handed over."""
    to_all = PerceptionEnvelope("a", "h", ALL, 16, "x")
    to_some = PerceptionEnvelope("b", "h", ("12", "20", "32"), 14, "y")
    chances = envelope_odds(3, (to_all, to_some), "12")
    assert chances["a"] == brute(lambda f: sum(f) + 3 >= 16, THREE)
    assert chances["b"] == brute(lambda f: sum(f) + 3 >= 14, THREE)
    assert envelope_odds(3, (to_all, to_some), "15")["b"] == 0


def test_odds_sum_to_one() -> None:
    odds = attack_check(2, 12).odds()
    assert odds.success + odds.failure == 1
