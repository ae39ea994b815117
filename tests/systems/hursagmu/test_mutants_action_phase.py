"""Tests that kill the mutants of ``action_phase.py`` that mutmut left alive (issue 13, round 4,
second wave; docs/systems/hursagmu.md, "Mutation testing"): a movement's roll and what it leaves
of the mover's posture, a turn aborted, and the Dex/Int skills used in a round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Action, RuleError, Table
from referee.systems.hursagmu.action_phase import (
    fold_moved,
    fold_plan_declared,
    fold_step_taken,
    fold_turn_aborted,
    posture_after,
    step_base,
    used_a_skill,
)
from referee.systems.hursagmu.rounds import DefenceMode, Step
from referee.systems.hursagmu.sheet import Character, Stance
from referee.systems.hursagmu.state import Encounter, Fighter

from .test_encounter import FIGHTER, initiative, play, start, two_fighters


def _with(state: Encounter, who: str, **changes: Any) -> Encounter:
    return replace(state, fighters={**state.fighters, who: replace(state.fighters[who], **changes)})


def _cinematic_round(actions: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(table, [("bob", "declare", {"actions": actions}), ("bob", "act", {})], [6, 5])
    return [(e.kind, dict(e.data)) for e in table.log[-1:]]


# -- "Movement": the Master's Acrobatics or Riding roll ----------------------------------------


def test_a_movements_acrobatics_roll_is_recorded_with_its_card_under_the_cinematic_option() -> None:
    """ "Movement": "the master may require an Acrobatics roll (base Dex for those without the
    skill)". Under the cinematic option ("Action") bob's two declared defences are one major
    action, so his round has no skill penalty: Acrobatics is 2d6 + Dex 2 against 12."""
    events = _cinematic_round(
        [{"move": "foot", "yards": 10, "challenge": 12}, {"defend": True}, {"defend": True}]
    )
    assert events == [
        (
            "character.moved",
            {
                "character": "bob",
                "step": 0,
                "initiative": 16,
                "movement": "foot",
                "yards": 10,
                "movement_actions": 1,
                "skill": "acrobatics",
                "challenge": 12,
                "expression": "2d6+2",
                "odds": "1/6",
                "outcome": "success",
                "value": 13,
                "margin": 1,
                "faces": [6, 5],
                "roll": {
                    "card": "roll",
                    "label": "Bob's acrobatics (foot)",
                    "rule": "Movement",
                    "dice": "2d6+2 ≥ 12",
                    "odds": {"failure": "5/6", "success": "1/6"},
                    "faces": [6, 5],
                    "outcome": "success",
                    "margin": 1,
                    "value": 13,
                    "opponent": None,
                    "shown": "2d6 (6, 5) + 2 = 13",
                },
            },
        )
    ]


def test_a_tasks_roll_counts_two_defences_as_one_action_under_the_cinematic_option() -> None:
    """ "Action": a task and two defences under the cinematic option are two major actions, −2
    (not three, −4): Quickness is 2d6 + Dex 2 + 2 − 2."""
    events = _cinematic_round(
        [
            {"task": "vault", "skill": "quickness", "challenge": 9},
            {"defend": True},
            {"defend": True},
        ]
    )
    assert [(kind, data["expression"], data["odds"]) for kind, data in events] == [
        ("task.rolled", "2d6+2", "7/12")
    ]


# -- what a movement leaves of his posture ----------------------------------------------------


def _moved(movement: str, **extra: Any) -> dict[str, Any]:
    return {
        "character": "bob",
        "step": 0,
        "initiative": 16,
        "movement": movement,
        "yards": 0,
    } | extra


def test_a_stumble_getting_up_leaves_him_prone() -> None:
    """ "Movement": a failed Acrobatics roll gets him nowhere (``character.stumbled``): one who
    fails to stand up is still prone, and one who fails to mount is still on foot."""
    state = _with(two_fighters().state, "bob", prone=True)
    failed = {"skill": "acrobatics", "outcome": "failure"}
    assert fold_moved(state, _moved("stand", **failed)).fighters["bob"].prone is True
    failed_riding = {"skill": "riding", "outcome": "failure"}
    on_foot = two_fighters().state
    assert fold_moved(on_foot, _moved("mount", **failed_riding)).fighters["bob"].mounted is False


def test_a_successful_roll_getting_up_stands_him_up() -> None:
    """ "Movement": standing "from a prone position", with the Master's Acrobatics roll made."""
    state = _with(two_fighters().state, "bob", prone=True)
    made = {"skill": "acrobatics", "outcome": "success"}
    assert fold_moved(state, _moved("stand", **made)).fighters["bob"].prone is False
    assert fold_moved(state, _moved("stand")).fighters["bob"].prone is False


