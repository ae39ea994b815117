"""Tests that kill the mutants of ``fold.py``'s ``evolve`` (#144, #150–#800) mutmut left alive
in round 6 of issue 13 (docs/systems/ginlane.md, "Mutation testing", "Round 6"): the fold of a
Wait's sealed plan and of every later kind of event. Each asserts what a player sees of the
scene after an event folded as the rules text has it."""

from __future__ import annotations

import pytest

from referee.core import ScenarioError, Table, Viewer
from referee.core.events import Log
from referee.core.fairness import sealed_choices
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.scene import state_json

from .test_mutants import _thrower
from .test_procedure import BRAVO, FIGHTER, act, duel, events, start


def test_a_wait_reveals_only_the_plan_sealed_last_and_it_checks() -> None:
    """Action: Wait (issue 12): moll waits with a plan and does not act on it; next round she
    waits again with another. Acting out of turn reveals the plan she sealed last, with its
    salt, and it checks against its commitment; the old plan is never revealed."""
    table = act(duel(), "moll", "wait", plan="stab whoever comes through the door")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "wait", plan="cut the rope")
    table = act(table, "moll", "full_defence")
    [acted] = events(table, "wait.acted")
    assert [(u["choice"], u["content"]) for u in acted["unsealed"]] == [
        ("round 2, turn 0: the plan of moll", "cut the rope")
    ]
    assert sealed_choices(table.log.events) == (1, ())
    assert table.state.plans == ()


def test_every_seat_that_folds_its_own_view_sees_the_scene_the_table_shows() -> None:
    """Everything in a Gin Lane scene is in plain sight but a Wait's plan: jack, who never
    sees moll's plan nor its salt, folds his view of the log to the scene every seat sees,
    moll waiting."""
    table = act(duel(), "moll", "wait", plan="stab whoever comes through the door")
    for seat in ("jack", "public"):
        seen = Log.from_json([e.to_json() for e in table.view(Viewer(seat))])
        folded = Table.replay(PROCEDURE, table.setup, seen).state
        assert state_json(folded) == state_json(table.state)
        assert folded.get("moll").waiting and folded.plans == ()


