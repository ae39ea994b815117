"""The default policy's opening (``referee.sim.simulate.opening_of``): the steps every encounter
from the same table takes before its first die, played once and shared by every encounter —
the same encounters, outcome for outcome and step for step, as playing each from the start."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.core import Table, system
from referee.core.loader import load_file
from referee.core.simulation import conflict_of
from referee.dice import RandomSource
from referee.sim.simulate import MAX_STEPS, Opening, default_policy, opening_of, play, simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

OPENED = [
    "kingdoms/a-tied-conquest",
    "kingdoms/artha-and-the-tie-breaker",
    "kingdoms/four-factions-every-maneuver",
    "kingdoms/joint-conquest-of-the-dwarves",
    "kingdoms/sap-against-logistics",
    "zweihander/journey",
]
"""Examples whose encounters begin with steps that draw no die (slips written and scenes
passed; a Complex Exchange begun, here ended by the GM at once: no die at all)."""


def _table(name: str) -> Table[Any]:
    data = load_file(EXAMPLES / f"{name}.yaml")
    return system(data["system"]).new_table(data["setup"], players=data.get("players"))


def _opening(table: Table[Any]) -> Opening:
    found = opening_of(table, conflict_of(table), None, MAX_STEPS)
    assert found is not None
    return found


def _encounters(table: Table[Any], opening: Opening | None, seed: int) -> list[Any]:
    conflict, dice, rng = conflict_of(table), RandomSource(seed), random.Random(seed)
    return [play(table, conflict, default_policy, dice, rng, opening=opening) for _ in range(25)]


@pytest.mark.parametrize("name", OPENED)
def test_encounters_from_the_opening_are_those_from_the_start(name: str) -> None:
    table = _table(name)
    opening = _opening(table)
    assert opening.steps >= 1
    for seed in (0, 3):
        assert _encounters(table, opening, seed) == _encounters(table, None, seed)


@pytest.mark.parametrize("name", [n for n in OPENED if n.startswith("kingdoms/")])
def test_the_opening_stops_before_the_first_die(name: str) -> None:
    table = _table(name)
    opening = _opening(table)
    taken = [
        opening.table.actions[i] for i in range(len(table.actions), len(opening.table.actions))
    ]
    assert len(taken) >= opening.steps  # and the conflict's beginning, not counted as a step
    assert all(record.dice == () for record in taken)
    conflict = conflict_of(opening.table)
    choices = [c for a in conflict.movers(opening.table) for c in opening.table.legal_actions(a)]
    action = default_policy(
        opening.table, conflict, [c for c in choices if c.kind in conflict.kinds], random.Random(0)
    )
    after = opening.table.act(action, RandomSource(0))
    assert after.actions[-1].dice  # the next step rolls


def _counting_acts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list counting every ``Table.act`` from now on."""
    acts = [0]
    act = Table.act

    def counted(self: Table[Any], *args: Any, **kwargs: Any) -> Table[Any]:
        acts[0] += 1
        return act(self, *args, **kwargs)

    monkeypatch.setattr(Table, "act", counted)
    return acts


def test_the_opening_is_played_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table("kingdoms/a-tied-conquest")  # 8 slips and passes, then 2 steps that roll
    acts = _counting_acts(monkeypatch)
    report = simulate(table, runs=20, seed=0)
    assert report.actions == 20 * 10
    assert acts[0] <= 8 + 1 + 20 * 2  # without the opening: 200


def test_the_random_policy_plays_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table("kingdoms/a-tied-conquest")
    acts = _counting_acts(monkeypatch)
    report = simulate(table, runs=5, seed=0, policy="random")
    assert acts[0] >= report.actions
