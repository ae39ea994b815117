"""``referee handouts TABLE_OR_FILE --as SEAT --out DIR``: a seat's print-ready PDFs.

TABLE_OR_FILE is a table record file (as ``referee table`` writes), a scenario file (its setup
and players, before any action: the handouts of an evening about to start), or a table id in
the database. The files are what :func:`referee.handouts.render_handouts` returns for the seat:
the referee gets everything the game prints, a player their own sheets. Exit 2 for bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from referee.cli.output import fail


def _table(target: str, database: str | None) -> Any:
    """The table named by ``target``: a record file, a scenario file, or a database id."""
    from referee.core.errors import RefereeError

    path = Path(target)
    if not path.is_file():
        from referee.cli.table import open_database

        try:
            return open_database(database).load(target)
        except RefereeError as error:
            fail(str(error))
    from referee.core.loader import load_file
    from referee.core.registry import system

    try:
        data = load_file(path)
    except RefereeError as error:
        fail(f"{path}: {error}")
    if isinstance(data, dict) and "setup" in data and "events" not in data:
        from referee.core.scenario import parse_scenario

        try:
            scenario = parse_scenario(data)
            return system(scenario.system).new_table(
                data["setup"], players=data.get("players"), start=data.get("start", "00:00")
            )
        except RefereeError as error:
            fail(f"{path}: {error}")
    from referee.cli.table import read_table

    return read_table(path)


def handouts(
    target: Annotated[
        str,
        typer.Argument(
            metavar="TABLE_OR_FILE", help="a record file, a scenario file, or a table id"
        ),
    ],
    seat: Annotated[str, typer.Option("--as", help="the seat the handouts are for")],
    out: Annotated[Path, typer.Option("--out", help="the folder to write the PDFs to")],
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter")] = "a4",
    database: Annotated[
        str | None,
        typer.Option("--database", envvar="REFEREE_DATABASE_URL", help="the database URL"),
    ] = None,
) -> None:
    """Print a seat's handouts (badges, envelopes, sheets, slips) as PDF files."""
    from referee.core.errors import RefereeError
    from referee.handouts import PAPERS, render_handouts

    if paper not in PAPERS:
        fail(f"handouts: --paper {paper!r} is not one of {', '.join(PAPERS)}")
    table = _table(target, database)
    if seat not in [s.id for s in table.seats]:
        seats = ", ".join(s.id for s in table.seats)
        fail(f"handouts: no seat {seat!r} at this table (seats: {seats})")
    try:
        files = render_handouts(table, seat, paper)
    except (RefereeError, ValueError) as error:
        fail(f"handouts: {error}")
    out.mkdir(parents=True, exist_ok=True)
    for name, pdf in files.items():
        (out / name).write_bytes(pdf)
        typer.echo(f"{out / name}  ({len(pdf) // 1024 + 1} KiB)")


def register(app: typer.Typer) -> None:
    """Add ``referee handouts`` (a group run without a subcommand, so that Typer keeps the word
    ``handouts`` when it is the only command loaded)."""
    group = typer.Typer(
        invoke_without_command=True,
        add_completion=False,
        context_settings={"allow_interspersed_args": True},
    )
    group.callback()(handouts)
    app.add_typer(group, name="handouts", help="Print a seat's handouts as PDF files.")
