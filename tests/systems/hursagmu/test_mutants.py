"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/hursagmu.md, "Mutation
testing"): each asserts an outcome of the rules text with scripted dice.
"""

from __future__ import annotations

from fractions import Fraction

from referee.systems.hursagmu.movement import jump_distance
from referee.systems.hursagmu.rounds import Step

from .test_encounter import FIGHTER, SORCERER, initiative, play, start


def races(dice: list[int]) -> list[dict[str, object]]:
    table = play(
        start({"bob": FIGHTER, "fred": {**FIGHTER, "skills": {"quickness": 0}}}),
        [("bob", "race", {"against": "fred"})],
        dice,
    )
    return [dict(e.data) for e in table.log if e.kind == "race.rolled"]


def test_a_race_round_leader_by_one_behind_and_tied() -> None:
    """Movement, races: "For every point by which one character's roll beats another's, that
    character gains one yard of distance": bob's 2d6+4 against fred's 2d6+2 — 10 against 9 is
    bob by a yard; 6 against 14 is fred by 8; 10 against 10 is nobody's yard."""
    (ahead,) = races([3, 3, 3, 4])
    assert (ahead["character"], ahead["against"], ahead["leader"], ahead["yards"]) == (
        "bob",
        "fred",
        "bob",
        1,
    )
    (behind,) = races([1, 1, 6, 6])
    assert (behind["leader"], behind["yards"]) == ("fred", 8)
    (tied,) = races([3, 3, 4, 4])
    assert (tied["leader"], tied["yards"]) == (None, 0)
    card = tied["roll"]
    assert isinstance(card, dict)
    assert (card["label"], card["rule"]) == ("Bob races Fred (Quickness)", "Movement")


def test_steps_built_in_code_mean_what_a_scenario_files_steps_mean() -> None:
    """Action and Movement: a task with no challenge named is against 0, takes one round and
    is not engrossing; a move has no slope and no roll unless the Master says so; a minor
    action costs no Initiative unless the Master penalises it — built with ``Step.task``,
    ``Step.move``, ``Step.minor`` as when read from a scenario file."""
    assert Step.task("strength") == Step.from_json({"kind": "task", "skill": "strength"})
    assert Step.task("strength").describe() == "strength (strength vs 0)"
    door = {"task": "hold the door", "skill": "strength", "challenge": 9}
    assert Step.task("strength", 9, name="hold the door", engrossing=True, rounds=3) == (
        Step.from_json({**door, "engrossing": True, "rounds": 3})
    )
    assert Step.move("foot", 16) == Step.from_json({"move": "foot", "yards": 16})
    assert Step.move("foot") == Step.from_json({"move": "foot"})
    assert Step.minor() == Step.from_json({"kind": "minor"})
    assert Step.minor().describe() == "minor action"
    assert Step.move("foot", 16, challenge=9, slope=-2) == Step.from_json(
        {"move": "foot", "yards": 16, "challenge": 9, "slope": -2}
    )
    assert Step.minor("draw", 2) == Step.from_json({"minor": "draw", "initiative_penalty": 2})


def test_a_long_jump_with_no_load_is_maximum_lift_over_fifty() -> None:
    """Movement: a long jump is "his Maximum lift / 50"; encumbrance lowers it, and no load
    is none — even for a weakling whose maximum lift is 5."""
    assert jump_distance(5) == Fraction(1, 10)
    assert jump_distance(5, running=True) == Fraction(1, 5)


def test_charge_momentum_is_not_added_to_sorcery() -> None:
    """Movement, the optional charge rule: momentum is added to "the damage of an attack" from
    "any enemy melee weapon" — a melee weapon's Striking, not sorcery: marcos runs 20 yards
    and strikes fred with Mahasu; his damage has no momentum (weapon 0, Strength 0, 1+1)."""
    table = start({"marcos": SORCERER, "fred": FIGHTER}, charge_momentum=True)
    table = initiative(table, {"marcos": ("concentrate", 6, 6), "fred": ("maneuver", 1, 1)})
    steps = [{"move": "foot", "yards": 20}, {"attack": "fred", "skill": "mahasu"}]
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": steps}),
            ("marcos", "act", {}),
            ("marcos", "act", {}),
            ("fred", "take", {}),
        ],
        [6, 6, 1, 1],
    )
    (dealt,) = [e.data for e in table.log if e.kind == "damage.taken"]
    assert (dealt["momentum"], dealt["damage"]) == (0, 2)


def test_a_defended_ranged_attack_records_odds_with_the_range_challenge_on_the_defence() -> None:
    """Range: the range challenge is added to an evading target's defensive roll, so the odds a
    defended ranged attack records are those of 2d6+7 against 2d6+8+2, the attacker winning
    ties (RULINGS.md), counted here face by face."""
    archer = {**FIGHTER, "weapon_type": "missile weapon", "skills": {"quickness": 2, "missile": 5}}
    table = initiative(
        start({"ann": archer, "fred": FIGHTER}),
        {"ann": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)},
    )
    table = play(
        table,
        [
            ("ann", "declare", {"actions": [{"attack": "fred", "skill": "missile", "yards": 25}]}),
            ("ann", "act", {}),
            ("fred", "defend", {"actions": [{"defend": True}]}),
        ],
        [3, 3, 3, 3],
    )
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    hits = sum(1 for mine in two_d6 for theirs in two_d6 if mine + 7 >= theirs + 8 + 2)
    resolved = next(e for e in table.log if e.kind == "attack.resolved")
    assert resolved.data["expression"] == "2d6+7 vs 2d6+8+2"
    assert resolved.data["odds"] == str(Fraction(hits, 36 * 36))
