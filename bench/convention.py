"""The server under a convention's load, against an anchor (issue 29, "Benchmarks").

    .venv/bin/python bench/convention.py            # SQLite and PostgreSQL, 50 tables: 8-12 min
    .venv/bin/python bench/convention.py --quick    # SQLite, 20 tables, under a minute

Two servers, up together in the same run, on the same database, driven by the same load
tool (``bench/load_tool.py``): ``referee serve`` (one process; the kernel's toy game, six seats
a table, the ``rally`` action: a pool of d6 rolled, one event) and the anchor
(``bench/anchor_server.py``: FastAPI + uvicorn doing only the same transaction: read the
version, insert the action and its event, commit, push a small message to the table's sockets).
For each:

- **sockets**: 50 tables × 6 seats, every seat on a WebSocket that reads all the time;
- **sustained**: one keep-alive connection a table acting as fast as the server answers, each on
  the version it last read: actions/s, and the server process's CPU time from the first action
  until every socket has the last version, per action; in rounds, the two servers taking turns
  (A B, B A, …) while the other's sockets stay open, so that the rest of the machine's work
  weighs on both alike (each round's ratios are kept too);
- **paced**: 40 actions/s spread over the tables (open loop): from sending an action until the
  last of its table's six seats has a push with its version, median and p99; CPU per action;
- **memory**: the server's RSS (``VmRSS``) with the tables' sockets, after the acting above;
  then 100 more sockets that never read (raw sockets with a 4 KiB receive buffer, spread over
  the seats), the tables acted on at 40/s, RSS again, and a second after they are closed
  (before the age phase, whose old tables would weigh in otherwise);
- **age**: for each game of :data:`AGES` a table of 100 events and one of 10,000 (decided in
  memory and written to the database as the store writes them: the server has never seen
  them), six seats on each, one action at a time on each in turn: bytes per push, CPU per
  action, and the first message of a socket opened on each (its bytes and milliseconds).

Beside each figure, the machine's load average over the last minute when it was taken (the two
cores are shared with other work and with this client). Ratios are Referee's figure over the
anchor's. The figures are printed as a table and written to ``build/bench/<name>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load_tool import (  # noqa: E402
    PACE,
    PLAYERS,
    SETUP,
    age,
    flood,
    load,
    make_tables,
    never_reading,
    open_readers,
    paced,
    rss_mb,
    sustained,
)
from bench.server import (  # noqa: E402
    HOST,
    PYTHON,
    SEATS,
    TABLES,
    free_port,
    postgres_database,
    referee_env,
    wait_up,
)

OUT = ROOT / "build" / "bench"
NEVER_READING = 100
YOUNG, OLD = 100, 10_000
GOALS = {
    "cpu_per_action": "≤ 1.5× the anchor's",
    "actions_per_second": "≥ 0.8× the anchor's",
    "push_p99": "< 50 ms and ≤ 2× the anchor's",
    "age": "bytes per push and CPU per action at 10,000 events within 10% of 100 events",
    "rss_sockets": "< 400 MB with 300 sockets",
    "rss_never_reading": "+ < 50 MB with 100 never-reading sockets",
    "rss_flood": "+ < 50 MB with 100 never-reading sockets on old tables (since=0)",
}


@dataclass(frozen=True)
class Plan:
    """How big a run is: tables of six seats, seconds of each acting phase, the sustained
    phase's rounds (each server acts ``seconds × 2 / rounds_sustained`` a round, the two in
    turn), and the age phase's turns (``rounds`` of ``per`` actions on each table)."""

    tables: int = TABLES
    seconds: float = 20.0
    rounds_sustained: int = 4
    rounds: int = 10
    per: int = 12
    flood: bool = True


QUICK = Plan(tables=20, seconds=2.5, rounds_sustained=2, rounds=2, per=6, flood=False)
"""``--quick``: the same phases at 20 tables (each seat's token is a scrypt hash to mint and
one to check, and 600 of them take half a minute of this loaded machine), and without the
flood of old tables (three tables of 10,000 events to grow, and a 4 MB first message a socket)."""

FLOOD_TABLES = 3
"""Old tables the flood's never-reading sockets are spread over: 18 seats, at most six sockets
on one (the server's cap is eight a seat)."""
FLOOD_RATE = 3.0
"""Actions a second on the flooded old tables."""


# ------------------------------------------------------------------------------ the servers


