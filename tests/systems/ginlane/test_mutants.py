"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/ginlane.md, "Mutation
testing"): each asserts an outcome of the rules text.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, Event, Outcome, RuleError, Table, TieRule, Viewer
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.ginlane import SYSTEM
from referee.systems.ginlane.events import describe
from referee.systems.ginlane.rolls import GinLaneRoll, OpposedRoll, TagMode
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.stress import Consequences, TakenConsequence
from referee.systems.ginlane.zones import step

from .test_odds_of import SETUP, fight
from .test_procedure import act, duel, events, kinds, scene, start

STREET = SceneState(
    combatants=(),
    zones=("alley", "yard", "roof"),
    links=(("alley", "yard", 1), ("yard", "roof", 1)),
    zone_costs=(("roof", 3), ("yard", 2)),
)


def test_difficult_terrain_adds_the_zone_cost_above_one() -> None:
    """Zones, "Difficult terrain": a step into a zone of cost 3 costs 1 + (3 − 1) = 3, into a
    zone of cost 2 costs 2, back into a plain zone 1; neither is a clear way."""
    assert step(STREET, "yard", "roof", clear=False) == 3
    assert step(STREET, "alley", "yard", clear=False) == 2
    assert step(STREET, "yard", "alley", clear=False) == 1
    assert step(STREET, "yard", "alley", clear=True) == 1
    for here, there in (("yard", "roof"), ("alley", "yard")):
        with pytest.raises(RuleError, match="no clear way"):
            step(STREET, here, there, clear=True)


def test_a_taken_consequence_closes_its_severity_only() -> None:
    """Consequences: one slot of each severity; taking a moderate one leaves the others open."""
    slots = Consequences().take(TakenConsequence("moderate", "Bleeding Cut"))
    assert slots.free_severities() == ("slight", "heavy", "extreme")
    assert Consequences().free_severities() == ("slight", "moderate", "heavy", "extreme")


# ------------------------------------------------------------------ grenades (issue 13, round 2)


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


# ------------------------------------------------------------------ blocks: hold a thing, overcome


def test_a_thing_nobody_holds_is_seized_by_any_roll_above_nothing() -> None:
    """Hold a thing: with no Block on the thing there is nothing to beat (0): kit, with no
    Agility (−2), rolls 1+2 = 1 and has it — though bob blocks a doorway meanwhile, a Block on
    something else."""
    setup = scene(
        kit={"side": "s", "zone": "a"},
        bob={"side": "m", "zone": "a", "skills": {"Weapons": 1}},
    )
    table = start(setup, 1, 1, 6, 6)  # bob first
    table = act(table, "bob", "block", [5, 5], doorway="b")  # strength 11
    table = act(table, "kit", "seize", [1, 2], thing="the purse")
    (rolled,) = events(table, "seize.rolled")
    assert rolled["against"] is None and rolled["rolled"]["total"] == 1
    assert events(table, "seized") == [{"character": "kit", "thing": "the purse"}]


def test_a_named_action_blocked_is_tried_with_the_dice_rolled() -> None:
    """Action: Block: the Block's strength "must be beaten in an appropriate skill roll": the
    roll recorded is the one made (4+3 with Agility 1 is 8 against 7)."""
    setup = scene(
        m={"side": "s", "zone": "a", "skills": {"Strength": 1}},
        j={"side": "b", "zone": "a", "skills": {"Agility": 1}},
    )
    t = act(
        start(setup, 6, 6, 1, 1), "m", "block", [3, 3], action="open the door", skill="Strength"
    )
    passed = act(t, "j", "overcome", [4, 3], blocker="m", skill="Agility")
    (tested,) = events(passed, "block.tested")
    assert (tested["strength"], tested["rolled"]["faces"], tested["rolled"]["total"]) == (
        7,
        [4, 3],
        8,
    )


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


