"""A refused parameter in a person's words: what is wrong with which field, named as the table
page labels it (its name with spaces for underscores), never in the parameter model's words.

Pydantic's messages ("Input should be a valid integer, unable to parse string as an integer")
are written for a programmer. :func:`in_words` says the same thing for the person at the table,
from the kind of problem (pydantic's error type) and the bounds it broke; the model's own
message stays in the error body's ``reason``.

>>> in_words("int_parsing", {}, ("distance",), "Input should be a valid integer")
'‘distance’ must be a whole number.'
>>> in_words("less_than_equal", {"le": 3}, ("plan", 0, "move"), "Input should be <= 3")
'‘move’ (plan, step 1) must be 3 or less.'
>>> in_words("value_error", {}, ("skill",), "no such skill: 'lute'")
"‘skill’: no such skill: 'lute'."
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = ["PLAIN", "field_label", "in_words"]

PLAIN: dict[str, str] = {
    "missing": "{field} is needed",
    "int_parsing": "{field} must be a whole number",
    "int_type": "{field} must be a whole number",
    "int_from_float": "{field} must be a whole number",
    "float_parsing": "{field} must be a number",
    "float_type": "{field} must be a number",
    "decimal_parsing": "{field} must be a number",
    "bool_parsing": "{field} must be yes or no",
    "bool_type": "{field} must be yes or no",
    "string_type": "{field} must be written in words",
    "string_too_short": "{field} must be at least {min_length} characters long",
    "string_too_long": "{field} must be at most {max_length} characters long",
    "string_pattern_mismatch": "{field} is not written the way it must be",
    "greater_than_equal": "{field} must be {ge} or more",
    "greater_than": "{field} must be more than {gt}",
    "less_than_equal": "{field} must be {le} or less",
    "less_than": "{field} must be less than {lt}",
    "multiple_of": "{field} must be a multiple of {multiple_of}",
    "literal_error": "{field} must be {expected}",
    "enum": "{field} must be {expected}",
    "too_short": "{field} needs at least {min_length}",
    "too_long": "{field} takes at most {max_length}",
    "list_type": "{field} must be a list",
    "tuple_type": "{field} must be a list",
    "set_type": "{field} must be a list",
    "dict_type": "{field} must be a set of named fields",
    "model_type": "{field} must be a set of named fields",
    "model_attributes_type": "{field} must be a set of named fields",
    "union_tag_invalid": "{field} must be one of {expected_tags}",
    "union_tag_not_found": "{field} must say which kind it is",
    "none_required": "{field} must be left empty",
    "json_invalid": "{field} is not readable",
}
"""Pydantic's error types, each as a sentence (without its full stop) about ``{field}``."""

_OWN_WORDS = ("value_error", "assertion_error", "extra_forbidden")
"""Problems whose message is a person's already (a game's validator; a misspelt name with its
likely spelling): kept, the field named."""


def _is_shape(part: str | int) -> bool:
    """A part of pydantic's path that names a shape of a union, not a field the page shows
    (``"function-after[...]"``, ``"tagged-union[...]"``, ``"str"``)."""
    return isinstance(part, str) and ("[" in part or part in ("str", "int", "float", "bool"))


def field_label(path: Sequence[str | int]) -> str:
    """The field at ``path`` as the page names it: ``‘move’``, ``‘move’ (plan, step 1)``,
    ``item 2 of ‘tags’``; ``""`` for an empty path.

    >>> field_label(("defence", "tags", 0))
    'item 1 of ‘tags’ (defence)'
    """
    parts = [p for p in path if not _is_shape(p)]
    names = [i for i, p in enumerate(parts) if isinstance(p, str)]
    if not names:
        return ""
    last = names[-1]
    label = f"‘{str(parts[last]).replace('_', ' ')}’"
    after = [p for p in parts[last + 1 :] if isinstance(p, int)]
    if after:
        label = f"item {after[0] + 1} of {label}"
    context: list[str] = []
    for part in parts[:last]:
        if isinstance(part, int):
            context.append(f"step {part + 1}")
        else:
            context.append(part.replace("_", " "))
    return f"{label} ({', '.join(context)})" if context else label


_QUOTED = re.compile(r"'[^'\\]*'")


def _in_order(expected: str) -> str:
    """Pydantic's list of the values a field may take (``'low' or 'high'``), its quoted words
    in alphabetical order: the same sentence whichever order the model's values came to it
    in (a ``Literal`` equal to one built before, in another order, is that one to typing's
    cache).

    >>> _in_order("'low', 'high' or 'guard'")
    "'guard', 'high' or 'low'"
    """
    words = _QUOTED.findall(expected)
    if len(words) < 2 or _QUOTED.sub("", expected).replace(", ", "").replace(" or ", ""):
        return expected
    ordered = sorted(words)
    return f"{', '.join(ordered[:-1])} or {ordered[-1]}"


def in_words(
    problem: str,
    limits: Mapping[str, str | int | float],
    path: Sequence[str | int],
    reason: str,
) -> str:
    """``reason`` (the model's own message about the field at ``path``) in a person's words,
    by the kind of ``problem`` and its ``limits``; the reason itself, the field named, where
    the problem is the game's own words or a kind not known here."""
    field = field_label(path) or "this action"
    if "expected" in limits:
        limits = {**limits, "expected": _in_order(str(limits["expected"]))}
    template = PLAIN.get(problem)
    if template is not None and problem not in _OWN_WORDS:
        try:
            said = template.format(field=field, **limits)
        except (KeyError, IndexError, ValueError):
            said = None
        if said is not None:
            return f"{said}."
    own = reason.rstrip(".")
    return f"{field}: {own}." if field_label(path) else f"{own[:1].upper()}{own[1:]}."
