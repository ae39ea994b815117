"""A simulated player chooses without the odds previews of its choices (issue 31): the games
attach them to be worked out when read (:class:`referee.core.actions.Later`), so thousands of
simulated encounters never work them out, while a seat that observes the same table reads them
as before."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.core import observe, system
from referee.core.loader import load_file
from referee.core.policies import default_policy, legal_choices
from referee.core.simulation import conflict_of
from referee.dice import RandomSource
from referee.sim.simulate import simulate
from referee.systems.ginlane import answers as ginlane_answers
from referee.systems.ginlane import fighting as ginlane_fighting
from referee.systems.hursagmu import choices as hursagmu_choices
from referee.systems.kingdoms import choices as kingdoms_choices
from referee.systems.zweihander import takedown as zweihander_takedown
from tests.sim.procedure import simulate_through_the_procedure

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _table(game: str, example: str) -> Any:
    data = load_file(EXAMPLES / game / example)
    return system(game).new_table(data["setup"], players=data.get("players"))


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, calls: list[str]) -> None:
    real: Callable[..., Any] = getattr(module, name)

    @functools.wraps(real)
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_a_simulated_melee_works_out_no_preview_and_an_observer_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    for name in ("initiative_odds", "_pending_odds", "_next_step_odds", "_race"):
        _counting(monkeypatch, hursagmu_choices, name, calls)
    table = _table("hursagmu", "bob-against-fred.yaml")
    report = simulate_through_the_procedure(table, runs=20, seed=5)  # not on the dice
    assert report.actions > 100 and calls == []
    seen = observe(table, "referee").to_json()
    assert calls and any(c["odds"] for c in seen["choices"])


def test_a_simulated_fight_works_out_no_attack_or_defence_preview(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    _counting(monkeypatch, ginlane_answers, "check_preview", calls)
    _counting(monkeypatch, ginlane_fighting, "check_preview", calls)
    report = simulate_through_the_procedure(_table("ginlane", "duel.yaml"), runs=10, seed=5)
    assert report.actions > 50 and calls == []


@pytest.mark.parametrize("policy", ["default", "random"])
def test_a_simulated_chase_works_out_no_takedown_preview_and_an_observer_reads_it(
    monkeypatch: pytest.MonkeyPatch, policy: str
) -> None:
    calls: list[str] = []
    _counting(monkeypatch, zweihander_takedown, "takedown_preview", calls)
    table = _table("zweihander", "chase-takedown.yaml")
    report = simulate_through_the_procedure(table, runs=20, seed=5, policy=policy)  # no dice path
    assert report.actions > 100 and calls == []
    caught = _played_until(table, lambda t: any(p.caught for p in t.state.chase.participants))
    seen = observe(caught, "referee").to_json()
    assert any(c["kind"] == "chase.takedown" and c["odds"] for c in seen["choices"])


@pytest.mark.parametrize("policy", ["default", "random"])  # the random player ties, 8 in 40
def test_a_simulated_maneuver_works_out_no_artha_or_tie_break_preview(
    monkeypatch: pytest.MonkeyPatch, policy: str
) -> None:
    calls: list[str] = []
    for name in ("artha_odds", "tie_break_odds"):
        _counting(monkeypatch, kingdoms_choices, name, calls)
    table = _table("kingdoms", "artha-and-the-tie-breaker.yaml")
    report = simulate(table, runs=40, seed=5, policy=policy)
    assert report.actions > 100 and calls == []
    rolled = _played_until(table, lambda t: t.state.phase == "rolled")
    seen = [c for seat in rolled.seats for c in observe(rolled, seat.id).to_json()["choices"]]
    assert any(c["kind"] == "keep" and c["odds"] for c in seen)
    assert "artha_odds" in calls


def _played_until(table: Any, reached: Callable[[Any], bool]) -> Any:
    """``table``'s conflict played by the default player until ``reached``."""
    conflict = conflict_of(table)
    dice = RandomSource(5)
    for action in conflict.begin(table, None):
        table = table.act(action, dice)
    while not reached(table):
        choices = legal_choices(table, conflict)
        table = table.act(default_policy(table, conflict, choices, random.Random(0)), dice)
    return table
