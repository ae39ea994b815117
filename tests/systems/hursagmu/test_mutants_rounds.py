"""Tests that kill the mutants of ``initiative.py``'s ``decide_initiative`` and ``rounds.py`` that
mutmut left alive (issue 13, round 4; docs/systems/hursagmu.md, "Mutation testing"): each asserts
an outcome of the rules text, or what a seat is shown, with scripted dice.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from referee.core import RuleError
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    RoundPlan,
    ScheduledStep,
    Step,
    plan_from_json,
    schedule,
)


def test_a_ranged_attack_built_in_code_keeps_its_distance_and_range_table_entry() -> None:
    """ "Missile Weapons": a ranged attack's yards and range table entry are the attack's; the
    same step in a scenario file reads the same."""
    step = Step.attack("fred", "missile", yards=30, ability="missile weapon")
    assert (step.yards, step.ability) == (30, "missile weapon")
    data = {"attack": "fred", "skill": "missile", "yards": 30, "ability": "missile weapon"}
    assert Step.from_json(data) == step


def test_each_step_reads_in_the_log_as_what_was_declared() -> None:
    """The words a ``plan.declared`` log line gives each step: a distance only where there is
    one, the roll a movement needs (Acrobatics on foot, Riding on horseback), a minor action's
    name where it has one."""
    assert Step.attack("fred").describe() == "attack fred (striking)"
    assert Step.attack("fred", yards=30).describe() == "attack fred (striking) at 30 yards"
    assert Step.defend("defiance").describe() == "defend (defiance)"
    assert Step.task("strength", 9).describe() == "strength (strength vs 9)"
    assert Step.task("strength", 9, name="hold the door").describe() == (
        "hold the door (strength vs 9)"
    )
    assert Step.move("stand").describe() == "move stand"
    assert Step.move("foot", 16).describe() == "move foot 16 yards"
    assert Step.move("foot", 16, challenge=9).describe() == "move foot 16 yards (acrobatics vs 9)"
    assert Step.move("ride", 40, challenge=7).describe() == "move ride 40 yards (riding vs 7)"
    assert Step.minor("draw sword").describe() == "minor: draw sword"
    assert Step.minor().describe() == "minor action"
    assert Step.haste().describe() == "haste"


def test_a_step_written_in_full_names_no_second_kind() -> None:
    """A step written in full (``kind: attack``) takes no short form besides: ``attack: fred``
    there is an unknown field, not a second way to say the same."""
    with pytest.raises(RuleError, match=r"unknown fields \['minor'\] in a attack step"):
        Step.from_json({"kind": "attack", "target": "fred", "minor": "draw sword"})


def test_a_schedule_pairs_each_step_with_its_initiative_and_movement_actions() -> None:
    """Haste takes no place in the order (+2 to the round); 16 yards on foot is two movement
    actions, −4 to what follows ("Movement", "Haste")."""
    haste, move, strike = Step.haste(), Step.move("foot", 16), Step.attack("fred")
    assert schedule(RoundPlan((haste, move, strike)), 10) == (
        ScheduledStep(haste, None),
        ScheduledStep(move, 12, 2),
        ScheduledStep(strike, 8),
    )


def test_a_plan_read_from_json_keeps_the_characters_rates_and_the_masters_option() -> None:
    """A declaration read from JSON is the plan of that character: his yards per movement
    action (10 unencumbered), his mount's, his maximum lift and load, the defence option."""
    steps = [{"move": "foot", "yards": 16}]
    assert plan_from_json(steps) == RoundPlan((Step.move("foot", 16),))
    assert plan_from_json(steps) == RoundPlan((Step.move("foot", 16),), 10, 0, DefenceMode.EACH)
    full = plan_from_json(
        steps, rate=Fraction(15, 2), mount=30, mode=DefenceMode.CINEMATIC, max_lift=200, load=40
    )
    assert (full.rate, full.mount, full.mode, full.max_lift, full.load) == (
        Fraction(15, 2),
        30,
        DefenceMode.CINEMATIC,
        200,
        40,
    )


def test_declared_actions_are_a_list_of_steps() -> None:
    """The declared actions are a list: one step written alone, or a word, is refused."""
    with pytest.raises(RuleError, match="a list of steps"):
        plan_from_json({"attack": "fred"})  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="a list of steps"):
        plan_from_json("attack")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "raw",
    [
        {"minor": "draw sword", "initiative_penalty": "2"},
        {"task": "the ritual", "skill": "mahasu", "rounds": True},
        {"task": "hold the door", "skill": "strength", "challenge": "9"},
        {"move": "foot", "yards": 10, "slope": 1.5},
    ],
)
def test_a_steps_numbers_are_whole_numbers(raw: dict[str, Any]) -> None:
    """A step's Initiative penalty, rounds, challenge level and slope are whole numbers: a
    word, a fraction or a yes/no is refused, naming the field."""
    (key,) = set(raw) & {"initiative_penalty", "rounds", "challenge", "slope"}
    with pytest.raises(RuleError, match=f"{key} is a whole number, not {raw[key]!r}"):
        Step.from_json(raw)


def test_a_step_of_no_known_kind_is_refused_naming_the_kinds() -> None:
    """What a step may be is listed when a step is none of them."""
    with pytest.raises(
        RuleError, match="a step is one of attack, defend, task, move, minor, haste: "
    ):
        Step.from_json({"dance": True})


def test_a_ride_is_counted_in_the_mounts_yards() -> None:
    """ "Movement": riding uses "the movement rate of the mount", 20 to 40 yards an action: 40
    yards on a 40-yard horse is one movement action, on a 20-yard one two."""
    ride = (Step.move("ride", 40),)
    assert RoundPlan(ride, mount=40).movement_actions() == 1
    assert RoundPlan(ride, mount=20).movement_actions() == 2


def test_an_unknown_movement_is_refused_naming_the_movements() -> None:
    """The movements of "Movement" are listed when a step names another."""
    with pytest.raises(
        RuleError, match="no movement 'swim' \\(known: stand, foot, mount, dismount, ride, leap"
    ):
        Step.from_json({"move": "swim"})
