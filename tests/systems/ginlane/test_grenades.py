"""Grenades (Gin Lane, "Grenades", "Fizzle"): the throw against 7, the dodge, the blast, the
consequence chosen, and a fizzled fuse rolled on the thrower's turn.
"""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.scene import SceneState

from .helpers import _menu, _said, _thrower
from .test_procedure import act, events, kinds, scene, start


def _grenade_scene(mode: str = "a", **bob: Any) -> Table[SceneState]:
    """kit (Agility 1, Firearms 1) in zone a, bob (Agility 1) in zone b; kit acts first."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "b", "skills": {"Agility": 1}, **bob},
    )
    return start(setup, 6, 6, 1, 1, mode=mode)


def test_a_grenade_is_dodged_with_full_defence_only_by_those_on_it() -> None:
    """Grenades and Action: Full defence ("+2 on defensive rolls against attack or
    manoeuvre"): against a grenade thrown 5+5+1 = 11 and attacking 4+4+1 = 9, bob's dodge of
    3+3 with Agility 1 is 7 — 9 with Full Defence."""
    table = _grenade_scene()
    plain = act(table, "kit", "throw_grenade", [5, 5, 4, 4, 3, 3], zone="b")
    (dodge,) = events(plain, "defence.rolled")
    assert (dodge["total"], dodge["full_defence"]) == (7, False)
    table = act(table, "kit", "full_defence")
    table = act(table, "bob", "full_defence")
    braced = act(table, "kit", "throw_grenade", [5, 5, 4, 4, 3, 3], zone="b")
    (dodge,) = events(braced, "defence.rolled")
    assert (dodge["total"], dodge["full_defence"]) == (9, True)


def test_a_grenade_defence_that_matches_the_attack_spends_no_tag() -> None:
    """Grenades, Tagging (option b, Rulings): a defence need only not be beaten; bob's dodge
    of 4+4+1 = 9 matches the attack of 9 and holds — the tag he offered is not used, and the
    Match costs him the grenade's damage bonus only (Composure, not On Target)."""
    table = _grenade_scene("b", aspects=["Nimble"], experience=6)
    table = act(
        table,
        "kit",
        "throw_grenade",
        [5, 5, 4, 4, 4, 4, 6],
        zone="b",
        defences={"bob": {"skill": "Agility", "tags": ["Nimble"]}},
    )
    (dodge,) = events(table, "defence.rolled")
    assert dodge["total"] == 9 and dodge["roll"]["outcome"] == "held"
    assert not events(table, "pool.spent") and not events(table, "aspect.tagged")
    (hit,) = events(table, "stress.taken")
    assert (hit["character"], hit["track"], hit["stress"]) == ("bob", "Composure", 2)


def test_a_grenade_victims_chosen_consequence_is_taken() -> None:
    """Grenades and Consequences: a victim of the blast names a consequence against the hit
    (thrown 6+6+1, attacking 6+5+1 = 12 against a dodge of 1+1+1 = 3: 9 + 2 stress)."""
    table = act(
        _grenade_scene(),
        "kit",
        "throw_grenade",
        [6, 6, 6, 5, 1, 1],
        zone="b",
        consequences={"bob": [{"severity": "moderate", "aspect": "Shell-Shocked"}]},
    )
    (taken,) = table.state.get("bob").consequences.taken
    assert (taken.severity, taken.aspect) == ("moderate", "Shell-Shocked")


def test_the_fuse_card_says_phut_on_even_and_goes_off_on_odd() -> None:
    """Fizzle: "An EVEN dice result is a 'phut' - the fuse goes out. An Odd roll is adjudicated
    as a normal Firearms attack": the fuse's roll card says which, in the text's words."""
    table = _grenade_scene()
    table = act(table, "kit", "throw_grenade", [4, 4, 1, 1], zone="b")  # natural 2: a Fizzle
    table = act(table, "bob", "full_defence")
    phut = act(table, "kit", "fuse", [3, 3])
    (fuse,) = events(phut, "grenade.fuse")
    assert (fuse["goes_off"], fuse["roll"]["outcome"]) == (False, "phut")
    bang = act(table, "kit", "fuse", [3, 4, 1, 1])
    (fuse,) = events(bang, "grenade.fuse")
    assert (fuse["goes_off"], fuse["roll"]["outcome"]) == (True, "goes off")
    assert events(bang, "defence.rolled")


def test_a_grenade_thrown_on_target_is_recorded_with_its_tags_draw_and_harder_throw() -> None:
    """Grenades: "Agility roll vs difficulty 7", harder through a door (``harder: 1``), with a
    weapon drawn (−1) and a paid tag: 6, 5, 1 keeps 11, − 1 − 1 + Agility 1 = 10, an excess of
    3: On Target on bob, free for kit's side; the one Firearms attack tags it (free) and Steady
    Hand (paid): 3, 2, 1, 1 keeps 5 + 1 = 6, which bob's dodge of 4 + 1 + 1 matches — On
    Target's Health, the grenade's bonus of 2 only."""
    table = act(
        _thrower(),
        "kit",
        "throw_grenade",
        [6, 5, 1, 3, 2, 1, 1, 4, 1],
        zone="b",
        on_target="bob",
        draw="knife",
        tags=["Steady Hand"],
        harder=1,
        attack_tags=["Steady Hand"],
    )
    assert events(table, "weapon.drawn") == [{"character": "kit", "weapon": "knife"}]
    assert [(e["character"], e["aspect"], e["free"]) for e in events(table, "aspect.tagged")] == [
        ("kit", "Steady Hand", False),
        ("kit", "On Target", True),
        ("kit", "Steady Hand", False),
    ]
    assert [e["points"] for e in events(table, "pool.spent")] == [1, 1]
    (thrown,) = events(table, "grenade.thrown")
    odds = {"success": "113/216", "match": "17/108", "failure": "23/72"}
    assert {k: thrown[k] for k in ("character", "zone", "distance", "margin", "odds")} == {
        "character": "kit",
        "zone": "b",
        "distance": 1,
        "margin": 3,
        "odds": odds,
    }
    assert "on_target_missed" not in thrown  # an excess of 3 is On Target's "3+": not missed
    card = thrown["roll"]
    assert (card["label"], card["rule"], card["dice"], card["odds"], card["value"]) == (
        "Kit throws a grenade into b",
        "Grenades",
        "3d6kh2-1 > 7",
        odds,
        10,
    )
    (placed,) = events(table, "aspect.placed")
    assert (placed["name"], placed["on"], placed["setter"], placed["free_side"]) == (
        "On Target",
        "bob",
        "kit",
        "s",
    )
    (attack,) = events(table, "grenade.attack")
    assert (attack["character"], attack["zone"], attack["odds"]) == (
        "kit",
        "b",
        {"fizzle": "5/1296"},
    )
    assert (attack["rolled"]["faces"], attack["rolled"]["total"]) == ([3, 2, 1, 1], 6)
    card = attack["roll"]
    assert (card["label"], card["rule"], card["dice"], card["outcome"], card["odds"]) == (
        "Kit's grenade attacks everyone in b (Firearms)",
        "Grenades",
        "4d6kh2+1",
        "attack",
        {"fizzle": "5/1296", "attack": "1291/1296"},
    )
    (hit,) = events(table, "stress.taken")
    assert (hit["character"], hit["track"], hit["stress"]) == ("bob", "Health", 2)


def test_a_grenade_that_matches_seven_arrives_and_a_fizzle_keeps_its_target() -> None:
    """Grenades (RULINGS: "a Match arrives") and Fizzle ("A natural Attack roll of 2 or 3"): a
    throw of 3 + 3 + 1 = 7 arrives and fizzles on 1, 1 with no target; one On Target (6, 5, 1 + 1
    = 12) fizzles keeping bob as its target, its card saying "fizzle"."""
    table = _thrower()
    matched = act(table, "kit", "throw_grenade", [3, 3, 1, 1], zone="b")
    assert not events(matched, "grenade.astray")
    assert events(matched, "grenade.fizzled") == [
        {"character": "kit", "zone": "b", "on_target": None}
    ]
    aimed = act(
        table,
        "kit",
        "throw_grenade",
        [6, 5, 1, 1, 1, 1],
        zone="b",
        on_target="bob",
        tags=["Steady Hand"],
    )
    assert events(aimed, "grenade.fizzled") == [
        {"character": "kit", "zone": "b", "on_target": "bob"}
    ]
    (attack,) = events(aimed, "grenade.attack")
    assert (attack["roll"]["outcome"], attack["roll"]["odds"]) == (
        "fizzle",
        {"fizzle": "1/54", "attack": "53/54"},
    )
    astray = act(table, "kit", "throw_grenade", [3, 2], zone="b")
    assert events(astray, "grenade.astray") == [{"character": "kit", "zone": "b"}]


def test_a_grenade_thrown_with_a_related_skill_rolls_at_nothing() -> None:
    """No Relevant Skill: a related skill rolls at 0, not −2 — bob, with no Agility, throws 3 +
    4 + 0 = 7 and the grenade arrives (a Match, RULINGS); unrelated (−2) it would go astray."""
    setup = scene(
        kit={"side": "s", "zone": "b", "skills": {"Agility": 1}},
        bob={"side": "m", "zone": "a"},
    )
    table = start(setup, 1, 1, 6, 6)  # bob first
    related = act(table, "bob", "throw_grenade", [3, 4, 4, 4, 1, 1], zone="b", related=True)
    (thrown,) = events(related, "grenade.thrown")
    assert (thrown["rolled"]["total"], thrown["outcome"]) == (7, "match")
    assert not events(related, "grenade.astray")
    plain = act(table, "bob", "throw_grenade", [3, 4], zone="b")
    assert events(plain, "grenade.astray") == [{"character": "bob", "zone": "b"}]


def test_a_fizzled_grenade_lies_no_longer_than_its_scene() -> None:
    """Grenades: kit's grenade fizzles in zone b; at the end of the scene it is gone."""
    fizzled = act(_thrower(), "kit", "throw_grenade", [3, 3, 1, 1], zone="b")
    assert fizzled.state.fizzles != ()
    assert act(fizzled, "referee", "end_scene").state.fizzles == ()


def test_a_fizzled_grenade_on_target_that_goes_off_hurts_its_target_in_health() -> None:
    """Grenades: "Health stress On Target, Composure else" — kit's grenade On Target on bob
    fizzles; when its fuse goes off (3 + 4, odd) bob, still its target, takes Health stress."""
    table = act(
        _thrower(),
        "kit",
        "throw_grenade",
        [6, 5, 1, 1, 1, 1],
        zone="b",
        on_target="bob",
        tags=["Steady Hand"],
    )
    assert [f.on_target for f in table.state.fizzles] == ["bob"]
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [3, 4, 1, 1])
    assert events(table, "grenade.fuse")[0]["goes_off"] is True
    assert [(h["character"], h["track"]) for h in events(table, "stress.taken")] == [
        ("bob", "Health")
    ]


