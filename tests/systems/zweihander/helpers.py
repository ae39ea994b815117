"""Shared helpers: a table of the house rules played with scripted dice."""

from __future__ import annotations

from typing import Any

from referee.core import Action, Table
from referee.dice import ScriptedSource
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.state import ZweihanderState


def table(characters: dict[str, Any], **setup: Any) -> Table[ZweihanderState]:
    """A table with these characters (and any other setup fields)."""
    return Table.start(PROCEDURE, {"characters": characters, **setup})


def act(
    t: Table[ZweihanderState], actor: str, kind: str, dice: list[int] | None = None, **params: Any
) -> Table[ZweihanderState]:
    """Play one action with exactly these dice (all of them must be used)."""
    source = ScriptedSource(dice or [])
    out = t.act(Action(actor, kind, params), source)
    assert source.remaining == (), f"unused dice: {source.remaining}"
    return out


def last(t: Table[ZweihanderState], kind: str) -> dict[str, Any]:
    """The data of the last event of ``kind``."""
    for event in reversed(t.log.events):
        if event.kind == kind:
            return dict(event.data)
    raise AssertionError(f"no {kind} event")
