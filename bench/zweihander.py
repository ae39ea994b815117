"""Zweihänder at the table: what an action, a menu and a test's odds cost.

    .venv/bin/python bench/zweihander.py

Prints, for this machine: a Skill Test's exact odds cold and memoised (with and without an
Assist Die, whose 1,000 outcomes are enumerated), ``Table.act`` per action while random legal
play runs from each example's setup, and ``observe`` for the referee's seat (every choice with
its odds previews).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from referee.core import RuleError, observe
from referee.core.scenario import load_scenario
from referee.dice import RandomSource
from referee.systems.zweihander import PROCEDURE, SYSTEM
from referee.systems.zweihander.percentile import SkillTest, _test_odds

EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "zweihander").glob("*.yaml"))


def per_call(fn: object, repeat: int) -> float:
    """Microseconds per call of ``fn`` (a callable of no arguments)."""
    assert callable(fn)
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def odds() -> None:
    for assist in (False, True):
        test = SkillTest(45, -20, assist=assist)

        def cold(test: SkillTest = test) -> None:
            _test_odds.cache_clear()
            test.odds()

        warm = per_call(test.odds, 10_000)
        print(
            f"odds of a Skill Test{' with an Assist Die' if assist else ''}: "
            f"cold {per_call(cold, 50):,.0f} µs, memoised {warm:,.2f} µs"
        )


def play() -> None:
    acted = refused = 0
    act_time = observe_time = 0.0
    observed = 0
    for path in EXAMPLES:
        scenario = load_scenario(path)
        for seed in range(20):
            rng = random.Random(seed)
            table = SYSTEM.new_table(scenario.setup, players=scenario.players or None)
            dice = RandomSource(seed=seed)
            for _ in range(60):
                start = time.perf_counter()
                seen = observe(table, "referee", since=table.version)
                observe_time += time.perf_counter() - start
                observed += 1
                if not seen.choices:
                    break
                action = rng.choice(seen.choices).sample(rng)
                start = time.perf_counter()
                try:
                    table = table.act(action, dice)
                    acted += 1
                except RuleError:
                    refused += 1
                act_time += time.perf_counter() - start
    print(
        f"Table.act: {act_time / max(1, acted + refused) * 1e6:,.0f} µs per action "
        f"({acted} taken, {refused} refused by a rule)"
    )
    print(f"observe (referee, choices and previews): {observe_time / observed * 1e6:,.0f} µs")
    print(f"catalogue: {len(PROCEDURE.catalogue)} action kinds")


if __name__ == "__main__":
    odds()
    play()
