"""Action: Block (Gin Lane, "Action: Block", "Protect someone from attack", "Hold a thing", and a
named action blocked): a Block's strength, what must beat it, and what every seat sees of it.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError, Table, Viewer
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.scene import SceneState, state_json

from .helpers import _setup
from .test_procedure import BRAVO, FIGHTER, act, duel, events, scene, start


def _said(table: Table[SceneState], kind: str) -> list[str]:
    """What the log says of each event of ``kind``, as the referee reads it."""
    return [PROCEDURE.describe(e, Viewer("referee")) for e in table.log.events if e.kind == kind]


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


def test_a_setups_holdings_say_who_holds_what_from_the_start() -> None:
    """Hold a thing: the setup's ``holdings`` (a thing: who holds it) are in the scene from the
    start, and every seat sees them."""
    table = Table.start(PROCEDURE, _setup(holdings={"the purse": "moll"}))
    assert table.state.holdings == (("the purse", "moll"),)
    assert PROCEDURE.state_json(table.state)["holdings"] == {"the purse": "moll"}


def test_the_end_of_a_scene_ends_its_blocks_defences_and_waits() -> None:
    """Action: Manoeuvre: "temporary, lasting no longer than the scene" — at the end of the
    scene moll's Block protecting ann and the defence she rolled against jack, her Full
    Defence and jack's wait all end, as do the turns."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    blocked = act(duel(others={"ann": ann}), "moll", "block", [5, 5], protect="ann")
    attacked = act(blocked, "jack", "attack", [1, 1, 4, 4], target="moll")
    assert attacked.state.get("moll").block is not None
    ended = act(attacked, "referee", "end_scene").state
    assert ended.get("moll").block is None
    assert (ended.turn, ended.round, ended.order) == (0, 0, ())
    # jack's parry of moll's last blow, 13 stress past his track, is still on the table when
    # the fight ends (no Turn follows); the end of the scene takes it away
    over = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert over.state.over and over.state.get("jack").defences == (("Weapons", 4),)
    assert act(over, "referee", "end_scene").state.get("jack").defences == ()
    waited = act(act(duel(others={"ann": ann}), "moll", "full_defence"), "jack", "wait")
    assert waited.state.get("moll").full_defence and waited.state.get("jack").waiting
    calm = act(waited, "referee", "end_scene").state
    assert not calm.get("moll").full_defence and not calm.get("jack").waiting


def test_a_character_taken_out_holds_no_block_any_more() -> None:
    """Taken Out: moll, protecting ann with a Block, is Taken Out by jack; her Block is gone,
    and no seat sees it any more."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    table = act(duel(others={"ann": ann}), "moll", "block", [5, 5], protect="ann")
    assert state_json(table.state)["characters"]["moll"]["block"] is not None
    table = act(table, "jack", "attack", [6, 6, 1, 1], target="moll")
    assert table.state.get("moll").taken_out
    assert state_json(table.state)["characters"]["moll"]["block"] is None


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


def test_a_thing_seized_from_its_holder_is_held_by_the_seizer_alone() -> None:
    """Hold a thing: seizing it puts it in the seizer's hands and out of its holder's: kit
    seizes the purse bob holds (no Block on it: any roll above nothing) and only kit holds it."""
    setup = scene(kit={"side": "s", "zone": "a"}, bob={"side": "m", "zone": "a"})
    table = start({**setup, "holdings": {"the purse": "bob"}}, 6, 6, 1, 1)  # kit first
    table = act(table, "kit", "seize", [1, 2], thing="the purse")
    assert table.state.holdings == (("the purse", "kit"),)