def test_a_thrower_whose_grenade_fizzled_is_offered_only_its_fuse_on_their_turn() -> None:
    """Grenades, the Fizzle: kit's grenade into b fizzles (4 + 4 even, then 1 + 1); on her next
    turn she must roll its fuse before anything else: her only Full Action is the fuse (her
    any-time actions stay open)."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}, "pool": 1},
        bob={"side": "m", "zone": "b"},
    )
    table = act(start(setup, 6, 6, 1, 1), "kit", "throw_grenade", [4, 4, 1, 1], zone="b")
    assert kinds(table)[-2:] == ["grenade.fizzled", "turn.started"]
    table = act(table, "bob", "full_defence")
    assert [(kind, label) for kind, label, _ in _menu(table, "kit")] == [
        ("fuse", "the fizzled grenade's fuse"),
        ("declare", "a Declaration covered by an Aspect, for a point"),
        ("maintain", "Maintenance: points paid to run an Aspect"),
    ]


def test_a_grenade_dodge_is_carded_and_a_dodge_short_of_the_attack_is_beaten() -> None:
    """Grenades: bob dodges the attack of 4 + 4 + Firearms 1 = 9 with 3 + 3 + Agility 1 = 7:
    his roll's card says whose defence it is, against what, under "Grenades", and "beaten"."""
    table = act(_grenade_scene(), "kit", "throw_grenade", [5, 5, 4, 4, 3, 3], zone="b")
    (dodge,) = events(table, "defence.rolled")
    card = dodge["roll"]
    assert (card["label"], card["rule"], card["outcome"], card["value"]) == (
        "Bob defends against the grenade (Agility against 9)",
        "Grenades",
        "beaten",
        7,
    )


