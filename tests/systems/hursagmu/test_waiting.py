"""Waiting and The Waiting Game (hursagmu-encounters.txt, "Waiting", "The Waiting Game"): a
waiting character's step inside another's action, holding the action over into the next round
(and acting first there without a roll), and the waiting game's players ranking over those who
acted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.core import Action, RuleError
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.action_phase import fold_moved, fold_step_taken, step_base
from referee.systems.hursagmu.choices import actors
from referee.systems.hursagmu.rounds import Step
from referee.systems.hursagmu.state import HELD, WAITED

from .helpers import _initiative_events, _kinds, _moved, _with
from .test_encounter import FIGHTER, SORCERER, play, start, two_fighters

# -- "A waiting character may take his action at any time, even within the action of another
# character" ---------------------------------------------------------------------------------------


def test_a_waiting_character_who_moves_is_no_longer_waiting() -> None:
    """ "Waiting": a waiting character acts inside another's action; once he has moved he is no
    longer waiting."""
    state = _with(two_fighters().state, "bob", waiting=True)
    assert fold_moved(state, _moved("foot", yards=10)).fighters["bob"].waiting is False


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


# -- "A waiting character may also choose to hold his action over into the next round" -------------


def test_a_waiting_character_may_hold_his_action_over_and_then_acts_first() -> None:
    """ "Waiting": bob waits, and may hold his action over; holding, he is still waiting (one
    whose move it is); next round he acts first, with no Initiative to roll."""
    table = play(two_fighters(), [("bob", "wait", {})])
    hold = _kinds(table, "bob")["hold"]
    assert (hold.actor, hold.label) == ("bob", "hold the action over")
    assert "wait" not in _kinds(table, "bob")
    table = play(table, [("bob", "hold", {})])
    assert actors(table.state) == ("bob", "fred")
    table = play(
        table,
        [
            ("fred", "declare", {"actions": [{"minor": "draw"}]}),
            ("fred", "act", {}),
            ("referee", "end_round", {}),
        ],
    )
    assert _kinds(table, "bob")["initiative"].label == "acts first (held over)"
    assert _kinds(table, "fred")["initiative"].label == (
        "maneuver (Quickness 2d6+4) or concentrate (Command 2d6)"
    )


def test_a_character_who_holds_his_action_over_does_not_act_this_round() -> None:
    """ "Waiting": a waiting character may hold his action over into the next round; bob, who
    has, cannot take a step this round, even one declared afterwards."""
    steps = [
        ("bob", "wait", {}),
        ("bob", "hold", {}),
        ("bob", "declare", {"actions": [{"minor": "draw"}]}),
    ]
    table = play(two_fighters(), steps)
    with pytest.raises(RuleError, match=r"it is not bob's turn \(on turn: fred\)"):
        table.act(Action("bob", "act"), None)


def test_a_held_action_acts_first_without_a_roll_and_the_last_roll_begins_the_action_phase() -> (
    None
):
    """ "Waiting": a character who held his action over into this round acts first (rank
    ``HELD``, ``held``), rolling no dice; until the others have rolled he shows the Initiative
    he held over (5), not 0. His is the last Initiative wanted, so the Action phase of round 1
    begins, and he "gets the Initiative": the round's highest, Marcos's 7 (ruling 33)."""
    state = _with(start({"bob": FIGHTER, "marcos": SORCERER}).state, "bob", held_over=True)
    state = _with(state, "bob", held_initiative=5)
    state = _with(state, "marcos", initiative=7)
    events = _initiative_events(state, "bob", "maneuver", [])
    assert events == [
        (
            "initiative.rolled",
            {
                "character": "bob",
                "stance": "maneuver",
                "skill": "quickness",
                "initiative": 5,
                "rank": HELD,
                "held": True,
            },
        ),
        ("actions.began", {"round": 1, "held": {"bob": 7}}),
    ]


def test_a_held_action_keeps_its_initiative_when_nobody_rolled_higher() -> None:
    """ "Waiting": he "gets the Initiative"; held over at 12 against Marcos's 7, he shows 12."""
    state = _with(start({"bob": FIGHTER, "marcos": SORCERER}).state, "bob", held_over=True)
    state = _with(state, "bob", held_initiative=12)
    state = _with(state, "marcos", initiative=7)
    events = _initiative_events(state, "bob", "maneuver", [])
    assert events[-1] == ("actions.began", {"round": 1, "held": {"bob": 12}})


