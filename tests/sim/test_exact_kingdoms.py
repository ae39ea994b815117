"""The exact Burning Kingdoms maneuver against brute-force enumeration through the real procedure.

The brute force reveals the slips with every face of every die the reveal rolls (6ⁿ scripted
reveals, each resolved by the game's own procedure), each equally likely, and counts what each
faction's disposition does: no roll card, no odds, no success read — so it checks the model's
pools, its forced successes and its convolution at once. Then the seeded simulation's
estimates must hold the exact answer within their 95% intervals.
"""

from __future__ import annotations

import copy
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.core import Action, Table, system
from referee.dice import DiceSourceError, ScriptedSource
from referee.sim.conflicts import CONFLICTS
from referee.sim.simulate import simulate
from referee.systems.kingdoms.exact import ManeuverError, maneuver_odds

EXAMPLE = Path(__file__).parents[2] / "examples" / "kingdoms" / "sap-against-logistics.yaml"


def sap_table(orcs: str, elves: str, dwarves: str, forks: bool = False) -> Table[Any]:
    """The "Sap" example with its slips written and its scenes passed, skills as given."""
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    setup = copy.deepcopy(data["setup"])
    leaders = {f: setup["factions"][f]["leader"] for f in ("orcs", "elves", "dwarves")}
    leaders["orcs"]["skills"].update({"Tree Cutting/Pulling": orcs})
    leaders["elves"]["skills"].update({"Logistics": elves})
    leaders["dwarves"]["skills"].update({"Fortifications": dwarves})
    setup["factions"]["elves"]["disposition"] = 11  # below the cap: a Fortify can add to it
    table = system("kingdoms").new_table(setup)
    for step in data["actions"][:7]:
        params = dict(step.get("params", {}))
        if step["action"] == "write_slip" and not forks:
            params.pop("forks", None)
        table = table.act(Action(step["actor"], step["action"], params), None)
    return table


def brute_force(table: Table[Any]) -> tuple[dict[str, Fraction], dict[str, Counter[int]]]:
    """Every face of every die of the reveal, through the procedure: (winners, changes)."""
    conflict = CONFLICTS["kingdoms"]
    reveal = Action("orcs", "reveal", {})
    dice = 0
    while True:  # how many dice the reveal rolls: the fewest faces it does not run out of
        try:
            table.act(reveal, ScriptedSource([1] * dice))
            break
        except DiceSourceError:
            dice += 1
    winners: Counter[str] = Counter()
    changes: dict[str, Counter[int]] = {}
    for faces in product(range(1, 7), repeat=dice):
        after = table.act(reveal, ScriptedSource(list(faces)))
        after = after.act(Action("orcs", "resolve", {}), None)
        outcome = conflict.outcome(table, after)
        winners[outcome.winner] += 1
        for key, value in outcome.extra.items():
            changes.setdefault(key.removeprefix("change:"), Counter())[value] += 1
    total = 6**dice
    return {k: Fraction(v, total) for k, v in winners.items()}, {
        f: Counter({d: n for d, n in c.items()}) for f, c in changes.items()
    }


@pytest.mark.parametrize(("orcs", "elves", "dwarves"), [("B2", "B1", "B1"), ("W2", "B1", "G1")])
def test_the_maneuver_is_exactly_the_enumeration_of_every_face(
    orcs: str, elves: str, dwarves: str
) -> None:
    table = sap_table(orcs, elves, dwarves)
    odds = maneuver_odds(table)
    winners, changes = brute_force(table)
    assert dict(odds.winners) == winners
    total = sum(next(iter(changes.values())).values())
    for faction, counts in changes.items():
        assert dict(odds.changes[faction]) == {d: Fraction(n, total) for d, n in counts.items()}
    # the case decides something: the Sap can fail, or take the elves' disposition
    assert any(len(counts) > 1 for counts in changes.values())


def test_a_full_sized_maneuver_is_a_convolution_not_a_tree() -> None:
    table = sap_table("B6", "B6", "B5", forks=True)
    odds = maneuver_odds(table)
    assert [p.dice for p in odds.pools] == [8, 6, 5]
    assert odds.resolutions == 9 * 7 * 6  # each vector of successes resolved once
    assert sum(odds.winners.values()) == 1
    for dist in odds.changes.values():
        assert sum(dist.values()) == 1
    with pytest.raises(ManeuverError, match="more than the limit"):
        maneuver_odds(table, limit=100)


def test_a_maneuver_too_large_for_the_time_given_is_refused_before_it_is_resolved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """378 resolutions at 5 ms each are some 2 s: given 1 s, the maneuver is refused once they
    are counted — the steps to the reveal and one probe of it, no resolution (counted, not
    timed: past ``bound`` procedure steps the test stops the model)."""
    table = sap_table("B6", "B6", "B5", forks=True)
    bound = 40
    steps = []
    act = Table.act

    def counted(self: Table[Any], *args: Any, **kwargs: Any) -> Table[Any]:
        steps.append(1)
        assert len(steps) <= bound, f"more than {bound} procedure steps before deciding"
        return act(self, *args, **kwargs)

    monkeypatch.setattr(Table, "act", counted)
    with pytest.raises(ManeuverError, match=r"378 ways .* more than the 1 s given: too large"):
        maneuver_odds(table, time_limit=1)
    assert len(steps) <= bound


def test_the_simulation_agrees_within_its_intervals() -> None:
    table = sap_table("B4", "B3", "B3")
    odds = maneuver_odds(table)
    report = simulate(table, runs=400, seed=3)
    assert report.unfinished == 0
    for winner, p in odds.winners.items():
        assert report.win_rates[winner].contains(float(p)), (winner, report.win_rates, p)
    for faction in odds.changes:
        estimate = report.extra[f"change:{faction}"]
        expected = float(odds.expected_change(faction))
        assert estimate.low - 1e-9 <= expected <= estimate.high + 1e-9, (faction, estimate)


def test_other_games_and_unplayable_tables_are_refused() -> None:
    setup = {"characters": {"ann": {"name": "Ann", "number": 11, "combat": 1, "strength": 1,
                                    "stamina": 3}}}  # fmt: skip
    with pytest.raises(ManeuverError, match="not intrigue"):
        maneuver_odds(system("intrigue").new_table(setup))
