"""Hold a doorway (Gin Lane, "Action: Block", "Hold a doorway"): a move, a supplemental move or a
step of a Sprint past a held doorway, and what may follow it.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, Viewer
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE, SYSTEM

from .test_odds_of import SETUP
from .test_procedure import BRAVO, act, duel, events, scene, start

_ANN = {"side": "society", "weapon": "sword", "skills": BRAVO}


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


def test_a_manoeuvre_after_a_move_past_a_held_doorway_is_tried_with_the_dice_rolled() -> None:
    """Hold a doorway: jack, in the hall, moves into the room past moll's doorway of 2 + 2 +
    Weapons 3 = 7 with Agility 1 + 5 + 5 = 11, then manoeuvres there with the next dice."""
    table = duel(jack={"zone": "hall"})
    table = act(table, "moll", "block", [2, 2], doorway="hall")
    table = act(
        table, "jack", "manoeuvre", [5, 5, 6, 6, 1, 1], target="moll", named="blind", move_to="room"
    )
    (tested,) = events(table, "block.tested")
    assert (tested["rolled"]["faces"], tested["rolled"]["total"]) == ([5, 5], 11)
    assert table.state.get("jack").zone == "room"
    (rolled,) = events(table, "manoeuvre.rolled")
    assert rolled["rolled"]["faces"] == [6, 6]


def test_a_doorway_held_by_one_is_tried_though_another_holds_a_doorway_elsewhere() -> None:
    """Hold a doorway: each Block holds its own doorway. jack (listed before ann) holds c's
    doorway to d, far from moll; ann holds a's doorway to b with 5 + 5 + Weapons 2 = 12, and
    moll's Agility 2 + 1 + 1 = 4 does not get past hers: moll stays in a, ann's Block tested
    alone."""
    setup = scene(
        moll={
            "side": "society",
            "zone": "a",
            "skills": {"Agility": 2, "Alertness": 1, "Weapons": 1},
        },
        jack={**_ANN, "side": "bravoes", "zone": "c"},
        ann={**_ANN, "side": "bravoes", "zone": "a"},
    )
    table = act(start(setup, 6, 6, 1, 1, 1, 1), "moll", "full_defence")
    table = act(table, "jack", "block", [5, 5], doorway="d")
    table = act(table, "ann", "block", [5, 5], doorway="b")
    table = act(table, "moll", "move", [1, 1], to="b")
    assert table.state.get("moll").zone == "a"
    assert [(e["blocker"], e["rolled"]["total"]) for e in events(table, "block.tested")] == [
        ("ann", 4)
    ]


@pytest.mark.parametrize(
    ("mode", "shown"), [("a", "2d6 (3, 3) = 6 +1 = 7"), ("b", "2d6 (3, 3) +1 = 7")]
)
def test_a_get_past_a_doorway_is_rolled_under_the_tables_tagging_option(
    mode: str, shown: str
) -> None:
    """Hold a doorway, and the tagging options ("Tagging an Aspect", a or b): jack's Agility 1 +
    3 + 3 = 7 past moll's doorway of 5 is rolled as every roll of the table is, its line shown
    as option a shows one (the kept dice summed) or as option b does (the dice as they lie)."""
    table = act(duel(mode), "moll", "block", [1, 1], doorway="hall")
    table = act(table, "jack", "move", [3, 3], to="hall")
    (tested,) = events(table, "block.tested")
    assert (tested["rolled"]["shown"], tested["roll"]["shown"]) == (shown, shown)
    assert table.state.get("jack").zone == "hall"
