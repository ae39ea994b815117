"""Rounds: declared actions, their Initiatives, the skill penalty, defences, Recovery, pushing."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import RuleError
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    DefenceResponse,
    RoundPlan,
    ScheduledStep,
    Step,
    StepKind,
    can_recover,
    defence_response,
    defence_skill,
    major_actions,
    plan_from_json,
    push_power,
    schedule,
    skill_penalty,
    validate_plan,
)
from referee.systems.hursagmu.sheet import Stance


def initiatives(plan: RoundPlan, roll: int) -> list[int | None]:
    return [s.initiative for s in schedule(plan, roll)]


# -- "Action": Bob the Fighter ----------------------------------------------------------------


def test_bob_attack_and_defend_minus_two() -> None:
    plan = RoundPlan((Step.attack("fred"), Step.defend()))
    assert skill_penalty(plan) == -2
    assert 5 + skill_penalty(plan) == 3 and 6 + skill_penalty(plan) == 4


def test_bob_defend_and_attack_twice_initiatives_12_10_8() -> None:
    plan = RoundPlan((Step.defend(), Step.attack("fred"), Step.attack("fred")))
    assert skill_penalty(plan) == -4
    assert initiatives(plan, 12) == [12, 10, 8]


def test_one_major_action_no_penalty() -> None:
    assert skill_penalty(RoundPlan((Step.attack("x"),))) == 0


def test_minor_actions_cost_no_skill_but_may_cost_initiative() -> None:
    plan = RoundPlan(
        (Step.minor("draw", initiative_penalty=1), Step.minor("step"), Step.attack("x"))
    )
    assert skill_penalty(plan) == 0
    assert initiatives(plan, 10) == [10, 9, 9]


# -- "Movement": Fred the Swift -----------------------------------------------------------------


def test_fred_the_swift_four_movement_actions() -> None:
    plan = RoundPlan(
        (
            Step.move("stand"),
            Step.move("foot", 16),
            Step.move("leap"),
            Step.attack("foe"),
            Step.defend(),
        )
    )
    assert plan.movement_actions() == 4
    assert initiatives(plan, 10)[3] == 10 - 8
    assert skill_penalty(plan) == -2  # the defence and the attack; movement costs no skill


def test_movement_costs_no_skill() -> None:
    plan = RoundPlan((Step.move("foot", 40), Step.attack("x")))
    assert skill_penalty(plan) == 0
    assert initiatives(plan, 9) == [9, 1]


def test_falling_prone_is_free() -> None:
    plan = RoundPlan((Step.move("prone"), Step.attack("x")))
    assert plan.movement_actions() == 0
    assert initiatives(plan, 9) == [9, 9]


def test_at_most_four_movement_actions() -> None:
    validate_plan(RoundPlan((Step.move("foot", 40),)), Stance.MANEUVER)
    with pytest.raises(RuleError, match="up to 4"):
        validate_plan(RoundPlan((Step.move("stand"), Step.move("foot", 40))), Stance.MANEUVER)


def test_encumbered_movement_takes_more_actions() -> None:
    plan = RoundPlan((Step.move("foot", 10), Step.attack("x")), rate=5)
    assert plan.movement_actions() == 2
    assert initiatives(plan, 10) == [10, 6]


# -- "Haste": the duellists --------------------------------------------------------------------


def test_duellist_haste_three_times() -> None:
    plan = RoundPlan((Step.haste(), Step.haste(), Step.haste(), Step.attack("rival")))
    assert skill_penalty(plan) == -6
    assert initiatives(plan, 11) == [None, None, None, 17]


def test_duellist_haste_and_defend_minus_eight() -> None:
    plan = RoundPlan((Step.haste(),) * 3 + (Step.attack("rival"), Step.defend()))
    assert skill_penalty(plan) == -8
    assert initiatives(plan, 11)[3:] == [17, 15]


# -- defences: each (default) or cinematic ---------------------------------------------------------


def test_each_defence_is_a_major_action_by_default() -> None:
    plan = RoundPlan((Step.defend(), Step.defend(), Step.attack("x")))
    assert major_actions(plan) == 3 and skill_penalty(plan) == -4


def test_cinematic_defence_counts_once_a_round() -> None:
    plan = RoundPlan((Step.defend(), Step.defend(), Step.attack("x")), mode=DefenceMode.CINEMATIC)
    assert major_actions(plan) == 2 and skill_penalty(plan) == -2
    # One major action for defence: the attack comes one action (2 Initiative) after it, as
    # with a single declared defence.
    assert [s.initiative for s in schedule(plan, 12)] == [12, 12, 10]
    single = RoundPlan((Step.defend(), Step.attack("x")), mode=DefenceMode.CINEMATIC)
    assert [s.initiative for s in schedule(single, 12)] == [12, 10]


def test_defence_skill_and_response() -> None:
    assert defence_skill("striking") == "defense"
    assert defence_skill("mahasu") == "defiance"
    # Same kind as declared: defend with penalties (Fred); other kind: abort (Marcos).
    assert defence_response(Stance.MANEUVER, "striking") is DefenceResponse.DEFEND
    assert defence_response(Stance.CONCENTRATE, "striking") is DefenceResponse.ABORT
    assert defence_response(Stance.MANEUVER, "talamu") is DefenceResponse.ABORT
    assert defence_response(Stance.CONCENTRATE, "nekelmu") is DefenceResponse.DEFEND


def test_no_dex_and_int_skills_in_one_round() -> None:
    validate_plan(
        RoundPlan((Step.attack("x", "mahasu"), Step.defend("defiance"))), Stance.CONCENTRATE
    )
    with pytest.raises(RuleError, match="cannot use the Dexterity skill 'defense'"):
        validate_plan(
            RoundPlan((Step.attack("x", "mahasu"), Step.defend("defense"))), Stance.CONCENTRATE
        )
    # Strength and Willpower rolls belong to neither kind.
    validate_plan(RoundPlan((Step.task("willpower", 12),)), Stance.CONCENTRATE)


def test_engrossing_plan() -> None:
    assert RoundPlan((Step.task("strength", 9, engrossing=True),)).is_engrossing
    assert not RoundPlan((Step.task("strength", 9),)).is_engrossing


# -- Recovery, pushing power -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("acted", "injured", "health", "sanity", "expected"),
    [
        (False, False, True, True, True),
        (True, False, True, True, False),
        (False, True, True, True, False),
        (False, False, False, True, False),
        (False, False, True, False, False),
    ],
)
def test_recovery(acted: bool, injured: bool, health: bool, sanity: bool, expected: bool) -> None:
    assert can_recover(acted=acted, injured=injured, health_ok=health, sanity_ok=sanity) is expected


def test_push_power() -> None:
    assert push_power(20, 2) == (18, False)
    assert push_power(6, 6) == (0, True)
    with pytest.raises(RuleError, match="only 3 hits"):
        push_power(3, 4)
    with pytest.raises(RuleError, match="at least one"):
        push_power(3, 0)


# -- parsing -------------------------------------------------------------------------------------


def test_plan_from_json_short_forms() -> None:
    plan = plan_from_json(
        [
            {"move": "foot", "yards": 16},
            {"attack": "fred"},
            {"defend": True},
            {"haste": True},
            {"minor": "draw"},
            {"task": "lock", "skill": "acrobatics", "challenge": 9},
        ]
    )
    assert [s.kind for s in plan.steps] == [
        StepKind.MOVE,
        StepKind.ATTACK,
        StepKind.DEFEND,
        StepKind.HASTE,
        StepKind.MINOR,
        StepKind.TASK,
    ]
    assert plan.steps[2].skill == "defense"
    for step in plan.steps:
        assert Step.from_json(step.to_json()) == step


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"fly": 3}, "a step is one of"),
        ({"move": "swim"}, "no movement 'swim'"),
        ({"attack": ""}, "needs a target"),
        ({"task": "x"}, "needs a skill"),
        ({"attack": "x", "colour": "red"}, "unknown fields"),
        ({"attack": "x", "yards": "far"}, "whole number"),
        ({"task": "x", "skill": "strength", "rounds": 0}, "at least one round"),
        # Bad input names what is wrong (never a traceback, never a silent misreading).
        ({"attack": "x", "skill": 5}, "skill is a name"),
        ({"task": "x", "skill": ["strength"]}, "skill is a name"),
        ({"attack": ["x"]}, "target is a name"),
        ({"attack": "x", "skill": "luck"}, "no skill 'luck'"),
        ({"attack": "x", "ability": 5, "yards": 4}, "ability is a name"),
        ({"attack": "x", "ability": "bow", "yards": 4}, "no range increment for 'bow'"),
        ({"attack": "x", "engrossing": "maybe"}, "engrossing is true or false"),
        ({"minor": 5}, "name is"),
        ({"kind": "task", "skill": "strength", "name": 5}, "name is"),
        ({"haste": 3}, "one Haste a step"),
        ({"haste": False}, "one Haste a step"),
        ({"defend": False}, "defend: true"),
        ({"defend": 7}, "defend: true"),
        ({"defend": "striking"}, "Defense or Defiance"),
        ({"move": "leap", "yards": -3}, "cannot be negative"),
        ({"attack": "x", "yards": -3, "ability": "thrown weapon"}, "cannot be negative"),
        ({"move": "stand", "yards": 30}, "covers no yards"),
        ({"move": "prone", "yards": 5}, "covers no yards"),
    ],
)
def test_bad_steps_are_refused(raw: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        Step.from_json(raw)


# -- invariants --------------------------------------------------------------------------------

STEPS = st.sampled_from(
    [
        Step.attack("x"),
        Step.defend(),
        Step.task("strength", 8),
        Step.haste(),
        Step.minor("m"),
        Step.move("stand"),
        Step.move("foot", 10),
        Step.move("leap"),
        Step.move("prone"),
    ]
)


@given(st.lists(STEPS, min_size=1, max_size=8), st.integers(-5, 25))
def test_penalty_is_minus_two_per_major_action_after_the_first(
    steps: list[Step], roll: int
) -> None:
    plan = RoundPlan(tuple(steps))
    # Written out, not StepKind.is_major: attacks, defences, tasks and Haste are major actions;
    # movement ("not considered an action for purposes of skill penalties") and minor ones not.
    majors = sum(1 for s in steps if s.kind.value in ("attack", "defend", "task", "haste"))
    assert skill_penalty(plan) == -2 * max(0, majors - 1)


@given(st.lists(STEPS, min_size=1, max_size=8), st.integers(-5, 25))
def test_initiatives_never_rise_and_haste_lifts_everything(steps: list[Step], roll: int) -> None:
    plan = RoundPlan(tuple(steps))
    values = [v for v in initiatives(plan, roll) if v is not None]
    assert values == sorted(values, reverse=True)
    if values:
        assert values[0] <= roll + 2 * plan.haste
    hasted = RoundPlan((Step.haste(), *steps))
    assert [v for v in initiatives(hasted, roll) if v is not None] == [v + 2 for v in values]


# -- slopes, treacherous ground, jumps ------------------------------------------------------------


def test_slopes_change_the_yards_per_movement_action() -> None:
    uphill = RoundPlan((Step.move("foot", 16, slope=-2), Step.attack("x")))
    downhill = RoundPlan((Step.move("foot", 24, slope=2), Step.attack("x")))
    assert uphill.movement_actions() == 2  # 8 yards an action
    assert RoundPlan((Step.move("foot", 17, slope=-2),)).movement_actions() == 3
    assert downhill.movement_actions() == 2  # 12 yards an action


def test_treacherous_ground_asks_acrobatics_horses_riding() -> None:
    assert Step.move("foot", 10, challenge=9).roll_skill == "acrobatics"
    assert Step.move("leap", challenge=9).roll_skill == "acrobatics"
    assert Step.move("ride", 40, challenge=9).roll_skill == "riding"
    assert Step.move("foot", 10).roll_skill is None


def test_leaps_are_limited_by_maximum_lift() -> None:
    standing = RoundPlan((Step.move("leap", 4),), max_lift=200)
    validate_plan(standing, Stance.MANEUVER)
    with pytest.raises(RuleError, match="standing long jump reaches 4 yards"):
        validate_plan(RoundPlan((Step.move("leap", 5),), max_lift=200), Stance.MANEUVER)
    running = RoundPlan((Step.move("foot", 10), Step.move("leap", 8)), max_lift=200)
    validate_plan(running, Stance.MANEUVER)
    loaded = RoundPlan((Step.move("foot", 10), Step.move("leap", 8)), max_lift=200, load=100)
    with pytest.raises(RuleError, match="running long jump reaches 4 yards"):
        validate_plan(loaded, Stance.MANEUVER)


def test_skill_names_ignore_case() -> None:
    # Skills are named as the text writes them ("Defense", "Striking"); a step stores them in
    # lower case so a declared "Defense" is the defence a striking attack needs.
    assert Step.from_json({"defend": "Defense"}) == Step.defend("defense")
    assert Step.from_json({"attack": "x", "skill": "Striking"}) == Step.attack("x")


# -- the declared steps, built in code or read from a scenario file --------------------------------


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


def test_a_schedule_pairs_each_step_with_its_initiative_and_movement_actions() -> None:
    """Haste takes no place in the order (+2 to the round); 16 yards on foot is two movement
    actions, −4 to what follows ("Movement", "Haste")."""
    haste, move, strike = Step.haste(), Step.move("foot", 16), Step.attack("fred")
    assert schedule(RoundPlan((haste, move, strike)), 10) == (
        ScheduledStep(haste, None),
        ScheduledStep(move, 12, 2),
        ScheduledStep(strike, 8),
    )


def test_a_fighters_schedule_and_penalty_are_worked_out_once_however_often_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whose turn it is, every roll's penalty and every choice read a fighter's schedule, many
    times a step (issue 31): it is worked out once per fighter, and afresh for a fighter
    changed (the next step, another Initiative), never a stale one."""
    from referee.systems.hursagmu import state as state_module
    from referee.systems.hursagmu.sheet import Character
    from referee.systems.hursagmu.state import Encounter, Fighter, Options, on_turn

    worked: list[str] = []
    real_schedule, real_penalty = state_module.schedule, state_module.skill_penalty
    monkeypatch.setattr(
        state_module, "schedule", lambda p, i: worked.append("schedule") or real_schedule(p, i)
    )
    monkeypatch.setattr(
        state_module, "skill_penalty", lambda p: worked.append("penalty") or real_penalty(p)
    )
    bob = Fighter(
        Character("bob"), 10, initiative=7, plan=(Step.attack("fred"), Step.attack("fred"))
    )
    fred = Fighter(Character("fred"), 10, initiative=6)
    state = Encounter(Options(), {"bob": bob, "fred": fred}, phase="action")
    for _ in range(5):
        assert on_turn(state) == ("bob",)
        bob.penalty(DefenceMode.EACH)
    assert sorted(worked) == ["penalty", "schedule"]
    plan = bob.round_plan(DefenceMode.EACH)
    assert plan is not None and bob.penalty(DefenceMode.EACH) == real_penalty(plan)
    assert [s.initiative for s in bob.scheduled(DefenceMode.EACH)] == [7, 5]
    later = state.with_fighter("bob", next_step=1, initiative=3)
    assert on_turn(later) == ("fred",)  # bob's second attack now comes at 3 - 2 = 1
    assert [s.initiative for s in later.fighters["bob"].scheduled(DefenceMode.EACH)] == [3, 1]
    assert worked.count("schedule") == 2


