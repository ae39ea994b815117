"""Helpers the rule-named test files of Burning Kingdoms share: the two-faction kingdom most tests
play (``_kingdom``, ``PLAYERS``), acting on a table with scripted dice (``_act``), and the tables
and payloads several rules' tests read.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, Event, ScenarioError, Table, Text, Viewer
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import choices_for
from referee.systems.kingdoms.dice import BurningPool
from referee.systems.kingdoms.resolution import Board
from referee.systems.kingdoms.state import KingdomsState, RolledTest, Slip


def small_board(**dispo: int) -> Board:
    values = {"a": 10, "b": 10, "c": 10, "d": 10, **dispo}
    return Board(
        order=("a", "b", "c", "d"), disposition=values, cap=12, circles=dict.fromkeys(values, 3)
    )


EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "kingdoms"


PLAYERS = {"ann": ["elves"], "bob": ["orcs"]}


def _kingdom(elves: dict[str, Any], **leader: Any) -> dict[str, Any]:
    """Two factions: the elves as given (their leader's sheet merged with ``leader``), the orcs
    plain (Logistics B4, Will B3, Perception G4 open-ended); a quick table
    (``strict_sheets: false``)."""
    elf = {
        "name": "Aeluin",
        "lifepaths": 7,
        "stats": {"Will": "B4"},
        "skills": {"Logistics": "B4"},
        "circles": 3,
        **leader,
    }
    orc = {
        "name": "Gorbash",
        "lifepaths": 10,
        "stats": {"Will": "B3", "Perception": {"shade": "G", "exponent": 4, "open_ended": True}},
        "skills": {"Logistics": "B4", "Inconspicuous": "B5"},
    }
    return {
        "strict_sheets": False,  # quick play: the rules under test need no 2iC or rivals
        "factions": {
            "elves": {"disposition": 10, "leader": elf, **elves},
            "orcs": {"disposition": 12, "leader": orc},
        },
    }


def _act(
    table: Table[Any], faction: str, action: str, dice: list[int] | None = None, **params: Any
) -> Table[Any]:
    return table.act(Action(faction, action, params), ScriptedSource(dice or []))


def _three_kingdoms(**orcs: Any) -> Table[Any]:
    """Elves, orcs (``orcs`` merged into their faction) and dwarves, each with its player."""
    setup = _kingdom({})
    setup["factions"]["orcs"].update(orcs)
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Logistics": "B3"},
        },
    }
    return Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})


def _orcs_infiltrate_the_elves(table: Table[Any], *, conflict: bool) -> Table[Any]:
    """The orcs Infiltrate the elves (with a conflict scene at them, or none); the others
    Fortify; all pass; the elves read. Every die shows 3."""
    slip = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "targets": ["elves"]}
    table = _act(table, "orcs", "write_slip", **slip)
    for f in ("elves", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    if conflict:
        table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    for f in ("elves", "orcs", "dwarves"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 40)


def _two_kingdoms(orcs_disposition: int, elves_disposition: int = 10) -> Table[Any]:
    from .test_procedure import setup

    data = setup()
    del data["factions"]["dwarves"]
    data["factions"]["elves"]["disposition"] = elves_disposition
    data["factions"]["orcs"]["disposition"] = orcs_disposition
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["assessed"] = ["elves"]
    return Table.start(PROCEDURE, data)


def _revealed(
    skill: str = "Logistics", /, **maneuvers: tuple[str, tuple[str, ...], int, int]
) -> KingdomsState:
    """The elves, the orcs and the dwarves (the orcs' twin) with their slips revealed and
    rolled on ``skill``: each faction's maneuver, targets, successes and Harry attack dice."""
    state: KingdomsState = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    factions = {**state.factions, "dwarves": replace(state.factions["orcs"], id="dwarves")}
    slips = {
        f: Slip(f, maneuver, skill, targets) for f, (maneuver, targets, _, _) in maneuvers.items()
    }
    rolls = {
        f: RolledTest(f, "leader", skill, 4, successes, attack)
        for f, (_, _, successes, attack) in maneuvers.items()
    }
    return replace(
        state, factions=factions, slips=slips, rolls=rolls, order=tuple(maneuvers), phase="resolve"
    )


EVERY_SEAT = Viewer("someone")


def _pass_all(table: Table[Any]) -> Table[Any]:
    for f in table.state.standing():
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return table


def _new(table: Table[Any], before: int) -> list[Event]:
    """The events logged since the log held ``before`` of them."""
    return list(table.log.events[before:])


def _said(events: list[Event]) -> list[str]:
    """Each event as every seat reads it."""
    return [PROCEDURE.describe(e, EVERY_SEAT) for e in events]


def _rolled(table: Table[Any], faction: str) -> dict[str, Any]:
    """The payload of ``faction``'s ``test.rolled`` event."""
    return dict(
        next(
            e for e in table.log if e.kind == "test.rolled" and e.payload["faction"] == faction
        ).payload
    )


def _reveal_roll(table: Table[Any], faction: str) -> Any:
    """The ``test.rolled`` payload of ``faction`` at the reveal."""
    payload: Any = next(
        e.payload
        for e in table.log.events
        if e.kind == "test.rolled" and e.payload["faction"] == faction
    )
    return payload


def _both_fortify(artha: dict[str, int]) -> Table[Any]:
    """The elves (with ``artha``) and the orcs each Fortify, pass and reveal; every die 3."""
    table = Table.start(PROCEDURE, _kingdom({}, artha=artha), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 40)


def _three_kingdoms_with_inconspicuous() -> Table[Any]:
    """Elves (Tactics B5 besides), orcs and dwarves, each leader with Inconspicuous."""
    setup = _kingdom({}, skills={"Logistics": "B4", "Inconspicuous": "B4", "Tactics": "B5"})
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Logistics": "B3", "Inconspicuous": "B4"},
        },
    }
    return Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})