def test_a_grenade_victim_tags_an_aspect_for_the_dodge_and_pays_for_it() -> None:
    """Grenades and Tagging (option a): bob tags his Nimble for the dodge — three dice, the best
    two kept (3 + 3 of 3, 3, 2) + Agility 1 = 7 — and pays a point for it."""
    table = act(
        _grenade_scene(aspects=["Nimble"], experience=6),
        "kit",
        "throw_grenade",
        [5, 5, 4, 4, 3, 3, 2],
        zone="b",
        defences={"bob": {"skill": "Agility", "tags": ["Nimble"]}},
    )
    (dodge,) = events(table, "defence.rolled")
    assert (dodge["roll"]["faces"], dodge["total"]) == ([3, 3, 2], 7)
    assert [(e["character"], e["aspect"], e["free"]) for e in events(table, "aspect.tagged")] == [
        ("bob", "Nimble", False)
    ]
    assert [(e["character"], e["points"]) for e in events(table, "pool.spent")] == [("bob", 1)]


def test_a_fuse_that_goes_off_attacks_with_its_dice_and_keeps_the_grenade_on_target() -> None:
    """Fizzle: kit's grenade On Target on bob fizzles; on kit's next turn the fuse shows an odd
    3 + 4 (even or odd, one chance in two each): a normal Firearms attack of 7 + 1 = 8, On
    Target still — bob (on Full Defence) dodges 2 + 1 + 1 + 2 = 6 and takes 8 − 6 + 2 Health
    stress. The fuse's roll is recorded with its zone, dice, card and odds."""
    table = act(
        _thrower(),
        "kit",
        "throw_grenade",
        [6, 5, 1, 1, 1, 1],
        zone="b",
        on_target="bob",
        tags=["Steady Hand"],
    )
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [3, 4, 2, 1])
    (fuse,) = events(table, "grenade.fuse")
    assert (fuse["zone"], fuse["rolled"]["faces"], fuse["rolled"]["total"]) == ("b", [3, 4], 8)
    card = fuse["roll"]
    assert (card["label"], card["rule"], card["outcome"], card["odds"]) == (
        "Kit's fizzled grenade in b: the fuse",
        "Grenades",
        "goes off",
        {"goes off": "1/2", "phut": "1/2"},
    )
    (dodge,) = events(table, "defence.rolled")
    assert (dodge["roll"]["faces"], dodge["total"]) == ([2, 1], 6)
    (hit,) = events(table, "stress.taken")
    assert (hit["character"], hit["track"], hit["stress"]) == ("bob", "Health", 4)


