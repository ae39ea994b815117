"""Tests that kill the mutants of ``choices.py``, ``procedure.py``, ``stress.py`` and
``events.py`` mutmut left alive in round 6, part B of issue 13 (docs/systems/ginlane.md,
"Mutation testing"): what a seat may do now ("Fighting", "Grapple", "Hold a thing", "Action:
Block", "Declarations", "Maintenance", "Magia", "Grenades"), and what the log says of it."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, Table, Viewer
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.stress import StressTrack

from .test_procedure import BRAVO, FIGHTER, act, duel, events, kinds, scene, start

_RELEASE = {"release": {"one_of": [True]}}
_BLOCKING = {"one_of": ["Weapons", "Brawl", "Strength", "Agility"]}
_SOCIETY = "Member of the Society for Effectual Redress"


def _menu(table: Table[SceneState], who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """What ``who`` is offered now: each choice's kind, label and parameters' domains."""
    out = []
    for choice in table.legal_actions(who):
        shown = choice.to_json()
        assert shown["actor"] == who
        out.append((shown["kind"], shown["label"], shown["params"]))
    return out


def _grapple() -> Table[SceneState]:
    """moll (society, sword, an adept of Hod with a point in her pool) unbalances jack, who
    holds the casket, and grapples him tagging Off-Balance; jack has blinded her first, and
    ann, moll's friend in the hall, blocks the door. Zones: room — hall (clear), hall — yard
    (a link of cost 2), room — street (a zone of cost 3)."""
    setup = {
        "zones": ["room", "hall", "yard", "street"],
        "links": [["room", "hall"], ["hall", "yard", 2], ["room", "street"]],
        "costs": {"street": 3},
        "holdings": {"the casket": "jack"},
        "characters": {
            "moll": {
                "side": "society",
                "weapon": "sword",
                "skills": {**FIGHTER, "Occult Philosophy: Hod": 1, "Strength": 2},
                "aspects": ["Fencing Mistress"],
                "experience": 13,
                "pool": 1,
            },
            "jack": {
                "side": "bravoes",
                "weapon": "sword",
                "skills": {**BRAVO, "Brawl": 1},
                "experience": 6,
            },
            "ann": {"side": "society", "zone": "hall", "skills": BRAVO},
        },
    }
    table = start(setup, 6, 6, 1, 1, 1, 1)  # moll, jack, ann
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "manoeuvre", [6, 6, 1, 1], target="moll", named="blind")
    table = act(table, "ann", "block", [3, 3], action="open the door", skill="Weapons")
    table = act(table, "moll", "grapple", [3, 3, 3], target="jack", tag="Off-Balance")
    assert kinds(table)[-2:] == ["grapple.set", "turn.started"]
    return table


def test_a_grappler_may_keep_the_grapple_let_go_rush_or_release_it_for_any_full_action() -> None:
    """Grapple, "Grapple Options" and "Releasing the Grapple": on her turn moll may keep the
    grapple (her own Block), let go, or give jack the bum's rush into a zone next to his with a
    clear way (the hall; not the street, a zone of cost 3); every other Full Action releases
    the grapple (``release: true``). The rest of her menu is every Full Action the scene
    allows: an attack and the named manoeuvres on jack, in reach; a manoeuvre on herself;
    removing the Blinded jack put on her; protecting ann; holding a doorway (each zone next
    door); a Block of a named action (ann's has lapsed with her next turn: nothing to
    overcome); holding or seizing the casket; a step (the hall), a sprint of one to four
    zones, a grenade into any zone in sight; Wait, Full Defence, something else; and, at any
    time, a Declaration or Maintenance (one point in her pool: Maintenance of 1 point at most)
    and a ritual on a Sephira's path (she has Occult Philosophy). She has taken no
    consequence: no recovery is offered."""
    table = _grapple()
    table = act(table, "jack", "full_defence")
    table = act(table, "ann", "full_defence")
    assert table.state.current == "moll"
    (attack,) = [c for c in table.legal_actions("moll") if c.kind == "attack"]
    # her Weapons 2d6+3 against jack's Weapons 2 + 2 on Full Defence: the exact odds
    assert [o.to_json() for o in attack.odds] == [
        {
            "label": "Moll attacks Jack",
            "rule": "Action: Attack",
            "dice": "2d6+3 vs 2d6+4",
            "odds": {"success": "145/432", "match": "35/324", "failure": "721/1296"},
        }
    ]
    assert _menu(table, "moll") == [
        ("attack", "attack with the sword", {"target": {"one_of": ["jack"]}, **_RELEASE}),
        *[
            (
                "manoeuvre",
                f"{named}: {aspect} on an opponent ({skill})",
                {"named": {"one_of": [named]}, "target": {"one_of": ["jack"]}, **_RELEASE},
            )
            for named, aspect, skill in (
                ("blind", "Blinded", "Brawl"),
                ("unbalance", "Off-Balance", "Brawl"),
                ("disarm", "Disarmed", "Weapons"),
                ("take aim", "Target", "Firearms"),
            )
        ],
        (
            "manoeuvre",
            "a manoeuvre on oneself",
            {
                "named": {"one_of": ["take cover", "concentrate"]},
                "difficulty": {"between": [6, 12]},
                **_RELEASE,
            },
        ),
        (
            "manoeuvre",
            "a manoeuvre to remove an Aspect",
            {
                "aspect": {"one_of": ["Blinded"]},
                "remove": {"one_of": [True]},
                "skill": {"one_of": ["Agility", "Resolve"]},
                "difficulty": {"between": [6, 12]},
                **_RELEASE,
            },
        ),
        ("block", "", {"protect": {"one_of": ["ann"]}, **_RELEASE}),
        ("block", "", {"doorway": {"one_of": ["hall", "street"]}, **_RELEASE}),
        (
            "block",
            "a Block of a named action",
            {"action": {"text": "open the door"}, "skill": _BLOCKING, **_RELEASE},
        ),
        ("block", "", {"hold": {"one_of": ["the casket"]}, **_RELEASE}),
        ("seize", "", {"thing": {"one_of": ["the casket"]}, **_RELEASE}),
        ("grapple", "keep the grapple", {"target": {"one_of": ["jack"]}}),
        ("release", "let go", {}),
        ("release", "the bum's rush", {"to": {"one_of": ["hall"]}}),
        ("move", "", {"to": {"one_of": ["hall"]}, **_RELEASE}),
        ("sprint", "", {"path": {"one_of": [["hall"], ["street"], ["hall", "yard"]]}, **_RELEASE}),
        ("throw_grenade", "", {"zone": {"one_of": ["room", "hall", "yard", "street"]}, **_RELEASE}),
        ("wait", "", {"plan": {"text": "moll strikes whoever comes through the door"}, **_RELEASE}),
        ("full_defence", "", dict(_RELEASE)),
        ("something_else", "", {"what": {"text": "moll loads a pistol"}, **_RELEASE}),
        (
            "declare",
            "a Declaration covered by an Aspect, for a point",
            {
                "aspect": {"one_of": ["Fencing Mistress", _SOCIETY]},
                "fact": {"text": "it was always so"},
            },
        ),
        (
            "maintain",
            "Maintenance: points paid to run an Aspect",
            {"aspect": {"one_of": ["Fencing Mistress", _SOCIETY]}, "points": {"between": [1, 1]}},
        ),
        (
            "ritual",
            "a ritual on a Sephira's path",
            {
                "sephira": {
                    "one_of": [
                        "Kether",
                        "Chokmah",
                        "Binah",
                        "Chesed",
                        "Geburah",
                        "Tiphareth",
                        "Netzach",
                        "Hod",
                        "Yesod",
                        "Malkuth",
                    ]
                },
                "hours": {"between": [1, 12]},
                "difficulty": {"between": [6, 12]},
            },
        ),
    ]


def test_a_grappled_character_may_neither_move_nor_sprint_but_may_try_anything_else() -> None:
    """Grapple: the target "can't move (Sprint or move Zones) at all", and must beat the
    grapple's strength to do anything physical (the rules roll that when he tries): jack's
    menu has no step and no sprint, and every other Full Action, none of them with a grapple
    of his own to release. He may overcome ann's Block of a named action (she is on the other
    side), hold a doorway, hold or seize the casket he holds, grapple moll tagging an Aspect on
    her (the Blinded he put there, or one of her own), and remove the Off-Balance on him."""
    table = _grapple()
    assert table.state.current == "jack"
    menu = _menu(table, "jack")
    assert [kind for kind, _, _ in menu] == [
        "attack",
        *["manoeuvre"] * 6,
        "block",
        "block",
        "overcome",
        "block",
        "seize",
        "grapple",
        "throw_grenade",
        "wait",
        "full_defence",
        "something_else",
        "declare",
        "maintain",
    ]
    assert [params["target"] for _, _, params in menu[1:5]] == [
        {"one_of": ["moll"]},  # blind, Brawl: his own zone
        {"one_of": ["moll"]},  # unbalance, Brawl
        {"one_of": ["moll"]},  # disarm, Weapons: as far as his sword reaches
        {"one_of": ["moll", "ann"]},  # take aim: anyone in sight, ann in the hall too
    ]
    assert menu[6] == (
        "manoeuvre",
        "a manoeuvre to remove an Aspect",
        {
            "aspect": {"one_of": ["Off-Balance"]},
            "remove": {"one_of": [True]},
            "skill": {"one_of": ["Agility", "Resolve"]},
            "difficulty": {"between": [6, 12]},
        },
    )
    assert menu[7:13] == [
        ("block", "", {"doorway": {"one_of": ["hall", "street"]}}),
        (
            "block",
            "a Block of a named action",
            {"action": {"text": "open the door"}, "skill": _BLOCKING},
        ),
        (
            "overcome",
            "the action a Block prevents, against it",
            {"blocker": {"one_of": ["ann"]}, "skill": _BLOCKING},
        ),
        ("block", "", {"hold": {"one_of": ["the casket"]}}),
        ("seize", "", {"thing": {"one_of": ["the casket"]}}),
        (
            "grapple",
            "grapple Moll",
            {
                "target": {"one_of": ["moll"]},
                "tag": {"one_of": ["Blinded", "Fencing Mistress", _SOCIETY]},
            },
        ),
    ]
    assert menu[-2][2] == {"aspect": {"one_of": [_SOCIETY]}, "fact": {"text": "it was always so"}}


def _any_time(table: Table[SceneState], who: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [c for c in _menu(table, who) if c[0] in {"declare", "maintain", "recover", "ritual"}]


def test_a_wounded_character_may_recover_and_anyone_with_a_point_may_declare_at_any_time() -> None:
    """Declarations, Maintenance and "Consequences" (recovery): at any time, on one's turn or
    not, a character with an Aspect and at least one point may make a Declaration or pay
    Maintenance of 1 point up to the whole pool; one who has taken a consequence may spend 1
    to 60 days recovering; out of turn nothing else is offered. moll's attack gives jack a
    heavy consequence (his pool: 2 points); moll's pool is 3."""
    table = act(
        duel(),
        "moll",
        "attack",
        [3, 3, 1, 1],
        target="jack",
        consequences=[{"severity": "heavy", "aspect": "Broken Arm"}],
    )
    assert table.state.current == "jack"
    mine = {"aspect": {"one_of": ["Fencing Mistress", _SOCIETY]}}
    assert _menu(table, "moll") == [
        (
            "declare",
            "a Declaration covered by an Aspect, for a point",
            {**mine, "fact": {"text": "it was always so"}},
        ),
        (
            "maintain",
            "Maintenance: points paid to run an Aspect",
            {**mine, "points": {"between": [1, 3]}},
        ),
    ]
    assert _any_time(table, "jack") == [
        (
            "declare",
            "a Declaration covered by an Aspect, for a point",
            {"aspect": {"one_of": [_SOCIETY]}, "fact": {"text": "it was always so"}},
        ),
        (
            "maintain",
            "Maintenance: points paid to run an Aspect",
            {"aspect": {"one_of": [_SOCIETY]}, "points": {"between": [1, 2]}},
        ),
        ("recover", "days of recovery", {"days": {"between": [1, 60]}}),
    ]
    assert _menu(table, "jack")[0][0] == "attack"


