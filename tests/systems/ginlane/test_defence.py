"""Defence (Gin Lane, "Defence", "Default Effective Skill Defences vs Attacks"; RULINGS.md, Social
Defence): which skill defends against what, a defence that stands, and the odds an attack shows.
"""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Table, Viewer
from referee.core.decide import Builder
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE, fighting
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.defence import best_skill
from referee.systems.ginlane.scene import SceneState

from .test_procedure import BRAVO, FIGHTER, act, browbeaten, duel, events, kinds, start

EVEN = {"success": "575/1296", "match": "73/648", "failure": "575/1296"}


def _previews(table: Table[SceneState]) -> list[tuple[str, str, dict[str, str]]]:
    return [
        (p.label, p.dice, dict(p.odds)) for p in PROCEDURE.previews(table.state, Viewer("referee"))
    ]


def _defences(mode: str) -> Table[SceneState]:
    """kit (a cosh), guard, lee (a pocket pistol), sam (a sword) against dodger, brawler and
    runner (three zones off), in this order; kit has attacked dodger (Agility 1 + 1 + 2 = 4
    against 3 + 3 + 2 = 8: gone from the table when guard's Turn begins), and guard protects
    brawler with 4 + 4 + 2 = 10. It is lee's turn."""
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
    assert table.state.get("dodger").defences == ()  # guard's Turn: no longer on the table
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


def test_a_defender_chooses_her_defence_and_the_attack_waits_for_her() -> None:
    """Defence: "Choose a skill to defend with in response to an Attack". moll's attack on jack
    waits: the table asks jack (a blocking prompt) and nobody else may act; he is offered the
    skills the text allows against a sword (his best first), the Aspects he may tag, and the
    odds of each skill side by side as moll has them; declining takes his best skill, no tag.
    He answers Agility, tagging his Gin-Soaked Bravo for a point: 3d6kh2 (1, 1, 6) + 1."""
    table = act(
        duel(jack={"aspects": ["Gin-Soaked Bravo"]}),
        "moll",
        "attack",
        [],
        target="jack",
        answer=False,
    )
    (asked,) = PROCEDURE.prompts(table.state)
    assert (asked.actor, asked.kinds, asked.section, asked.blocking) == (
        "jack",
        ("defend", "concede"),
        "Defence",
        True,
    )
    assert asked.default is not None and asked.default.params == {"skill": "Weapons"}
    assert asked.reason == "Moll attacks Jack with the sword (Weapons): choose a defence"
    assert table.to_move() == ("jack",)
    with pytest.raises(RuleError, match="the table waits for jack to decide"):
        act(table, "moll", "full_defence")
    defend, concede = table.legal_actions("jack")
    assert (defend.kind, defend.prompt, concede.kind) == ("defend", True, "concede")
    assert defend.params["skill"].values == ("Weapons", "Agility")
    assert "Gin-Soaked Bravo" in defend.params["tags"].values
    assert [(o.label, o.dice) for o in defend.odds] == [
        ("Moll attacks; Jack defends with Weapons", "2d6+3 vs 2d6+2"),
        ("Moll attacks; Jack defends with Agility", "2d6+3 vs 2d6+1"),
    ]
    answered = act(
        table,
        "jack",
        "defend",
        [3, 3, 1, 1, 6],
        answer=False,
        skill="Agility",
        tags=["Gin-Soaked Bravo"],
    )
    (dodge,) = events(answered, "defence.rolled")
    assert (dodge["skill"], dodge["rolled"]["faces"], dodge["total"]) == ("Agility", [1, 1, 6], 8)
    assert events(answered, "pool.spent")[-1] == {"character": "jack", "points": 1, "for": "tags"}
    assert answered.state.pending is None


def test_a_defender_may_use_only_a_skill_the_text_allows() -> None:
    """Default Effective Skill Defences vs Attacks: Brawl parries no sword; the refusal names
    the rule, and the attack still waits for an answer it allows."""
    table = act(duel(), "moll", "attack", [], target="jack", answer=False)
    with pytest.raises(RuleError, match="Defence: Brawl can't defend against a Weapons attack"):
        act(table, "jack", "defend", [3, 3, 1, 1], answer=False, skill="Brawl")
    moll = Action("moll", "defend", {"skill": "Agility"})
    with pytest.raises(RuleError, match="Defence: no attack waits for Moll's defence"):
        PROCEDURE.decide(table.state, moll, ScriptedSource([3, 3, 1, 1]))