def test_overcoming_a_block_after_a_supplemental_move_with_a_tag_and_a_related_skill() -> None:
    """Action: Block, with Supplemental actions (a move of one zone, −1), Tagging (option a:
    a third die, the best two kept, one point paid) and "No Relevant Skill" (a related skill
    rolls at 0, not −2): j, with no Agility, runs from b into a and tries m's Block of 7 with
    6, 1, 6 — 12 + 0 − 1 = 11."""
    setup = scene(
        m={"side": "s", "zone": "a", "skills": {"Strength": 1}},
        j={"side": "b", "zone": "b", "aspects": ["Nimble"], "experience": 6},
    )
    t = act(
        start(setup, 6, 6, 1, 1), "m", "block", [3, 3], action="open the door", skill="Strength"
    )
    t = act(
        t,
        "j",
        "overcome",
        [6, 1, 6],
        blocker="m",
        skill="Agility",
        move_to="a",
        tags=["Nimble"],
        related=True,
    )
    assert t.state.get("j").zone == "a"
    (tested,) = events(t, "block.tested")
    assert (tested["character"], tested["rolled"]["total"]) == ("j", 11)
    assert events(t, "pool.spent") == [{"character": "j", "points": 1, "for": "tags"}]
    assert events(t, "block.overcome")


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


# ------------------------------------------------------------------ round 3: the bum's rush


