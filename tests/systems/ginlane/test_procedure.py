"""The scene procedure, rule by rule (Gin Lane, "Fighting", "Manoeuvres", "Team Work",
"Action: Block", "Grapple", "Action: Sprint", "Action: Wait", "Grenades", "Defence", "Stress
Recovery", "Consequences", "Declarations", "Experience Pool Refresh", "Magia")."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import Action, ActionError, RuleError, ScenarioError, Table, Viewer
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.procedure import SceneState

FIGHTER = {"Weapons": 3, "Agility": 2, "Alertness": 2, "Endurance": 1, "Resolve": 1, "Brawl": 1}
BRAVO = {"Weapons": 2, "Agility": 1, "Alertness": 1}


def scene(**characters: dict[str, Any]) -> dict[str, Any]:
    return {
        "zones": ["a", "b", "c", "d", "e", "f"],
        "links": [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"], ["a", "f", 3]],
        "costs": {"c": 2},
        "characters": characters,
    }


def start(setup: dict[str, Any], *init: int, mode: str = "a") -> Table[SceneState]:
    setup = {**setup, "mode": mode}
    table = Table.start(PROCEDURE, setup)
    if init:
        table = table.act(Action("referee", "initiative"), ScriptedSource(init))
    return table


def act(
    table: Table[SceneState],
    actor: str,
    kind: str,
    faces: list[int] | None = None,
    *,
    answer: bool = True,
    **params: Any,
) -> Table[SceneState]:
    """``actor`` takes the action with the dice ``faces``. Where it waits for someone's answer
    (an attack, a manoeuvre, a rush or a blast for its target's defence, a hit for its target
    to take it) and ``answer`` is true, each is answered from the target's own seat, with the
    same dice: with ``defence`` (a skill, or ``{skill, tags}``; a blast: ``defences`` by
    victim) and ``consequences`` (a list; a blast: by victim) where given, else with its
    prompt's default (her best skill and no tag; the stress on the track)."""
    dice = ScriptedSource(faces or [])
    given = ("defence", "defences", "consequences") if kind not in ("defend", "absorb") else ()
    answers = {k: params.pop(k) for k in given if k in params}
    table = table.act(Action(actor, kind, params), dice)
    while answer and (asked := PROCEDURE.prompts(table.state)):
        table = table.act(answered(asked[0], answers), dice)
    return table


def answered(asked: Any, answers: dict[str, Any]) -> Action:
    """The answer to the prompt ``asked``: the defence or consequences given (by the target's
    name where they are by victim), else the prompt's default."""
    who = asked.actor
    defences = answers.get("defences", {})
    chosen = answers.get("consequences")
    if isinstance(chosen, dict):
        chosen = chosen.get(who)
    if "defend" in asked.kinds and (answers.get("defence") or who in defences):
        given = answers.get("defence") or defences[who]
        return Action(who, "defend", {"skill": given} if isinstance(given, str) else given)
    if "absorb" in asked.kinds and chosen is not None:
        return Action(who, "absorb", {"consequences": chosen})
    assert asked.default is not None
    return asked.default


def kinds(table: Table[SceneState], since: int = 0) -> list[str]:
    return [e.kind for e in table.log.events[since:]]


def events(table: Table[SceneState], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in table.log.events if e.kind == kind]


def duel(mode: str = "a", **extra: Any) -> Table[SceneState]:
    moll = {
        "side": "society",
        "weapon": "sword",
        "skills": FIGHTER,
        "experience": 13,
        "aspects": ["Fencing Mistress"],
        **extra.get("moll", {}),
    }
    jack = {
        "side": "bravoes",
        "weapon": "sword",
        "skills": BRAVO,
        "experience": 6,
        **extra.get("jack", {}),
    }
    setup = {
        "characters": {"moll": moll, "jack": jack, **extra.get("others", {})},
        "zones": ["room", "hall"],
        "links": [["room", "hall"]],
    }
    faces = [6, 6, 1, 1] + [1, 1] * len(extra.get("others", {}))
    return start(setup, *faces, mode=mode)


def browbeaten(table: Table[SceneState]) -> Table[SceneState]:
    """Jack's untrained Intimidation, claimed as related, turned on Moll in ``table``: an
    attack on her Composure waiting for her answer."""
    return act(
        table, "jack", "attack", [], target="moll", skill="Intimidation", related=True,
        answer=False,
    )  # fmt: skip


# ------------------------------------------------------------------ initiative and turns


def test_initiative_winner_first_then_around_the_table() -> None:
    setup = scene(
        x={"skills": {"Alertness": 1}, "zone": "a"},
        y={"skills": {"Alertness": 1}, "zone": "a"},
        z={"skills": {"Alertness": 1}, "zone": "a"},
    )
    table = start(setup, 1, 1, 5, 5, 2, 2)
    assert table.state.order == ("y", "z", "x")


def test_initiative_ties_reroll_among_the_tied() -> None:
    setup = scene(
        x={"skills": {"Alertness": 1}, "zone": "a"},
        y={"skills": {"Alertness": 1}, "zone": "a"},
        z={"skills": {"Alertness": 1}, "zone": "a"},
    )
    table = start(setup, 5, 5, 5, 5, 1, 1, 1, 2, 3, 3)
    assert events(table, "initiative.rolled")[0]["totals"] == {"x": [11, 4], "y": [11, 7], "z": [3]}
    assert table.state.order == ("y", "z", "x")


