"""Checks' odds (issue 11): opposed Burning Wheel pools as one exact-probability expression,
against icepool computing the same thing, and memoised odds of a check already seen. Run by
`make bench` (through bench/dice.py), or alone.

Goal: opposed pools within 2x icepool's own time.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import icepool

from referee.core.checks import BLACK, GREY, OpposedCheck, Pool, TieRule, _odds_of
from referee.dice.probability import _odds_of as _dice_odds_of

CASES = [
    ("8 vs 6, black", Pool(8), Pool(6)),
    ("16 vs 12, open-ended, black vs grey", Pool(16, BLACK, True), Pool(12, GREY, True)),
]


def _anchor(actor: Pool, opponent: Pool) -> Any:
    """The same margin distribution with icepool directly (explosions 16 deep, as Referee's)."""

    def one(pool: Pool) -> Any:
        faces: list[Any] = [int(f >= pool.shade) for f in range(1, 7)]
        if pool.open_ended:
            faces[5] = faces[5] + icepool.Again
            return pool.dice @ icepool.Die(faces, again_depth=16)
        return pool.dice @ icepool.Die(faces)

    return one(actor) - one(opponent)


def _median(fn: Callable[[], object], repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def bench_checks() -> None:
    print("## Opposed pools (CPU ms, median of 7, nothing cached)")
    print("| pools | referee `OpposedCheck.odds()` | icepool | ratio | memoised call |")
    print("|---|---:|---:|---:|---:|")
    for title, actor, opponent in CASES:
        check = OpposedCheck(actor, opponent, TieRule.OPPONENT_WINS)

        def ours(c: OpposedCheck = check) -> None:
            _odds_of.cache_clear()
            _dice_odds_of.cache_clear()
            c.odds()

        def theirs(a: Pool = actor, b: Pool = opponent) -> None:
            _anchor(a, b)

        mine, anchor = _median(ours), _median(theirs)
        check.odds()
        memo = _median(lambda c=check: [c.odds() for _ in range(1000)]) / 1000  # type: ignore[misc]
        print(
            f"| {title} | {mine * 1e3:.1f} | {anchor * 1e3:.1f} | {mine / anchor:.2f}x | "
            f"{memo * 1e6:.1f} µs |"
        )
    print()


if __name__ == "__main__":
    bench_checks()
