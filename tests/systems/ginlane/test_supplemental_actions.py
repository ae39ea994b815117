"""Supplemental actions (Gin Lane, "3. Actions", Supplemental): "-1 to the main Action" for
something slightly involved, a move of one zone, or drawing a weapon.
"""

from __future__ import annotations

from .helpers import _new, _said
from .test_procedure import act, duel


def test_a_supplemental_action_a_move_and_a_drawn_weapon_are_each_minus_one() -> None:
    """ "3. Actions", Supplemental: "-1 to the main Action" for something slightly involved, for a
    move of one zone and for drawing a weapon — all three in one action are −3: moll's Agility 2
    manoeuvre rolls 4 + 3 + 2 − 3 = 6.
    The move is logged from where she stood to where she went, before the draw and the roll; the
    Aspect the manoeuvre places is no consequence."""
    table = duel()
    done = act(
        table,
        "moll",
        "manoeuvre",
        [4, 3],
        aspect="Ready",
        scene=True,
        skill="Agility",
        move_to="hall",
        draw="pistol",
        supplemental=True,
        difficulty=3,
    )
    new = _new(table, done)
    assert [k for k, _ in new] == [
        "moved",
        "weapon.drawn",
        "manoeuvre.rolled",
        "aspect.placed",
        "turn.started",
    ]
    assert new[0][1] == {"character": "moll", "from": "room", "to": "hall"}
    assert _said(*new[0]) == "Moll moves from room to hall"
    assert new[1][1] == {"character": "moll", "weapon": "pistol"}
    rolled = new[2][1]
    assert (rolled["rolled"]["total"], rolled["margin"], rolled["outcome"]) == (6, 3, "success")
    assert new[3][1] == {
        "id": 1,
        "name": "Ready",
        "on": "scene",
        "setter": "moll",
        "free_side": "society",
        "until_turn_of": None,
        "unique_to": None,
        "consequence": False,
    }
    assert done.state.get("moll").zone == "hall"
    assert done.state.get("moll").weapon == "pistol"