def _grappling(table: Table[SceneState] | None = None) -> Table[SceneState]:
    """moll (Weapons 3, Agility 2, no Strength) unbalances jack and grapples him (Strength −2
    + 3, 3, 3 with the tag: 4); jack's turn passes; moll's turn again."""
    table = duel() if table is None else table
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [3, 3, 3], target="jack", tag="Off-Balance")
    return act(table, "jack", "full_defence")


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
    assert kinds(table, since)[:4] == [
        "grapple.released",
        "weapon.drawn",
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


# ------------------------------------------------------------------ round 3: seize, grapple


def test_seizing_a_held_thing_is_rolled_and_recorded_with_its_tag_draw_and_related_skill() -> None:
    """Hold a thing ("an appropriate roll beating the Block"), with a weapon drawn (−1), a tag
    (option a, a point paid) and a related skill (Strength at 0): jack rolls 2, 2, 6 — the best
    two 8 − 1 = 7 — against moll's hold of 3 + 3 − 2 = 4."""
    table = act(duel(jack={"aspects": ["Quick Hands"]}), "moll", "block", [3, 3], hold="the casket")
    table = act(
        table,
        "jack",
        "seize",
        [2, 2, 6],
        thing="the casket",
        skill="Strength",
        related=True,
        draw="knife",
        tags=["Quick Hands"],
    )
    assert events(table, "weapon.drawn") == [{"character": "jack", "weapon": "knife"}]
    assert [(e["character"], e["aspect"]) for e in events(table, "aspect.tagged")] == [
        ("jack", "Quick Hands")
    ]
    (rolled,) = events(table, "seize.rolled")
    odds = {"success": "193/216", "match": "1/18", "failure": "11/216"}
    assert {k: rolled[k] for k in ("character", "thing", "against", "odds")} == {
        "character": "jack",
        "thing": "the casket",
        "against": 4,
        "odds": odds,
    }
    assert (rolled["rolled"]["total"], rolled["margin"]) == (7, 3)
    card = rolled["roll"]
    assert (card["label"], card["rule"], card["dice"], card["odds"]) == (
        "Jack seizes the casket (Strength)",
        "Hold a thing",
        "3d6kh2-1 > 4",
        odds,
    )
    assert events(table, "seized") == [{"character": "jack", "thing": "the casket"}]
    assert table.state.holdings == (("the casket", "jack"),)


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


def test_a_supplemental_move_past_a_held_doorway_is_tested_before_a_seize_grapple_or_rush() -> None:
    """Hold a doorway ("whether the move is a full action, a supplemental move or a step of a
    Sprint"): jack, in the hall, moves into the room past moll's doorway of 2 + 2 + Weapons 3 = 7
    with Agility 1 + 5 + 5 = 11, then seizes (or grapples) there with the next dice; moll, moving
    into the hall past ann's doorway of 5 with Agility 2 + 5 + 5, rushes jack there with 6, 6."""
    table = duel(jack={"zone": "hall", "aspects": ["Quick Hands"]})
    table = act(table, "moll", "block", [2, 2], doorway="hall")
    seized = act(table, "jack", "seize", [5, 5, 6, 6], thing="the purse", move_to="room")
    grappled = act(
        table,
        "jack",
        "grapple",
        [5, 5, 6, 6, 6],
        target="moll",
        tag="Fencing Mistress",
        move_to="room",
    )
    for after in (seized, grappled):
        (tested,) = events(after, "block.tested")
        assert (tested["blocker"], tested["rolled"]["faces"], tested["rolled"]["total"]) == (
            "moll",
            [5, 5],
            11,
        )
        assert after.state.get("jack").zone == "room"
    (rolled,) = events(seized, "seize.rolled")
    assert rolled["rolled"]["faces"] == [6, 6]
    assert events(seized, "seized") == [{"character": "jack", "thing": "the purse"}]
    (grapple,) = events(grappled, "grapple.set")
    assert (grapple["target"], grapple["rolled"]["faces"]) == ("moll", [6, 6, 6])
    thrown = act(table, "jack", "throw_grenade", [5, 5, 6, 6, 2, 2], zone="hall", move_to="room")
    (tested,) = events(thrown, "block.tested")
    assert (tested["rolled"]["faces"], events(thrown, "grenade.thrown")[0]["rolled"]["faces"]) == (
        [5, 5],
        [6, 6],
    )

    ann = {"side": "bravoes", "skills": {"Weapons": 1}}
    table = duel(jack={"aspects": ["Clumsy"]}, others={"ann": ann})
    table = act(table, "moll", "grapple", [3, 3, 3], target="jack", tag="Clumsy")
    table = act(table, "jack", "full_defence")
    table = act(table, "ann", "block", [2, 2], doorway="hall")
    rushed = act(table, "moll", "release", [5, 5, 6, 6, 1, 1], to="hall", move_to="hall")
    (tested,) = events(rushed, "block.tested")
    assert (tested["blocker"], tested["rolled"]["faces"], tested["rolled"]["total"]) == (
        "ann",
        [5, 5],
        12,
    )
    (rush,) = events(rushed, "rush.rolled")
    assert rush["roll"]["faces"] == [6, 6, 1, 1]
    assert (rushed.state.get("moll").zone, rushed.state.get("jack").zone) == ("hall", "hall")


# ------------------------------------------------------------------ round 3: the throw


def _thrower() -> Table[SceneState]:
    """kit (Agility 1, Firearms 1, "Steady Hand", 6 points) in zone a, bob (Agility 1) in b."""
    setup = scene(
        kit={
            "side": "s",
            "zone": "a",
            "skills": {"Agility": 1, "Firearms": 1},
            "aspects": ["Steady Hand"],
            "experience": 6,
        },
        bob={"side": "m", "zone": "b", "skills": {"Agility": 1}},
    )
    return start(setup, 6, 6, 1, 1)


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


# ------------------------------------------------------------------ round 3: overcome


def test_a_block_on_a_named_action_is_tried_after_a_move_past_a_held_doorway() -> None:
    """Action: Block and Hold a doorway: j, in b, moves into a past ann's doorway (2 + 2 +
    Weapons 1 = 5) with 5 + 5 + Agility 1 = 11, then tries m's Block on "open the door" (3 + 3 +
    Strength 1 = 7) with 4 + 4 + 1 − 1 = 8 and passes; ann's doorway is no Block on a named
    action to overcome."""
    setup = scene(
        ann={"side": "s", "zone": "a", "skills": {"Weapons": 1}},
        m={"side": "s", "zone": "a", "skills": {"Strength": 1}},
        j={"side": "b", "zone": "b", "skills": {"Agility": 1}},
    )
    table = start(setup, 6, 6, 5, 5, 1, 1)
    assert table.state.order == ("ann", "m", "j")
    table = act(table, "ann", "block", [2, 2], doorway="b")
    table = act(table, "m", "block", [3, 3], action="open the door", skill="Strength")
    with pytest.raises(RuleError, match="ann blocks no named action now"):
        act(table, "j", "overcome", [6, 6], blocker="ann", skill="Agility")
    passed = act(table, "j", "overcome", [5, 5, 4, 4], blocker="m", skill="Agility", move_to="a")
    door, named = events(passed, "block.tested")
    assert (door["blocker"], door["rolled"]["faces"], door["rolled"]["total"]) == (
        "ann",
        [5, 5],
        11,
    )
    assert (named["blocker"], named["action"], named["rolled"]["faces"]) == (
        "m",
        "open the door",
        [4, 4],
    )
    assert (named["strength"], named["rolled"]["total"]) == (7, 8)
    odds = {"success": "5/12", "match": "1/6", "failure": "5/12"}
    card = named["roll"]
    assert (named["odds"], card["label"], card["rule"], card["dice"], card["odds"]) == (
        odds,
        "J tries to open the door past M's Block (Agility)",
        "Action: Block",
        "2d6+0 > 7",
        odds,
    )
    assert events(passed, "block.overcome") == [
        {"character": "j", "blocker": "m", "action": "open the door"}
    ]


# ------------------------------------------------------------------ round 3: recovery, a move


def test_a_recovered_consequence_goes_and_the_others_keep_their_days() -> None:
    """Consequences: a slight one lasts a day, a moderate a week, a heavy a month: a day's
    recovery removes the slight one and counts a day on each of the others."""
    slots = (
        Consequences()
        .take(TakenConsequence("slight", "Winded"))
        .take(TakenConsequence("moderate", "Bleeding Cut"))
        .take(TakenConsequence("heavy", "Broken Arm"))
    )
    left = slots.recover(1)
    assert [(c.aspect, c.recovered_days) for c in left.taken] == [
        ("Bleeding Cut", 1),
        ("Broken Arm", 1),
    ]


def test_a_move_past_a_held_doorway_is_tried_with_the_dice_rolled() -> None:
    """Hold a doorway: a full move past the Block is an Agility roll against its strength (1 +
    1 + Weapons 3 = 5): jack's 3 + 3 + 1 = 7 passes, and the roll recorded is that one."""
    table = act(duel(), "moll", "block", [1, 1], doorway="hall")
    dice = ScriptedSource([3, 3])
    table = table.act(Action("jack", "move", {"to": "hall"}), dice)
    assert dice.used == 2
    (tested,) = events(table, "block.tested")
    assert (tested["strength"], tested["rolled"]["faces"], tested["rolled"]["total"]) == (
        5,
        [3, 3],
        7,
    )
    assert table.state.get("jack").zone == "hall"


# ------------------------------------------------------------------ round 3: consequences.py


def _hit_of_13(*chosen: dict[str, str]) -> Table[SceneState]:
    """moll's sword, 6 + 6 + Weapons 3 = 15 against jack's parry of 1 + 1 + 2 = 4: 11 + 2 =
    13 stress on Health, less the consequences jack takes."""
    table = duel(jack={"aspects": ["Handsome Jack"]})
    return act(table, "moll", "attack", [6, 6, 1, 1], target="jack", consequences=list(chosen))


def test_consequences_mitigate_a_hit_and_what_is_left_is_marked() -> None:
    """Consequences: slight mitigates 2, moderate 4, heavy 6, extreme 8 (replacing an Aspect,
    named in any case); what is left of the 13 is marked: 3, then 1, then nothing at all."""
    extreme = {"severity": "extreme", "aspect": "Scarred Face", "replaces": "handsome jack"}
    table = _hit_of_13(extreme, {"severity": "slight", "aspect": "Winded"})
    assert events(table, "consequence.taken") == [
        {
            "character": "jack",
            "severity": "extreme",
            "aspect": "Scarred Face",
            "track": "Health",
            "mitigates": 8,
            "inflicted_by": "society",
            "replaces": "handsome jack",
        },
        {
            "character": "jack",
            "severity": "slight",
            "aspect": "Winded",
            "track": "Health",
            "mitigates": 2,
            "inflicted_by": "society",
            "replaces": None,
        },
    ]
    assert table.state.get("jack").sheet.aspects == ("Scarred Face",)
    (hit,) = events(table, "stress.taken")
    assert (hit["character"], hit["track"], hit["stress"]) == ("jack", "Health", 3)
    table = _hit_of_13(extreme, {"severity": "moderate", "aspect": "Bleeding Cut"})
    assert [e["stress"] for e in events(table, "stress.taken")] == [1]
    table = _hit_of_13(extreme, {"severity": "heavy", "aspect": "Broken Arm"})
    assert not events(table, "stress.taken")
    assert not table.state.get("jack").taken_out


def test_a_hit_of_one_stress_is_marked_and_a_hit_past_the_track_takes_out() -> None:
    """Stress Tracks and Taken Out: fists (bonus 0), 3 + 2 + Brawl 1 = 6 against jack's parry
    of 2 + 1 + 2 = 5, mark 1 stress; 13 unmitigated take jack out, by moll."""
    table = duel(moll={"weapon": "fists"})
    table = act(table, "moll", "attack", [3, 2, 2, 1], target="jack", skill="Brawl")
    (hit,) = events(table, "stress.taken")
    assert (hit["track"], hit["stress"]) == ("Health", 1)
    out = _hit_of_13()
    assert events(out, "taken_out") == [{"character": "jack", "by": "moll"}]


# ------------------------------------------------------------------ round 3: the odds previews


def test_an_attack_and_a_manoeuvre_preview_their_check_and_tags_in_words() -> None:
    """The odds shown before a roll (issue 11's previews): the check the rule rolls, its label
    naming the Aspects tagged (or none), the rule, the dice as written and the exact odds."""
    table = fight()
    plain = preview(table, "alice", Action("moll", "attack", {"target": "jack"}))
    assert [(p.label, p.rule, p.dice, dict(p.odds)) for p in plain] == [
        (
            "Moll attacks Jack (Weapons against Weapons), no Aspect tagged",
            "Action: Attack",
            "2d6+3 vs 2d6+2",
            {"success": "721/1296", "match": "35/324", "failure": "145/432"},
        )
    ]
    tagged = preview(
        table,
        "alice",
        Action("moll", "attack", {"target": "jack", "tags": ["Quick Hands", "Stubborn"]}),
    )
    assert [(p.label, p.dice, dict(p.odds)) for p in tagged] == [
        (
            "Moll attacks Jack (Weapons against Weapons), tagging Quick Hands, Stubborn",
            "4d6kh2+3 vs 2d6+2",
            {"success": "38141/46656", "match": "1643/23328", "failure": "581/5184"},
        )
    ]
    unbalance = preview(
        table, "alice", Action("moll", "manoeuvre", {"target": "jack", "named": "unbalance"})
    )
    assert [(p.label, p.rule, p.dice) for p in unbalance] == [
        (
            "Moll manoeuvres for Off-Balance on jack (Brawl against Weapons of jack), "
            "no Aspect tagged",
            "Action: Manoeuvre",
            "2d6+1 vs 2d6+2",
        )
    ]
    assert preview(table, "alice", Action("moll", "full_defence", {})) == ()


# ------------------------------------------------------------------ round 3: the log in words


def _said(kind: str, **data: Any) -> str:
    return describe(Event(kind, data), Viewer("referee"))


def test_the_log_says_each_outcome_move_consequence_and_sheet_in_words() -> None:
    """What a seat reads in the log (events.py's narration): a roll's outcome with its level and
    margin, an Aspect placed, a move (pushed or not), a Sprint's route, a consequence and what it
    replaces, a recovery, a sheet checked."""
    seize = {"character": "jack", "thing": "the casket", "against": 4}
    assert _said("seize.rolled", **seize, outcome="success", success_level="Solid", margin=3) == (
        "Jack tries to seize the casket against a Block of 4 and succeeds (Solid, by 3)"
    )
    assert _said("seize.rolled", **seize, outcome="match", margin=0) == (
        "Jack tries to seize the casket against a Block of 4 and is a Match"
    )
    assert _said("seize.rolled", **seize, outcome="failure", margin=-2) == (
        "Jack tries to seize the casket against a Block of 4 and fails (by 2)"
    )
    placed = {"name": "Smoke", "setter": "kit"}
    assert _said("aspect.placed", **placed, on="scene", unique_to=None) == (
        "the Aspect Smoke is placed on the scene by Kit"
    )
    assert _said("aspect.placed", **placed, on="bob", unique_to="kit") == (
        "the Aspect Smoke is placed on bob by Kit, unique to Kit"
    )
    assert _said("moved", character="jack", **{"from": "room", "to": "hall"}) == (
        "Jack moves from room to hall"
    )
    assert _said("moved", character="jack", by="moll", **{"from": "room", "to": "hall"}) == (
        "Jack moves from room to hall, pushed by Moll"
    )
    assert _said("sprint.rolled", character="kit", points=4, route=["b", "c"]) == (
        "Kit sprints with 4 points of movement: b → c"
    )
    assert _said("sprint.rolled", character="kit", points=0, route=[]) == (
        "Kit sprints with 0 points of movement: nowhere"
    )
    consequence = {"character": "jack", "aspect": "Scarred Face", "track": "Health"}
    assert _said(
        "consequence.taken", **consequence, severity="extreme", mitigates=8, replaces="Handsome"
    ) == (
        "Jack takes an extreme consequence, Scarred Face (mitigates 8 Health stress, "
        "replacing Handsome)"
    )
    assert _said("consequence.taken", **consequence, severity="slight", mitigates=2) == (
        "Jack takes a slight consequence, Scarred Face (mitigates 2 Health stress)"
    )
    assert _said("consequence.recovering", character="jack", days=7, recovered=["Cut", "Bump"]) == (
        "Jack recovers for 7 days: Cut, Bump recovered"
    )
    assert _said("consequence.recovering", character="jack", days=1, recovered=[]) == (
        "Jack recovers for 1 day: nothing yet recovered"
    )
    assert _said("sheet.checked", name="Moll", valid=True) == "the sheet of Moll is legal"
    assert _said("sheet.checked", name="Moll", valid=False, problems=["a", "b"]) == (
        "the sheet of Moll breaks the rules: a; b"
    )


# ------------------------------------------------------------------ round 3: rolls.py


def test_option_b_rolls_to_beat_a_total_or_only_to_reach_it() -> None:
    """Tagging, option b (re-roll while short): to beat 7, a 3 + 4 is short and the tag
    re-rolls the 3 (a 6: 10); only to reach 7 (a defence that must not be beaten), 3 + 4
    already holds and the tag is kept."""
    spec = GinLaneRoll(0, tags=1, mode=TagMode.REROLL)
    beat = spec.roll_to(ScriptedSource([3, 4, 6]), 7, beat=True)
    assert (beat.faces, beat.total, beat.tags_used) == ((3, 4, 6), 10, 1)
    reach = spec.roll_to(ScriptedSource([3, 4, 6]), 7, beat=False)
    assert (reach.faces, reach.total, reach.tags_used) == ((3, 4), 7, 0)


def test_the_kernel_check_behind_an_opposed_roll_keeps_a_tie_a_match() -> None:
    """Resolving attacks (RULINGS: a Match): the kernel's check behind an opposed roll of option
    a leaves a tie a Match, with the same odds as the roll itself."""
    opposed = OpposedRoll(GinLaneRoll(1), GinLaneRoll(1))
    kernel = opposed.kernel_check()
    assert kernel.ties is TieRule.TIE
    assert kernel.odds().outcomes == opposed.odds().outcomes
    assert opposed.odds().outcomes[Outcome.TIE] == Fraction(73, 648)


def test_a_preview_carries_a_supplemental_move_past_a_held_doorway_to_its_check() -> None:
    """The odds shown for an attack after a supplemental move past jack's doorway of 5 + 6 +
    Weapons 2 = 13: the move is taken as passing (every die of the probe at its highest, 6 + 6 +
    Agility 2 = 14), so moll's sword reaches ann in the hall and the preview is that attack's
    check (Weapons 3 − 1 against ann's Weapons 1 + Full Defence 2); stopped at the door, it would
    reach no one."""
    ann = {"side": "bravoes", "zone": "hall", "weapon": "sword", "skills": {"Weapons": 1}}
    characters: dict[str, Any] = {**SETUP["characters"], "ann": ann}  # type: ignore[dict-item]
    setup = {**SETUP, "characters": characters}
    table = SYSTEM.new_table(setup, players={"alice": ["moll"]})
    table = table.act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1, 1, 1]))
    table = act(table, "moll", "full_defence")
    table = act(table, "jack", "block", [5, 6], doorway="hall")
    table = act(table, "ann", "full_defence")
    shown = preview(table, "alice", Action("moll", "attack", {"target": "ann", "move_to": "hall"}))
    assert [(p.label, p.dice) for p in shown] == [
        ("Moll attacks Ann (Weapons against Weapons), no Aspect tagged", "2d6+2 vs 2d6+3")
    ]
