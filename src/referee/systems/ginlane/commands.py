"""`referee ginlane ...`: Gin Lane at the table.

- ``roll``: 2d6 + skill with tagged Aspects (option a or b), its exact odds first, then the roll.
- ``odds``: the chance to beat a difficulty with 0, 1, 2 … tags, under both tagging options.
- ``ladder``: the difficulty ladder and the success levels.
- ``sheet``: a character sheet checked (pyramid, Experience, tracks, languages).

A scene is played step by step with ``referee table`` (``new ginlane SETUP.yaml``, ``actions``,
``act``, ``show``, ``log``, ``undo``) over a table record, narrated by the game's own event
vocabulary; ``referee run`` plays a whole scenario file. The rules live in
:mod:`referee.systems.ginlane`; this module parses, calls and renders.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import console, fail

if TYPE_CHECKING:
    from referee.core import CheckOdds
    from referee.systems.ginlane.rolls import Resolution

MODE_HELP = "tagging option: a (one more d6 per tag, keep the best two) or b (re-roll dice)"


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def _odds_table(title: str, odds: CheckOdds) -> Any:
    from rich.table import Table

    from referee.systems.ginlane.tables import success_level

    table = Table(title=title, title_justify="left")
    table.add_column("Margin", justify="right")
    table.add_column("Result")
    table.add_column("Probability", justify="right")
    table.add_column("%", justify="right")
    for margin, p in odds.margins.items():
        name = success_level(margin).success if margin >= 0 else "Failure"
        table.add_row(f"{margin:+d}", name, str(p), _percent(p))
    return table


def _summary(odds: CheckOdds) -> str:
    return (
        f"success {odds.success} = {_percent(odds.success)}, "
        f"Match {odds.tie} = {_percent(odds.tie)}, "
        f"failure {odds.failure} = {_percent(odds.failure)}"
    )


SKILL_BOUND = 100
"""Skills and modifiers beyond ±100 are no Gin Lane roll: refused as bad input."""


def _bounded(name: str, value: int) -> None:
    if not -SKILL_BOUND <= value <= SKILL_BOUND:
        fail(f"{name} {value}: give a whole number from -{SKILL_BOUND} to {SKILL_BOUND}")


def roll_command(
    skill: Annotated[int, typer.Argument(help="the skill level added to 2d6 (-2 untrained)")],
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            help="a difficulty to beat: a number (6 Negligible … 12 Heroic) or a ladder name",
        ),
    ] = None,
    against: Annotated[
        int | None, typer.Option("--against", help="an opposed roll: the opposition's skill")
    ] = None,
    tags: Annotated[int, typer.Option(help="Aspects tagged")] = 0,
    free: Annotated[int, typer.Option(help="how many of the tags are free")] = 0,
    against_tags: Annotated[int, typer.Option(help="Aspects the opposition tags")] = 0,
    modifier: Annotated[
        int, typer.Option(help="other adjustments: -1 supplemental, +2 full defence")
    ] = 0,
    mode: Annotated[str, typer.Option(help=MODE_HELP)] = "a",
    seed: Annotated[int | None, typer.Option(help="seed for a reproducible roll")] = None,
    odds_only: Annotated[bool, typer.Option("--odds-only", help="do not roll")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Show the exact odds of a roll (with any number of tags), then roll it."""
    from referee.core import RefereeError
    from referee.dice import RandomSource
    from referee.systems.ginlane.rolls import (
        DifficultyCheck,
        GinLaneRoll,
        OpposedRoll,
        TagMode,
    )
    from referee.systems.ginlane.tables import difficulty_number, ladder_name

    _bounded("skill", skill)
    _bounded("--modifier", modifier)
    _bounded("--against", against or 0)
    if (vs is None) == (against is None):
        fail("roll: give exactly one of --vs DIFFICULTY and --against SKILL")
    try:
        tag_mode = TagMode.parse(mode)
        spec = GinLaneRoll(skill, tags=tags, mode=tag_mode, modifier=modifier, free_tags=free)
        check: DifficultyCheck | OpposedRoll
        if vs is not None:
            difficulty = difficulty_number(vs)
            _bounded("--vs", difficulty)
            check = DifficultyCheck(spec, difficulty)
            title = (
                f"2d6{skill + modifier:+d} with {tags} tag(s), option {tag_mode.value}, "
                f"against {difficulty} ({ladder_name(difficulty)})"
            )
        else:
            assert against is not None
            other = GinLaneRoll(against, tags=against_tags, mode=tag_mode)
            check = OpposedRoll(spec, other)
            title = (
                f"2d6{skill + modifier:+d} with {tags} tag(s) against 2d6{against:+d} with "
                f"{against_tags} tag(s), option {tag_mode.value}"
            )
        odds = check.odds()
        result = None if odds_only else check.roll(RandomSource(seed))
    except RefereeError as error:
        fail(str(error))
    if as_json:
        data: dict[str, Any] = {"odds": odds.to_json()}
        if result is not None:
            data["result"] = result.to_json()
            data["result"]["paid"] = result.actor.tags_paid
        sys.stdout.write(json.dumps(data) + "\n")
        return
    _print_roll(title, odds, result)


