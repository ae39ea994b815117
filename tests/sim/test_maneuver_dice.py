"""Burning Kingdoms' maneuver played on the dice gives the same encounters, outcome for outcome
and action for action, as the maneuver played through the procedure with the same seed
(``referee.systems.kingdoms.maneuver_dice``): every example from its start and from each
maneuver in its script — before the slips, and at the reveal with the example's own slips
(help, a Harry, a Conserve, an Ensnare, tied versus tests and their tie-breakers) — on fixed
and drawn seeds, and cut short at every step; a table that is not at such a maneuver goes
through the procedure."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import Action, Table, system
from referee.core.loader import load_file
from referee.core.policies import default_policy
from referee.core.simulation import conflict_of
from referee.dice import RandomSource, ScriptedSource
from referee.sim.simulate import play, simulate
from referee.systems.kingdoms.maneuver_dice import ManeuverOnDice, maneuver_on_dice
from tests.sim.procedure import both_ways, cut_alike

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kingdoms"


ROOTS = {stat: "B3" for stat in ("Will", "Perception", "Agility", "Power", "Forte", "Speed")}
"""Every root stat, for the sheets of the examples' factions "with every root": a tied versus
test can then be broken whatever the skills."""


def _with_every_root(setup: dict[str, Any]) -> dict[str, Any]:
    """``setup`` with :data:`ROOTS` on every leader's and 2iC's sheet."""
    factions = {
        fid: {
            **faction,
            **{
                who: {**faction[who], "stats": {**ROOTS, **faction[who].get("stats", {})}}
                for who in ("leader", "second")
                if who in faction
            },
        }
        for fid, faction in setup["factions"].items()
    }
    return {**setup, "factions": factions}


def _tables() -> dict[str, Table[Any]]:
    """Each example's table as set up, and, along its script, the table before each maneuver's
    first slip and just before each reveal (the example's own slips written and scenes played);
    the examples of four factions again with every root stat on their sheets."""
    found: dict[str, Table[Any]] = {}
    examples = [(path.stem, load_file(path)) for path in sorted(EXAMPLES.glob("*.yaml"))]
    examples += [
        (f"{stem} with every root", {**data, "setup": _with_every_root(data["setup"])})
        for stem, data in examples
        if stem in ("a-tied-conquest", "four-factions-every-maneuver")
    ]
    for stem, data in examples:
        table = system("kingdoms").new_table(data["setup"], players=data.get("players"))
        found[stem] = table
        dice = ScriptedSource(list(data.get("dice", {}).get("script", [])))
        for step in data.get("actions", []):
            kind, number = step["action"], table.state.maneuver
            if kind == "reveal":
                found[f"{stem}, maneuver {number} at the reveal"] = table
            elif kind == "write_slip" and not table.state.slips and number > 1:
                found[f"{stem}, maneuver {number} before the slips"] = table
            table = table.act(Action(step["actor"], kind, step.get("params", {})), dice)
    found[f"{HARRIED}, maneuver 2 at the reveal, an Ensnare for the Assault"] = _harried(
        dict(examples)[HARRIED]
    )
    return found


HARRIED = "four-factions-every-maneuver with every root"
ENSNARE = {"maneuver": "Ensnare", "skill": "Tactics", "target": "dwarves"}


def _harried(data: dict[str, Any]) -> Table[Any]:
    """The example's second maneuver at its reveal, the Elves' slip an Ensnare of the Dwarves
    in place of their Assault: the Dwarves' Harry meets it with its attack dice (the matrix's
    aV), so a tie there is broken on the attack dice."""
    table = system("kingdoms").new_table(data["setup"], players=data.get("players"))
    dice = ScriptedSource(list(data["dice"]["script"]))
    for step in data["actions"]:
        kind, params = step["action"], step.get("params", {})
        if table.state.maneuver == 2 and kind == "reveal":
            break
        if table.state.maneuver == 2 and kind == "write_slip" and step["actor"] == "elves":
            params = ENSNARE
        table = table.act(Action(step["actor"], kind, params), dice)
    return table


TABLES = _tables()
ON_DICE = sorted(name for name, table in TABLES.items() if maneuver_on_dice(table) is not None)


def test_the_tables_compared() -> None:
    """Every table but the one in its Prologue is a maneuver played on the dice: seven
    examples as set up (two of them with every root stat), five later maneuvers before their
    slips and thirteen at their reveal (one with an Ensnare against a Harry)."""
    assert sorted(set(TABLES) - set(ON_DICE)) == ["grannir-and-raddrim"]
    assert len(ON_DICE) == 7 + 5 + 13


@pytest.mark.parametrize("name", ON_DICE)
def test_the_same_encounters_as_through_the_procedure(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    procedure, on_dice = both_ways(TABLES[name], monkeypatch, runs=60, seed=5)
    assert on_dice.outcomes == procedure.outcomes
    assert on_dice.to_json() == procedure.to_json()
    assert on_dice.actions == procedure.actions


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(name=st.sampled_from(ON_DICE), seed=st.integers(0, 2**32 - 1))
def test_drawn_seeds_the_same(name: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    procedure, on_dice = both_ways(TABLES[name], monkeypatch, runs=12, seed=seed)
    assert on_dice.to_json() == procedure.to_json()
    assert on_dice.outcomes == procedure.outcomes


@pytest.mark.parametrize("name", ON_DICE)
def test_cut_short_at_every_step(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cut_alike(TABLES[name], monkeypatch, most=12, runs=6)


def _tie_breaks(table: Table[Any], runs: int) -> Counter[int]:
    """How many encounters (of ``runs`` through the procedure, default policy) took each number
    of ``tie_break`` actions; every roll waiting kept, once, in each."""
    taken: list[Counter[str]] = []
    dice, conflict = RandomSource(5), conflict_of(table)
    for _ in range(runs):
        taken.append(Counter())
        check = lambda a, c: taken[-1].update([a.kind])  # noqa: E731
        play(table, conflict, default_policy, dice, random.Random(0), check=check)
    assert all(kinds["keep"] == len(_waiting(table)) for kinds in taken)
    return Counter(kinds["tie_break"] for kinds in taken)


def _waiting(table: Table[Any]) -> set[str]:
    """The factions whose roll waits to be kept after the reveal (Fate or Deeds left)."""
    alike = maneuver_on_dice(table)
    assert alike is not None
    return {f for f, t in alike.rolled.rolls.items() if not t.decided}


def test_the_comparisons_see_keeps_tie_breakers_and_every_outcome() -> None:
    """What the comparisons above cover: rolls kept; tie-breakers agreed to and rolled — a tie
    broken (two offers), on a Harry's attack dice too, a tie rolled again (four or more), a
    faction tied with two others agreeing with one while the other's offer waits (an odd
    number); each faction winning the maneuver, and a tie."""
    kept = TABLES["artha-and-the-tie-breaker, maneuver 1 at the reveal"]
    assert _waiting(kept) == {"elves"}
    assert _tie_breaks(kept, 60)[2] > 0
    harried = TABLES[f"{HARRIED}, maneuver 2 at the reveal, an Ensnare for the Assault"]
    assert {s.maneuver for s in harried.state.slips.values()} >= {"Harry", "Ensnare"}
    assert _tie_breaks(harried, 60)[2] > 0
    tangled = _tie_breaks(
        TABLES["four-factions-every-maneuver with every root, maneuver 1 at the reveal"], 60
    )
    assert tangled[2] and any(n >= 4 for n in tangled) and any(n % 2 for n in tangled)
    winners: set[str] = set()
    for name in ON_DICE:
        winners |= set(simulate(TABLES[name], runs=60, seed=5).wins)
    assert {"tie", "elves", "spiders", "orcs", "dwarves"} <= winners


def test_the_examples_played_on_the_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    table = TABLES["sap-against-logistics"]
    acted: list[str] = []
    original = type(table).act
    monkeypatch.setattr(
        type(table), "act", lambda t, a, *r: acted.append(a.kind) or original(t, a, *r)
    )
    simulate(table, runs=30, seed=0)
    # the slips and passes once, the reveal once on 1s: no encounter through the procedure
    assert Counter(acted) == {"write_slip": 3, "pass": 3, "reveal": 1}


def test_not_such_a_maneuver_through_the_procedure() -> None:
    assert maneuver_on_dice(TABLES["grannir-and-raddrim"]) is None  # the Prologue
    at_the_reveal = TABLES["sap-against-logistics, maneuver 1 at the reveal"]
    assert isinstance(maneuver_on_dice(at_the_reveal), ManeuverOnDice)
    reader = at_the_reveal.state.seats[0]
    rolled = at_the_reveal.act(Action(reader, "reveal", {}), RandomSource(0))
    assert maneuver_on_dice(rolled) is None  # the slips read already


def test_the_random_policy_through_the_procedure(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    monkeypatch.setattr(ManeuverOnDice, "__call__", lambda *a: played.append(1))
    simulate(TABLES["sap-against-logistics"], runs=3, seed=0, policy="random")
    assert played == []
