"""Grapple (Gin Lane, "Grapple", "Grapple Options", "Releasing the Grapple"): setting, keeping,
breaking and releasing a grapple, the bum's rush, and what the grappled may still do.
"""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Table, Waiting
from referee.core.decide import Builder
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE, grapple
from referee.systems.ginlane.scene import SceneState

from .helpers import _BLOCKING, _SOCIETY, _menu
from .test_procedure import BRAVO, FIGHTER, act, duel, events, kinds, scene, start


def _grappling(table: Table[SceneState] | None = None) -> Table[SceneState]:
    """moll (Weapons 3, Agility 2, no Strength) unbalances jack and grapples him (Strength −2
    + 3, 3, 3 with the tag: 4); jack's turn passes; moll's turn again."""
    table = duel() if table is None else table
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [3, 3, 3], target="jack", tag="Off-Balance")
    return act(table, "jack", "full_defence")


_RELEASE = {"release": {"one_of": [True]}}


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


def test_a_grappled_character_cannot_overcome_a_block_without_beating_the_grapple() -> None:
    """Grapple: "The target has to beat the grapple strength to do anything physical": jack,
    grappled at strength 8 by moll, tries ann's Block with Agility 1 + 3 + 3 = 7 — held."""
    ann = {"side": "bravoes", "skills": {"Strength": 1}}
    table = duel(others={"ann": ann})
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "ann", "block", [3, 3], action="open the door", skill="Strength")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")  # 8
    held = act(table, "jack", "overcome", [3, 3], blocker="ann", skill="Agility")
    assert events(held, "grapple.held") == [{"character": "jack", "by": "moll", "strength": 8}]
    assert not events(held, "block.tested")


def test_only_a_grappler_releases() -> None:
    """Releasing the Grapple: "you can release a grapple at will" — a grapple, not another
    Block and not nothing."""
    with pytest.raises(RuleError, match="moll is not grappling anyone"):
        act(duel(), "moll", "release")
    holding = act(duel(), "moll", "block", [3, 3], hold="the casket")
    holding = act(holding, "jack", "full_defence")
    with pytest.raises(RuleError, match="moll is not grappling anyone"):
        act(holding, "moll", "release")


def test_the_bums_rush_is_rolled_and_recorded_with_its_tag_draw_and_related_skill() -> None:
    """Releasing the Grapple ("move the opponent a zone [...] The opponent gets a defence"),
    with Supplemental actions (a weapon drawn, −1), Tagging (option a, a point paid) and "No
    Relevant Skill" (Strength as a related skill: 0, not −2): moll rolls 5, 4, 6 — the best two
    11 − 1 = 10 — against jack's dodge of 2 + 2 + Agility 1 + Full Defence 2 = 7."""
    table = _grappling()
    since = len(table.log.events)
    table = act(
        table,
        "moll",
        "release",
        [5, 4, 6, 2, 2],
        to="hall",
        tags=["Fencing Mistress"],
        draw="knife",
        related=True,
        defence={"skill": "Agility"},
    )
    assert kinds(table, since)[:5] == [
        "grapple.released",
        "weapon.drawn",
        "defence.asked",  # jack chooses his defence: Agility, given above
        "aspect.tagged",
        "pool.spent",
    ]
    assert events(table, "grapple.released") == [{"character": "moll", "target": "jack"}]
    assert events(table, "weapon.drawn") == [{"character": "moll", "weapon": "knife"}]
    assert [(e["character"], e["aspect"]) for e in events(table, "aspect.tagged")][-1] == (
        "moll",
        "Fencing Mistress",
    )
    assert events(table, "pool.spent")[-1] == {"character": "moll", "points": 1, "for": "tags"}
    (rush,) = events(table, "rush.rolled")
    odds = {"success": "713/3888", "match": "731/7776", "failure": "1873/2592"}
    assert {k: rush[k] for k in ("character", "target", "to", "defence_skill", "odds")} == {
        "character": "moll",
        "target": "jack",
        "to": "hall",
        "defence_skill": "Agility",
        "odds": odds,
    }
    assert (rush["rolled"]["total"], rush["opposition"]["total"], rush["margin"]) == (10, 7, 3)
    card = rush["roll"]
    assert (card["label"], card["rule"], card["dice"], card["odds"]) == (
        "Moll rushes Jack to hall (Strength against Agility)",
        "Releasing the Grapple",
        "3d6kh2-1 vs 2d6+3",
        odds,
    )
    assert events(table, "moved")[-1] == {
        "character": "jack",
        "from": "room",
        "to": "hall",
        "by": "moll",
    }


