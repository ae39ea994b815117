"""A simulation played through the procedure where the game would play it on the dice
(``SimulatedConflict.played_alike``): for the tests that count the procedure's own work in a
simulated encounter."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.core.simulation import conflict_of
from referee.sim import simulate as simulator
from referee.sim.simulate import SimulationReport, simulate


def simulate_through_the_procedure(table: Any, **options: Any) -> SimulationReport:
    """``simulate(table, **options)``, every encounter through ``Table.act``."""
    conflict = dataclasses.replace(conflict_of(table), played_alike=None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulator, "conflict_of", lambda t: conflict)
        return simulate(table, **options)


def both_ways(table: Any, monkeypatch: pytest.MonkeyPatch, **options: Any) -> list[Any]:
    """The same seeded simulation through the procedure, then on the dice (the game's
    ``played_alike``, which must play ``table``)."""
    through = conflict_of(table)
    assert through.played_alike is not None and through.played_alike(table, None) is not None
    without = dataclasses.replace(through, played_alike=None)
    reports: list[SimulationReport] = []
    for conflict in (without, through):
        with monkeypatch.context() as patch:
            patch.setattr(simulator, "conflict_of", lambda t, c=conflict: c)
            reports.append(simulate(table, **options))
    return reports


def cut_alike(table: Any, monkeypatch: pytest.MonkeyPatch, *, most: int, runs: int) -> None:
    """Both ways (:func:`both_ways`) cut short at each of the first ``most`` steps: the same
    outcomes and the same actions taken, whatever the cut."""
    for max_steps in range(1, most + 1):
        procedure, on_dice = both_ways(table, monkeypatch, runs=runs, seed=2, max_steps=max_steps)
        assert on_dice.outcomes == procedure.outcomes, max_steps
        assert on_dice.actions == procedure.actions, max_steps
