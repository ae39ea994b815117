"""A procedure's answers about one state, each asked once (``referee.core.remembered``; issue
29): :class:`Remembered` answers about its own state from memory and passes every other
question — another state, anything that depends on the viewer — to the game as asked;
:func:`by_identity` remembers a function of an immutable value by the value's identity."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from referee.core import Action, ActionSpec, Catalogue, Choice, Event, NoParams, Procedure, Prompt
from referee.core.decide import Builder, Handlers
from referee.core.events import REFEREE, Viewer
from referee.core.prompts import Result, Waiting
from referee.core.remembered import Remembered, by_identity
from referee.core.values import SharedJson
from referee.dice import ScriptedSource


class _Echo(Procedure[int]):
    """Each answer names the state (and actor, viewer) it was asked about; every call counted."""

    catalogue = Catalogue([ActionSpec("step", NoParams, section="Steps", record="everyone")])
    has_referee = True

    def __init__(self, see_alike: bool = False, hidden: bool = False) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.players_see_alike = see_alike
        self.hidden = hidden

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        self.calls.append(("initial_state", dict(setup)))
        return int(setup.get("start", 0))

    def initial_events(self, state: int) -> Sequence[Event]:
        return (Event("began", {"at": state}),)

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        self.calls.append(("legal_actions", state, actor))
        return (Choice(actor, "step"),) if state < 9 else ()

    def decide(self, state: int, action: Action, dice: Any) -> Sequence[Event]:
        return (Event("stepped", {"from": state, "by": action.actor, "roll": dice.roll(6)}),)

    def evolve(self, state: int, event: Event) -> int:
        return state + 1 if event.kind == "stepped" else state

    def actors(self, state: int) -> Sequence[str]:
        self.calls.append(("actors", state))
        return (f"mover{state}",)

    def characters(self, state: int) -> Sequence[str]:
        self.calls.append(("characters", state))
        return (f"mover{state}", "other")

    def prompts(self, state: int) -> Sequence[Prompt]:
        self.calls.append(("prompts", state))
        return (Prompt(f"mover{state}", ("step",), "Steps", f"step from {state}"),)

    def waiting(self, state: int, actor: str) -> Waiting | None:
        self.calls.append(("waiting", state, actor))
        return Waiting(actor, f"waits at {state}")

    def result(self, state: int) -> Result:
        self.calls.append(("result", state))
        return Result("the walk", over=state >= 9, summary=f"at {state}")

    def conflict(self, state: int) -> Result | None:
        self.calls.append(("conflict", state))
        return Result("the stretch", summary=f"at {state}")

    def describe(self, event: Event, viewer: Viewer) -> str:
        return f"{event.kind} for {viewer.id}"

    def previews(self, state: int, viewer: Viewer) -> Sequence[Any]:
        return (f"preview {state} for {viewer.id}",)

    def odds_of(self, state: int, action: Action, viewer: Viewer) -> Sequence[Any]:
        return (f"odds {state} {action.kind} for {viewer.id}",)

    def state_json(self, state: int) -> dict[str, Any]:
        return {"state": state}

    def visible_state(self, state: int, viewer: Viewer) -> dict[str, Any] | None:
        self.calls.append(("visible_state", state, viewer.id))
        if self.hidden:
            return None
        return {"state": state, "for": "referee" if viewer.is_referee else "players"}


def _step(b: Builder[int], action: Action, dice: Any) -> None:
    b.emit("stepped", {"by": action.actor})


ANN = Viewer("ann", frozenset({"ann"}))
BOB = Viewer("bob", frozenset({"bob"}))
REF = Viewer(REFEREE, frozenset())


def test_its_own_state_is_asked_each_question_once() -> None:
    game = _Echo()
    remembered = Remembered(game, 3)
    for _ in range(3):
        assert remembered.actors(3) == ("mover3",)
        assert remembered.characters(3) == ("mover3", "other")
        assert remembered.prompts(3)[0].reason == "step from 3"
        assert remembered.legal_actions(3, "ann") == (Choice("ann", "step"),)
        assert remembered.waiting(3, "ann") == Waiting("ann", "waits at 3")
        assert remembered.waiting(3, "bob") == Waiting("bob", "waits at 3")
        assert remembered.result(3).summary == "at 3"
        assert remembered.conflict(3) == Result("the stretch", summary="at 3")
    assert sorted(game.calls) == sorted(
        [
            ("actors", 3),
            ("characters", 3),
            ("prompts", 3),
            ("legal_actions", 3, "ann"),
            ("waiting", 3, "ann"),
            ("waiting", 3, "bob"),
            ("result", 3),
            ("conflict", 3),
        ]
    )


def test_a_game_that_answers_none_is_remembered_as_none() -> None:
    """No wait, no conflict, no choices: nothing is an answer too, asked once."""

    class _Quiet(_Echo):
        def waiting(self, state: int, actor: str) -> Waiting | None:
            self.calls.append(("waiting", state, actor))
            return None

        def conflict(self, state: int) -> Result | None:
            self.calls.append(("conflict", state))
            return None

    game = _Quiet()
    remembered = Remembered(game, 9)
    for _ in range(2):
        assert remembered.waiting(9, "ann") is None
        assert remembered.conflict(9) is None
        assert remembered.legal_actions(9, "ann") == ()
    assert game.calls == [("waiting", 9, "ann"), ("conflict", 9), ("legal_actions", 9, "ann")]


def test_another_state_is_passed_to_the_game_as_asked_and_not_remembered() -> None:
    """Its answers belong to one state (the same object): any other state is the game's to
    answer, every time, with the state and actor asked about."""
    game = _Echo()
    remembered = Remembered(game, 3)
    for _ in range(2):
        assert remembered.actors(5) == ("mover5",)
        assert remembered.characters(5) == ("mover5", "other")
        assert remembered.prompts(5)[0].reason == "step from 5"
        assert remembered.legal_actions(5, "bob") == (Choice("bob", "step"),)
        assert remembered.waiting(5, "bob") == Waiting("bob", "waits at 5")
        assert remembered.result(5).summary == "at 5"
        assert remembered.conflict(5) == Result("the stretch", summary="at 5")
    assert len(game.calls) == 14
    assert game.calls[:7] == [
        ("actors", 5),
        ("characters", 5),
        ("prompts", 5),
        ("legal_actions", 5, "bob"),
        ("waiting", 5, "bob"),
        ("result", 5),
        ("conflict", 5),
    ]
    assert remembered.actors(3) == ("mover3",)  # its own state still asked, and only now


def test_what_is_not_a_function_of_the_state_alone_is_passed_through() -> None:
    """Starting, deciding, folding and what a viewer is shown are the game's, as asked."""
    game = _Echo()
    remembered = Remembered(game, 3)
    assert remembered.catalogue is game.catalogue
    assert remembered.has_referee and remembered.handlers is game.handlers
    handled = _Echo()
    handled.handlers = Handlers({"step": _step})
    assert Remembered(handled, 3).handlers is handled.handlers
    assert remembered.initial_state({"start": 4}) == 4
    assert game.calls == [("initial_state", {"start": 4})]
    assert remembered.initial_events(4) == (Event("began", {"at": 4}),)
    step = Action("ann", "step")
    (decided,) = remembered.decide(3, step, ScriptedSource([5]))
    assert decided.payload == {"from": 3, "by": "ann", "roll": 5}
    assert remembered.evolve(3, decided) == 4
    after, events = remembered.apply(3, step, ScriptedSource([2]))
    assert (after, [e.payload for e in events]) == (4, [{"from": 3, "by": "ann", "roll": 2}])
    built = remembered.build(7, step, ScriptedSource([6]))
    assert (built.state, built.events[0].payload) == (8, {"from": 7, "by": "ann", "roll": 6})
    assert remembered.describe(decided, ANN) == "stepped for ann"
    assert remembered.previews(3, BOB) == ("preview 3 for bob",)
    assert remembered.odds_of(3, step, BOB) == ("odds 3 step for bob",)
    assert remembered.state_json(3) == {"state": 3}


