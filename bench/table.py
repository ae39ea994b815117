"""Benchmarks of the table contract (issue 11). Run by `make bench`, not `make test`.

- **Append cost**: one action (two events: a roll card and a state change) on a table that
  already holds 1,000 events, against the same on one that holds 100,000 — the goal is at most
  1.2x: appending to the log and to the actions is amortised O(1), not a copy.
- **Memoised odds**: the roll card's odds of a check already seen, against its first
  computation.
- **The contract's floor**: one ``Table.act`` of a procedure that decides a single event and
  rolls nothing, in CPU time: what every game's action costs before any rule of it runs,
  against the budget an action has at issue 31's goal of 5,000 Intrigue duels per CPU second.
- **Start-up**: `referee table --help`, `referee run --help` and the games' `--help` against
  `python -c pass` (goal: each under 10x).

Ratios are what count: absolute numbers move with the machine and its load. ``--gc`` measures
the append cost in CPU time with the garbage collector on and off instead (docs/performance.md).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.core import (
    Action,
    ActionSpec,
    Catalogue,
    Choice,
    Event,
    NoParams,
    Procedure,
    RollCard,
    Table,
    TargetCheck,
)
from referee.dice import DiceSource, RandomSource

BIN = Path(sys.executable).parent
REPEATS = 7


class Duel(Procedure[int]):
    """Two fencers roll 3d6+2 against 11 in turn; a hit is a touch. Enough to measure the table."""

    catalogue = Catalogue([ActionSpec("lunge", NoParams, section="Lunge")])

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        return 0

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return (Choice(actor, "lunge"),)

    def decide(self, state: int, action: Action, dice: DiceSource) -> Sequence[Event]:
        check = TargetCheck("3d6", 11, 2)
        result = check.roll(dice)
        card = RollCard.of(check, result, f"{action.actor} lunges", rule="Lunge")
        return (
            Event("lunge.rolled", {"by": action.actor, "roll": card.to_json()}),
            Event("touch.scored" if result.is_success else "lunge.parried", {"by": action.actor}),
        )

    def evolve(self, state: int, event: Event) -> int:
        return state + 1 if event.kind == "touch.scored" else state

    def actors(self, state: int) -> Sequence[str]:
        return ("ann", "bob")


class Nothing(Duel):
    """The duel's table deciding one event and rolling nothing: the table contract's own cost."""

    catalogue = Catalogue([ActionSpec("wait", NoParams, section="Waiting")])

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return (Choice(actor, "wait"),)

    def decide(self, state: int, action: Action, dice: DiceSource) -> Sequence[Event]:
        return (Event("waited", {"by": action.actor}),)


DUEL_ACTIONS = 18.1
"""Actions in one Intrigue duel of ``bench/intrigue_duel.py`` (its own figure, steady)."""


def floor_cost(procedure: Procedure[int], kind: str, n: int = 5000) -> float:
    """Median CPU seconds per ``Table.act`` of ``kind`` over REPEATS batches of ``n``."""
    table, dice, action = Table.start(procedure, {}), RandomSource(seed=3), Action("ann", kind)
    for _ in range(200):
        table = table.act(action, dice)
    costs = []
    for _ in range(REPEATS):
        t, start = table, time.process_time()
        for _ in range(n):
            t = t.act(action, dice)
        costs.append((time.process_time() - start) / n)
    return statistics.median(costs)


def table_of(events: int) -> Table[int]:
    table = Table.start(Duel(), {}, system="duel")
    dice = RandomSource(seed=1)
    lunge = Action("ann", "lunge")
    while table.version < events:
        table = table.act(lunge, dice)
    return table


def act_cost(table: Table[int], n: int = 2000) -> float:
    """Median seconds per action over REPEATS batches of ``n`` actions from ``table``."""
    dice = RandomSource(seed=2)
    lunge = Action("bob", "lunge")
    costs = []
    for _ in range(REPEATS):
        t = table
        start = time.perf_counter()
        for _ in range(n):
            t = t.act(lunge, dice, expect_version=t.version)
        costs.append((time.perf_counter() - start) / n)
    return statistics.median(costs)


def gc_evidence() -> None:
    """``--gc``: the same two costs in CPU time, with the garbage collector on and off, and the
    time its young collections take per action (where a cost that grows with the heap shows)."""
    import gc

    young = [0.0, 0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if info["generation"] < 2:
            if phase == "start":
                young[1] = time.process_time()
            else:
                young[0] += time.process_time() - young[1]

    def cost(table: Table[int], n: int = 2000) -> tuple[float, float]:
        dice, lunge = RandomSource(seed=2), Action("bob", "lunge")
        per_action, per_young = [], []
        for _ in range(9):
            t, young[0] = table, 0.0
            start = time.process_time()
            for _ in range(n):
                t = t.act(lunge, dice, expect_version=t.version)
            per_action.append((time.process_time() - start) / n)
            per_young.append(young[0] / n)
        return statistics.median(per_action), statistics.median(per_young)

    small, large = table_of(1_000), table_of(100_000)
    gc.callbacks.append(timed)
    print("| collector | 1k events, CPU µs | 100k events | ratio | young GC µs per action |")
    print("|---|---:|---:|---:|---|")
    for label in ("on", "off"):
        if label == "off":
            gc.disable()
        (s, ys), (b, yb) = cost(small), cost(large)
        print(
            f"| {label} | {s * 1e6:.1f} | {b * 1e6:.1f} | {b / s:.2f}x "
            f"| {ys * 1e6:.2f} / {yb * 1e6:.2f} |"
        )
    gc.enable()
    gc.callbacks.remove(timed)


def startup(args: list[str], runs: int = 11) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    if "--gc" in sys.argv:
        gc_evidence()
        return
    print("## Table contract (bench/table.py)\n")
    small, large = table_of(1_000), table_of(100_000)
    built = time.perf_counter()
    table_of(20_000)
    build_rate = 20_000 / (time.perf_counter() - built)
    small_cost, large_cost = act_cost(small), act_cost(large)
    print("| table | µs per action | ratio |\n|---|---:|---:|")
    print(f"| 1,000 events | {small_cost * 1e6:.1f} | 1.00x |")
    print(f"| 100,000 events | {large_cost * 1e6:.1f} | {large_cost / small_cost:.2f}x |")
    print(f"\nBuilding a table by acting: {build_rate:,.0f} events/s.\n")

    nothing, lunge = floor_cost(Nothing(), "wait"), floor_cost(Duel(), "lunge")
    budget = 1 / (5_000 * DUEL_ACTIONS)
    print("| one `Table.act`, CPU | µs | × the budget of 5,000 duels per CPU second |")
    print("|---|---:|---:|")
    print(f"| the budget: 1 s ÷ (5,000 × {DUEL_ACTIONS} actions) | {budget * 1e6:.1f} | 1.00x |")
    print(f"| one event decided, no dice | {nothing * 1e6:.1f} | {nothing / budget:.2f}x |")
    print(f"| the toy lunge: a roll card, two events | {lunge * 1e6:.1f} | {lunge / budget:.2f}x |")
    print()

    check = TargetCheck("3d6", 12, 3)
    start = time.perf_counter()
    check.odds()
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(1000):
        TargetCheck("3d6", 12, 3).odds()
    again = (time.perf_counter() - start) / 1000
    print(
        f"Odds of a check: first {first * 1e3:.2f} ms, seen before {again * 1e6:.1f} µs "
        f"({first / again:,.0f}x)\n"
    )

    base = startup([sys.executable, "-c", "pass"])
    print("| command | ms | × `python -c pass` |\n|---|---:|---:|")
    print(f"| `python -c pass` | {base * 1e3:.0f} | 1.0x |")
    referee = str(BIN / "referee")
    commands = [
        ["roll", "3d6"],
        ["--help"],
        ["table", "--help"],
        ["run", "--help"],
        *(
            [game, "--help"]
            for game in ("intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu")
        ),
    ]
    for command in commands:
        took = startup([referee, *command])
        print(f"| `referee {' '.join(command)}` | {took * 1e3:.0f} | {took / base:.1f}x |")


if __name__ == "__main__":
    main()
