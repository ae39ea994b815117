"""A choice's odds previews worked out only when read (issue 31): every interface that shows a
choice reads them and finds exactly what it would have found; a simulated player, who never
reads them, never pays for them. And the parameters of an action remembered without writing
them as JSON when they have the usual shape, never confusing ``True`` with ``1``."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from referee.core import ActionError, Choice, OneOf
from referee.core import actions as actions_module
from referee.core.actions import Later
from referee.core.prompts import open_choices

from .toy_procedure import RALLY


def _counted(previews: tuple[Any, ...], counter: list[int]) -> Later:
    def work() -> tuple[Any, ...]:
        counter.append(1)
        return previews

    return Later(work)


def test_odds_given_later_are_worked_out_once_when_first_read() -> None:
    worked: list[int] = []
    choice = Choice("ann", "attack", {"target": OneOf(("bob",))}, odds=_counted(("½",), worked))
    assert worked == []  # made, and not yet read
    assert choice.odds == ("½",) and type(choice.odds) is tuple
    assert choice.odds == ("½",)
    assert worked == [1]
    assert choice == Choice("ann", "attack", {"target": OneOf(("bob",))}, odds=("½",))


def test_a_prompts_mark_keeps_odds_for_later_and_a_copy_or_a_pickle_has_them() -> None:
    worked: list[int] = []
    choice = Choice("ann", "defend", odds=_counted(("a",), worked))
    marked = choice.answering()
    assert worked == [] and marked.prompt and not choice.prompt
    assert marked.odds == ("a",) and worked == [1]
    later = Choice("ann", "take", odds=Later(lambda: ("b",)))  # a closure: no pickle holds it
    assert pickle.loads(pickle.dumps(later)) == Choice("ann", "take", odds=("b",))
    assert copy.copy(Choice("ann", "x", odds=Later(lambda: ("c",)))).odds == ("c",)
    assert dataclasses.replace(choice, label="x").odds == ("a",)
    with pytest.raises(AttributeError):
        choice.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_the_choices_answering_a_prompt_leave_their_odds_for_later() -> None:
    """The kernel marks the choices that answer a prompt (:func:`open_choices`) without reading
    their odds: a defence's odds are the dearest a game previews."""
    worked: list[int] = []

    class Asking:
        def prompts(self, state: Any) -> tuple[Any, ...]:
            from referee.core.prompts import Prompt

            return (Prompt("ann", ("defend",), "Defence", "bob attacks", blocking=True),)

        def legal_actions(self, state: Any, actor: str) -> tuple[Choice, ...]:
            return (Choice(actor, "defend", odds=_counted(("p",), worked)),)

    (choice,) = open_choices(Asking(), None, "ann")  # type: ignore[arg-type]
    assert choice.prompt and worked == []
    assert choice.odds == ("p",) and worked == [1]


def test_parameters_of_the_usual_shape_are_remembered_without_writing_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written: list[Any] = []
    encoder = actions_module._ENCODER

    class Counting:
        def encode(self, value: Any) -> str:
            written.append(value)
            return encoder.encode(value)

    monkeypatch.setattr(actions_module, "_ENCODER", Counting())
    actions_module._NORMALISED.clear()
    first = RALLY.normalise({"dice": 3, "obstacle": 2})
    assert len(written) == 1  # written once, to be parsed
    again = RALLY.normalise({"dice": 3, "obstacle": 2})
    assert len(written) == 1 and again[0] is first[0] and again[1] == {"dice": 3, "obstacle": 2}
    RALLY.normalise({"dice": 1, "obstacle": 2})
    with pytest.raises(ActionError):  # True is not 1, though they are equal and hash alike
        RALLY.normalise({"dice": True, "obstacle": 2})
    with pytest.raises(ActionError):  # a float is written as JSON, and refused as it was
        RALLY.normalise({"dice": 3.5})
    assert len(written) == 4
    actions_module._NORMALISED.clear()
