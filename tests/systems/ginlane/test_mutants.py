"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/ginlane.md, "Mutation
testing"): each asserts an outcome of the rules text.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, Table
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.stress import Consequences, TakenConsequence
from referee.systems.ginlane.zones import step

from .test_procedure import act, duel, events, scene, start

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