def test_a_character_with_no_point_in_the_pool_may_neither_declare_nor_maintain() -> None:
    """Declarations: "a declaration needs 1 point"; Maintenance pays points: with an empty pool
    moll (Experience 10, all spent on her sheet) is offered neither, on her turn or out of it."""
    table = duel(moll={"experience": 10})
    assert table.state.get("moll").pool.points == 0
    assert _any_time(table, "moll") == []
    assert _menu(table, "moll")[-1][0] == "something_else"


def test_before_initiative_the_referee_rolls_it_and_the_characters_act_only_at_any_time() -> None:
    """Fighting: before the first turn the referee rolls Initiative; he may also award
    Experience (1 to 5 points, to one character or more), end the scene, give everyone a
    night's rest or end the session. A character may only declare or pay Maintenance; someone
    not in the scene is offered nothing."""
    table = Table.start(PROCEDURE, {"characters": {"moll": {"pool": 1}, "jack": {"side": "x"}}})
    assert _menu(table, "referee") == [
        ("initiative", "roll initiative", {}),
        (
            "award",
            "",
            {
                "points": {"between": [1, 5]},
                "characters": {"some_of": ["moll", "jack"], "least": 1, "most": None},
            },
        ),
        ("end_scene", "the end of the scene", {}),
        ("rest", "a night's rest for everyone", {}),
        ("end_session", "the end of the session", {}),
    ]
    assert [kind for kind, _, _ in _menu(table, "moll")] == ["declare", "maintain"]
    assert _menu(table, "jack") == []
    assert _menu(table, "nobody") == []


