"""Whole-encounter odds (issue 18), in one run: exact duel odds, procedure-driven simulation,
the Intrigue duel and the Hursagmu melee on the same dice, the vectorised Intrigue duel, and
NumPy's raw dice rate as the physical limit.

Goals: exact duel odds under 100 ms (Stamina 1–12 each side); procedure-driven ≥ 5,000 Intrigue
duels per CPU second (issue 31; 2,000 in issue 11), each game's action within 2× Intrigue's;
vectorised ≥ 10⁶ duels per second on one core (≥ 1/30 of NumPy's raw rate of the dice it
needs). Run ``.venv/bin/python bench/sim.py`` (``--quick`` for a shorter run).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from intrigue_duel import START  # the bench duel: ScarFace (knife drawn) against Krockin
from referee.core import system
from referee.core.loader import load_file
from referee.dice import RandomSource
from referee.sim.answer import exact_answer, why_not_exact
from referee.sim.conflicts import CONFLICTS
from referee.sim.simulate import default_policy, play, simulate
from referee.systems.intrigue.exact import duel_from_table, duel_odds
from referee.systems.intrigue.fast import fast_duels, raw_dice_rate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GAMES = {
    "intrigue": "intrigue/scarface-and-krockin.yaml",
    "ginlane": "ginlane/duel.yaml",
    "hursagmu": "hursagmu/bob-against-fred.yaml",
    "zweihander": "zweihander/chase-takedown.yaml",
    "kingdoms": "kingdoms/sap-against-logistics.yaml",
}


def duel_setup(a: int, b: int) -> dict[str, Any]:
    """Two characters of Stamina ``a`` and ``b`` (Combat 2 and 1, Strength 2 and 3)."""
    return {
        "characters": {
            "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 2, "stamina": a},
            "bob": {"name": "Bob", "number": 12, "combat": 1, "strength": 3, "stamina": b},
        }
    }


def exact_times() -> tuple[float, float, float]:
    """Mean and slowest time of one exact duel, from its table (reading the duel through the
    procedure, then solving it), and the mean time of the solving alone, over Stamina 1–12."""
    game = system("intrigue")
    whole, solve = [], []
    for a in range(1, 13):
        for b in range(1, 13):
            table = game.new_table(duel_setup(a, b))
            duel_odds.cache_clear()
            begin = time.perf_counter()
            duel = duel_from_table(table, "ann", "bob")
            middle = time.perf_counter()
            duel_odds(duel)
            end = time.perf_counter()
            whole.append(end - begin)
            solve.append(end - middle)
    return statistics.mean(whole), max(whole), statistics.mean(solve)


def procedure_rate(table: Any, seconds: float, seed: int = 1) -> tuple[float, float, float]:
    """Encounters per second and per CPU second through ``Table.act``, default policy, and
    the CPU microseconds of one action (each step: the policy's look at the choices, the
    action taken)."""
    conflict = CONFLICTS[table.system or "intrigue"]
    dice, rng = RandomSource(seed), random.Random(seed)
    done = actions = 0
    begin, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - begin < seconds:
        _, steps, _ = play(table, conflict, default_policy, dice, rng, seat="scarface")
        done += 1
        actions += steps
    used = max(1e-9, time.process_time() - cpu)
    return done / (time.perf_counter() - begin), done / used, 1e6 * used / max(1, actions)


def on_the_dice(game: str, what: str, runs: int) -> None:
    """``referee simulate``'s encounter of ``game``'s example, played on the same dice as the
    procedure (``referee.systems.intrigue.duel_dice``, ``referee.systems.ginlane.fight_dice``,
    ``referee.systems.hursagmu.melee_dice``): encounters per CPU second (the reading from the
    table included)."""
    table = system(game).new_table(load_file(EXAMPLES / GAMES[game])["setup"])
    simulate(table, runs=100, seed=0)  # warm up
    timings = []
    for seed in range(3):
        begin = time.process_time()
        simulate(table, runs=runs, seed=seed)
        timings.append(time.process_time() - begin)
    print(
        f"simulated {game} {what} on the same dice (`referee simulate`): "
        f"{runs / statistics.median(timings):,.0f} per CPU second, the same encounters as "
        "through the procedure"
    )


def main() -> None:
    quick = "--quick" in sys.argv
    mean_ms, worst_ms, solve_ms = (1000 * t for t in exact_times())
    print(
        f"exact intrigue duel odds (Stamina 1–12 each side, 144 duels): {mean_ms:.1f} ms per "
        f"duel from its table (slowest {worst_ms:.1f} ms; solving alone {solve_ms:.2f} ms) "
        "— goal < 100 ms"
    )
    procedure_rate(START, 0.3)  # warm up: every check's odds memoised
    rates = [procedure_rate(START, 1.0 if quick else 2.0, seed) for seed in range(3)]
    wall = statistics.median(r for r, _, _ in rates)
    cpu = statistics.median(c for _, c, _ in rates)
    print(
        f"procedure-driven intrigue duels: {wall:,.0f} duels/s ({cpu:,.0f} per CPU second) "
        "— goal ≥ 5,000 (issue 31)"
    )
    for game, what in (("intrigue", "duels"), ("ginlane", "duels"), ("hursagmu", "melees")):
        on_the_dice(game, what, 2_000 if quick else 10_000)
    anchor = None
    print("each game's example, default policy (goal: an action within 2× Intrigue's):")
    for game, example in GAMES.items():
        data = load_file(EXAMPLES / example)
        table = system(game).new_table(data["setup"])
        per_second, per_cpu, per_action = procedure_rate(table, 0.5 if quick else 1.0)
        anchor = anchor or per_action  # Intrigue's, the first
        print(
            f"  {game}: {per_second:,.0f} encounters/s ({per_cpu:,.0f} per CPU second), "
            f"{per_action:,.0f} µs of CPU an action = {per_action / anchor:.2f}× Intrigue's"
        )
    print("exact answers of each game's example, as `referee simulate` gives them (wall clock):")
    for game, example in GAMES.items():
        data = load_file(EXAMPLES / example)
        table = system(game).new_table(data["setup"])
        begin = time.perf_counter()
        exact = exact_answer(table)
        took = time.perf_counter() - begin
        if exact is None:
            print(f"  {game}: no exact answer ({why_not_exact(table)}) after {took:.2f} s")
        else:
            wins = ", ".join(f"{k} {v['value']:.4f}" for k, v in exact["wins"].items())
            print(f"  {game}: {took:.2f} s — {wins}")
    duel = duel_from_table(START, "scarface", "krockin")
    fast_duels(duel, 100_000, seed=0)  # warm up
    runs = 1_000_000
    timings = []
    for seed in range(3):
        begin = time.process_time()
        result = fast_duels(duel, runs, seed=seed)
        timings.append(time.process_time() - begin)
    per_second = runs / statistics.median(timings)
    dice_per_duel = 3 * result.attacks / runs
    raw = raw_dice_rate(1.0)
    share = per_second * dice_per_duel / raw
    print(
        f"vectorised intrigue duels: {per_second:,.0f} duels per CPU second "
        f"({dice_per_duel:.1f} d6 per duel) — goal ≥ 1,000,000"
    )
    print(
        f"NumPy's raw d6 rate: {raw:,.0f} dice/s; the vectorised duel rolls "
        f"{per_second * dice_per_duel:,.0f} dice/s = 1/{1 / share:.1f} of it — goal ≥ 1/30"
    )


if __name__ == "__main__":
    main()
