"""Benchmarks of referee.store (issue 14). Run by `make bench`, not `make test`.

On SQLite (a file in a temporary folder) and PostgreSQL (a database made for the run on
``REFEREE_BENCH_POSTGRES_URL``, default ``REFEREE_TEST_POSTGRES_URL`` or the local server, and
dropped after):

- **Appends per second**: one action with three events, stored by ``Store.act`` (one
  transaction: the compare-and-set of the table's row, the action, its events, the NOTIFY on
  PostgreSQL), against the anchor: a bare loop of one ``INSERT`` and a ``COMMIT`` through the same
  driver and connection settings (SQLite in WAL with ``synchronous=FULL``), in the same run.
  Goal: at least 0.5x the anchor. (A second anchor, four INSERTs per COMMIT, is shown too.)
- **Load time** of 1k, 10k and 100k-event tables: a cold load (a new reader, nothing cached:
  the latest snapshot plus the events after it, folded), the same with the snapshots taken away
  (the whole log folded), and a warm load (the store already holds the table: one query). Each
  table has 300 events after its latest snapshot. Goal: a 10,000-event table loads in under
  50 ms.

Medians of repeats; absolute numbers move with the machine and its load, ratios less so.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, delete, text
from sqlalchemy.engine import make_url

from referee.core import Action, ActionSpec, Catalogue, Choice, Event, NoParams, Procedure
from referee.core.registry import register_system, system
from referee.dice import DiceSource
from referee.store import Store, open_store
from referee.store.schema import SNAPSHOTS

SYSTEM = "store_bench"
PAYLOAD = "x" * 80


class Ticks(Procedure[int]):
    """One action, ``tick``, that logs three events: the store's cost, not a game's."""

    catalogue = Catalogue([ActionSpec("tick", NoParams, section="Bench", record="everyone")])

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        return 0

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return (Choice(actor, "tick"),)

    def decide(self, state: int, action: Action, dice: DiceSource) -> Sequence[Event]:
        return tuple(Event(f"tick.{i}", {"n": state + i, "note": PAYLOAD}) for i in range(3))

    def evolve(self, state: int, event: Event) -> int:
        return state + 1

    def actors(self, state: int) -> Sequence[str]:
        return ("ann",)


register_system(SYSTEM, Ticks())
TICK = Action("ann", "tick")


def median(samples: Sequence[float]) -> float:
    """The median."""
    return statistics.median(samples)


def rate(fn: Callable[[], object], n: int, repeats: int) -> float:
    """Median calls per second of ``fn`` over ``repeats`` batches of ``n``."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        rates.append(n / (time.perf_counter() - start))
    return median(rates)


def seconds(fn: Callable[[], object], repeats: int) -> float:
    """Median seconds of one call of ``fn``."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return median(samples)


# ------------------------------------------------------------------------- the databases


@contextmanager
def sqlite_database() -> Iterator[str]:
    """A SQLite file in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as folder:
        yield f"sqlite:///{folder}/bench.sqlite3"