def test_a_defender_may_concede_before_the_roll_and_is_taken_out() -> None:
    """Taken Out: "The character has lost the will/ability to resist" (Rulings: conceding):
    asked for his defence, jack concedes; no die is rolled, he is Taken Out and the fight is
    over, to moll, who took him out. Conceding with no attack waiting is refused."""
    table = act(duel(), "moll", "attack", [], target="jack", answer=False)
    with pytest.raises(RuleError, match="may concede only before an attack on her is rolled"):
        act(duel(), "jack", "concede")
    done = act(table, "jack", "concede", answer=False)
    assert kinds(done, table.version) == ["conceded", "taken_out", "fight.over"]
    assert events(done, "conceded") == [{"character": "jack", "to": "moll"}]
    assert events(done, "taken_out") == [{"character": "jack", "by": "moll"}]
    assert done.state.get("jack").taken_out and done.state.over


def test_only_an_attacks_target_may_concede_not_its_attacker_nor_a_manoeuvres_target() -> None:
    """Taken Out (Rulings: conceding, "before the attack against her is rolled"): while moll's
    attack waits for jack, moll may not concede it; while her manoeuvre waits for jack's
    defence, jack may not concede: a manoeuvre takes no one out."""
    attacked = act(duel(), "moll", "attack", [], target="jack", answer=False)
    refused = "Taken Out: Moll may concede only before an attack on her is rolled"
    with pytest.raises(RuleError, match=refused):
        PROCEDURE.decide(attacked.state, Action("moll", "concede"), ScriptedSource([]))
    rushed = act(duel(), "moll", "manoeuvre", [], target="jack", named="unbalance", answer=False)
    with pytest.raises(RuleError, match="Taken Out: Jack may concede only before an attack"):
        PROCEDURE.decide(rushed.state, Action("jack", "concede"), ScriptedSource([]))


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
        ("Lee attacks Dodger", "2d6+2 vs 2d6+2", EVEN),
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
    assert _previews(table)[1] == ("Sam attacks Dodger", "2d6+2 vs 2d6+2", EVEN)
    table = act(table, "sam", "attack", [6, 6, 1, 1], target="dodger")
    assert [e["roll"]["dice"] for e in events(table, "attack.rolled")][-1] == "2d6+2 vs 2d6+2"
    assert events(table, "defence.rolled")[-1]["skill"] == "Agility"


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


def test_an_attack_on_a_defence_on_the_table_in_the_same_turn_asks_no_one() -> None:
    """Defence: "Once a particular skill is used for a defence that result remains 'on the
    table' for any further uses of that particular defence in the Turn" (RULINGS.md, Round 3).
    On kit's Turn his fizzled grenade's fuse goes off (7, odd: 7 + Firearms 2 = 9) and jack
    dodges it (2 + 2 + Agility 1 + Full Defence 2 = 7); kit's pistol shot in the same Turn
    meets that 7 on the table: no prompt, only kit's dice (6, 3), and the card says against
    what."""
    line = {"zones": ["a", "b"], "links": [["a", "b"]]}
    chars = {
        "kit": {
            "side": "s",
            "zone": "a",
            "weapon": "pocket pistol",
            "skills": {"Firearms": 2, "Agility": 1, "Alertness": 1},
        },
        "jack": {"side": "b", "zone": "b", "skills": {"Agility": 1}},
    }
    table = start({**line, "characters": chars}, 6, 6, 1, 1)
    table = act(table, "kit", "throw_grenade", [5, 5, 1, 1], zone="b")  # a natural 2: Fizzle
    table = act(table, "jack", "full_defence")
    table = act(table, "kit", "fuse", [4, 3, 2, 2])
    assert table.state.get("jack").standing("Agility") == 7
    shot = act(table, "kit", "attack", [6, 3], target="jack", answer=False)
    new = kinds(shot, table.version)
    assert "attack.declared" not in new and new[:2] == ["attack.rolled", "defence.stands"]
    rolled = events(shot, "attack.rolled")[-1]
    assert (rolled["roll"]["dice"], rolled["total"], rolled["defence"]) == ("2d6+2 > 7", 11, 7)
    assert rolled["roll"]["label"] == "Kit attacks Jack (Firearms against Agility)"
    assert [p.actor for p in PROCEDURE.prompts(shot.state)] == ["jack"]  # the hit: his to take


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


