"""The branches of an exchange in the exact Gin Lane fight
(:mod:`referee.systems.ginlane.exact_branches`): every table one action may lead to, with its
chance and faces that give it, against every face of every die played through the procedure;
the canonical state the chain keys on; what a fight that is over counts.

Rules text (Gin Lane), "Defence": "Once a particular skill is used for a defence that result
remains 'on the table' for any further uses of that particular defence in the Turn"; "Action:
Block": the roll is the Block's strength until the blocker's next turn; "Grapple": the roll is
the grapple's strength, maintained turn by turn. While any of these stands, the state after a
check reads more of its dice than its margin, so no margin stands for another.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, Table, system
from referee.dice import ScriptedSource
from referee.systems.ginlane.exact import FightError
from referee.systems.ginlane.exact_branches import (
    MarginFaces,
    NeedsDie,
    ScriptedFaces,
    Work,
    _expect,
    _grouped,
    _stands,
    act_answered,
    act_with,
    action_branches,
    canonical,
    canonical_json,
    ending_of,
    every_margin,
)
from tests.sim.test_exact_ginlane import EVEN, SKILLED

INITIATIVE = Action("referee", "initiative", {})
JACK_ATTACKS = Action("jack", "attack", {"target": "moll"})
GRAPPLE = Action(
    "moll", "grapple", {"target": "jack", "tag": "Member of the Society for Effectual Redress"}
)


def _begun() -> Table[Any]:
    """Moll (Weapons 2, Agility 1) and Jack (Weapons 1), Moll first."""
    table = system("ginlane").new_table({"characters": {"moll": EVEN, "jack": SKILLED}})
    return table.act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))


def _blocked() -> Table[Any]:
    """Moll's turn spent on a Block of a named action (strength 9): Jack's turn, her Block
    standing until her next."""
    block = Action("moll", "block", {"action": "open the door", "skill": "Weapons"})
    return act_answered(_begun(), block, ScriptedFaces([3, 4]))


def _every_face(table: Table[Any], action: Action) -> dict[Hashable, Fraction]:
    """``action`` with every face of every die (each ``1/sides``), its prompts answered by
    their defaults: the chance of each canonical state."""
    out: dict[Hashable, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        faces, weight = stack.pop()
        try:
            after = act_answered(table, action, ScriptedFaces(faces))
        except NeedsDie as need:
            stack.extend(((*faces, f), weight / need.sides) for f in range(1, need.sides + 1))
            continue
        k = canonical(after)
        out[k] = out.get(k, Fraction(0)) + weight
    return out


def _branched(table: Table[Any], action: Action, count: Work) -> dict[Hashable, Fraction]:
    branches = action_branches(table, action, count, {})
    for faces, _, after in branches:  # each branch's faces give its state
        assert canonical(act_with(table, action, faces, Work())) == canonical(after)
    found = {canonical(after): p for _, p, after in branches}
    assert len(found) == len(branches)  # merged: one branch per state
    return found


def test_an_attack_past_a_block_standing_takes_every_margin_and_defence_total() -> None:
    """A Block stands before Jack's attack: no margin is taken for another — every margin, and
    each defence total that gives it, is played once (the check already played with its dice
    all 1s not again), and the branches are every face's, merged by state."""
    table = _blocked()
    state = canonical_json(table)
    assert state["turn"] == "jack" and state["characters"]["moll"]["block"]["strength"] == 9
    assert _stands(state)
    count = Work()
    found = _branched(table, JACK_ATTACKS, count)
    assert found == _every_face(table, JACK_ATTACKS) and sum(found.values()) == 1
    assert len(found) == 6  # a miss (or a spin: alike), a hit of 2 to 5 on her track, Taken Out
    classes: dict[Hashable, dict[int, MarginFaces]] = {}
    action_branches(table, JACK_ATTACKS, Work(), classes)
    (margins,) = classes.values()
    assert sorted(margins) == list(range(-11, 10))
    pairs = sum(len(group.by_opponent) for group in margins.values())
    assert pairs == 121 and sum(group.weight for group in margins.values()) == 1
    again = Work()
    action_branches(table, JACK_ATTACKS, again, classes)  # the margins known: only the plays
    assert again.acts == 1 + pairs - 1
    assert count.acts > again.acts  # the margins read too, the first time
    assert every_margin(table, JACK_ATTACKS, Work(), classes) is None