def _scripted(state: KingdomsState, *slips: Slip) -> KingdomsState:
    return replace(state, slips={s.faction: s for s in slips})


def _pools(**pools: tuple[int, int]) -> dict[str, tuple[BurningPool, int]]:
    """Each faction's rolled pool (black, closed) as the reveal hands it on: (dice, attack)."""
    return {f: (BurningPool(dice), attack) for f, (dice, attack) in pools.items()}


def _with_second(state: KingdomsState, faction: str, **second: Any) -> KingdomsState:
    """``faction`` with a 2iC: its leader's sheet changed by ``second``."""
    f = state.factions[faction]
    return replace(
        state, factions={**state.factions, faction: replace(f, second=replace(f.leader, **second))}
    )


def _menu(state: KingdomsState, actor: str) -> list[tuple[str, str, dict[str, Any]]]:
    """What ``actor`` may do now: each choice's kind, label and parameter domains (every
    choice is ``actor``'s own)."""
    offered = choices_for(state, actor)
    assert {c.actor for c in offered} <= {actor}
    return [(c.kind, c.label, dict(c.params)) for c in offered]


def _odds(state: KingdomsState, actor: str) -> list[tuple[str, str, str, dict[str, str]]]:
    """Every preview offered to ``actor``: label, rule, dice and odds."""
    return [
        (p.label, p.rule, p.dice, dict(p.odds)) for c in choices_for(state, actor) for p in c.odds
    ]


ALWAYS = [
    ("objective", "", {"text": Text("Hold the high throne")}),
    ("new_session", "", {}),
]


def _kinds(state: KingdomsState, actor: str) -> list[tuple[str, dict[str, Any]]]:
    """``actor``'s choices beyond those open at any time, with their domains."""
    return [(kind, params) for kind, _, params in _menu(state, actor)][2:]


ANSWERS: dict[str, Any] = {
    "territorial_relation": "native",
    "lifepath_settings": 1,
    "mechanical_aptitude": "no tools",
    "population_density": "rural",
    "population_growth": "slow",
    "political_placement": "outcast",
}


def _refusal(check: Any, data: Any) -> str:
    with pytest.raises(ScenarioError) as error:
        check(data)
    return str(error.value)


def _leader(name: str, **skills: str) -> dict[str, Any]:
    return {"name": name, "lifepaths": 10, "stats": {"Will": "B4"}, "skills": skills}
