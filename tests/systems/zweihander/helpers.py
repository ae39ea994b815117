"""Shared helpers: a table of the house rules played with scripted dice, the setups of
``examples/zweihander/cli/``, a roll card and a log line as the referee reads them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from referee.core import REFEREE, Action, Event, Table, Viewer
from referee.dice import RandomSource, ScriptedSource
from referee.systems.zweihander import PROCEDURE, SYSTEM, emit
from referee.systems.zweihander.character import INCAPACITATED
from referee.systems.zweihander.events import describe
from referee.systems.zweihander.percentile import SkillTest
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


CLI_FILES = Path(__file__).parents[3] / "examples" / "zweihander" / "cli"


def _chase(seed: int, escape_condition: int = 9) -> Table[ZweihanderState]:
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup)
    start: dict[str, Any] = {
        "escapees": ["cutpurse"],
        "pursuers": ["watchman", "hound"],
        "escape_condition": escape_condition,
    }
    return table.act(Action("referee", "chase.start", start), RandomSource(seed))


def _journey() -> Table[ZweihanderState]:
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    return SYSTEM.new_table(setup)


def _card(face: int, chance: int = 50) -> dict[str, Any]:
    test = SkillTest(chance)
    return emit.test_card(test, test.roll(ScriptedSource([face])), "a test", "Chases")


def _line(kind: str, **data: Any) -> str:
    return describe(Event(kind, data), Viewer("referee"))


def _incapacitated(state: ZweihanderState, who: str) -> ZweihanderState:
    return state.with_character(replace(state.character(who), peril=INCAPACITATED))


def _s_and_c_take_roles(t: Table[ZweihanderState], dice: list[int]) -> Table[ZweihanderState]:
    """The Role Checks with g unable to take part: s the Survivalist, c the Scout."""
    return act(t, "referee", "journey.roles", dice, survivalist="s", scout="c")


def _lines(t: Table[ZweihanderState], prefix: str) -> list[str]:
    return [describe(e, Viewer(REFEREE)) for e in t.log.events if e.kind.startswith(prefix)]


def _ladder(t: Any) -> dict[str, Any]:
    """The chase's participants as the table's state shows them."""
    return PROCEDURE.state_json(t.state)["chase"]["participants"]
