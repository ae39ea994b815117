"""JSON values (``referee.core.values``): the one JSON shape every event payload and every state
export takes — an enum by its value, a value that says its own JSON by that, a set as a list
in a fixed order."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core.values import to_json

from .helpers import _Shade


@dataclass(frozen=True)
class _Card:
    """A value that says its own JSON, as a roll card or a check result does."""

    shown: str

    def to_json(self) -> dict[str, Any]:
        return {"card": self.shown}


def test_an_enum_is_written_as_its_value() -> None:
    """An event payload names a shade, a stance or a rating by its value (DESIGN.md: one JSON
    shape for every event payload and state export)."""
    assert to_json(_Shade.GREY) == "grey"
    assert to_json({"shade": _Shade.WHITE}) == {"shade": "white"}


def test_a_value_that_says_its_own_json_is_asked_for_it() -> None:
    """A dataclass with a ``to_json`` method is written as that method says, not field by
    field."""
    assert to_json(_Card("6, 6")) == {"card": "6, 6"}
    assert to_json([_Card("1")]) == [{"card": "1"}]


def test_a_set_is_written_as_a_list_in_the_order_of_its_members_reprs() -> None:
    """Sets have no order; their JSON is sorted by each member's ``repr``, so one state gives
    one export (``10`` before ``2``: ``'10' < '2'``), and a set of mixed kinds is written too."""
    assert to_json(frozenset({2, 10, 3})) == [10, 2, 3]
    assert to_json({"b", "a"}) == ["a", "b"]
    assert to_json(frozenset({1, "one"})) == ["one", 1]  # repr: "'one'" < "1"
    assert to_json(frozenset({Fraction(1, 3), Fraction(1, 2)})) == ["1/2", "1/3"]