@contextmanager
def postgres_database() -> Iterator[str]:
    """A PostgreSQL database made for this run, dropped after."""
    admin = make_url(
        os.environ.get("REFEREE_BENCH_POSTGRES_URL")
        or os.environ.get("REFEREE_TEST_POSTGRES_URL")
        or "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    ).set(drivername="postgresql+psycopg")
    name = f"referee_bench_{os.getpid()}_{secrets.token_hex(3)}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


# ------------------------------------------------------------------------------ appends


def bare_insert(store: Store, per_commit: int) -> Callable[[], None]:
    """The anchor: ``per_commit`` INSERTs then a COMMIT, through the store's own driver and
    connection settings (for SQLite: WAL, ``synchronous=FULL``)."""
    raw = store.engine.raw_connection()
    sqlite = store.url.get_backend_name() == "sqlite"
    cursor = raw.cursor()
    cursor.execute("CREATE TABLE IF NOT EXISTS bench_bare (n INTEGER, payload TEXT)")
    raw.commit()
    marker = "?" if sqlite else "%s"
    insert = f"INSERT INTO bench_bare (n, payload) VALUES ({marker}, {marker})"
    counter = iter(range(10**9))

    def one() -> None:
        if sqlite:
            cursor.execute("BEGIN")
        for _ in range(per_commit):
            cursor.execute(insert, (next(counter), PAYLOAD))
        if sqlite:
            cursor.execute("COMMIT")
        else:
            raw.commit()

    return one


def append(store: Store) -> Callable[[], None]:
    """``Store.act``: one action, three events, one transaction."""
    table_id = store.create_table(SYSTEM, {}, name="appends").id
    version = [store.version(table_id)]

    def one() -> None:
        version[0] = store.act(table_id, TICK, seat="ann", expect_version=version[0]).version

    return one


def append_rates(store: Store, n: int, repeats: int) -> dict[str, float]:
    """Median rates of appends and of the anchors, measured in alternating batches (so that
    the machine's load falls on all alike), and the median of the per-batch ratios."""
    sides = {
        "appends": append(store),
        "bare": bare_insert(store, 1),
        "bare4": bare_insert(store, 4),
    }
    rates: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(repeats):
        for name, fn in sides.items():
            rates[name].append(rate(fn, n, 1))
    figures = {name: median(values) for name, values in rates.items()}
    figures["ratio"] = median([a / b for a, b in zip(rates["appends"], rates["bare"], strict=True)])
    figures["ratio4"] = median(
        [a / b for a, b in zip(rates["appends"], rates["bare4"], strict=True)]
    )
    return figures


# --------------------------------------------------------------------------------- loads


def build(store: Store, events: int) -> str:
    """A table of ``events`` events, 300 of them after its latest snapshot: imported (one
    snapshot at the end of the import), then played on through the store."""
    table = system(SYSTEM).new_table({})
    while table.version < events - 300:
        table = table.act(TICK, None)
    table_id = store.import_record(table.to_record(), name=f"{events} events").id
    version = store.version(table_id)
    while version < events:
        version = store.act(table_id, TICK, seat="ann", expect_version=version).version
    return table_id


def load_times(url: str, table_id: str, repeats: int) -> dict[str, float]:
    """Cold (snapshot + fold), no snapshot (whole fold), warm (cached) load, in seconds."""
    reader = open_store(url)
    reader.load(table_id)  # imports and the code's fingerprint, once

    def cold() -> None:
        reader.forget()
        reader.load(table_id)

    times = {
        "cold": seconds(cold, repeats),
        "warm": seconds(lambda: reader.load(table_id), repeats),
    }
    with reader.engine.begin() as conn:
        saved = conn.execute(SNAPSHOTS.select().where(SNAPSHOTS.c.table_id == table_id)).all()
        conn.execute(delete(SNAPSHOTS).where(SNAPSHOTS.c.table_id == table_id))
    times["no snapshot"] = seconds(cold, max(1, repeats // 2))
    with reader.engine.begin() as conn:
        conn.execute(SNAPSHOTS.insert(), [row._asdict() for row in saved])
    reader.close()
    return times


# ---------------------------------------------------------------------------------- main


def bench(backend: str, url: str, args: argparse.Namespace) -> None:
    """Print one backend's figures."""
    store = open_store(url)
    f = append_rates(store, args.appends, args.repeats)
    print(
        f"{backend:<10} appends {f['appends']:7.0f}/s   bare INSERT+COMMIT {f['bare']:7.0f}/s   "
        f"ratio {f['ratio']:4.2f} (goal >= 0.5)   [4 INSERTs+COMMIT {f['bare4']:.0f}/s: "
        f"{f['ratio4']:.2f}]",
        flush=True,
    )
    for size in args.sizes:
        table_id = build(store, size)
        times = load_times(url, table_id, args.repeats)
        goal = "  (goal < 50 ms)" if size == 10_000 else ""
        print(
            f"{backend:<10} load {size:>7,} events: cold {times['cold'] * 1000:8.1f} ms   "
            f"no snapshot {times['no snapshot'] * 1000:8.1f} ms   "
            f"warm {times['warm'] * 1000:6.2f} ms{goal}",
            flush=True,
        )
    store.close()


def main() -> None:
    """Run the benchmark on SQLite and PostgreSQL."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--appends", type=int, default=100, help="appends per batch")
    parser.add_argument("--repeats", type=int, default=5, help="batches (median taken)")
    parser.add_argument(
        "--sizes", type=int, nargs="*", default=[1_000, 10_000, 100_000], help="table sizes"
    )
    parser.add_argument("--only", choices=["sqlite", "postgresql"], help="one backend")
    args = parser.parse_args()
    print(f"referee.store benchmark (python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")
    if args.only in (None, "sqlite"):
        with sqlite_database() as url:
            bench("sqlite", url, args)
    if args.only in (None, "postgresql"):
        with postgres_database() as url:
            bench("postgresql", url, args)


if __name__ == "__main__":
    main()
