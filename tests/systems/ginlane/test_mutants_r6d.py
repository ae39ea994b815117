"""Tests that kill the mutants of ``fighting.py``'s ``manoeuvre`` and of ``grenades.py``
mutmut left alive in round 6, part D of issue 13 (docs/systems/ginlane.md, "Mutation
testing"): "Action: Manoeuvre", "Manoeuvres", "Some Manoeuvres", "Team Work", "Grapple",
"Hold a doorway", "Grenades" and "Fizzle"."""

from __future__ import annotations

import pytest

from referee.core import RuleError

from .test_mutants import _grenade_scene, _thrower
from .test_procedure import BRAVO, act, duel, events, kinds

# ------------------------------------------------------------------ manoeuvre


def test_a_manoeuvre_needs_an_aspect_or_a_named_manoeuvre() -> None:
    """Action: Manoeuvre: "the player describes the Aspect" — a manoeuvre naming no Aspect
    and no named manoeuvre is refused, not rolled."""
    with pytest.raises(RuleError, match="needs an 'aspect' or a 'named' manoeuvre"):
        act(duel(), "moll", "manoeuvre", [6, 6], skill="Agility", difficulty=7)


def test_a_manoeuvre_on_oneself_goes_on_oneself_whatever_target_is_named() -> None:
    """Some Manoeuvres: Take Cover is on oneself — naming jack as the target does not put
    Under Cover on him (Agility 2 + 4 + 4 = 10 beats Fair 7)."""
    table = act(
        duel(), "moll", "manoeuvre", [4, 4], named="take cover", target="jack", difficulty=7
    )
    assert [(a.name, a.on) for a in table.state.aspects] == [("Under Cover", "moll")]
    (rolled,) = events(table, "manoeuvre.rolled")
    assert rolled["on"] == "moll"


def test_a_manoeuvre_on_a_zone_places_the_aspect_on_the_zone_and_is_recorded() -> None:
    """Aspects on zones ("Manoeuvres"): moll fills the hall with smoke against a difficulty
    (Agility 2 + 4 + 4 = 10 beats 7); the roll is recorded with who, what, where and which
    skill, its card saying it was against a difficulty. A zone the scene lacks is refused."""
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [4, 4],
        aspect="Smoke-Filled",
        zone="hall",
        skill="Agility",
        difficulty=7,
    )
    assert [(a.name, a.on) for a in table.state.aspects] == [("Smoke-Filled", "hall")]
    (rolled,) = events(table, "manoeuvre.rolled")
    assert {k: rolled[k] for k in ("character", "aspect", "on", "skill")} == {
        "character": "moll",
        "aspect": "Smoke-Filled",
        "on": "hall",
        "skill": "Agility",
    }
    assert rolled["roll"]["label"] == (
        "Moll manoeuvres for Smoke-Filled on hall (Agility against a difficulty)"
    )
    with pytest.raises(RuleError, match="Zones: no zone 'cellar'"):
        act(duel(), "moll", "manoeuvre", [4, 4], aspect="Smoke", zone="cellar", skill="Agility")


def test_a_manoeuvre_tags_an_aspect_and_pays_for_it() -> None:
    """Tagging: moll tags her own Fencing Mistress for a manoeuvre (a point from her pool);
    the tag and the point are recorded as hers."""
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [6, 6, 1, 1, 1],
        target="jack",
        named="disarm",
        tags=["Fencing Mistress"],
    )
    assert [(e["character"], e["aspect"], e["free"]) for e in events(table, "aspect.tagged")] == [
        ("moll", "Fencing Mistress", False)
    ]
    assert [(e["character"], e["points"]) for e in events(table, "pool.spent")] == [("moll", 1)]


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


def test_a_manoeuvres_target_defends_with_the_skill_he_names() -> None:
    """Defence: jack names Agility against moll's Unbalance, not the Weapons he would
    otherwise defend with (his best)."""
    plain = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    assert events(plain, "defence.rolled")[0]["skill"] == "Weapons"
    named = act(
        duel(),
        "moll",
        "manoeuvre",
        [6, 6, 1, 1],
        target="jack",
        named="unbalance",
        defence="Agility",
    )
    assert events(named, "defence.rolled")[0]["skill"] == "Agility"


def test_a_grappled_manoeuvre_that_beats_the_strength_on_the_grappler_breaks_the_grapple() -> None:
    """Grapple: jack, grappled at 8, blinds moll with Brawl untrained 6 + 6 − 2 = 10: he beats
    the grapple's strength, and the action against his grappler breaks it."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")
    table = act(table, "jack", "manoeuvre", [6, 6, 1, 1], target="moll", named="blind")
    assert events(table, "grapple.broken") == [{"character": "jack", "by": "moll", "total": 10}]


def test_removing_an_aspect_takes_that_one_only_and_only_disarmed_gives_the_weapon_back() -> None:
    """Manoeuvres ("remove"): jack, disarmed and blinded by moll, straightens his wig: Blinded
    goes, Disarmed stays, and he does not pick up his sword by it."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="blind")
    table = act(
        table,
        "jack",
        "manoeuvre",
        [6, 6],
        aspect="Blinded",
        remove=True,
        difficulty=7,
        skill="Agility",
    )
    removed = events(table, "aspect.removed")
    assert [(e["name"], e["on"]) for e in removed] == [("Blinded", "jack")]
    assert [(a.name, a.on) for a in table.state.aspects] == [("Disarmed", "jack")]
    assert not events(table, "weapon.recovered")
    assert table.state.get("jack").weapon == "fists"


