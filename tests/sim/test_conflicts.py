"""The simulation asks each game whether its conflict is over and who won (issue 26): the
table contract's ``procedure.conflict(state)``, never the state JSON by key. A game that says
otherwise is taken at its word."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.core import Result, Table, system
from referee.dice import RandomSource
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import POLICIES, play

BOB = {"dexterity": 2, "strength": 2, "weapon": 5, "stamina": 20,
       "skills": {"quickness": 2, "striking": 5, "defense": 6}}  # fmt: skip
RUNNER = {"bonuses": {"AB": 4, "BB": 3, "PB": 2}, "skills": {"Coordination": 50}}
CHASER = {"bonuses": {"AB": 3, "BB": 5, "PB": 4}, "skills": {"Coordination": 45}}

TABLES: dict[str, dict[str, Any]] = {
    "hursagmu": {"characters": {"bob": BOB, "fred": BOB}},
    "ginlane": {
        "characters": {
            "moll": {
                "side": "society",
                "weapon": "sword",
                "skills": {"Weapons": 2, "Agility": 1, "Alertness": 1},
            },
            "jack": {
                "side": "bravoes",
                "weapon": "sword",
                "skills": {"Weapons": 2, "Agility": 1, "Alertness": 1},
            },
        }
    },
    "zweihander": {"characters": {"runner": RUNNER, "chaser": CHASER}},
    "intrigue": {
        "characters": {
            "ann": {"name": "Ann", "number": 11, "combat": 2, "stamina": 5},
            "bob": {"name": "Bob", "number": 12, "combat": 2, "stamina": 6},
        }
    },
}


def told(game: str, result: Result) -> Table[Any]:
    """A table of ``game`` whose procedure answers ``result`` for every conflict once begun."""
    table = system(game).new_table(TABLES[game])
    procedure = table.procedure

    class Told(type(procedure)):  # type: ignore[misc]
        def conflict(self, state: Any) -> Result | None:
            return result if procedure.conflict(state) is not None else None

    return Table.start(Told(), table.setup, system=game)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_conflict_the_game_says_is_over_is_over_with_its_winner(game: str) -> None:
    winner = {"zweihander": "escapees"}.get(game, next(iter(TABLES[game]["characters"])))
    table = told(game, Result("told", True, (winner,)))
    outcome, steps, _ = play(
        table, conflict_of(table), POLICIES["default"], RandomSource(1), random.Random(1)
    )
    assert outcome.finished and steps == 0
    assert outcome.winner == winner


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_conflict_the_game_says_goes_on_is_never_finished(game: str) -> None:
    table = told(game, Result("told"))
    outcome, steps, _ = play(
        table, conflict_of(table), POLICIES["default"], RandomSource(1), random.Random(1),
        max_steps=40,
    )  # fmt: skip
    assert not outcome.finished and outcome.winner == "unfinished"
    assert steps > 0


def test_a_maneuver_is_over_once_the_game_says_one_has_ended_since_the_start() -> None:
    """Burning Kingdoms: a maneuver already over at the start does not count (the simulation
    plays the next); here the game calls the maneuver over, won by the orcs, at the first slip."""
    leader = {"name": "L", "lifepaths": 10, "skills": {"Fortifications": "B4"}, "resources": 3}
    factions = {f: {"disposition": 10, "leader": leader} for f in ("elves", "orcs")}
    setup = {"strict_sheets": False, "factions": factions}  # quick play: no 2iC or rivals
    table = system("kingdoms").new_table(setup)
    procedure = table.procedure

    class Told(type(procedure)):  # type: ignore[misc]
        def conflict(self, state: Any) -> Result | None:
            return Result(f"slips {len(state.slips)}", bool(state.slips), ("orcs",))

    table = Table.start(Told(), table.setup, system="kingdoms")
    outcome, steps, _ = play(
        table, conflict_of(table), POLICIES["default"], RandomSource(1), random.Random(1)
    )
    assert outcome.finished and steps == 1
    assert outcome.winner == "orcs"


def test_a_gin_lane_fight_already_over_is_answered_by_its_winner_with_no_initiative() -> None:
    """Gin Lane, "Initiative": rolled once a scene. A table whose fight is over and whose scene
    has not ended (the duel at the Crown, played to Jack Taken Out) is simulated as it stands,
    won by Moll's side every time, never with a second Initiative the rules refuse."""
    from pathlib import Path

    from referee.core.scenario import load_scenario, run_scenario

    duel = Path(__file__).parents[2] / "examples" / "ginlane" / "duel.yaml"
    table = run_scenario(load_scenario(duel)).table
    outcome, steps, refused = play(
        table, conflict_of(table), POLICIES["default"], RandomSource(1), random.Random(1)
    )
    assert (outcome.finished, outcome.winner, steps, refused) == (True, "society", 0, 0)
