"""The pure rules of a fight (Gin Lane, "Fighting", "Defence", "Weapons Notes", "Grenades",
"Action: Sprint")."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from referee.core import RuleError
from referee.dice import odds
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.tables import weapon


def test_defence_table() -> None:
    assert rules.can_defend("Agility", "Firearms")
    assert rules.can_defend("Agility", "Brawl")
    assert rules.can_defend("Brawl", "Brawl")
    assert rules.can_defend("Brawl", "Weapons", small_weapon=True)
    assert not rules.can_defend("Brawl", "Weapons")
    assert rules.can_defend("Weapons", "Weapons") and rules.can_defend("Weapons", "Brawl")
    assert not rules.can_defend("Weapons", "Firearms")
    for shooter in ("Firearms", "Bow", "Sling"):
        assert not rules.can_defend(shooter, "Weapons")
    assert rules.can_defend("Resolve", "Intimidation")
    # Resolve: "a Composure attack with a weapon" (covering fire), never a Health one
    assert not rules.can_defend("Resolve", "Firearms")
    assert not rules.can_defend("Resolve", "Weapons", track="Health")
    assert rules.can_defend("Resolve", "Firearms", track="Composure")
    assert rules.defence_skills("Firearms") == ("Agility",)
    assert rules.defence_skills("Brawl") == ("Agility", "Brawl", "Weapons")


def test_attack_stress_match_and_failure() -> None:
    assert rules.attack_stress(12, 9, 2) == 5
    assert rules.attack_stress(9, 9, 2) == 2
    assert rules.attack_stress(9, 9, 0) == 0
    assert rules.attack_stress(8, 9, 4) == 0


def test_spin_at_four_or_more() -> None:
    assert rules.is_spin(5, 9) and not rules.is_spin(6, 9)


def test_damage_bonus_range_and_long_range() -> None:
    assert rules.damage_bonus(weapon("pistol"), 2) == 2
    assert rules.damage_bonus(weapon("pistol"), 3) == 1
    assert rules.damage_bonus(weapon("thrown knife"), 2) == 0
    assert rules.damage_bonus(weapon("rock"), 2) == 0  # not below 0
    assert rules.damage_bonus(weapon("blunderbuss"), 1) == 1
    assert rules.is_long_range(weapon("musket"), 4) and not rules.is_long_range(weapon("sword"), 0)
    with pytest.raises(RuleError, match="a musket reaches 4 zones, not 5"):
        rules.damage_bonus(weapon("musket"), 5)


def test_reach_rule_of_thumb() -> None:
    assert [rules.reach(d) for d in (0, 1, 2, 3, 5)] == [
        "punch",
        "poke",
        "throw",
        "shoot",
        "out of sight",
    ]


def test_zone_distance() -> None:
    links = [("a", "b"), ("b", "c"), ("x", "y")]
    assert rules.zone_distance(links, "a", "a") == 0
    assert rules.zone_distance(links, "c", "a") == 2
    assert rules.zone_distance(links, "a", "y") is None


def test_grenade_throw_numbers() -> None:
    assert rules.GRENADE_DIFFICULTY == 7 and rules.ON_TARGET_EXCESS == 3
    assert rules.throw_modifier(1) == 0 and rules.throw_modifier(2) == -2
    assert [rules.is_fizzle(n) for n in range(2, 6)] == [True, True, False, False]
    assert rules.fuse_goes_off(7) and not rules.fuse_goes_off(8)


def test_fizzle_odds_exact() -> None:
    """A natural 2 or 3 on 2d6 is 3/36; with the On Target tag (3d6kh2), by enumeration."""
    dist = odds("2d6").distribution
    assert dist[2] + dist[3] == Fraction(1, 12)
    hits = sum(1 for f in itertools.product(range(1, 7), repeat=3) if sum(sorted(f)[1:]) <= 3)
    tagged = odds("3d6kh2").distribution
    assert tagged[2] + tagged[3] == Fraction(hits, 216)


def test_sprint_odds_exact() -> None:
    """|d6 − d6| by enumeration, as the Sprint's "ALERT: dice system exception"."""
    counts: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[abs(a - b)] = counts.get(abs(a - b), 0) + 1
    got = odds("abs(1d6-1d6)").distribution
    assert {int(k): Fraction(v) for k, v in got.items()} == {
        k: Fraction(c, 36) for k, c in counts.items()
    }


def test_sprint_route() -> None:
    links = {("a", "b"): 1, ("b", "c"): 1, ("c", "d"): 3, ("d", "e"): 1, ("e", "f"): 1}
    assert rules.sprint_route(["b", "c"], "a", 5, links, {"c": 2}) == ("b", "c")
    assert rules.sprint_route(["b", "c", "d"], "a", 5, links, {}) == ("b", "c", "d")
    assert rules.sprint_route(["b", "c", "d"], "a", 5, links, {"c": 2}) == ("b", "c")
    with pytest.raises(RuleError, match="at most 4 zones"):
        rules.sprint_route(["b", "c", "d", "e", "f"], "a", 20, links, {})
    with pytest.raises(RuleError, match="'d' is not next to 'a'"):
        rules.sprint_route(["d"], "a", 20, links, {})
