"""Tests that kill the mutants of ``aspects.py`` mutmut left alive in round 4 of issue 13
(docs/systems/ginlane.md, "Mutation testing", "Round 4"): each asserts an outcome of the rules
text ("Aspects", "Declarations", "Maintenance", "Team Work", "3. Actions")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event, RuleError, Table, Viewer
from referee.systems.ginlane.events import describe
from referee.systems.ginlane.scene import SceneState

from .test_procedure import act, duel, scene, start


def _new(before: Table[SceneState], after: Table[SceneState]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in after.log.events[len(before.log.events) :]]


def _said(kind: str, data: dict[str, Any]) -> str:
    return describe(Event(kind, data), Viewer("referee"))


def test_a_declaration_is_recorded_with_its_aspect_its_fact_and_the_point_paid() -> None:
    """Declarations: "declare small points of fact covered by an Aspect to be true by making the
    declaration and [...] paying an Experience Point" — the log names the Aspect and the fact,
    and the point paid says what it paid for."""
    table = duel()
    declared = act(table, "moll", "declare", aspect="Fencing Mistress", fact="the master owes her")
    made = {"character": "moll", "aspect": "Fencing Mistress", "fact": "the master owes her"}
    spent = {"character": "moll", "points": 1, "for": "declaration"}
    assert _new(table, declared) == [("declaration.made", made), ("pool.spent", spent)]
    assert [_said(k, d) for k, d in _new(table, declared)] == [
        "Moll declares, by Fencing Mistress: the master owes her",
        "Moll pays 1 from the pool (declaration)",
    ]
    assert declared.state.get("moll").pool.points == 2


def test_maintenance_pays_the_points_asked_and_says_for_which_aspect() -> None:
    """Maintenance: an Aspect "requiring Experience Points to run" — the points asked are paid,
    and the log says which Aspect they kept running."""
    table = duel()
    kept = act(table, "moll", "maintain", aspect="Fencing Mistress", points=2)
    spent = {"character": "moll", "points": 2, "for": "maintain Fencing Mistress"}
    assert _new(table, kept) == [("pool.spent", spent)]
    assert _said("pool.spent", spent) == "Moll pays 2 from the pool (maintain Fencing Mistress)"
    assert kept.state.get("moll").pool.points == 1


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


def test_a_manoeuvres_aspect_lapses_at_the_end_of_the_scene() -> None:
    """Manoeuvres: the Aspect lasts "for the rest of the scene" (Rulings: "Manoeuvre Aspects are
    temporary, lasting no longer than the scene") — unlike a consequence, it is gone when the
    scene ends."""
    table = act(duel(), "moll", "manoeuvre", [4, 3], aspect="Ready", scene=True, skill="Agility")
    assert [a.name for a in table.state.aspects] == ["Ready"]
    assert table.state.aspects[0].consequence is False
    ended = act(table, "referee", "end_scene")
    assert ended.state.aspects == ()


def test_a_supplemental_move_needs_a_clear_way() -> None:
    """Zones, "Difficult terrain": a supplemental move of one zone is a move, and needs a clear
    way — into zone c (cost 2) it is refused, "Sprint" instead; into a plain zone it is taken."""
    setup = scene(
        kit={"side": "s", "zone": "b", "skills": {"Agility": 1}},
        bob={"side": "m", "zone": "d", "skills": {"Agility": 1}},
    )
    table = start(setup, 6, 6, 1, 1)
    for params in ({"move_to": "c"}, {"move_to": "c", "past": "Agility"}):
        with pytest.raises(RuleError, match="Zones: no clear way from 'b' to 'c': Sprint"):
            act(
                table,
                "kit",
                "manoeuvre",
                [4, 3],
                aspect="Ready",
                scene=True,
                skill="Agility",
                **params,
            )
    moved = act(
        table, "kit", "manoeuvre", [4, 3], aspect="Ready", scene=True, skill="Agility", move_to="a"
    )
    assert moved.state.get("kit").zone == "a"


def test_an_aspect_on_the_targets_sheet_is_tagged_for_a_point_and_the_next_tag_counts_too() -> None:
    """Aspects, "Rolling the Dice": a relevant Aspect — the target's own (jack is Drunk) as well
    as one's own — is tagged for a point of the Experience Pool, each adding a die (option a:
    4d6, the best two kept); tagging the target's Aspect first does not stop the next tag."""
    table = duel(jack={"aspects": ["Drunk"]})
    done = act(
        table,
        "moll",
        "attack",
        [6, 5, 1, 1, 2, 2],
        target="jack",
        tags=["Drunk", "Fencing Mistress"],
    )
    new = _new(table, done)
    assert new[:3] == [
        ("aspect.tagged", {"character": "moll", "aspect": "Drunk", "free": False, "id": None}),
        (
            "aspect.tagged",
            {"character": "moll", "aspect": "Fencing Mistress", "free": False, "id": None},
        ),
        ("pool.spent", {"character": "moll", "points": 2, "for": "tags"}),
    ]
    rolled = new[3][1]["rolled"]
    assert (rolled["faces"], rolled["total"], rolled["tags_paid"]) == ([6, 5, 1, 1], 14, 2)
    assert done.state.get("moll").pool.points == 1


def test_a_skill_limited_by_a_higher_one_rolls_at_its_own_level() -> None:
    """Skill Interaction: "one limits the other, roll once using the lower skill value" — whichever
    of the two it is: moll's Brawl 1 limited by her Weapons 3 rolls at 1 (3 + 3 + 1 = 7)."""
    done = act(
        duel(),
        "moll",
        "manoeuvre",
        [3, 3],
        named="take cover",
        difficulty=7,
        skill="Brawl",
        limited_by="Weapons",
    )
    (rolled,) = [d for k, d in _new(duel(), done) if k == "manoeuvre.rolled"]
    assert (rolled["rolled"]["total"], rolled["outcome"]) == (7, "match")
