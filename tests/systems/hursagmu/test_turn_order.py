"""Why a character cannot act now, and until when (hursagmu-encounters.txt, "Initiative",
"Action", "Waiting", "Round Zero"): "Participants carry out their movement, attacks, or other
actions in the order of their Initiative rolls" — one with no choice open is told, in the
text's words, whose Initiative comes before his, that the round has passed his, or that he is
out of the fight."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core import Waiting
from referee.systems.hursagmu.setup import encounter_from_setup
from referee.systems.hursagmu.state import HELD, WAITED, Encounter
from referee.systems.hursagmu.steps import Step, StepKind
from referee.systems.hursagmu.turn_order import waiting


def _three(**phase: Any) -> Encounter:
    """Bob (Initiative 12), Marcos (15) and Fred (6), in the Action phase unless told."""
    state = encounter_from_setup({"characters": {"bob": {}, "marcos": {}, "fred": {}}})
    state = state.with_fighter("bob", initiative=12).with_fighter("marcos", initiative=15)
    state = state.with_fighter("fred", initiative=6)
    return replace(state, **({"phase": "action"} | phase))


def test_one_out_of_the_fight_gets_no_action() -> None:
    """Action: a knocked-out character "gets no action"."""
    state = _three().with_fighter("bob", conscious=False)
    assert waiting(state, "bob") == Waiting(
        "bob",
        "Bob is knocked out: he gets no action",
        "until the Master rules him able again",
        "Action",
    )
    assert waiting(state, "nobody") is None


def test_while_an_attack_waits_for_its_answer_the_kernel_says_why() -> None:
    assert waiting(replace(_three(), pending=object()), "bob") is None  # type: ignore[arg-type]


def test_while_initiative_is_rolled_each_is_told_who_is_still_to_roll() -> None:
    """Initiative: the Action phase begins once every conscious character has rolled."""
    state = _three(phase="initiative").with_fighter("marcos", initiative=None)
    state = state.with_fighter("fred", initiative=None)
    assert waiting(state, "bob") == Waiting(
        "bob",
        "he has Initiative 12; Marcos, Fred still to roll Initiative",
        "until everyone has rolled Initiative",
        "Initiative",
    )
    held = state.with_fighter("bob", held_over=True).with_fighter("fred", conscious=False)
    said = waiting(held, "bob")
    assert said is not None
    assert said.reason == "he acts first (held over); Marcos still to roll Initiative"


def test_on_round_zero_only_the_initiators_act() -> None:
    """Round Zero: "the opponents may take no actions" but defend."""
    state = _three(round=0).with_fighter("marcos", rank=HELD)
    assert waiting(state, "bob") == Waiting(
        "bob",
        "only the initiators act on round zero; he may only defend if attacked",
        "until round 1",
        "Round Zero",
    )
    said = waiting(state.with_fighter("marcos", acted=True, plan=()), "marcos")
    assert said is not None and said.section != "Round Zero"


def test_one_holding_his_action_over_waits_for_the_next_round() -> None:
    state = _three(round=3).with_fighter("bob", holding=True)
    assert waiting(state, "bob") == Waiting(
        "bob", "he holds his action over into round 4", "until the next round", "Waiting"
    )


def test_one_whose_initiative_is_to_come_is_told_whose_comes_first() -> None:
    assert waiting(_three(), "bob") == Waiting(
        "bob", "his Initiative 12 comes after Marcos's 15", "until Marcos has acted", "Action"
    )
    tied = _three().with_fighter("fred", initiative=15)
    assert waiting(tied, "bob") == Waiting(
        "bob",
        "his Initiative 12 comes after Marcos and Fred's 15",
        "until Marcos and Fred have acted",
        "Action",
    )


def test_one_who_held_over_or_played_the_waiting_game_acts_before_everyone() -> None:
    """Waiting: held over, "he automatically gets the Initiative"; the waiting game's players
    "the initiative over characters who acted"."""
    held = _three().with_fighter("fred", rank=HELD)
    assert waiting(held, "marcos") == Waiting(
        "marcos",
        "Fred held his action over and acts before everyone this round",
        "until Fred has acted",
        "Waiting",
    )
    played = _three().with_fighter("fred", rank=WAITED)
    said = waiting(played, "marcos")
    assert said is not None
    assert said.reason == "Fred played the waiting game and acts before everyone this round"


def test_one_waiting_while_only_the_waiting_are_left_acts_once_they_do() -> None:
    state = _three().with_fighter("bob", waiting=True).with_fighter("marcos", waiting=True)
    state = state.with_fighter("fred", conscious=False)
    assert waiting(state, "bob") == Waiting(
        "bob", "his turn comes once the waiting characters act", None, "Waiting"
    )


def test_one_the_round_has_passed_waits_for_the_next() -> None:
    state = _three(round=2).with_fighter("bob", plan=())
    assert waiting(state, "bob") == Waiting(
        "bob", "the round is past his Initiative 12", "until the next round", "Action"
    )
    defends = state.with_fighter("bob", plan=(Step(StepKind.DEFEND, skill="defense"),))
    assert waiting(defends, "bob") == Waiting(
        "bob",
        "his declared steps are done; his defences come when he is attacked",
        "until the next round",
        "Action",
    )


def test_when_nobody_has_a_step_left_the_master_ends_the_round() -> None:
    state = _three(round=2)
    for who in ("bob", "marcos", "fred"):
        state = state.with_fighter(who, plan=())
    assert waiting(state, "fred") == Waiting(
        "fred", "round 2 is over: the Master ends it (Recovery)", "until the next round", "Recovery"
    )