def test_initiative_first_and_turns_enforced() -> None:
    table = duel()
    with pytest.raises(RuleError, match="Initiative: it is moll's turn, not jack's"):
        act(table, "jack", "full_defence")
    fresh = Table.start(PROCEDURE, {"characters": {"moll": {"skills": {}}}})
    with pytest.raises(RuleError, match="roll initiative first"):
        act(fresh, "moll", "full_defence")
    with pytest.raises(RuleError, match="initiative has been rolled"):
        act(table, "referee", "initiative", [1, 1, 1, 1])
    with pytest.raises(ActionError, match="dance: no such action"):
        act(table, "moll", "dance")


def test_legal_actions_menu() -> None:
    table = duel()
    menu = table.legal_actions("moll")
    attack = next(c for c in menu if c.kind == "attack")
    assert attack.params["target"].contains("jack") and not attack.params["target"].contains("moll")
    assert attack.allows({"target": "jack", "tags": ["Fencing Mistress"]})
    # the Aspects she may tag: her own, the free Society one given at creation among them
    assert attack.params["tags"].values == (
        "Fencing Mistress",
        "Member of the Society for Effectual Redress",
    )
    # jack may only make a Declaration or pay Maintenance out of turn: no Full Action
    assert {c.kind for c in table.legal_actions("jack")} <= {"declare", "maintain", "recover"}


# ------------------------------------------------------------------ attack and defence


def test_attack_stress_is_margin_plus_weapon_bonus() -> None:
    table = act(duel(), "moll", "attack", [5, 5, 3, 3], target="jack")  # 13 vs 8
    assert events(table, "stress.taken")[0] == {
        "character": "jack",
        "track": "Health",
        "stress": 7,
        "box": None,
        "taken_out": True,
    }


def test_unarmed_match_deals_nothing() -> None:
    # Brawl 4+4+1 = 9 against Weapons 4+3+2 = 9 with fists (+0)
    table = act(duel(), "moll", "attack", [4, 4, 4, 3], target="jack", weapon="fists")
    assert events(table, "attack.match") and not events(table, "stress.taken")


def test_related_skill_rolls_at_zero_and_limiting_skills_the_lower() -> None:
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [3, 3],
        named="take cover",
        difficulty=7,
        skill="Stealth",
        related=True,
    )
    assert events(table, "manoeuvre.rolled")[0]["rolled"]["total"] == 6  # Stealth at 0, not -2
    table = act(
        table,
        "jack",
        "manoeuvre",
        [3, 3],
        named="take cover",
        difficulty=7,
        skill="Weapons",
        limited_by="Agility",
    )
    assert events(table, "manoeuvre.rolled")[1]["rolled"]["total"] == 7  # the lower: Agility 1


def test_social_attack_on_composure_and_an_improvised_weapon() -> None:
    table = act(duel(jack={"skills": {**BRAVO, "Intimidation": 1}}), "moll", "full_defence")
    # Intimidation 3+3+1 = 7 against Moll's Resolve 1+1+1+2 = 5: Composure 2, no weapon bonus
    table = act(
        table,
        "jack",
        "attack",
        [3, 3, 1, 1],
        target="moll",
        skill="Intimidation",
        defence="Resolve",
    )
    assert events(table, "stress.taken")[0] == {
        "character": "moll",
        "track": "Composure",
        "stress": 2,
        "box": 2,
        "taken_out": False,
    }
    # Moll clubs with a pistol: Weapons, improvised +1
    table = act(
        table, "moll", "attack", [3, 3, 2, 2], target="jack", weapon="pistol", skill="Weapons"
    )
    assert events(table, "attack.rolled")[-1]["bonus"] == 1


def test_defence_skill_must_be_allowed() -> None:
    with pytest.raises(RuleError, match="Defence: Firearms can't defend"):
        act(duel(), "moll", "attack", [3, 3, 3, 3], target="jack", defence="Firearms")
    with pytest.raises(RuleError, match="Brawl can't defend against a Weapons attack"):
        act(duel(), "moll", "attack", [3, 3, 3, 3], target="jack", defence="Brawl")


def test_a_defence_leaves_the_table_when_the_next_characters_turn_begins() -> None:
    """Defence: a result "remains 'on the table' for any further uses of that particular
    defence in the Turn" — the Turn it was rolled in (RULINGS.md, Round 3): jack's parry of
    moll's attack is gone when ann's Turn begins, and ann's attack asks him again."""
    chars = {
        "moll": {"side": "society", "weapon": "sword", "skills": FIGHTER},
        "ann": {"side": "society", "weapon": "sword", "skills": BRAVO},
        "jack": {"side": "bravoes", "weapon": "sword", "skills": BRAVO},
    }
    table = start({"characters": chars}, 6, 6, 1, 1, 1, 1)
    assert table.state.order == ("moll", "ann", "jack")
    table = act(table, "moll", "attack", [3, 3, 4, 4], target="jack")  # 9 vs Weapons 10
    assert table.state.current == "ann" and table.state.get("jack").defences == ()
    table = act(table, "ann", "attack", [6, 3, 1, 1], target="jack", answer=False)
    assert [p.actor for p in PROCEDURE.prompts(table.state)] == ["jack"]
    assert events(table, "defence.stands") == []


def test_full_defence_adds_two() -> None:
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [3, 3, 3, 3], target="moll")  # 8 vs 3+3+3+2 = 11
    assert events(table, "defence.rolled")[-1]["total"] == 11


