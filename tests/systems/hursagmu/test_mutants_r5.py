"""Tests that kill the mutants of HURSAGMU's rules that mutmut left alive in round 5 of issue 13
(docs/systems/hursagmu.md, "Mutation testing", "Round 5"): the odds an attacked character's
choices preview, and the modules earlier rounds did not reach.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError
from referee.systems.hursagmu.movement import movement_actions, movement_rate, range_increment

from .test_encounter import FIGHTER, initiative, play, start, two_fighters


def test_a_movements_acrobatics_roll_card_names_the_character_who_moves() -> None:
    """ "the master may require an Acrobatics roll": the roll card of bob's walk over treacherous
    ground is labelled as his."""
    walk = {"actions": [{"move": "foot", "yards": 10, "challenge": 12}]}
    table = play(two_fighters(), [("bob", "declare", walk), ("bob", "act", {})], [1, 1])
    stumble = next(e for e in table.log if e.kind == "character.stumbled")
    assert stumble.data["roll"]["label"] == "Bob's acrobatics (foot)"


def test_a_walk_needs_a_distance_and_one_yard_is_one_movement_action() -> None:
    """ "Movement": on foot, one movement action "for every ten yards or fraction thereof": one
    yard is one action; a walk of no yards (none given, or 0) is no movement and is refused."""
    assert movement_actions("foot", 1) == 1
    for walk in (lambda: movement_actions("foot"), lambda: movement_actions("foot", 0)):
        with pytest.raises(RuleError, match="moving on foot needs a distance"):
            walk()


def test_only_a_character_who_cannot_move_at_all_is_too_encumbered_to_walk() -> None:
    """Encumbrance lowers the yards per movement action; at 1 yard an action he still walks."""
    assert movement_actions("foot", 1, rate=1) == 1
    with pytest.raises(RuleError, match="too encumbered to move"):
        movement_actions("foot", 1, rate=0)


def test_a_horse_rides_twenty_to_forty_yards_an_action_and_a_ride_needs_a_distance() -> None:
    """ "Movement": riding, one action per the horse's 20 to 40 yards; 41 is no horse of the
    text; a ride of one yard is one action, a ride of none is refused."""
    assert movement_actions("ride", 1, mount=40) == 1
    with pytest.raises(RuleError, match="a horse rides 20 to 40 yards an action, not 41"):
        movement_actions("ride", 40, mount=41)
    with pytest.raises(RuleError, match="riding needs a distance"):
        movement_actions("ride", 0, mount=40)


def test_an_unknown_range_increment_is_refused_naming_the_known_ones() -> None:
    """ "Range": the refusal names the attack types, sorcery types and senses that have one."""
    with pytest.raises(
        RuleError, match=r"known: thrown weapon, missile weapon, Talamu, .*, divination\)"
    ):
        range_increment("catapult")


def test_a_maximum_lift_of_one_is_a_positive_lift() -> None:
    """Encumbrance: any positive maximum lift moves; unloaded, 10 yards an action."""
    assert movement_rate(1, 0) == 10
    with pytest.raises(RuleError, match="maximum lift must be positive"):
        movement_rate(0, 0)


def test_a_loaded_characters_walk_counts_his_encumbered_movement_actions_when_taken() -> None:
    """ "Movement", Encumbrance: carrying half his maximum lift bob moves 5 yards a movement
    action; his walk of 10 yards, when he takes it, is two movement actions, as declared."""
    loaded = {**FIGHTER, "max_lift": 200, "load": 100}
    table = initiative(
        start({"bob": loaded, "fred": FIGHTER}),
        {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)},
    )
    walk = {"actions": [{"move": "foot", "yards": 10}]}
    table = play(table, [("bob", "declare", walk), ("bob", "act", {})])
    moved = next(e for e in table.log if e.kind == "character.moved")
    assert moved.data["movement_actions"] == 2