def test_a_manoeuvres_target_chooses_her_defence_and_the_manoeuvre_waits_for_her() -> None:
    """Defence: "Choose a skill to defend with in response to an Attack or Manoeuvre". moll's
    Unbalance (Brawl) on jack waits: the table asks jack alone (no concession offered: a
    manoeuvre takes no one out), with the skills the text allows against Brawl (Weapons, his
    best, then Agility, Brawl) and the odds of each as moll has them; declining takes his best.
    He dodges, Agility 1 + 1 + 1 = 3 against moll's Brawl 1 + 6 + 6 = 13: Off-Balance, and
    the turn passes."""
    table = act(duel(), "moll", "manoeuvre", [], target="jack", named="unbalance", answer=False)
    assert kinds(table)[-1] == "defence.asked" and table.state.current == "moll"
    (asked,) = PROCEDURE.prompts(table.state)
    assert (asked.actor, asked.kinds, asked.section) == ("jack", ("defend",), "Defence")
    assert asked.reason == "Moll's manoeuvre (Brawl): choose a defence"
    assert asked.default is not None and asked.default.params == {"skill": "Weapons"}
    assert table.to_move() == ("jack",)
    held = PROCEDURE.waiting(table.state, "moll")
    assert held is not None
    assert held.reason == "Moll manoeuvres on Jack: the table waits for Jack to choose a defence"
    with pytest.raises(RuleError, match="the table waits for jack to decide"):
        act(table, "moll", "full_defence")
    (defend,) = table.legal_actions("jack")
    assert defend.params["skill"].values == ("Weapons", "Agility", "Brawl")
    assert [(o.label, o.dice) for o in defend.odds] == [
        ("Moll's manoeuvre; Jack defends with Weapons", "2d6+1 vs 2d6+2"),
        ("Moll's manoeuvre; Jack defends with Agility", "2d6+1 vs 2d6+1"),
        ("Moll's manoeuvre; Jack defends with Brawl", "2d6+1 vs 2d6-2"),
    ]
    done = act(table, "jack", "defend", [6, 6, 1, 1], answer=False, skill="Agility")
    (dodge,) = events(done, "defence.rolled")
    assert (dodge["character"], dodge["skill"], dodge["total"]) == ("jack", "Agility", 3)
    assert [a.name for a in done.state.aspects] == ["Off-Balance"]
    assert done.state.pending is None and done.state.current == "jack"


def test_a_manoeuvre_against_a_difficulty_asks_no_one() -> None:
    """Manoeuvres: against a difficulty (Take Aim on the unaware, ruling 17) there is no
    defence to choose: the manoeuvre is rolled at once."""
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [6, 6],
        target="jack",
        named="blind",
        difficulty=7,
        answer=False,
    )
    assert PROCEDURE.prompts(table.state) == () and "defence.asked" not in kinds(table)
    assert [a.name for a in table.state.aspects] == ["Blinded"]


def test_an_attack_meets_the_dodge_on_the_table_not_a_fresh_parry_with_a_better_skill() -> None:
    """Defence: "that result remains 'on the table' for any further uses of that particular
    defence in the Turn" (RULINGS.md, Round 3): jack dodged with 5 earlier in moll's Turn; her
    sword meets that 5 — though his Weapons 2 is his best skill against a sword, he rolls no
    fresh parry: 3 + 3 + Weapons 3 = 9 hits him for 9 − 5 + 2 = 6."""
    b = Builder(duel().state, PROCEDURE.evolve)
    dodged = {"character": "jack", "skill": "Agility", "total": 5, "full_defence": False}
    b.emit("defence.rolled", {**dodged, "rolled": {}})
    fighting.attack(b, Action("moll", "attack", {"target": "jack"}), ScriptedSource([3, 3]))
    assert [e.kind for e in b.events[1:]] == ["attack.rolled", "defence.stands", "hit.landed"]
    assert (b.events[1].data["defence_skill"], b.events[1].data["defence"]) == ("Agility", 5)
    assert b.events[3].data["stress"] == 6