def test_only_the_disarmed_picks_up_his_weapon_by_removing_disarmed() -> None:
    """Disarm: ann, jack's friend, removes the Disarmed moll put on jack: the Aspect goes,
    but nobody picks up a weapon by it (ann dropped none)."""
    ann = {"side": "bravoes", "weapon": "sword", "skills": BRAVO, "experience": 5}
    table = act(
        duel(others={"ann": ann}), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm"
    )
    table = act(table, "jack", "full_defence")
    table = act(
        table,
        "ann",
        "manoeuvre",
        [6, 6],
        aspect="Disarmed",
        remove=True,
        target="jack",
        difficulty=7,
        skill="Agility",
    )
    assert [(e["name"], e["on"]) for e in events(table, "aspect.removed")] == [("Disarmed", "jack")]
    assert "weapon.recovered" not in kinds(table)
    assert table.state.get("ann").weapon == "sword"


def test_a_manoeuvre_said_unique_sets_an_aspect_only_its_setter_may_tag() -> None:
    """Team Work: a manoeuvre may set an Aspect unique to its setter (``unique: true``), as
    Take Aim does: moll's ally ann may not tag the Marked moll put on jack."""
    ann = {"side": "society", "skills": BRAVO, "experience": 5}
    table = act(
        duel(others={"ann": ann}),
        "moll",
        "manoeuvre",
        [6, 6],
        aspect="Marked",
        target="jack",
        difficulty=7,
        skill="Weapons",
        unique=True,
    )
    table = act(table, "jack", "full_defence")
    with pytest.raises(RuleError, match="Team Work: 'Marked' is unique to its setter"):
        act(table, "ann", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Marked"])


# ------------------------------------------------------------------ grenades: blast and fuse


def test_a_grenade_dodge_is_carded_and_a_dodge_short_of_the_attack_is_beaten() -> None:
    """Grenades: bob dodges the attack of 4 + 4 + Firearms 1 = 9 with 3 + 3 + Agility 1 = 7:
    his roll's card says whose defence it is, against what, under "Grenades", and "beaten"."""
    table = act(_grenade_scene(), "kit", "throw_grenade", [5, 5, 4, 4, 3, 3], zone="b")
    (dodge,) = events(table, "defence.rolled")
    card = dodge["roll"]
    assert (card["label"], card["rule"], card["outcome"], card["value"]) == (
        "Bob defends against the grenade (Agility against 9)",
        "Grenades",
        "beaten",
        7,
    )


def test_a_grenade_victim_tags_an_aspect_for_the_dodge_and_pays_for_it() -> None:
    """Grenades and Tagging (option a): bob tags his Nimble for the dodge — three dice, the best
    two kept (3 + 3 of 3, 3, 2) + Agility 1 = 7 — and pays a point for it."""
    table = act(
        _grenade_scene(aspects=["Nimble"], experience=6),
        "kit",
        "throw_grenade",
        [5, 5, 4, 4, 3, 3, 2],
        zone="b",
        defences={"bob": {"skill": "Agility", "tags": ["Nimble"]}},
    )
    (dodge,) = events(table, "defence.rolled")
    assert (dodge["roll"]["faces"], dodge["total"]) == ([3, 3, 2], 7)
    assert [(e["character"], e["aspect"], e["free"]) for e in events(table, "aspect.tagged")] == [
        ("bob", "Nimble", False)
    ]
    assert [(e["character"], e["points"]) for e in events(table, "pool.spent")] == [("bob", 1)]


def test_a_fuse_that_goes_off_attacks_with_its_dice_and_keeps_the_grenade_on_target() -> None:
    """Fizzle: kit's grenade On Target on bob fizzles; on kit's next turn the fuse shows an odd
    3 + 4 (even or odd, one chance in two each): a normal Firearms attack of 7 + 1 = 8, On
    Target still — bob (on Full Defence) dodges 2 + 1 + 1 + 2 = 6 and takes 8 − 6 + 2 Health
    stress. The fuse's roll is recorded with its zone, dice, card and odds."""
    table = act(
        _thrower(),
        "kit",
        "throw_grenade",
        [6, 5, 1, 1, 1, 1],
        zone="b",
        on_target="bob",
        tags=["Steady Hand"],
    )
    table = act(table, "bob", "full_defence")
    table = act(table, "kit", "fuse", [3, 4, 2, 1])
    (fuse,) = events(table, "grenade.fuse")
    assert (fuse["zone"], fuse["rolled"]["faces"], fuse["rolled"]["total"]) == ("b", [3, 4], 8)
    card = fuse["roll"]
    assert (card["label"], card["rule"], card["outcome"], card["odds"]) == (
        "Kit's fizzled grenade in b: the fuse",
        "Grenades",
        "goes off",
        {"goes off": "1/2", "phut": "1/2"},
    )
    (dodge,) = events(table, "defence.rolled")
    assert (dodge["roll"]["faces"], dodge["total"]) == ([2, 1], 6)
    (hit,) = events(table, "stress.taken")
    assert (hit["character"], hit["track"], hit["stress"]) == ("bob", "Health", 4)
