"""A faction's slip choices are built once per value of the faction (issue 31): every step of a
maneuver asked each faction for them, and nothing else of the state but its rivals standing and
a directing conflict changes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core import system
from referee.core.loader import load_file
from referee.sim.simulate import simulate
from referee.systems.kingdoms import choices

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _counting(monkeypatch: pytest.MonkeyPatch, name: str, calls: list[str]) -> None:
    real = getattr(choices, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(choices, name, counted)


def test_a_simulated_maneuver_scripts_each_factions_slips_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    _counting(monkeypatch, "_scripts", calls)
    _counting(monkeypatch, "_slip_choices", calls)
    data = load_file(EXAMPLES / "kingdoms" / "four-factions-every-maneuver.yaml")
    table = system("kingdoms").new_table(data["setup"])
    # the random player, which plays every step (the default one writes its slips once, in
    # the opening every encounter shares: tests/sim/test_opening.py)
    report = simulate(table, runs=10, seed=3, policy="random")
    asked, built = calls.count("_slip_choices"), calls.count("_scripts")
    assert report.actions > 50 and asked > 100
    assert 0 < built <= asked // 4


def test_the_slips_remembered_are_the_ones_built_afresh() -> None:
    data = load_file(EXAMPLES / "kingdoms" / "four-factions-every-maneuver.yaml")
    table = system("kingdoms").new_table(data["setup"])
    state = table.state
    for faction in state.factions.values():
        for _ in range(2):  # built, then remembered
            kept = choices._slip_choices(state, faction)
            others = tuple(f for f in state.standing() if f != faction.id)
            fresh = choices._scripts(faction, others, False)
            assert kept
            assert [(c.kind, c.params, c.label) for c in kept] == [
                (c.kind, c.params, c.label) for c in fresh
            ]
