"""JSON values: the one shape every event payload and every state export takes.

>>> from dataclasses import dataclass
>>> from fractions import Fraction
>>> @dataclass(frozen=True)
... class Sheet:
...     name: str
...     wounds: int
...     odds: Fraction
>>> to_json(Sheet("scarface", 2, Fraction(1, 3)))
{'name': 'scarface', 'wounds': 2, 'odds': '1/3'}
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Mapping, Sequence, Set
from fractions import Fraction
from typing import Any, TypeAlias, TypeVar

__all__ = ["Json", "JsonObject", "SharedJson", "evolved", "to_json"]

Json: TypeAlias = "bool | int | float | str | Sequence[Json] | Mapping[str, Json] | None"
"""A JSON value. Sequences and mappings are read-only views so that tuples and dicts both fit."""

JsonObject: TypeAlias = "Mapping[str, Json]"
"""A JSON object (an event payload, a state export)."""

_V = TypeVar("_V")


class SharedJson(dict[str, Any]):
    """A JSON object already plain (dicts, lists, str, int, float, bool, None all through),
    built once and shared by every observation that holds it: :func:`to_json` gives it back as
    it is, without walking it again. What a game's view builds once per state for every seat
    (issue 29); do not change it once built.

    >>> shared = SharedJson({"round": 2, "sides": ["a", "b"]})
    >>> to_json({"combat": shared})["combat"] is shared
    True
    """

    def to_json(self) -> SharedJson:
        """Itself: it is plain JSON already."""
        return self


def to_json(value: Any) -> Any:
    """Convert a value of the kernel's kinds to plain JSON data (dicts, lists, str, int...).

    Dataclasses become objects of their fields, enums their ``value``, ``Fraction`` the string
    ``"n/d"``, tuples, lists, sets and frozensets lists (sets sorted), mappings objects with
    string keys. Objects with a ``to_json()`` method are asked for it. Anything else is refused.

    The plain kinds (``str``, ``int``, ``float``, ``bool``, ``None``, ``dict``, ``list``,
    ``tuple``, ``Fraction``) are told by their exact type, before any check against an abstract
    base class: they are most of what a state export holds (issue 29).

    >>> to_json({"odds": (Fraction(1, 2), None), 3: [True, 1.5]})
    {'odds': ['1/2', None], '3': [True, 1.5]}
    """
    convert = _PLAIN.get(type(value))
    if convert is not None:
        return convert(value)
    return _any_to_json(value)


def _same(value: Any) -> Any:
    return value


_SCALARS = frozenset((str, int, float, bool, type(None)))
"""The kinds written as they are: a container's member of one of them is kept without a call."""


def _object(value: dict[Any, Any]) -> dict[str, Any]:
    return {
        k if type(k) is str else str(to_json(k)): v if type(v) in _SCALARS else to_json(v)
        for k, v in value.items()
    }


def _array(value: list[Any] | tuple[Any, ...]) -> list[Any]:
    return [v if type(v) in _SCALARS else to_json(v) for v in value]


_PLAIN: dict[type, Callable[[Any], Any]] = {
    str: _same,
    int: _same,
    float: _same,
    bool: _same,
    type(None): _same,
    dict: _object,
    list: _array,
    tuple: _array,
    Fraction: str,
    SharedJson: _same,
}
"""The plain kinds by exact type, and how each is written (a subclass takes the general way)."""


def _any_to_json(value: Any) -> Any:
    """:func:`to_json` of a value not of a plain kind: the kinds checked in order."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    method = getattr(value, "to_json", None)
    if callable(method):
        return method()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_json(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Mapping):
        return {str(to_json(k)): to_json(v) for k, v in value.items()}
    if isinstance(value, Set):
        return sorted((to_json(v) for v in value), key=repr)
    if isinstance(value, Sequence):
        return [to_json(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON: {value!r}")


@functools.lru_cache(maxsize=1024)
def _field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, in order (read once per class)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def evolved(value: _V, /, **changes: Any) -> _V:
    """``dataclasses.replace(value, **changes)`` without its cost, for a game's frozen state:
    the fields copied, not passed through ``__init__`` again (a fold copies a state at every
    event). Where ``__init__`` does more than set the fields (a ``__post_init__``, a field
    outside it, slots), ``replace`` itself. Only the fields are copied: whatever a value
    worked out and kept beside them is worked out again for the copy.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Track:
    ...     boxes: int
    ...     marked: int = 0
    >>> evolved(Track(4), marked=2)
    Track(boxes=4, marked=2)
    >>> evolved(Track(4), mark=2)
    Traceback (most recent call last):
    TypeError: Track has no field ['mark']
    """
    kind: type = type(value)
    names = _plain_fields(kind)
    if names is None:
        return dataclasses.replace(value, **changes)  # type: ignore[type-var]
    if not changes.keys() <= names:
        raise TypeError(f"{kind.__name__} has no field {sorted(changes.keys() - names)}")
    own = value.__dict__
    made: _V = object.__new__(kind)
    if len(own) == len(names):
        made.__dict__.update(own)
    else:  # something worked out and kept beside the fields: left behind
        made.__dict__.update({name: own[name] for name in names})
    made.__dict__.update(changes)
    return made


@functools.lru_cache(maxsize=1024)
def _plain_fields(cls: type) -> frozenset[str] | None:
    """The names of a dataclass's fields, where its ``__init__`` only sets them on the
    instance's ``__dict__`` (read once per class); else ``None``."""
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        return None
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        return None
    return frozenset(f.name for f in fields)