def test_spin_is_free_for_the_defender_side_and_lapses() -> None:
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [1, 1, 3, 3], target="moll")  # 4 vs 11: spin
    assert [a.name for a in table.state.aspects] == ["Over-Extended"]
    table = act(table, "moll", "full_defence")
    table = act(table, "jack", "full_defence")  # jack's turn: the spin lapses
    assert table.state.aspects == ()


def test_opposition_cannot_free_tag_and_pays() -> None:
    # Concentrate: "The Concentrating Aspect might be tagged by the opposition too"
    table = act(duel(), "moll", "manoeuvre", [6, 6], named="concentrate", difficulty=7)
    assert table.state.aspects[0].on == "moll"
    table = act(table, "jack", "attack", [6, 6, 6, 1, 1], target="moll", tags=["Concentrating"])
    assert events(table, "aspect.tagged")[-1]["free"] is False
    assert events(table, "pool.spent")[-1] == {"character": "jack", "points": 1, "for": "tags"}
    assert table.state.aspects[0].free_tags == 1


def test_a_paid_tag_needs_a_point() -> None:
    table = duel(jack={"experience": 4})  # no unspent experience
    table = act(table, "moll", "full_defence")
    with pytest.raises(RuleError, match="The Free Experience Pool: jack tags 1"):
        act(table, "jack", "attack", [6, 6, 6, 1, 1], target="moll", tags=["Fencing Mistress"])


def test_untagged_aspect_refused() -> None:
    with pytest.raises(RuleError, match="Aspects: moll has no Aspect 'Lucky'"):
        act(duel(), "moll", "attack", [6, 6, 6, 1, 1], target="jack", tags=["Lucky"])


def test_free_taggable_society_aspect_costs_nothing() -> None:
    table = act(
        duel(),
        "moll",
        "attack",
        [6, 6, 1, 1, 1],
        target="jack",
        tags=["Member of the Society for Effectual Redress"],
    )
    assert events(table, "aspect.tagged")[0]["free"] is True
    assert not events(table, "pool.spent")


def test_option_b_uses_a_tag_only_when_short() -> None:
    table = duel(mode="b")
    table = act(table, "moll", "attack", [3, 3, 3, 3], target="jack", tags=["Fencing Mistress"])
    assert not events(table, "aspect.tagged") and not events(table, "pool.spent")
    table = act(table, "jack", "full_defence")
    table = act(
        table, "moll", "attack", [1, 1, 4, 4, 6, 6], target="jack", tags=["Fencing Mistress"]
    )
    assert events(table, "pool.spent") == [{"character": "moll", "points": 1, "for": "tags"}]
    assert events(table, "attack.rolled")[-1]["rolled"]["faces"] == [1, 1, 6, 6]
    assert table.state.get("jack").track("Health").marked == (3, 5)


def test_long_range_bonus_minus_one_and_free_tag_for_the_target() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "weapon": "pistol", "skills": {"Firearms": 1}},
        bob={"side": "m", "zone": "d", "skills": {"Agility": 1}},
    )
    table = start(setup, 6, 6, 1, 1)
    # 2d6+1 = 12 against bob's 3d6kh2 (At Long Range) 1+1 (1 dropped) + 1 = 3; bonus 2 - 1
    table = act(table, "kit", "attack", [6, 5, 1, 1, 1], target="bob")
    attack = events(table, "attack.rolled")[0]
    assert attack["long_range"] is True and attack["bonus"] == 1
    assert events(table, "defence.rolled")[0]["rolled"]["faces"] == [1, 1, 1]
    assert events(table, "stress.taken")[0]["stress"] == 10


def test_out_of_range_refused() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Brawl": 1}}, bob={"side": "m", "zone": "b"}
    )
    table = start(setup, 6, 6, 1, 1)
    with pytest.raises(RuleError, match="Range: a fists reaches 0 zones, not 1"):
        act(table, "kit", "attack", [3, 3, 3, 3], target="bob")


def test_consequence_slots_enforced_in_play() -> None:
    table = act(
        duel(),
        "moll",
        "attack",
        [3, 3, 1, 1],
        target="jack",
        consequences=[{"severity": "heavy", "aspect": "Broken Arm"}],
    )
    assert table.state.get("jack").consequences.taken[0].severity == "heavy"
    assert table.state.get("jack").track("Health").marked == (1,)
    table = act(table, "jack", "full_defence")
    with pytest.raises(RuleError, match="already has a heavy consequence"):
        act(
            table,
            "moll",
            "attack",
            [3, 3, 1, 1],
            target="jack",
            consequences=[{"severity": "heavy", "aspect": "Cracked Ribs"}],
        )


def test_extreme_consequence_replaces_an_aspect() -> None:
    table = act(
        duel(jack={"aspects": ["Handsome Jack"]}),
        "moll",
        "attack",
        [6, 6, 1, 1],
        target="jack",
        consequences=[
            {"severity": "extreme", "aspect": "Scarred Face", "replaces": "Handsome Jack"}
        ],
    )
    assert table.state.get("jack").sheet.aspects == ("Scarred Face",)
    with pytest.raises(RuleError, match="no Aspect 'Pretty' to replace"):
        act(
            duel(),
            "moll",
            "attack",
            [6, 6, 1, 1],
            target="jack",
            consequences=[{"severity": "extreme", "aspect": "Scar", "replaces": "Pretty"}],
        )


