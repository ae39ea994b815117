"""The default player's step in a chase read from the ladder (``simulation.chase_step``): the
action the default policy takes of every choice listed, at every state a chase reaches, and the
same simulated chases with it as without it, listing the choices only where it says nothing."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.core import Table, system
from referee.core.loader import load_file
from referee.core.policies import default_policy, legal_choices, random_policy
from referee.dice import RandomSource
from referee.sim.simulate import play
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.character import SLAIN
from referee.systems.zweihander.simulation import CHASE, chase_step
from tests.sim.procedure import simulate_through_the_procedure

from .helpers import _incapacitated
from .test_chase import CHASER, RUNNER

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
CHASES = ("chase-takedown", "complex-exchange")


def _table(name: str) -> Table[Any]:
    data = load_file(EXAMPLES / "zweihander" / f"{name}.yaml")
    return system("zweihander").new_table(data["setup"])


def _three() -> Table[Any]:
    """Two pursuers after one runner: two may catch up in one Round."""
    chars = {"runner": RUNNER, "chaser": CHASER, "hound": CHASER}
    return system("zweihander").new_table({"characters": chars})


def _states(table: Table[Any], seed: int, runs: int) -> list[Table[Any]]:
    """Every table reached in ``runs`` chases of the random player (which wanders: Actions,
    attacks, Takedowns not taken) and as many of the default one."""
    dice, rng = RandomSource(seed), random.Random(seed)
    seen = []
    for n in range(2 * runs):
        t = table
        for action in CHASE.begin(t, None):
            t = t.act(action, dice)
        for _ in range(60):
            if CHASE.is_over(table, t):
                break
            choices = legal_choices(t, CHASE)
            if not choices:
                break
            seen.append(t)
            chooser = random_policy if n % 2 else default_policy
            try:
                t = t.act(chooser(t, CHASE, choices, rng), dice)
            except Exception:
                break
    return seen


@pytest.mark.parametrize("make", [lambda: _table(CHASES[0]), lambda: _table(CHASES[1]), _three])
def test_the_step_read_is_the_one_the_default_player_takes(make: Any) -> None:
    read = 0
    states = _states(make(), seed=5, runs=30)
    for t in states:
        step = chase_step(t)
        if step is None:
            continue
        read += 1
        assert step == default_policy(t, CHASE, legal_choices(t, CHASE), random.Random(0))
    assert read >= 0.9 * len(states) > 100


def _slain(state: Any, who: str) -> Any:
    return state.with_character(replace(state.character(who), damage=SLAIN))


@pytest.mark.parametrize("fallen", [_incapacitated, _slain])
def test_one_who_cannot_act_is_read_as_the_choices_list_them(fallen: Any) -> None:
    """A participant Incapacitated! or Slain! in the chase has no choices: no Takedown, no
    move (the table as it stands: the game marks the chase's statuses at its own steps)."""
    compared = 0
    for t in _states(_three(), seed=5, runs=6):
        for who in ("runner", "chaser", "hound"):
            down = replace(t, state=fallen(t.state, who))
            choices = legal_choices(down, CHASE)
            step = chase_step(down)
            if step is not None and choices:
                compared += 1
                assert step == default_policy(down, CHASE, choices, random.Random(0))
    assert compared > 50


@pytest.mark.parametrize("name", CHASES)
def test_chases_read_from_the_ladder_are_the_chases_listed(name: str) -> None:
    table = _table(name)
    for seed in (0, 2):
        with_step, listed = [], []
        for read, out in ((chase_step, with_step), (None, listed)):
            dice, rng = RandomSource(seed), random.Random(seed)
            for _ in range(40):
                out.append(play(table, CHASE, default_policy, dice, rng, read=read))
        assert with_step == listed


def test_a_simulated_chase_lists_few_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = 0
    listed = type(PROCEDURE).legal_actions

    def counted(self: Any, state: Any, actor: str) -> Any:
        nonlocal asked
        asked += 1
        return listed(self, state, actor)

    monkeypatch.setattr(type(PROCEDURE), "legal_actions", counted)
    report = simulate_through_the_procedure(_table("chase-takedown"), runs=20, seed=4)
    assert report.actions > 100
    assert asked <= 20 * 2  # listing every step: some 2.6 askings an action