def test_once_the_fight_is_over_no_one_takes_a_turn_and_the_taken_out_do_nothing() -> None:
    """Fighting and Taken Out: moll's 5 + 5 + 3 = 13 against jack's 3 + 3 + 2 = 8 deals 5 + 2
    = 7 stress, past the end of his track: he is Taken Out, and the fight is over. jack is
    offered nothing (his pool notwithstanding); moll only her any-time actions; the referee no
    longer rolls initiative."""
    table = act(duel(), "moll", "attack", [5, 5, 3, 3], target="jack")
    assert table.state.over and table.state.get("jack").taken_out
    assert table.state.get("jack").pool.points > 0
    assert _menu(table, "jack") == []
    assert [kind for kind, _, _ in _menu(table, "moll")] == ["declare", "maintain"]
    assert [kind for kind, _, _ in _menu(table, "referee")] == [
        "award",
        "end_scene",
        "rest",
        "end_session",
    ]


def test_a_stress_track_is_clear_at_first_and_shows_its_length_and_marked_boxes() -> None:
    """Stress Tracks: a character's tracks start clear, each as long as the sheet says (moll's
    Health and Composure 6: 5, +1 for Endurance 1 and Resolve 1; Wealth 5); a hit of 2 ticks
    box 2 and a second of 2 rolls up to box 3; the track's JSON is its length and the boxes
    marked."""
    table = duel()
    moll = table.state.get("moll")
    assert [(t.name, t.boxes) for t in moll.tracks] == [
        ("Health", (False,) * 6),
        ("Composure", (False,) * 6),
        ("Wealth", (False,) * 5),
    ]
    track = StressTrack.empty("Health", 5)
    assert track.to_json() == {"length": 5, "marked": []}
    track = track.hit(2)[0].hit(2)[0]
    assert track.to_json() == {"length": 5, "marked": [2, 3]}


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


