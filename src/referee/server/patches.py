"""JSON Patch (RFC 6902) between two of a seat's observations: what a live socket is pushed.

:func:`diff` writes the patch that turns one JSON document into another with the three
operations ``add``, ``remove`` and ``replace`` only, their paths JSON Pointers (RFC 6901);
:func:`apply` applies such a patch. Both are exact: ``apply(old, diff(old, new)) == new`` with
every value of the same JSON type (``true`` is not ``1``), which the tests check over random
play of every game.

Why not a library: the well-known one on PyPI (``jsonpatch``) builds patches with ``move``
operations whose paths, in some lists, point where the element no longer is, so applying its
patch fails or gives another document (open reports in its tracker); a live table must never
send a patch that does not apply. This diff never moves: a list is compared by its common
head and tail, the elements between compared pairwise, the surplus removed or added, so a
list that grows at its end (a log kept in the state) costs only what it gained.
"""

from __future__ import annotations

import marshal
import math
from typing import Any

__all__ = ["Marks", "PatchError", "apply", "diff", "kept_or_marked", "marks", "same_members"]

Patch = list[dict[str, Any]]

Marks = dict[str, bytes | None]
"""Each member of an object as :mod:`marshal` writes it (``None``: a value marshal refuses)."""


class PatchError(ValueError):
    """A patch that does not apply to the document it is applied to."""


def _pointer(path: str, key: str | int) -> str:
    text = str(key)
    return f"{path}/{text.replace('~', '~0').replace('/', '~1')}"


_LEAVES = frozenset((str, int, bool, type(None)))
"""The JSON scalars whose value and type ``==`` and ``type`` tell whole (a float is also its
sign: ``-0.0 == 0.0``, and JSON writes them apart)."""


def _same(a: Any, b: Any) -> bool:
    """The same JSON value: ``==`` (fast, in C), and where ``==`` says yes, every value of the
    same JSON type (``True == 1`` and ``1 == 1.0`` in Python; ``true``, ``1`` and ``1.0`` differ
    in JSON) and every object's keys in the same order. Two dicts equal but written in another
    key order are not the same: the diff then descends and finds nothing to change.

    The second look is :mod:`marshal`'s bytes (its version 2, which writes what a value is and
    nothing of its identity: no references, no interning), which hold each value's exact type
    and each dict's order; a value marshal refuses (a dict of a subclass, :class:`SharedJson`)
    is walked (:func:`_exact`). Issue 29: it was both values written as JSON text, two
    ``json.dumps`` of every unchanged part of a seat's observation on every push, three times
    the cost (``tests/server/test_patch_cost.py`` counts them)."""
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    if type(a) in _LEAVES:
        return True
    try:
        return marshal.dumps(a, _MARSHAL) == marshal.dumps(b, _MARSHAL)
    except ValueError:
        return _exact(a, b)


_MARSHAL = 2
"""Marshal's version 2: from version 3 on, an object met twice (by identity) is written as a
reference, and an interned string differently from another, so equal values could differ."""


def _member(a: Any, b: Any) -> bool:
    """``a == b`` is known: the same JSON value?"""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _LEAVES:
        return True
    return _exact(a, b)


def _exact(a: Any, b: Any) -> bool:
    """``a == b`` and ``type(a) is type(b)`` are known: the same JSON value?"""
    if isinstance(a, dict):
        for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True):
            if ka != kb or not _member(va, vb):
                return False
        return True
    if isinstance(a, list | tuple):
        return all(map(_member, a, b))
    if isinstance(a, float):
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    return True


def marks(document: dict[str, Any]) -> Marks:
    """Each member of ``document`` as :mod:`marshal` writes it (as :func:`_same` compares).

    A live socket keeps its last observation's marks beside it: the next :func:`diff` against
    that observation then writes only the new side's members (once, for every socket sent the
    same message) and compares bytes, where it compared the two sides with ``==`` and wrote
    both (issue 29)."""
    out: Marks = {}
    for key, value in document.items():
        try:
            out[key] = marshal.dumps(value, _MARSHAL)
        except ValueError:
            out[key] = None
    return out


