"""``referee table``: play any game one step at a time, over a record file or the store
(issues 11 and 14).

A table lives in a record file (``Table.to_record``: JSON) or in the database
(:mod:`referee.store`: ``REFEREE_DATABASE_URL`` or ``--database``, by default a SQLite file in
the user's data folder). A TABLE argument that is an existing file is a record file; anything
else is a table id in the database. Every command names its seat with ``--as``: there is no
viewer that sees everything by default. Writes carry the version they read, so two commands on
one table at once never lose or double an action: the second is told the table is stale and
changes nothing. File writes are atomic (a temporary file, flushed to disk, renamed over the
record, under a lock); the database writes an action and its events in one transaction.

    referee table new intrigue setup.yaml --out evening.json      # a record file
    referee table new intrigue setup.yaml --name "Winter war"     # in the database: id, tokens
    referee table list
    referee table actions evening.json --as alice
    referee table act wq4k7m2x9p --as referee perceive perceiver=scarface target=krockin
    referee table show wq4k7m2x9p --as alice
    referee table log evening.json --as alice
    referee table undo wq4k7m2x9p --as referee
    referee table export wq4k7m2x9p > t.json
    referee table import t.json --name "Winter war, again"
    referee table seats wq4k7m2x9p --mint alice

Whoever runs these commands holds the database (or the file), so they are not asked for a seat
token; the tokens are for the players who join through the server.

Where a table lives is :mod:`~referee.cli.table.places`; the commands that change it are in
:mod:`~referee.cli.table.play`, those that show it in :mod:`~referee.cli.table.views`, and the
database's own in :mod:`~referee.cli.table.database`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.output import read_table, write_table
from referee.cli.table.database import (
    export_command,
    import_command,
    list_command,
    seats_command,
)
from referee.cli.table.places import DATABASE_ENV, open_database
from referee.cli.table.play import act_command, new_command, undo_command
from referee.cli.table.views import actions_command, log_command, show_command

__all__ = ["DATABASE_ENV", "open_database", "read_table", "register", "write_table"]


def table_options(
    ctx: typer.Context,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            envvar=DATABASE_ENV,
            help="the database URL (sqlite:///FILE or postgresql://USER@HOST/DB); by "
            "default a SQLite file in your data folder",
        ),
    ] = None,
) -> None:
    """Play any game one step at a time over a record file or the database."""
    ctx.obj = {"database": database}


def register(app: typer.Typer) -> None:
    """Add ``referee table`` and its sub-commands."""
    sub = typer.Typer(
        help="Play any game one step at a time over a record file or the database: new, list, "
        "actions, act, show, log, undo, export, import, seats.",
        no_args_is_help=True,
    )
    app.add_typer(sub, name="table")
    sub.callback()(table_options)
    sub.command("new")(new_command)
    sub.command("list")(list_command)
    sub.command("actions")(actions_command)
    sub.command(
        "act", context_settings={"allow_extra_args": False, "ignore_unknown_options": False}
    )(act_command)
    sub.command("show")(show_command)
    sub.command("log")(log_command)
    sub.command("undo")(undo_command)
    sub.command("export")(export_command)
    sub.command("import")(import_command)
    sub.command("seats")(seats_command)
