"""Tests that kill the mutants of ``scene.py`` and ``fold.py`` mutmut left alive in round 5 of
issue 13 (docs/systems/ginlane.md, "Mutation testing", "Round 5"): each asserts an outcome of the
rules text ("No Relevant Skill", "The Skills List", "Difficult terrain", "Team Work", "The Free
Experience Pool")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Outcome, RuleError, ScenarioError, Table
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.rolls import GinLaneRoll, OpposedRoll, TagMode

from .test_mutants import _thrower
from .test_mutants_opposed import as_tuple
from .test_procedure import FIGHTER, act, duel, events, scene, start

# moll's pyramid with one skill at 1 swapped for another (the Skill Pyramid still holds)
_SWAPPED = {k: v for k, v in FIGHTER.items() if k != "Brawl"}


def _manoeuvre_total(skills: dict[str, int], skill: str) -> tuple[int, str]:
    """moll's manoeuvre against the surroundings (Fair, 7 to beat) with ``skill`` on 3 + 3."""
    table = duel(moll={"skills": skills})
    done = act(table, "moll", "manoeuvre", [3, 3], named="take cover", difficulty=7, skill=skill)
    (rolled,) = events(done, "manoeuvre.rolled")
    return rolled["rolled"]["total"], rolled["outcome"]


def test_a_skill_named_by_its_former_name_rolls_at_the_sheets_level() -> None:
    """The Skills List: Rapport is now Charm; a roll of Rapport by a character with Charm 1 is
    a roll of Charm 1 (3 + 3 + 1 = 7), not an untrained one (−2)."""
    assert _manoeuvre_total({**_SWAPPED, "Charm": 1}, "Rapport") == (7, "match")


def test_a_sheet_that_keeps_a_former_name_rolls_it_at_its_level() -> None:
    """A sheet written with Rapport (Charm's former name) rolls Rapport at its level."""
    assert _manoeuvre_total({**_SWAPPED, "Rapport": 1}, "Rapport") == (7, "match")


def test_a_skill_asked_by_its_new_name_rolls_a_sheets_former_name() -> None:
    """The Skills List: Rapport is now Charm; a sheet written with Rapport 1 rolls Charm at 1."""
    assert _manoeuvre_total({**_SWAPPED, "Rapport": 1}, "Charm") == (7, "match")


def test_a_related_claim_never_lowers_a_skill_the_sheet_has_under_another_name() -> None:
    """No Relevant Skill: ``related: true`` rolls an untrained skill at 0; moll has Charm 1, so
    Rapport (Charm's former name) claimed as related still rolls at 1 (3 + 3 + 1 = 7)."""
    table = duel(moll={"skills": {**_SWAPPED, "Charm": 1}})
    done = act(
        table,
        "moll",
        "manoeuvre",
        [3, 3],
        named="take cover",
        difficulty=7,
        skill="Rapport",
        related=True,
    )
    (rolled,) = events(done, "manoeuvre.rolled")
    assert (rolled["rolled"]["total"], rolled["outcome"]) == (7, "match")


def test_a_skill_taken_for_one_craft_rolls_at_its_level() -> None:
    """The Skills List, "Craft" (a choice: Craft: tailor): the skill as the sheet names it counts
    at its level (3 + 3 + 1 = 7)."""
    assert _manoeuvre_total({**_SWAPPED, "Craft: tailor": 1}, "Craft: tailor") == (7, "match")


def test_a_craft_with_no_craft_named_does_not_count_for_tailoring() -> None:
    """Craft is taken for one craft: a sheet's bare Craft 1 does not make moll a tailor, who
    rolls Craft: tailor untrained (3 + 3 − 2 = 4)."""
    assert _manoeuvre_total({**_SWAPPED, "Craft": 1}, "Craft: tailor") == (4, "failure")


def test_an_arcane_skill_is_impossible_untrained() -> None:
    """No Relevant Skill: "Arcane or Obscure" skills are impossible to the uninitiated (Rulings:
    read as impossible): an untrained Lore roll is refused, not rolled at −2."""
    with pytest.raises(RuleError, match="No Relevant Skill: an Arcane or Obscure skill"):
        _manoeuvre_total(FIGHTER, "Lore")


