"""JSON values (``referee.core.values``): the one JSON shape every event payload and every state
export takes — an enum by its value, a value that says its own JSON by that, a set as a list
in a fixed order."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core.values import SharedJson, to_json

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


def test_a_kind_of_fraction_is_written_as_a_fraction_is() -> None:
    """Exact odds are written "n/d" (DESIGN.md: chances as exact fractions), a subclass of
    ``Fraction`` too, though only the exact type takes the plain kinds' fast path."""

    class Chance(Fraction):
        """A game's own kind of odds: a fraction, nothing added."""

    assert to_json(Chance(5, 36)) == to_json(Fraction(5, 36)) == "5/36"
    assert to_json({"hit": Chance(1, 2)}) == {"hit": "1/2"}


def test_a_kind_of_tuple_is_written_as_a_list_of_its_members() -> None:
    """A named tuple (a branch, a pair) is a sequence: a list of its members' JSON."""

    class Pair(NamedTuple):
        who: str
        odds: Fraction

    assert to_json(Pair("ann", Fraction(1, 3))) == ["ann", "1/3"]


def test_a_set_is_written_as_a_list_in_the_order_of_its_members_reprs() -> None:
    """Sets have no order; their JSON is sorted by each member's ``repr``, so one state gives
    one export (``10`` before ``2``: ``'10' < '2'``), and a set of mixed kinds is written too."""
    assert to_json(frozenset({2, 10, 3})) == [10, 2, 3]
    assert to_json({"b", "a"}) == ["a", "b"]
    assert to_json(frozenset({1, "one"})) == ["one", 1]  # repr: "'one'" < "1"
    assert to_json(frozenset({Fraction(1, 3), Fraction(1, 2)})) == ["1/2", "1/3"]


# -- plain kinds told by their exact type (issue 29) ---------------------------------------------


def _reference_to_json(value: Any) -> Any:
    """``to_json`` as it was before plain kinds were told by their exact type: every value
    through the checks in order, against the abstract base classes."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return _reference_to_json(value.value)
    method = getattr(value, "to_json", None)
    if callable(method):
        return method()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _reference_to_json(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, Mapping):
        return {str(_reference_to_json(k)): _reference_to_json(v) for k, v in value.items()}
    if isinstance(value, Set):
        return sorted((_reference_to_json(v) for v in value), key=repr)
    if isinstance(value, Sequence):
        return [_reference_to_json(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON: {value!r}")


def _typed(value: Any) -> Any:
    """``value`` with the type of every part beside it: ``True == 1`` and ``1 == 1.0`` in
    Python, not in JSON."""
    if isinstance(value, dict):
        return ("dict", [(type(k).__name__, k, _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    return (type(value).__name__, value)


class _Rank(enum.IntEnum):
    LOW = 1
    HIGH = 2


class _Label(str):
    """A ``str`` subclass: the general way, which gives it back as it is."""


@dataclass(frozen=True)
class _Mark:
    label: str
    odds: Fraction
    ranks: tuple[int, ...]


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.fractions()
    | st.sampled_from([_Shade.GREY, _Shade.WHITE, _Rank.LOW, _Rank.HIGH])
    | st.builds(_Label, st.text(max_size=3))
    | st.builds(_Mark, st.text(max_size=3), st.fractions(), st.tuples(st.integers()))
    | st.builds(_Card, st.text(max_size=3))
)
_keys = st.text(max_size=4) | st.integers() | st.sampled_from([_Shade.GREY, _Rank.HIGH])
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(_keys, inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3).map(MappingProxyType)
        | st.frozensets(st.integers() | st.text(max_size=3), max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3).map(SharedJson)
    ),
    max_leaves=20,
)


@given(_values)
def test_plain_kinds_told_by_their_exact_type_give_the_json_they_gave_before(value: Any) -> None:
    """DESIGN.md, one JSON shape: telling ``str``, ``int``, ``dict``, ``list``... by their exact
    type before any check against an abstract base class (issue 29: a fifth of the time of a
    state export went to those checks) gives the very JSON the checks in order gave, type for
    type, for every kind of value, nested any way."""
    assert _typed(to_json(value)) == _typed(_reference_to_json(value))


def test_shared_json_is_given_back_as_it_is_not_walked_again() -> None:
    """A view's part built once per state for every seat (issue 29) is handed on as it is:
    the same object in every seat's export, not a copy made by walking it again."""
    combats = SharedJson({"c1": {"round": 2, "sides": {"ann": 1, "bob": 2}}})
    exported = to_json({"combats": combats, "round": (1, 2)})
    assert exported["combats"] is combats
    assert exported == {
        "combats": {"c1": {"round": 2, "sides": {"ann": 1, "bob": 2}}},
        "round": [1, 2],
    }


def test_plain_members_are_kept_without_a_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state export is mostly strings and numbers: a container keeps those members as they
    are, and converts only what is not plain (issue 29: one call a member was most of it)."""
    import referee.core.values as values

    calls: list[type] = []
    convert = values.to_json

    def counted(value: Any) -> Any:
        calls.append(type(value))
        return convert(value)

    monkeypatch.setattr(values, "to_json", counted)
    state = {"round": 3, "names": ["a", "b", None], "odds": [0.5, True, Fraction(1, 3)]}
    assert convert(state) == {
        "round": 3,
        "names": ["a", "b", None],
        "odds": [0.5, True, "1/3"],
    }
    assert calls == [list, list, Fraction]
