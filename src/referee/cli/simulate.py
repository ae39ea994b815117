"""``referee simulate TABLE_OR_SETUP``: how likely is this fight to kill someone?

Plays the table's main conflict (:mod:`referee.sim.conflicts`) many times through the real
procedures and prints who wins, how many rounds, how much damage, each with its 95% interval,
and the exact odds beside them where a model gives them (docs/simulate.md).

TABLE_OR_SETUP is a table record (``referee table new`` writes one), a scenario file (its setup
and players) or a bare setup file with ``--system``. Exit 2 for bad input, with one line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from referee.cli.output import console, fail

MAX_RUNS = 100_000
"""The most encounters one command plays through the procedures."""
MAX_EXACT_SECONDS = 600
"""The longest an exact model may be given (``--exact-seconds``): ten minutes."""


def _precision(text: str | None) -> float | None:
    """``--precision``: a number above 0 and at most 1 (exit 2, one line, for anything else)."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 1:  # also NaN and text
        fail(f"simulate: --precision {text!r} is not a number above 0 and at most 1 (say 0.01)")
    return value


def _table(path: Path, system_name: str | None) -> Any:
    from referee.core.errors import RefereeError
    from referee.core.loader import load_file
    from referee.core.registry import system

    if not path.is_file():
        fail(f"simulate: no file {str(path)!r}")
    try:
        data = load_file(path)
    except RefereeError as error:
        fail(f"simulate: {path}: {error}")
    if not isinstance(data, dict):
        fail(f"simulate: {path}: a table record, scenario or setup is a mapping of fields")
    try:
        if "events" in data and "actions" in data:
            from referee.cli.table import read_table

            return read_table(path)
        if "setup" in data:
            name = system_name or data.get("system")
            if not isinstance(name, str):
                fail(f"simulate: {path}: name the game with --system")
            return system(name).new_table(
                data["setup"], players=data.get("players"), start=str(data.get("start", "00:00"))
            )
        if system_name is None:
            fail(f"simulate: {path}: a bare setup needs --system (one of the games)")
        return system(system_name).new_table(data)
    except RefereeError as error:
        fail(f"simulate: {path}: {error}")


def _percent(estimate: dict[str, Any]) -> str:
    return (
        f"{100 * estimate['value']:.1f}% "
        f"[{100 * estimate['low']:.1f}, {100 * estimate['high']:.1f}]"
    )


def _exact(p: dict[str, Any]) -> str:
    shown = f"{100 * p['value']:.2f}%"
    return f"{shown} ({p['exact']})" if len(p["exact"]) <= 12 else shown


def _print(result: dict[str, Any]) -> None:
    from rich.table import Table as RichTable

    sim = result["simulation"]
    exact = result["exact"] or {}
    out = console()
    out.print(
        f"[bold]{sim['system']}[/bold]: {sim['conflict']} — {sim['runs']:,} encounters "
        f"through the rules, policy {sim['policy']}, seed {sim['seed']}"
    )
    if sim.get("stopped") == "precision":
        out.print(
            f"stopped at the precision asked after {sim['runs']:,} encounters: every 95% "
            f"interval is narrower than {sim['precision']:g}"
        )
    elif sim.get("precision") is not None:
        out.print(
            f"[yellow]precision {sim['precision']:g} not reached within {sim['runs']:,} "
            "encounters[/yellow]"
        )
    if result.get("conflict_reason"):
        out.print(
            f"[dim]{sim['conflict']}, not the game's main conflict: "
            f"{result['conflict_reason']}[/dim]"
        )
    grid = RichTable("winner", "simulated (95% interval)", "exact")
    exact_wins = {k: v for k, v in (exact.get("wins") or {}).items()}
    if exact.get("both_out"):
        exact_wins["none"] = exact["both_out"]
    for name, estimate in sim["win_rates"].items():
        known = exact_wins.get(name)
        grid.add_row(
            name,
            _percent(estimate),
            _exact(known) if known else "—",
        )
    out.print(grid)
    rounds = sim["rounds"]
    line = f"rounds: {rounds['value']:.2f} [{rounds['low']:.2f}, {rounds['high']:.2f}]"
    if exact.get("expected_rounds"):
        line += f"; exact {exact['expected_rounds']['value']:.3f}"
    out.print(line)
    for who, est in sim["damage"].items():
        out.print(f"damage to {who}: {est['value']:.2f} [{est['low']:.2f}, {est['high']:.2f}]")
    for who, p in (exact.get("deaths") or {}).items():
        out.print(f"{who} dies: exactly {_exact(p)}")
    escape, capture = exact.get("escape_by_round"), exact.get("capture_by_round")
    for n, (e, c) in enumerate(zip(escape or [], capture or [], strict=True), start=1):
        out.print(f"by round {n}: escaped exactly {_exact(e)}, caught exactly {_exact(c)}")
    for who, p in (exact.get("expected_change") or {}).items():
        est = sim["extra"].get(f"change:{who}")
        shown = f"{est['value']:.2f} [{est['low']:.2f}, {est['high']:.2f}]; " if est else ""
        out.print(f"{who}'s disposition change: {shown}exact {p['value']:.3f}")
    if result.get("exact_reason"):
        out.print(f"[dim]no exact answer: {result['exact_reason']}[/dim]")
    if sim["unfinished"] or sim["refused"]:
        out.print(
            f"[yellow]{sim['unfinished']} encounters unfinished; {sim['refused']} listed "
            "actions refused by the rules (chosen again)[/yellow]"
        )