def test_a_waiting_character_is_offered_every_full_action_out_of_turn() -> None:
    """Action: Wait: moll waits; on jack's turn she may act now, taking his place: she is
    offered her Full Actions (an attack on jack first), not only her any-time ones."""
    table = act(duel(), "moll", "wait", plan="strike whoever comes")
    assert table.state.current == "jack"
    kinds_offered = [kind for kind, _, _ in _menu(table, "moll")]
    assert kinds_offered[0] == "attack" and "full_defence" in kinds_offered


def _said(table: Table[SceneState], kind: str) -> list[str]:
    """What the log says of each event of ``kind``, as the referee reads it."""
    return [PROCEDURE.describe(e, Viewer("referee")) for e in table.log.events if e.kind == kind]


def test_the_log_says_whose_protecting_block_an_attack_tested_and_by_what() -> None:
    """Action: Block, protect: moll protects ann with 5 + 5 + 3 = 13; jack's 6 + 6 + 2 = 14
    tests it. The log gives the Block's strength and the attack's total."""
    table = duel(others={"ann": {"side": "society", "weapon": "sword", "skills": BRAVO}})
    table = act(table, "moll", "block", [5, 5], protect="ann")
    table = act(table, "jack", "attack", [6, 6, 1, 1], target="ann")
    assert _said(table, "block.tested") == ["Moll's Block (13) is tested by 14"]


