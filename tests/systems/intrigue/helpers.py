"""Small helpers for the Intrigue tests: a table from a game mapping, and one action on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import Action, Table
from referee.dice import ScriptedSource
from referee.systems.intrigue import PROCEDURE, IntrigueState


def start(setup: Mapping[str, Any]) -> Table[IntrigueState]:
    """A table at game time 0 for ``setup``."""
    return Table.start(PROCEDURE, setup)


def act(
    table: Table[IntrigueState],
    actor: str,
    kind: str,
    dice: Sequence[int] = (),
    at: int | None = None,
    **params: Any,
) -> Table[IntrigueState]:
    """``actor`` does ``kind`` with ``params``, rolling the scripted ``dice`` (all of them)."""
    source = ScriptedSource(dice)
    after = table.act(Action(actor, kind, params), source, at=at)
    assert source.remaining == (), f"unused dice {source.remaining}"
    return after


def kinds(table: Table[IntrigueState], since: int = 0) -> list[str]:
    """The kinds of the events logged after the first ``since``."""
    return [e.kind for e in table.log.events[since:]]


def without_names(data: Mapping[str, Any]) -> dict[str, Any]:
    """An event's data without the names it carries for its narration (``"names"``)."""
    return {k: v for k, v in data.items() if k != "names" and not k.endswith("_names")}


def last(table: Table[IntrigueState], kind: str) -> dict[str, Any]:
    """The data of the last event of ``kind`` (as the referee sees it), without its names."""
    for event in reversed(table.log.events):
        if event.kind == kind:
            return without_names(event.data)
    raise AssertionError(f"no {kind} event")


def character(name: str, number: int, **sheet: Any) -> dict[str, Any]:
    """A character sheet for a game mapping."""
    return {"name": name, "number": number, **sheet}