def test_the_bums_rush_is_dodged_not_parried() -> None:
    """Defence: Weapons defends against Weapons and Brawl, not a Strength rush; the defence the
    target names is the one checked."""
    with pytest.raises(RuleError, match="Weapons can't defend against a Strength attack"):
        act(_grappling(), "moll", "release", [5, 4, 2, 2], to="hall", defence={"skill": "Weapons"})


def test_the_bums_rush_needs_a_clear_way() -> None:
    """Releasing the Grapple and Difficult terrain: the opponent is moved one zone along a clear
    way (cost 1); into zone c (cost 2) he cannot be rushed, into a he can."""
    setup = scene(
        kit={"side": "s", "zone": "b", "skills": {"Strength": 1}, "experience": 6},
        bob={"side": "m", "zone": "b", "aspects": ["Clumsy"]},
    )
    table = act(start(setup, 6, 6, 1, 1), "kit", "grapple", [3, 3, 3], target="bob", tag="Clumsy")
    table = act(table, "bob", "full_defence")
    with pytest.raises(RuleError, match="no clear way from 'b' to 'c'"):
        act(table, "kit", "release", [6, 6, 1, 1], to="c")
    table = act(table, "kit", "release", [6, 6, 1, 1], to="a")
    assert table.state.get("bob").zone == "a"