@pytest.mark.parametrize(
    ("weapon", "standing", "jack"),
    [
        ("sword", "Weapons", {"Weapons": 1, "Agility": 2, "Alertness": 1}),
        ("knife", "Brawl", {"Weapons": 2, "Brawl": 1, "Agility": 1}),
        ("pocket pistol", "Resolve", {"Agility": 2, "Resolve": 1, "Alertness": 1}),
    ],
)
def test_an_attack_meets_the_defence_on_the_table_that_may_meet_it_though_another_is_better(
    weapon: str, standing: str, jack: dict[str, int]
) -> None:
    """Defence: the defence on the table is met whichever skill it is, if it may meet the
    attack ("Weapons can defend against Weapons"; "Brawl [...] against [...] Weapons attack
    with small items such as knives"; Resolve against an attack on Composure): jack parried a
    sword with Weapons, a knife with Brawl, or held his nerve under a pistol aimed at his
    Composure with Resolve, for 5 earlier in moll's Turn; her next blow or shot meets that 5,
    not a fresh roll with his better Agility or Weapons."""
    b = Builder(duel(moll={"weapon": weapon}, jack={"skills": jack}).state, PROCEDURE.evolve)
    parried = {"character": "jack", "skill": standing, "total": 5, "full_defence": False}
    b.emit("defence.rolled", {**parried, "rolled": {}})
    track = "Composure" if standing == "Resolve" else "Health"
    blow = Action("moll", "attack", {"target": "jack", "track": track})
    fighting.attack(b, blow, ScriptedSource([6, 6]))
    assert [e.kind for e in b.events[1:]] == ["attack.rolled", "defence.stands", "hit.landed"]
    assert (b.events[1].data["defence_skill"], b.events[1].data["defence"]) == (standing, 5)


def test_a_weapons_manoeuvre_is_met_by_a_parry_or_a_dodge_never_by_brawl() -> None:
    """Defence ("Brawl [...] against [...] Weapons attack with small items"): a Weapons
    manoeuvre is no small weapon's blow, so jack (Brawl 1) is offered Weapons and Agility
    against moll's Unbalance with the sword, not Brawl."""
    jack = {"skills": {**BRAVO, "Brawl": 1}, "experience": 7}
    table = act(
        duel(jack=jack),
        "moll",
        "manoeuvre",
        [],
        target="jack",
        named="unbalance",
        skill="Weapons",
        answer=False,
    )
    (defend,) = table.legal_actions("jack")
    assert defend.params["skill"].values == ("Weapons", "Agility")


def test_a_defender_who_declines_defends_with_the_best_skill_her_prompt_offers_first() -> None:
    """Defence (Rulings: declining takes her best allowed skill): against moll's Intimidation
    jack's Resolve and Charm tie at 2 above his Agility and Empathy 1; the skill his prompt
    offers first and takes if he declines is the one an attack with no defence named rolls —
    Resolve, the first of the tied in the text's order — then the others by level, then name."""
    skills = {"Resolve": 2, "Charm": 2, "Empathy": 1, "Agility": 1, "Alertness": 1}
    social = {"skills": skills, "experience": 10}
    table = act(
        duel(jack=social), "moll", "attack", [], target="jack", skill="Intimidation", answer=False
    )
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.default is not None and asked.default.params == {"skill": "Resolve"}
    defend, _ = table.legal_actions("jack")
    assert defend.params["skill"].values == ("Resolve", "Charm", "Agility", "Empathy")
    declined = act(table, "jack", "defend", [1, 1, 1, 1], answer=False, **asked.default.params)
    assert events(declined, "defence.rolled")[0]["skill"] == "Resolve"
    assert best_skill(table.state.get("jack"), "Intimidation", False, None) == "Resolve"


