"""`referee kingdoms ...`: Burning Kingdoms calculators — the maneuver matrix, the exact odds
of a test for each way to spend artha, and the disposition builder.

A chronicle at the table is a table record played with ``referee table`` (sealed slips,
scenes, the reveal, artha, resolution): ``referee table new kingdoms SETUP.yaml --out FILE``,
then ``referee table actions|act|show|log FILE --as SEAT``. Every file read here goes through
the bounded loader; every bad input is one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from referee.cli.output import console, fail


def _percent(p: Fraction) -> str:
    value = float(p) * 100
    return f"{value:.2e}%" if 0 < value < 0.01 else f"{value:.2f}%"


def matrix_command(
    row: Annotated[str | None, typer.Argument(help="a maneuver (the row)")] = None,
    column: Annotated[str | None, typer.Argument(help="the maneuver it meets")] = None,
) -> None:
    """Print the maneuver matrix, or one cell of it."""
    from rich.table import Table as RichTable

    from referee.systems.kingdoms.tables import MANEUVERS, matrix

    names = {maneuver.casefold(): maneuver for maneuver in MANEUVERS}
    if row is not None:
        mine = names.get(row.casefold())
        if mine is None:
            fail(f"matrix: {row!r} is not a maneuver ({', '.join(MANEUVERS)})")
        if column is not None:
            theirs = names.get(column.casefold())
            if theirs is None:
                fail(f"matrix: {column!r} is not a maneuver ({', '.join(MANEUVERS)})")
            cell = matrix().cell(mine, theirs)
            words = {
                "I": "independent",
                "V": "versus",
                "dV": "Harry's defence dice versus",
                "aV": "Harry's attack dice versus",
            }[cell]
            typer.echo(f"{mine} meeting {theirs}: {cell} ({words})")
            return
    grid = RichTable(title="Independent and Versus Maneuver Matrix", title_justify="left")
    grid.add_column("MANEUVER")
    for maneuver in MANEUVERS:
        grid.add_column(maneuver[:5])
    for maneuver in MANEUVERS:
        if row is None or maneuver.casefold() == row.casefold():
            grid.add_row(maneuver, *(matrix().cell(maneuver, met) for met in MANEUVERS))
    console().print(grid)


def odds_command(
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
    if ob is not None and not 1 <= ob <= 40:
        fail(f"odds: an obstacle is 1 or more (at most 40), not --ob {ob}")
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


def disposition_command(
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
    from referee.core import RefereeError
    from referee.core.loader import load_file
    from referee.systems.kingdoms.disposition import (
        DispositionAnswers,
        build_disposition,
        disposition_warning,
    )
    from referee.systems.kingdoms.setup import check_disposition_file

    if interactive:
        data: Any = {"factions": _ask_dispositions()}
    elif file is not None:
        try:
            data = load_file(file)
        except RefereeError as error:
            fail(str(error))
    else:
        fail("disposition: give a FILE or --interactive")
    where = str(file) if file is not None else "disposition"
    try:
        check_disposition_file(data)
    except RefereeError as error:
        fail(f"{where}: {error}")
    factions = data["factions"]
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
            json.dumps({"factions": [t.to_json() for t in totals], "warning": warning}, indent=2)
        )
        return
    _print_dispositions(totals, warning)


def _print_dispositions(totals: list[Any], warning: str | None) -> None:
    """Each faction's disposition, step by step, and the warning if there is one."""
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


def _ask_dispositions() -> dict[str, Any]:
    """Each faction's answers to the disposition steps, asked at the prompt."""
    from referee.systems.kingdoms.tables import setup_tables

    tables = setup_tables()
    count = typer.prompt("How many factions", type=int)
    if not 1 <= count <= 20:
        fail(f"disposition: 1 to 20 factions, not {count}")
    answers_all: dict[str, Any] = {}
    for number in range(1, count + 1):
        faction = typer.prompt(f"Faction {number} name")
        answers_all[faction] = {
            "territorial_relation": typer.prompt(
                f"  Territorial relation ({', '.join(tables.territorial_relation)})"
            ),
            "lifepath_settings": typer.prompt("  Lifepath settings", type=int),
            "sub_settings": typer.prompt("  Sub-settings", type=int, default=0),
            "mechanical_aptitude": typer.prompt(
                f"  Mechanical aptitude ({', '.join(tables.mechanical_aptitude)})"
            ),
            "mystical_abilities": typer.prompt("  Types of mystical ability", type=int, default=0),
            "population_density": typer.prompt(
                f"  Population density ({', '.join(tables.population_density)})"
            ),
            "population_growth": typer.prompt(
                f"  Population growth ({', '.join(tables.population_growth)})"
            ),
            "political_placement": typer.prompt(
                f"  Political placement ({', '.join(tables.political_placement)})"
            ),
        }
    return answers_all


def register(app: typer.Typer) -> None:
    """Add the `kingdoms` command group to ``app``."""
    sub = typer.Typer(
        name="kingdoms",
        help="Burning Kingdoms: dispositions, sealed maneuver slips, scenes, the matrix, odds.",
        no_args_is_help=True,
    )
    sub.command("matrix")(matrix_command)
    sub.command("odds")(odds_command)
    sub.command("disposition")(disposition_command)
    app.add_typer(sub, name="kingdoms")
