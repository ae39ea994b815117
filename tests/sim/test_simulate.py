"""Simulations through the procedures agree with the exact answers; the vectorised duel agrees
with both; every policy only takes actions the rules list. Seeded, so deterministic."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, Choice, system
from referee.core.loader import load_file
from referee.dice import RandomSource
from referee.sim.conflicts import CONFLICTS
from referee.sim.simulate import POLICIES, play, simulate
from referee.sim.stats import Estimate, proportion
from referee.systems.intrigue.exact import Duel, Duelist, duel_from_table, duel_odds
from referee.systems.intrigue.fast import fast_duels, raw_dice_rate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

DUEL = {
    "characters": {
        "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 2, "stamina": 5},
        "bob": {"name": "Bob", "number": 12, "combat": 2, "strength": 2, "stamina": 6},
    }
}

SETUPS = {
    "intrigue": "intrigue/scarface-and-krockin.yaml",
    "ginlane": "ginlane/duel.yaml",
    "hursagmu": "hursagmu/bob-against-fred.yaml",
    "zweihander": "zweihander/chase-takedown.yaml",
    "kingdoms": "kingdoms/sap-against-logistics.yaml",
}


def example_table(game: str) -> Any:
    data = load_file(EXAMPLES / SETUPS[game])
    return system(game).new_table(data["setup"], players=data.get("players"))


@pytest.mark.slow
def test_procedure_driven_duels_agree_with_the_exact_odds() -> None:
    table = system("intrigue").new_table(DUEL)
    odds = duel_odds(duel_from_table(table, "ann", "bob"))
    report = simulate(table, runs=400, seed=3)
    for who in ("ann", "bob"):
        assert report.win_rates.get(who, proportion(0, 400)).contains(float(odds.wins[who]))
    assert odds.both_out > 0  # equal Combat Stats: simultaneous rounds can end with both out
    assert report.win_rates.get("none", proportion(0, 400)).contains(float(odds.both_out))
    assert odds.expected_rounds is not None
    assert report.rounds.contains(float(odds.expected_rounds))
    for who in ("ann", "bob"):
        exact = sum(float(d * p) for d, p in odds.damage[who].items())
        assert report.damage[who].contains(exact)


@pytest.mark.slow
def test_vectorised_duels_agree_with_the_exact_odds_and_the_procedure() -> None:
    table = system("intrigue").new_table(DUEL)
    duel = duel_from_table(table, "ann", "bob")
    odds = duel_odds(duel)
    fast = fast_duels(duel, 200_000, seed=5)
    slow = simulate(table, runs=400, seed=3)
    for who in ("ann", "bob"):
        assert fast.win_rate(who).contains(float(odds.wins[who]))
        # the two simulations' intervals overlap
        mine, theirs = fast.win_rate(who), slow.win_rates[who]
        assert mine.low <= theirs.high and theirs.low <= mine.high
    assert proportion(fast.both_out, fast.runs).contains(float(odds.both_out))
    assert odds.expected_rounds is not None
    assert fast.rounds.contains(float(odds.expected_rounds))
    for who in ("ann", "bob"):
        exact = sum(float(d * p) for d, p in odds.damage[who].items())
        assert fast.damage[who].contains(exact)


@pytest.mark.parametrize(("rank_a", "rank_b"), [(2, 1), (1, 2), (1, 1)])
def test_the_vectorised_duel_agrees_with_the_exact_odds_whoever_acts_first_from_round_two(
    rank_a: int, rank_b: int
) -> None:
    """Initiative: the starter acts first in round 1, then the higher Combat Stat (ties
    together); two sides of even odds, two hits each to Knock Out, so who strikes first from
    round 2 moves the wins and whether both fall together."""
    a = Duelist("ann", Fraction(1, 2), damage=3, knock_out=2, dies=False, rank=rank_a)
    b = Duelist("bob", Fraction(1, 2), damage=3, knock_out=2, dies=False, rank=rank_b)
    duel = Duel(a, b)
    odds, fast = duel_odds(duel), fast_duels(duel, 100_000, seed=7)
    for who in ("ann", "bob"):
        assert fast.win_rate(who).contains(float(odds.wins[who]))
    assert proportion(fast.both_out, fast.runs).contains(float(odds.both_out))


def test_the_vectorised_duel_is_seeded() -> None:
    duel = duel_from_table(system("intrigue").new_table(DUEL), "ann", "bob")
    assert fast_duels(duel, 1000, seed=9) == fast_duels(duel, 1000, seed=9)
    assert fast_duels(duel, 1000) == fast_duels(duel, 1000, seed=0)  # seeded unless told


@pytest.mark.parametrize("game", sorted(SETUPS))
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_policy_takes_only_listed_actions(game: str, policy: str) -> None:
    table = example_table(game)
    conflict = CONFLICTS[game]
    taken: list[Action] = []

    def check(action: Action, choices: Sequence[Choice]) -> None:
        assert any(
            c.actor == action.actor and c.kind == action.kind and c.allows(action.params)
            for c in choices
        ), action
        assert action.kind in conflict.kinds
        taken.append(action)

    for seed in range(3):
        _, steps, _ = play(
            table,
            conflict,
            POLICIES[policy],
            RandomSource(seed),
            random.Random(seed),
            max_steps=300,
            check=check,
        )
        assert steps <= 300
    assert taken


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_each_games_conflict_ends_under_the_default_policy(game: str) -> None:
    report = simulate(example_table(game), runs=5, seed=1)
    assert report.unfinished == 0
    assert report.refused == 0
    assert sum(report.wins.values()) == 5


def test_a_simulation_is_reproducible_from_its_seed() -> None:
    table = example_table("ginlane")
    first = simulate(table, runs=10, seed=4, policy="random")
    again = simulate(table, runs=10, seed=4, policy="random")
    assert first.to_json() == again.to_json()


def test_a_maneuver_asks_each_factions_choices_once_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulated maneuver's movers are every faction (``MANEUVER``'s ``actors``): the
    procedure's own ``actors`` works out every faction's choices to see who has a move, and
    the simulator then asked for them again — twice the work for the same choices."""
    import referee.systems.kingdoms.choices as choices
    import referee.systems.kingdoms.procedure as procedure

    calls: list[str] = []
    real = choices.choices_for

    def counted(state: Any, actor: str) -> Any:
        calls.append(actor)
        return real(state, actor)

    monkeypatch.setattr(choices, "choices_for", counted)
    monkeypatch.setattr(procedure, "choices_for", counted)
    table = example_table("kingdoms")
    report = simulate(table, runs=5, seed=0)
    # at most once a step (fewer where a state's answers are remembered: core/remembered.py)
    assert 0 < len(calls) <= len(table.state.factions) * report.actions