def test_a_full_defence_adds_two_to_the_defence_the_target_is_offered() -> None:
    """Action: Full defence: moll's Full defence (+2) is in each defence she is offered against
    jack's sword and in its odds: Weapons 3 + 2, Agility 2 + 2; her dodge is recorded as made on
    Full defence."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [], target="moll", answer=False)
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.reason.endswith("choose a defence (Full defence: +2)")
    defend, _ = table.legal_actions("moll")
    assert [o.dice for o in defend.odds] == ["2d6+2 vs 2d6+5", "2d6+2 vs 2d6+4"]
    done = act(table, "moll", "defend", [1, 1, 1, 1], answer=False, skill="Agility")
    (dodge,) = events(done, "defence.rolled")
    assert (dodge["total"], dodge["full_defence"]) == (6, True)


@pytest.mark.parametrize("mode", ["a", "b"])
def test_the_defence_a_target_is_offered_has_the_odds_the_attacker_was_shown(mode: str) -> None:
    """Defence, Action: Block (protect), Range, options a and b: brawler, protected by guard's
    Block of 10, and runner, at the pocket pistol's long range (a free tag for his defence),
    are each offered their Agility against lee's shot with the same dice and odds lee's attack
    showed: the Block's floor, and the free tag as a third die (option a) or a re-roll (b)."""
    table = _defences(mode)
    shown = {label: (dice, odds) for label, dice, odds in _previews(table)}
    for target in ("brawler", "runner"):
        waiting = act(table, "lee", "attack", [], target=target, answer=False)
        (defend, _) = waiting.legal_actions(target)
        (odds,) = defend.odds
        assert odds.label == f"Lee attacks; {target.title()} defends with Agility"
        assert (odds.dice, dict(odds.odds)) == shown[f"Lee attacks {target.title()}"]


def test_two_defences_with_different_skills_both_stay_on_the_table_in_the_turn() -> None:
    """Defence (RULINGS.md, Round 3): each defence stays on the table for further uses of that
    particular defence in the Turn: jack's dodge for 5 and his parry for 7 later in moll's Turn
    both stand, each for its own skill; a defence rolled again in its skill stands at its new
    total."""
    b = Builder(duel().state, PROCEDURE.evolve)
    for skill, total in (("Agility", 5), ("Weapons", 7), ("Agility", 4)):
        rolled = {"character": "jack", "skill": skill, "total": total, "full_defence": False}
        b.emit("defence.rolled", {**rolled, "rolled": {}})
    assert b.state.get("jack").defences == (("Weapons", 7), ("Agility", 4))
    assert b.state.pending is None


