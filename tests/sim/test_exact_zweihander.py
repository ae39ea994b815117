"""The exact Zweihänder chase and Complex Exchange against brute-force enumeration through the
real procedure, and against the seeded simulation's intervals.

The brute force takes every action the default policy chooses with **every face of every die**
(no face merged with another, no Value shifted: tables are merged only where the game's whole
state is the same), so it checks the chain's canonical key (Values less the lowest), its
grouping of faces and its weights at once.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.core import REFEREE, Action, RefereeError, Table, system
from referee.core.markov import ChainError
from referee.core.simulation import EncounterOutcome
from referee.dice import ScriptedSource
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import default_policy, legal_choices, simulate
from referee.systems.zweihander.exact import (
    ChaseError,
    chase_odds,
    exchange_odds,
    seconds_estimate,
    states_estimate,
)
from tests.sim.faces import every_face as _every_face

DOCS = Path(__file__).parents[2] / "docs" / "setups"


def _whole(table: Table[Any]) -> str:
    return json.dumps(table.procedure.state_json(table.state), sort_keys=True, default=str)


def brute_force(
    table: Table[Any], horizon: int
) -> tuple[dict[tuple[str, int], Fraction], Fraction]:
    """(winner, rounds) → chance, and the chance still going after ``horizon`` rounds."""
    conflict = conflict_of(table)
    start = table
    frontier: dict[str, tuple[Fraction, Table[Any]]] = {_whole(table): (Fraction(1), table)}

    def spread(
        into: dict[str, tuple[Fraction, Table[Any]]], p: Fraction, t: Table[Any], action: Action
    ) -> None:
        for q, after in _every_face(t, action):
            k = _whole(after)
            held = into.get(k)
            into[k] = (p * q, after) if held is None else (held[0] + p * q, held[1])

    for action in conflict.begin(table, None):
        nxt: dict[str, tuple[Fraction, Table[Any]]] = {}
        for p, t in frontier.values():
            spread(nxt, p, t, action)
        frontier = nxt
    ends: dict[tuple[str, int], Fraction] = {}
    unfinished = Fraction(0)
    while frontier:
        nxt = {}
        for p, t in frontier.values():
            if conflict.is_over(start, t):
                o = conflict.outcome(start, t)
                ends[(o.winner, o.rounds)] = ends.get((o.winner, o.rounds), Fraction(0)) + p
                continue
            if conflict.outcome(start, t).rounds > horizon:
                unfinished += p
                continue
            choices = legal_choices(t, conflict)
            action = default_policy(t, conflict, choices, random.Random(0))
            spread(nxt, p, t, action)
        frontier = nxt
    return ends, unfinished


def _sheet(ab: int, bb: int, coordination: int) -> dict[str, Any]:
    return {"bonuses": {"AB": ab, "BB": bb}, "skills": {"Coordination": coordination}}


@pytest.mark.slow
def test_a_tiny_chase_is_exactly_the_enumeration_of_every_face() -> None:
    """One escapee, one pursuer, two rounds: the chase started (the guard's Initiative die
    scripted) and then every face of every move, Takedown, Coordination and Complication die."""
    thief, guard = _sheet(4, 3, 35), _sheet(1, 3, 20)
    table = system("zweihander").new_table({"characters": {"thief": thief, "guard": guard}})
    start = conflict_of(table).begin(table, None)[0]
    table = table.act(start, ScriptedSource([5]))
    odds = chase_odds(table, rounds=2)
    ends, unfinished = brute_force(table, 2)
    assert dict(odds.chain.outcomes) == ends
    assert odds.chain.unfinished == unfinished
    assert sum(ends.values()) + unfinished == 1
    assert odds.capture_within(2) == sum(p for (w, _), p in ends.items() if w == "pursuers")
    assert odds.capture_within(1) > 0  # the Takedowns were exercised in both rounds
    assert odds.capture_within(2) > odds.capture_within(1)
    assert odds.chain.acts < 2_000  # faces merged: far fewer steps than the brute force


@pytest.mark.slow
def test_the_seeded_simulation_holds_the_exact_chase_in_its_intervals() -> None:
    from referee.core.loader import load_file

    setup = load_file(DOCS / "zweihander-foot-chase.yaml")
    table = system("zweihander").new_table(setup)
    odds = chase_odds(table)  # three rounds: fatigue (the watchman's Brawn Bonus is 2) included
    assert sum(odds.chain.wins.values()) == 1 and odds.chain.unfinished == 0
    assert any("taken down" in e for e in odds.chain.endings)
    report = simulate(table, runs=400, seed=3)
    for winner, p in odds.chain.wins.items():
        estimate = report.win_rates[winner]
        assert estimate.low <= p <= estimate.high, (winner, float(p), estimate)
    expected = odds.chain.expected_rounds
    assert expected is not None
    assert report.rounds.low <= expected <= report.rounds.high
    by_round = odds.chain.by_round()
    for n, p in enumerate(by_round, start=1):
        share = report.rounds_seen.get(n, 0) / report.runs
        assert abs(share - float(p)) < 0.06, (n, share, float(p))
    json_ = odds.to_json()
    assert json_["escape_by_round"][-1]["exact"] == str(odds.escape_within(3))


@pytest.mark.slow
def test_an_exchange_is_exactly_the_enumeration_of_every_face() -> None:
    talk = {"bonuses": {"WB": 4}, "skills": {"Charm": 50}, "reputation": 1}
    bully = {"bonuses": {"WB": 3}, "skills": {"Intimidate": 45}}
    table = system("zweihander").new_table({"characters": {"anna": talk, "bert": bully}})
    assert conflict_of(table).name == "a Complex Exchange"
    with pytest.raises(ChaseError, match="cannot chase"):
        chase_odds(table)
    odds = exchange_odds(table)
    ends, unfinished = brute_force(table, 1)
    assert dict(odds.chain.outcomes) == ends and unfinished == 0
    report = simulate(table, runs=400, seed=0)
    for winner, p in odds.chain.wins.items():
        if p > Fraction(1, 50):
            estimate = report.win_rates[winner]
            assert estimate.low <= p <= estimate.high, (winner, float(p), estimate)


class TooMuchWork(Exception):
    """The chain took more procedure steps than a refusal may."""


def test_a_chase_too_large_for_the_time_given_is_refused_before_any_state_is_expanded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cutpurse example (one escapee, two pursuers, 3 Rounds) took the time given before it
    was refused: 60 s of a 69 s run, then, its estimate short (5,600 states against more than
    9,463 expanded), the 120 s of ``--exact-seconds 120``. Its size is estimated from the table
    first (18,492 states, the GM's end of Round 3 fatigued: some 450 s) and it is refused after
    a handful of procedure steps (asking the game whether the chase can begin), not one
    canonical state expanded, given 60 s or 120 s. Counted, not timed: past ``bound`` steps
    the test stops the chain."""
    from referee.core.loader import load_file

    bound = 10
    steps = []
    act = Table.act

    def counted(self: Table[Any], *args: Any, **kwargs: Any) -> Table[Any]:
        steps.append(1)
        if len(steps) > bound:
            raise TooMuchWork(f"more than {bound} procedure steps before deciding")
        return act(self, *args, **kwargs)

    data = load_file(Path(__file__).parents[2] / "examples/zweihander/chase-takedown.yaml")
    table = system("zweihander").new_table(data["setup"])
    monkeypatch.setattr(Table, "act", counted)
    for seconds in (60, 120):
        steps.clear()
        with pytest.raises(
            ChainError, match=rf"about 18,492 states .* more than the {seconds} s given"
        ):
            chase_odds(table, time_limit=seconds)
        assert len(steps) <= bound
    # given ten minutes, the same chase is not refused at once: the chain sets to work
    steps.clear()
    with pytest.raises(TooMuchWork):
        chase_odds(table, time_limit=600)


