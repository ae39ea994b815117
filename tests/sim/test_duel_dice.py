"""The Intrigue duel played on the dice gives the same encounters, outcome for outcome, as the
duel played through the procedure with the same seed (``referee.systems.intrigue.duel_dice``):
every setup below, whoever starts, cut short at every step of the first rounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core import Action, system
from referee.core.loader import load_file
from referee.core.simulation import conflict_of
from referee.dice import RandomSource
from referee.sim.simulate import simulate
from referee.systems.intrigue.duel_dice import DuelOnDice
from tests.sim.duels import intrigue_duel as duel
from tests.sim.procedure import both_ways

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "intrigue" / "scarface-and-krockin.yaml"
)


SETUPS = {
    "the starter strikes first every round": duel((5, 6), (2, 2), (2, 1)),
    "ties in initiative: together, both may fall": duel((3, 3), (4, 4), (1, 1)),
    "the one attacked strikes first from round 2": duel((5, 5), (1, 1), (0, 5)),
    "a knock-out kills": duel((2, 3), (6, 6), (1, 1)),
    "one side never hits": duel((6, 6), (1, 1), (0, 9)),
    "a third character looks on": {
        "characters": {
            **duel((4, 5), (2, 3), (1, 2))["characters"],
            "cid": {"name": "Cid", "number": 30, "combat": 3, "strength": 3, "stamina": 5},
        }
    },
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_the_same_encounters_as_through_the_procedure(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = system("intrigue").new_table(SETUPS[name])
    for seat in (None, "bob"):
        procedure, on_dice = both_ways(table, monkeypatch, runs=40, seed=5, seat=seat)
        assert on_dice.outcomes == procedure.outcomes
        assert on_dice.to_json() == procedure.to_json()


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_cut_short_at_every_step_of_the_first_rounds(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = system("intrigue").new_table(SETUPS[name])
    for max_steps in range(1, 9):
        procedure, on_dice = both_ways(table, monkeypatch, runs=8, seed=2, max_steps=max_steps)
        assert on_dice.outcomes == procedure.outcomes, max_steps
        assert on_dice.actions == procedure.actions


def test_the_example_the_same_and_played_on_the_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    data = load_file(EXAMPLE)
    table = system("intrigue").new_table(data["setup"])
    procedure, on_dice = both_ways(table, monkeypatch, runs=60, seed=0)
    assert on_dice.to_json() == procedure.to_json()
    acted: list[int] = []
    original = type(table).act
    monkeypatch.setattr(type(table), "act", lambda t, *a: acted.append(1) or original(t, *a))
    for runs in (5, 60):
        acted.clear()
        simulate(table, runs=runs, seed=0)
        assert len(acted) == 40  # reading the duel from the procedure: no encounter through it


def test_not_a_duel_through_the_procedure() -> None:
    table = system("intrigue").new_table(SETUPS["the starter strikes first every round"])
    conflict = conflict_of(table)
    assert conflict.played_alike is not None
    started = table.act(Action("ann", "start_combat", {"targets": ["bob"]}), RandomSource(0))
    assert conflict.played_alike(started, None) is None  # a combat under way
    alone = system("intrigue").new_table(
        {"characters": {"ann": duel((5, 6), (2, 2), (2, 1))["characters"]["ann"]}}
    )
    assert conflict.played_alike(alone, None) is None  # nobody to fight
    assert isinstance(conflict.played_alike(table, None), DuelOnDice)


def test_the_random_policy_through_the_procedure(monkeypatch: pytest.MonkeyPatch) -> None:
    table = system("intrigue").new_table(SETUPS["the starter strikes first every round"])
    played = []
    monkeypatch.setattr(DuelOnDice, "__call__", lambda *a: played.append(1))
    simulate(table, runs=3, seed=0, policy="random")
    assert played == []