def test_mounting_puts_him_on_horseback_and_dismounting_takes_him_off() -> None:
    """ "Movement": mounting and dismounting are movement actions that change his posture."""
    state = two_fighters().state
    mounted = fold_moved(state, _moved("mount")).fighters["bob"]
    assert mounted.mounted is True
    state = _with(state, "bob", mounted=True)
    assert fold_moved(state, _moved("dismount")).fighters["bob"].mounted is False


def test_a_movement_is_an_action_but_falling_prone_is_free() -> None:
    """ "Falling to a prone position on the ground is a free action" (ruling 29): it does not
    count as acting (for Recovery); any other movement does; the yards add up."""
    state = _with(two_fighters().state, "bob", acted=False, yards_moved=5)
    walked = fold_moved(state, _moved("foot", yards=10)).fighters["bob"]
    assert (walked.acted, walked.yards_moved, walked.next_step) == (True, 15, 1)
    fell = fold_moved(state, _moved("prone")).fighters["bob"]
    assert (fell.acted, fell.prone) == (False, True)
    already = _with(state, "bob", acted=True)
    assert fold_moved(already, _moved("prone")).fighters["bob"].acted is True


def test_a_waiting_character_who_moves_is_no_longer_waiting() -> None:
    """ "Waiting": a waiting character acts inside another's action; once he has moved he is no
    longer waiting."""
    state = _with(two_fighters().state, "bob", waiting=True)
    assert fold_moved(state, _moved("foot", yards=10)).fighters["bob"].waiting is False


# -- "Action": a turn aborted for a defence of the other kind -----------------------------------


def test_an_aborted_turn_drops_the_plan_takes_the_defences_stance_and_ends_waiting() -> None:
    """ "Action": defending with the other kind of skill aborts the rest of the turn; the stance
    becomes the defence's; the steps already taken stay counted."""
    state = _with(
        two_fighters().state,
        "bob",
        plan=(Step.move("foot", 10), Step.attack("fred")),
        next_step=1,
        waiting=True,
    )
    bob = fold_turn_aborted(state, {"character": "bob", "stance": "concentrate"}).fighters["bob"]
    assert (bob.plan, bob.stance, bob.next_step, bob.waiting) == (
        None,
        Stance.CONCENTRATE,
        1,
        False,
    )


# -- "Action": "A character cannot use both Dex and Int skills during the same round" -----------


def test_a_movements_acrobatics_roll_is_a_dexterity_skill_used() -> None:
    """A movement already made with the Master's Acrobatics roll used a Dexterity skill; one
    without a roll used none."""
    state = two_fighters().state
    rolled = replace(state.fighters["bob"], plan=(Step.move("foot", 10, challenge=9),), next_step=1)
    assert used_a_skill(rolled) is True
    plain = replace(state.fighters["bob"], plan=(Step.move("foot", 10),), next_step=1)
    assert used_a_skill(plain) is False


# -- "Movement": what his posture allows -------------------------------------------------------


