"""Reading an action's parameters: each refusal names the action, the parameter and the value.

>>> integer({"gain": 2}, "gain", "chase.action", low=1, high=3)
2
>>> integer({"gain": 5}, "gain", "chase.action", low=1, high=3)
Traceback (most recent call last):
...
referee.core.errors.RuleError: chase.action: parameter 'gain' must be 1 to 3, not 5
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import RuleError

__all__ = ["boolean", "integer", "mapping", "strings", "text"]

_MISSING: Any = object()


def integer(
    params: Mapping[str, Any],
    key: str,
    action: str,
    default: int | None = None,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """An integer parameter, within ``low``…``high`` when given."""
    value = params.get(key, default)
    if value is None:
        raise RuleError(action, f"parameter {key!r} is required")
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError(action, f"parameter {key!r} must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RuleError(action, f"parameter {key!r} must be {low} to {high}, not {value}")
    return value


def text(params: Mapping[str, Any], key: str, action: str, default: str | None = None) -> str:
    """A text parameter."""
    value = params.get(key, default)
    if value is None:
        raise RuleError(action, f"parameter {key!r} is required")
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise RuleError(action, f"parameter {key!r} must be text, not {value!r}")
    return str(value)


def boolean(params: Mapping[str, Any], key: str, action: str, default: bool = False) -> bool:
    """A yes/no parameter."""
    value = params.get(key, default)
    if not isinstance(value, bool):
        raise RuleError(action, f"parameter {key!r} must be true or false, not {value!r}")
    return value


def strings(params: Mapping[str, Any], key: str, action: str) -> tuple[str, ...]:
    """A list of texts (a single text is a list of one)."""
    value = params.get(key, [])
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError(action, f"parameter {key!r} must be a list of names, not {value!r}")
    return tuple(value)


def mapping(params: Mapping[str, Any], key: str, action: str) -> Mapping[str, Any]:
    """A mapping parameter (empty if absent)."""
    value = params.get(key, {})
    if not isinstance(value, Mapping):
        raise RuleError(action, f"parameter {key!r} must be a mapping, not {value!r}")
    return value
