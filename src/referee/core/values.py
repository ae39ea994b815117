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
from collections.abc import Mapping, Sequence, Set
from fractions import Fraction
from typing import Any, TypeAlias

__all__ = ["Json", "JsonObject", "to_json"]

Json: TypeAlias = "bool | int | float | str | Sequence[Json] | Mapping[str, Json] | None"
"""A JSON value. Sequences and mappings are read-only views so that tuples and dicts both fit."""

JsonObject: TypeAlias = "Mapping[str, Json]"
"""A JSON object (an event payload, a state export)."""


def to_json(value: Any) -> Any:
    """Convert a value of the kernel's kinds to plain JSON data (dicts, lists, str, int...).

    Dataclasses become objects of their fields, enums their ``value``, ``Fraction`` the string
    ``"n/d"``, tuples, lists, sets and frozensets lists (sets sorted), mappings objects with
    string keys. Objects with a ``to_json()`` method are asked for it. Anything else is refused.
    """
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
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(to_json(k)): to_json(v) for k, v in value.items()}
    if isinstance(value, Set):
        return sorted((to_json(v) for v in value), key=repr)
    if isinstance(value, Sequence):
        return [to_json(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON: {value!r}")
