"""Tests that kill the mutants of ``action_phase.py`` that mutmut left alive (issue 13, round 4,
second wave; docs/systems/hursagmu.md, "Mutation testing"): a movement's roll and what it leaves
of the mover's posture, a turn aborted, and the Dex/Int skills used in a round.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.core import Action, RuleError
from referee.systems.hursagmu.action_phase import fold_moved, posture_after
from referee.systems.hursagmu.rounds import Step
from referee.systems.hursagmu.sheet import Character
from referee.systems.hursagmu.state import Fighter

from .helpers import _cinematic_round, _moved, _with
from .test_encounter import FIGHTER, initiative, start, two_fighters


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
