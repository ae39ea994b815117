"""What a push's patch costs (issue 29): finding what did not change in a seat's observation
writes nothing as JSON text, and still tells every JSON type apart (``true`` is not ``1``,
``1`` is not ``1.0``, ``-0.0`` is not ``0.0``), a value the game shares (``SharedJson``)
included."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.core.values import SharedJson
from referee.server import patches
from referee.server.pushes import LOG_FIELDS
from referee.server.views import observation
from tests.server.test_views import toy_table


def base(seat: str) -> dict[str, Any]:
    """A seat's observation of the toy table less the log, built afresh (nothing shared)."""
    import tests.core.toy_procedure  # noqa: F401

    data = observation(toy_table(), "t", seat)
    return {k: v for k, v in data.items() if k not in LOG_FIELDS}


@pytest.mark.parametrize("seat", ["referee", "scarface", "krockin"])
def test_an_unchanged_observation_is_found_so_without_writing_json(
    seat: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = base(seat), base(seat)
    assert old == new and old is not new
    written: list[Any] = []
    dumps = json.dumps

    def counted(value: Any, *args: Any, **kwargs: Any) -> str:
        written.append(value)
        return dumps(value, *args, **kwargs)

    monkeypatch.setattr(json, "dumps", counted)
    assert patches.diff(old, new) == []
    assert written == []


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ({"a": [1, {"b": True}]}, {"a": [1, {"b": 1}]}, "/a/1/b"),
        ({"a": {"b": 1}}, {"a": {"b": 1.0}}, "/a/b"),
        ({"a": [0.0]}, {"a": [-0.0]}, "/a/0"),
        ({"s": SharedJson({"b": [False]})}, {"s": SharedJson({"b": [0]})}, "/s/b/0"),
        ({"s": SharedJson({"b": 2})}, {"s": SharedJson({"b": 2.0})}, "/s/b"),
    ],
)
def test_equal_in_python_but_not_in_json_is_replaced(old: Any, new: Any, path: str) -> None:
    assert old == new
    patch = patches.diff(old, new)
    assert [op["path"] for op in patch] == [path]
    assert json.dumps(patches.apply(old, patch)) == json.dumps(new)


def test_a_shared_value_unchanged_is_no_patch() -> None:
    old = {"s": SharedJson({"b": [1, True, 2.5, None, "x"]}), "t": 3}
    new = {"s": SharedJson({"b": [1, True, 2.5, None, "x"]}), "t": 3}
    assert patches.diff(old, new) == []
    assert patches.diff({"s": dict(old["s"])}, {"s": new["s"]}) == []


def _after_a_look(seat: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A seat's observation less the log before and after krockin perceives scarface (each
    built afresh): the referee's and krockin's state and choices change, scarface's do not."""
    import tests.core.toy_procedure  # noqa: F401
    from referee.core import Action
    from referee.dice import ScriptedSource

    table = toy_table()
    look = Action("krockin", "perceive", {"target": "scarface"})
    after = table.act(look, ScriptedSource([3, 6, 2]))
    old, new = (observation(t, "t", seat) for t in (table, after))
    return (
        {k: v for k, v in old.items() if k not in LOG_FIELDS},
        {k: v for k, v in new.items() if k not in LOG_FIELDS},
    )


@pytest.mark.parametrize("seat", ["referee", "scarface", "krockin"])
def test_with_the_old_sides_marks_only_the_new_side_is_written(
    seat: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket keeps its last observation's marks: the next diff writes each member of the
    new observation once (its marks, shared by every socket sent it) and nothing of the old,
    and the patch is the one the unmarked diff makes."""
    old, new = _after_a_look(seat)
    unmarked = patches.diff(old, new)
    assert bool(unmarked) is (seat != "scarface")
    old_marks = patches.marks(old)
    written: list[Any] = []
    dumps = patches.marshal.dumps

    def counted(value: Any, version: int) -> bytes:
        written.append(value)
        return dumps(value, version)

    monkeypatch.setattr(patches.marshal, "dumps", counted)
    new_marks = patches.marks(new)
    assert len(written) == len(new)  # one write a member
    written.clear()
    assert patches.diff(old, new, marked=(old_marks, new_marks)) == unmarked
    unchanged = [k for k in new if old[k] == new[k]]
    assert unchanged
    assert not any(w is old[k] or w is new[k] for w in written for k in unchanged)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": [1, {"b": True}]}, {"a": [1, {"b": 1}]}),
        ({"a": {"b": 1}, "c": 2}, {"a": {"b": 1.0}, "c": 2}),
        ({"a": [0.0]}, {"a": [-0.0]}),
        ({"s": SharedJson({"b": [False]})}, {"s": SharedJson({"b": [0]})}),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({"a": 1, "b": 2}, {"a": 1}),
        ({"a": 1}, {"a": 1, "b": [2]}),
    ],
)
def test_a_marked_diff_is_the_unmarked_one(old: Any, new: Any) -> None:
    marked = (patches.marks(old), patches.marks(new))
    assert patches.diff(old, new, marked=marked) == patches.diff(old, new)