def test_a_grapple_is_set_maintained_and_broken_as_recorded() -> None:
    """Grapple: "tag an Aspect on the target" (its name in any case), with supplemental
    actions (−1 each) and a paid tag: moll, with no Strength (−2), rolls 3, 3, 3, 5 — the best
    two 8 − 2 − 2 = 4 — then maintains it untagged (4 + 4 − 2 = 6); jack, grappling her back
    with 6 + 6 − 2 = 10, beats the grapple and breaks it."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(
        table,
        "moll",
        "grapple",
        [3, 3, 3, 5],
        target="jack",
        tag="off-balance",
        tags=["Fencing Mistress"],
        draw="knife",
        supplemental="kicks the stool away",
    )
    assert events(table, "weapon.drawn") == [{"character": "moll", "weapon": "knife"}]
    assert [(e["character"], e["aspect"], e["free"]) for e in events(table, "aspect.tagged")][
        -2:
    ] == [("moll", "Off-Balance", True), ("moll", "Fencing Mistress", False)]
    (first,) = events(table, "grapple.set")
    assert {k: v for k, v in first.items() if k not in ("rolled", "roll")} == {
        "character": "moll",
        "target": "jack",
        "strength": 4,
        "maintained": False,
        "supplemental": "kicks the stool away",
    }
    assert first["rolled"]["faces"] == [3, 3, 3, 5]
    card = first["roll"]
    assert (card["label"], card["rule"], card["dice"], card["outcome"], card["value"]) == (
        "Moll grapples Jack",
        "Grapple",
        "4d6kh2-4",
        "strength",
        4,
    )
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [4, 4], target="jack")
    (_, kept) = events(table, "grapple.set")
    assert (kept["strength"], kept["maintained"], kept["supplemental"]) == (6, True, None)
    table = act(table, "jack", "grapple", [6, 6, 1], target="moll", tag="Fencing Mistress")
    assert events(table, "grapple.broken") == [{"character": "jack", "by": "moll", "total": 10}]
    assert table.state.get("moll").block is None
    assert table.state.get("jack").block is not None


def test_a_grappled_thrower_must_beat_the_grapple_to_throw() -> None:
    """Grapple: "The target has to beat the grapple strength to do anything physical": kit,
    grappled by bob at 4 (3, 3, 3 with the tag, the best two 6, − 2 with no Strength), throws
    1 + 2 + Agility 1 = 4 — held, no attack; a throw of 6 + 6 + 1 = 13 beats it."""
    setup = scene(
        kit={
            "side": "s",
            "zone": "a",
            "skills": {"Agility": 1, "Firearms": 1},
            "aspects": ["Slow"],
        },
        bob={"side": "m", "zone": "a", "skills": {"Agility": 1}, "experience": 6},
    )
    table = act(start(setup, 6, 6, 1, 1), "kit", "full_defence")
    table = act(table, "bob", "grapple", [3, 3, 3], target="kit", tag="Slow")
    (grapple,) = events(table, "grapple.set")
    held = act(table, "kit", "throw_grenade", [1, 2], zone="b")
    assert events(held, "grapple.held") == [
        {"character": "kit", "by": "bob", "strength": grapple["strength"]}
    ]
    assert not events(held, "grenade.attack")
    thrown = act(table, "kit", "throw_grenade", [6, 6, 4, 4], zone="b")
    assert not events(thrown, "grapple.held")
    assert events(thrown, "grenade.attack")


_MOLLS_TAGS = [
    "Fencing Mistress",
    "Member of the Society for Effectual Redress",
    "Off-Balance",
    "Blinded",
]
"""What moll may tag against jack: her own Aspects (the free Society one among them) and the
two the manoeuvres left on him."""


_MOLLS_SKILLS = [
    "Weapons",
    "Agility",
    "Alertness",
    "Endurance",
    "Resolve",
    "Brawl",
    "Occult Philosophy: Hod",
    "Strength",
]


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
        (
            "attack",
            "attack with the sword",
            {
                "target": {"one_of": ["jack"]},
                "tags": {"some_of": _MOLLS_TAGS, "least": 0, "most": None},
                **_RELEASE,
            },
        ),
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
            "an Aspect in your own words on an opponent",
            {
                "aspect": {"text": "Sand in His Eyes"},
                "skill": {"one_of": _MOLLS_SKILLS},
                "target": {  # jack, in her zone, is in every skill's reach
                    "depends": "skill",
                    "cases": [[skill, {"one_of": ["jack"]}] for skill in _MOLLS_SKILLS],
                },
                **_RELEASE,
            },
        ),
        (
            "manoeuvre",
            "an Aspect in your own words on the scene",
            {
                "aspect": {"text": "Sand in His Eyes"},
                "skill": {"one_of": _MOLLS_SKILLS},
                "scene": {"one_of": [True]},
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
        (
            "throw_grenade",
            "throw a grenade (On Target: whom)",
            {
                "zone": {"one_of": ["room", "hall", "yard", "street"]},
                # On Target: whoever stands in the zone thrown into ("Grenades")
                "on_target": {
                    "depends": "zone",
                    "cases": [
                        ["room", {"one_of": ["moll", "jack"]}],
                        ["hall", {"one_of": ["ann"]}],
                    ],
                },
                **_RELEASE,
            },
        ),
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
        *["manoeuvre"] * 8,  # four named on moll, on himself, two in his own words, a removal
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
    assert [label for _, label, _ in menu[6:8]] == [
        "an Aspect in your own words on an opponent",
        "an Aspect in your own words on the scene",
    ]
    assert menu[8] == (
        "manoeuvre",
        "a manoeuvre to remove an Aspect",
        {
            "aspect": {"one_of": ["Off-Balance"]},
            "remove": {"one_of": [True]},
            "skill": {"one_of": ["Agility", "Resolve"]},
            "difficulty": {"between": [6, 12]},
        },
    )
    assert menu[9:15] == [
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


def test_a_grappled_manoeuvre_that_beats_the_strength_on_the_grappler_breaks_the_grapple() -> None:
    """Grapple: jack, grappled at 8, blinds moll with Brawl untrained 6 + 6 − 2 = 10: he beats
    the grapple's strength, and the action against his grappler breaks it."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")
    table = act(table, "jack", "manoeuvre", [6, 6, 1, 1], target="moll", named="blind")
    assert events(table, "grapple.broken") == [{"character": "jack", "by": "moll", "total": 10}]