@pytest.mark.slow
def test_the_estimate_is_at_least_the_states_a_chase_expands() -> None:
    """The estimate read from the table (``states_estimate``) against the canonical states the
    chain expands, counted: the one-on-one chase over its 3 Rounds (186) and the cutpurse
    example's two pursuers over its first Round (1,082) — where the old estimate (180 and 400)
    was short by up to 2.7 times."""
    from referee.core.loader import load_file

    one = system("zweihander").new_table(load_file(DOCS / "zweihander-foot-chase.yaml"))
    data = load_file(Path(__file__).parents[2] / "examples/zweihander/chase-takedown.yaml")
    two = system("zweihander").new_table(data["setup"])
    for table, rounds, expanded in ((one, 3, 186), (two, 1, 1_082)):
        states = chase_odds(table, rounds=rounds).chain.states
        assert states == expanded
        assert expanded <= states_estimate(table, None, rounds) <= 1.5 * expanded


def test_a_chase_too_large_for_the_time_given_is_refused_with_the_reason() -> None:
    sheet = {"bonuses": {"AB": 3, "BB": 1}, "skills": {"Coordination": 40, "Toughness": 40}}
    people = {name: sheet for name in ("a", "b", "c", "d")}
    table = system("zweihander").new_table({"characters": people})
    with pytest.raises(ChainError, match="too large"):
        chase_odds(table, time_limit=0.5)
    ann = {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4}
    duel = system("intrigue").new_table({"characters": {"ann": ann}})
    with pytest.raises(RefereeError, match="not intrigue"):
        chase_odds(duel)