def test_the_log_says_who_tried_to_seize_what_against_which_block() -> None:
    """Hold a thing: moll holds the casket with Strength (−2) 3 + 3 = 4; jack's Agility
    2 + 2 + 1 = 5 seizes it against her Block of 4. kit seizes a purse nobody holds: no Block
    is named."""
    table = act(duel(), "moll", "block", [3, 3], hold="the casket")
    table = act(table, "jack", "seize", [2, 2], thing="the casket")
    assert _said(table, "seize.rolled") == [
        "Jack tries to seize the casket against a Block of 4 and succeeds (Minimal, by 1)"
    ]
    setup = scene(kit={"side": "s", "zone": "a"}, bob={"side": "m", "zone": "a"})
    table = act(start(setup, 1, 1, 6, 6), "bob", "full_defence")
    table = act(table, "kit", "seize", [1, 2], thing="the purse")
    assert _said(table, "seize.rolled") == [
        "Kit tries to seize the purse and succeeds (Minimal, by 1)"
    ]


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
        ("attack", "attack with the fists", {"target": near}),
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
        ("throw_grenade", "", {"zone": {"one_of": ["a", "b", "c", "d", "e"]}}),
        ("wait", "", {"plan": {"text": "kit strikes whoever comes through the door"}}),
        ("full_defence", "", {}),
        ("something_else", "", {"what": {"text": "kit loads a pistol"}}),
    ]


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


def test_a_sprint_menu_offers_the_forty_shortest_paths_and_none_from_a_lone_zone() -> None:
    """Action: Sprint: kit stands in s, linked to seven zones that are all linked to each
    other: 7 paths of one zone and 42 of two. The menu offers the 40 shortest, in order (all
    seven single zones, then the pairs from h1 on). bob, in a zone linked to nothing, may
    neither step nor sprint nor hold a doorway; no one is in reach or in sight of him."""
    hub = ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]
    links = [["s", h] for h in hub] + [[a, b] for i, a in enumerate(hub) for b in hub[i + 1 :]]
    setup = {
        "zones": ["s", *hub, "lone"],
        "links": links,
        "characters": {
            "kit": {"side": "s", "zone": "s", "skills": {"Agility": 1}},
            "bob": {"side": "m", "zone": "lone"},
        },
    }
    table = start(setup, 6, 6, 1, 1)
    (sprint,) = [params for kind, _, params in _menu(table, "kit") if kind == "sprint"]
    pairs = [[a, b] for a in hub for b in hub if a != b]
    assert sprint["path"]["one_of"] == [[h] for h in hub] + pairs[:33]
    table = act(table, "kit", "full_defence")
    assert [kind for kind, _, _ in _menu(table, "bob")] == [
        "manoeuvre",
        "block",
        "throw_grenade",
        "wait",
        "full_defence",
        "something_else",
    ]


