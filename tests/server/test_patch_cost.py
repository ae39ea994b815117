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