def test_no_consequence_without_stress() -> None:
    """Consequences are taken "rather than take too may stress hits": moll's miss (2 + 3
    against 12 + 2) lands no hit, so nobody is asked how to take one and ``absorb`` is
    refused."""
    table = act(duel(), "moll", "attack", [1, 1, 6, 6], target="jack")
    assert events(table, "hit.landed") == [] and table.state.hit is None
    assert PROCEDURE.prompts(table.state) == ()
    with pytest.raises(RuleError, match="Consequences: no hit waits for Jack to take"):
        act(table, "jack", "absorb", consequences=[{"severity": "slight", "aspect": "Winded"}])


# ------------------------------------------------------------------ manoeuvres and team work


def test_manoeuvre_match_places_nothing_and_success_places_with_a_free_tag() -> None:
    table = act(duel(), "moll", "manoeuvre", [3, 3, 4, 3], target="jack", named="unbalance")
    assert table.state.aspects == ()  # Brawl 1 + 6 = 7 vs Agility... a Match
    table = act(table, "jack", "full_defence")
    table = act(
        table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="blind", skill="Brawl"
    )
    (aspect,) = table.state.aspects
    assert (aspect.name, aspect.on, aspect.free_tags) == ("Blinded", "jack", 1)


def test_team_work_first_user_gets_the_free_tag() -> None:
    extra = {
        "others": {"ann": {"side": "society", "weapon": "sword", "skills": BRAVO, "experience": 5}}
    }
    table = duel(**extra)
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "ann", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Off-Balance"])
    table = act(table, "moll", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Off-Balance"])
    tagged = events(table, "aspect.tagged")
    assert [(t["character"], t["free"]) for t in tagged] == [("ann", True), ("moll", False)]


def test_target_aspect_is_unique_to_the_setter() -> None:
    extra = {"others": {"ann": {"side": "society", "skills": BRAVO, "experience": 5}}}
    table = duel(**extra)
    table = act(
        table,
        "moll",
        "manoeuvre",
        [6, 6],
        target="jack",
        named="take aim",
        difficulty=7,
        skill="Weapons",
    )
    table = act(table, "jack", "full_defence")
    with pytest.raises(RuleError, match="Team Work: 'Target' is unique to its setter"):
        act(table, "ann", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Target"])


def test_disarm_drops_the_weapon_and_picking_it_up_restores_it() -> None:
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    assert table.state.get("jack").weapon == "fists"
    table = act(
        table,
        "jack",
        "manoeuvre",
        [6, 6],
        aspect="Disarmed",
        remove=True,
        difficulty=7,
        skill="Agility",
    )
    assert table.state.get("jack").weapon == "sword" and table.state.aspects == ()


def test_remove_needs_the_aspect() -> None:
    with pytest.raises(RuleError, match="no Aspect 'Blinded' on moll"):
        act(
            duel(),
            "moll",
            "manoeuvre",
            [6, 6],
            aspect="Blinded",
            remove=True,
            difficulty=7,
            skill="Agility",
        )


def test_concentrate_and_take_cover_are_on_oneself_against_a_difficulty() -> None:
    table = act(duel(), "moll", "manoeuvre", [4, 4], named="take cover", difficulty="Great")
    assert events(table, "manoeuvre.rolled")[0]["difficulty"] == 9
    assert table.state.aspects[0].on == "moll"


def test_something_else_is_a_sitting_duck_for_the_opposition() -> None:
    table = act(duel(), "moll", "something_else", what="loading a pistol")
    table = act(table, "jack", "attack", [1, 1, 1, 1, 1], target="moll", tags=["Sitting Duck"])
    assert events(table, "aspect.tagged")[0]["free"] is True


# ------------------------------------------------------------------ block, grapple, movement


def test_protect_block_stress_from_the_higher() -> None:
    extra = {"others": {"ann": {"side": "society", "weapon": "sword", "skills": BRAVO}}}
    table = duel(**extra)  # moll, jack, ann
    table = act(table, "moll", "block", [5, 5], protect="ann")  # strength 13
    table = act(table, "jack", "attack", [6, 6, 1, 1], target="ann")  # 14 vs def 4, block 13
    assert events(table, "stress.taken")[0]["stress"] == 1 + 2


def test_doorway_block_must_be_beaten_to_pass() -> None:
    table = act(duel(), "moll", "block", [5, 5], doorway="hall")  # 13
    table = act(table, "jack", "move", [3, 3], to="hall")  # Agility 7: stopped
    assert table.state.get("jack").zone == "room"
    table = act(table, "moll", "block", [1, 1], doorway="hall")  # 5
    table = act(table, "jack", "move", [3, 3], to="hall")
    assert table.state.get("jack").zone == "hall"


def test_hold_a_thing() -> None:
    table = duel()
    table = act(table, "moll", "block", [3, 3], hold="the casket")  # Strength -2: 4
    table = act(table, "jack", "seize", [2, 2], thing="the casket")  # Agility 5 beats 4
    assert table.state.holdings == (("the casket", "jack"),)


def test_grapple_needs_a_tagged_aspect_and_the_same_zone() -> None:
    with pytest.raises(RuleError, match="tag an Aspect"):
        act(duel(), "moll", "grapple", [3, 3], target="jack")
    with pytest.raises(RuleError, match="no Aspect 'Blinded'"):
        act(duel(), "moll", "grapple", [3, 3], target="jack", tag="Blinded")


def test_grappled_cannot_move_and_release_with_the_bums_rush() -> None:
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [3, 3, 3], target="jack", tag="Off-Balance")
    with pytest.raises(RuleError, match="Grapple: jack is grappled and can't move"):
        act(table, "jack", "move", to="hall")
    with pytest.raises(RuleError, match="Grapple: jack is grappled"):
        act(table, "jack", "sprint", [3, 3], path=["hall"])
    table = act(table, "jack", "full_defence")
    # "The opponent gets a defence in these cases as the grapple is off now"
    failed = act(table, "moll", "release", [1, 1, 6, 6], to="hall")  # Strength 0 vs 15
    assert failed.state.get("jack").zone == "room" and failed.state.get("moll").block is None
    table = act(table, "moll", "release", [6, 6, 1, 1], to="hall")  # 10 vs 1+1+1+2 = 5
    assert events(table, "rush.rolled")[0]["odds"]["success"] != "0"
    assert table.state.get("jack").zone == "hall" and table.state.get("moll").block is None


def test_sprint_is_abs_d6_minus_d6_plus_agility_with_terrain() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1}}, bob={"side": "m", "zone": "f"}
    )
    table = start(setup, 6, 6, 1, 1)
    table = act(table, "kit", "sprint", [6, 3], path=["b", "c", "d"])  # 3 + 1 = 4; c costs 2
    assert events(table, "sprint.rolled")[0]["points"] == 4
    assert table.state.get("kit").zone == "d"
    with pytest.raises(RuleError, match="at most 4 zones"):
        act(
            act(table, "bob", "full_defence"),
            "kit",
            "sprint",
            [6, 1],
            path=["e", "f", "a", "b", "c"],
        )