def test_the_rules_refuse_an_action_they_do_not_know_and_name_those_they_do() -> None:
    """Actions: asked to decide an action of no kind it knows (the table refuses it sooner,
    as a misspelt action), the procedure refuses it by rule and names every action it knows."""
    table = duel()
    with pytest.raises(RuleError) as refused:
        PROCEDURE.decide(table.state, Action("moll", "dance", {}), ScriptedSource([]))
    assert str(refused.value) == (
        "Actions: no action 'dance' (known: initiative, attack, manoeuvre, block, grapple, "
        "release, seize, overcome, move, sprint, wait, full_defence, something_else, "
        "throw_grenade, fuse, declare, maintain, end_scene, award, rest, end_session, recover, "
        "check_sheet, ritual)"
    )


def test_a_block_must_say_what_it_blocks_and_name_someone_or_somewhere_there() -> None:
    """Action: Block: a Block protects someone, holds a doorway or a thing, or prevents a named
    action rolled with a skill the blocker names. Naming none of these, protecting someone who
    is not in the scene, holding the doorway to a zone no way reaches, or blocking an action
    with no skill named is refused by rule."""
    refusals = {
        "Action: Block: say what to block: protect, doorway, hold or action": {},
        "Characters: no character 'nobody' in the scene": {"protect": "nobody"},
        "Zones: no way from 'room' to 'moon'": {"doorway": "moon"},
        "Action: Block: say which skill blocks 'open the door'": {"action": "open the door"},
    }
    for message, params in refusals.items():
        with pytest.raises(RuleError) as refused:
            act(duel(), "moll", "block", [3, 3], **params)
        assert str(refused.value) == message


def test_a_block_after_a_supplemental_move_with_a_tag_and_a_related_skill() -> None:
    """Action: Block (hold a thing), with Supplemental actions (a move of one zone, −1), Hold a
    doorway, Tagging (option a: a third die, the best two kept, one point paid) and "No
    Relevant Skill" (a related skill rolls at 0, not −2): m holds the doorway to b with
    1 + 1 + 1 = 3; j (Agility 1, no Strength) dodges past it with 3 + 3 + 1 = 7 as he runs from
    b into a, and holds the casket there with 6, 1, 6 — 12 + 0 − 1 = 11."""
    setup = scene(
        j={
            "side": "b",
            "zone": "b",
            "aspects": ["Nimble"],
            "experience": 6,
            "skills": {"Agility": 1},
        },
        m={"side": "s", "zone": "a", "skills": {"Weapons": 1}},
    )
    table = act(start(setup, 1, 1, 6, 6), "m", "block", [1, 1], doorway="b")
    table = act(
        table,
        "j",
        "block",
        [3, 3, 6, 1, 6],
        hold="the casket",
        move_to="a",
        tags=["Nimble"],
        related=True,
    )
    assert table.state.get("j").zone == "a"
    assert [
        (e["rolled"]["faces"], e["rolled"]["total"]) for e in events(table, "block.tested")
    ] == [([3, 3], 7)]
    held = events(table, "block.set")[-1]
    assert (held["kind"], held["target"], held["skill"], held["strength"]) == (
        "hold",
        "the casket",
        "Strength",
        11,
    )
    assert held["rolled"]["faces"] == [6, 1, 6]
    card = held["roll"]
    assert (card["label"], card["rule"], card["dice"], card["outcome"], card["value"]) == (
        "J blocks: hold the casket (Strength)",
        "Action: Block",
        "3d6kh2-1",
        "strength",
        11,
    )
    assert _said(table, "block.set")[-1] == (
        "J blocks (hold the casket) with Strength: strength 11"
    )
    assert events(table, "pool.spent") == [{"character": "j", "points": 1, "for": "tags"}]
