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