def test_move_needs_a_clear_way_and_supplemental_move_costs_one() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Brawl": 1}},
        bob={"side": "m", "zone": "b"},
    )
    table = start(setup, 6, 6, 1, 1)
    with pytest.raises(RuleError, match="no clear way from 'a' to 'f'"):
        act(table, "kit", "move", to="f")
    table = act(table, "kit", "attack", [3, 3, 1, 1], target="bob", move_to="b")
    assert events(table, "attack.rolled")[0]["total"] == 3 + 3 + 1 - 1


# ------------------------------------------------------------------ wait


def test_wait_then_act_changes_the_order() -> None:
    extra = {"others": {"ann": {"side": "society", "skills": BRAVO}}}
    table = duel(**extra)  # moll, jack, ann
    table = act(table, "moll", "wait", plan="stab whoever comes through the door")
    table = act(table, "jack", "move", to="hall")
    assert table.state.current == "ann"
    # moll acts now, before ann: she takes this place in the order for the rest of the fight
    table = act(table, "moll", "full_defence")
    assert table.state.order == ("jack", "moll", "ann")
    assert table.state.current == "ann"
    table = act(table, "ann", "full_defence")
    assert table.state.current == "jack" and table.state.round == 2
    with pytest.raises(RuleError, match="it is jack's turn, not moll's"):
        act(table, "moll", "full_defence")


def test_a_waiter_who_does_not_act_keeps_the_place() -> None:
    table = act(duel(), "moll", "wait")
    table = act(table, "jack", "full_defence")
    assert table.state.current == "moll" and table.state.order == ("moll", "jack")
    assert not table.state.get("moll").waiting


@settings(max_examples=25, deadline=None)
@given(words=st.text(max_size=20), viewer=st.sampled_from(["jack", "public", "bravoes", "ann"]))
def test_a_waits_plan_is_never_in_another_viewers_view(words: str, viewer: str) -> None:
    plan = "PLAN<" + words + ">"
    table = act(duel(), "moll", "wait", plan=plan)
    for event in table.view(Viewer(viewer)):
        assert "plan" not in event.data
        assert "PLAN<" not in json.dumps(event.to_json(), ensure_ascii=False)
    mine = [e.data for e in table.view(Viewer("alice", frozenset({"moll"})))]
    assert any(d.get("plan") == plan for d in mine)


# ------------------------------------------------------------------ grenades


def test_grenade_astray_on_failure_and_range_penalty() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "c"},
    )
    table = start(setup, 6, 6, 1, 1)
    table = act(table, "kit", "throw_grenade", [4, 3], zone="c")  # 7 + 1 - 2 = 6 < 7
    thrown = events(table, "grenade.thrown")[0]
    assert thrown["distance"] == 2 and thrown["rolled"]["total"] == 6
    assert kinds(table)[-2:] == ["grenade.astray", "turn.started"]


def test_grenade_fuse_even_is_a_phut() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "b"},
    )
    table = start(setup, 6, 6, 1, 1)
    table = act(table, "kit", "throw_grenade", [4, 4, 1, 1], zone="b")
    assert events(table, "grenade.fizzled")
    table = act(table, "bob", "full_defence")
    with pytest.raises(RuleError, match="must roll the fizzled grenade's fuse first"):
        act(table, "kit", "full_defence")
    table = act(table, "kit", "fuse", [3, 3])
    assert events(table, "grenade.fuse")[0]["goes_off"] is False
    assert not events(table, "stress.taken") and table.state.fizzles == ()
    with pytest.raises(RuleError, match="no fizzled grenade"):
        act(table, "kit", "fuse", [3, 3])


# ------------------------------------------------------------------ between scenes