def _print_roll(title: str, odds: CheckOdds, result: Resolution | None) -> None:
    """A roll's odds as a table and in one line, then what was rolled (if it was)."""
    out = console()
    out.print(_odds_table(title, odds))
    out.print(_summary(odds), highlight=False)
    if result is not None:
        out.print(f"rolled: {result.actor.shown}", highlight=False, markup=False)
        if result.opponent is not None:
            out.print(f"opposition: {result.opponent.shown}", highlight=False, markup=False)
        out.print(
            f"[bold]{result.success_level}[/] (margin {result.margin:+d}); "
            f"Experience Pool points to pay: {result.actor.tags_paid}",
            highlight=False,
        )


def odds_command(
    skill: Annotated[int, typer.Argument(help="the skill level added to 2d6")],
    vs: Annotated[str, typer.Option("--vs", help="the difficulty to beat")],
    max_tags: Annotated[int, typer.Option(help="show 0 to this many tags")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """The chance to beat a difficulty with 0, 1, 2 … tags, under options a and b."""
    from rich.table import Table

    from referee.core import RefereeError
    from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll, TagMode
    from referee.systems.ginlane.tables import difficulty_number

    _bounded("skill", skill)
    if not 0 <= max_tags <= 6:
        fail(f"--max-tags {max_tags}: give 0 to 6")
    try:
        difficulty = difficulty_number(vs)
        _bounded("--vs", difficulty)
        rows = []
        for n in range(max_tags + 1):
            a = DifficultyCheck(GinLaneRoll(skill, tags=n), difficulty).odds()
            rerolls = GinLaneRoll(skill, tags=n, mode=TagMode.REROLL)
            rows.append((n, a, DifficultyCheck(rerolls, difficulty).odds()))
    except RefereeError as error:
        fail(str(error))
    if as_json:
        data = [
            {"tags": n, "a": str(a.success), "b": str(b.success), "a_match": str(a.tie)}
            for n, a, b in rows
        ]
        sys.stdout.write(json.dumps(data) + "\n")
        return
    table = Table(title=f"2d6{skill:+d} to beat {difficulty}", title_justify="left")
    for column in ("Tags", "Option a", "%", "Option b", "%"):
        table.add_column(column, justify="right")
    for n, a, b in rows:
        table.add_row(
            str(n), str(a.success), _percent(a.success), str(b.success), _percent(b.success)
        )
    console().print(table)


def ladder_command() -> None:
    """The difficulty ladder and the success levels."""
    from rich.table import Table

    from referee.systems.ginlane.tables import difficulties, success_levels

    out = console()
    ladder = Table(title="Difficulty & Target Number", title_justify="left")
    ladder.add_column("Difficulty", justify="right")
    ladder.add_column("Name")
    for d in difficulties():
        ladder.add_row(("≤ " if d.number == 6 else "") + str(d.number), d.name)
    out.print(ladder)
    levels = Table(title="Success Levels", title_justify="left")
    for column in ("Degree", "Success", "Magnitude", "Duration", "Notes"):
        levels.add_column(column)
    for s in success_levels():
        name = f"{s.success} ({s.gloss})" if s.gloss else s.success
        levels.add_row(str(s.degree), name, s.magnitude, s.duration, s.notes)
    out.print(levels)


def sheet_command(
    file: Annotated[Path, typer.Argument(help="a character sheet (YAML): name, skills ...")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Check a character sheet: the skill pyramid, Experience, Aspects, tracks, languages.

    Exits 1 when the sheet breaks a rule, 2 when the file cannot be read.
    """
    from pydantic import ValidationError

    from referee.core import RefereeError
    from referee.core.loader import load_file
    from referee.systems.ginlane.actions import CheckSheet
    from referee.systems.ginlane.character import Character, check_sheet

    try:
        data = load_file(file)
    except RefereeError as error:
        fail(str(error))
    if not isinstance(data, dict):
        fail(f"{file}: a sheet is a mapping (name, aspects, skills, experience...)")
    try:
        fields = CheckSheet.model_validate_json(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError) as error:
        if isinstance(error, ValidationError):
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            fail(f"{file}: {where}: {first['msg']}")
        fail(f"{file}: a sheet holds names, numbers and lists only ({error})")
    given = fields.model_dump(mode="json", exclude_unset=True)
    try:
        sheet = Character.from_json(str(given.get("name", file.stem)), given)
    except RefereeError as error:
        fail(f"{file}: {error}")
    problems = check_sheet(sheet)
    if as_json:
        out_data = {**sheet.to_json(), "problems": [f"{r}: {m}" for r, m in problems]}
        sys.stdout.write(json.dumps(out_data, ensure_ascii=False) + "\n")
    else:
        _print_sheet(sheet, problems)
    if problems:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the `ginlane` command group to ``app``."""
    sub = typer.Typer(
        name="ginlane",
        help="Gin Lane: 2d6 + skill, tagged Aspects, stress and consequences.",
        no_args_is_help=True,
    )
    # a skill may be below 0 (No Relevant Skill: -2): "-2" is the skill, not an option
    negatives = {"ignore_unknown_options": True}
    sub.command("roll", context_settings=negatives)(roll_command)
    sub.command("odds", context_settings=negatives)(odds_command)
    sub.command("ladder")(ladder_command)
    sub.command("sheet")(sheet_command)
    app.add_typer(sub, name="ginlane")


def _print_sheet(sheet: Any, problems: list[tuple[str, str]]) -> None:
    from rich.markup import escape
    from rich.table import Table

    out = console()
    out.print(f"[bold]{escape(sheet.name)}[/]", highlight=False)
    skills = Table(title="Skills", title_justify="left")
    skills.add_column("Level", justify="right")
    skills.add_column("Skills")
    levels = sorted({level for _, level in sheet.skills}, reverse=True)
    for level in levels:
        names = escape(", ".join(n for n, lv in sheet.skills if lv == level))
        skills.add_row(f"{level:+d}", names)
    out.print(skills)
    out.print(
        f"Experience {sheet.experience}: {sheet.spent} on skills, {sheet.unspent} in the pool; "
        f"{sheet.extra_aspects} extra Aspect(s) for spending",
        highlight=False,
    )
    tracks = ", ".join(f"{k} {v}" for k, v in sheet.tracks.items())
    out.print(f"Stress tracks: {tracks}", highlight=False)
    out.print(
        f"Languages: {len(sheet.languages)} of {sheet.language_allowance} claimed "
        "(beyond the native tongue)",
        highlight=False,
    )
    aspects = "; ".join(sheet.all_aspects)
    out.print(f"Aspects: {aspects}", highlight=False, markup=False)
    if problems:
        for rule, reason in problems:
            out.print(f"[red]✗ {rule}:[/] {escape(reason)}", highlight=False)
    else:
        out.print("[green]✓ a legal sheet[/]")