def test_a_state_players_see_alike_is_asked_once_for_players_and_once_for_the_referee() -> None:
    game = _Echo(see_alike=True)
    remembered = Remembered(game, 3)
    shown = [remembered.visible_state(3, v) for v in (ANN, BOB, REF, ANN, REF)]
    assert game.calls == [("visible_state", 3, "ann"), ("visible_state", 3, "referee")]
    assert isinstance(shown[0], SharedJson)
    assert shown[0] == {"state": 3, "for": "players"}
    assert shown[2] == {"state": 3, "for": "referee"}
    assert shown[0] is shown[1] is shown[3] and shown[2] is shown[4]


def test_a_state_shown_to_none_is_remembered_as_none() -> None:
    game = _Echo(see_alike=True, hidden=True)
    remembered = Remembered(game, 3)
    assert remembered.visible_state(3, ANN) is None
    assert remembered.visible_state(3, BOB) is None
    assert game.calls == [("visible_state", 3, "ann")]


def test_the_state_is_asked_of_each_viewer_where_players_do_not_see_alike() -> None:
    """Where each seat may see its own (or for another state), every viewer is asked for."""
    game = _Echo(see_alike=False)
    remembered = Remembered(game, 3)
    assert remembered.visible_state(3, ANN) == {"state": 3, "for": "players"}
    assert remembered.visible_state(3, BOB) == {"state": 3, "for": "players"}
    assert game.calls == [("visible_state", 3, "ann"), ("visible_state", 3, "bob")]
    alike = _Echo(see_alike=True)
    other = Remembered(alike, 3)
    assert other.visible_state(5, ANN) == {"state": 5, "for": "players"}
    assert other.visible_state(5, BOB) == {"state": 5, "for": "players"}
    assert alike.calls == [("visible_state", 5, "ann"), ("visible_state", 5, "bob")]


