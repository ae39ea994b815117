"""Where each limit of referee.dice sits: CPU time of odds and rolls over a grid of sizes
(issue 12), and of the hostile expressions ``tests/dice/test_hostile.py`` counts the work of
(the tests never time them). Run by `make bench` (through bench/dice.py), or alone:
python bench/dice_limits.py.

Each cell is one call, timed in CPU seconds of this thread, with the odds cache cleared: the
time it takes to answer, or to refuse (and which limit refused it). The promise is an answer or
a refusal within 1 s for odds and 0.1 s for a roll.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from referee.dice import NotationError, RandomSource, parse, roll
from referee.dice.budget import ODDS_SECONDS, ROLL_SECONDS
from referee.dice.probability import _odds_of, odds

# (title, expressions): each family grows until it is refused
GRID: list[tuple[str, list[str]]] = [
    ("sums of d6", [f"{n}d6" for n in (10, 100, 200, 300, 400, 600, 1000)]),
    ("sums of d20", [f"{n}d20" for n in (10, 50, 100, 150, 200, 300)]),
    ("sums of d100", [f"{n}d100" for n in (2, 10, 20, 30, 40, 60)]),
    ("sums of d10000", ["1d10000", "2d10000", "3d10000"]),
    ("success counts", [f"{n}d6>=4" for n in (10, 100, 1000)]),
    ("keep half of d6", [f"{n}d6kh{n // 2}" for n in (4, 10, 30, 50, 100, 150, 300, 1000)]),
    ("keep highest and lowest", [f"{n}d6kh1kl1" for n in (4, 29, 100, 200, 500)]),
    ("keep 3 of 4 bigger dice", [f"4d{s}kh3" for s in (6, 20, 100, 200, 300, 500, 1000)]),
    ("exploding d6", [f"{n}d6!" for n in (1, 4, 8, 12, 16, 20)]),
    ("exploding pools", [f"{n}d6!>=4" for n in (6, 20, 50, 100, 176)]),
    ("explode on many faces", ["d20e>15", "d6e<5", "d10e>1", "d100e>10", "d100e>1", "d10000e>1"]),
    ("explode, then keep", [f"{n}d6!kh3" for n in (4, 6, 10, 20)]),
    ("opposed pools", ["(8d6>=4)-(6d6>=4)", "(16d6!>=4)-(12d6!>=3)", "(30d6!>=4)-(30d6!>=4)"]),
    ("combinations", ["d100*d100", "d100*d100*d6", "(d100,d100,d100)kh1", "d20/d20/d20"]),
]

ROLLS: list[tuple[str, list[str]]] = [
    ("many dice", ["1000d6", "1000d10000", "1000d6kh500", "500d6!", "1000d6!"]),
    (
        "many operators",
        ["1000d6" + "mi1ma6" * n for n in (10, 40, 80, 124, 125)],
    ),
]


def timed(fn: Callable[[], object]) -> tuple[float, str]:
    start = time.thread_time()
    try:
        fn()
        verdict = "answered"
    except NotationError as error:
        verdict = "refused: " + _which(error.reason)
    return time.thread_time() - start, verdict


def _which(reason: str) -> str:
    for key, name in [
        ("takes too long", "CPU time"),
        ("more than 500 possible faces", "faces in a keep"),
        ("dice deep", "explosion depth"),
        ("combinations of outcomes", "pairs of outcomes"),
        ("digits", "digits"),
        ("dice rolled", "dice rolled"),
        ("dice is more than", "dice written"),
        ("looks at dice", "looks at dice"),
        ("combinations of kept dice", "kept combinations"),
    ]:
        if key in reason:
            return name
    return reason[:40]


def bench_limits() -> None:
    print(f"## Where the limits sit (CPU ms of one call; odds promise {ODDS_SECONDS:g} s)")
    print("| family | expression | odds | verdict |")
    print("|---|---|---:|---|")
    worst = 0.0
    for title, expressions in GRID:
        for expression in expressions:
            parse(expression)
            _odds_of.cache_clear()
            seconds, verdict = timed(lambda e=expression: odds(e))  # type: ignore[misc]
            worst = max(worst, seconds)
            print(f"| {title} | `{expression[:40]}` | {seconds * 1e3:.0f} | {verdict} |")
            sys.stdout.flush()
    print(f"\nSlowest odds call: {worst * 1e3:.0f} ms (promise: {ODDS_SECONDS * 1e3:.0f} ms).\n")
    print(f"## Rolls at the limits (CPU ms; promise {ROLL_SECONDS * 1e3:.0f} ms)")
    print("| family | expression | roll | verdict |")
    print("|---|---|---:|---|")
    source = RandomSource(1)
    for title, expressions in ROLLS:
        for expression in expressions:
            seconds, verdict = timed(lambda e=expression: roll(e, source))  # type: ignore[misc]
            shown = expression if len(expression) < 30 else expression[:27] + "..."
            print(
                f"| {title} | `{shown}` ({len(expression)} chars) | {seconds * 1e3:.1f} | "
                f"{verdict} |"
            )
    print()


#: Sums of many dice of one kind, each timed summed as one power and by doubling alone.
SUMS = ["1000d2", "100d20", "200d20", "300d6", "600d6", "60d100", "3d10000", "1000d6>=4"]


def bench_sums() -> None:
    """Sums of many dice of one kind, answered (or refused) as one big-integer power and by
    doubling alone, alternated in one run, the faster of two calls each (odds cache cleared)."""
    import math

    from referee.dice import sums

    power_cost = sums.power_cost
    print("## Sums of many dice: one power against doubling (CPU ms, the faster of two)")
    print("| expression | one power | doubling alone | doubling / power |")
    print("|---|---:|---:|---:|")
    for expression in SUMS:
        best: dict[str, tuple[float, str]] = {}
        for way in ("power", "doubling") * 2:
            sums.power_cost = power_cost if way == "power" else lambda die, count: math.inf  # type: ignore[assignment]
            _odds_of.cache_clear()
            seconds, verdict = timed(lambda e=expression: odds(e))  # type: ignore[misc]
            if way not in best or seconds < best[way][0]:
                best[way] = (seconds, verdict)
        sums.power_cost = power_cost
        (p, pv), (d, dv) = best["power"], best["doubling"]
        ratio = f"{d / p:.1f}x" if pv == dv == "answered" and p else ""
        print(f"| `{expression}` | {p * 1e3:.0f} {pv} | {d * 1e3:.0f} {dv} | {ratio} |")
        sys.stdout.flush()
    print()


def bench_hostile() -> None:
    """The expressions that once ran for minutes (the hostile tests' ``MEASURED``): each roll
    and each odds call against its promise, the slowest shown."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.dice.test_hostile import MEASURED

    print(
        f"## Hostile expressions (CPU ms; promises {ODDS_SECONDS * 1e3:.0f} and "
        f"{ROLL_SECONDS * 1e3:.0f} ms)"
    )
    print("| expression | odds | roll | over the promise |")
    print("|---|---:|---:|---|")
    over = 0
    for expression in MEASURED:
        _odds_of.cache_clear()
        odds_s, _ = timed(lambda e=expression: odds(e))  # type: ignore[misc]
        roll_s, _ = timed(lambda e=expression: roll(e, RandomSource(1)))  # type: ignore[misc]
        late = [
            n
            for n, t, p in (("odds", odds_s, ODDS_SECONDS), ("roll", roll_s, ROLL_SECONDS))
            if t > p
        ]
        over += bool(late)
        shown = expression if len(expression) < 30 else expression[:27] + "..."
        print(f"| `{shown}` | {odds_s * 1e3:.0f} | {roll_s * 1e3:.1f} | {', '.join(late)} |")
    print(f"\n{over} of {len(MEASURED)} over a promise on this machine.\n")


if __name__ == "__main__":
    bench_sums()
    bench_limits()
    bench_hostile()
