"""What observing and acting cost as a table ages (issue 29, "cost per action"; issue 31, "an old
table"), per game, through the library. Run by hand:

    .venv/bin/python bench/table_age.py [GAME ...]

Each game's demo table (``examples/demo-tables.yaml``) is grown by random legal play (every
seat's choices from ``observe``, parameters sampled from their domains) to about 100 and about
10,000 events; the tables are kept in ``build/bench/tables/`` so a second run reuses them. Then,
CPU time, median of repeats:

- **observe since**: every seat's ``observe(since=<before the last action>).to_json()`` of a
  table object no seat has observed yet (a new state, as after an action: what a push costs);
- **observe whole**: every seat's ``observe(table, seat).to_json()`` (a first load: the log);
- **act**: one ``Table.act`` of a legal action chosen beforehand.

Ratios count more than the absolute figures on a shared machine.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.core import Table, observe
from referee.core.errors import RefereeError
from referee.core.loader import load_file
from referee.core.registry import system
from referee.dice import RandomSource

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
KEPT = ROOT / "build" / "bench" / "tables"
GAMES = ("intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu")
AGES = (100, 10_000)


def demo(game: str) -> Table[Any]:
    demos = load_file(EXAMPLES / "demo-tables.yaml")
    data = load_file(EXAMPLES / str(demos[game]))
    return system(game).new_table(
        data["setup"], players=data.get("players"), start=str(data.get("start", "00:00"))
    )


def grown(game: str, events: int, seed: int = 1) -> Table[Any]:
    """The demo table after random legal play up to ``events`` events."""
    rng, dice = random.Random(seed), RandomSource(seed)
    table, refused = demo(game), 0
    while table.version < events and refused < 500:
        offered = [
            (seat.id, choice)
            for seat in table.seats
            for choice in observe(table, seat.id, since=table.version).choices
            if choice.kind not in ("reveal_dice", "seed_dice")
        ]
        if not offered:
            table = table.advance(table.now + 60)
            continue
        seat, choice = rng.choice(offered)
        try:
            table = table.act(choice.sample(rng), dice, seat=seat)
            refused = 0
        except RefereeError:
            refused += 1
            if refused % 50 == 0:
                table = table.advance(table.now + 60)
    return table


def table_of(game: str, events: int) -> Table[Any]:
    path = KEPT / f"{game}-{events}.pickle"
    if path.exists():
        table: Table[Any] = pickle.loads(path.read_bytes())
        table.__dict__.pop("_remembered", None)
        return table
    table = grown(game, events)
    KEPT.mkdir(parents=True, exist_ok=True)
    sys.setrecursionlimit(100_000)
    path.write_bytes(pickle.dumps(table))
    return table


def cpu_ms(step: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.process_time()
        step()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000


def new_state(table: Table[Any]) -> Table[Any]:
    """The table with a state object nobody has observed (as after an action)."""
    return dataclasses.replace(table, state=copy.copy(table.state))


def measure(table: Table[Any]) -> dict[str, float]:
    seats = [seat.id for seat in table.seats]
    last = table.actions[-1].events[0] - 1
    for seat in seats:  # warm up: data files, memoised odds
        observe(table, seat, since=last).to_json()
    unseen = [new_state(table) for _ in range(12)]

    def observe_since() -> None:
        fresh = unseen.pop()
        for seat in seats:
            observe(fresh, seat, since=last).to_json()

    def observe_whole() -> None:
        for seat in seats:
            observe(table, seat).to_json()

    chosen = next(
        (seat, action)
        for seat in seats
        for choice in observe(table, seat, since=table.version).choices
        for action in (choice.sample(random.Random(3)),)
        if _takes(table, seat, action)
    )
    before = [new_state(table) for _ in range(60)]

    def act() -> None:
        for _ in range(10):
            before.pop().act(chosen[1], RandomSource(3), seat=chosen[0])

    return {
        "observe since, all seats": cpu_ms(observe_since, 9),
        "observe whole, all seats": cpu_ms(observe_whole, 3),
        "act": cpu_ms(act, 5) / 10,
    }


def _takes(table: Table[Any], seat: str, action: Any) -> bool:
    try:
        table.act(action, RandomSource(3), seat=seat)
    except RefereeError:
        return False
    return True


def main() -> None:
    games = sys.argv[1:] or list(GAMES)
    print("| game | CPU ms | ~100 events | ~10,000 events | ratio |")
    print("|---|---|---:|---:|---:|")
    for game in games:
        young, old = (table_of(game, age) for age in AGES)
        a, b = measure(young), measure(old)
        for what in a:
            print(f"| {game} | {what} | {a[what]:.2f} | {b[what]:.2f} | {b[what] / a[what]:.2f}× |")


if __name__ == "__main__":
    main()