def test_declaration_costs_a_point() -> None:
    table = act(
        duel(),
        "moll",
        "declare",
        aspect="Fencing Mistress",
        fact="the fencing master owes her a favour",
    )
    assert table.state.get("moll").pool.points == 2
    with pytest.raises(RuleError, match="Declarations: jack has no Aspect"):
        act(table, "jack", "declare", aspect="Fencing Mistress", fact="x")
    poor = duel(moll={"experience": 10})
    with pytest.raises(RuleError, match="a declaration needs 1 point"):
        act(poor, "moll", "declare", aspect="Fencing Mistress", fact="x")


def test_rest_clears_health_and_composure_not_wealth_and_refreshes_the_pool() -> None:
    table = act(duel(), "moll", "attack", [5, 4, 4, 4], target="jack")  # 12 vs 10: 4
    table = act(table, "jack", "attack", [4, 4, 2, 2], target="moll", track="Wealth")
    table = act(table, "moll", "declare", aspect="Fencing Mistress", fact="x")
    table = act(table, "referee", "rest", [1, 6])
    moll, jack = table.state.get("moll"), table.state.get("jack")
    assert jack.track("Health").marked == ()
    assert moll.track("Wealth").marked != ()
    assert moll.pool.points == 3 and jack.pool.points == 2
    table = act(table, "referee", "end_session")
    assert table.state.get("moll").track("Wealth").marked != ()  # Wealth stress this session
    table = act(table, "referee", "end_session")
    assert table.state.get("moll").track("Wealth").marked == ()


def test_award_goes_to_the_pool_and_excess_is_lost_at_rest() -> None:
    table = act(duel(), "referee", "award", points=4, characters=["moll"])
    assert table.state.get("moll").pool.points == 7
    table = act(table, "moll", "rest", [6])
    assert table.state.get("moll").pool.points == 3


def test_replay_gives_the_same_state_and_undo() -> None:
    table = act(duel(), "moll", "attack", [5, 4, 4, 4], target="jack")
    table = act(table, "jack", "wait")
    again = Table.replay(PROCEDURE, table.setup, table.log)
    assert again.state == table.state
    assert table.undo(2).state.get("jack").track("Health").marked == ()


def test_fight_over_refuses_further_turns() -> None:
    table = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert table.state.over
    with pytest.raises(RuleError, match="the fight is over"):
        act(table, "moll", "full_defence")


def test_ritual_makes_a_charm_and_kether_is_refused() -> None:
    dee = {
        "side": "s",
        "aspects": ["Adept of Hod", "Place of Art in Clerkenwell"],
        "skills": {"Occult Philosophy: Hod": 1},
    }
    table = Table.start(PROCEDURE, {"characters": {"dee": dee}})
    table = act(
        table,
        "dee",
        "ritual",
        [5, 5],
        sephira="Hod",
        effect="find the letter",
        difficulty="Fair",
        hours=3,
    )
    rolled = events(table, "ritual.rolled")[0]
    assert rolled["interruption"] == "protected" and rolled["margin"] == 3
    assert events(table, "charm.made")[0]["strength"] == 3
    with pytest.raises(RuleError, match="Kether is too pure"):
        act(table, "dee", "ritual", [5, 5], sephira="Kether")
    with pytest.raises(RuleError, match="needs an Aspect in Yesod"):
        act(table, "dee", "ritual", [5, 5], sephira="Yesod")


def test_bad_setup_names_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"characters\.moll: The Skill Pyramid"):
        Table.start(PROCEDURE, {"characters": {"moll": {"skills": {"Weapons": 3}}}})
    with pytest.raises(ScenarioError, match=r"characters\.moll\.zone: no zone 'moon'"):
        Table.start(PROCEDURE, {"zones": ["a"], "characters": {"moll": {"zone": "moon"}}})
    with pytest.raises(ScenarioError, match="mode"):
        Table.start(PROCEDURE, {"mode": "c", "characters": {"moll": {}}})
    with pytest.raises(ScenarioError, match="weapon"):
        Table.start(PROCEDURE, {"characters": {"moll": {"weapon": "lance"}}})


def test_grappled_manoeuvre_must_beat_the_strength() -> None:
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    # Strength untrained: 3d6kh2 5+5 - 2 = 8
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")
    # Brawl untrained: 6+4-2 = 8 beats Moll's Weapons 1+1+3 = 5, but not the grapple's 8
    table = act(table, "jack", "manoeuvre", [6, 4, 1, 1], target="moll", named="blind")
    assert events(table, "grapple.held")[0]["strength"] == 8
    assert [a.name for a in table.state.aspects] == ["Off-Balance"]


def test_maintenance_costs_points() -> None:
    table = act(
        duel(moll={"possessions": ["A Clockwork Orrery"]}),
        "moll",
        "maintain",
        aspect="A Clockwork Orrery",
        points=2,
    )
    assert table.state.get("moll").pool.points == 1
    with pytest.raises(RuleError, match="maintenance needs 2 points, the pool has 1"):
        act(table, "moll", "maintain", aspect="A Clockwork Orrery", points=2)


def test_a_grappler_must_keep_or_release_the_grapple() -> None:
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")
    table = act(table, "jack", "full_defence")
    with pytest.raises(RuleError, match="keep the grapple or release it"):
        act(table, "moll", "attack", [3, 3, 3, 3], target="jack")
    table = act(table, "moll", "attack", [3, 3, 3, 3], target="jack", release=True)
    assert kinds(table).index("grapple.released") < kinds(table).index("attack.rolled")
    assert table.state.get("moll").block is None