def test_on_target_asked_for_and_missed_is_said_not_dropped() -> None:
    """Grenades: "An excess of 3+, allows the thrower to apply an On Target free-taggable
    Aspect". kit's throw into b, 3 + 3 + Agility 1 = 7 against 7, arrives (a Match) with no
    excess: the On Target he asked for on bob is not placed, and the log says so. His page
    offers On Target for whoever stands in the zone he throws into."""
    table = _thrower()
    (throw,) = [c for c in table.legal_actions("kit") if c.kind == "throw_grenade"]
    assert throw.params["on_target"].to_json()["cases"] == [
        ["a", {"one_of": ["kit"]}],
        ["b", {"one_of": ["bob"]}],
    ]
    done = act(table, "kit", "throw_grenade", [3, 3, 4, 4, 1, 1], zone="b", on_target="bob")
    (thrown,) = events(done, "grenade.thrown")
    assert thrown["on_target_missed"] == "bob"
    assert "bob is not On Target (an excess of 3 is needed)" in _said("grenade.thrown", thrown)
    assert not [a for a in done.state.aspects if a.name == "On Target"]


def test_each_in_the_blast_chooses_a_defence_in_turn_and_takes_the_hit() -> None:
    """Grenades ("make a single Firearms attack against everyone in the Zone") and Defence
    ("Choose a skill to defend with in response to an Attack"): kit's grenade (thrown 5+5+1,
    attacking 4+4+1 = 9) asks bob, then sal, for a defence — Agility or Resolve against
    Composure, best first — and each takes the hit (or Consequences) before the next is asked.
    bob dodges 3+3+1 = 7: 2 + 2 = 4 Composure stress; sal stands firm on Resolve 6+6+2 = 14.
    Only then does the turn pass."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "b", "skills": {"Agility": 1}},
        sal={"side": "m", "zone": "b", "skills": {"Agility": 1, "Alertness": 1, "Resolve": 2}},
    )
    table = start(setup, 6, 6, 1, 1, 1, 1)
    table = act(table, "kit", "throw_grenade", [5, 5, 4, 4], zone="b", answer=False)
    assert events(table, "grenade.blast") == [
        {
            "character": "kit",
            "zone": "b",
            "attack": 9,
            "on_target": None,
            "victims": ["bob", "sal"],
            "fuse": False,
        }
    ]
    (asked,) = PROCEDURE.prompts(table.state)
    assert (asked.actor, asked.kinds) == ("bob", ("defend",))
    held = PROCEDURE.waiting(table.state, "kit")
    assert held is not None and held.reason.startswith("Kit's grenade goes off: the table waits")
    assert asked.reason == "Kit's grenade attacks Bob with 9 (Composure): choose a defence"
    (defend,) = table.legal_actions("bob")
    assert defend.params["skill"].values == ("Agility", "Resolve")
    assert next((o.label, o.dice) for o in defend.odds) == (
        "Kit's grenade; Bob defends with Agility",
        "2d6+1 > 9",
    )
    table = act(table, "bob", "defend", [3, 3], answer=False, skill="Agility")
    assert [p.actor for p in PROCEDURE.prompts(table.state)] == ["bob"]  # his hit first
    assert table.state.current == "kit"
    table = act(table, "bob", "absorb", answer=False, consequences=[])
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.actor == "sal" and asked.default is not None
    assert asked.default.params == {"skill": "Resolve"}  # her best
    table = act(table, "sal", "defend", [6, 6], answer=False, skill="Resolve")
    assert [(e["character"], e["stress"]) for e in events(table, "stress.taken")] == [("bob", 4)]
    assert table.state.blast is None and table.state.current == "bob"


def test_a_fuses_blast_answered_leaves_the_thrower_her_full_action() -> None:
    """Fizzle: the fuse is rolled on the thrower's turn, before her Full Action (ruling 20):
    bob's defence and his hit answered, it is still kit's turn."""
    table = _grenade_scene()
    table = act(table, "kit", "throw_grenade", [4, 4, 1, 1], zone="b")  # natural 2: a Fizzle
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [4, 3, 1, 1], answer=False)  # odd: 7 + 1 = 8
    assert [p.actor for p in PROCEDURE.prompts(table.state)] == ["bob"]
    table = act(table, "bob", "defend", [1, 1], answer=False, skill="Agility")  # 1+1+1+2 = 5
    table = act(table, "bob", "absorb", answer=False, consequences=[])
    assert events(table, "stress.taken")[-1]["stress"] == 5
    assert table.state.current == "kit" and table.state.hit is None
    assert "full_defence" in [c.kind for c in table.legal_actions("kit")]


def test_a_fuses_blast_dodged_leaves_the_thrower_her_full_action() -> None:
    """Fizzle (ruling 20): the fuse is rolled before the thrower's Full Action, so a blast that
    hits no one ends nothing either: bob dodges kit's fuse (6 + 6 + Agility 1 + Full Defence 2
    = 15 against 8) and it is still kit's turn, her Full Action hers to take."""
    table = _grenade_scene()
    table = act(table, "kit", "throw_grenade", [4, 4, 1, 1], zone="b")  # natural 2: a Fizzle
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [4, 3, 1, 1], answer=False)  # odd: 7 + 1 = 8
    table = act(table, "bob", "defend", [6, 6], answer=False, skill="Agility")
    assert not events(table, "stress.taken") and table.state.hit is None
    assert table.state.current == "kit" and table.state.blast is None
    assert "full_defence" in [c.kind for c in table.legal_actions("kit")]


