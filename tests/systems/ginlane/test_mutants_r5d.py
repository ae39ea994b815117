"""Tests that kill the mutants of ``zones.py``, ``stress.py``, ``procedure.py``, ``choices.py``
and ``events.py`` mutmut left alive in round 5, second wave, part 2 of issue 13
(docs/systems/ginlane.md, "Mutation testing"): each asserts an outcome of the rules text ("Hold
a doorway", "Action: Sprint", "Stress Tracks")."""

from __future__ import annotations

from referee.core import Viewer
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.stress import StressTrack

from .test_procedure import BRAVO, act, duel, events, scene, start

_ANN = {"side": "society", "weapon": "sword", "skills": BRAVO}


def test_an_allys_held_doorway_lets_a_friend_through_without_a_roll() -> None:
    """Hold a doorway: the Block stops the opposition; ann, moll's ally, walks past moll's
    doorway into the hall with no roll (no dice are given: a roll would run out of them)."""
    table = duel(others={"ann": _ANN})  # moll, jack, ann
    table = act(table, "moll", "block", [5, 5], doorway="hall")
    table = act(table, "jack", "full_defence")
    table = act(table, "ann", "move", to="hall")
    assert table.state.get("ann").zone == "hall"
    assert events(table, "block.tested") == []


def test_a_doorway_held_by_the_last_character_listed_still_stops_a_move() -> None:
    """Hold a doorway: ann (of jack's side, listed after moll and jack) holds the hall's
    doorway with 5 + 5 + Weapons 2 = 12; moll's Agility 2 + 1 + 1 = 4 does not get past."""
    table = duel(others={"ann": {**_ANN, "side": "bravoes"}})
    table = act(table, "moll", "full_defence")
    table = act(table, "jack", "full_defence")
    table = act(table, "ann", "block", [5, 5], doorway="hall")
    table = act(table, "moll", "move", [1, 1], to="hall")
    assert table.state.get("moll").zone == "room"
    assert [e["rolled"]["total"] for e in events(table, "block.tested")] == [4]


def test_a_doorway_is_got_past_with_weapons_or_brawl_too() -> None:
    """Hold a doorway: getting past needs Weapons or Agility (and Brawl, its unarmed fellow);
    jack's Weapons 2 + 3 + 3 = 8 beats moll's doorway of 1 + 1 + 3 = 5; his untrained Brawl
    (−2) + 4 + 4 = 6 beats it too."""
    for skill, faces, total in (("Weapons", [3, 3], 8), ("Brawl", [4, 4], 6)):
        table = act(duel(), "moll", "block", [1, 1], doorway="hall")
        table = act(table, "jack", "move", faces, to="hall", past=skill)
        assert table.state.get("jack").zone == "hall"
        assert [e["rolled"]["total"] for e in events(table, "block.tested")] == [total]


def test_a_get_past_a_doorway_shows_its_card_and_says_who_tried() -> None:
    """Hold a doorway: the roll is shown on a card naming the rule, with its exact odds (Agility
    1 + 2d6 against 5: 30 in 36 to beat it), and the log says who tried to get past whose Block."""
    table = act(duel(), "moll", "block", [1, 1], doorway="hall")
    table = act(table, "jack", "move", [3, 3], to="hall")
    (tested,) = [e for e in table.log.events if e.kind == "block.tested"]
    card = tested.data["roll"]
    assert (card["label"], card["rule"]) == ("Jack gets past Moll", "Hold a doorway")
    assert card["odds"]["success"] == "5/6"
    said = PROCEDURE.describe(tested, Viewer("referee"))
    assert said.startswith("Jack tries to get past Moll's Block (5) and ")


def test_a_sprint_stopped_at_a_held_doorway_ends_at_the_last_zone_reached() -> None:
    """Action: Sprint and Hold a doorway: kit (Agility 1) rolls |6 − 3| + 1 = 4 points for a, b,
    c; bob, in b, holds the doorway to c with 5 + 5 − 2 = 8; kit's 1 + 1 + 1 = 3 does not get
    past, so the sprint ends in b. The sprint's card and the log say so."""
    setup = scene(
        kit={"side": "s", "zone": "a", "skills": {"Agility": 1}}, bob={"side": "m", "zone": "b"}
    )
    table = act(start(setup, 6, 6, 1, 1), "kit", "full_defence")
    table = act(table, "bob", "block", [5, 5], doorway="c")
    table = act(table, "kit", "sprint", [6, 3, 1, 1], path=["b", "c"])
    assert table.state.get("kit").zone == "b"
    assert [e["rolled"]["faces"] for e in events(table, "block.tested")] == [[1, 1]]
    (rolled,) = [e for e in table.log.events if e.kind == "sprint.rolled"]
    assert (rolled.data["character"], rolled.data["dice"], rolled.data["route"]) == (
        "kit",
        [6, 3],
        ["b", "c"],
    )
    card = rolled.data["roll"]
    assert {k: card[k] for k in ("label", "rule", "dice", "outcome", "margin", "value")} == {
        "label": "Kit sprints",
        "rule": "Action: Sprint",
        "dice": "|d6 - d6|+1",
        "outcome": "rolled",
        "margin": None,
        "value": 4,
    }
    assert card["shown"].endswith(" +1 = 4")
    (moved,) = [e for e in table.log.events if e.kind == "moved"]
    said = [PROCEDURE.describe(e, Viewer("referee")) for e in (rolled, moved)]
    assert said == ["Kit sprints with 4 points of movement: b → c", "Kit moves from a to b"]


def test_a_hit_of_no_stress_ticks_nothing_and_takes_no_one_out() -> None:
    """Stress Tracks: a hit of 0 ticks no box and does not take the character out."""
    track, hit = StressTrack.empty("Health", 3).hit(0)
    assert track.marked == ()
    assert hit.to_json() == {"stress": 0, "box": None, "taken_out": False}


def test_a_waiting_character_may_act_on_anothers_turn() -> None:
    """Action: Wait: moll waits; on jack's turn, jack and moll (who may act out of turn) are
    the seats that may move."""
    table = act(duel(), "moll", "wait", plan="stab whoever comes through the door")
    assert tuple(PROCEDURE.actors(table.state)) == ("jack", "moll")


def test_no_odds_are_shown_once_the_fight_is_over() -> None:
    """Taken Out: moll takes jack out and the fight is over; no attack's odds are shown."""
    done = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert done.state.over
    assert tuple(PROCEDURE.previews(done.state, Viewer("referee"))) == ()