def _setup(**fields: Any) -> dict[str, Any]:
    return {"zones": ["a", "b"], "characters": {"moll": {}}, **fields}


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"links": [["a", "b", True]]}, r"links\.0: a barrier's cost is a whole number"),
        ({"links": [["a", "b", 2.0]]}, r"links\.0: a barrier's cost is a whole number"),
        ({"costs": {"a": True}}, r"costs\.a: a zone's cost is a whole number"),
        ({"characters": {"moll": {"pool": True}}}, r"characters\.moll\.pool: the pool is a whole"),
        ({"characters": {"moll": {"pool": 3.0}}}, r"characters\.moll\.pool: the pool is a whole"),
        ({"characters": {"moll": {"pool": "3"}}}, r"characters\.moll\.pool: the pool is a whole"),
    ],
)
def test_a_cost_or_a_pool_is_a_whole_number_not_true_or_a_float(
    fields: dict[str, Any], where: str
) -> None:
    """Difficult terrain (a cost of 2, 3, 4, &c) and The Free Experience Pool (points): whole
    numbers; ``true`` and ``2.0`` are refused with the field's path."""
    with pytest.raises(ScenarioError, match=where):
        Table.start(PROCEDURE, _setup(**fields))


def test_a_cost_of_one_is_a_clear_way() -> None:
    """Difficult terrain: a barrier or a zone may be given the plain cost of 1."""
    table = Table.start(PROCEDURE, _setup(links=[["a", "b", 1]], costs={"b": 1}))
    assert (table.state.links, table.state.zone_costs) == ((("a", "b", 1),), (("b", 1),))


def test_a_sitting_duck_is_not_free_for_its_own_side() -> None:
    """Action: Something Else: the Sitting Duck is free-taggable by the other side only; moll,
    tagging her own Sitting Duck to parry jack, pays a point for it."""
    table = act(duel(), "moll", "something_else", what="loads her pistol")
    (duck,) = table.state.aspects
    assert table.state.aspect(duck.id) == duck
    defence = {"skill": "Weapons", "tags": ["Sitting Duck"]}
    done = act(table, "jack", "attack", [1, 1, 6, 6, 1], target="moll", defence=defence)
    tagged = [e for e in events(done, "aspect.tagged") if e["character"] == "moll"]
    assert tagged == [{"character": "moll", "aspect": "Sitting Duck", "free": False, "id": duck.id}]
    assert done.state.get("moll").pool.points == table.state.get("moll").pool.points - 1


def test_a_block_its_overcoming_and_a_seize_roll_a_craft_at_the_sheets_level() -> None:
    """The Skills List, "Craft" (a choice): a Block "in an appropriate skill", the roll to
    overcome it and a seize each roll Craft: locksmith at the sheet's 1, not untrained (−2)
    — until round 5 the actions looked the skill up as Craft, which the sheet does not have."""
    lock = {"Craft: locksmith": 1}
    setup = scene(
        m={"side": "s", "zone": "a", "skills": lock}, j={"side": "b", "zone": "a", "skills": lock}
    )
    table = start(setup, 6, 6, 1, 1)
    blocked = act(table, "m", "block", [3, 3], action="pick the lock", skill="Craft: locksmith")
    assert blocked.state.get("m").block.strength == 7
    passed = act(blocked, "j", "overcome", [4, 3], blocker="m", skill="Craft: locksmith")
    (tested,) = events(passed, "block.tested")
    assert (tested["strength"], tested["rolled"]["total"]) == (7, 8)
    seized = act(table, "m", "seize", [1, 1], thing="the key", skill="Craft: locksmith")
    assert events(seized, "seized") == [{"character": "m", "thing": "the key"}]


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (_setup(zone="a"), "zone: not a field of a Gin Lane setup here"),
        (_setup(links=[["a"]]), "links.0.1: Field required"),
        (
            _setup(characters={"moll": {"pool": -1}}),
            "characters.moll.pool: Input should be greater than or equal to 0",
        ),
    ],
)
def test_a_bad_setup_says_the_fields_path_and_what_is_wrong(
    setup: dict[str, Any], message: str
) -> None:
    """A scene's setup is refused naming the field as the scene file writes it (no model
    types in the path) and what is wrong with it; a field Gin Lane does not have says so."""
    with pytest.raises(ScenarioError) as refused:
        Table.start(PROCEDURE, setup)
    assert str(refused.value) == message