def test_every_roll_records_its_exact_odds_before_the_dice() -> None:
    table = act(duel(), "moll", "attack", [3, 3, 4, 3], target="jack")
    # 2d6+3 against 2d6+2, a Match possible: the kernel's exact opposed odds
    odds = events(table, "attack.rolled")[0]["odds"]
    faces = list(itertools.product(range(1, 7), repeat=4))
    wins = sum(1 for a, b, c, d in faces if a + b + 3 > c + d + 2)
    ties = sum(1 for a, b, c, d in faces if a + b + 3 == c + d + 2)
    assert odds["success"] == str(Fraction(wins, 1296))
    assert odds["match"] == str(Fraction(ties, 1296))
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty=7)
    assert events(table, "manoeuvre.rolled")[0]["odds"]["success"] == "7/12"  # 2d6 + 1 > 7


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    mode=st.sampled_from(["a", "b"]),
    picks=st.lists(st.integers(0, 50), min_size=1, max_size=25),
)
def test_random_play_replays_to_the_same_state(seed: int, mode: str, picks: list[int]) -> None:
    """Random legal play from a seeded source: never a crash, and the log folds back."""
    from referee.dice import RandomSource

    extra = {"others": {"ann": {"side": "society", "weapon": "knife", "skills": BRAVO}}}
    table = duel(mode=mode, **extra)
    dice = RandomSource(seed=seed)
    for pick in picks:
        if table.state.over:
            break
        actor = table.to_move()[0]  # whose turn it is, or whom an attack or a hit waits for
        menu = table.legal_actions(actor)
        assert menu, actor
        action = menu[pick % len(menu)].sample(random.Random(seed + pick))
        try:
            table = table.act(action, dice)
        except RuleError:
            continue
    again = Table.replay(PROCEDURE, table.setup, table.log)
    assert again.state == table.state
    for c in table.state.combatants:
        assert c.pool.points >= 0
        assert all(len(t.boxes) >= 5 for t in c.tracks)


def test_blind_lasts_until_a_straighten_wig_manoeuvre() -> None:
    # Blind: Brawl 6+6+1 = 13 against Jack's Weapons 1+1+2 = 4
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="blind")
    assert [(a.name, a.on) for a in table.state.aspects] == [("Blinded", "jack")]
    # Straighten Wig: on himself, against a difficulty (Agility 4+4+1 = 9 beats Fair 8)
    table = act(table, "jack", "manoeuvre", [4, 4], aspect="Blinded", remove=True, skill="Agility")
    assert table.state.aspects == ()
    assert events(table, "aspect.removed")[0]["name"] == "Blinded"


def test_out_of_sight_at_five_zones() -> None:
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Brawl": 1}},
        bob={"side": "m", "zone": "f"},
    )
    setup["links"] = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"]]
    table = start(setup, 6, 6, 1, 1)
    with pytest.raises(RuleError, match="Zones: bob is 5 zones away: out of sight"):
        act(table, "kit", "manoeuvre", [6, 6, 1, 1], target="bob", named="unbalance")
    with pytest.raises(RuleError, match="out of sight"):
        act(table, "kit", "throw_grenade", [6, 6], zone="f")


# ------------------------------------------------------------------ review fixes


def test_resolve_defends_only_against_composure_attacks() -> None:
    """Resolve: "defend against covering fire (defensive roll to oppose a Composure attack
    with a weapon)": not against a shot meant for Health, even if it is the best skill."""
    setup = scene(
        kit={"side": "s", "zone": "a", "weapon": "pistol", "skills": {"Firearms": 1}},
        bob={"side": "m", "zone": "b", "skills": {"Resolve": 2, "Agility": 1, "Brawl": 1}},
    )
    table = start(setup, 6, 6, 1, 1)
    shot = act(table, "kit", "attack", [3, 3, 3, 3], target="bob")
    assert events(shot, "defence.rolled")[0]["skill"] == "Agility"
    with pytest.raises(RuleError, match="Resolve can't defend against a Firearms attack"):
        act(table, "kit", "attack", [3, 3, 3, 3], target="bob", defence="Resolve")
    # covering fire on Composure: Resolve may defend, and is bob's best
    cover = act(table, "kit", "attack", [3, 3, 3, 3], target="bob", track="Composure")
    assert events(cover, "defence.rolled")[0]["skill"] == "Resolve"


@pytest.mark.parametrize(
    ("setup", "where"),
    [
        ({"holdings": 5}, "holdings"),
        ({"zones": "abc"}, "zones"),
        ({"zones": ["a", "b"], "links": [["a", "b", "x"]]}, r"links\.0"),
        ({"zones": ["a"], "costs": {"a": "x"}}, r"costs\.a"),
        ({"characters": {"moll": {"aspects": "Macaroni"}}}, r"characters\.moll"),
    ],
)
def test_bad_setup_fields_are_named(setup: dict[str, Any], where: str) -> None:
    full = {"characters": {"moll": {}}, **setup}
    with pytest.raises(ScenarioError, match=where):
        Table.start(PROCEDURE, full)


