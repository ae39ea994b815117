"""Helpers shared by Gin Lane's rule test files: scenes and players set up for more than one rule,
and the log read back in words.
"""

from __future__ import annotations

from typing import Any

from referee.core import Event, Table, Viewer
from referee.systems.ginlane.events import describe
from referee.systems.ginlane.scene import SceneState

from .test_procedure import act, duel, scene, start


def _thrower() -> Table[SceneState]:
    """kit (Agility 1, Firearms 1, "Steady Hand", 6 points) in zone a, bob (Agility 1) in b."""
    setup = scene(
        kit={
            "side": "s",
            "zone": "a",
            "skills": {"Agility": 1, "Firearms": 1},
            "aspects": ["Steady Hand"],
            "experience": 6,
        },
        bob={"side": "m", "zone": "b", "skills": {"Agility": 1}},
    )
    return start(setup, 6, 6, 1, 1)


def _hit_of_13(*chosen: dict[str, str]) -> Table[SceneState]:
    """moll's sword, 6 + 6 + Weapons 3 = 15 against jack's parry of 1 + 1 + 2 = 4: 11 + 2 =
    13 stress on Health, less the consequences jack takes."""
    table = duel(jack={"aspects": ["Handsome Jack"]})
    return act(table, "moll", "attack", [6, 6, 1, 1], target="jack", consequences=list(chosen))


def _new(before: Table[SceneState], after: Table[SceneState]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in after.log.events[len(before.log.events) :]]


def _said(kind: str, data: dict[str, Any]) -> str:
    return describe(Event(kind, data), Viewer("referee"))


def _setup(**fields: Any) -> dict[str, Any]:
    return {"zones": ["a", "b"], "characters": {"moll": {}}, **fields}


_BLOCKING = {"one_of": ["Weapons", "Brawl", "Strength", "Agility"]}


_SOCIETY = "Member of the Society for Effectual Redress"


def _menu(table: Table[SceneState], who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """What ``who`` is offered now: each choice's kind, label and parameters' domains."""
    out = []
    for choice in table.legal_actions(who):
        shown = choice.to_json()
        assert shown["actor"] == who
        out.append((shown["kind"], shown["label"], shown["params"]))
    return out
