"""``referee table list``, ``export``, ``import`` and ``seats``: the tables in the database and
their seats' tokens.

Whoever runs these commands holds the database, so they are not asked for a seat token; the
tokens are for the players who join through the server.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import fail
from referee.cli.table.places import TableArgument, database_of, open_database
from referee.cli.table.views import print_json

if TYPE_CHECKING:
    from referee.core.table import Table

__all__ = [
    "JOIN_BASE_ENV",
    "export_command",
    "import_command",
    "list_command",
    "print_seats",
    "seats_command",
]

JOIN_BASE_ENV = "REFEREE_BASE_URL"
"""Where the server that players join through is (for the join links printed)."""

_DEFAULT_BASE = "http://127.0.0.1:8000"


def print_seats(
    table: Table[Any],
    table_id: str,
    tokens: dict[str, str],
    only: tuple[str, ...] | None = None,
) -> None:
    """Each seat (of ``only``, if given), what it plays, and its new token and join link."""
    from referee.store import join_link

    base = os.environ.get(JOIN_BASE_ENV, _DEFAULT_BASE)
    for seat in table.seats:
        if only is not None and seat.id not in only:
            continue
        plays = f" plays {', '.join(seat.plays)}" if seat.plays else ""
        token = tokens.get(seat.id)
        typer.echo(f"  seat {seat.id}{plays}")
        if token is not None:
            typer.echo(f"    token {token}")
            typer.echo(f"    join  {join_link(base, table_id, token)}")


def list_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
) -> None:
    """The tables in the database."""
    from referee.core.errors import RefereeError

    store = open_database(database_of(ctx))
    try:
        tables = store.tables()
    except RefereeError as error:
        fail(str(error))
    if as_json:
        print_json(
            [
                {
                    "id": t.id,
                    "system": t.system,
                    "name": t.name,
                    "version": t.version,
                    "created": t.created.isoformat(),
                }
                for t in tables
            ]
        )
        return
    if not tables:
        typer.echo("No tables yet (referee table new SYSTEM SETUP --name NAME).")
    for t in tables:
        when = t.created.strftime("%Y-%m-%d %H:%M")
        typer.echo(f"{t.id}  {t.system:<12} v{t.version:<6} {when}  {t.name}")


def export_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TABLE", help="a table id (or a file)")],
) -> None:
    """The table's whole record as JSON (every secret in it: the referee's, for a bug
    report or to move the table to another database with 'import')."""
    print_json(TableArgument(target, database_of(ctx)).read().to_record())


def import_command(
    ctx: typer.Context,
    record_file: Annotated[Path, typer.Argument(metavar="FILE", help="a table record")],
    name: Annotated[str | None, typer.Option("--name", help="the table's name")] = None,
) -> None:
    """Store a table record in the database as a new table (every action re-decided with its
    recorded dice first), printing its id and new seat tokens."""
    from referee.core.errors import RefereeError
    from referee.core.loader import load_file

    try:
        data = load_file(record_file)
    except RefereeError as error:
        fail(f"{record_file}: {error}")
    store = open_database(database_of(ctx))
    try:
        created = store.import_record(data, name=name or record_file.stem)
    except RefereeError as error:
        fail(f"{record_file}: {error}")
    typer.echo(
        f"imported {record_file} as {created.id} ({created.table.system}, version "
        f"{created.table.version})"
    )
    print_seats(created.table, created.id, created.tokens)


def seats_command(
    ctx: typer.Context,
    table_id: Annotated[str, typer.Argument(metavar="ID", help="a table in the database")],
    mint: Annotated[
        list[str] | None, typer.Option("--mint", help="a new token for this seat")
    ] = None,
    revoke: Annotated[
        list[str] | None, typer.Option("--revoke", help="this seat's token opens nothing")
    ] = None,
) -> None:
    """The table's seats and whether each has a live token; --mint gives a seat a new token
    (the old one stops working), --revoke takes it away."""
    from referee.core.errors import RefereeError

    store = open_database(database_of(ctx))
    try:
        table = store.load(table_id)
        tokens = {}
        for seat_id in revoke or []:
            table.seat(seat_id)
            store.revoke(table_id, seat_id)
            typer.echo(f"revoked: seat {seat_id}'s token opens nothing now")
        for seat_id in mint or []:
            table.seat(seat_id)
            tokens[seat_id] = store.mint(table_id, seat_id)
        live = store.seats(table_id)
    except RefereeError as error:
        fail(str(error))
    if tokens:
        print_seats(table, table_id, tokens, only=tuple(tokens))
        return
    for seat in table.seats:
        plays = f" plays {', '.join(seat.plays)}" if seat.plays else ""
        state = "token live" if live.get(seat.id) else "no token (mint one)"
        typer.echo(f"  seat {seat.id}{plays}: {state}")
