"""``referee run`` and ``referee schema`` (issue 3: the rules kernel).

pydantic and YAML are imported inside the commands, so other commands start fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from referee.core.events import Event
    from referee.core.scenario import ScenarioRun

REFEREE = "referee"


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _kernel_line(event: Event, start: str) -> str | None:
    """Kernel events in words: a timer set or cancelled, the clock moved on."""
    from referee.core.clock import CLOCK_ADVANCED, TIMER_CANCELLED, TIMER_SET, format_time

    data = event.data
    if event.kind == CLOCK_ADVANCED:
        return f"the clock moves to {format_time(int(data['to']), start)}"  # type: ignore[arg-type]
    if event.kind == TIMER_CANCELLED:
        return f"timer {data['name']} cancelled"
    if event.kind == TIMER_SET:
        after = data.get("after")
        due = event.at + after if isinstance(after, int) else int(data["due"])  # type: ignore[arg-type]
        fired = data.get("event")
        what = f" ({fired['kind']})" if isinstance(fired, dict) else ""
        return f"timer {data['name']} set for {format_time(due, start)}{what}"
    return None


def _narrate_event(event: Event, start: str) -> str:
    from rich.markup import escape

    from referee.core.clock import format_time

    head = f"[dim]#{event.number:<3} {format_time(event.at, start)}[/]"
    kernel = _kernel_line(event, start)
    if kernel is not None:
        return f"{head} [dim]{escape(kernel)}[/]"
    parts = [f"{k}={_value(v)}" for k, v in event.payload.items()]
    body = escape(" ".join(parts))
    secrets = " ".join(
        f"[magenta]{escape(s.name)}={escape(_value(s.value))}[/] (secret)" for s in event.secrets
    )
    hidden = f" [dim](hidden: {escape(', '.join(event.redacted))})[/]" if event.redacted else ""
    return f"{head} [bold]{escape(event.kind)}[/] {body}{' ' + secrets if secrets else ''}{hidden}"


def _narrate(run: ScenarioRun, viewer_id: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    scenario = run.scenario
    title = f" — {scenario.title}" if scenario.title else ""
    console.print(f"[bold]{scenario.system}[/]{title}  [dim](as {viewer_id})[/]")
    for event in run.events(viewer_id):
        console.print(_narrate_event(event, scenario.start))
    for result in run.expectations:
        mark = "[green]✓[/]" if result.passed else "[red]✗[/]"
        # An expectation's words may quote a secret: only the referee reads them.
        words = escape(result.description) if viewer_id == REFEREE else "checked"
        console.print(f"{mark} expect.{result.index}: {words}")


def register(app: typer.Typer) -> None:
    """Add the scenario commands to ``app``."""

    @app.command("run")
    def run(
        file: Annotated[Path, typer.Argument(help="the scenario file (YAML)")],
        viewer: Annotated[
            str,
            typer.Option(
                "--as",
                help="see the events as this viewer: referee (default), public, a player or "
                "a character",
            ),
        ] = REFEREE,
        as_json: Annotated[
            bool, typer.Option("--json", help="print JSON: events, state, expectations")
        ] = False,
    ) -> None:
        """Play a scenario file and print its events as VIEWER sees them.

        Exits 1 when an expectation fails, 2 on a bad file or a refused action.
        """
        from referee.core.errors import RefereeError
        from referee.core.scenario import load_scenario, run_scenario

        try:
            scenario = load_scenario(file)
            result = run_scenario(scenario)
        except RefereeError as error:
            raise _fail(f"{file}: {error}") from None
        if as_json:
            typer.echo(json.dumps(result.to_json(viewer), indent=2, ensure_ascii=False))
        else:
            _narrate(result, viewer)
        for failure in result.failures:
            if viewer == REFEREE:
                words = f": {failure.description} (got {_value(failure.actual)})"
            else:
                words = " (run it as the referee to see which)"
            typer.echo(f"{file}: expect.{failure.index} failed{words}", err=True)
        if result.failures:
            raise typer.Exit(1)

    @app.command("schema")
    def schema() -> None:
        """Print the JSON Schema of scenario files (for editors)."""
        from referee.core.scenario import scenario_schema

        typer.echo(json.dumps(scenario_schema(), indent=2))