def test_a_grappler_who_takes_an_action_without_a_release_keeps_the_grapple_or_is_refused() -> None:
    """Releasing the Grapple: "release a grapple at will and perform a normal action" — an action
    that cannot say ``release`` (Full defence) is refused to a grappler, who keeps the grapple."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")
    table = act(table, "jack", "full_defence")
    with pytest.raises(RuleError, match="Grapple: moll is grappling jack: keep the grapple"):
        act(table, "moll", "full_defence")


def test_the_bums_rush_waits_for_the_opponents_defence() -> None:
    """Releasing the Grapple: "The opponent gets a defence in these cases as the grapple is off
    now" — his to choose ("Defence"): moll's rush waits for jack, offered Agility alone
    against Strength, with its odds; the grapple is already let go. He dodges 1 + 1 + 1 + 2
    (Full defence) = 5 against moll's Strength −2 + 5 + 4 = 7: he goes to the hall."""
    table = act(_grappling(), "moll", "release", [], to="hall", answer=False)
    assert kinds(table)[-2:] == ["grapple.released", "defence.asked"]
    (asked,) = PROCEDURE.prompts(table.state)
    assert (asked.actor, asked.kinds) == ("jack", ("defend",))
    assert asked.reason == "Moll's bum's rush (Strength): choose a defence (Full defence: +2)"
    (defend,) = table.legal_actions("jack")
    assert defend.params["skill"].values == ("Agility",)
    assert [o.dice for o in defend.odds] == ["2d6-2 vs 2d6+3"]
    done = act(table, "jack", "defend", [5, 4, 1, 1], answer=False, skill="Agility")
    assert events(done, "rush.rolled")[-1]["defence_skill"] == "Agility"
    assert done.state.get("jack").zone == "hall" and done.state.current == "jack"


def test_the_odds_a_rushed_opponent_sees_are_of_the_rushers_own_strength_roll() -> None:
    """Releasing the Grapple and "Defence": the odds jack is shown before he dodges are of the
    bum's rush as moll will roll it — her Strength (1 when she has it on her sheet; with none,
    "No Relevant Skill" as a related skill: 0, not −2) against his Agility 1 + Full defence 2."""
    strong = duel(moll={"skills": {**FIGHTER, "Strength": 1}})
    for table, related, dice in ((strong, False, "2d6+1"), (duel(), True, "2d6+0")):
        waiting = act(
            _grappling(table), "moll", "release", [], to="hall", answer=False, related=related
        )
        (defend,) = waiting.legal_actions("jack")
        assert [o.dice for o in defend.odds] == [f"{dice} vs 2d6+3"]


def test_the_bums_rush_against_a_dodge_still_on_the_table_is_rolled_at_once() -> None:
    """Releasing the Grapple and "Defence" ("that result remains 'on the table' for any further
    uses of that particular defence in the Turn"): jack dodged with 5 earlier in moll's Turn;
    her bum's rush asks him nothing, it meets that 5: −2 + 5 + 4 = 7 beats it, he is moved."""
    b = Builder(_grappling().state, PROCEDURE.evolve)
    dodged = {"character": "jack", "skill": "Agility", "total": 5, "full_defence": True}
    b.emit("defence.rolled", {**dodged, "rolled": {}})
    grapple.release(b, Action("moll", "release", {"to": "hall"}), ScriptedSource([5, 4]))
    assert [e.kind for e in b.events[1:]] == [
        "grapple.released",
        "rush.rolled",
        "defence.stands",
        "moved",
    ]
    rush = dict(b.events[2].data)
    assert (rush["defence_skill"], rush["rolled"]["total"], rush["difficulty"]) == ("Agility", 7, 5)
    assert rush["roll"]["label"] == "Moll rushes Jack to hall (Strength against Agility)"
    assert dict(b.events[3].data) == {"character": "jack", "skill": "Agility", "total": 5}
    assert (b.state.get("jack").zone, b.state.pending) == ("hall", None)


def test_a_bums_rush_waiting_for_a_defence_says_who_rushes_whom_where() -> None:
    """Releasing the Grapple: the rush waiting for jack's defence says what it is."""
    table = act(_grappling(), "moll", "release", [], to="hall", answer=False)
    assert (
        events(table, "defence.asked")[-1]["what"]
        == "Moll gives Jack the bum's rush towards hall (Strength)"
    )


def test_while_a_bums_rush_waits_for_its_defence_the_rusher_is_told_so() -> None:
    """Releasing the Grapple ("The opponent gets a defence") and Defence: moll rushes jack
    towards the hall; until he chooses his defence she is told the table waits for him, her
    rush named, and he, who has the choice, is not waiting."""
    table = act(_grappling(), "moll", "release", [], to="hall", answer=False)
    assert PROCEDURE.waiting(table.state, "moll") == Waiting(
        "moll", "Moll rushes Jack: the table waits for Jack to choose a defence",
        "until the defence is chosen", "Defence",
    )  # fmt: skip
    assert PROCEDURE.waiting(table.state, "jack") is None