# -- by_identity ---------------------------------------------------------------------------------


def _counted(size: int) -> tuple[list[Any], Any]:
    calls: list[Any] = []

    def total(values: tuple[int, ...]) -> int:
        """The sum."""
        calls.append(values)
        return sum(values)

    return calls, by_identity(size)(total)


def test_a_value_asked_again_is_answered_from_memory_by_its_identity() -> None:
    calls, total = _counted(2)
    state = (1, 2, 3)
    assert (total(state), total(state)) == (6, 6)
    assert calls == [state]
    equal = tuple([1, 2, 3])
    assert equal == state and equal is not state
    assert total(equal) == 6
    assert calls == [state, equal]  # equal but another value: asked afresh
    assert (total.__name__, total.__doc__) == ("total", "The sum.")
    assert total.__wrapped__(state) == 6  # the function itself, asked again
    assert calls == [state, equal, state]


def test_the_last_values_asked_about_are_remembered_and_the_oldest_let_go() -> None:
    calls, total = _counted(2)
    a, b, c = (1,), (2,), (3,)
    total(a)
    total(b)
    total(a)  # a is now the most recent: b is the oldest
    total(c)  # past two values: b is let go
    assert calls == [a, b, c]
    assert (total(a), total(c)) == (1, 3)
    assert calls == [a, b, c]
    assert total(b) == 2
    assert calls == [a, b, c, b]


def test_a_memory_of_one_value_remembers_the_last() -> None:
    calls, total = _counted(1)
    a, b = (4,), (5,)
    assert (total(a), total(a), total(b), total(b), total(a)) == (4, 4, 5, 5, 4)
    assert calls == [a, b, a]


def test_a_memory_emptied_asks_every_value_afresh() -> None:
    calls, total = _counted(2)
    a = (7,)
    assert (total(a), total(a)) == (7, 7)
    total.cache_clear()  # as a functools cache is emptied (the mutation harness empties both)
    assert total(a) == 7
    assert calls == [a, a]


def test_a_memory_of_no_value_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one value"):
        by_identity(0)
