"""``referee table new``, ``act`` and ``undo``: the commands that change a table.

Writes carry the version they read, so two commands on one table at once never lose or double
an action: the second is told the table is stale and changes nothing. File writes are atomic
(a temporary file, flushed to disk, renamed over the record, under a lock); the database writes
an action and its events in one transaction.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import fail, version_on_disk, write_table
from referee.cli.table.database import print_seats
from referee.cli.table.places import (
    TableArgument,
    database_of,
    open_database,
    read_seeds,
    seeds_path,
    write_seeds,
)
from referee.cli.table.views import print_json, print_observation_events

if TYPE_CHECKING:
    from referee.core.registry import System
    from referee.core.table import Table

__all__ = ["act_command", "new_command", "undo_command"]


def _setup_and_players(
    setup_file: Path, system_name: str, start: str | None
) -> tuple[Any, dict[str, list[str]] | None, str]:
    """The setup a setup file holds (or a scenario file's setup, its players and start), the
    players (``None``: one seat per character), and the wall clock at the start."""
    from referee.core.loader import load_file

    data = load_file(setup_file)
    players: dict[str, list[str]] | None = None
    begin = start or "00:00"
    if isinstance(data, dict) and "system" in data and "setup" in data:
        from referee.core.scenario import parse_scenario

        scenario = parse_scenario(data)
        if scenario.system != system_name:
            fail(f"{setup_file}: this scenario is for {scenario.system!r}, not {system_name!r}")
        data = scenario.setup
        players = scenario.players or None
        begin = start or scenario.start
    if start is not None:
        from referee.core.clock import _clock_seconds

        try:
            _clock_seconds(start)
        except ValueError as error:
            fail(f"--start: {error}")
    return data, players, begin


def new_command(
    ctx: typer.Context,
    system_name: Annotated[str, typer.Argument(metavar="SYSTEM", help="the game")],
    setup_file: Annotated[
        Path, typer.Argument(metavar="SETUP", help="a setup file, or a scenario file")
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="write a record file (without it: into the database)"),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="the table's name in the database")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite --out")] = False,
    start: Annotated[str | None, typer.Option(help="the wall clock at the start")] = None,
) -> None:
    """Start a table of SYSTEM from a setup (or a scenario's setup and players): in a record
    file with --out, otherwise in the database, printing each seat's join token."""
    from referee.core.errors import RefereeError
    from referee.core.fairness import DiceSeeds
    from referee.core.registry import system
    from referee.core.table import Table

    if out is not None and name is not None:
        fail("new: --name names a table in the database; a record file is named by --out")
    try:
        game = system(system_name)
        data, players, begin = _setup_and_players(setup_file, system_name, start)
        seeds = DiceSeeds.new()
        table = Table.start(
            game.procedure,
            game.check_setup(data),
            system=game.name,
            players=players,
            start=begin,
            dice=seeds,
        )
    except RefereeError as error:
        fail(f"{setup_file}: {error}")
    if out is None:
        _new_in_database(ctx, game, table, name or setup_file.stem, players, begin)
        return
    if out.exists() and not force:
        fail(f"{out} exists already (give another --out, or --force)")
    write_seeds(out, seeds)
    write_table(out, table, read_version=None if not force else version_on_disk(out))
    typer.echo(
        f"{game.title}: a new table in {out} (version {table.version}); its secret dice "
        f"seed is in {seeds_path(out)} — keep it, reveal it with "
        f"'referee table act {out} --as referee reveal_dice'"
    )
    for seat in table.seats:
        plays = f" plays {', '.join(seat.plays)}" if seat.plays else ""
        typer.echo(f"  seat {seat.id}{plays}")


def _new_in_database(
    ctx: typer.Context,
    game: System,
    table: Table[Any],
    name: str,
    players: dict[str, list[str]] | None,
    begin: str,
) -> None:
    """Store the new ``table`` in the database and print each seat's token, this once."""
    from referee.core.errors import RefereeError

    store = open_database(database_of(ctx))
    try:
        created = store.create_table(game, table.setup, name=name, players=players, start=begin)
    except RefereeError as error:
        fail(str(error))
    typer.echo(
        f"{game.title}: a new table {store.name(created.id)!r} in the database: "
        f"{created.id} (version {created.table.version})"
    )
    print_seats(created.table, created.id, created.tokens)
    typer.echo(
        "The tokens are shown this once and stored only as hashes: hand each to its "
        f"player (a new one: referee table seats {created.id} --mint SEAT)."
    )


def _parse_value(text: str, where: str) -> Any:
    from referee.core.loader import parse_text

    value = parse_text(text, where) if text.strip() else ""
    return "" if value is None else value


def _params(pairs: list[str]) -> dict[str, Any]:
    from referee.core.errors import ScenarioError

    params: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            fail(f"a parameter is NAME=VALUE, not {pair!r}")
        try:
            params[name] = _parse_value(value, f"parameter {name}")
        except ScenarioError as error:
            fail(str(error))
    return params


def _game_time(text: str, table: Table[Any]) -> int:
    from referee.core.clock import _clock_seconds, clock_time, parse_duration

    text = text.strip()
    try:
        if text.isdigit():
            return int(text)
        if text.startswith("+"):
            return table.now + parse_duration(text[1:])
        _clock_seconds(text)
        return clock_time(text, table.start_time)
    except ValueError as error:
        fail(f"--at: {error}")


def act_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
    kind: Annotated[str, typer.Argument(metavar="KIND", help="the action")],
    params: Annotated[
        list[str] | None, typer.Argument(metavar="NAME=VALUE...", help="its parameters")
    ] = None,
    seat: Annotated[str, typer.Option("--as", help="your seat")] = "",
    actor: Annotated[
        str | None, typer.Option(help="who acts (default: the one character you play)")
    ] = None,
    at: Annotated[str | None, typer.Option(help="game time: seconds, '21:00' or '+15m'")] = None,
    seed: Annotated[int | None, typer.Option(help="seed the dice (reproducible)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
) -> None:
    """Take an action as your seat; the events it causes are shown as you see them."""
    from referee.core.errors import RefereeError, StaleTableError
    from referee.core.fairness import REVEAL_DICE, fair_dice, is_fair, reveal_params
    from referee.core.procedures import Action
    from referee.core.table import observe
    from referee.dice import DiceSource, DiceSourceError, RandomSource

    next_seeds = None
    if not seat:
        fail("act: say which seat acts with --as SEAT")
    where = TableArgument(target, database_of(ctx))
    table = where.read()
    try:
        who = table.seat(seat)
        if actor is None:
            if who.is_referee:
                actor = "referee"
            elif len(who.plays) == 1:
                actor = who.plays[0]
            else:
                fail(f"seat {seat!r} plays {', '.join(who.plays) or 'nothing'}: say --actor")
        when = _game_time(at, table) if at is not None else None
        before = table.version
        action = Action(actor, kind, _params(params or []))
        if where.path is None:
            # The database decides and stores in one transaction; its own dice unless seeded.
            after = where.store.act(
                where.text,
                action,
                seat=seat,
                expect_version=before,
                at=when,
                dice=RandomSource(seed) if seed is not None else None,
            )
        else:
            seeds = read_seeds(where.path) if is_fair(table) else None
            if kind == REVEAL_DICE and not action.params and seeds is not None:
                params_now, next_seeds = reveal_params(seeds)
                action = Action(actor, kind, params_now)
            else:
                next_seeds = None
            if seed is not None:
                dice: DiceSource = RandomSource(seed)  # reproducible, not verifiable
            elif seeds is not None:
                dice = fair_dice(table, seeds)
            else:
                dice = RandomSource()
            after = table.act(action, dice, at=when, seat=seat, expect_version=before)
        seen = observe(after, seat, since=before)
    except StaleTableError as error:
        fail(f"{error}; nothing was written — look again with 'referee table show'")
    except (RefereeError, DiceSourceError) as error:
        fail(str(error))
    if where.path is not None:
        write_table(where.path, after, read_version=before)
        if next_seeds is not None:
            write_seeds(where.path, next_seeds)
    if as_json:
        print_json(seen.to_json())
        return
    print_observation_events(seen)
    typer.echo(f"(version {after.version})")


def undo_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
    seat: Annotated[
        str | None, typer.Option("--as", help="your seat (default: the referee's)")
    ] = None,
) -> None:
    """Take back the last action (the referee's seat, or in a game without one, the seat
    that took it)."""
    from referee.core.errors import RefereeError

    where = TableArgument(target, database_of(ctx))
    table = where.read()
    if seat is None:
        if not table.procedure.has_referee:
            fail("undo: this game has no referee: say which seat undoes with --as SEAT")
        seat = "referee"
    try:
        last = table.actions[-1] if table.actions else None
        if where.path is None:
            after = where.store.undo(where.text, seat=seat)
        else:
            after = table.undo(1, seat=seat)
    except RefereeError as error:
        fail(str(error))
    if where.path is not None:
        write_table(where.path, after, read_version=table.version)
    if last is not None:
        typer.echo(
            f"undone: action {last.number} ({last.kind} by {last.actor}); version {after.version}"
        )
