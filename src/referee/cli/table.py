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
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import fail

if TYPE_CHECKING:
    from referee.core.fairness import DiceSeeds
    from referee.core.table import Observation, Table
    from referee.store import Store

__all__ = ["DATABASE_ENV", "open_database", "read_table", "register", "write_table"]

DATABASE_ENV = "REFEREE_DATABASE_URL"
"""The database ``referee table`` uses (``referee.store.DATABASE_ENV``, named here so that
``--help`` does not import the database libraries)."""

JOIN_BASE_ENV = "REFEREE_BASE_URL"
"""Where the server that players join through is (for the join links printed)."""

_DEFAULT_BASE = "http://127.0.0.1:8000"


def _is_file(target: str) -> bool:
    """A TABLE argument names a record file if it is an existing file; otherwise a table id."""
    return Path(target).is_file()


def open_database(url: str | None) -> Store:
    """The store at ``url`` (or ``REFEREE_DATABASE_URL``, or the default SQLite file); one line
    and exit 2 if it cannot be used."""
    from referee.store import StoreError, open_store

    try:
        return open_store(url)
    except StoreError as error:
        fail(str(error))


class _Target:
    """A TABLE argument: a record file, or a table in the database."""

    def __init__(self, target: str, database: str | None) -> None:
        self.text = target
        self.path = Path(target) if _is_file(target) else None
        self._database = database
        self._store: Store | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_database(self._database)
        return self._store

    def read(self) -> Table[Any]:
        """The table (a file verified, or the database's)."""
        from referee.core.errors import RefereeError

        if self.path is not None:
            return read_table(self.path)
        try:
            return self.store.load(self.text)
        except RefereeError as error:
            fail(str(error))


def _observed(
    ctx: typer.Context, target: str, seat: str, since: int | None = None
) -> tuple[Any, Any]:
    """The table ``target`` names, and ``seat``'s observation of it (since ``since``; by
    default since the table's version: the state and choices, no events) — or one line and
    exit 2 for a seat the table does not have."""
    from referee.core.errors import RefereeError
    from referee.core.table import observe

    table = _Target(target, _database_of(ctx)).read()
    try:
        return table, observe(table, seat, since=table.version if since is None else since)
    except RefereeError as error:
        fail(str(error))


def _database_of(ctx: typer.Context) -> str | None:
    obj = ctx.obj
    found = obj.get("database") if isinstance(obj, dict) else None
    return found if isinstance(found, str) else None


def read_table(path: Path) -> Table[Any]:
    """The table in a record file, verified (one line and exit 2 for anything wrong)."""
    from referee.core.errors import RefereeError
    from referee.core.loader import load_file
    from referee.core.registry import system

    try:
        data = load_file(path)
        if not isinstance(data, dict):
            fail(f"{path}: a table record is a mapping of fields")
        name = data.get("system")
        if not isinstance(name, str):
            fail(f"{path}: system: a table record names its game")
        return system(name).load(data)
    except RefereeError as error:
        fail(f"{path}: {error}")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    import fcntl

    lock = path.with_name(path.name + ".lock")
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _on_disk_version(path: Path) -> int | None:
    if not path.exists():
        return None
    try:
        with path.open("rb") as handle:
            data = json.load(handle)
        version = data.get("version") if isinstance(data, dict) else None
        return int(version) if isinstance(version, int) else None
    except (OSError, ValueError):
        return None


def seeds_path(path: Path) -> Path:
    """Where a record file's secret dice seeds are kept: beside it, ``FILE.seeds``."""
    return path.with_name(path.name + ".seeds")


def write_seeds(path: Path, seeds: DiceSeeds) -> None:
    """Keep a record file's dice seeds beside it, readable by its owner alone."""
    target = seeds_path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(seeds.to_json(), handle)
            handle.flush()
            os.fsync(handle.fileno())
        temporary.replace(target)
    except OSError as error:
        fail(f"cannot write {target}: {error.strerror or error}")


def read_seeds(path: Path) -> DiceSeeds:
    """A record file's dice seeds; one line and exit 2 if they are missing or not seeds."""
    from referee.core.errors import RefereeError
    from referee.core.fairness import DiceSeeds
    from referee.core.loader import load_file

    try:
        return DiceSeeds.from_json(load_file(seeds_path(path)))
    except RefereeError as error:
        fail(
            f"{path}: the table's dice seeds ({seeds_path(path)}) cannot be read: {error}; "
            "roll with --seed N to play on without them (those dice cannot be verified)"
        )


