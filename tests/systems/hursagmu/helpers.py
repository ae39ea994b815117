"""Helpers shared by the rule-named test files of this folder: encounters set up part-way
through a round, a fighter's state changed in place, the choices and odds a seat is offered."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core import Action, Builder, Choice, Table
from referee.dice import ScriptedSource
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.choices import legal_actions
from referee.systems.hursagmu.initiative import decide_initiative
from referee.systems.hursagmu.state import Encounter

from .test_encounter import FIGHTER, initiative, play, start


def _with(state: Encounter, who: str, **changes: Any) -> Encounter:
    return replace(state, fighters={**state.fighters, who: replace(state.fighters[who], **changes)})


def _fred_under_attack() -> Table[Encounter]:
    """Cinematic option: bob (Initiative 16) attacks fred, who has not declared yet."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    actions = [{"attack": "fred"}, {"attack": "fred"}, {"defend": True}]
    return play(table, [("bob", "declare", {"actions": actions}), ("bob", "act", {})], [6, 6])


def _cinematic_round(actions: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(table, [("bob", "declare", {"actions": actions}), ("bob", "act", {})], [6, 5])
    return [(e.kind, dict(e.data)) for e in table.log[-1:]]


def _moved(movement: str, **extra: Any) -> dict[str, Any]:
    return {
        "character": "bob",
        "step": 0,
        "initiative": 16,
        "movement": movement,
        "yards": 0,
    } | extra


def _initiative_events(
    state: Encounter, who: str, stance: str, faces: list[int], **params: Any
) -> list[tuple[str, dict[str, Any]]]:
    action = Action(who, "initiative", {"stance": stance, **params})
    b = Builder(state, PROCEDURE.evolve)
    decide_initiative(b, action, ScriptedSource(faces))
    return [(e.kind, dict(e.data)) for e in b.events]


def _kinds(table: Table[Encounter], who: str) -> dict[str, Choice]:
    return {c.kind: c for c in legal_actions(table.state, who)}


def _odds(choice: Choice) -> list[tuple[str, str, str]]:
    return [(o.label, o.dice, o.rule) for o in choice.odds]


def _bob_casts_mahasu_at_fred(table: Table[Encounter]) -> Table[Encounter]:
    """bob, on his Initiative, declares a Mahasu at fred and casts it (dice 6, 6)."""
    return play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred", "skill": "mahasu"}]}),
            ("bob", "act", {}),
        ],
        [6, 6],
    )