def test_a_roll_that_is_no_check_is_taken_every_face_of_every_die() -> None:
    """Moll's grapple rolls its strength (3d6, the best two, tagging an Aspect of Jack's:
    "Grapple"), no margin against anything: no margin stands for another, so every face of
    every die is played (216 sequences), the branches merged by state — one per strength,
    each with its chance — and the grapple stands after every one, so no branch is a
    margin's."""
    table = _begun()
    assert not _stands(canonical_json(table))
    count = Work()
    found = _branched(table, GRAPPLE, count)
    assert found == _every_face(table, GRAPPLE) and len(found) == 11
    # the probe, then every prefix of faces played, each one short asking for the next die
    assert count.acts == 1 + sum(6**n for n in range(4))
    strengths = sorted(
        canonical_json(t)["characters"]["moll"]["block"]["strength"] for t in _tables(table)
    )
    assert strengths == list(range(11))
    assert every_margin(table, GRAPPLE, Work(), {}) is None


def _tables(table: Table[Any]) -> list[Table[Any]]:
    return [after for _, _, after in action_branches(table, GRAPPLE, Work(), {})]


def test_a_check_not_giving_the_margin_its_faces_gave_before_is_refused() -> None:
    """Faces that gave a margin and a defence total when the margins were read must give them
    again when a branch is played: one check, that margin, that total — else refused."""
    table = _begun()
    swing = Action("moll", "attack", {"target": "jack"})
    after = act_with(table, swing, [6, 6, 1, 1], Work())
    _expect(table, after, 11, 3)  # her 6 + 6 + 2 against his Weapons 1 + 1 + 1
    with pytest.raises(FightError, match="the margin 10 its faces gave before"):
        _expect(table, after, 10, 3)
    with pytest.raises(FightError, match="the margin 11 its faces gave before"):
        _expect(table, after, 11, 4)
    with pytest.raises(FightError, match="the margin 11 its faces gave before"):
        _expect(table, table, 11, 3)  # no check made


def test_a_fight_over_counts_the_side_left_standing_and_each_ones_health_boxes() -> None:
    """The winner is the one side left standing (a character of no side is its own); nobody
    standing is ``none``, two sides ``unfinished``; the damage is the Health boxes ticked."""
    out = {"taken_out": True}
    chars = {
        "moll": {"side": "society", "tracks": {"Health": [2, 3], "Composure": [5]}},
        "kit": {"side": "society", "tracks": {"Health": []}},
        "jack": {"side": "bravoes", "tracks": {"Health": [1, 2, 3, 4, 5]}, **out},
        "bob": {"tracks": {"Composure": [1]}, **out},
    }
    assert ending_of({"characters": chars}) == (
        "society",
        {"moll": 5, "kit": 0, "jack": 15, "bob": 0},
    )
    alone = {"bob": {"tracks": {}}, "jack": chars["jack"]}
    assert ending_of({"characters": alone}) == ("bob", {"bob": 0, "jack": 15})
    nobody = {c: {**s, **out} for c, s in chars.items()}
    assert ending_of({"characters": nobody})[0] == "none"
    both = {c: {**s, "taken_out": False} for c, s in chars.items()}
    assert ending_of({"characters": both})[0] == "unfinished"


def test_the_canonical_state_leaves_out_the_round_and_a_finished_fights_defences() -> None:
    """Two tables differing only in the round are one state; in a fight that is over no turn
    follows, so a defence total left standing is never read again."""
    table = _begun()
    state = canonical_json(table)
    whole = dict(table.procedure.state_json(table.state))
    assert "round" not in state and whole["round"] == 1
    assert state == {k: v for k, v in whole.items() if k != "round"}
    moll_out = _struck_out(table)
    over = canonical_json(moll_out)
    assert over["over"] is True
    assert all(s["defences"] == {} for s in over["characters"].values())
    assert dict(moll_out.procedure.state_json(moll_out.state))["characters"]["jack"]["defences"]