def write_table(path: Path, table: Table[Any], *, read_version: int | None) -> None:
    """Write ``table``'s record to ``path`` atomically, if the file is still at
    ``read_version`` (``None``: the file must not exist yet). A stale file: one line, exit 2."""
    from referee.core.errors import StaleTableError

    path = Path(path)
    text = json.dumps(table.to_record(), ensure_ascii=False, indent=1) + "\n"
    try:
        with _locked(path):
            current = _on_disk_version(path)
            if read_version is None and path.exists():
                fail(f"{path} exists already (give another --out, or --force)")
            if read_version is not None and current != read_version:
                raise StaleTableError(read_version, -1 if current is None else current)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            with temporary.open("w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            temporary.replace(path)
            directory = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
    except StaleTableError as error:
        fail(f"{path}: {error}; nothing was written — look again with 'referee table show'")
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")


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


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _domain(domain: dict[str, Any]) -> str:
    """A domain's JSON in one line: what a seat may write for that parameter."""
    if "one_of" in domain:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in domain["one_of"])
    if "between" in domain:
        low, high = domain["between"]
        return f"{low}..{high}"
    if "some_of" in domain:
        values = ", ".join(json.dumps(v, ensure_ascii=False) for v in domain["some_of"])
        return f"a list of [{values}]"
    if "record" in domain:
        optional = set(domain.get("optional") or ())
        fields = ", ".join(
            f"{name}{'?' if name in optional else ''}: {_domain(d)}"
            for name, d in domain["record"].items()
        )
        return "{" + fields + "}"
    if "any_of" in domain:
        return " or ".join(f"({label}) {_domain(d)}" for label, d in domain["any_of"].items())
    if "steps" in domain:
        return f"{domain['least']} to {domain['most']} steps, each {_domain(domain['steps'])}"
    if "depends" in domain:
        cases = "; ".join(
            f"if {json.dumps(v, ensure_ascii=False)}: {_domain(d)}" for v, d in domain["cases"]
        )
        return f"by {domain['depends']} ({cases})"
    return "text"


def _percent(fraction: str) -> str:
    from fractions import Fraction

    return f"{float(Fraction(fraction)) * 100:.1f}%"


def _print_observation_events(seen: Observation) -> None:
    from referee.core.cards import event_cards
    from referee.core.clock import format_time

    for event, text in zip(seen.events, seen.narration, strict=True):
        typer.echo(f"#{event.number:<4} {format_time(event.at, seen.start)}  {text}")
        for card in event_cards(event.data):
            typer.echo(f"        🎲 {card.describe()}")
            if card.odds:
                odds = ", ".join(f"{o} {_percent(p)}" for o, p in card.odds.items())
                typer.echo(f"           odds were: {odds}")


