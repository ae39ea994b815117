"""The procedure as a whole: the state is a fold of the log (replay, undo, JSON round trip)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import REFEREE, Action, ActionError, Log, RuleError, Table
from referee.dice import RandomSource
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.procedure import CATALOGUE
from referee.systems.zweihander.state import ZweihanderState, apply_character_changes

SETUP: dict[str, Any] = {
    "characters": {
        "runner": {
            "bonuses": {"AB": 4, "BB": 1, "WB": 2},
            "skills": {"Coordination": 50, "Toughness": 40, "Athletics": 50},
        },
        "chaser": {
            "bonuses": {"AB": 3, "BB": 1, "PB": 3, "WB": 2},
            "skills": {"Coordination": 45, "Toughness": 45},
        },
        "guard": {
            "bonuses": {"AB": 2, "BB": 2, "PB": 2, "WB": 2},
            "skills": {"Coordination": 40, "Toughness": 50},
        },
    },
}


def assert_pursuers_never_pass_the_rearmost_escapee(t: Table[Any]) -> None:
    """Pursuit Value >= Escape Value is lowered at once: after any step, no pursuer in the
    chase is ahead of the rearmost escapee who has run this Round; and no pursuer has caught up
    with an escapee who has not run yet this Round."""
    chase = t.state.chase
    ran = [x for x in chase.side("escapee") if x.is_in and x.moved]
    if ran and chase.ended is None:
        for x in chase.side("pursuer"):
            if x.is_in:
                assert x.value <= min(e.value for e in ran)
    for x in chase.side("pursuer"):
        if x.caught is not None:
            assert chase.participant(x.caught) in ran


def play_chase(seed: int, escapees: int = 1, head_start: str | None = "escapees") -> Table[Any]:
    dice = RandomSource(seed=seed)
    t = Table.start(PROCEDURE, SETUP)
    params: dict[str, Any] = {
        "escapees": ["runner", "guard"][:escapees],
        "pursuers": ["chaser", "guard"][: 3 - escapees],
        "escape_condition": 9,
    }
    if head_start is not None:
        params["head_start"] = head_start
    t = t.act(Action(REFEREE, "chase.start", params), dice)
    for _ in range(40):
        chase = t.state.chase
        if chase is None or chase.ended is not None:
            break
        moves = [
            c
            for actor in PROCEDURE.actors(t.state)
            for c in t.legal_actions(actor)
            if c.kind in ("chase.move", "chase.end_round")
        ]
        assert moves, "a chase under way always has a next step"
        t = t.act(moves[0].sample(random.Random(seed)), dice)
        assert_pursuers_never_pass_the_rearmost_escapee(t)
        mover = t.state.chase
        if mover is not None and mover.current and mover.ended is None:
            who = mover.participant(mover.current)
            if who.caught is not None:
                t = t.act(Action(who.id, "chase.takedown"), dice)
                assert_pursuers_never_pass_the_rearmost_escapee(t)
    return t


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from([1, 2]),
    st.sampled_from([None, "escapees", "pursuers"]),
)
def test_a_random_chase_ends_and_replays_to_the_same_state(
    seed: int, escapees: int, head_start: str | None
) -> None:
    t = play_chase(seed, escapees, head_start)
    assert t.state.chase is not None and t.state.chase.ended is not None
    again = Table.replay(PROCEDURE, SETUP, Log.from_json(t.log.to_json()))
    assert again.state == t.state
    assert PROCEDURE.state_json(again.state) == PROCEDURE.state_json(t.state)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_undo_is_a_replay_without_the_last_events(seed: int) -> None:
    t = play_chase(seed)
    shorter = t.undo(3)
    first = t.actions[-3].events[0]
    without = t.log.without_last(len(t.log) - first + 1)
    assert shorter.state == Table.replay(PROCEDURE, SETUP, without).state
    assert len(shorter.log) == first - 1


def test_unknown_action_and_unknown_setup_are_refused() -> None:
    t = Table.start(PROCEDURE, SETUP)
    try:
        t.act(Action("runner", "fly"), None)
    except ActionError as error:
        assert "fly: no such action" in str(error)
    else:
        raise AssertionError("an unknown action must be refused")
    from referee.core import ScenarioError

    try:
        Table.start(PROCEDURE, {"charakters": {}})
    except ScenarioError as error:
        assert error.path == ("charakters",)
    else:
        raise AssertionError("an unknown setup field must be refused")


def test_legal_actions_offer_the_next_journey_step() -> None:
    runner = {**SETUP["characters"]["runner"], "skills": {"Navigation": 40, "Toughness": 40}}
    setup = {
        "characters": {**SETUP["characters"], "runner": runner},
        "journey": {"travellers": ["runner"], "stretches": [{"days": 1}]},
    }
    t = Table.start(PROCEDURE, setup)
    roles = [a for a in t.legal_actions(REFEREE) if a.kind.startswith("journey.")]
    assert [(a.kind, a.params["guide"].to_json()) for a in roles] == [
        ("journey.roles", {"one_of": [None, "runner"]})
    ]
    tests = [c for c in t.legal_actions("runner") if c.kind == "test"]
    assert [c.params["skill"].to_json() for c in tests] == [
        {"one_of": ["Navigation"]},
        {"one_of": ["Toughness"]},
    ]
    assert tests[0].odds[0].odds["success"] == "9/25"


def test_a_misspelt_parameter_is_refused_not_ignored() -> None:
    t = Table.start(PROCEDURE, SETUP)
    try:
        t.act(Action("runner", "test", {"skill": "Athletics", "asist": True}), RandomSource(1))
    except ActionError as error:
        assert str(error).startswith("test.asist: not a parameter of this action")
    else:
        raise AssertionError("a misspelt parameter must be refused")


def test_fortune_points_must_be_a_whole_number() -> None:
    from referee.core import ScenarioError

    for bad in (True, -1, "2"):
        try:
            Table.start(PROCEDURE, {**SETUP, "fortune_points": bad})
        except ScenarioError as error:
            assert error.path == ("fortune_points",)
        else:
            raise AssertionError(f"fortune_points {bad!r} must be refused")


def test_a_fold_skips_a_malformed_entry_and_still_folds_the_others() -> None:
    """The fold of an event's ``characters`` part reads each character's changes on its own."""
    s = ZweihanderState(characters=(Character("anna"), Character("bert")))
    after = apply_character_changes(s, {"anna": 3, "bert": {"peril": 2, "disorders": ["X"]}})
    assert after.character("bert") == Character("bert", peril=2, disorders=("X",))
    assert after.character("anna") == Character("anna")


def test_a_fold_refuses_a_field_no_character_has() -> None:
    """Issue 27: a field of a character's changes that no character has is refused, named,
    rather than dropped on replay."""
    s = ZweihanderState(characters=(Character("anna"),))
    with pytest.raises(RuleError, match="'sanity'"):
        apply_character_changes(s, {"anna": {"peril": 1, "sanity": 3}})


def test_every_action_kind_has_its_handler_and_nothing_else() -> None:
    """Issue 27: one handler per kind of the catalogue, decided through the kernel."""
    assert PROCEDURE.handlers is not None
    PROCEDURE.handlers.check(CATALOGUE)
    assert "decide" not in type(PROCEDURE).__dict__
