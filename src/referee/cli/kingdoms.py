"""`referee kingdoms ...`: Burning Kingdoms at the table.

A table lives in a JSON file (``{"setup": ..., "log": [...]}``); each command replays it, acts,
and writes it back. Slips written with ``slip`` are sealed: the command prints no content, and
``show --as FACTION`` shows other factions' slips only after the reveal.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import console, fail

if TYPE_CHECKING:
    from referee.core import Event, Table

TableFile = Annotated[Path, typer.Argument(help="the table file (JSON), made by `new`")]
Seed = Annotated[
    int | None, typer.Option("--seed", help="seed the dice (default: the OS's random source)")
]


def _percent(p: Fraction) -> str:
    value = float(p) * 100
    return f"{value:.2e}%" if 0 < value < 0.01 else f"{value:.2f}%"


def _load(path: Path) -> Table[Any]:
    from referee.core import Log, RefereeError, Table
    from referee.systems.kingdoms import PROCEDURE

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        fail(f"{path}: cannot read the table: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{path}: line {error.lineno}: not a table file ({error.msg})")
    if not isinstance(data, dict) or "setup" not in data or "log" not in data:
        fail(f"{path}: not a table file (needs 'setup' and 'log')")
    try:
        return Table.replay(PROCEDURE, data["setup"], Log.from_json(data["log"]))
    except (RefereeError, KeyError, ValueError, TypeError) as error:
        fail(f"{path}: the table does not replay: {error}")


def _save(path: Path, table: Table[Any]) -> None:
    data = {"setup": dict(table.setup), "log": table.log.to_json()}
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def _say(event: Event) -> str:
    from rich.markup import escape

    data: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "effect.applied":
        return f"  [bold]{escape(str(data['text']))}[/]"
    if kind == "test.rolled":
        extra = f", attack {data['attack']}" if data.get("attack_roll") else ""
        notes = f" ({'; '.join(str(n) for n in data['notes'])})" if data.get("notes") else ""
        return (
            f"  {data['faction']}: {data['maneuver']} with {data['skill']} — {data['dice']}D"
            f"{escape(notes)}: {data['successes']} successes{extra}"
        )
    if kind == "slips.revealed":
        lines = [f"[bold]Slips revealed[/] (read by {data['reader']}; order {data['order']})"]
        for fid, slip in dict(data["slips"]).items():
            targets = ", ".join(slip["targets"]) or "-"
            lines.append(f"  {fid}: {slip['maneuver']} ({slip['skill']}) → {targets}")
        for fid, why in dict(data["void"]).items():
            lines.append(f"  [red]{fid}'s maneuver is void: {escape(str(why))}[/]")
        for row in data.get("odds") or []:
            chances = ", ".join(f"{k}: {_percent(Fraction(v))}" for k, v in row["chance"].items())
            against = (
                f"against {row['against_dice']}D"
                if row["kind"] == "versus"
                else f"Ob {row.get('obstacle')}"
            )
            needs = f", needs {row['needed']}" if row.get("needed") is not None else ""
            lines.append(
                f"  odds {row['attacker']} → {row['target'] or 'itself'} ({row['kind']}, cell "
                f"{row['cell']}, {row['dice']}D {against}{needs}): {chances}"
            )
        return "\n".join(lines)
    if kind == "maneuver.resolved":
        dispo = ", ".join(f"{f} {v}" for f, v in dict(data["dispositions"]).items())
        out = f"; out: {', '.join(data['out'])}" if data.get("out") else ""
        return (
            f"[bold]Maneuver {data['maneuver_number']} resolved[/] in seat order — the narrator "
            f"is {data['narrator']} (most successes); dispositions: {dispo}{out}"
        )
    shown = {k: v for k, v in data.items() if k not in ("roll", "attack_roll", "rolls")}
    hidden = f" [dim](sealed: {', '.join(event.redacted)})[/]" if event.redacted else ""
    return f"[bold]{escape(kind)}[/] {escape(json.dumps(shown, ensure_ascii=False))}{hidden}"


def _act(
    path: Path, actor: str, kind: str, params: dict[str, Any], seed: int | None, quiet: bool = False
) -> Table[Any]:
    from referee.core import Action, RefereeError
    from referee.dice import DiceSourceError, RandomSource

    table = _load(path)
    before = len(table.log)
    try:
        table = table.act(Action(actor, kind, params), RandomSource(seed))
    except (RefereeError, DiceSourceError) as error:
        fail(f"{path}: {actor} {kind}: {error}")
    _save(path, table)
    if not quiet:
        for event in table.log.events[before:]:
            console().print(_say(event.seen_by("referee") or event), highlight=False)
    return table


def _parse_value(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def register(app: typer.Typer) -> None:
    """Add the `kingdoms` command group to ``app``."""
    sub = typer.Typer(
        name="kingdoms",
        help="Burning Kingdoms: dispositions, sealed maneuver slips, scenes, the matrix, odds.",
        no_args_is_help=True,
    )

    @sub.command("matrix")
    def matrix_cmd(
        row: Annotated[str | None, typer.Argument(help="a maneuver (the row)")] = None,
        column: Annotated[str | None, typer.Argument(help="the maneuver it meets")] = None,
    ) -> None:
        """Print the maneuver matrix, or one cell of it."""
        from rich.table import Table as RichTable

        from referee.systems.kingdoms.tables import MANEUVERS, matrix

        names = {m.casefold(): m for m in MANEUVERS}
        if row is not None:
            r = names.get(row.casefold())
            if r is None:
                fail(f"matrix: {row!r} is not a maneuver ({', '.join(MANEUVERS)})")
            if column is not None:
                c = names.get(column.casefold())
                if c is None:
                    fail(f"matrix: {column!r} is not a maneuver ({', '.join(MANEUVERS)})")
                cell = matrix().cell(r, c)
                words = {
                    "I": "independent",
                    "V": "versus",
                    "dV": "Harry's defence dice versus",
                    "aV": "Harry's attack dice versus",
                }[cell]
                typer.echo(f"{r} meeting {c}: {cell} ({words})")
                return
        grid = RichTable(title="Independent and Versus Maneuver Matrix", title_justify="left")
        grid.add_column("MANEUVER")
        for m in MANEUVERS:
            grid.add_column(m[:5])
        for r_name in MANEUVERS:
            if row is None or r_name.casefold() == row.casefold():
                grid.add_row(r_name, *(matrix().cell(r_name, c) for c in MANEUVERS))
        console().print(grid)

    @sub.command("odds")
    def odds_cmd(
        dice: Annotated[int, typer.Argument(help="dice in the pool (exponent + FoRKs + help)")],
        shade: Annotated[str, typer.Option(help="B, G or W")] = "B",
        ob: Annotated[int | None, typer.Option("--ob", help="the obstacle")] = None,
        versus: Annotated[
            int | None, typer.Option("--versus", help="the defender's dice in a versus test")
        ] = None,
        versus_shade: Annotated[str, typer.Option(help="the defender's shade")] = "B",
        open_ended: Annotated[bool, typer.Option("--open-ended", help="6s explode")] = False,
        fate: Annotated[int, typer.Option(help="Fate points available")] = 1,
        persona: Annotated[int, typer.Option(help="Persona points available")] = 3,
        deeds: Annotated[int, typer.Option(help="Deeds points available")] = 2,
    ) -> None:
        """Exact odds of a test for each way to spend the artha available."""
        from rich.table import Table as RichTable

        from referee.core import RefereeError
        from referee.systems.kingdoms.dice import (
            Artha,
            BurningPool,
            Shade,
            artha_choices,
            obstacle_odds,
            versus_odds,
        )

        if (ob is None) == (versus is None):
            fail("odds: give exactly one of --ob N and --versus N")
        if ob is not None and ob < 1:
            fail(f"odds: an obstacle is 1 or more, not --ob {ob}")
        if min(fate, persona, deeds) < 0:
            fail(
                f"odds: artha available is 0 or more, not --fate {fate} --persona {persona} "
                f"--deeds {deeds}"
            )
        if dice < 0 or dice > 40 or (versus is not None and not 0 <= versus <= 40):
            fail(f"odds: a pool has 0 to 40 dice, not {dice if not 0 <= dice <= 40 else versus}")
        try:
            mine = BurningPool(dice, Shade.parse(shade), open_ended=open_ended)
            theirs = BurningPool(versus or 0, Shade.parse(versus_shade))
        except RefereeError as error:
            fail(f"odds: {error}")
        what = f"Ob {ob}" if ob is not None else f"{versus}D versus (the defender wins ties)"
        table = RichTable(title=f"{dice}{mine.shade.letter} against {what}", title_justify="left")
        for column in ("Artha", "Dice", "Chance", "%"):
            table.add_column(column, justify="right" if column != "Artha" else "left")
        for artha in artha_choices(mine, {"fate": fate, "persona": persona, "deeds": deeds}):
            if ob is not None:
                p = obstacle_odds(mine, artha, ob)
            else:
                p = versus_odds(mine, theirs, artha, Artha())
            table.add_row(artha.label(), str(mine.dice_with(artha)), str(p), _percent(p))
        console().print(table)

    @sub.command("disposition")
    def disposition_cmd(
        file: Annotated[
            Path | None,
            typer.Argument(help="YAML: factions: {id: answers}, optional players: N"),
        ] = None,
        interactive: Annotated[
            bool, typer.Option("--interactive", "-i", help="answer the steps at the prompt")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    ) -> None:
        """Build each faction's starting disposition, step by step (Steps One to Seven)."""
        import yaml

        from referee.core import RefereeError
        from referee.systems.kingdoms.disposition import (
            DispositionAnswers,
            build_disposition,
            disposition_warning,
        )
        from referee.systems.kingdoms.tables import setup_tables

        if interactive:
            t = setup_tables()
            count = typer.prompt("How many factions", type=int)
            answers_all: dict[str, Any] = {}
            for i in range(count):
                fid = typer.prompt(f"Faction {i + 1} name")
                answers_all[fid] = {
                    "territorial_relation": typer.prompt(
                        f"  Territorial relation ({', '.join(t.territorial_relation)})"
                    ),
                    "lifepath_settings": typer.prompt("  Lifepath settings", type=int),
                    "sub_settings": typer.prompt("  Sub-settings", type=int, default=0),
                    "mechanical_aptitude": typer.prompt(
                        f"  Mechanical aptitude ({', '.join(t.mechanical_aptitude)})"
                    ),
                    "mystical_abilities": typer.prompt(
                        "  Types of mystical ability", type=int, default=0
                    ),
                    "population_density": typer.prompt(
                        f"  Population density ({', '.join(t.population_density)})"
                    ),
                    "population_growth": typer.prompt(
                        f"  Population growth ({', '.join(t.population_growth)})"
                    ),
                    "political_placement": typer.prompt(
                        f"  Political placement ({', '.join(t.political_placement)})"
                    ),
                }
            data: Any = {"factions": answers_all}
        elif file is not None:
            try:
                data = yaml.safe_load(file.read_text(encoding="utf-8"))
            except OSError as error:
                fail(f"{file}: cannot read: {error.strerror}")
            except yaml.YAMLError as error:
                mark = getattr(error, "problem_mark", None)
                where = f" at line {mark.line + 1}" if mark else ""
                fail(f"{file}: not valid YAML{where}")
        else:
            fail("disposition: give a FILE or --interactive")
        where = str(file) if file is not None else "disposition"
        factions = data.get("factions") if isinstance(data, dict) else None
        if not isinstance(factions, dict) or not factions:
            fail(f"{where}: needs 'factions:' with each faction's answers")
        players = data.get("players")
        totals = []
        for fid, answers in factions.items():
            try:
                built = build_disposition(
                    DispositionAnswers.from_json(str(fid), answers),
                    len(factions),
                    None if players is None else int(players),
                )
            except KeyError as error:
                fail(f"{where}: factions.{fid}: missing {error}")
            except (RefereeError, ValueError, TypeError, AttributeError) as error:
                fail(f"{where}: factions.{fid}: {error}")
            totals.append(built)
        warning = disposition_warning(totals)
        if as_json:
            typer.echo(
                json.dumps(
                    {"factions": [t.to_json() for t in totals], "warning": warning}, indent=2
                )
            )
            return
        from rich.table import Table as RichTable

        for built in totals:
            grid = RichTable(title=f"{built.faction}: {built.total}", title_justify="left")
            grid.add_column("Step")
            grid.add_column("Answer")
            grid.add_column("Points", justify="right")
            for step in built.steps:
                grid.add_row(step.step, step.answer, f"{step.points:+d}")
            console().print(grid)
        if warning:
            console().print(f"[yellow]warning: {warning}[/]")

    @sub.command("new")
    def new_cmd(
        table_file: TableFile,
        setup: Annotated[
            Path, typer.Argument(help="the chronicle's set-up (YAML), as a scenario's setup:")
        ],
        force: Annotated[bool, typer.Option("--force", help="overwrite the table file")] = False,
    ) -> None:
        """Start a table from a set-up file."""
        import yaml

        from referee.core import RefereeError, Table
        from referee.systems.kingdoms import PROCEDURE

        if table_file.exists() and not force:
            fail(f"{table_file}: exists (use --force to overwrite)")
        try:
            data = yaml.safe_load(setup.read_text(encoding="utf-8"))
        except OSError as error:
            fail(f"{setup}: cannot read: {error.strerror}")
        except yaml.YAMLError:
            fail(f"{setup}: not valid YAML")
        if isinstance(data, dict) and isinstance(data.get("setup"), dict):
            data = data["setup"]
        if not isinstance(data, dict):
            fail(f"{setup}: a set-up is a mapping with 'factions:'")
        try:
            table = Table.start(PROCEDURE, data)
        except RefereeError as error:
            fail(f"{setup}: {error}")
        _save(table_file, table)
        typer.echo(
            f"{table_file}: a chronicle of {', '.join(table.state.seats)} ({table.state.phase})"
        )

    @sub.command("slip")
    def slip_cmd(
        table_file: TableFile,
        faction: Annotated[str, typer.Argument(help="the faction writing the slip")],
        maneuver: Annotated[str, typer.Argument(help="the maneuver")],
        skill: Annotated[str, typer.Argument(help="the skill tested")],
        target: Annotated[list[str] | None, typer.Option("--target", help="target(s)")] = None,
        fork: Annotated[list[str] | None, typer.Option("--fork", help="FoRKed skills")] = None,
        persona: Annotated[int, typer.Option(help="Persona points spent")] = 0,
        deeds_before: Annotated[
            bool, typer.Option("--deeds-before", help="Deeds: double the exponent")
        ] = False,
        defence: Annotated[int, typer.Option(help="Harry: dice to defence")] = 0,
        helps: Annotated[str | None, typer.Option(help="a faction this leader helps")] = None,
        downtime: Annotated[int, typer.Option(help="Conserve/Fortify: successes to downtime")] = 0,
        roller: Annotated[str, typer.Option(help="leader or second")] = "leader",
        substitute: Annotated[bool, typer.Option(help="a racial skill or spell song")] = False,
    ) -> None:
        """Write (or rewrite) a faction's sealed maneuver slip; nothing of it is printed."""
        params: dict[str, Any] = {
            "maneuver": maneuver,
            "skill": skill,
            "targets": list(target or []),
            "forks": list(fork or []),
            "persona": persona,
            "deeds_before": deeds_before,
            "defence": defence,
            "helps": helps,
            "downtime": downtime,
            "roller": roller,
            "substitute": substitute,
        }
        table = _act(table_file, faction, "write_slip", params, None, quiet=True)
        typer.echo(f"{faction}'s slip is sealed (maneuver {table.state.maneuver})")

    @sub.command("scene")
    def scene_cmd(
        table_file: TableFile,
        faction: Annotated[str, typer.Argument()],
        kind: Annotated[str, typer.Argument(help="color, interstitial, building or conflict")],
        target: Annotated[str | None, typer.Option(help="conflict: the faction aimed at")] = None,
        skill: Annotated[str | None, typer.Option(help="building: the skill rolled")] = None,
        ob: Annotated[int | None, typer.Option("--ob", help="building: the obstacle")] = None,
        by: Annotated[str, typer.Option(help="leader or second")] = "leader",
        helper: Annotated[list[str] | None, typer.Option(help="factions lending dice")] = None,
        partner: Annotated[str | None, typer.Option("--with", help="interstitial partner")] = None,
        outcome: Annotated[str, typer.Option(help="conflict: the outcome reported")] = "",
        player: Annotated[str | None, typer.Option(help="two-player factions: who")] = None,
        seed: Seed = None,
    ) -> None:
        """Play a scene: color and interstitial roll nothing, building rolls once, conflicts are
        recorded."""
        params: dict[str, Any] = {
            "kind": kind,
            "by": by,
            "helpers": list(helper or []),
            "outcome": outcome,
        }
        for key, value in (
            ("target", target),
            ("skill", skill),
            ("ob", ob),
            ("with", partner),
            ("player", player),
        ):
            if value is not None:
                params[key] = value
        _act(table_file, faction, "scene", params, seed)

    @sub.command("pass")
    def pass_cmd(table_file: TableFile, faction: Annotated[str, typer.Argument()]) -> None:
        """A faction passes its remaining scenes this maneuver."""
        _act(table_file, faction, "pass", {}, None)

    @sub.command("scenes")
    def scenes_cmd(table_file: TableFile) -> None:
        """Show the scene economy left to each faction this maneuver."""
        from rich.table import Table as RichTable

        from referee.systems.kingdoms.tables import setup_tables

        table = _load(table_file)
        state = table.state
        allowed = setup_tables().scenes
        grid = RichTable(title=f"Maneuver {state.maneuver}: scenes left", title_justify="left")
        grid.add_column("Faction")
        for kind in allowed:
            grid.add_column(kind, justify="right")
        grid.add_column("Status")
        for fid in state.standing():
            used = {
                k: sum(1 for s in state.scenes if s.faction == fid and s.kind == k) for k in allowed
            }
            status = "passed" if fid in state.passed else "playing"
            if state.factions[fid].cannot_act:
                status += ", cannot act"
            grid.add_row(fid, *(str(allowed[k] - used[k]) for k in allowed), status)
        console().print(grid)

    @sub.command("reveal")
    def reveal_cmd(
        table_file: TableFile,
        reader: Annotated[str, typer.Argument(help="the faction reading the slips")],
        seed: Seed = None,
    ) -> None:
        """Reveal every slip, show each engagement's odds, and roll every test at once."""
        _act(table_file, reader, "reveal", {}, seed)

    @sub.command("artha")
    def artha_cmd(
        table_file: TableFile,
        faction: Annotated[str, typer.Argument()],
        fate: Annotated[bool, typer.Option("--fate", help="spend Fate")] = False,
        deeds: Annotated[
            bool, typer.Option("--deeds", help="spend Deeds: reroll failures")
        ] = False,
        pool: Annotated[str, typer.Option(help="Harry: defence or attack")] = "defence",
        seed: Seed = None,
    ) -> None:
        """After the roll: spend Fate and/or Deeds, or (with neither) keep the roll."""
        if fate or deeds:
            _act(
                table_file,
                faction,
                "spend_artha",
                {"fate": fate, "deeds": deeds, "pool": pool},
                seed,
            )
        else:
            _act(table_file, faction, "keep", {}, None)

    @sub.command("resolve")
    def resolve_cmd(
        table_file: TableFile, reader: Annotated[str, typer.Argument(help="the reader")]
    ) -> None:
        """Apply every maneuver in seat order from the reader, each effect explained."""
        _act(table_file, reader, "resolve", {}, None)

    @sub.command("act")
    def act_cmd(
        table_file: TableFile,
        faction: Annotated[str, typer.Argument()],
        action: Annotated[str, typer.Argument(help="any action (see the procedure's docs)")],
        param: Annotated[
            list[str] | None, typer.Option("--param", "-p", help="key=value (YAML value)")
        ] = None,
        seed: Seed = None,
    ) -> None:
        """Take any action: maintenance, health_test, join, choose_conqueror, next_maneuver..."""
        params: dict[str, Any] = {}
        for item in param or []:
            key, sep, value = item.partition("=")
            if not sep or not key:
                fail(f"act: --param {item!r} is not key=value")
            params[key] = _parse_value(value)
        _act(table_file, faction, action, params, seed)

    @sub.command("show")
    def show_cmd(
        table_file: TableFile,
        viewer: Annotated[
            str, typer.Option("--as", help="referee, public or a faction")
        ] = "referee",
        as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    ) -> None:
        """The table's log and state as VIEWER may see them (sealed slips stay sealed)."""
        table = _load(table_file)
        events = table.view(viewer)
        if as_json:
            typer.echo(
                json.dumps(
                    {"events": [e.to_json() for e in events], "state": table.visible_state(viewer)},
                    indent=1,
                    ensure_ascii=False,
                    default=str,
                )
            )
            return
        for event in events:
            console().print(f"[dim]#{event.number}[/] " + _say(event), highlight=False)
        state = table.state
        dispo = ", ".join(
            f"{f} {x.disposition}{' (out)' if x.out else ''}" for f, x in state.factions.items()
        )
        console().print(
            f"maneuver {state.maneuver} ({state.phase}); cap {state.cap}; {dispo}", highlight=False
        )

    app.add_typer(sub, name="kingdoms")