def register(app: typer.Typer) -> None:
    """Add ``referee table`` and its sub-commands."""
    sub = typer.Typer(
        help="Play any game one step at a time over a record file or the database: new, list, "
        "actions, act, show, log, undo, export, import, seats.",
        no_args_is_help=True,
    )
    app.add_typer(sub, name="table")

    @sub.callback()
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

    @sub.command("new")
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
        from referee.core.loader import load_file
        from referee.core.registry import system

        if out is not None and name is not None:
            fail("new: --name names a table in the database; a record file is named by --out")
        try:
            game = system(system_name)
            data = load_file(setup_file)
            players: dict[str, list[str]] | None = None
            begin = start or "00:00"
            if isinstance(data, dict) and "system" in data and "setup" in data:
                from referee.core.scenario import parse_scenario

                scenario = parse_scenario(data)
                if scenario.system != system_name:
                    fail(
                        f"{setup_file}: this scenario is for {scenario.system!r}, not "
                        f"{system_name!r}"
                    )
                data = scenario.setup
                players = scenario.players or None
                begin = start or scenario.start
            if start is not None:
                from referee.core.clock import _clock_seconds

                try:
                    _clock_seconds(start)
                except ValueError as error:
                    fail(f"--start: {error}")
            from referee.core.fairness import DiceSeeds
            from referee.core.table import Table

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
            store = open_database(_database_of(ctx))
            try:
                created = store.create_table(
                    game, table.setup, name=name or setup_file.stem, players=players, start=begin
                )
            except RefereeError as error:
                fail(str(error))
            typer.echo(
                f"{game.title}: a new table {store.name(created.id)!r} in the database: "
                f"{created.id} (version {created.table.version})"
            )
            _print_seats(created.table, created.id, created.tokens)
            typer.echo(
                "The tokens are shown this once and stored only as hashes: hand each to its "
                f"player (a new one: referee table seats {created.id} --mint SEAT)."
            )
            return
        if out.exists() and not force:
            fail(f"{out} exists already (give another --out, or --force)")
        write_seeds(out, seeds)
        write_table(out, table, read_version=None if not force else _on_disk_version(out))
        typer.echo(
            f"{game.title}: a new table in {out} (version {table.version}); its secret dice "
            f"seed is in {seeds_path(out)} — keep it, reveal it with "
            f"'referee table act {out} --as referee reveal_dice'"
        )
        for seat in table.seats:
            plays = f" plays {', '.join(seat.plays)}" if seat.plays else ""
            typer.echo(f"  seat {seat.id}{plays}")

    @sub.command("list")
    def list_command(
        ctx: typer.Context,
        as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
    ) -> None:
        """The tables in the database."""
        from referee.core.errors import RefereeError

        store = open_database(_database_of(ctx))
        try:
            tables = store.tables()
        except RefereeError as error:
            fail(str(error))
        if as_json:
            _print_json(
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

    @sub.command("actions")
    def actions_command(
        ctx: typer.Context,
        target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
        seat: Annotated[str, typer.Option("--as", help="your seat")],
        as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
    ) -> None:
        """What this seat may do now, with the odds of each check it would roll."""
        table, seen = _observed(ctx, target, seat)
        if as_json:
            _print_json([choice.to_json() for choice in seen.choices])
            return
        for prompt in seen.prompts:
            waits = "everyone waits" if prompt.blocking else "others may act meanwhile"
            typer.echo(f"DECIDE — {prompt.actor}: {prompt.reason}  ({prompt.section}; {waits})")
            typer.echo(f"    answer with: {', '.join(prompt.kinds)}")
            if prompt.default is not None:
                given = json.dumps(prompt.default.params, ensure_ascii=False)
                typer.echo(f"    if declined: {prompt.default.kind} {given}")
        if not seen.choices:
            waiting = ", ".join(seen.to_move) or "nobody"
            typer.echo(f"Nothing for {seat} to do now (to move: {waiting}).")
        for choice in seen.choices:
            spec = table.spec(choice.kind)
            section = f"  ({spec.section})" if spec is not None else ""
            label = f" — {choice.label}" if choice.label else ""
            answers = "  [answers a prompt]" if choice.prompt else ""
            typer.echo(f"{choice.actor}: {choice.kind}{label}{section}{answers}")
            for param, domain in choice.params.items():
                typer.echo(f"    {param} = {_domain(domain.to_json())}")
            for preview in choice.odds:
                odds = ", ".join(f"{o} {_percent(p)}" for o, p in preview.odds.items())
                typer.echo(f"    odds: {preview.label}: {preview.dice}: {odds}")

    @sub.command(
        "act", context_settings={"allow_extra_args": False, "ignore_unknown_options": False}
    )
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
        at: Annotated[
            str | None, typer.Option(help="game time: seconds, '21:00' or '+15m'")
        ] = None,
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
        where = _Target(target, _database_of(ctx))
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
            _print_json(seen.to_json())
            return
        _print_observation_events(seen)
        typer.echo(f"(version {after.version})")

    @sub.command("show")
    def show_command(
        ctx: typer.Context,
        target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
        seat: Annotated[str, typer.Option("--as", help="whose view")],
        as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
    ) -> None:
        """The table as this seat sees it: state, whose move, version."""
        from referee.core.clock import format_time
        from referee.core.registry import system

        table, seen = _observed(ctx, target, seat)
        if as_json:
            _print_json(seen.to_json())
            return
        typer.echo(
            f"{system(table.system).title} — as {seat}, version {seen.version}, "
            f"{format_time(seen.now, seen.start)}"
        )
        typer.echo(f"to move: {', '.join(seen.to_move) or 'nobody'}")
        typer.echo(json.dumps(seen.state, ensure_ascii=False, indent=2))

    @sub.command("log")
    def log_command(
        ctx: typer.Context,
        target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
        seat: Annotated[str, typer.Option("--as", help="whose view")],
        since: Annotated[int, typer.Option(help="only events after this version")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
    ) -> None:
        """The log narrated as this seat sees it, every roll with its dice and odds."""
        _, seen = _observed(ctx, target, seat, since=since)
        if as_json:
            _print_json({"events": seen.to_json()["events"], "actions": list(seen.actions)})
            return
        _print_observation_events(seen)

    @sub.command("undo")
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

        where = _Target(target, _database_of(ctx))
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
                f"undone: action {last.number} ({last.kind} by {last.actor}); "
                f"version {after.version}"
            )

    @sub.command("export")
    def export_command(
        ctx: typer.Context,
        target: Annotated[str, typer.Argument(metavar="TABLE", help="a table id (or a file)")],
    ) -> None:
        """The table's whole record as JSON (every secret in it: the referee's, for a bug
        report or to move the table to another database with 'import')."""
        _print_json(_Target(target, _database_of(ctx)).read().to_record())

    @sub.command("import")
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
        store = open_database(_database_of(ctx))
        try:
            created = store.import_record(data, name=name or record_file.stem)
        except RefereeError as error:
            fail(f"{record_file}: {error}")
        typer.echo(
            f"imported {record_file} as {created.id} ({created.table.system}, version "
            f"{created.table.version})"
        )
        _print_seats(created.table, created.id, created.tokens)

    @sub.command("seats")
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

        store = open_database(_database_of(ctx))
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
            _print_seats(table, table_id, tokens, only=tuple(tokens))
            return
        for seat in table.seats:
            plays = f" plays {', '.join(seat.plays)}" if seat.plays else ""
            state = "token live" if live.get(seat.id) else "no token (mint one)"
            typer.echo(f"  seat {seat.id}{plays}: {state}")


def _print_seats(
    table: Table[Any],
    table_id: str,
    tokens: dict[str, str],
    only: tuple[str, ...] | None = None,
) -> None:
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
