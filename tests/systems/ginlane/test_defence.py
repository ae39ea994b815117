"""Defence (Gin Lane, "Defence", "Default Effective Skill Defences vs Attacks"; RULINGS.md, Social
Defence): which skill defends against what, a defence that stands, and the odds an attack shows.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError, Table, Viewer
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.scene import SceneState, state_json

from .test_procedure import BRAVO, FIGHTER, act, duel, events, kinds, start


def _previews(table: Table[SceneState]) -> list[tuple[str, str, dict[str, str]]]:
    return [
        (p.label, p.dice, dict(p.odds)) for p in PROCEDURE.previews(table.state, Viewer("referee"))
    ]


def _defences(mode: str) -> Table[SceneState]:
    """kit (a cosh), guard, lee (a pocket pistol), sam (a sword) against dodger, brawler and
    runner (three zones off), in this order; kit has attacked dodger (Agility 1 + 1 + 2 = 4
    against 3 + 3 + 2 = 8: his 8 stands till his next turn), and guard protects brawler with
    4 + 4 + 2 = 10. It is lee's turn."""
    setup = {
        "zones": ["a", "b", "c", "d"],
        "links": [["a", "b"], ["b", "c"], ["c", "d"]],
        "characters": {
            "kit": {"side": "s", "weapon": "cosh", "skills": BRAVO},
            "guard": {"side": "m", "skills": BRAVO},
            "lee": {
                "side": "s",
                "weapon": "pocket pistol",
                "skills": {"Firearms": 2, "Agility": 1, "Alertness": 1},
            },
            "sam": {"side": "s", "weapon": "sword", "skills": BRAVO},
            "dodger": {
                "side": "m",
                "skills": {"Agility": 2, "Weapons": 2, "Alertness": 1, "Brawl": 1, "Stealth": 1},
            },
            "brawler": {"side": "m", "skills": {**FIGHTER, "Brawl": 3, "Weapons": 1}},
            "runner": {"side": "m", "zone": "d", "skills": {"Agility": 1}},
        },
    }
    table = start(setup, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 2, 1, 1, mode=mode)
    assert table.state.order == ("kit", "guard", "lee", "sam", "dodger", "brawler", "runner")
    even = {"success": "575/1296", "match": "73/648", "failure": "575/1296"}
    # kit's cosh, a small weapon, is parried by brawler's Brawl 3, not only his Agility 2
    assert _previews(table) == [
        ("Kit attacks Guard", "2d6+2 vs 2d6+2", even),
        ("Kit attacks Dodger", "2d6+2 vs 2d6+2", even),
        (
            "Kit attacks Brawler",
            "2d6+2 vs 2d6+3",
            {"success": "145/432", "match": "35/324", "failure": "721/1296"},
        ),
    ]
    table = act(table, "kit", "attack", [1, 1, 3, 3], target="dodger", defence="Agility")
    assert table.state.get("dodger").defences == (("Agility", 8),)
    return act(table, "guard", "block", [4, 4], protect="brawler")


def test_a_defender_tags_an_aspect_for_the_defence() -> None:
    """Tagging and Defence: a defence is a roll like any other, and the defender may tag an
    Aspect for it (option a: a third die, the best two kept). A defence's ``tags`` written as
    JSON were refused ("Input should be a valid array") until issue 13's mutation run found it:
    moll's Weapons 3 + Full Defence 2 + the best two of 1, 1, 6 is 12."""
    table = act(duel(), "moll", "full_defence")
    table = act(
        table,
        "jack",
        "attack",
        [3, 3, 1, 1, 6],
        target="moll",
        defence={"skill": "Weapons", "tags": ["Fencing Mistress"]},
    )
    (parry,) = events(table, "defence.rolled")
    assert (parry["rolled"]["faces"], parry["total"]) == ([1, 1, 6], 12)
    assert [e["character"] for e in events(table, "aspect.tagged")] == ["moll"]


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


def test_a_defence_with_another_skill_stands_beside_the_first() -> None:
    """Defence: a defence "stands until the defender's next turn". jack parries moll with
    Weapons (10), then dodges ann with Agility (3): both stand, and every seat sees both."""
    chars = {
        "moll": {"side": "society", "weapon": "sword", "skills": FIGHTER},
        "ann": {"side": "society", "weapon": "sword", "skills": BRAVO},
        "jack": {"side": "bravoes", "weapon": "sword", "skills": BRAVO},
    }
    table = start({"characters": chars}, 6, 6, 1, 1, 1, 1)
    table = act(table, "moll", "attack", [3, 3, 4, 4], target="jack")  # 9 vs Weapons 10
    table = act(table, "ann", "attack", [6, 3, 1, 1], target="jack", defence="Agility")
    assert [(e["skill"], e["total"]) for e in events(table, "defence.rolled")] == [
        ("Weapons", 10),
        ("Agility", 3),
    ]
    shown = state_json(table.state)["characters"]["jack"]["defences"]
    assert shown == {"Weapons": 10, "Agility": 3}


def test_an_attacks_odds_are_against_the_targets_best_defence_block_and_standing_roll() -> None:
    """Defence, Action: Block (protect), Range, option b: the odds an attack's choice shows are
    against the target's best defence the rules allow. On lee's turn (a pocket pistol, Firearms
    2; only Agility defends a shot): against dodger the 8 that stands; against brawler his
    Agility 2 with the Block's 10 as a floor; against runner, at the pistol's long range,
    Agility 1 with the free tag it gives him — re-rolled under option b, a third die under
    option a. On sam's turn (a sword: dodger's Weapons 2 and Agility 2 tie) the defence is
    the Agility 8 that stands, as an attack with no defence named rolls it."""
    table = _defences("b")
    assert _previews(table) == [
        (
            "Lee attacks Guard",
            "2d6+2 vs 2d6+1",
            {"success": "721/1296", "match": "35/324", "failure": "145/432"},
        ),
        (
            "Lee attacks Dodger",
            "2d6+2 > 8",
            {"success": "7/12", "match": "5/36", "failure": "5/18"},
        ),
        (
            "Lee attacks Brawler",
            "2d6+2 vs 2d6+2 (and a Block of 10)",
            {"success": "295/1296", "match": "10/81", "failure": "841/1296"},
        ),
        (
            "Lee attacks Runner",
            "2d6+2 vs 2d6+1",
            {"success": "8069/23328", "match": "4141/23328", "failure": "1853/3888"},
        ),
    ]
    assert _previews(_defences("a"))[-1] == (
        "Lee attacks Runner",
        "2d6+2 vs 3d6kh2+1",
        {"success": "247/648", "match": "299/2592", "failure": "145/288"},
    )
    table = act(table, "lee", "full_defence")
    assert _previews(table)[1] == (
        "Sam attacks Dodger",
        "2d6+2 > 8",
        {"success": "7/12", "match": "5/36", "failure": "5/18"},
    )
    table = act(table, "sam", "attack", [6, 6], target="dodger")
    assert [e["roll"]["dice"] for e in events(table, "attack.rolled")][-1] == "2d6+2 > 8"


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


def test_a_manoeuvres_target_defends_with_the_skill_he_names() -> None:
    """Defence: jack names Agility against moll's Unbalance, not the Weapons he would
    otherwise defend with (his best)."""
    plain = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    assert events(plain, "defence.rolled")[0]["skill"] == "Weapons"
    named = act(
        duel(),
        "moll",
        "manoeuvre",
        [6, 6, 1, 1],
        target="jack",
        named="unbalance",
        defence="Agility",
    )
    assert events(named, "defence.rolled")[0]["skill"] == "Agility"