SURE, NEVER = Fraction(1), Fraction(0)


@pytest.mark.parametrize(
    ("rank_a", "rank_b", "winner", "attacks", "hits_on"),
    [
        (2, 1, "ann", 3, {"ann": 1, "bob": 2}),  # ann first in round 2: bob's Attack lapses
        (1, 2, "bob", 3, {"ann": 2, "bob": 1}),  # bob first in round 2: ann's Attack lapses
        (1, 1, "none", 4, {"ann": 2, "bob": 2}),  # a tie: both Attack in one place, both fall
    ],
)
def test_a_vectorised_duel_of_sure_hits_ends_in_round_two_as_the_initiative_says(
    rank_a: int, rank_b: int, winner: str, attacks: int, hits_on: dict[str, int]
) -> None:
    """Initiative: the starter first in round 1, then the higher Combat Stat, ties together;
    a side Knocked Out before its place loses its Attack. Two sure hits each to Knock Out."""
    a = Duelist("ann", SURE, damage=3, knock_out=2, dies=False, rank=rank_a)
    b = Duelist("bob", SURE, damage=4, knock_out=2, dies=True, rank=rank_b)
    fast = fast_duels(Duel(a, b), 50, seed=1)
    assert (fast.runs, fast.unfinished, fast.attacks) == (50, 0, 50 * attacks)
    expected_wins = {"ann": 0, "bob": 0} | ({winner: 50} if winner != "none" else {})
    assert fast.wins == expected_wins and fast.both_out == (50 if winner == "none" else 0)
    assert fast.deaths == {"ann": 0, "bob": 0 if winner == "bob" else 50}  # Ann never dies
    assert (fast.rounds.value, fast.rounds.low, fast.rounds.high, fast.rounds.n) == (2, 2, 2, 50)
    for who, damage in (("ann", 3), ("bob", 4)):
        taken = hits_on[who] * damage
        assert (fast.damage[who].value, fast.damage[who].high) == (taken, taken)


