"""Benchmarks of referee.dice against its anchors (issues 2, 11, 12). Run by `make bench`, not
`make test`.

Each figure is a median of repeats. Roll throughput and warm odds are measured in this one
process, each side against its anchor on the same expressions. Cold odds and start-up are about
a new process, so each sample is a fresh interpreter, timed from the inside (cold odds) or from
here (start-up). Ratios are what matter: absolute numbers depend on the machine and its load.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

BIN = Path(sys.executable).parent
REPEATS = 7
ROLLS = ["3d6+2", "4d6kh3", "10d6", "d100"]
ODDS = ["3d6+2>=14", "4d6kh2+3", "(20d6!>=4)>=8"]

# The same distributions computed with icepool directly (the anchor for odds).
ANCHOR = """
import icepool

def anchor(expression):
    d6 = icepool.d6
    if expression == "3d6+2>=14":
        return icepool.map(lambda t: t >= 14, 3 @ d6 + 2)
    if expression == "4d6kh2+3":
        return d6.pool(4).highest(2).sum() + 3
    # one black-shade die, open-ended: 0 on 1-3, 1 on 4-5, 1 and another die on 6
    die = icepool.Die([0, 0, 0, 1, 1, 1 + icepool.Again], again_depth=15)
    return icepool.map(lambda t: t >= 8, 20 @ die)
"""

COLD = (
    ANCHOR
    + """
