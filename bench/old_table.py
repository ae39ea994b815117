"""A table's cost at 1,000, 10,000 and 100,000 events against a fresh one (issue 31, "an old
table"; issue 29, "open, act and push on a 10,000-event table within 1.5x a fresh one"), through
the store and the server's observations, without the network. Run by hand:

    .venv/bin/python bench/old_table.py [--ages 100,1000,10000,100000] [--game toy|intrigue]

Each table is the kernel's toy game (``tests/core/toy_procedure.py``, six player seats) grown
in memory by its own procedure (``rally`` by each seat in turn: the convention benchmark's
``toy_step``), or with ``--game intrigue`` Intrigue grown by short combats (every one kept in
its state: ``intrigue_step``; the action timed is a Perception roll), and written as the store
writes rows, with a snapshot at its last version (``bench/convention.py``'s
``grown_referee_table``); and the table as created. Ratios are against the first age asked
(100 events by default: issue 29's young table).
Then, CPU time (``time.process_time``), median of repeats:

- **load, cold**: ``Store.load`` after ``Store.forget`` (as a new process: the latest snapshot,
  the log paged in on demand);
- **open, cold**: every seat's first open of that table (``ObservationCache.opening``, what
  ``GET /api/tables/{id}`` and a socket without ``since`` are sent), written as JSON; and
  **as before**, once: each seat's whole observation built (``views.observation``), then cut
  to its latest events (``views.latest``), as the cache did before it held observations from
  the end of the log;
- **act + push**: one ``Store.act`` (its transaction and rows) and every seat's push
  (``ObservationCache.observation`` since the version before, as the hub builds it), written
  as JSON: per action, over 12 actions.

The machine's one-minute load average is printed beside each row; ratios against the fresh
table count more than the absolute figures on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from convention import AGES, grown_referee_table  # noqa: E402
from referee.core import Action  # noqa: E402
from referee.server.views import ObservationCache, latest, observation  # noqa: E402
from referee.store import Store, open_store  # noqa: E402
from table_age import cpu_ms  # noqa: E402


def measure(store: Store, made: dict[str, Any], game: Any) -> dict[str, float]:
    table_id, seats = made["id"], list(made["tokens"])

    def load() -> None:
        store.forget()
        store.load(table_id)

    def open_cold() -> None:
        store.forget()
        table = store.load(table_id)
        cache = ObservationCache()
        started = time.process_time()
        for seat in seats:
            json.dumps(cache.opening(table, table_id, seat))
        opened.append(time.process_time() - started)

    def open_whole() -> None:
        store.forget()
        table = store.load(table_id)
        started = time.process_time()
        for seat in seats:
            json.dumps(latest(observation(table, table_id, seat)))
        wholes.append(time.process_time() - started)

    opened: list[float] = []
    wholes: list[float] = []
    load_ms = cpu_ms(load, 5)
    for _ in range(5):
        open_cold()
    open_whole()  # once: at 100,000 events it takes seconds
    cache = ObservationCache()
    table = store.load(table_id)
    for seat in seats:
        cache.opening(table, table_id, seat)
    kind, params = game.action
    turn = [0]

    def act() -> None:
        nonlocal table
        seat = seats[turn[0] % len(seats)]
        turn[0] += 1
        before = table
        table = store.act(
            table_id,
            Action(game.players[seat][0], kind, dict(params)),
            seat=seat,
            expect_version=before.version,
        )
        for each in seats:
            json.dumps(cache.observation(table, table_id, each, before.version))

    return {
        "load, cold": load_ms,
        "open, cold (6 seats)": statistics.median(opened) * 1000,
        "open, cold, as before (6 seats)": statistics.median(wholes) * 1000,
        "act + push (6 seats)": cpu_ms(act, 12),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ages", default="100,1000,10000,100000", help="the first is the base")
    parser.add_argument("--url", default=None, help="a database URL (a new SQLite file by default)")
    parser.add_argument("--game", default="toy", choices=sorted(AGES))
    options = parser.parse_args()
    ages = [int(a) for a in options.ages.split(",")]
    game = AGES[options.game]
    with tempfile.TemporaryDirectory() as folder:
        url = options.url or f"sqlite:///{folder}/tables.sqlite3"
        made: dict[int, dict[str, Any]] = {}
        for events in [0, *ages]:
            started = time.perf_counter()
            made[events] = grown_referee_table(url, game, events)
            print(
                f"grew {made[events]['version']:,} events in {time.perf_counter() - started:.1f} s",
                file=sys.stderr,
            )
        with open_store(url) as store:
            figures = {events: measure(store, made[events], game) for events in made}
            base = figures[ages[0]]
            print("| CPU ms | as created | " + " | ".join(f"{a:,}" for a in ages) + " | load |")
            print("|---|---:|" + "---:|" * len(ages) + "---:|")
            for what, value in base.items():
                cells = [f"{figures[a][what]:.2f} ({figures[a][what] / value:.2f}×)" for a in ages]
                row = " | ".join(cells)
                print(f"| {what} | {figures[0][what]:.2f} | {row} | {os.getloadavg()[0]:.1f} |")


if __name__ == "__main__":
    main()