def test_two_held_actions_each_get_the_highest_rolled_initiative_not_each_others() -> None:
    """ "Waiting": each who held over "gets the Initiative" — the highest rolled, or his own if
    higher (ruling 33): bob held over at 12 keeps 12, cy held over at 5 gets Marcos's 7, not
    bob's 12 (a held Initiative is not rolled)."""
    state = start({"bob": FIGHTER, "cy": FIGHTER, "marcos": SORCERER}).state
    state = _with(state, "bob", held_over=True, held_initiative=12)
    state = _with(state, "cy", held_over=True, held_initiative=5, initiative=5, rank=HELD)
    state = _with(state, "marcos", initiative=7)
    events = _initiative_events(state, "bob", "maneuver", [])
    assert events[-1] == ("actions.began", {"round": 1, "held": {"bob": 12, "cy": 7}})


def test_when_everyone_held_over_each_keeps_the_initiative_he_held() -> None:
    """ "Waiting": with nobody rolling, each who held over keeps his own Initiative (ruling 33:
    no rolled Initiative is higher)."""
    state = start({"bob": FIGHTER, "cy": FIGHTER}).state
    state = _with(state, "bob", held_over=True, held_initiative=12)
    state = _with(state, "cy", held_over=True, held_initiative=5, initiative=5, rank=HELD)
    events = _initiative_events(state, "bob", "maneuver", [])
    assert events[-1] == ("actions.began", {"round": 1, "held": {"bob": 12, "cy": 5}})


# -- "The Waiting Game" ----------------------------------------------------------------------------


def test_a_waiting_game_player_ranks_over_those_who_acted() -> None:
    """ "Waiting": the players of last round's waiting game keep "the initiative over
    characters who acted": bob rolls Quickness (2d6 + Dexterity 2 + Quickness 2) at rank
    ``WAITED``."""
    state = _with(start({"bob": FIGHTER}).state, "bob", waited_game=True)
    (rolled, began) = _initiative_events(state, "bob", "maneuver", [3, 4])
    assert rolled[1]["initiative"] == 11
    assert rolled[1]["rank"] == WAITED
    assert began == ("actions.began", {"round": 1})


def test_one_who_holds_his_action_over_is_told_until_the_next_round() -> None:
    """Waiting: "hold his action over into the next round"."""
    table = play(two_fighters(), [("bob", "wait", {}), ("bob", "hold", {})])
    said = PROCEDURE.waiting(table.state, "bob")
    assert said is not None
    assert (said.reason, said.until) == (
        "he holds his action over into round 2",
        "until the next round",
    )


def test_the_others_are_told_that_a_held_action_comes_first() -> None:
    """Waiting: held over, "he automatically gets the Initiative for that round"."""
    state = _with(two_fighters().state, "bob", rank=HELD)
    said = PROCEDURE.waiting(state, "fred")
    assert said is not None
    assert said.reason == "Bob held his action over and acts before everyone this round"


def test_waiting_before_ones_initiative_is_refused_naming_whose_comes_first() -> None:
    """Waiting: "A character who is still unsure of what to do upon reaching his Initiative may
    wait": fred, before his, is told whose Initiative comes first."""
    with pytest.raises(
        RuleError,
        match=r"^Waiting: fred may wait only upon reaching his Initiative: "
        r"his Initiative 6 comes after Bob's 16$",
    ):
        play(two_fighters(), [("fred", "wait", {})])


def test_holding_over_without_waiting_is_refused_saying_why() -> None:
    """Waiting: "A waiting character may also choose to hold his action over"."""
    with pytest.raises(RuleError, match=r"into the next round: bob is not waiting$"):
        play(two_fighters(), [("bob", "hold", {})])


def test_holding_over_after_acting_is_refused_saying_he_has_acted() -> None:
    """Waiting: "A waiting character may also choose to hold his action over" — not one who has
    acted this round: bob, his sword drawn, is told he has acted, not that he is not waiting."""
    table = play(
        two_fighters(),
        [("bob", "declare", {"actions": [{"minor": "draw sword"}]}), ("bob", "act", {})],
    )
    with pytest.raises(RuleError, match=r"into the next round: bob has acted this round$"):
        play(table, [("bob", "hold", {})])