def same_members(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """True if ``new`` has ``old``'s keys in ``old``'s order, each holding the very object
    ``old`` holds: the patch between them is empty and ``old``'s :func:`marks` are ``new``'s,
    found without writing either (observations are shared and never changed in place). A
    seat's held observation keeps its members across a change that leaves the state as it
    was (:mod:`referee.server.views`), so such a change costs its sockets no marks and no
    diff (issue 29)."""
    if len(old) != len(new):
        return False
    for (key, value), (new_key, new_value) in zip(old.items(), new.items(), strict=True):
        if key != new_key or value is not new_value:
            return False
    return True


def kept_or_marked(
    old: dict[str, Any] | None, old_marks: Marks | None, new: dict[str, Any]
) -> tuple[dict[str, Any], Marks, bool]:
    """``(old, old_marks, True)`` if ``new`` holds ``old``'s very members (:func:`same_members`:
    the patch between them is empty, and nothing need be written), else ``(new, marks(new),
    False)``. ``old``: what a socket was last sent (``None``: nothing to patch against)."""
    if old is not None and old_marks is not None and same_members(old, new):
        return old, old_marks, True
    return new, marks(new), False


def diff(old: Any, new: Any, path: str = "", marked: tuple[Marks, Marks] | None = None) -> Patch:
    """The patch that turns ``old`` into ``new`` (both plain JSON values). ``marked``: both
    objects' :func:`marks`, members whose marks are equal being the same value (the patch is
    the same either way)."""
    ops: Patch = []
    if marked is not None and isinstance(old, dict) and isinstance(new, dict):
        _diff_object(old, new, path, ops, marked)
    else:
        _diff(old, new, path, ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: Patch) -> None:
    if _same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_object(old, new, path, ops)
    elif isinstance(old, list) and isinstance(new, list):
        _diff_list(old, new, path, ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_object(
    old: dict[str, Any],
    new: dict[str, Any],
    path: str,
    ops: Patch,
    marked: tuple[Marks, Marks] | None = None,
) -> None:
    kept = [key for key in old if key in new]
    if kept + [key for key in new if key not in old] != list(new):
        # key-wise operations would leave the keys in another order than ``new``'s (an
        # ``add`` appends), and a reader may go by that order (a domain's first case is its
        # form's default): the object whole keeps it
        ops.append({"op": "replace", "path": path, "value": new})
        return
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": _pointer(path, key)})
    old_marks, new_marks = marked if marked is not None else ({}, {})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": _pointer(path, key), "value": value})
            continue
        mark = new_marks.get(key)
        if mark is None or mark != old_marks.get(key):
            _diff(old[key], value, _pointer(path, key), ops)


def _diff_list(old: list[Any], new: list[Any], path: str, ops: Patch) -> None:
    most = min(len(old), len(new))
    head = 0
    while head < most and _same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < most - head and _same(old[-1 - tail], new[-1 - tail]):
        tail += 1
    gone = old[head : len(old) - tail]
    came = new[head : len(new) - tail]
    paired = min(len(gone), len(came))
    for i in range(paired):
        _diff(gone[i], came[i], _pointer(path, head + i), ops)
    for i in range(len(gone) - 1, paired - 1, -1):
        ops.append({"op": "remove", "path": _pointer(path, head + i)})
    for i in range(paired, len(came)):
        ops.append({"op": "add", "path": _pointer(path, head + i), "value": came[i]})


def _steps(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"a JSON Pointer starts with '/': {path!r}")
    return [s.replace("~1", "/").replace("~0", "~") for s in path[1:].split("/")]


def _index(container: list[Any], step: str, adding: bool) -> int:
    if step == "-" and adding:
        return len(container)
    if not step.isdigit() or (step != "0" and step.startswith("0")):
        raise PatchError(f"not an index of a list: {step!r}")
    index = int(step)
    if index > len(container) or (index == len(container) and not adding):
        raise PatchError(f"index {index} is past the list's end")
    return index


def apply(document: Any, patch: Patch) -> Any:
    """``document`` with ``patch`` applied (``add``, ``remove`` and ``replace``), leaving
    ``document`` itself unchanged: what a patch changes is copied, what it does not is shared."""
    for op in patch:
        document = _apply_one(document, op)
    return document


def _apply_one(document: Any, op: dict[str, Any]) -> Any:
    kind = op.get("op")
    if kind not in ("add", "remove", "replace"):
        raise PatchError(f"not an operation this patch uses: {kind!r}")
    steps = _steps(str(op.get("path", "")))
    if not steps:
        if kind == "remove":
            raise PatchError("cannot remove the whole document")
        return op["value"]
    return _at(document, steps, kind, op.get("value"))


def _at(node: Any, steps: list[str], kind: str, value: Any) -> Any:
    step, rest = steps[0], steps[1:]
    if isinstance(node, dict):
        copy = dict(node)
        if rest:
            if step not in copy:
                raise PatchError(f"no member {step!r}")
            copy[step] = _at(copy[step], rest, kind, value)
        elif kind == "add":
            copy[step] = value
        else:
            if step not in copy:
                raise PatchError(f"no member {step!r} to {kind}")
            if kind == "remove":
                del copy[step]
            else:
                copy[step] = value
        return copy
    if isinstance(node, list):
        items = list(node)
        index = _index(items, step, adding=kind == "add" and not rest)
        if rest:
            items[index] = _at(items[index], rest, kind, value)
        elif kind == "add":
            items.insert(index, value)
        elif kind == "remove":
            del items[index]
        else:
            items[index] = value
        return items
    raise PatchError(f"{step!r} names a member of a value that has none")