def test_the_roller_may_not_give_the_targets_defence_or_consequences() -> None:
    """Defence: "Choose a skill to defend with in response to an Attack or Manoeuvre" — the
    target's choice, made from her own seat; "characters can chose to take a Consequence".
    The thrower's ``defences`` for the victims, the attacker's ``defence`` or
    ``consequences``, a manoeuvre's or a rush's ``defence``, a fuse's ``defences``: each is
    refused by name, before any die is rolled."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "b"},
    )
    table = start(setup, 6, 6, 1, 1)
    for kind, params in (
        ("throw_grenade", {"zone": "b", "defences": {"bob": "Agility"}}),
        ("attack", {"target": "bob", "defence": "Agility"}),
        ("attack", {"target": "bob", "consequences": []}),
        ("manoeuvre", {"target": "bob", "named": "blind", "defence": "Agility"}),
        ("release", {"to": "c", "defence": "Agility"}),
        ("fuse", {"defences": {"bob": "Agility"}}),
    ):
        name = next(k for k in ("defences", "defence", "consequences") if k in params)
        with pytest.raises(ActionError, match=rf"{kind}: '{name}' is not the roller's to give"):
            table.act(Action("kit", kind, params), ScriptedSource([6] * 8))


def test_a_grappled_character_must_beat_the_strength_for_any_physical_action() -> None:
    """Grapple: "The target has to beat the grapple strength to do anything physical": a
    Block, a throw, a seize or a grapple of his own is held like an attack."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")  # 8
    held = act(table, "jack", "block", [3, 3], hold="the casket", skill="Agility")  # 7
    assert events(held, "grapple.held") and not events(held, "block.set")
    held = act(table, "jack", "throw_grenade", [3, 3], zone="room")  # Agility 7
    assert events(held, "grapple.held") and not events(held, "grenade.attack")
    held = act(table, "jack", "seize", [3, 3], thing="the casket")  # Agility 7
    assert events(held, "grapple.held") and not events(held, "seized")
    free = act(table, "jack", "block", [6, 6], hold="the casket", skill="Agility")  # 13 beats 8
    assert not events(free, "grapple.held") and events(free, "block.set")


def test_wealth_stress_that_takes_out_still_keeps_the_wealth_track() -> None:
    """Stress Recovery: Wealth clears "at the end of a session in which the character takes no
    Wealth stress": a Wealth hit past the end of the track is Wealth stress taken."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [4, 4, 2, 2], target="moll", track="Wealth")  # 10 v 9
    assert table.state.get("moll").track("Wealth").marked == (3,)
    table = act(table, "referee", "end_session")  # Wealth stress this session: kept
    # the session's end ended the scene (and its fight): a new one starts with initiative
    assert not table.state.order
    table = act(table, "referee", "initiative", [6, 6, 1, 1])
    table = act(table, "moll", "full_defence")
    table = act(table, "jack", "attack", [6, 6, 1, 1], target="moll", track="Wealth")  # 14 v 7
    assert table.state.get("moll").taken_out
    table = act(table, "referee", "end_session")
    assert table.state.get("moll").track("Wealth").marked == (3,)


def test_a_held_doorway_stops_a_sprint_and_a_supplemental_move_too() -> None:
    """Hold a doorway: "To get past you opponents must beat you aside": however they move."""
    table = act(duel(), "moll", "block", [5, 5], doorway="hall")  # 13
    sprint = act(table, "jack", "sprint", [6, 1, 3, 3], path=["hall"])  # Agility 7: stopped
    assert events(sprint, "block.tested") and sprint.state.get("jack").zone == "room"
    # a supplemental move (Agility 7: stopped), then the thrust from where he stands
    moved = act(table, "jack", "attack", [3, 3, 3, 3, 3, 3], target="moll", move_to="hall")
    assert events(moved, "block.tested") and moved.state.get("jack").zone == "room"
    weak = act(duel(), "moll", "block", [1, 1], doorway="hall")  # 5
    past = act(weak, "jack", "sprint", [6, 1, 3, 3], path=["hall"])  # 7 beats 5
    assert events(past, "block.tested") and past.state.get("jack").zone == "hall"


def test_an_aspect_is_tagged_at_most_once_on_a_roll() -> None:
    """Tagging: "as many dice as you like, limited by the number of relevant Aspects"."""
    with pytest.raises(RuleError, match=r"(?i)'Fencing Mistress' is tagged twice"):
        act(
            duel(),
            "moll",
            "attack",
            [6, 6, 6, 6, 1, 1],
            target="jack",
            tags=["Fencing Mistress", "fencing mistress"],
        )


def test_grenade_fuse_seize_and_doorway_rolls_record_their_exact_odds() -> None:
    """Exact odds before every roll: the grenade's Fizzle chance (a natural 2 or 3; with the
    On Target tag, 3d6 keeping the best two), the fuse's odd chance, a seize, a doorway."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        bob={"side": "m", "zone": "b"},
    )
    table = start(setup, 6, 6, 1, 1)
    table = act(table, "kit", "throw_grenade", [6, 6, 1, 1, 1], zone="b", on_target="bob")
    faces = list(itertools.product(range(1, 7), repeat=3))
    low = sum(1 for f in faces if sum(sorted(f)[1:]) in (2, 3))
    assert events(table, "grenade.attack")[0]["odds"] == {"fizzle": str(Fraction(low, 216))}
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [3, 3])
    assert events(table, "grenade.fuse")[0]["odds"] == {"goes_off": "1/2"}
    held = act(duel(), "moll", "block", [3, 3], hold="the casket")  # Strength -2: 4
    held = act(held, "jack", "seize", [2, 2], thing="the casket")  # Agility 1 beats 4
    beats = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b + 1 > 4)
    assert events(held, "seize.rolled")[0]["odds"]["success"] == str(Fraction(beats, 36))
    door = act(duel(), "moll", "block", [5, 5], doorway="hall")  # 13
    door = act(door, "jack", "move", [3, 3], to="hall")
    assert events(door, "block.tested")[0]["odds"]["success"] == "0"