@pytest.mark.parametrize(("rank_a", "rank_b"), [(1, 2), (2, 1), (1, 1)])
def test_the_starter_of_a_vectorised_duel_strikes_first_in_round_one(
    rank_a: int, rank_b: int
) -> None:
    """Initiative: "the character who started the combat goes first" in round 1, whatever the
    Combat Stats; one sure hit Knocks Bob Out before his Attack."""
    a = Duelist("ann", SURE, damage=3, knock_out=1, dies=False, rank=rank_a)
    b = Duelist("bob", SURE, damage=4, knock_out=1, dies=True, rank=rank_b)
    fast = fast_duels(Duel(a, b), 30, seed=5)
    assert fast.wins == {"ann": 30, "bob": 0} and fast.both_out == 0
    assert (fast.rounds.value, fast.attacks, fast.deaths["bob"]) == (1, 30, 30)
    assert (fast.damage["ann"].value, fast.damage["bob"].value) == (0, 4)


def test_the_hits_a_vectorised_duel_took_carry_over_from_one_block_of_rounds_to_the_next() -> None:
    """Ten sure hits Knock Bob Out, who never hits: round 10, past the first block of 8; Bob
    acts first from round 2, so his Attack is rolled every round, and he dies of it."""
    a = Duelist("ann", SURE, damage=3, knock_out=1, dies=True, rank=1)
    b = Duelist("bob", NEVER, damage=2, knock_out=10, dies=True, rank=2)
    fast = fast_duels(Duel(a, b), 40, seed=2, block=8)
    assert fast.wins == {"ann": 40, "bob": 0} and fast.deaths == {"ann": 0, "bob": 40}
    assert (fast.rounds.value, fast.attacks) == (10, 40 * 20)
    assert (fast.damage["ann"].value, fast.damage["bob"].value) == (0, 20)
    # both hit every round, Bob first from round 2: Ann falls to his 9th hit in round 9, the
    # first of the second block, before her Attack; she dealt him 8
    a = Duelist("ann", SURE, damage=3, knock_out=9, dies=False, rank=1)
    b = Duelist("bob", SURE, damage=2, knock_out=20, dies=False, rank=2)
    fast = fast_duels(Duel(a, b), 40, seed=2, block=8)
    assert fast.wins == {"ann": 0, "bob": 40} and (fast.rounds.value, fast.attacks) == (9, 40 * 17)
    assert (fast.damage["ann"].value, fast.damage["bob"].value) == (27, 16)


def test_a_vectorised_duel_nobody_can_hit_is_unfinished_after_the_most_rounds() -> None:
    """Neither side can hit: every duel is still going after ``max_rounds`` (played in whole
    blocks), both Attacks rolled in each of its rounds."""
    a = Duelist("ann", NEVER, damage=3, knock_out=1, dies=True, rank=1)
    b = Duelist("bob", NEVER, damage=2, knock_out=1, dies=True, rank=1)
    fast = fast_duels(Duel(a, b), 30, seed=3, block=8, max_rounds=16)
    assert (fast.unfinished, fast.both_out, fast.wins) == (30, 0, {"ann": 0, "bob": 0})
    assert fast.attacks == 30 * 2 * 16 and fast.rounds.n == 0
    assert fast.deaths == {"ann": 0, "bob": 0}
    # by default, given up after 10,000 rounds
    assert fast_duels(Duel(a, b), 5).attacks == 5 * 2 * 10_000


