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
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path
from random import Random
from typing import Any

import pytest
import yaml

from referee.core import Action, Table, system
from referee.core.policies import default_policy
from referee.dice import DiceSourceError, ScriptedSource
from referee.sim.answer import exact_answer
from referee.sim.conflicts import CONFLICTS
from referee.sim.simulate import play, simulate
from referee.systems.kingdoms import exact
from referee.systems.kingdoms.exact import ManeuverError, maneuver_odds
from referee.systems.kingdoms.simulation import MANEUVER

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
        # the damage a faction takes is the disposition it loses
        assert report.damage[faction].value == -estimate.value
    assert report.rounds_seen == {1: 400}  # a maneuver is one round


def test_other_games_and_unplayable_tables_are_refused() -> None:
    setup = {"characters": {"ann": {"name": "Ann", "number": 11, "combat": 1, "strength": 1,
                                    "stamina": 3}}}  # fmt: skip
    with pytest.raises(ManeuverError, match="not intrigue"):
        maneuver_odds(system("intrigue").new_table(setup))


def test_the_answer_gives_every_chance_as_a_fraction_and_a_float_in_a_set_order() -> None:
    """The exact answer the simulator shows beside its estimates (``referee simulate --json``,
    the web table): each chance as a fraction string and a float, factions and counts sorted,
    the pools in the order the reveal rolls them; a maneuver is one round."""
    table = sap_table("B2", "B1", "B1")

    def both(exact: str) -> dict[str, Any]:
        return {"exact": exact, "value": float(Fraction(exact))}

    assert maneuver_odds(table, limit=12).resolutions == 12  # 12 ways: within a limit of 12
    just_enough = 12 * exact.SECONDS_PER_RESOLUTION  # the time 12 resolutions are given
    assert maneuver_odds(table, time_limit=just_enough).resolutions == 12
    data = exact_answer(table)
    assert data == {
        "exact": True,
        "model": "kingdoms maneuver",
        "wins": {"tie": both("1")},
        "changes": {
            "dwarves": {"0": both("1")},
            "elves": {"-1": both("1/4"), "0": both("3/4")},
            "orcs": {"0": both("1")},
        },
        "expected_change": {"dwarves": both("0"), "elves": both("-1/4"), "orcs": both("0")},
        "pools": [
            {
                "label": "the Orcs' Sap with Tree Cutting/Pulling",
                "dice": 2,
                "successes": {"0": both("1/4"), "1": both("1/2"), "2": both("1/4")},
            },
            {
                "label": "the Elves' Assess with Logistics",
                "dice": 1,
                "successes": {"0": both("1/2"), "1": both("1/2")},
            },
            {
                "label": "the Dwarves' Fortify with Fortifications",
                "dice": 1,
                "successes": {"0": both("1/2"), "1": both("1/2")},
            },
        ],
        "resolutions": 12,
        "expected_rounds": both("1"),
    }
    assert list(data["changes"]) == ["dwarves", "elves", "orcs"]  # the factions sorted
    assert list(data["changes"]["elves"]) == ["-1", "0"]  # the changes sorted
    assert list(data["expected_change"]) == ["dwarves", "elves", "orcs"]
    # the time given to the model is its own: 12 resolutions at 5 ms are more than 1 ms
    model = CONFLICTS["kingdoms"].exact
    assert model is not None
    with pytest.raises(ManeuverError) as refused:
        model(table, None, 0.001)
    assert str(refused.value).startswith(
        "Whole-encounter odds (Burning Kingdoms maneuver): 12 ways the pools can fall"
    )
    assert "more than the 0.001 s given" in str(refused.value)