def test_aspects_placed_are_numbered_in_turn_and_removing_one_leaves_the_other() -> None:
    """Manoeuvres: each Aspect placed in the scene is a new one (its tags and its removal name
    it by its number). moll's Disarmed on jack is 1, jack's Under Cover 2; jack's removing
    Disarmed leaves his cover in play."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty="Fair")
    table = act(table, "moll", "full_defence")
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
    placed = events(table, "aspect.placed")
    assert [(p["id"], p["name"]) for p in placed] == [(1, "Disarmed"), (2, "Under Cover")]
    assert [(a.id, a.name) for a in table.state.aspects] == [(2, "Under Cover")]


def test_a_free_tag_spends_the_free_tag_of_the_aspect_tagged_only() -> None:
    """Team Work: the first to use a manoeuvre's Aspect gets its free tag. moll tags her
    Off-Balance on jack for free; jack's own Under Cover keeps its free tag (every seat sees
    the count)."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty="Fair")
    table = act(table, "moll", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Off-Balance"])
    assert [t["free"] for t in events(table, "aspect.tagged")] == [True]
    shown = state_json(table.state)["aspects"]
    assert [(a["name"], a["free_tags"]) for a in shown] == [("Off-Balance", 0), ("Under Cover", 1)]


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


def test_a_character_taken_out_holds_no_block_any_more() -> None:
    """Taken Out: moll, protecting ann with a Block, is Taken Out by jack; her Block is gone,
    and no seat sees it any more."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    table = act(duel(others={"ann": ann}), "moll", "block", [5, 5], protect="ann")
    assert state_json(table.state)["characters"]["moll"]["block"] is not None
    table = act(table, "jack", "attack", [6, 6, 1, 1], target="moll")
    assert table.state.get("moll").taken_out
    assert state_json(table.state)["characters"]["moll"]["block"] is None


def test_an_extreme_consequence_replaces_the_aspect_it_names_and_no_other() -> None:
    """Consequences: an extreme consequence "replaces one of the character's Aspects" — jack's
    Scarred Face replaces Handsome Jack (named in any case); his Quick Temper stays."""
    table = act(
        duel(jack={"aspects": ["Handsome Jack", "Quick Temper"]}),
        "moll",
        "attack",
        [6, 6, 1, 1],
        target="jack",
        consequences=[
            {"severity": "extreme", "aspect": "Scarred Face", "replaces": "handsome jack"}
        ],
    )
    assert table.state.get("jack").sheet.aspects == ("Scarred Face", "Quick Temper")
    shown = state_json(table.state)["characters"]["jack"]["aspects"]
    assert shown == ["Scarred Face", "Quick Temper"]


def test_a_consequence_is_an_aspect_numbered_before_the_next_one_placed() -> None:
    """Consequences: jack's heavy Broken Arm (7 stress, 6 soaked, 1 marked) is an Aspect in
    play, number 1; his Under Cover, placed next, is number 2, and both stay in play."""
    table = act(
        duel(),
        "moll",
        "attack",
        [3, 3, 1, 1],
        target="jack",
        consequences=[{"severity": "heavy", "aspect": "Broken Arm"}],
    )
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty="Fair")
    assert [p["id"] for p in events(table, "aspect.placed")] == [2]
    assert [(a.id, a.name) for a in table.state.aspects] == [(1, "Broken Arm"), (2, "Under Cover")]


@pytest.mark.parametrize("side", ["", "  "])
def test_a_blank_side_is_refused_at_setup(side: str) -> None:
    """Consequences: a consequence is free to tag for the side that inflicted it, so every
    character's side is a name: a blank one is refused, naming where."""
    with pytest.raises(ScenarioError, match=r"characters\.moll\.side: a side is named"):
        duel(moll={"side": side})


def test_a_weapon_picked_up_is_in_hand_and_not_picked_up_again() -> None:
    """Disarm: jack picks his sword up as he removes Disarmed. A second Disarmed moll places
    on him later (free-form, so nothing is dropped) is removed with no weapon to pick up: the
    log tells of one pick-up only."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    again = {"aspect": "Disarmed", "remove": True, "difficulty": 7, "skill": "Agility"}
    table = act(table, "jack", "manoeuvre", [6, 6], **again)
    table = act(
        table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", aspect="Disarmed", skill="Weapons"
    )
    assert [(a.name, a.on) for a in table.state.aspects] == [("Disarmed", "jack")]
    table = act(table, "jack", "manoeuvre", [6, 6], **again)
    assert events(table, "weapon.recovered") == [{"character": "jack", "weapon": "sword"}]
    assert (table.state.get("jack").weapon, table.state.aspects) == ("sword", ())


def test_seizing_one_thing_leaves_who_holds_the_others() -> None:
    """Hold a thing: moll holds the purse and the casket from the start; jack seizes the
    casket (no Block holds it: any roll has it). moll still holds the purse."""
    chars = {
        "moll": {"side": "society", "weapon": "sword", "skills": FIGHTER},
        "jack": {"side": "bravoes", "weapon": "sword", "skills": BRAVO},
    }
    holdings = {"the purse": "moll", "the casket": "moll"}
    table = start({"characters": chars, "holdings": holdings}, 6, 6, 1, 1)
    table = act(table, "moll", "full_defence")
    table = act(table, "jack", "seize", [2, 2], thing="the casket")
    assert events(table, "seized") == [{"character": "jack", "thing": "the casket"}]
    shown = state_json(table.state)["holdings"]
    assert shown == {"the purse": "moll", "the casket": "jack"}


def test_the_end_of_a_session_clears_wealth_stress_only() -> None:
    """Stress Recovery: Health stress clears "after a night's rest and a strong coffee"; at
    the end of a session only Wealth stress clears. jack's 10 against moll's 9 marks her
    Health; the session ends and the mark stays."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [4, 4, 2, 2], target="moll")
    marked = table.state.get("moll").track("Health").marked
    assert marked != ()
    table = act(table, "referee", "end_session")
    assert events(table, "session.ended")[0] == {
        "character": "moll",
        "wealth_cleared": True,
        "pool": 3,
    }
    assert table.state.get("moll").track("Health").marked == marked
    shown = state_json(table.state)["characters"]["moll"]["tracks"]["Health"]
    assert shown == list(marked)
