"""A game installed as a package of its own (``docs/new-game.md``: the example game, ``toy``)
is simulated with no change to ``referee.sim``: it offers no conflict of its own, but its
procedure says when its conflict is over and who won, so the simulator plays it through the
procedure's own choices."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.core import Choice, Event, Procedure, System, system, systems
from referee.core.loader import load_file
from referee.sim.answer import answer
from referee.sim.conflicts import CONFLICTS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "toy-game" / "three-duellists.yaml"


@pytest.fixture
def toy() -> System:
    if "toy" not in systems():
        pytest.skip("the example game is not installed (make install)")
    return system("toy")


def test_a_game_offering_no_conflict_is_simulated_through_its_procedure(toy: System) -> None:
    data = load_file(EXAMPLE)
    table = toy.new_table(data["setup"], players=data.get("players"))
    result = answer(table, runs=20, seed=1)
    report = result["simulation"]
    assert "toy" in CONFLICTS and result["conflict"] == "the conflict the game reports"
    assert report["unfinished"] == 0 and report["refused"] == 0
    assert sum(report["wins"].values()) == 20
    assert set(report["wins"]) <= {"ann", "bob", "cat"}
    assert result["exact"] is None and "no exact model" in result["exact_reason"]


class _Silent(Procedure[int]):
    """A game of one state and no actions, reporting no conflict."""

    def initial_state(self, setup: Any) -> int:
        return 0

    def evolve(self, state: int, event: Event) -> int:
        return state

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return ()


def test_a_game_that_reports_no_conflict_offers_none() -> None:
    assert System("silent", "Silent", _Silent()).simulated_conflicts() == ()


_NO_CONFLICTS: tuple[()] = ()


def test_a_game_that_reports_its_conflict_is_simulated_through_its_procedure_alone() -> None:
    from referee.core.simulation import SimulatedConflict

    class Reporting(_Silent):
        def conflict(self, state: int) -> None:
            return None

    (offered,) = System("reporting", "Reporting", Reporting()).simulated_conflicts()
    assert isinstance(offered, SimulatedConflict)


def test_a_game_whose_simulations_name_no_conflict_is_refused() -> None:
    named = System("empty", "Empty", _Silent(), simulations=f"{__name__}:_NO_CONFLICTS")
    with pytest.raises(TypeError, match="is not a tuple of SimulatedConflict"):
        named.simulated_conflicts()
