"""The Action phase (hursagmu-encounters.txt, "Action"): turns in the order of the Initiative
rolls, declaring all of one's actions, what a character out of the fight may do, and actions that
take more than one round ("If the character is even slightly injured during this time, the action
fails and must be attempted again")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.action_phase import declare_plan, fold_plan_declared
from referee.systems.hursagmu.choices import legal_actions
from referee.systems.hursagmu.rounds import Step
from referee.systems.hursagmu.state import Encounter

from .helpers import _kinds, _odds, _with
from .test_encounter import FIGHTER, SORCERER, initiative, play, start, two_fighters

# -- "Participants carry out their movement, attacks, or other actions in the order of their
# Initiative rolls" --------------------------------------------------------------------------------


def test_acting_out_of_turn_is_refused_naming_who_is_on_turn() -> None:
    """ "characters carry out their actions in the order of their Initiative rolls": one who
    acts out of turn is told who is on turn — one, two at the same Initiative, or nobody once
    every declared action is taken."""
    table = initiative(
        start({"bob": FIGHTER, "fred": FIGHTER, "ann": FIGHTER}),
        {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 6, 6), "ann": ("maneuver", 1, 1)},
    )
    with pytest.raises(RuleError, match=r"it is not ann's turn \(on turn: bob, fred\)$"):
        table.act(Action("ann", "act"), None)
    draw = {"actions": [{"minor": "draw"}]}
    table = play(two_fighters(), [("bob", "declare", draw)])
    with pytest.raises(RuleError, match=r"it is not fred's turn \(on turn: bob\)$"):
        table.act(Action("fred", "act"), None)
    table = play(table, [("bob", "act", {}), ("fred", "declare", draw), ("fred", "act", {})])
    with pytest.raises(RuleError, match=r"it is not bob's turn \(on turn: nobody\)$"):
        table.act(Action("bob", "act"), None)


def test_a_character_out_of_the_fight_has_no_choices_and_races_only_the_awake() -> None:
    """A character with no hits left is out (no choices); one may race only those awake and
    sneak past anyone else, never himself."""
    table = start({"bob": FIGHTER, "fred": FIGHTER, "ann": {**FIGHTER, "hits": 0}})
    assert legal_actions(table.state, "ann") == ()
    offered = {c.kind: c.params for c in legal_actions(table.state, "bob")}
    assert offered["race"]["against"].values == ("fred",)
    assert offered["sneak"]["perceiver"].values == ("fred", "ann")


def test_a_step_that_is_no_attack_previews_no_attack_even_naming_a_character() -> None:
    """A minor action that names a character is not an attack: nothing is rolled."""
    table = two_fighters()
    table = play(table, [("bob", "declare", {"actions": [{"minor": "wave", "target": "fred"}]})])
    assert _odds(_kinds(table, "bob")["act"]) == []


# -- "he must then declare all of his actions for the round" ---------------------------------------


def _bob_concentrates() -> Encounter:
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    return initiative(table, {"bob": ("concentrate", 6, 6), "fred": ("maneuver", 1, 1)}).state


def test_declaring_no_actions_at_all_is_refused_as_an_empty_declaration() -> None:
    """ "each character must declare all of his actions for the round": ``None`` is no steps."""
    with pytest.raises(RuleError, match=r"declare at least one action \(or wait\)"):
        declare_plan(_bob_concentrates(), "bob", None)


def test_a_redeclaration_without_the_stance_check_keeps_a_skill_of_the_other_kind() -> None:
    """An aborted turn's steps already taken stay whatever the new stance (``check_stance``
    off); with it on, "A character cannot use both Dex and Int skills during the same round"."""
    state = _bob_concentrates()
    _, event = declare_plan(state, "bob", [{"attack": "fred"}], check_stance=False)
    assert event.data["skills"] == {"striking": 5}
    with pytest.raises(RuleError, match="who concentrates cannot use the Dexterity skill"):
        declare_plan(state, "bob", [{"attack": "fred"}])


def test_a_character_not_in_the_encounter_is_refused_naming_those_who_are() -> None:
    """An attack on someone the encounter does not hold is refused, naming its characters."""
    with pytest.raises(RuleError, match=r"no character 'zed' \(known: bob, fred\)"):
        play(two_fighters(), [("bob", "declare", {"actions": [{"attack": "zed"}]})])


# -- "Some actions may require more than one round to complete" ------------------------------------


def _ritual_struck(strength: int) -> Any:
    """marcos in the first round of a three-round ritual, struck by bob's bare hands (weapon 0,
    Strength ``strength``, a 1 on the 1d6 damage roll)."""
    ritual = {"task": "ritual", "skill": "mahasu", "challenge": 8, "rounds": 3}
    bob = {**FIGHTER, "strength": strength, "weapon": 0}
    table = start({"marcos": SORCERER, "bob": bob}, damage_roll="1d6")
    table = initiative(table, {"marcos": ("concentrate", 6, 6), "bob": ("maneuver", 1, 1)})
    return play(
        table,
        [
            ("marcos", "declare", {"actions": [ritual]}),
            ("marcos", "act", {}),
            ("bob", "declare", {"actions": [{"attack": "marcos"}]}),
            ("bob", "act", {}),
        ],
        [6, 6, 1],
    )


def test_a_multi_round_action_fails_at_one_point_of_damage_not_at_none() -> None:
    """Action: "Some actions may require more than one round to complete. If the character is
    even slightly injured during this time, the action fails and must be attempted again." A
    blow of 1 is an injury: the ritual fails; a blow that does nothing (Strength -1 + 1 = 0)
    is none: the ritual goes on, one round done."""
    hurt = _ritual_struck(0)
    (dealt,) = [e.data for e in hurt.log if e.kind == "damage.taken"]
    assert dealt["damage"] == 1
    # he cannot defend: "A character cannot use both Dex and Int skills during the same round"
    (made,) = [e.data for e in hurt.log if e.kind == "attack.made"]
    assert made["defence"] == "none"
    assert made["reason"] == (
        "already used an Intelligence skill this round: cannot use both Dex and Int skills "
        "during the same round"
    )
    failed = [e.data for e in hurt.log if e.kind == "task.failed"]
    assert failed == [
        {"character": "marcos", "task": "ritual", "reason": "injured during a multi-round action"}
    ]
    assert (hurt.state.fighters["marcos"].task, hurt.state.fighters["marcos"].task_rounds) == (
        None,
        0,
    )
    grazed = _ritual_struck(-1)
    (dealt,) = [e.data for e in grazed.log if e.kind == "damage.taken"]
    assert dealt["damage"] == 0
    assert not [e for e in grazed.log if e.kind == "task.failed"]
    marcos = grazed.state.fighters["marcos"]
    assert (marcos.task, marcos.task_rounds, marcos.injured) == ("ritual", 1, False)


def test_a_multi_round_action_not_declared_again_is_abandoned() -> None:
    """ "Action": a multi-round action not carried on this round is lost: no task, no rounds
    done, not engrossing."""
    state = _with(two_fighters().state, "bob", task="binding", task_rounds=1, task_engrossing=True)
    steps = [Step.move("foot", 10).to_json()]
    bob = fold_plan_declared(state, {"character": "bob", "steps": steps}).fighters["bob"]
    assert (bob.task, bob.task_rounds, bob.task_engrossing) == (None, 0, False)
    assert bob.plan == (Step.move("foot", 10),)


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


# -- a seat with no choice is told why, and until when (issue 28) ----------------------------------


def _why(table: Any, who: str) -> tuple[str, str | None, str]:
    said = PROCEDURE.waiting(table.state, who)
    assert said is not None
    return said.reason, said.until, said.section


def test_one_whose_initiative_comes_later_is_told_whose_comes_first() -> None:
    """Action: "Participants carry out their ... actions in the order of their Initiative
    rolls": fred (Initiative 6) waits for bob (16)."""
    table = two_fighters()
    assert _why(table, "fred") == (
        "his Initiative 6 comes after Bob's 16",
        "until Bob has acted",
        "Action",
    )


