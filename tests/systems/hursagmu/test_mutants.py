"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/hursagmu.md, "Mutation
testing"): each asserts an outcome of the rules text with scripted dice.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from referee.core import RuleError
from referee.systems.hursagmu.movement import jump_distance
from referee.systems.hursagmu.rounds import Step, push_power
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import HELD, on_turn

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


def test_pushing_power_one_hit_and_the_last_one() -> None:
    """Pushing Power: a hit of Stamina buys +1; one hit is the least spent; spending down to 1
    hit left does not collapse, to 0 does ("until his stamina reaches zero, at which point he
    will collapse from exhaustion")."""
    assert push_power(5, 1) == (4, False)
    assert push_power(2, 1) == (1, False)
    assert push_power(1, 1) == (0, True)
    with pytest.raises(RuleError, match="at least one hit"):
        push_power(5, 0)


def test_the_master_rules_health_and_sanity_and_keeps_what_he_does_not_say() -> None:
    """ "Perception and Observation": the Master rules a character OK or not on Health and on
    Sanity; what he does not say is unchanged."""

    def rule(table: Any, **condition: bool) -> tuple[Any, tuple[bool, bool]]:
        after = play(table, [("referee", "condition", {"character": "bob", **condition})])
        bob = after.state.fighters["bob"]
        return after, (bob.health_ok, bob.sanity_ok)

    table, now = rule(start({"bob": FIGHTER}), health_ok=False)
    assert now == (False, True)
    table, now = rule(table, health_ok=True, sanity_ok=True)
    assert now == (True, True)
    table, now = rule(table, sanity_ok=False)
    assert now == (True, False)


def test_round_zero_happens_once_and_round_one_rolls_initiative() -> None:
    """Round Zero: "Round zero marks the beginning of any conflict ... After the initial round
    zero activity, conflict progresses to round 1, and participants roll initiative as
    normal": once round zero is played, nobody may open another, in round 1 or later, even
    before anyone has rolled."""
    table = play(
        start({"ann": FIGHTER, "bob": FIGHTER}),
        [
            ("ann", "round_zero", {"surprised": ["bob"]}),
            ("ann", "declare", {"actions": [{"minor": "draw"}]}),
            ("ann", "act", {}),
            ("referee", "end_round", {}),
        ],
    )
    assert (table.state.round, table.state.phase) == (1, "initiative")
    assert {f.initiative for f in table.state.fighters.values()} == {None}
    for who in ("ann", "bob"):
        with pytest.raises(RuleError, match="has begun"):
            play(table, [(who, "round_zero", {})])
        assert "round_zero" not in {a.kind for a in table.legal_actions(who)}


def test_round_zero_keeps_the_stance_its_initiators_chose() -> None:
    """Round Zero and Initiative ("A character cannot use both Dex and Int skills during the
    same round"): who opens the conflict maneuvering may not cast on round zero; who opens it
    concentrating may."""
    sorcerers = {"ann": SORCERER, "bob": FIGHTER}
    spell = {"actions": [{"task": "curse", "skill": "mahasu", "challenge": 5}]}
    maneuvering = play(start(sorcerers), [("ann", "round_zero", {"surprised": ["bob"]})])
    assert maneuvering.state.fighters["ann"].stance is Stance.MANEUVER
    with pytest.raises(RuleError, match="cannot use the Intelligence skill 'mahasu'"):
        play(maneuvering, [("ann", "declare", spell)])
    concentrating = play(
        start(sorcerers), [("ann", "round_zero", {"surprised": ["bob"], "stance": "concentrate"})]
    )
    assert concentrating.state.fighters["ann"].stance is Stance.CONCENTRATE
    play(concentrating, [("ann", "declare", spell)])


def test_round_zero_bystanders_have_no_turn_but_may_defend() -> None:
    """Round Zero: only the initiators act; one who is not "completely by surprise" is not
    barred from defending ("The only defense against such sneak attacks is to not be caught
    off-guard")."""
    table = play(
        start({"ann": FIGHTER, "bob": FIGHTER, "cy": FIGHTER}),
        [("ann", "round_zero", {"surprised": ["bob"]})],
    )
    fighters = table.state.fighters
    assert (fighters["ann"].initiative, fighters["ann"].rank) == (0, HELD)
    assert {who: fighters[who].surprised for who in fighters} == {
        "ann": False,
        "bob": True,
        "cy": False,
    }
    assert on_turn(table.state) == ("ann",)
    table = play(table, [("ann", "declare", {"actions": [{"attack": "cy"}]}), ("ann", "act", {})])
    assert table.state.pending is not None and table.state.pending.target == "cy"
    assert "defend" in {a.kind for a in table.legal_actions("cy")}
    defended = play(table, [("cy", "defend", {"actions": [{"defend": True}]})], [1, 1, 6, 6])
    assert [e.data["defended"] for e in defended.log if e.kind == "attack.resolved"] == [True]


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


def test_one_point_of_damage_is_an_injury_and_costs_the_rounds_recovery() -> None:
    """Recovery: "If a character is injured during the round (takes even 1 point of damage),
    the character gets no recovery." A bare-handed weakling's blow (weapon 0, Strength 0,
    a 1 on the 1d6 damage roll) does 1: fred, hurt to 10 hits, ends the round on 9; ann, as
    hurt and idle, recovers to 11."""
    weakling = {**FIGHTER, "strength": 0, "weapon": 0}
    hurt = {**FIGHTER, "hits": 10}
    table = start({"bob": weakling, "fred": hurt, "ann": hurt}, damage_roll="1d6")
    table = initiative(
        table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1), "ann": ("maneuver", 5, 5)}
    )
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
            ("ann", "wait", {}),
            ("fred", "wait", {}),
        ],
        [3, 3, 1],
    )
    (dealt,) = [e.data for e in table.log if e.kind == "damage.taken"]
    assert (dealt["damage"], dealt["hits_left"]) == (1, 9)
    assert table.state.fighters["fred"].injured is True
    table = play(table, [("referee", "end_round", {})])
    assert (table.state.fighters["fred"].hits, table.state.fighters["ann"].hits) == (9, 11)


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


def test_a_character_collapses_once_when_his_hits_reach_zero() -> None:
    """Damage and collapse (ruling 14 of docs/systems/hursagmu.md): "a character brought to 0
    hits by injury collapses at once"; struck again where he lies (at 0, and then below), he
    does not collapse a second time — one ``character.collapsed``, the first blow's."""
    bob = {**FIGHTER, "strength": 0, "weapon": 0}
    table = start({"bob": bob, "fred": {**FIGHTER, "hits": 1}}, damage_roll="1d6")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}, {"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
            ("bob", "act", {}),
        ],
        [6, 6, 1, 6, 6, 1],
    )
    dealt = [(e.data["damage"], e.data["hits_left"]) for e in table.log if e.kind == "damage.taken"]
    assert dealt == [(1, 0), (1, -1)]
    reasons = [e.data.get("reason") for e in table.log if e.kind == "attack.made"]
    assert reasons == [None, "unconscious"]
    collapsed = [dict(e.data) for e in table.log if e.kind == "character.collapsed"]
    assert collapsed == [{"character": "fred", "cause": "injury"}]
    assert table.state.fighters["fred"].conscious is False


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
