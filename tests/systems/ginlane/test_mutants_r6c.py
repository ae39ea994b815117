"""Tests that kill the mutants of ``fighting.py``'s ``attack`` and ``defend`` mutmut left alive
in round 6, part C of issue 13 (docs/systems/ginlane.md, "Mutation testing"): who may defend
with what, how far a blow reaches, what the roll adds up to, and what the log and the attack's
card say ("Action: Attack", "Resolving attacks", "Defence", "Weapons Notes", Rulings)."""

from __future__ import annotations

import pytest

from referee.core import RuleError

from .test_procedure import BRAVO, FIGHTER, act, duel, events, kinds, start


def test_brawl_parries_a_small_weapon_but_not_a_sword() -> None:
    """Defence: "Brawl skill can defend against Brawl attacks, and Weapons attack with small
    items such as knives and coshes." jack (Brawl 2, Agility 1) parries moll's cosh with Brawl
    when he names it and when he names nothing (his best allowed skill); against a sword blow
    he may not, nor against a Weapons manoeuvre (a manoeuvre is no small weapon's blow), and
    left to himself he dodges with Agility."""
    brawler = {"skills": {"Brawl": 2, "Agility": 1, "Alertness": 1}}
    # moll: Weapons 3 + 3 + 3 = 9 against Brawl 2 + 1 + 1 = 4
    table = act(duel(jack=brawler), "moll", "attack", [3, 3, 1, 1], target="jack", weapon="cosh")
    assert events(table, "defence.rolled")[0]["skill"] == "Brawl"
    assert events(table, "attack.rolled")[0]["defence_skill"] == "Brawl"
    named = act(
        duel(jack=brawler),
        "moll",
        "attack",
        [3, 3, 1, 1],
        target="jack",
        weapon="cosh",
        defence="Brawl",
    )
    assert events(named, "defence.rolled")[0]["total"] == 4
    with pytest.raises(RuleError, match="Brawl can't defend against a Weapons attack"):
        act(duel(jack=brawler), "moll", "attack", [3, 3, 1, 1], target="jack", defence="Brawl")
    sword = act(duel(jack=brawler), "moll", "attack", [3, 3, 1, 1], target="jack")
    assert events(sword, "defence.rolled")[0]["skill"] == "Agility"
    with pytest.raises(RuleError, match="Brawl can't defend against a Weapons attack"):
        act(
            duel(jack=brawler),
            "moll",
            "manoeuvre",
            [3, 3, 1, 1],
            target="jack",
            named="unbalance",
            skill="Weapons",
            defence="Brawl",
        )


def test_a_weapon_used_with_another_skill_reaches_only_its_own_zone() -> None:
    """Rulings: a weapon used with another skill (a pistol as a club) is improvised, +1, and
    reaches 0 zones: jack one zone off is out of its reach."""
    table = duel(jack={"zone": "hall"})
    with pytest.raises(RuleError, match="Range: a pistol used with Weapons reaches 0 zones"):
        act(table, "moll", "attack", [3, 3, 1, 1], target="jack", weapon="pistol", skill="Weapons")


def test_an_attack_limited_by_another_skill_rolls_the_lower() -> None:
    """Skill Interaction: jack's Weapons 2 attack limited by his Agility 1 rolls 1."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [3, 3, 1, 1], target="moll", limited_by="Agility")
    assert events(table, "attack.rolled")[0]["total"] == 3 + 3 + 1


def test_an_untrained_attack_of_a_related_skill_rolls_at_zero() -> None:
    """No Relevant Skill: jack (no Intimidation) browbeats moll at 0 with ``related``, not at
    the untrained level."""
    table = act(duel(), "moll", "full_defence")
    table = act(
        table, "jack", "attack", [3, 3, 1, 1], target="moll", skill="Intimidation", related=True
    )
    assert events(table, "attack.rolled")[0]["total"] == 3 + 3
    assert BRAVO.get("Intimidation") is None


def test_an_attack_on_a_standing_defence_rolls_the_attackers_dice_and_says_against_what() -> None:
    """Defence: a defence stands until the defender's next turn. ann's attack on jack, whose
    Weapons 10 stands from moll's attack, rolls only ann's scripted dice (6, 3) against 10,
    and kit's knife only kit's (2, 5); the log and the attack's card name the standing skill
    and give the exact odds."""
    chars = {
        "moll": {"side": "society", "weapon": "sword", "skills": FIGHTER},
        "ann": {"side": "society", "weapon": "sword", "skills": BRAVO},
        "kit": {"side": "society", "weapon": "knife", "skills": BRAVO},
        "jack": {"side": "bravoes", "weapon": "sword", "skills": BRAVO},
    }
    table = start({"characters": chars}, 6, 6, 1, 1, 1, 1, 1, 1)
    assert table.state.order == ("moll", "ann", "kit", "jack")
    table = act(table, "moll", "attack", [3, 3, 4, 4], target="jack")  # 9 vs Weapons 10
    table = act(table, "ann", "attack", [6, 3], target="jack")
    odds = {"success": "5/18", "match": "5/36", "failure": "7/12"}
    shown = "2d6 (6, 3) = 9 +2 = 11"
    assert events(table, "attack.rolled")[-1] == {
        "character": "ann",
        "target": "jack",
        "skill": "Weapons",
        "weapon": "sword",
        "total": 11,
        "defence": 10,
        "defence_skill": "Weapons",
        "rolled": {
            "dice": [6, 3],
            "natural": 9,
            "total": 11,
            "faces": [6, 3],
            "tags_used": 0,
            "tags_paid": 0,
            "shown": shown,
        },
        "long_range": False,
        "bonus": 2,
        "odds": odds,
        "roll": {
            "card": "roll",
            "label": "Ann attacks Jack (Weapons against Weapons)",
            "rule": "Action: Attack",
            "dice": "2d6+2 > 10",
            "odds": odds,
            "faces": [6, 3],
            "outcome": "success",
            "margin": 1,
            "value": 11,
            "opponent": None,
            "shown": shown,
        },
    }
    assert kinds(table)[-3:] == ["defence.stands", "stress.taken", "turn.started"]
    # kit's knife (2, 5) = 9 against the same standing 10: a failure, no stress
    table = act(table, "kit", "attack", [2, 5], target="jack")
    kit = events(table, "attack.rolled")[-1]
    assert (kit["rolled"]["faces"], kit["total"], kit["defence"]) == ([2, 5], 9, 10)
    assert kit["roll"]["label"] == "Kit attacks Jack (Weapons against Weapons)"
    assert kinds(table)[-3:] == ["attack.rolled", "defence.stands", "turn.started"]