def test_one_past_his_initiative_waits_for_the_next_round() -> None:
    """Action: once his declared steps are taken, the round has passed his Initiative."""
    table = play(
        two_fighters(),
        [("bob", "declare", {"actions": [{"minor": "draw a sword"}]}), ("bob", "act", {})],
    )
    assert _why(table, "bob") == (
        "the round is past his Initiative 16",
        "until the next round",
        "Action",
    )


def test_a_knocked_out_character_is_told_he_gets_no_action() -> None:
    """Action: "If a character is knocked out or killed before his turn, he gets no action"."""
    table = two_fighters()
    state = _with(table.state, "fred", conscious=False)
    said = PROCEDURE.waiting(state, "fred")
    assert said is not None and said.reason == "Fred is knocked out: he gets no action"


def test_one_who_has_rolled_initiative_waits_for_the_others_rolls() -> None:
    """Initiative: the Action phase begins once everyone has rolled."""
    table = initiative(start({"bob": FIGHTER, "fred": FIGHTER}), {"bob": ("maneuver", 3, 4)})
    assert _why(table, "bob") == (
        "he has Initiative 11; Fred still to roll Initiative",
        "until everyone has rolled Initiative",
        "Initiative",
    )


def test_while_an_attack_waits_the_kernel_names_the_prompt() -> None:
    """The attack pending is the prompt's to explain: the game says nothing of its own."""
    table = play(two_fighters(), [("bob", "declare", {"actions": [{"attack": "fred"}]})])
    table = play(table, [("bob", "act", {})])
    assert PROCEDURE.waiting(table.state, "bob") is None