def test_a_movement_his_posture_does_not_allow_is_refused_saying_why() -> None:
    """ "Movement": one falls prone only standing on the ground, mounts only off his horse and
    standing, and moves on foot or leaps only standing up."""
    fred = Fighter(Character("fred", mount=40), 10)
    cases = [
        (True, False, Step.move("prone"), "fred is already prone"),
        (False, True, Step.move("prone"), "fred is on horseback: he dismounts first"),
        (False, True, Step.move("mount"), "fred is already mounted"),
        (True, False, Step.move("mount"), "fred is lying prone: he stands up first"),
        (True, False, Step.move("leap"), "fred is lying prone: he stands up before leaping"),
        (
            True,
            False,
            Step.move("foot", 5),
            "fred is lying prone: he stands up before moving on foot",
        ),
    ]
    for prone, mounted, step, message in cases:
        with pytest.raises(RuleError) as refused:
            posture_after(replace(fred, prone=prone, mounted=mounted), [step])
        assert str(refused.value) == f"Movement: {message}"


def test_a_prone_character_cannot_walk_after_an_attack_either() -> None:
    """ "Movement": the posture is checked through every step, not only up to the first one
    that is no movement."""
    fred = Fighter(Character("fred"), 10, prone=True)
    with pytest.raises(RuleError, match="stands up before moving on foot"):
        posture_after(fred, [Step.attack("bob"), Step.move("foot", 5)])


# -- the step's Initiative, waiting, and the round's clock ---------------------------------------


def test_a_step_happens_at_its_initiative_under_the_cinematic_option() -> None:
    """ "Action", cinematic option: a second defence is the same action as the first, so the
    attack after two defences comes 2 (not 4) after bob's Initiative 16."""
    state = two_fighters().state
    state = replace(state, options=replace(state.options, defence=DefenceMode.CINEMATIC))
    state = _with(state, "bob", plan=(Step.defend(), Step.defend(), Step.attack("fred")))
    bob = state.fighters["bob"]
    assert step_base(state, "bob", bob, 2) == {"character": "bob", "step": 2, "initiative": 14}


def test_a_waiting_characters_step_is_marked_as_taken_after_waiting() -> None:
    """ "A waiting character may take his action at any time, even within the action of another
    character"."""
    state = _with(two_fighters().state, "bob", plan=(Step.attack("fred"),), waiting=True)
    bob = state.fighters["bob"]
    assert step_base(state, "bob", bob, 0) == {
        "character": "bob",
        "step": 0,
        "initiative": 16,
        "after_waiting": True,
    }


def test_a_waiting_characters_step_leaves_the_rounds_clock_and_ends_his_waiting() -> None:
    """ "Waiting": his step happens now, inside another's action, so the round's clock stays
    where it is; once he has acted he is no longer waiting."""
    state = replace(_with(two_fighters().state, "bob", waiting=True), clock=(0, 10))
    after = fold_step_taken(state, {"character": "bob", "step": 0, "initiative": 5})
    assert after.clock == (0, 10)
    assert (after.fighters["bob"].waiting, after.fighters["bob"].next_step) == (False, 1)
    not_waiting = _with(state, "bob", waiting=False)
    assert fold_step_taken(not_waiting, {"character": "bob", "step": 0, "initiative": 5}).clock == (
        0,
        5,
    )


def test_a_multi_round_action_not_declared_again_is_abandoned() -> None:
    """ "Action": a multi-round action not carried on this round is lost: no task, no rounds
    done, not engrossing."""
    state = _with(two_fighters().state, "bob", task="binding", task_rounds=1, task_engrossing=True)
    steps = [Step.move("foot", 10).to_json()]
    bob = fold_plan_declared(state, {"character": "bob", "steps": steps}).fighters["bob"]
    assert (bob.task, bob.task_rounds, bob.task_engrossing) == (None, 0, False)
    assert bob.plan == (Step.move("foot", 10),)


# -- declaring: Haste and multi-round actions ---------------------------------------------------


def _ann_has_acted_at_16() -> Table[Encounter]:
    table = start({"ann": FIGHTER, "bob": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "bob": ("maneuver", 4, 4)})  # 16, 12
    return play(table, [("ann", "declare", {"actions": [{"minor": "draw"}]}), ("ann", "act", {})])


