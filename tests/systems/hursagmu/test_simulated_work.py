"""What a simulated melee asks of the rules, counted (issue 31): whose turn it is is worked out
once per state (every fighter's choices and the movers read it); the Master's rulings, the
movements a fighter's yards allow and a task's shape are built once for the same inputs. The
melees are played through the procedure: it is its work that is counted (the simulator plays
them on the dice, ``tests/sim/test_melee_dice.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core import REFEREE, system
from referee.core.loader import load_file
from referee.systems.hursagmu import choices, round_plan, state
from tests.sim.procedure import simulate_through_the_procedure

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _melee() -> Any:
    data = load_file(EXAMPLES / "hursagmu" / "bob-against-fred.yaml")
    return system("hursagmu").new_table(data["setup"])


def test_whose_turn_it_is_is_worked_out_once_a_state(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = state.next_key

    def counted(*args: Any) -> Any:
        calls.append("next_key")
        return real(*args)

    monkeypatch.setattr(state, "next_key", counted)
    report = simulate_through_the_procedure(_melee(), runs=10, seed=2)
    assert report.actions > 100
    assert len(calls) <= 2 * report.actions  # two fighters, once a state (it was 4×)


def test_the_rulings_movements_and_tasks_are_built_once() -> None:
    for remembered in (choices._rulings, round_plan._movement_record, round_plan._task_record):
        remembered.cache_clear()
    report = simulate_through_the_procedure(_melee(), runs=10, seed=2)
    table = _melee()
    first = table.legal_actions(REFEREE)
    assert [c.kind for c in first] == ["condition", "perceive"]
    assert first[0] is _melee().legal_actions(REFEREE)[0]  # another table, the same fighters
    for remembered in (choices._rulings, round_plan._movement_record, round_plan._task_record):
        info = remembered.cache_info()
        assert info.misses <= 4 and info.hits >= report.actions // 10, remembered
