"""Fair play's costs (issue 12): deriving faces from a table's seed, verifying a whole record,
sealing and checking choices. Run by `make bench` (through bench/dice.py), or alone.

Goal: verifying the dice of a 10,000-event log in under 1 s.
"""

from __future__ import annotations

import statistics
import time

from referee.dice import roll
from referee.dice.fairness import (
    DerivedSource,
    check_choice,
    combine_seeds,
    commit_choice,
    new_salt,
    new_seed,
    verify_faces,
)

EVENTS = 10_000
EXPRESSIONS = ["3d6+2", "2d6", "1d100", "6d6!>=4", "4d6kh3"]  # a mix of a table's rolls


def _median_seconds(fn: object, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_fairness() -> None:
    seed = combine_seeds(new_seed(), {"ann": b"lucky", "bob": b"7"})
    table = "bench-table"
    log = []
    for action in range(EVENTS):
        source = DerivedSource(seed, table, action)
        roll(EXPRESSIONS[action % len(EXPRESSIONS)], source)
        log.append(source.rolled)
    dice = sum(len(r) for r in log)

    def derive() -> None:
        source = DerivedSource(seed, table, 0)
        for _ in range(10_000):
            source.roll(20)

    def verify() -> None:
        for action, rolled in enumerate(log):
            assert verify_faces(seed, table, action, rolled) is None

    slip = {"maneuver": "Feint", "target": "North Keep", "artha": [1, 0]}
    salt = new_salt()
    sealed = commit_choice(slip, salt)

    def choices() -> None:
        for _ in range(10_000):
            check_choice(slip, salt, sealed)

    per_face = _median_seconds(derive) / 10_000
    whole = _median_seconds(verify)
    per_choice = _median_seconds(choices) / 10_000
    print("## Fair play (median of 5 runs, wall time)")
    print("| what | time | goal |")
    print("|---|---:|---|")
    print(f"| derive one face (`DerivedSource.roll`) | {per_face * 1e6:.1f} µs | |")
    print(
        f"| verify the dice of a {EVENTS:,}-event log ({dice:,} dice) | {whole * 1e3:.0f} ms | "
        f"under 1 s: {'met' if whole < 1 else 'NOT met'} |"
    )
    print(f"| check one sealed choice (`check_choice`) | {per_choice * 1e6:.1f} µs | |")
    print()


if __name__ == "__main__":
    bench_fairness()
