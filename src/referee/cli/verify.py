"""``referee verify RECORD``: recompute every face of a table from its revealed dice seed.

Reads a table record (a file, as ``referee table`` writes or the store exports), checks it
re-decides to its own events, then recomputes every face of every epoch whose seed has been
revealed (``referee.core.fairness.verify``) and names each action whose faces differ. Exit 0
when every face checks, 1 when one does not, 2 for a file that is not a table record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def verify(
    file: Annotated[Path, typer.Argument(metavar="RECORD", help="a table record")],
) -> None:
    """Check every die of a table against its revealed seed."""
    from referee.cli.table import read_table
    from referee.core.fairness import verify as verify_table

    table = read_table(file)
    report = verify_table(table)
    for problem in report.problems:
        typer.echo(f"MISMATCH {problem}")
    typer.echo(
        f"{report.checked} actions ({report.dice} dice) checked against their revealed "
        f"seed, {len(report.problems)} mismatched; {report.sealed} actions of a seed not yet "
        f"revealed; {report.choices} revealed sealed choices checked against their commitments"
    )
    if not report.ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``referee verify`` (a group run without a sub-command, so that it keeps its name
    when it is the only command loaded)."""
    group = typer.Typer(invoke_without_command=True, add_completion=False)
    group.callback()(verify)
    app.add_typer(group, name="verify", help="Check every die of a table against its seed.")
