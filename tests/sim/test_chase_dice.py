"""Zweihänder's chase played on the dice gives the same encounters, outcome for outcome and
action for action, as the chase played through the procedure with the same seed
(``referee.systems.zweihander.chase_dice``): both examples, setups that tie on the ladder, catch
up at once, tire from the first Round, ignore Skill Ranks under Peril and exhaust a side,
whoever flees, cut short at every step of the first Rounds; a table that is not at the start of
such a chase goes through the procedure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core import REFEREE, Action, Table, system
from referee.core.loader import load_file
from referee.core.simulation import conflict_of
from referee.dice import RandomSource
from referee.sim.simulate import simulate
from referee.systems.zweihander.chase_dice import ChaseOnDice
from referee.systems.zweihander.simulation import EXCHANGE
from tests.sim.procedure import both_ways, cut_alike

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "zweihander"


def _runner(ab: int, bb: int, coordination: int, toughness: int, **more: Any) -> dict[str, Any]:
    return {
        "bonuses": {"AB": ab, "BB": bb, "PB": more.pop("pb", 3), "WB": more.pop("wb", 3)},
        "skills": {"Coordination": coordination, "Toughness": toughness},
        **more,
    }


def _example(name: str) -> tuple[dict[str, Any], Any]:
    data = load_file(EXAMPLES / f"{name}.yaml")
    return data["setup"], data.get("players")


SETUPS: dict[str, tuple[dict[str, Any], Any]] = {
    "the cutpurse and the watch": _example("chase-takedown"),
    "the magistrate's four": _example("complex-exchange"),
    "twins: ties on the ladder and in Value": (
        {"characters": {n: _runner(3, 3, 45, 45) for n in ("ann", "bob", "cid")}},
        None,
    ),
    "fast pursuers catch up at once, again and again": (
        {
            "characters": {
                "hare": _runner(0, 9, 60, 50),
                "hound": _runner(6, 9, 30, 50),
                "wolf": _runner(5, 9, 35, 50, pb=9),
            }
        },
        None,
    ),
    "tired from the first Round: exhausted, either side": (
        {
            "characters": {
                "ann": _runner(3, 0, 40, 5, wb=0),
                "bob": _runner(3, 0, 40, 10, wb=0),
                "cid": _runner(2, 1, 40, 30, wb=0),
            }
        },
        None,
    ),
    "Skill Ranks ignored under Peril": (
        {
            "characters": {
                "ann": _runner(
                    3, 1, 60, 60, peril=2, ranks={"Coordination": 3, "Toughness": 2}, wb=1
                ),
                "bob": _runner(3, 1, 60, 55, peril=1, ranks={"Coordination": 2, "Toughness": 3}),
            }
        },
        None,
    ),
    "criticals: a sure-footed escapee, clumsy pursuers": (
        {
            "characters": {
                "eel": _runner(5, 2, 99, 20),
                "oaf": _runner(4, 2, 1, 20),
                "lout": _runner(4, 2, 12, 20, pb=1),
            }
        },
        None,
    ),
    "five in the chase": (
        {
            "characters": {
                f"p{i}": _runner(1 + i, i % 3, 30 + 10 * i, 20 + 5 * i, pb=i) for i in range(5)
            }
        },
        None,
    ),
}


def _table(name: str) -> Table[Any]:
    setup, players = SETUPS[name]
    return system("zweihander").new_table(setup, players=players)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_the_same_encounters_as_through_the_procedure(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(name)
    people = [c.id for c in table.state.characters]
    for seat in (None, people[-1]):
        procedure, on_dice = both_ways(table, monkeypatch, runs=60, seed=5, seat=seat)
        assert on_dice.outcomes == procedure.outcomes, seat
        assert on_dice.to_json() == procedure.to_json()


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_cut_short_at_every_step_of_the_first_rounds(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut_alike(_table(name), monkeypatch, most=12, runs=10)


def test_the_setups_reach_every_ending(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the comparisons above cover: both sides winning, Takedowns, fatigue's Peril, a
    side exhausted, the three Rounds played out."""
    outcomes = [o for name in SETUPS for o in simulate(_table(name), runs=60, seed=5).outcomes]
    assert {o.winner for o in outcomes} == {"escapees", "pursuers"}
    assert any(o.extra["taken_down"] for o in outcomes)
    assert any(sum(o.damage.values()) for o in outcomes)
    assert {o.rounds for o in outcomes} >= {1, 2, 3}
    tired = simulate(_table("tired from the first Round: exhausted, either side"), runs=60)
    assert {o.winner for o in tired.outcomes} == {"escapees", "pursuers"}
    assert any(max(o.damage.values()) >= 5 for o in tired.outcomes)  # Incapacitated!


@pytest.mark.parametrize("name", ["the cutpurse and the watch", "the magistrate's four"])
def test_the_examples_played_on_the_dice(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(name)
    acted: list[int] = []
    original = type(table).act
    monkeypatch.setattr(
        type(table), "act", lambda t, *a, **k: acted.append(1) or original(t, *a, **k)
    )
    for runs in (5, 60):
        acted.clear()
        report = simulate(table, runs=runs, seed=0)
        assert report.actions > 3 * runs
        assert len(acted) <= 2  # whether the game accepts the start: no encounter through it


def test_not_at_the_start_of_the_chase_through_the_procedure() -> None:
    table = _table("the cutpurse and the watch")
    conflict = conflict_of(table)
    assert conflict.played_alike is not None
    assert isinstance(conflict.played_alike(table, None), ChaseOnDice)
    start = conflict.begin(table, None)[0]
    under_way = table.act(start, RandomSource(0))
    assert conflict.played_alike(under_way, None) is None  # a chase under way
    ended = under_way.act(Action(REFEREE, "chase.give_up", {"side": "pursuers"}), RandomSource(0))
    assert isinstance(conflict.played_alike(ended, None), ChaseOnDice)  # a new chase
    talk = _table("the magistrate's four")
    started = talk.act(EXCHANGE.begin(talk, None)[0], RandomSource(0))
    assert conflict.played_alike(started, None) is None  # a Complex Exchange under way
    alone = system("zweihander").new_table({"characters": {"ann": _runner(3, 3, 40, 40)}})
    assert conflict.played_alike(alone, None) is None  # nobody to chase
    clumsy = {"ann": _runner(3, 3, 40, 40), "bob": {"bonuses": {"AB": 3}}}
    no_coordination = system("zweihander").new_table({"characters": clumsy})
    assert conflict.played_alike(no_coordination, None) is None  # the game refuses the start


def test_the_random_policy_through_the_procedure(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table("the cutpurse and the watch")
    played: list[int] = []
    monkeypatch.setattr(ChaseOnDice, "__call__", lambda *a: played.append(1))
    report = simulate(table, runs=3, seed=0, policy="random")
    assert played == [] and report.actions > 0