def test_a_blast_victim_in_full_defence_is_offered_agility_first_on_a_tie_plus_two() -> None:
    """Grenades ("who defend on Agility [...] or perhaps Resolve") and Action: Full defence
    ("+2 on defensive rolls"): bob, Agility 1 and Resolve 1, in Full defence, is offered
    Agility first on the tie, its odds against the blast's 9 with his +2: 2d6+1+2 > 9."""
    table = act(_grenade_scene(skills={"Agility": 1, "Resolve": 1}), "kit", "full_defence")
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "throw_grenade", [5, 5, 4, 4], zone="b", answer=False)
    (defend,) = table.legal_actions("bob")
    assert defend.params["skill"].values == ("Agility", "Resolve")
    assert [o.dice for o in defend.odds] == ["2d6+3 > 9", "2d6+3 > 9"]


def test_a_blast_with_no_one_on_target_is_shown_waiting_with_no_on_target() -> None:
    """Grenades ("Health for those On Target, Composure for the rest"): kit's grenade, thrown
    with no On Target, waits for bob's defence; the scene as shown names its thrower, zone,
    attack and the victims left, and no one On Target (not the word "None")."""
    table = act(_grenade_scene(), "kit", "throw_grenade", [5, 5, 4, 4], zone="b", answer=False)
    assert PROCEDURE.state_json(table.state)["blast"] == {
        "thrower": "kit",
        "zone": "b",
        "attack": 9,
        "on_target": None,
        "left": ["bob"],
        "fuse": False,
    }


