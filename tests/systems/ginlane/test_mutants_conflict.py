"""Tests that kill the mutants of ``conflict.py`` mutmut left alive in round 4 of issue 13
(docs/systems/ginlane.md, "Mutation testing", "Round 4"): the pure rules of a fight, each
against the rules text ("Defence", "Zones", "Range", "Action: Sprint") or the Rulings."""

from __future__ import annotations

import pytest

from referee.core import RuleError
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.tables import weapon


def test_empathy_and_charm_defend_against_words_only() -> None:
    """Social Defence (Rulings): Empathy and Charm defend against an attack by word
    (Intimidation, Deceive, Charm, Oratory), never against a blow; no other skill does but
    Agility and Resolve."""
    for defence in ("Empathy", "Charm"):
        assert rules.can_defend(defence, "Intimidation")
        assert rules.can_defend(defence, "Charm")
        assert not rules.can_defend(defence, "Weapons")
        assert not rules.can_defend(defence, "Firearms", track="Composure")
    for other in ("Firearms", "Stealth", "Bow"):
        assert not rules.can_defend(other, "Intimidation")
    assert rules.defence_skills("Intimidation") == ("Agility", "Resolve", "Empathy", "Charm")
    assert rules.defence_skills("Oratory", track="Composure") == (
        "Agility",
        "Resolve",
        "Empathy",
        "Charm",
    )


def test_brawl_defends_against_a_weapons_attack_only_with_a_small_weapon() -> None:
    """Defence: "Brawl skill can defend against Brawl attacks, and Weapons attack with small
    items such as knives and coshes" — a sword's blow is parried or dodged, not brawled."""
    assert rules.defence_skills("Weapons") == ("Agility", "Weapons")
    assert rules.defence_skills("Weapons", small_weapon=True) == ("Agility", "Brawl", "Weapons")


def test_a_zone_with_no_way_out_is_no_distance_from_anywhere_else() -> None:
    """Zones: a zone no link reaches is at no distance (``None``) from the others, and 0 from
    itself."""
    links = [("a", "b")]
    assert rules.zone_distance(links, "cellar", "a") is None
    assert rules.zone_distance(links, "cellar", "cellar") == 0
    assert rules.zone_distance(links, "b", "a") == 1


def test_a_weapons_manoeuvre_reaches_as_far_as_a_weapons_weapon() -> None:
    """Zones (Rulings): a Weapons manoeuvre reaches as far as the weapon in hand when it is a
    Weapons weapon — a sword the same zone, a pole-arm the next ("poke") — and the same zone
    with a pistol held; taking aim (Firearms) reaches as far as the opponent is in sight."""
    assert rules.manoeuvre_reach("Weapons", weapon("sword")) == 0
    assert rules.manoeuvre_reach("Weapons", weapon("pole-arm")) == 1
    assert rules.manoeuvre_reach("Weapons", weapon("pistol")) == 0
    assert rules.manoeuvre_reach("Weapons", weapon("musket")) == 0
    assert rules.manoeuvre_reach("Firearms", weapon("sword")) == rules.OUT_OF_SIGHT - 1


def test_a_pole_arms_poke_is_at_its_furthest_zone() -> None:
    """Range: "In the furthest zone there's a free-tagged At Long Range Aspect to the target and
    the Damage Bonus is reduced by 1" — read as the text says it, of any weapon that reaches past
    its own zone: a pole-arm's poke into the next zone is at its furthest (+3 − 1 = +2)."""
    pole = weapon("pole-arm")
    assert rules.is_long_range(pole, 1) and not rules.is_long_range(pole, 0)
    assert (rules.damage_bonus(pole, 0), rules.damage_bonus(pole, 1)) == (3, 2)
    assert not rules.is_long_range(weapon("sword"), 0)


def test_a_sprint_goes_four_zones_and_either_way_along_a_link() -> None:
    """Action: Sprint: "The maximum distance in actual Zones that can moved in a Turn is 4" — four
    zones are a Sprint, five are not; a link is crossed either way."""
    links = {("a", "b"): 1, ("b", "c"): 1, ("c", "d"): 1, ("d", "e"): 1, ("e", "f"): 1}
    assert rules.sprint_route(["b", "c", "d", "e"], "a", 9, links, {}) == ("b", "c", "d", "e")
    assert rules.sprint_route(["d", "c", "b", "a"], "e", 9, links, {}) == ("d", "c", "b", "a")
    assert rules.sprint_route(["a"], "b", 1, {("a", "b"): 1}, {}) == ("a",)
    with pytest.raises(RuleError, match="at most 4 zones, not 5"):
        rules.sprint_route(["b", "c", "d", "e", "f"], "a", 9, links, {})