def test_haste_past_the_rounds_initiative_is_refused_naming_haste() -> None:
    """ "Haste" (ruling 25): bob's three Haste actions would put him at 18, which the round has
    passed (ann acted at 16)."""
    haste = [{"haste": True}, {"haste": True}, {"haste": True}, {"attack": "ann"}]
    with pytest.raises(RuleError) as refused:
        _ann_has_acted_at_16().act(Action("bob", "declare", {"actions": haste}), None)
    assert str(refused.value) == (
        "Haste: the round has passed Initiative 18; Haste must be declared before it comes "
        "(the last action was at 16)"
    )


def test_haste_up_to_the_rounds_current_initiative_is_allowed() -> None:
    """ "Haste": two Haste actions put bob at 16, where the round is now: not passed."""
    haste = [{"haste": True}, {"haste": True}, {"attack": "ann"}]
    table = _ann_has_acted_at_16().act(Action("bob", "declare", {"actions": haste}), None)
    assert table.log[-1].data["initiatives"] == [None, None, 16]


def test_two_multi_round_actions_in_one_round_are_refused() -> None:
    """Ruling 27: one multi-round action at a time."""
    priest = {"intelligence": 3, "stamina": 12, "skills": {"command": 2, "seheru": 4}}
    table = play(
        start({"priest": priest}), [("priest", "initiative", {"stance": "concentrate"})], [3, 3]
    )
    tasks = [
        {"task": "binding", "skill": "seheru", "challenge": 9, "rounds": 2},
        {"task": "warding", "skill": "seheru", "challenge": 9, "rounds": 2},
    ]
    with pytest.raises(RuleError, match="one multi-round action at a time"):
        table.act(Action("priest", "declare", {"actions": tasks}), None)


def test_a_minor_actions_bonus_past_the_rounds_initiative_is_refused_naming_it() -> None:
    """ "Initiative" (ruling 25): a minor action's bonus of 1 raises bob's round to 13 — also a
    bonus, so past the round (at 12) it is refused; the refusal names the minor action's bonus,
    not Haste."""
    table = start({"ann": FIGHTER, "bob": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "bob": ("maneuver", 4, 4)})  # 16, 12
    table = play(table, [("ann", "declare", {"actions": [{"minor": "draw"}]}), ("ann", "act", {})])
    # The round's clock at bob's own Initiative 12, as when he is the next to act.
    table = replace(table, state=replace(table.state, clock=(0, 12)))
    dart = [{"minor": "dart", "initiative_penalty": -1}, {"attack": "ann"}]
    with pytest.raises(RuleError) as refused:
        table.act(Action("bob", "declare", {"actions": dart}), None)
    assert str(refused.value) == (
        "Initiative: the round has passed Initiative 13; a minor action's bonus must be declared "
        "before it comes (the last action was at 12)"
    )


def test_a_declaration_under_the_cinematic_option_counts_its_defences_once() -> None:
    """ "Action", cinematic option: bob's two declared defences are one major action, so his
    declared round has no skill penalty and his Defense stays 6."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    steps = [{"move": "foot", "yards": 10}, {"defend": True}, {"defend": True}]
    table = table.act(Action("bob", "declare", {"actions": steps}), None)
    declared = dict(table.log[-1].data)
    assert (declared["penalty"], declared["skills"], declared["initiatives"]) == (
        0,
        {"defense": 6},
        [16, 14, 14],
    )


def test_a_loaded_characters_declared_leap_and_walk_follow_his_encumbrance() -> None:
    """ "Movement", Encumbrance: carrying half his maximum lift (100 of 200) bob moves 5 yards a
    movement action, so 10 yards on foot are two; his standing long jump, 200 / 50 = 4 yards,
    is lowered at the same rate to 2: a 3-yard leap is refused."""
    loaded = {**FIGHTER, "max_lift": 200, "load": 100}
    table = start({"bob": loaded, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    with pytest.raises(RuleError) as refused:
        table.act(Action("bob", "declare", {"actions": [{"move": "leap", "yards": 3}]}), None)
    assert str(refused.value) == (
        "Movement: a standing long jump reaches 2 yards (maximum lift / 50), not 3"
    )
    table = table.act(Action("bob", "declare", {"actions": [{"move": "foot", "yards": 10}]}), None)
    assert table.log[-1].data["movement_actions"] == 2