def test_a_maneuver_the_game_never_ends_after_its_reveal_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once nothing is left to play and the maneuver is still not over, the model says so
    rather than answer (here the game is made never to call its maneuver over)."""
    never_over = replace(MANEUVER, is_over=lambda start, table: False)
    monkeypatch.setattr(exact, "MANEUVER", never_over)
    with pytest.raises(ManeuverError, match="the maneuver does not end after its reveal"):
        maneuver_odds(sap_table("B2", "B1", "B1"))


def test_a_harrys_defence_and_attack_dice_are_two_pools_and_its_attack_takes_disposition() -> None:
    """The orcs Harry the elves (Tactics B4, 2 dice to defence) where the example Saps them:
    the reveal rolls the Harry's two parts apart, so the model weighs both pools, and each
    attack success takes one of the elves' disposition."""
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    setup = copy.deepcopy(data["setup"])
    setup["factions"]["orcs"]["leader"]["skills"].update({"Tactics": "B4"})
    setup["factions"]["elves"]["leader"]["skills"].update({"Logistics": "B1"})
    setup["factions"]["dwarves"]["leader"]["skills"].update({"Fortifications": "B1"})
    table = system("kingdoms").new_table(setup)
    harry = {"maneuver": "Harry", "skill": "Tactics", "target": "elves", "defence": 2}
    steps = [{"actor": "orcs", "action": "write_slip", "params": harry}, *data["actions"][1:7]]
    for step in steps:
        table = table.act(Action(step["actor"], step["action"], dict(step.get("params", {}))), None)
    odds = maneuver_odds(table)
    assert [(p.label, p.dice) for p in odds.pools] == [
        ("the Orcs' Harry with Tactics: defence dice", 2),
        ("the Orcs' Harry with Tactics: attack dice", 2),
        ("the Elves' Assess with Logistics", 1),
        ("the Dwarves' Fortify with Fortifications", 1),
    ]
    attack = odds.pools[1].successes
    assert dict(odds.changes["elves"]) == {-k: p for k, p in attack.items()}
    assert odds.resolutions == 3 * 3 * 2 * 2


def test_a_later_maneuvers_odds_are_of_its_own_reveal_alone() -> None:
    """The example played on to its second maneuver (the elves Sapped of every die): the
    model reads the pools of that maneuver's reveal, not the first maneuver's rolls."""
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    table = system("kingdoms").new_table(data["setup"])
    dice = ScriptedSource(data["dice"]["script"])
    for step in data["actions"][:11]:  # up to the dwarves' next_maneuver
        table = table.act(Action(step["actor"], step["action"], dict(step.get("params", {}))), dice)
    assert table.state.maneuver == 2
    odds = maneuver_odds(table)
    assert [(p.label, p.dice) for p in odds.pools] == [
        ("the Elves' Fortify with Logistics", 0),
        ("the Dwarves' Fortify with Fortifications", 5),
    ]
    assert sum(odds.winners.values()) == 1


@pytest.mark.parametrize("sapped", [0, 2])
def test_an_open_ended_pool_is_refused_even_one_sapped_of_every_die(sapped: int) -> None:
    """A 6 of an open-ended pool adds a die: its successes are unbounded, and the model leaves
    such a maneuver to the simulation — the elves' Assess with Logistics B2 open-ended, as
    rolled and Sapped 2 (no die rolled, the pool still open-ended)."""
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    setup = copy.deepcopy(data["setup"])
    logistics = {"shade": "B", "exponent": 2, "open_ended": True}
    setup["factions"]["elves"]["leader"]["skills"]["Logistics"] = logistics
    setup["factions"]["elves"]["sapped"] = sapped
    table = system("kingdoms").new_table(setup)
    for step in data["actions"][:7]:
        table = table.act(Action(step["actor"], step["action"], dict(step.get("params", {}))), None)
    with pytest.raises(ManeuverError, match='"the Elves\' Assess with Logistics" is'):
        maneuver_odds(table)


def test_the_maneuver_simulated_is_the_next_not_the_one_already_over() -> None:
    """A table between maneuvers (the example's first resolved) waits for the next: the
    maneuver over at the start is not the one simulated; the next, once resolved, is over."""
    conflict = CONFLICTS["kingdoms"]
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    table = system("kingdoms").new_table(data["setup"])
    dice = ScriptedSource(data["dice"]["script"])
    tables = [table]
    for step in data["actions"]:
        table = table.act(Action(step["actor"], step["action"], dict(step.get("params", {}))), dice)
        tables.append(table)
    first, resolved, second = tables[0], tables[9], table.act(Action("orcs", "resolve", {}), None)
    assert conflict.is_over(first, resolved)
    assert not conflict.is_over(resolved, resolved)
    assert not conflict.is_over(resolved, table)  # the second maneuver's slips, rolled
    assert conflict.is_over(resolved, second)


def test_a_chronicle_still_in_its_prologue_plays_no_maneuver() -> None:
    """In the Prologue no maneuver is under way: every simulated run ends unfinished."""
    setup = {**yaml.safe_load(EXAMPLE.read_text("utf-8"))["setup"], "prologue": True}
    table = system("kingdoms").new_table(setup)
    report = simulate(table, runs=2, seed=1)
    assert (report.unfinished, dict(report.wins)) == (2, {"unfinished": 2})


