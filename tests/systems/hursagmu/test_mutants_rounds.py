"""Tests that kill the mutants of ``initiative.py``'s ``decide_initiative`` and ``rounds.py`` that
mutmut left alive (issue 13, round 4; docs/systems/hursagmu.md, "Mutation testing"): each asserts
an outcome of the rules text, or what a seat is shown, with scripted dice.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, RuleError
from referee.dice import ScriptedSource
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.initiative import decide_initiative
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    RoundPlan,
    ScheduledStep,
    Step,
    plan_from_json,
    schedule,
    skill_penalty,
    validate_plan,
)
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import HELD, WAITED, Encounter

from .test_encounter import FIGHTER, SORCERER, initiative, play, start

# -- Initiative (hursagmu-encounters.txt, "Initiative", "Waiting") ---------------------------------


def _initiative_events(
    state: Encounter, who: str, stance: str, faces: list[int], **params: Any
) -> list[tuple[str, dict[str, Any]]]:
    action = Action(who, "initiative", {"stance": stance, **params})
    return [(e.kind, dict(e.data)) for e in decide_initiative(state, action, ScriptedSource(faces))]


def _with(state: Encounter, who: str, **changes: Any) -> Encounter:
    return replace(state, fighters={**state.fighters, who: replace(state.fighters[who], **changes)})


def test_an_initiative_roll_records_its_stance_skill_total_and_a_card_without_odds() -> None:
    """ "Initiative": marcos concentrates and rolls Command (2d6 + Intelligence 3 + Command 2,
    here −1 from the Master): 2 and 5 make Initiative 11. "These skill checks do not count as
    actions" and have no success or failure: the card shows the total, no odds. bob has not
    rolled, so the Action phase does not begin yet."""
    state = start({"bob": FIGHTER, "marcos": SORCERER}).state
    events = _initiative_events(state, "marcos", "concentrate", [2, 5], modifier=-1)
    assert events == [
        (
            "initiative.rolled",
            {
                "character": "marcos",
                "stance": "concentrate",
                "skill": "command",
                "initiative": 11,
                "rank": 0,
                "modifier": -1,
                "faces": [2, 5],
                "expression": "2d6+4",
                "roll": {
                    "card": "roll",
                    "label": "Marcos' Initiative (command)",
                    "rule": "Initiative",
                    "dice": "2d6+4 ≥ 0",
                    "odds": None,
                    "faces": [2, 5],
                    "outcome": "success",
                    "margin": None,
                    "value": 11,
                    "opponent": None,
                    "shown": "2d6 (2, 5) + 4 = 11",
                },
            },
        )
    ]


def test_a_held_action_acts_first_without_a_roll_and_the_last_roll_begins_the_action_phase() -> (
    None
):
    """ "Waiting": a character who held his action over into this round acts first (rank
    ``HELD``, Initiative 0, ``held``), rolling no dice; his is the last Initiative wanted, so
    the Action phase of round 1 begins."""
    state = _with(start({"bob": FIGHTER, "marcos": SORCERER}).state, "bob", held_over=True)
    state = _with(state, "marcos", initiative=7)
    events = _initiative_events(state, "bob", "maneuver", [])
    assert events == [
        (
            "initiative.rolled",
            {
                "character": "bob",
                "stance": "maneuver",
                "skill": "quickness",
                "initiative": 0,
                "rank": HELD,
                "held": True,
            },
        ),
        ("actions.began", {"round": 1}),
    ]


def test_a_waiting_game_player_ranks_over_those_who_acted() -> None:
    """ "Waiting": the players of last round's waiting game keep "the initiative over
    characters who acted": bob rolls Quickness (2d6 + Dexterity 2 + Quickness 2) at rank
    ``WAITED``."""
    state = _with(start({"bob": FIGHTER}).state, "bob", waited_game=True)
    (rolled, began) = _initiative_events(state, "bob", "maneuver", [3, 4])
    assert rolled[1]["initiative"] == 11
    assert rolled[1]["rank"] == WAITED
    assert began == ("actions.began", {"round": 1})


# -- The round's steps ("Action", "Movement", "Haste") ---------------------------------------------


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


def test_the_cinematic_option_counts_no_defence_when_none_is_declared() -> None:
    """ "Action", the cinematic option: defences are one major action a round — and none when
    the round has no defence: two attacks are −2, as under the default."""
    two = (Step.attack("fred"), Step.attack("fred"))
    assert skill_penalty(RoundPlan(two, mode=DefenceMode.CINEMATIC)) == -2
    assert skill_penalty(RoundPlan(two[:1], mode=DefenceMode.CINEMATIC)) == 0


def test_the_first_defence_after_an_attack_is_two_initiative_later_under_the_cinematic_option() -> (
    None
):
    """ "each action after the first happens at an Initiative two lower than the previous
    action"; under the cinematic option only a second defence is the same action as the first."""
    plan = RoundPlan(
        (Step.attack("fred"), Step.defend(), Step.defend(), Step.attack("fred")),
        mode=DefenceMode.CINEMATIC,
    )
    assert [s.initiative for s in schedule(plan, 12)] == [12, 10, 10, 8]


def test_a_schedule_pairs_each_step_with_its_initiative_and_movement_actions() -> None:
    """Haste takes no place in the order (+2 to the round); 16 yards on foot is two movement
    actions, −4 to what follows ("Movement", "Haste")."""
    haste, move, strike = Step.haste(), Step.move("foot", 16), Step.attack("fred")
    assert schedule(RoundPlan((haste, move, strike)), 10) == (
        ScheduledStep(haste, None),
        ScheduledStep(move, 12, 2),
        ScheduledStep(strike, 8),
    )


def test_a_plan_of_the_other_kind_is_refused_naming_the_stance_declared() -> None:
    """ "A character cannot use both Dex and Int skills during the same round": the refusal
    says which stance the character declared."""
    with pytest.raises(RuleError, match="a character who maneuvers cannot use the Intelligence"):
        validate_plan(RoundPlan((Step.task("mahasu"),)), Stance.MANEUVER)
    with pytest.raises(RuleError, match="a character who concentrates cannot use the Dexterity"):
        validate_plan(RoundPlan((Step.attack("fred"),)), Stance.CONCENTRATE)


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


def test_a_multi_round_action_rolled_in_its_last_round_is_over() -> None:
    """ "Some actions may require more than one round to complete": marcos's two-round ritual
    carries on through round 1 (one round done) and is rolled in round 2; then no action is
    under way (no task, no rounds done)."""
    ritual = {"task": "ritual", "skill": "mahasu", "challenge": 8, "rounds": 2}
    table = initiative(start({"marcos": SORCERER}), {"marcos": ("concentrate", 3, 3)})
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": [ritual]}),
            ("marcos", "act", {}),
            ("referee", "end_round", {}),
        ],
    )
    marcos = PROCEDURE.state_json(table.state)["characters"]["marcos"]
    assert (marcos["task"], marcos["task_rounds"]) == ("ritual", 1)
    table = initiative(table, {"marcos": ("concentrate", 3, 3)})
    table = play(
        table, [("marcos", "declare", {"actions": [ritual]}), ("marcos", "act", {})], [6, 6]
    )
    assert table.log[-1].kind == "task.rolled"
    marcos = PROCEDURE.state_json(table.state)["characters"]["marcos"]
    assert (marcos["task"], marcos["task_rounds"]) == (None, 0)