def _struck_out(table: Table[Any]) -> Table[Any]:
    """Moll strikes Jack down at once (a margin of 11 and her sword's 2: past his track)."""
    return act_with(table, Action("moll", "attack", {"target": "jack"}), [6, 6, 1, 1], Work())


def test_something_stands_where_a_defence_total_or_a_block_is_on_the_table() -> None:
    bare = {"defences": {}, "block": None}
    assert not _stands({"characters": {"moll": bare, "jack": bare}})
    assert _stands({"characters": {"moll": bare, "jack": {**bare, "defences": {"Agility": 3}}}})
    assert _stands({"characters": {"moll": {**bare, "block": {"kind": "grapple"}}, "jack": bare}})


def test_an_action_that_rolls_nothing_is_one_branch_played_once() -> None:
    """Full defence rolls no die ("Action: Full defence"): one branch, sure, no faces, from
    one procedure step; no margin to land."""
    table = _begun()
    full = Action("moll", "full_defence", {})
    count = Work()
    ((faces, p, after),) = action_branches(table, full, count, {})
    assert (faces, p, count.acts) == ((), 1, 1)
    assert canonical(after) == canonical(act_with(table, full, [], Work()))
    assert canonical_json(after)["characters"]["moll"]["full_defence"] is True
    assert every_margin(table, full, Work(), {}) is None


def test_a_margins_faces_are_listed_by_defence_total_lowest_first_with_its_whole_chance() -> None:
    """Each margin (in order) with its whole chance, and the faces of each defence total that
    gives it, lowest total first — a total of 0 (2d6 - 2 at its lowest) before 1; the first is
    the one a margin is played with (:func:`every_margin`)."""
    half, third, sixth = Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)
    found: dict[int, dict[int | None, tuple[Fraction, tuple[int, ...]]]] = {
        2: {5: (sixth, (5,)), 1: (half, (1,)), 0: (third, (0,))},
        -1: {None: (half, (9,))},
    }
    grouped = _grouped(found)
    assert list(grouped) == [-1, 2]
    assert grouped[2] == MarginFaces(1, ((0, third, (0,)), (1, half, (1,)), (5, sixth, (5,))))
    assert grouped[-1] == MarginFaces(half, ((None, half, (9,)),))


def test_under_option_b_a_check_is_read_every_face_at_a_time_to_the_same_branches() -> None:
    """Option b spends a tag by re-rolling ("Tagging"), so the two sides' dice may interact:
    the check's margins are read every face of every die at a time (1,296 plays and the
    prefixes before them, not option a's 93 a side at a time) — here nobody tags, so the
    margins, and the branches, are option a's."""
    people = {"moll": EVEN, "jack": SKILLED}
    swing = Action("moll", "attack", {"target": "jack"})
    read: dict[str, tuple[dict[int, Fraction], dict[Any, Fraction], int]] = {}
    for mode in ("a", "b"):
        table = system("ginlane").new_table({"mode": mode, "characters": people})
        table = table.act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))
        classes: dict[Hashable, dict[int, MarginFaces]] = {}
        count = Work()
        ends: dict[Any, Fraction] = {}
        for _, p, after in action_branches(table, swing, count, classes):
            chars = canonical_json(after)["characters"]
            k = (str(chars["jack"]["tracks"]), chars["jack"]["taken_out"])
            ends[k] = ends.get(k, Fraction(0)) + p
        (margins,) = classes.values()
        read[mode] = {m: g.weight for m, g in margins.items()}, ends, count.acts
    assert read["a"][:2] == read["b"][:2] and sum(read["b"][1].values()) == 1
    assert len(read["b"][1]) == 6  # a miss, 2 to 5 on his track, and Jack Taken Out
    assert read["b"][2] - read["a"][2] == sum(6**n for n in range(5)) - 93