def test_what_waits_for_a_defence_is_shown_as_declared_with_nothing_it_lacks() -> None:
    """Defence: what waits for its target's answer is in the scene as it was declared — who,
    against whom, the kind, skill and modifier: moll's Unbalance (Brawl) on jack, with no
    weapon and no stress track, as a manoeuvre has neither; her sword's blow on jack, no fizzled
    grenade's fuse (after which the turn would not pass); kit's grenade's blast on bob, with
    its track and no modifier of its own (its attack is a known total)."""
    table = act(duel(), "moll", "manoeuvre", [], target="jack", named="unbalance", answer=False)
    assert PROCEDURE.state_json(table.state)["pending"] == {
        "attacker": "moll",
        "target": "jack",
        "skill": "Brawl",
        "weapon": "",
        "track": "",
        "modifier": 0,
        "params": '{"named": "unbalance", "target": "jack"}',
        "kind": "manoeuvre",
        "fuse": False,
    }
    attack = act(duel(), "moll", "attack", [], target="jack", answer=False)
    pending = PROCEDURE.state_json(attack.state)["pending"]
    assert (pending["kind"], pending["weapon"], pending["track"], pending["fuse"]) == (
        "attack",
        "sword",
        "Health",
        False,
    )
    setup = {
        "zones": ["a", "b"],
        "links": [["a", "b"]],
        "characters": {
            "kit": {"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
            "bob": {"side": "m", "zone": "b", "skills": {"Agility": 1}},
        },
    }
    blast = act(
        start(setup, 6, 6, 1, 1), "kit", "throw_grenade", [5, 5, 4, 4], zone="b", answer=False
    )
    pending = PROCEDURE.state_json(blast.state)["pending"]
    assert (pending["kind"], pending["track"], pending["modifier"], pending["weapon"]) == (
        "blast",
        "Composure",
        0,
        "",
    )


def test_a_shot_at_ones_composure_is_met_by_resolve_when_it_is_her_best() -> None:
    """Default Effective Skill Defences vs Attacks (Resolve against an attack on Composure):
    moll's pistol aimed at jack's Composure may be met by his Resolve 2 or his Agility 1; his
    prompt offers Resolve first, and takes it if he declines."""
    jack = {"skills": {"Resolve": 2, "Agility": 1, "Alertness": 1}}
    table = act(
        duel(moll={"weapon": "pocket pistol"}, jack=jack),
        "moll",
        "attack",
        [],
        target="jack",
        track="Composure",
        answer=False,
    )
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.default is not None and asked.default.params == {"skill": "Resolve"}
    defend, _ = table.legal_actions("jack")
    assert defend.params["skill"].values == ("Resolve", "Agility")


def test_spin_is_placed_on_the_roller_by_the_defender_free_for_her_side_until_his_turn() -> None:
    """Success Levels: a defence that beats the roll by 4 or more gets spin: moll, on Full
    defence, parries jack's 4 with 11; the Aspect is on jack, set by moll, its free tag for her
    side, until jack's next turn."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [1, 1, 3, 3], target="moll")  # 4 vs 11: spin
    (placed,) = events(table, "aspect.placed")
    assert {k: placed[k] for k in ("on", "setter", "free_side", "until_turn_of")} == {
        "on": "jack",
        "setter": "moll",
        "free_side": "society",
        "until_turn_of": "jack",
    }
    assert events(table, "spin") == [{"character": "moll", "against": "jack"}]


def test_a_defence_choice_names_what_it_answers_and_its_odds_name_the_rule() -> None:
    """Defence: jack's choice names what it answers — moll's Weapons attack, or her
    manoeuvre — and each of its odds is under "Defence"; against the attack he may concede
    before the roll, Taken Out (Rulings: conceding)."""
    attack = act(duel(), "moll", "attack", [], target="jack", answer=False)
    defend, concede = attack.legal_actions("jack")
    assert (defend.actor, defend.label) == ("jack", "defend against Moll's Weapons attack")
    assert (concede.actor, concede.label) == ("jack", "concede before the roll: Taken Out")
    assert {o.rule for o in defend.odds} == {"Defence"}
    manoeuvre = act(duel(), "moll", "manoeuvre", [], target="jack", named="unbalance", answer=False)
    (defend,) = manoeuvre.legal_actions("jack")
    assert defend.label == "defend against Moll's manoeuvre"


def test_an_attacks_odds_on_a_tie_of_skills_are_against_the_dodge_on_the_table() -> None:
    """Defence ("that result remains 'on the table'", RULINGS.md, Round 3): bob's Agility 1 and
    Weapons 1 tie against kit's pole-arm; his dodge of kit's fizzled grenade (3 + 3 + 1 + 2 =
    9) stands in her Turn, so her attack's choice shows its odds against that 9, not against a
    fresh parry — the check her attack then rolls, Agility against her 2d6+1."""
    setup = {
        "zones": ["a", "b"],
        "links": [["a", "b"]],
        "characters": {
            "kit": {
                "side": "s",
                "zone": "a",
                "weapon": "pole-arm",
                "skills": {"Agility": 1, "Firearms": 1, "Weapons": 1},
            },
            "bob": {"side": "m", "zone": "b", "skills": {"Agility": 1, "Weapons": 1}},
        },
    }
    table = start(setup, 6, 6, 1, 1)
    table = act(table, "kit", "throw_grenade", [4, 4, 1, 1], zone="b")  # natural 2: a Fizzle
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [4, 3], answer=False)  # odd: 7 + 1 = 8
    table = act(table, "bob", "defend", [3, 3], skill="Agility")
    assert table.state.current == "kit" and table.state.get("bob").defences == (("Agility", 9),)
    odds = {"success": "5/18", "match": "5/36", "failure": "7/12"}
    assert _previews(table) == [("Kit attacks Bob", "2d6+1 > 9", odds)]
    done = act(table, "kit", "attack", [6, 6], target="bob")
    (rolled,) = events(done, "attack.rolled")
    assert (rolled["roll"]["dice"], rolled["defence_skill"], rolled["odds"]) == (
        "2d6+1 > 9",
        "Agility",
        odds,
    )


def test_words_waiting_for_a_defence_are_logged_against_composure_with_their_parameters() -> None:
    """Action: Attack, Defence, Social Defence (RULINGS.md): jack's browbeating of moll (his
    untrained Intimidation claimed as related) waits for her answer; the log records it as an
    attack on her Composure, with its parameters as JSON, keys sorted, for the answer to roll."""
    table = browbeaten(act(duel(), "moll", "full_defence"))
    assert events(table, "attack.declared") == [
        {
            "character": "jack",
            "target": "moll",
            "skill": "Intimidation",
            "weapon": "sword",
            "track": "Composure",
            "modifier": 0,
            "params": '{"related": true, "skill": "Intimidation", "target": "moll"}',
        }
    ]