def _both(p: Fraction) -> dict[str, Any]:
    return {"exact": str(p), "value": float(p)}


def test_the_chase_answer_gives_every_chance_as_a_fraction_and_a_float_round_by_round() -> None:
    """The thief and the guard over two Rounds: nobody escapes yet (3 Rounds ahead are needed),
    the guard's Takedowns take the thief down in either Round; the JSON (``referee simulate
    --json``, the web table) gives each chance once as a fraction and once as a float."""
    quick = {"bonuses": {"AB": 4, "BB": 3}, "skills": {"Coordination": 50, "Toughness": 40}}
    slow = {"bonuses": {"AB": 2, "BB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}
    table = system("zweihander").new_table({"characters": {"thief": quick, "guard": slow}})
    odds = chase_odds(table, rounds=2)
    first, second = Fraction(33, 1000), Fraction(210221, 10_000_000)
    taken = first + second
    assert odds.horizon == 2
    assert (odds.capture_within(1), odds.capture_within(2)) == (first, taken)
    assert odds.escape_within(2) == 0
    assert odds.to_json() == {
        "exact": True,
        "model": "zweihander chase",
        "wins": {"escapees": _both(Fraction(0)), "pursuers": _both(taken)},
        "escape_by_round": [_both(Fraction(0)), _both(Fraction(0))],
        "capture_by_round": [_both(first), _both(taken)],
        "by_round": [_both(first), _both(second)],
        "endings": {"all escapees have been taken down": _both(taken)},
        "unfinished": _both(1 - taken),
        "expected_rounds": None,
        "states": odds.chain.states,
        "procedure_steps": odds.chain.acts,
    }
    assert odds.chain.states > 2 and odds.chain.acts > odds.chain.states


def test_the_exchange_answer_gives_each_test_outcome_as_a_fraction_and_a_float() -> None:
    """Anna alone in a Complex Exchange: one Round, her Charm Test's four outcomes (they sum to
    one), each once as a fraction and once as a float — the simulation's exact answer too; and
    the same odds for a second exchange after a first she won critically: an exchange is judged
    by its own Tests alone."""
    talk = {"bonuses": {"WB": 4}, "skills": {"Charm": 50}, "reputation": 1}
    table = system("zweihander").new_table({"characters": {"anna": talk}})
    odds = exchange_odds(table)
    outcomes = {
        "critical success": Fraction(3, 50),
        "success": Fraction(27, 50),
        "failure": Fraction(7, 20),
        "critical failure": Fraction(1, 20),
    }
    assert sum(outcomes.values()) == 1
    answer = {
        "exact": True,
        "model": "zweihander complex exchange",
        "wins": {k: _both(p) for k, p in outcomes.items()},
        "expected_rounds": _both(Fraction(1)),
        "states": odds.chain.states,
        "procedure_steps": odds.chain.acts,
    }
    assert odds.to_json() == answer
    assert odds.chain.acts > odds.chain.states > 2
    _, exchange = system("zweihander").simulated_conflicts()
    assert exchange.exact is not None and exchange.exact(table, None, None) == answer
    with pytest.raises(ChainError, match="0 states expanded in 0 s"):
        exchange.exact(table, None, 0)  # no time at all given: refused at the first state
    for fortune in (1, 2):  # 11: a critical success, and the party gains a Fortune Point
        start, table = table, _exchange_played(table, ScriptedSource([1, 1]))
        assert table.state.fortune_points == fortune
        assert exchange.outcome(start, table) == EncounterOutcome(
            "critical success", 1, {"anna": 0}, True, {"fortune_points_gained": 1}
        )
        assert exchange_odds(table).chain.wins == outcomes


def _exchange_played(table: Table[Any], dice: ScriptedSource) -> Table[Any]:
    """A Complex Exchange begun and played to its end by the simulation's default policy."""
    _, exchange = system("zweihander").simulated_conflicts()
    start = table
    for action in exchange.begin(table, None):
        table = table.act(action, dice)
    while not exchange.is_over(start, table):
        action = default_policy(table, exchange, legal_choices(table, exchange), random.Random(0))
        table = table.act(action, dice)
    return table


def test_the_simulations_exact_chase_is_the_one_its_seat_flees_in_the_time_given() -> None:
    """The simulation's exact answer for a chase is the chase with the seat's character
    fleeing (the guard here, slower than the thief who pursues), refused where the time given
    is short of the chain's estimate."""
    quick = {"bonuses": {"AB": 4, "BB": 3}, "skills": {"Coordination": 50, "Toughness": 40}}
    slow = {"bonuses": {"AB": 2, "BB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}
    table = system("zweihander").new_table({"characters": {"thief": quick, "guard": slow}})
    chase, _ = system("zweihander").simulated_conflicts()
    assert chase.exact is not None
    fleeing = chase.exact(table, "guard", None)
    odds = chase_odds(table, "guard")
    assert fleeing == odds.to_json() and odds.chain.unfinished == 0
    assert odds.chain.expected_rounds is not None
    assert fleeing["expected_rounds"] == _both(odds.chain.expected_rounds)
    assert fleeing["wins"]["escapees"]["exact"] == "964195971/1562500000"
    # 3 Rounds ahead to escape: none in the first, all of them by the last, as captures are
    assert fleeing["escape_by_round"][0]["exact"] == "0"
    assert fleeing["escape_by_round"][-1] == fleeing["wins"]["escapees"]
    assert fleeing["capture_by_round"][-1] == fleeing["wins"]["pursuers"]
    with pytest.raises(ChainError, match=r"about 252 states .* more than the 0 s given"):
        chase.exact(table, None, 0)


def test_an_exchange_ends_with_the_partys_best_test_or_none_if_all_were_taken_before() -> None:
    """Anna's Charm and Bert's Intimidate are tested apart: the exchange of both ends with
    the better of the two (critical success, success, failure, critical failure); an exchange
    whose every Test was taken before the answer is asked has none to read."""
    talk = {"bonuses": {"WB": 4}, "skills": {"Charm": 50}, "reputation": 1}
    bully = {"bonuses": {"WB": 3}, "skills": {"Intimidate": 45}}
    zweihander = system("zweihander")
    anna = exchange_odds(zweihander.new_table({"characters": {"anna": talk}})).chain.wins
    bert = exchange_odds(zweihander.new_table({"characters": {"bert": bully}})).chain.wins
    order = ["critical success", "success", "failure", "critical failure"]
    best: dict[str, Fraction] = {}
    for mine, p in anna.items():
        for theirs, q in bert.items():
            better = min(mine, theirs, key=order.index)
            best[better] = best.get(better, Fraction(0)) + p * q
    table = zweihander.new_table({"characters": {"anna": talk, "bert": bully}})
    assert exchange_odds(table).chain.wins == best
    assert best["success"] > anna["success"] and best["critical failure"] < anna["failure"]
    _, exchange = zweihander.simulated_conflicts()
    alone = zweihander.new_table({"characters": {"anna": talk}})
    begin = exchange.begin(alone, None)[0]  # an Indifferent NPC of the first Alignment
    assert (begin.params["disposition"], begin.params["npc_alignment"]) == ("Indifferent", "order")
    alone = alone.act(begin, ScriptedSource([]))
    tactic = default_policy(alone, exchange, legal_choices(alone, exchange), random.Random(0))
    alone = alone.act(tactic, ScriptedSource([5, 5]))
    assert dict(exchange_odds(alone).chain.outcomes) == {("none", 1): 1}


def _tired(bb: int | None) -> dict[str, Any]:
    """A character who can chase, of Brawn Bonus ``bb`` (``None``: none entered, 0)."""
    bonuses = {"AB": 3} if bb is None else {"AB": 3, "BB": bb}
    return {"bonuses": bonuses, "skills": {"Coordination": 40, "Toughness": 40}}


def _under_way() -> Table[Any]:
    """Three characters' chase begun to escape 6 Rounds ahead, its first Round played."""
    table = system("zweihander").new_table(
        {"characters": {"a": _tired(3), "b": _tired(2), "c": _tired(1)}}
    )
    start = {
        "escapees": {"b": "on foot"},
        "pursuers": {"a": "on foot", "c": "on foot"},
        "head_start": "escapees",
        "escape_condition": 6,
    }
    table = table.act(Action(REFEREE, "chase.start", start), ScriptedSource([5] * 10))
    conflict, dice = conflict_of(table), ScriptedSource([5, 6] * 200)
    while table.state.chase.round < 2:
        choices = legal_choices(table, conflict)
        table = table.act(default_policy(table, conflict, choices, random.Random(0)), dice)
    return table


@pytest.mark.parametrize(
    ("brawn", "rounds", "states", "seconds"),
    [
        ((3, 3), 1, 49, 0.147),  # 1 + 10 + 19 before the moves and at the end, 19 begun
        ((3, 3), 2, 151, 0.453),
        ((3, 3), 3, 252, 0.756),  # the Escape Condition: no Round begun after it
        ((3, 3), 4, 444, 198.213),  # both fatigued at the end of Round 4: 30² times
        ((1, 2), 2, 151, 3.672),  # one fatigued at the end of Round 2
        ((1, 2), 3, 252, 152.31),
        ((1, 2), 4, 444, 349.767),
        ((None, None), 1, 49, 51.39),  # no Brawn Bonus entered: both fatigued from Round 1
        ((None, None), 2, 151, 151.485),
        ((3, 2, 1), 1, 1_306, 3.918),  # two pursuers: two orders on the ladder
        ((3, 2, 1), 2, 7_686, 201.756),
        ((3, 2, 1), 3, 18_492, 12_473.16),
        (None, 2, 1_306, 51.072),  # a chase under way, at its Round 2 of 6
        (None, 3, 7_686, 5_609.85),
        (None, 6, 83_740, 2_027_037.15),
        (None, 7, 143_904, 3_470_746.176),
    ],
)
def test_a_chases_size_and_time_are_estimated_from_the_table_before_it_is_solved(
    brawn: tuple[int | None, ...] | None, rounds: int, states: int, seconds: float
) -> None:
    """The estimate, read from the table before any state is expanded: at each place of each
    Round (before each move, and the GM's end) the Values less the lowest drift by 0 to 9 a
    move, on each order of the Pursuers on the ladder; and until the Escape Condition, the
    next Round begun. A place costs 3 ms a state, 30 times that for each participant fatigued
    there (past their Brawn Bonus in Rounds, at a Round's end)."""
    if brawn is None:
        table = _under_way()
    else:
        people = {name: _tired(bb) for name, bb in zip("abc", brawn, strict=False)}
        table = system("zweihander").new_table({"characters": people})
    assert states_estimate(table, None, rounds) == states
    assert round(seconds_estimate(table, None, rounds), 3) == seconds


def test_the_simulated_chase_is_the_one_under_way_else_a_new_one_the_seat_flees() -> None:
    """The simulation's chase: the one under way is played on (nothing begun); else the GM
    starts one with the seat's character fleeing on foot from every other, or the first
    character where the seat is nobody's (the GM's), escaping 3 Rounds ahead — and again once
    a chase has ended."""
    chase, _ = system("zweihander").simulated_conflicts()
    table = system("zweihander").new_table(
        {"characters": {"a": _tired(3), "b": _tired(2), "c": _tired(1)}}
    )
    for seat, escapee in (("b", "b"), (REFEREE, "a"), (None, "a")):
        (start,) = chase.begin(table, seat)
        assert (start.actor, start.kind) == (REFEREE, "chase.start")
        assert start.params == {
            "escapees": {escapee: "on foot"},
            "pursuers": {p: "on foot" for p in "abc" if p != escapee},
            "head_start": "escapees",
            "escape_condition": 3,
        }
    under_way = _under_way()
    assert chase.begin(under_way, "a") == []
    ended = replace(under_way.state, chase=replace(under_way.state.chase, ended="escaped"))
    (again,) = chase.begin(replace(under_way, state=ended), "c")
    assert again.params["escapees"] == {"c": "on foot"}


def test_the_peril_a_simulated_chase_reports_is_what_each_took_since_its_start() -> None:
    """The simulation's damage of a participant: the steps down the Peril Condition Track
    taken since the table it started from, not the steps it started with."""
    from referee.systems.zweihander.simulation import peril_taken

    def table(peril_a: int, peril_b: int) -> Table[Any]:
        people = {"a": {**_tired(3), "peril": peril_a}, "b": {**_tired(3), "peril": peril_b}}
        return system("zweihander").new_table({"characters": people})

    assert peril_taken(table(1, 2), table(3, 2), ["a", "b"]) == {"a": 2, "b": 0}


def test_a_chase_simulated_is_read_as_the_side_the_game_names_with_its_rounds_and_takedowns() -> (
    None
):
    """The outcome of the cutpurse's chase, read step by step as the simulation reads it: the
    pursuers until the game names a winner; the Rounds played (a Round counts once someone has
    moved in it: after the GM ends Round 1, still 1); each participant's Peril taken; how many
    were taken down — the cutpurse and the watchman, by the end, when the pursuers win."""
    from referee.core.loader import load_file
    from referee.systems.zweihander.simulation import chase_outcome

    data = load_file(Path(__file__).parents[2] / "examples/zweihander/chase-takedown.yaml")
    start = table = system("zweihander").new_table(data["setup"])
    dice = ScriptedSource(data["dice"]["script"])
    read: list[tuple[str, int, bool, dict[str, int]]] = []
    for step in data["actions"]:
        action = Action(step["actor"], step["action"], step.get("params", {}))
        table = table.act(action, dice)
        outcome = chase_outcome(start, table)
        assert outcome.damage == {"cutpurse": 0, "sergeant": 0, "watchman": 0}
        read.append((outcome.winner, outcome.rounds, outcome.finished, dict(outcome.extra)))
    under_way = ("pursuers", 1, False, {"taken_down": 0})
    assert read[0] == ("pursuers", 0, False, {"taken_down": 0})  # begun, nobody moved yet
    assert read[1:6] == [under_way] * 5  # the moves, a Takedown, the GM's end of Round 1
    assert read[6:10] == [("pursuers", 2, False, {"taken_down": 0})] * 4
    assert read[10] == ("pursuers", 2, True, {"taken_down": 2})


def test_a_chase_that_cannot_be_solved_is_refused_naming_the_chases_rule() -> None:
    """Refused under "Whole-encounter odds (Zweihänder chase)": another game's table, a table
    whose characters cannot chase (one character: a Complex Exchange), fewer than 1 Round
    (one is solved)."""
    rule = "Whole-encounter odds (Zweihänder chase): "
    ann = {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4}
    duel = system("intrigue").new_table({"characters": {"ann": ann}})
    alone = system("zweihander").new_table({"characters": {"a": _tired(3)}})
    duo = system("zweihander").new_table({"characters": {"a": _tired(3), "b": _tired(3)}})
    for table, rounds, reason in (
        (duel, None, "a chase is a Zweihänder conflict, not intrigue"),
        (alone, None, "this table cannot chase: its conflict is a Complex Exchange"),
        (duo, 0, "rounds must be at least 1, not 0"),
    ):
        with pytest.raises(ChaseError) as refused:
            chase_odds(table, rounds=rounds)
        assert str(refused.value) == rule + reason
    assert chase_odds(duo, rounds=1).horizon == 1  # one Round is enough to solve


def test_a_table_that_cannot_chase_says_why_in_the_games_own_words() -> None:
    """The simulation's chase is refused with the game's own reason: a table of one character,
    or one whose characters the game would not start on foot (no Base Chance of Coordination
    for a Takedown); a table that can chase is not refused."""
    chase, _ = system("zweihander").simulated_conflicts()
    assert chase.cannot_play is not None
    bare = {"bonuses": {"AB": 3, "BB": 3}}
    for people, why in (
        ({"a": _tired(3)}, "a chase needs two characters"),
        (
            {"a": bare, "b": bare},
            "chase.start (Takedown): A has no Base Chance entered for Coordination, which a "
            "Takedown on foot tests: mount them, or enter it on the sheet",
        ),
        ({"a": _tired(3), "b": _tired(3)}, None),
    ):
        assert chase.cannot_play(system("zweihander").new_table({"characters": people})) == why


@pytest.mark.parametrize(
    ("anna", "bert", "favourable", "unfavourable"),
    [
        (("Charm",), ("Intimidate",), "Bargain", "Guile"),
        (
            ("Bargain", "Charm", "Guile"),
            ("Interrogation", "Intimidate", "Leadership"),
            "Rumour",
            "Bargain",
        ),
    ],
)
def test_the_simulated_exchange_tilts_nothing_with_the_gms_secret_skills(
    anna: tuple[str, ...], bert: tuple[str, ...], favourable: str, unfavourable: str
) -> None:
    """The simulation's Complex Exchange: every character who can test a Social Tactic, an
    Indifferent NPC of the first Alignment offered, and as the GM's secret Favourable and
    Unfavourable Skills the first two Tactics no participant uses (the simulation cannot know
    the GM's secret), a used one only where fewer than two are unused."""
    _, exchange = system("zweihander").simulated_conflicts()
    people = {"anna": anna, "bert": bert}
    characters = {c: {"skills": dict.fromkeys(skills, 40)} for c, skills in people.items()}
    table = system("zweihander").new_table({"characters": characters})
    assert exchange.begin(table, None) == [
        Action(
            REFEREE,
            "exchange.start",
            {
                "npc": "the NPC",
                "disposition": "Indifferent",
                "npc_alignment": "order",
                "participants": ["anna", "bert"],
                "favourable": favourable,
                "unfavourable": unfavourable,
            },
        )
    ]


def test_a_chase_that_has_ended_is_estimated_as_the_next_one_the_simulation_begins() -> None:
    """Once a chase has ended (escaped, here, though it was to escape 6 Rounds ahead), the
    chase to solve is the one the simulation begins next, escaping 3 Rounds ahead: its size is
    a new chase's, its last Round the third, none begun after it."""
    under_way = _under_way()
    assert under_way.state.chase is not None
    chase = replace(under_way.state.chase, ended="escaped")
    ended = replace(under_way, state=replace(under_way.state, chase=chase))
    assert states_estimate(ended, None, 3) == 18_492
    assert round(seconds_estimate(ended, None, 3), 3) == 12_473.16


def test_a_table_without_characters_has_no_exchange_and_says_so() -> None:
    """A Complex Exchange needs someone to test a Social Tactic (any character may, skilled or
    not): a table without characters says so; one with a character has an exchange to play."""
    _, exchange = system("zweihander").simulated_conflicts()
    assert exchange.cannot_play is not None
    for people, why in (({}, "no character can test a Social Tactic"), ({"a": {}}, None)):
        table = system("zweihander").new_table({"characters": people})
        assert exchange.cannot_play(table) == why


def test_a_chase_refused_for_its_size_names_its_states_seconds_and_cost_a_state() -> None:
    """The refusal gives the estimate it was refused on: the states, the seconds they take,
    and the cost of a state (the estimated seconds over the states, to the whole ms)."""
    people = {"a": _tired(3), "b": _tired(2), "c": _tired(1)}
    table = system("zweihander").new_table({"characters": people})
    with pytest.raises(ChainError) as refused:
        chase_odds(table, time_limit=60)
    assert str(refused.value) == (
        "Whole-encounter odds (exact chain): about 18,492 states to expand, some 12482 s at "
        "675 ms a state, more than the 60 s given: too large to solve exactly within the time "
        "given"
    )