def test_under_option_b_a_blasts_defence_shows_no_odds() -> None:
    """Ruling 4: under option b a blast's defence re-rolls to reach the attack's total, which
    no check previews: its choice carries the skills and no odds (rather than wrong ones)."""
    table = act(_grenade_scene("b"), "kit", "throw_grenade", [5, 5, 4, 4], zone="b", answer=False)
    (defend,) = table.legal_actions("bob")
    assert defend.params["skill"].values == ("Agility", "Resolve") and defend.odds == ()


def test_a_blast_victims_defence_on_the_table_meets_the_next_blast_in_the_turn() -> None:
    """Defence ("that result remains 'on the table' for any further uses of that particular
    defence in the Turn", RULINGS.md, Round 3) and Grenades (Resolve against Composure): kit's
    fizzled grenade goes off on her turn (7 + 1 = 8); bob (Full defence) stands firm on Resolve
    6 + 6 + 1 + 2 = 15, sal on 1 + 1 + 1 + 2 = 5. Her Full Action, a second grenade into b
    attacking 3 + 3 + 1 = 7, is met by each victim's Resolve still on the table, one after the
    other, rolled by no one: bob untouched, sal 7 − 5 + 2 = 4 Composure stress."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "b", "skills": {"Agility": 1, "Resolve": 1}},
        sal={"side": "m", "zone": "b", "skills": {"Agility": 1, "Resolve": 1}},
    )
    table = start(setup, 6, 6, 2, 2, 1, 1)
    table = act(table, "kit", "throw_grenade", [4, 4, 1, 1], zone="b")  # natural 2: a Fizzle
    table = act(table, "bob", "full_defence")
    table = act(table, "sal", "full_defence")
    table = act(table, "kit", "fuse", [4, 3], answer=False)
    table = act(table, "bob", "defend", [6, 6], answer=False, skill="Resolve")
    table = act(table, "sal", "defend", [1, 1], skill="Resolve")
    assert table.state.current == "kit"
    before = len(table.log.events)
    table = act(table, "kit", "throw_grenade", [5, 5, 3, 3], zone="b")
    assert [(e.kind, dict(e.data)) for e in table.log.events[before + 3 :]] == [
        (
            "defence.rolled",
            {"character": "bob", "skill": "Resolve", "total": 15, "full_defence": True},
        ),
        (
            "defence.rolled",
            {"character": "sal", "skill": "Resolve", "total": 5, "full_defence": True},
        ),
        ("hit.landed", {"character": "sal", "by": "kit", "stress": 4, "track": "Composure"}),
        (
            "stress.taken",
            {"character": "sal", "track": "Composure", "stress": 4, "box": 4, "taken_out": False},
        ),
        ("turn.started", {"character": "bob", "turn": 1, "round": 2}),
    ]
    assert table.state.blast is None