import sys, time
import referee.dice.probability as probability
expression, side = sys.argv[1], sys.argv[2]
start = time.perf_counter()
probability.odds(expression) if side == "referee" else anchor(expression)
print(time.perf_counter() - start)
"""
)


def median_rate(fn: Callable[[], object], n: int) -> float:
    """Median calls per second of ``fn`` over REPEATS batches of ``n`` calls."""
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def median_seconds(fn: Callable[[], object], n: int) -> float:
    """Median seconds per call of ``fn``."""
    return 1 / median_rate(fn, n)


def paired_rates(
    ours: Callable[[], object], theirs: Callable[[], object], n: int
) -> tuple[float, float]:
    """Median calls per second of each side, the two timed in turn within every repeat (so a
    change in the machine's load touches both alike)."""
    mine, anchor = [], []
    for _ in range(REPEATS * 2):
        for fn, rates in ((ours, mine), (theirs, anchor)):
            start = time.perf_counter()
            for _ in range(n):
                fn()
            rates.append(n / (time.perf_counter() - start))
    return statistics.median(mine), statistics.median(anchor)


def bench_rolls() -> None:
    import d20  # the anchor: Avrae's roller (benchmark-only dependency)

    from referee.dice import RandomSource, roll

    random.seed(1)
    seeded = RandomSource(seed=1)
    print("## Roll throughput (rolls/s, every die kept in the result)")
    print("`roll(expr)` with its default source (the OS CSPRNG read 4 KiB at a time) against")
    print(
        "`d20.roll(expr)`, timed in turn; the seeded source (`RandomSource(1)`) for comparison.\n"
    )
    print("| expression | referee (default) | d20 | referee / d20 | referee (seeded) / d20 |")
    print("|---|---:|---:|---:|---:|")
    for expression in ROLLS:
        ours, theirs = paired_rates(
            lambda e=expression: roll(e),  # type: ignore[misc]
            lambda e=expression: d20.roll(e),  # type: ignore[misc]
            10_000,
        )
        with_seed, again = paired_rates(
            lambda e=expression: roll(e, seeded),  # type: ignore[misc]
            lambda e=expression: d20.roll(e),  # type: ignore[misc]
            10_000,
        )
        print(
            f"| `{expression}` | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f}x | "
            f"{with_seed / again:.2f}x |"
        )
    base = median_rate(lambda: random.randint(1, 6), 200_000)
    print(f"\nFor scale, a bare `random.randint(1, 6)` loop: {base:,.0f} calls/s.\n")


def bench_odds() -> None:
    import icepool  # noqa: F401  (imported before timing, as the anchor's is)

    from referee.dice.notation import parse
    from referee.dice.probability import _odds_of, odds

    namespace: dict[str, object] = {}
    exec(ANCHOR, namespace)
    anchor = namespace["anchor"]
    print("## Odds latency (milliseconds)")
    print(
        "| expression | cold referee | cold icepool | cold ratio | warm referee (cached) |"
        " warm referee (uncached) | icepool again |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for expression in ODDS:
        cold = {
            side: statistics.median(_cold(expression, side) for _ in range(5))
            for side in ("referee", "icepool")
        }
        odds(expression)
        warm = median_seconds(lambda e=expression: odds(e), 2_000)  # type: ignore[misc]

        def uncached(e: str = expression) -> None:
            _odds_of.cache_clear()
            odds(parse(e))

        fresh = median_seconds(uncached, 20)
        again = median_seconds(lambda e=expression: anchor(e), 20)  # type: ignore[operator,misc]
        print(
            f"| `{expression}` | {cold['referee'] * 1e3:.1f} | {cold['icepool'] * 1e3:.1f} | "
            f"{cold['referee'] / cold['icepool']:.2f}x | {warm * 1e3:.4f} | {fresh * 1e3:.2f} | "
            f"{again * 1e3:.2f} |"
        )
    print()


def _cold(expression: str, side: str) -> float:
    out = subprocess.run(
        [str(BIN / "python"), "-c", COLD, expression, side],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - start


#: Every command's ``--help`` (issue 11: each under 10x ``python -c pass``).
HELPS = [
    [],
    ["roll"],
    ["odds"],
    ["run"],
    ["table"],
    ["verify"],
    ["serve"],
    ["play"],
    ["handouts"],
    ["simulate"],
    ["intrigue"],
    ["kingdoms"],
    ["zweihander"],
    ["ginlane"],
    ["hursagmu"],
]


def bench_startup() -> None:
    # Interleaved, so that a change in the machine's load touches both sides alike.
    runs = 21
    python: list[float] = []
    referee: list[float] = []
    for _ in range(runs):
        python.append(_wall([str(BIN / "python"), "-c", "pass"]))
        referee.append(_wall([str(BIN / "referee"), "roll", "3d6"]))
    base, ours = statistics.median(python), statistics.median(referee)
    print("## Start-up (a whole process, wall time, median of 21 interleaved runs)")
    print("| command | median | ratio |")
    print("|---|---:|---:|")
    print(f"| `python -c pass` | {base * 1e3:.1f} ms | 1.00x |")
    print(f"| `referee roll 3d6` | {ours * 1e3:.1f} ms | {ours / base:.2f}x |")
    # each --help, 7 runs interleaved with the anchor again
    for words in HELPS:
        anchor_runs, help_runs = [], []
        for _ in range(7):
            anchor_runs.append(_wall([str(BIN / "python"), "-c", "pass"]))
            help_runs.append(_wall([str(BIN / "referee"), *words, "--help"]))
        anchor_ms, help_ms = statistics.median(anchor_runs), statistics.median(help_runs)
        name = " ".join(["referee", *words, "--help"])
        print(f"| `{name}` | {help_ms * 1e3:.1f} ms | {help_ms / anchor_ms:.2f}x |")
    print()


def main() -> None:
    # the other dice benchmarks live beside this file (issue 12: limits, fair play; issue 11:
    # opposed pools and memoised checks)
    from dice_checks import bench_checks
    from dice_fairness import bench_fairness
    from dice_limits import bench_hostile, bench_limits, bench_sums

    print(f"# referee.dice benchmark (python {sys.version.split()[0]}, median of repeats)\n")
    bench_rolls()
    bench_odds()
    bench_startup()
    bench_checks()
    bench_fairness()
    bench_sums()
    bench_limits()
    bench_hostile()


if __name__ == "__main__":
    main()
