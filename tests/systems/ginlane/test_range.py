"""Range (Gin Lane, "Action: Attack", "Range", "Weapons Notes"; RULINGS.md on reach): how far a
blow or a manoeuvre reaches, and which opponents and zones a menu offers.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.tables import weapon

from .helpers import _BLOCKING, _SOCIETY, _menu
from .test_procedure import act, duel, start


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


_SOCIETY_ONLY = {
    "some_of": ["Member of the Society for Effectual Redress"],
    "least": 0,
    "most": None,
}


_OWN_WORDS = {"text": "Sand in His Eyes"}


def test_a_menu_offers_only_the_opponents_in_reach_and_the_zones_in_sight() -> None:
    """Zones, Action: Attack, Manoeuvres, Grapple, Action: Sprint, Grenades: kit, with her fists
    in zone a at the end of a row of zones a — b — c — d — e — f (and g, linked to nothing),
    faces far (in b, next door) and near (in a). Her fists reach her own zone: she may attack,
    blind, unbalance or disarm near only; taking aim reaches anyone in sight (far and near); she
    may grapple near (in her zone), not far; she may hold the doorway to b and step into it;
    sprint along one to four zones (b to e); and throw a grenade into any zone in sight: not f,
    five zones away, nor g, which no way reaches."""
    setup = {
        "zones": ["a", "b", "c", "d", "e", "f", "g"],
        "links": [["b", "a"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"]],
        "characters": {
            "kit": {"side": "s", "zone": "a", "skills": {"Agility": 1}},
            "far": {"side": "m", "zone": "b"},
            "near": {"side": "m", "zone": "a"},
        },
    }
    table = start(setup, 6, 6, 1, 1, 1, 1)
    assert table.state.current == "kit"
    near = {"one_of": ["near"]}
    assert _menu(table, "kit") == [
        ("attack", "attack with the fists", {"target": near, "tags": _SOCIETY_ONLY}),
        (
            "manoeuvre",
            "blind: Blinded on an opponent (Brawl)",
            {"named": {"one_of": ["blind"]}, "target": near},
        ),
        (
            "manoeuvre",
            "unbalance: Off-Balance on an opponent (Brawl)",
            {"named": {"one_of": ["unbalance"]}, "target": near},
        ),
        (
            "manoeuvre",
            "disarm: Disarmed on an opponent (Weapons)",
            {"named": {"one_of": ["disarm"]}, "target": near},
        ),
        (
            "manoeuvre",
            "take aim: Target on an opponent (Firearms)",
            {"named": {"one_of": ["take aim"]}, "target": {"one_of": ["far", "near"]}},
        ),
        (
            "manoeuvre",
            "a manoeuvre on oneself",
            {
                "named": {"one_of": ["take cover", "concentrate"]},
                "difficulty": {"between": [6, 12]},
            },
        ),
        (
            "manoeuvre",
            "an Aspect in your own words on an opponent",
            {
                "aspect": _OWN_WORDS,
                "skill": {"one_of": ["Agility"]},  # in sight: far and near
                "target": {"depends": "skill", "cases": [["Agility", {"one_of": ["far", "near"]}]]},
            },
        ),
        (
            "manoeuvre",
            "an Aspect in your own words on the scene",
            {
                "aspect": _OWN_WORDS,
                "skill": {"one_of": ["Agility"]},
                "scene": {"one_of": [True]},
                "difficulty": {"between": [6, 12]},
            },
        ),
        ("block", "", {"doorway": {"one_of": ["b"]}}),
        (
            "block",
            "a Block of a named action",
            {"action": {"text": "open the door"}, "skill": _BLOCKING},
        ),
        ("grapple", "grapple Near", {"target": near, "tag": {"one_of": [_SOCIETY]}}),
        ("move", "", {"to": {"one_of": ["b"]}}),
        (
            "sprint",
            "",
            {"path": {"one_of": [["b"], ["b", "c"], ["b", "c", "d"], ["b", "c", "d", "e"]]}},
        ),
        (
            "throw_grenade",
            "throw a grenade (On Target: whom)",
            {
                "zone": {"one_of": ["a", "b", "c", "d", "e"]},
                "on_target": {
                    "depends": "zone",
                    "cases": [["a", {"one_of": ["kit", "near"]}], ["b", {"one_of": ["far"]}]],
                },
            },
        ),
        ("wait", "", {"plan": {"text": "kit strikes whoever comes through the door"}}),
        ("full_defence", "", {}),
        ("something_else", "", {"what": {"text": "kit loads a pistol"}}),
    ]


def test_a_weapon_used_with_another_skill_reaches_only_its_own_zone() -> None:
    """Rulings: a weapon used with another skill (a pistol as a club) is improvised, +1, and
    reaches 0 zones: jack one zone off is out of its reach."""
    table = duel(jack={"zone": "hall"})
    with pytest.raises(RuleError, match="Range: a pistol used with Weapons reaches 0 zones"):
        act(table, "moll", "attack", [3, 3, 1, 1], target="jack", weapon="pistol", skill="Weapons")