def test_every_seat_sees_a_block_in_force_and_a_fizzled_grenade() -> None:
    """Action: Block (a thing held) and Fizzle: the scene every seat sees shows moll's Block,
    its kind, strength (3 + 3 − 2 untrained Strength) and what it holds, and the fizzled
    grenade, where it lies and whom it was aimed at."""
    holding = act(duel(), "moll", "block", [3, 3], hold="the casket")
    seen = PROCEDURE.state_json(holding.state)["characters"]["moll"]["block"]
    assert seen == {"kind": "hold", "strength": 4, "target": "the casket"}
    fizzled = act(_thrower(), "kit", "throw_grenade", [3, 3, 1, 1], zone="b")
    assert PROCEDURE.state_json(fizzled.state)["fizzles"] == [
        {"thrower": "kit", "zone": "b", "on_target": None}
    ]


def test_a_setups_holdings_say_who_holds_what_from_the_start() -> None:
    """Hold a thing: the setup's ``holdings`` (a thing: who holds it) are in the scene from the
    start, and every seat sees them."""
    table = Table.start(PROCEDURE, _setup(holdings={"the purse": "moll"}))
    assert table.state.holdings == (("the purse", "moll"),)
    assert PROCEDURE.state_json(table.state)["holdings"] == {"the purse": "moll"}


def test_an_aim_lapses_out_of_sight_and_the_aspects_placed_after_it_stay() -> None:
    """Take Aim ("if the target doesn't do something to break the aim which might be as simple
    as walking out of sight"): kit aims at bob four zones off, bob does something else (a
    takes cover (an Aspect on himself), kit steps back to five zones: the aim lapses, the cover
    placed after it stays as it was."""
    setup = scene(
        kit={"side": "s", "zone": "b", "weapon": "pistol", "skills": {"Firearms": 1}},
        bob={"side": "m", "zone": "f"},
    )
    setup["links"] = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"]]
    table = start(setup, 6, 6, 1, 1)
    table = act(
        table,
        "kit",
        "manoeuvre",
        [6, 6],
        target="bob",
        named="take aim",
        difficulty=7,
        skill="Firearms",
    )
    table = act(table, "bob", "manoeuvre", [6, 6], named="take cover", difficulty=7)
    aim, cover = table.state.aspects
    assert (aim.name, aim.unique_to, cover.on) == ("Target", "kit", "bob")
    stepped = act(table, "kit", "move", [], to="a")
    assert stepped.state.aspects == (cover,)


def test_a_protecting_block_that_the_attack_only_matches_spares_the_defence_its_tags() -> None:
    """Protect someone: the attack must exceed the block too. Attack 2 + 3 + 3 = 8 against a
    block of 8: the block already holds (a Match at best), so the defence on option b keeps its
    1, 1 and uses no tag; the margin is 8 − 8 = 0, a Match."""
    defence = GinLaneRoll(skill=1, tags=2, mode=TagMode.REROLL)
    check = OpposedRoll(GinLaneRoll(skill=2), defence, floor=8)
    result = check.roll(ScriptedSource([3, 3, 1, 1, 6, 6, 6, 6]))
    assert result.opponent is not None
    assert as_tuple(result.opponent) == ((1, 1), 3, (1, 1), 0, 0, "2d6 (1, 1) +1 = 3")
    assert (result.outcome, result.margin) == (Outcome.TIE, 0)


def test_a_waiter_who_acts_is_no_longer_waiting_and_the_plan_is_spent() -> None:
    """Action: Wait: moll waits with a sealed plan and acts on it out of turn; then she is no
    longer waiting (every seat sees ``false``) and the plan, revealed, is no longer held."""
    waited = act(duel(), "moll", "wait", plan="strike when he turns")
    assert [p[0] for p in waited.state.plans] == ["moll"]
    acted = act(waited, "moll", "full_defence")
    assert acted.state.plans == ()
    assert PROCEDURE.state_json(acted.state)["characters"]["moll"]["waiting"] is False
