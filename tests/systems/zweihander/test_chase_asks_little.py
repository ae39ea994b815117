"""A chase does not work out the rest of the game at every step (issue 31): the GM's choices of
the other sections (journeys, tests, intrigue, madness, ...) read nothing of the chase, so they
are worked out again only when something else of the state changes, and are the same."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.core import REFEREE, system
from referee.core.loader import load_file
from referee.core.policies import default_policy, legal_choices
from referee.core.simulation import conflict_of
from referee.dice import RandomSource
from referee.sim.simulate import simulate
from referee.systems.zweihander import PROCEDURE, procedure

from .helpers import _incapacitated
from .test_chase import CHASER, RUNNER, start

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _chase() -> Any:
    data = load_file(EXAMPLES / "zweihander" / "chase-takedown.yaml")
    return system("zweihander").new_table(data["setup"])


def test_a_simulated_chase_asks_the_other_sections_seldom(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counting(section: Any) -> Any:
        def counted(state: Any, actor: str) -> Any:
            calls.append(actor)
            return section(state, actor)

        return counted

    monkeypatch.setattr(procedure, "_CHOICES", tuple(counting(s) for s in procedure._CHOICES))
    monkeypatch.setattr(procedure, "_asked_aside", {})
    # the random player, which lists the choices at every step (the default one's step is
    # read from the ladder: tests/systems/zweihander/test_chase_step.py)
    report = simulate(_chase(), runs=20, seed=4, policy="random")
    asked = len(calls) // len(procedure._CHOICES)
    assert report.actions > 100
    assert asked <= report.actions // 4


def test_the_other_sections_choices_are_the_same_remembered_or_not() -> None:
    table = _chase()
    conflict = conflict_of(table)
    dice, rng = RandomSource(3), random.Random(3)
    for action in conflict.begin(table, None):
        table = table.act(action, dice)
    steps = 0
    while not conflict.is_over(table, table) and steps < 40:
        state = table.state
        for actor in (REFEREE, *(c.id for c in state.characters)):
            kept = procedure._aside_from_the_chase(state, actor)
            fresh = tuple(c for section in procedure._CHOICES for c in section(state, actor))
            assert [(c.kind, c.params, c.label) for c in kept] == [
                (c.kind, c.params, c.label) for c in fresh
            ]
        choices = legal_choices(table, conflict)
        table = table.act(default_policy(table, conflict, choices, rng), dice)
        steps += 1
    assert steps > 5


def _exchange_participants(choices: Any) -> Any:
    [start] = [c for c in choices if c.kind == "exchange.start"]
    return start.params["participants"].values


def test_a_change_beside_the_chase_is_offered_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM's choices of the other sections are remembered only while nothing beside the chase
    changes: a character made Incapacitated! during a chase is no longer offered for a Complex
    Exchange (its menu offers only those able to act)."""
    monkeypatch.setattr(procedure, "_asked_aside", {})
    t = start(chars={"runner": RUNNER, "chaser": CHASER, "smith": RUNNER})
    before = _exchange_participants(PROCEDURE.legal_actions(t.state, REFEREE))
    after = _incapacitated(t.state, "smith")
    assert before == ("runner", "chaser", "smith")
    assert _exchange_participants(PROCEDURE.legal_actions(after, REFEREE)) == ("runner", "chaser")