TIE_EXAMPLE = EXAMPLE.parent / "artha-and-the-tie-breaker.yaml"


def test_the_simulated_factions_keep_their_rolls_then_break_each_tie_in_turn() -> None:
    """The simulation's sensible faction keeps every roll, then takes the tie-breaker of each
    tied versus test ("Independent and Versus Maneuvers": both sides agree, each testing a
    root of the skill it used), a faction that has agreed waiting for the others to answer
    before it offers again; only then is the maneuver resolved. The elves Fortify; the orcs and
    the dwarves Infiltrate them, 2 successes each against the elves' 2: two ties."""
    data = yaml.safe_load(TIE_EXAMPLE.read_text("utf-8"))
    setup = copy.deepcopy(data["setup"])
    setup["strict_sheets"] = False
    dwarves = copy.deepcopy(setup["factions"]["orcs"])
    dwarves["leader"].update(name="Grannir", relationships=[])
    dwarves["second"]["name"] = "Raddrim"
    setup["factions"]["dwarves"] = dwarves
    table = system("kingdoms").new_table(setup)
    fortify = {"maneuver": "Fortify", "skill": "Logistics"}
    table = table.act(Action("elves", "write_slip", fortify), None)
    for f in ("orcs", "dwarves"):
        infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
        table = table.act(Action(f, "write_slip", infiltrate), None)
    for f in ("orcs", "dwarves"):
        table = table.act(Action(f, "scene", {"kind": "conflict", "target": "elves"}), None)
    taken: list[tuple[str, str, str]] = []

    def check(action: Action, choices: Any) -> None:
        taken.append((action.actor, action.kind, str(action.params.get("opponent", ""))))

    reveal = [4, 4, 1, 1] + [4, 4, 1, 1, 1] * 2
    tie_breaks = [*[4, 1, 1], *[1, 1, 1, 1], *[1, 1, 1, 1], *[4, 1, 1]]  # each Infiltrate wins
    faces = reveal + tie_breaks
    play(table, MANEUVER, default_policy, ScriptedSource(faces), Random(0), check=check)
    assert taken == [
        ("elves", "pass", ""),
        ("orcs", "pass", ""),
        ("dwarves", "pass", ""),
        ("elves", "reveal", ""),
        ("elves", "keep", ""),
        ("elves", "tie_break", "dwarves"),
        ("orcs", "tie_break", "elves"),
        ("dwarves", "tie_break", "elves"),  # both sides agreed: rolled
        ("elves", "tie_break", "orcs"),  # the orcs agreed first: rolled
        ("elves", "resolve", ""),
    ]


def test_factions_each_waiting_on_another_tie_break_leave_the_ties_to_the_resolution() -> None:
    """Three Assesses in a ring, each tied (1 success against 1), and each faction has agreed
    to break its tie with the next ("both sides agree"): none answers, as each waits for its
    own offer to be answered. The simulated factions offer nothing more while their offers
    stand, so the reader resolves the maneuver with the ties as they are."""
    leader = {"lifepaths": 5, "stats": {"Will": "B4", "Perception": "B2"}, "circles": 3}
    leader["skills"] = {"Logistics": "B2"}
    factions = {f: {"disposition": 10, "leader": {**leader, "name": f}} for f in ("E", "O", "D")}
    table = system("kingdoms").new_table({"strict_sheets": False, "factions": factions})
    ring = (("E", "O"), ("O", "D"), ("D", "E"))
    for f, target in ring:
        assess = {"maneuver": "Assess", "skill": "Logistics", "target": target}
        table = table.act(Action(f, "write_slip", assess), None)
    for f, _ in ring:
        table = table.act(Action(f, "pass", {}), None)
    table = table.act(Action("E", "reveal", {}), ScriptedSource([4, 1] * 3))
    for f, target in ring:
        table = table.act(Action(f, "keep", {}), None)
        table = table.act(Action(f, "tie_break", {"opponent": target, "root": "Perception"}), None)
    for f, target in ring:  # each still has its other tie to break, and its offer standing
        assert any(c.kind == "tie_break" for c in table.legal_actions(f))
        assert table.state.tie_offers[f] == (target, "Perception")
    taken: list[tuple[str, str]] = []
    faces = ScriptedSource([1] * 30)
    play(
        table,
        MANEUVER,
        default_policy,
        faces,
        Random(0),
        check=lambda a, c: taken.append((a.actor, a.kind)),
    )
    assert taken == [("E", "resolve")]