def test_the_vectorised_duels_json_gives_the_counts_and_each_estimate() -> None:
    a = Duelist("ann", SURE, damage=3, knock_out=2, dies=True, rank=2)
    b = Duelist("bob", SURE, damage=4, knock_out=2, dies=True, rank=1)
    fast = fast_duels(Duel(a, b), 20, seed=4)
    assert fast.to_json() == {
        "exact": False,
        "runs": 20,
        "wins": {"ann": 20, "bob": 0},
        "win_rates": {"ann": proportion(20, 20).to_json(), "bob": proportion(0, 20).to_json()},
        "both_out": 0,
        "unfinished": 0,
        "deaths": {"ann": 0, "bob": 20},
        "rounds": {"value": 2.0, "low": 2.0, "high": 2.0, "n": 20},
        "damage": {
            "ann": {"value": 3.0, "low": 3.0, "high": 3.0, "n": 20},
            "bob": {"value": 8.0, "low": 8.0, "high": 8.0, "n": 20},
        },
    }


class _Dice:
    """A stand-in for NumPy's generator that notes each draw asked of it."""

    def __init__(self, seed: int) -> None:
        self.seed, self.draws = seed, list[tuple[int, int, int, Any]]()

    def integers(self, low: int, high: int, *, size: int, dtype: Any) -> None:
        self.draws.append((low, high, size, dtype))


@pytest.mark.parametrize(("args", "size", "passes"), [((), 1 << 22, 3), ((0.25, 1000), 1000, 1)])
def test_the_raw_dice_rate_is_the_d6_rolled_over_the_seconds_they_took(
    monkeypatch: pytest.MonkeyPatch, args: tuple[float, int] | tuple[()], size: int, passes: int
) -> None:
    """The bench's physical limit: blocks of ``size`` d6 (faces 1 to 6) rolled while the
    clock has run less than ``seconds`` (half a second unless told), over the time they took.
    The clock is a stand-in that reads 100 s at first and moves 0.125 s each reading."""
    import time

    import numpy as np

    readings = iter(range(100))
    monkeypatch.setattr(time, "perf_counter", lambda: 100 + next(readings) * 0.125)
    made: list[_Dice] = []

    def generator(seed: int) -> _Dice:
        made.append(_Dice(seed))
        return made[-1]

    monkeypatch.setattr(np.random, "default_rng", generator)
    rate = raw_dice_rate(*args) if args else raw_dice_rate()
    assert [d.seed for d in made] == [0]
    assert made[0].draws == [(1, 7, size, np.uint8)] * passes
    # the clock read once at the start, once before each block and the stop, once at the end
    assert rate == passes * size / ((passes + 2) * 0.125)


def test_the_vectorised_duels_means_carry_the_normals_95_percent_interval() -> None:
    """A mean of many duels (rounds, damage) with the normal's 95% interval, 1.96 standard
    errors either side (the sample's deviation); one duel's mean is its value, none's unknown."""
    import math

    import numpy as np

    from referee.systems.intrigue.fast import _mean_of

    half = 1.959963984540054 * math.sqrt(5 / 3) / 2  # 1, 2, 3, 4: variance 5/3
    assert _mean_of(np.array([1, 2, 3, 4])) == pytest.approx(
        Estimate(2.5, 2.5 - half, 2.5 + half, 4)
    )
    half = 1.959963984540054 * math.sqrt(2) / math.sqrt(2)  # 3, 5: variance 2
    assert _mean_of(np.array([3, 5])) == pytest.approx(Estimate(4.0, 4.0 - half, 4.0 + half, 2))
    assert _mean_of(np.array([7])) == Estimate(7.0, 7.0, 7.0, 1)
    assert math.isnan(_mean_of(np.array([], dtype=np.int32)).value)


@pytest.mark.parametrize(("rank_b", "bob_wins"), [(2, 50), (1, 0)])
def test_a_vectorised_duel_counts_a_death_only_for_the_side_whose_knock_out_kills(
    rank_b: int, bob_wins: int
) -> None:
    """Taking Damage: a Knocked Out character "dies if every Wound would be marked" — only
    then. Ann's fall kills her, Bob's never does: Bob first from round 2 fells her alone, a tie
    fells both, and Bob is counted no death either way."""
    a = Duelist("ann", SURE, damage=3, knock_out=2, dies=True, rank=1)
    b = Duelist("bob", SURE, damage=4, knock_out=2, dies=False, rank=rank_b)
    fast = fast_duels(Duel(a, b), 50, seed=3)
    assert (fast.wins["bob"], fast.both_out) == (bob_wins, 50 - bob_wins)
    assert fast.deaths == {"ann": 50, "bob": 0}