def test_a_fighter_pickles_to_the_same_bytes_whether_or_not_his_schedule_was_asked() -> None:
    """A store's snapshot pickles the state: what a fighter worked out and remembered is not
    part of it, so the snapshot is the same bytes, and reads back the same fighter."""
    import pickle

    from referee.systems.hursagmu.sheet import Character
    from referee.systems.hursagmu.state import Fighter

    plan = (Step.attack("fred"), Step.defend())
    fresh = Fighter(Character("bob"), 10, initiative=7, plan=plan)
    asked = Fighter(Character("bob"), 10, initiative=7, plan=plan)
    asked.scheduled(DefenceMode.EACH)
    asked.penalty(DefenceMode.EACH)
    assert pickle.dumps(asked) == pickle.dumps(fresh)
    back = pickle.loads(pickle.dumps(asked))
    assert back == asked and back.scheduled(DefenceMode.EACH) == asked.scheduled(DefenceMode.EACH)


def test_a_fighters_roll_bears_the_rounds_penalty_and_any_further_modifier() -> None:
    """ "Action": "any skills used during a round suffer a cumulative -2 penalty for each major
    action taken" after the first: bob, who attacks and defends, rolls at -2; a further
    modifier is added to it (-1 makes -3, +1 makes -1)."""
    from referee.systems.hursagmu.sheet import Character
    from referee.systems.hursagmu.state import Fighter

    bob = Fighter(Character("bob"), 10, initiative=7, plan=(Step.attack("fred"), Step.defend()))
    assert bob.roll_of("striking", DefenceMode.EACH).modifier == -2
    assert bob.roll_of("striking", DefenceMode.EACH, extra=-1).modifier == -3
    assert bob.roll_of("striking", DefenceMode.EACH, extra=1).modifier == -1