@contextmanager
def serve(args: list[str], path: str, env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """Start a server on a free port (``{port}`` in ``args``) → (port, pid) once ``path``
    answers 200; stopped on leaving."""
    port = free_port()
    args = [a.replace("{port}", str(port)) for a in args]
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        wait_up(port, proc, path)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def referee_command(url: str) -> tuple[list[str], str, dict[str, str]]:
    """``referee serve``, one process, the toy game loaded, no rate limits; every client is
    127.0.0.1 here, so the per-address cap on sockets is lifted (a venue's is sized by
    docs/deploy.md)."""
    args = [PYTHON, "-c", "from referee.cli import main; main()", "serve", "--host", HOST]
    args += ["--port", "{port}", "--database", url, "--workers", "1", "--log-level", "warning"]
    env = {**referee_env(), "REFEREE_SERVER_SOCKETS_PER_ADDRESS": "100000"}
    return args, "/api/games", env


def anchor_command(url: str) -> tuple[list[str], str, dict[str, str]]:
    """The anchor server on the same database."""
    args = [PYTHON, str(ROOT / "bench" / "anchor_server.py"), "--host", HOST]
    args += ["--port", "{port}", "--database", url]
    return args, "/api/health", dict(os.environ)


# ----------------------------------------------------------------------- a table of any age


INTRIGUE_CHARACTERS = ["scarface", "krockin", "fifteen", "twelve", "twenty", "countess"]
INTRIGUE_SETUP = {
    "start": "21:30",
    "characters": {
        c: {
            "name": c.title(),
            "number": 10 + i,
            "combat": 2,
            "strength": 2,
            "stamina": 9,
            "skills": {"Perception": 2},
        }
        for i, c in enumerate(INTRIGUE_CHARACTERS)
    },
}
INTRIGUE_PLAYERS = {f"p{i}": [c] for i, c in enumerate(INTRIGUE_CHARACTERS, 1)}


def toy_step(table: Any, step: int, dice: Any) -> Any:
    """One ``rally`` of the next seat's character."""
    from referee.core import Action

    seat = f"p{step % SEATS + 1}"
    return table.act(Action(PLAYERS[seat][0], "rally", {"dice": 2}), dice, seat=seat)


def intrigue_step(table: Any, step: int, dice: Any) -> Any:
    """One short combat ("Combat!" at the next character, two rounds of Defensive Actions,
    the referee ends it): some 17 events, and one more combat in the state's ``combats``."""
    from referee.core import Action
    from referee.systems.intrigue.combat import pending_declarers, round_start

    who = INTRIGUE_CHARACTERS
    start = Action(who[step % 6], "start_combat", {"targets": [who[(step + 1) % 6]]})
    table = table.act(start, dice)
    for _ in range(2):
        while True:
            state, combat, _ = round_start(table.state, table.state.combats[-1])
            waiting = pending_declarers(state, combat)
            if not waiting:
                break
            table = table.act(Action(waiting[0], "declare", {"action": "defend"}), dice)
        while table.state.combats[-1].in_round:
            table = table.act(Action("referee", "resolve", {}), dice)
    return table.act(Action("referee", "end_combat", {}), dice)


@dataclass(frozen=True)
class Age:
    """A game whose tables are grown for the age phase: its setup and seats, how it grows, and
    the action timed on it (one a seat may take at any age)."""

    system: str
    setup: Mapping[str, Any]
    players: Mapping[str, list[str]]
    grow: Callable[[Any, int, Any], Any]
    action: tuple[str, dict[str, Any]]


AGES = {
    "toy": Age("kernel_toy", SETUP, PLAYERS, toy_step, ("rally", {"dice": 2})),
    "intrigue": Age(
        "intrigue",
        INTRIGUE_SETUP,
        INTRIGUE_PLAYERS,
        intrigue_step,
        ("roll", {"skill": "Perception", "target": 12}),
    ),
}
"""The toy (the load's own game: its state does not grow) and Intrigue (every combat fought
stays in its state: the issue's 80–90 KB pushes)."""


def grown_referee_table(url: str, game: Age, events: int) -> dict[str, Any]:
    """A new table of ``game`` grown to ``events`` events, decided in memory and written in one
    transaction as the store writes an action's rows (``referee.store.rows``), with a snapshot
    at its last version; the server has never seen it."""
    import tests.core.toy_procedure  # noqa: F401  (registers the kernel's toy game)
    from sqlalchemy import update

    from referee.dice import RandomSource
    from referee.store import open_store, snapshots
    from referee.store.engine import write_transaction
    from referee.store.rows import append
    from referee.store.schema import TABLES as ROWS

    with open_store(url) as store:
        created = store.create_table(
            game.system, game.setup, name=f"{events} events", players=game.players
        )
        first = created.table
        table, dice, step = first, RandomSource(seed=1), 0
        while table.version < events:
            table = game.grow(table, step, dice)
            step += 1
        actions = [table.actions[n] for n in range(len(first.actions), len(table.actions))]
        with write_transaction(store.engine) as conn:
            append(conn, created.id, actions, list(table.log.since(first.version)))
            conn.execute(
                update(ROWS)
                .where(ROWS.c.id == created.id)
                .values(version=table.version, actions=len(table.actions), revision=2)
            )
            snapshots.write_snapshot(conn, created.id, table)
    tokens = {seat: token for seat, token in created.tokens.items() if seat in game.players}
    return {"id": created.id, "tokens": tokens, "version": table.version, "action": game.action}


def grown_anchor_table(url: str, game: Age, events: int) -> dict[str, Any]:
    """A new anchor table of ``events`` events, its rows written in one transaction (the
    anchor knows no game: ``game`` only names the seats)."""
    from bench.anchor_server import Anchor
    from sqlalchemy import text

    anchor = Anchor(url)
    made = anchor.create(dict(game.players))
    rows = range(1, events + 1)
    with anchor.writing() as conn:
        conn.execute(
            text("INSERT INTO anchor_actions VALUES (:t, :n, 'p1', 'rally', '{\"dice\": 2}')"),
            [{"t": made["id"], "n": n} for n in rows],
        )
        conn.execute(
            text("INSERT INTO anchor_events VALUES (:t, :n, :n, 'rally.rolled', :p)"),
            [{"t": made["id"], "n": n, "p": '{"dice": [3, 4], "total": 7}'} for n in rows],
        )
        conn.execute(
            text("UPDATE anchor_tables SET version = :v, actions = :v WHERE id = :t"),
            {"v": events, "t": made["id"]},
        )
    anchor.engine.dispose()
    tokens = {s["id"]: s["token"] for s in made["seats"]}
    return {"id": made["id"], "tokens": tokens, "version": events}


# --------------------------------------------------------------------------------- one run


@dataclass
class Served:
    """One server of the run, its tables made and every seat reading: what its phases need."""

    name: str
    port: int
    pid: int
    grow: Callable[[Age, int], dict[str, Any]]
    tables: list[dict[str, Any]]
    readers: dict[str, list[Any]]
    results: dict[str, Any]
    phases: dict[str, float]


async def opened(name: str, port: int, pid: int, grow: Any, plan: Plan) -> Served:
    """The server's tables made over HTTP and a reading socket on every seat."""
    results: dict[str, Any] = {"rss_idle_mb": rss_mb(pid), "rss_idle_load": load()}
    started = time.perf_counter()
    tables = await make_tables(port, plan.tables)
    readers = await open_readers(port, tables)
    results["sockets"] = sum(len(group) for group in readers.values())
    results["rss_open_mb"] = rss_mb(pid)
    phases = {"tables and sockets": round(time.perf_counter() - started, 2)}
    return Served(name, port, pid, grow, tables, readers, results, phases)


async def alternated(servers: list[Served], plan: Plan) -> None:
    """The sustained phase in ``plan.rounds_sustained`` rounds, the servers taking turns (the
    first of one round last in the next: A B, B A, A B, …), so that whatever else the machine
    does weighs on both alike. Each server's figure is over its rounds together; each round's
    own figures are kept beside it."""
    rounds: dict[str, list[dict[str, Any]]] = {s.name: [] for s in servers}
    started = time.perf_counter()
    for n in range(plan.rounds_sustained):
        for s in servers if n % 2 == 0 else servers[::-1]:
            seconds = plan.seconds / plan.rounds_sustained * 2
            rounds[s.name].append(await sustained(s.port, s.pid, s.tables, s.readers, seconds))
    for s in servers:
        each = rounds[s.name]
        actions = sum(r["actions"] for r in each)
        window = sum(r["actions"] / r["actions_per_second"] for r in each)
        cpu_ms = sum(r["cpu_ms_per_action"] * r["actions"] for r in each)
        s.results["sustained"] = {
            "actions": actions,
            "actions_per_second": actions / window,
            "cpu_ms_per_action": cpu_ms / actions,
            "load": max(r["load"] for r in each),
            "rounds": each,
        }
        s.phases["sustained (alternated)"] = round(time.perf_counter() - started, 2)


async def measured(s: Served, plan: Plan, ages: list[str]) -> dict[str, Any]:
    """The server's phases after the sustained one (see the module's doc)."""
    port, pid, tables, readers, results = s.port, s.pid, s.tables, s.readers, s.results
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        s.phases[name], clock = round(time.perf_counter() - clock, 2), time.perf_counter()

    results["paced"] = await paced(port, pid, tables, readers, plan.seconds)
    lap("paced")
    results["rss_sockets_mb"], results["rss_sockets_load"] = rss_mb(pid), load()
    pushes = sum(r.pushes()[0] for g in readers.values() for r in g)
    sent = sum(r.pushes()[1] for g in readers.values() for r in g)
    results["bytes_per_push"] = sent / pushes
    idle = await asyncio.to_thread(  # sockets that never read, spread over the tables' seats
        lambda: [
            never_reading(port, tables[n % len(tables)], f"p{(n // len(tables)) % SEATS + 1}")
            for n in range(NEVER_READING)
        ]
    )
    results["never_reading_paced"] = await paced(port, pid, tables, readers, plan.seconds)
    results["rss_never_reading_mb"], results["rss_never_reading_load"] = rss_mb(pid), load()
    for raw in idle:
        raw.close()
    await asyncio.sleep(1)
    results["rss_never_reading_closed_mb"] = rss_mb(pid)
    lap("never reading")
    results["age"] = {}
    for name in ages:
        young, old = [await asyncio.to_thread(s.grow, AGES[name], n) for n in (YOUNG, OLD)]
        results["age"][name] = await age(port, pid, young, old, plan.rounds, plan.per)
        lap(f"age {name}")
    for group in readers.values():
        for reader in group:
            await reader.close()
    if plan.flood:
        olds = [await asyncio.to_thread(s.grow, AGES["toy"], OLD) for _ in range(FLOOD_TABLES)]
        results["flood"] = await flood(port, pid, olds, NEVER_READING, plan.seconds, FLOOD_RATE)
        lap("flood")
    results["phase_seconds"] = s.phases
    print(f"    {s.name}'s phases (s): {s.phases}", file=sys.stderr, flush=True)
    return results


async def both(ports: dict[str, tuple[int, int]], url: str, plan: Plan, ages: list[str]) -> Any:
    """Both servers, each with its tables and sockets open through the whole run: the
    sustained phase alternated between them, then each one's other phases, the anchor first
    (the anchor knows no game: one age phase, its rows alone)."""
    growers = {"anchor": grown_anchor_table, "referee": grown_referee_table}
    servers = []
    for name, (port, pid) in ports.items():
        print(f"  {name}: tables and sockets (load {load()})", file=sys.stderr, flush=True)

        def grow(game: Age, events: int, grower: Any = growers[name]) -> dict[str, Any]:
            return dict(grower(url, game, events))

        servers.append(await opened(name, port, pid, grow, plan))
    print(f"  sustained, alternated (load {load()})", file=sys.stderr, flush=True)
    await alternated(servers, plan)
    out = {}
    for s in servers:
        print(f"  {s.name}: the other phases (load {load()})", file=sys.stderr, flush=True)
        out[s.name] = await measured(s, plan, ages[:1] if s.name == "anchor" else ages)
    return out


def run(url: str, plan: Plan, ages: list[str]) -> dict[str, Any]:
    """Both servers on the database at ``url``, up together (:func:`both`)."""
    with ExitStack() as stack:
        ports = {
            name: stack.enter_context(serve(*command(url)))
            for name, command in (("anchor", anchor_command), ("referee", referee_command))
        }
        out: dict[str, Any] = asyncio.run(both(ports, url, plan, ages))
    out["ratios"] = ratios(out["referee"], out["anchor"])
    return out


def ratios(referee: dict[str, Any], anchor: dict[str, Any]) -> dict[str, Any]:
    """Referee's figures over the anchor's, and each goal met or not."""
    cpu = referee["sustained"]["cpu_ms_per_action"] / anchor["sustained"]["cpu_ms_per_action"]
    rate = referee["sustained"]["actions_per_second"] / anchor["sustained"]["actions_per_second"]
    tail = referee["paced"]["push_p99_ms"] / anchor["paced"]["push_p99_ms"]
    added = referee["rss_never_reading_mb"] - referee["rss_sockets_mb"]
    ages = referee["age"].values()
    pairs = zip(referee["sustained"]["rounds"], anchor["sustained"]["rounds"], strict=True)
    return {
        "cpu_per_action": cpu,
        "actions_per_second": rate,
        "rounds": [
            {
                "cpu_per_action": r["cpu_ms_per_action"] / a["cpu_ms_per_action"],
                "actions_per_second": r["actions_per_second"] / a["actions_per_second"],
            }
            for r, a in pairs
        ],
        "push_p99": tail,
        "rss_never_reading_added_mb": added,
        "met": {
            "cpu_per_action": cpu <= 1.5,
            "actions_per_second": rate >= 0.8,
            "push_p99": referee["paced"]["push_p99_ms"] < 50 and tail <= 2,
            "age": all(a["bytes_ratio"] <= 1.1 and a["cpu_ratio"] <= 1.1 for a in ages),
            "rss_sockets": referee["rss_sockets_mb"] < 400,
            "rss_never_reading": added < 50,
            **({"rss_flood": referee["flood"]["added_mb"] < 50} if "flood" in referee else {}),
        },
    }


# ---------------------------------------------------------------------------- the report


def rows(a: dict[str, Any], r: dict[str, Any], met: dict[str, bool]) -> list[tuple[Any, ...]]:
    """(label, anchor's, Referee's, load, goal met or ``None``) for each figure."""
    sustained, paced = ("sustained", "cpu_ms_per_action"), ("paced", "cpu_ms_per_action")
    rate = ("sustained", "actions_per_second")
    out: list[tuple[Any, ...]] = [
        ("CPU per action, sustained (ms)", sustained, "sustained", "cpu_per_action"),
        ("sustained actions/s", rate, "sustained", "actions_per_second"),
        (f"push p99 at {PACE:.0f}/s (ms)", ("paced", "push_p99_ms"), "paced", "push_p99"),
        (f"push median at {PACE:.0f}/s (ms)", ("paced", "push_median_ms"), "paced", None),
        (f"CPU per action at {PACE:.0f}/s (ms)", paced, "paced", None),
    ]
    table = [
        (label, a[k][f], r[k][f], r[where]["load"], None if goal is None else met[goal])
        for label, (k, f), where, goal in out
    ]
    for game, figures in r["age"].items():
        theirs = a["age"][next(iter(a["age"]))]
        for who, events in (("young", YOUNG), ("old", OLD)):
            for label, field in (
                ("bytes per push", "bytes_per_push"),
                ("CPU per action (ms)", "cpu_ms_per_action"),
                ("first message (bytes)", "first_message_bytes"),
                ("first message (ms)", "first_message_ms"),
            ):
                table.append(
                    (
                        f"{game}, {events:,} events: {label}",
                        theirs[who][field],
                        figures[who][field],
                        figures["load"],
                        None,
                    )
                )
    sockets = r["sockets"]
    table.append(
        (
            f"RSS, {sockets} sockets (MB)",
            a["rss_sockets_mb"],
            r["rss_sockets_mb"],
            r["rss_sockets_load"],
            met["rss_sockets"],
        )
    )
    table.append(
        (
            f"RSS, + {NEVER_READING} never reading (MB)",
            a["rss_never_reading_mb"],
            r["rss_never_reading_mb"],
            r["rss_never_reading_load"],
            met["rss_never_reading"],
        )
    )
    table.append(
        (
            f"RSS, the {NEVER_READING} closed a second (MB)",
            a["rss_never_reading_closed_mb"],
            r["rss_never_reading_closed_mb"],
            r["rss_never_reading_load"],
            None,
        )
    )
    table.append(
        (
            f"push p99 at {PACE:.0f}/s, {NEVER_READING} never reading (ms)",
            a["never_reading_paced"]["push_p99_ms"],
            r["never_reading_paced"]["push_p99_ms"],
            r["never_reading_paced"]["load"],
            None,
        )
    )
    if "flood" in r:
        f, g = r["flood"], a["flood"]
        label = f"{f['sockets']} never reading, since=0, on {f['tables']} old tables"
        table += [
            (
                "RSS before the flood (MB)",
                g["rss_before_mb"],
                f["rss_before_mb"],
                f["load_before"],
                None,
            ),
            (
                f"RSS, + {label} (MB)",
                g["rss_during_mb"],
                f["rss_during_mb"],
                f["load"],
                met["rss_flood"],
            ),
            (
                "RSS, the flood closed a second (MB)",
                g["rss_closed_mb"],
                f["rss_closed_mb"],
                f["load"],
                None,
            ),
            (
                f"push p99 at {FLOOD_RATE:.0f}/s on the flooded tables (ms)",
                g["push_p99_ms"],
                f["push_p99_ms"],
                f["load"],
                None,
            ),
        ]
    return table


def report(results: dict[str, Any]) -> None:
    """The figures as a table, one block a database."""
    for database, both in results["databases"].items():
        a, r, x = both["anchor"], both["referee"], both["ratios"]
        tables = results["plan"]["tables"]
        print(f"\n{database}: Referee against the anchor ({tables} tables × {SEATS} seats)")
        print(f"{'':56} {'anchor':>10} {'referee':>10} {'ratio':>7} {'load':>5}  goal")
        for label, anchor, referee, at, met in rows(a, r, x["met"]):
            verdict = "" if met is None else ("met" if met else "not met")
            ratio = referee / anchor if anchor else float("nan")
            print(f"{label:56} {anchor:10,.2f} {referee:10,.2f} {ratio:7.2f} {at:5.1f}  {verdict}")
        for n, pair in enumerate(x["rounds"], 1):
            label = f"  sustained, round {n} of {len(x['rounds'])}: ratios"
            print(
                f"{label:56} CPU per action {pair['cpu_per_action']:.2f}×,"
                f" actions/s {pair['actions_per_second']:.2f}×"
            )
        for game, figures in r["age"].items():
            print(
                f"{game + ', 10,000 / 100 events':56} bytes per push {figures['bytes_ratio']:.2f}×,"
                f" CPU per action {figures['cpu_ratio']:.2f}×"
            )
        print(f"{'the age goal (every game)':56} {'met' if x['met']['age'] else 'not met'}")
        for name, phase in (("sustained", r["sustained"]), ("paced", r["paced"])):
            if phase.get("missed"):
                print(f"  {len(phase['missed'])} pushes missed ({name}): {phase['missed'][:3]}")
        for game, figures in r["age"].items():
            if figures["missed"]:
                first = figures["missed"][:3]
                print(f"  {len(figures['missed'])} pushes missed (age, {game}): {first}")
        for key in ("never_reading_paced", "flood"):
            if r.get(key, {}).get("missed"):
                print(f"  {len(r[key]['missed'])} pushes missed ({key}): {r[key]['missed'][:3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="SQLite only, 20 tables, under a minute"
    )
    parser.add_argument("--seconds", type=float, help="seconds of each acting phase")
    parser.add_argument("--tables", type=int, help="tables of six seats (default 50; 20 quick)")
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgresql", "both"],
        help="which database (default: sqlite when --quick, else both)",
    )
    parser.add_argument(
        "--ages", default=None, help="games of the age phase, comma-separated (toy,intrigue)"
    )
    parser.add_argument("--name", default="convention", help="build/bench/<name>.json")
    options = parser.parse_args()
    plan = QUICK if options.quick else Plan()
    if options.seconds:
        plan = replace(plan, seconds=options.seconds)
    if options.tables:
        plan = replace(plan, tables=options.tables)
    ages = (options.ages or ("toy" if options.quick else "toy,intrigue")).split(",")
    if not set(ages) <= set(AGES):
        parser.error(f"--ages: choose among {', '.join(AGES)}")
    which = options.database or ("sqlite" if options.quick else "both")
    results: dict[str, Any] = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": options.quick,
        "plan": asdict(plan),
        "cores": os.cpu_count(),
        "load_at_start": list(os.getloadavg()),
        "goals": GOALS,
        "databases": {},
    }
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{options.name}.json"
    started = time.perf_counter()
    with ExitStack() as stack:
        for database in ("sqlite", "postgresql"):
            if which not in (database, "both"):
                continue
            print(database, file=sys.stderr, flush=True)
            if database == "sqlite":
                url = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/b.sqlite3"
            else:
                url = stack.enter_context(postgres_database())
            results["databases"][database] = run(url, plan, ages)
            # each database's figures kept as soon as they are taken
            path.write_text(json.dumps(results, indent=2) + "\n")
    results["wall_seconds"] = time.perf_counter() - started
    results["load_at_end"] = list(os.getloadavg())
    path.write_text(json.dumps(results, indent=2) + "\n")
    report(results)
    print(
        f"\n({results['wall_seconds']:.0f} s; load {results['load_at_start'][0]:.1f} at the "
        f"start, {results['load_at_end'][0]:.1f} at the end; {os.cpu_count()} cores shared by "
        f"client and server; written to {path.relative_to(ROOT)})"
    )


if __name__ == "__main__":
    main()