def simulate_command(
    target: Annotated[
        Path, typer.Argument(metavar="TABLE_OR_SETUP", help="a table record, scenario or setup")
    ],
    seat: Annotated[
        str | None, typer.Option("--as", help="whose character starts the conflict")
    ] = None,
    runs: Annotated[int, typer.Option("--runs", help="how many encounters")] = 1_000,
    policy: Annotated[str, typer.Option("--policy", help="default or random")] = "default",
    seed: Annotated[int, typer.Option("--seed", help="the seed (reproducible runs)")] = 0,
    system_name: Annotated[
        str | None, typer.Option("--system", help="the game of a bare setup file")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a PNG chart")] = None,
    exact_seconds: Annotated[
        float,
        typer.Option(
            "--exact-seconds", help="how long the exact model may take before it gives up"
        ),
    ] = 60.0,
    precision: Annotated[
        str | None,
        typer.Option(
            "--precision",
            help="stop once every 95% interval is narrower than this (0 < P <= 1), "
            "at most --runs encounters",
        ),
    ] = None,
) -> None:
    """Simulate a table's main conflict: who wins, how long, how much damage."""
    from referee.core.errors import RefereeError
    from referee.sim.answer import answer

    wanted = _checked(runs, policy, exact_seconds, precision, plot)
    table = _table(target, system_name)
    if not _simulated(table.system):
        fail(f"simulate: no whole-encounter simulation for system {table.system!r}")
    if seat is not None and seat not in [s.id for s in table.seats]:
        fail(f"simulate: no seat {seat!r} at this table")
    options: dict[str, Any] = {
        "runs": runs,
        "seed": seed,
        "policy": policy,
        "seat": seat,
        "exact_seconds": exact_seconds,
        "precision": wanted,
    }
    try:
        if sys.stderr.isatty() and runs >= 200:
            from rich.console import Console
            from rich.progress import Progress

            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("simulating", total=runs)
                result = answer(
                    table, progress=lambda done: bar.update(task, completed=done), **options
                )
        else:
            result = answer(table, **options)
    except RefereeError as error:
        fail(f"simulate: {error}")
    if plot is not None:
        from referee.sim.plot import chart

        chart(result, plot)
    if as_json:
        typer.echo(json.dumps(result, indent=1))
    else:
        _print(result)
        if plot is not None:
            console().print(f"chart: {plot}")


def _checked(
    runs: int, policy: str, exact_seconds: float, precision: str | None, plot: Path | None
) -> float | None:
    """The options' bounds checked (exit 2 naming the option), and the precision asked."""
    from referee.sim.simulate import POLICIES

    if not 1 <= runs <= MAX_RUNS:
        fail(f"simulate: --runs {runs} is not between 1 and {MAX_RUNS:,}")
    if policy not in POLICIES:
        fail(f"simulate: --policy {policy!r} is not one of {', '.join(POLICIES)}")
    if not 0 < exact_seconds <= MAX_EXACT_SECONDS:
        fail(
            f"simulate: --exact-seconds {exact_seconds:g} is not above 0 and at most "
            f"{MAX_EXACT_SECONDS}"
        )
    wanted = _precision(precision)
    if plot is not None and plot.suffix.lower() != ".png":
        fail(f"simulate: --plot {str(plot)!r} must name a .png file")
    return wanted


def _simulated(name: str) -> bool:
    """Whether the game ``name`` offers a conflict to simulate: that game alone imported (the
    others' modules are half a second of CPU: docs/performance.md, "simulate (issue 31)")."""
    from referee.sim.conflicts import CONFLICTS

    return name in CONFLICTS


def register(app: typer.Typer) -> None:
    """Add ``referee simulate`` (a group run without a sub-command, so that it keeps its name
    when it is the only command loaded)."""
    group = typer.Typer(
        invoke_without_command=True,
        add_completion=False,
        context_settings={"allow_interspersed_args": True},
    )
    group.callback()(simulate_command)
    app.add_typer(group, name="simulate", help="Whole-encounter odds: simulate a conflict.")
