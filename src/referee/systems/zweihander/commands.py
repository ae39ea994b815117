"""`referee zweihander ...`: Zweihänder house rules at the table.

Calculators: ``test`` (a Skill Test with its exact odds and criticals), ``corruption`` (the
end-of-session roll), ``travel`` and ``route`` (overland miles per day and days), ``lists`` and
``requisitions`` (the text's reference lists). Over a table record (``referee table new
zweihander ...``): ``chase FILE`` plays the chase under way to its end and ``journey FILE``
travels the journey under way, each as the GM would by default, recorded action by action.
Everything else at the table is ``referee table``. Bad input: one line on standard error, exit
status 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import console, fail

if TYPE_CHECKING:
    from referee.core import Table
    from referee.dice import DiceSource


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _dice(seed: int | None, faces: list[int] | None) -> DiceSource:
    from referee.dice import RandomSource, ScriptedSource

    if faces:
        return ScriptedSource(faces)
    return RandomSource(seed=seed)


def _load(file: Path) -> Any:
    from referee.core.errors import ScenarioError
    from referee.core.loader import load_file

    try:
        return load_file(file)
    except ScenarioError as error:
        fail(str(error))


def _play_out(
    file: Path,
    seat: str,
    seed: int | None,
    as_json: bool,
    scene: str,
    play: Callable[[Table[Any], DiceSource], Table[Any]],
) -> None:
    """Read a table record, play its scene out from the referee's seat, write it back, and
    show the new events as the seat sees them."""
    from referee.cli.output import read_table, write_table
    from referee.core import RefereeError, observe
    from referee.dice import DiceSourceError

    table = read_table(file)
    if table.system != "zweihander":
        fail(f"{file}: a table of {table.system!r}, not of zweihander")
    try:
        if not table.seat(seat).is_referee:
            fail(f"--as {seat}: only the referee (the GM) plays a {scene} out")
        before = table.version
        after = play(table, _dice(seed, None))
        seen = observe(after, seat, since=before)
    except (RefereeError, DiceSourceError) as error:
        fail(f"{file}: {error}")
    write_table(file, after, read_version=before)
    if as_json:
        typer.echo(json.dumps(seen.to_json(), indent=2, ensure_ascii=False))
        return
    for text in seen.narration:
        typer.echo(text)
    typer.echo(f"(version {after.version})")


SeedOption = Annotated[int | None, typer.Option("--seed", help="seed the dice (reproducible)")]
SeatOption = Annotated[str, typer.Option("--as", help="your seat (the referee's)")]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON")]
RecordArgument = Annotated[
    Path, typer.Argument(help="a table record ('referee table new zweihander ...')")
]


def skill_test_command(
    chance: Annotated[
        int,
        typer.Argument(
            min=0, max=1000, help="the Base Chance (primary attribute + 10 per Skill Rank)"
        ),
    ],
    difficulty: Annotated[
        str,
        typer.Option(
            "--difficulty",
            "-d",
            help="Trivial, Easy, Routine, Standard, Challenging, Hard, Arduous, or +30 … -30",
        ),
    ] = "Standard",
    assist: Annotated[bool, typer.Option("--assist", help="an Assist Die helps")] = False,
    odds_only: Annotated[bool, typer.Option("--odds", help="show the odds, roll nothing")] = False,
    seed: SeedOption = None,
    face: Annotated[
        list[int] | None,
        typer.Option("--face", help="use this face (give twice with --assist: d100 then d10)"),
    ] = None,
) -> None:
    """A percentile Skill Test: its exact odds (criticals included), then the roll."""
    from referee.core import RefereeError
    from referee.dice import DiceSourceError
    from referee.systems.zweihander.percentile import SkillTest, difficulty_name
    from referee.systems.zweihander.percentile import difficulty as rating

    try:
        modifier = rating(difficulty)
    except RefereeError as error:
        fail(f"--difficulty: {error}")
    wanted = 2 if assist else 1
    if face and len(face) != wanted:
        fail(
            f"--face: give {wanted} face{'s' if wanted > 1 else ''} "
            f"({'the d100 then the Assist Die' if assist else 'the d100'}), not {len(face)}"
        )
    for given, sides in zip(face or [], (100, 10), strict=False):
        if not 1 <= given <= sides:
            fail(f"--face: {given} cannot come up on a d{sides}")
    test = SkillTest(chance, modifier, assist=assist)
    odds = test.odds()
    out = console()
    out.print(
        f"Total Chance {test.total_chance}% (Base {chance}, "
        f"{difficulty_name(modifier)} {modifier:+d}, clamped 1–99)"
        + (", with an Assist Die" if assist else ""),
        highlight=False,
    )
    for outcome, p in odds.outcomes.items():
        out.print(f"  {outcome.value:<17} {p!s:>9}  {_pct(p):>6}", highlight=False)
    out.print(
        f"  {'any success':<17} {odds.success!s:>9}  {_pct(odds.success):>6}", highlight=False
    )
    if odds_only:
        return
    try:
        result = test.roll(_dice(seed, face))
    except DiceSourceError as error:
        fail(f"--face: {error}")
    shown = " then Assist Die ".join(str(f) for f in result.faces)
    out.print(
        f"Rolled {shown} → {result.value:02d}: [bold]{result.outcome.value}[/] "
        f"(margin {result.margin:+d})",
        highlight=False,
    )


def chase_command(
    file: RecordArgument,
    seat: SeatOption = "",
    seed: SeedOption = None,
    as_json: JsonOption = False,
) -> None:
    """Play the chase under way in a table record to its end, as the GM would by default:
    moves in ladder order, a Takedown whenever a Pursuer catches up, the end of each Round.
    Start it first with 'referee table act FILE --as referee chase.start ...'."""
    from referee.systems.zweihander.chase import play_out

    if not seat:
        fail("chase: say which seat plays it out with --as referee")
    _play_out(file, seat, seed, as_json, "chase", play_out)


def journey_command(
    file: RecordArgument,
    seat: SeatOption = "",
    camp: Annotated[bool, typer.Option("--camp", help="Strike Camp after each Stretch")] = False,
    award_fortune: Annotated[
        bool, typer.Option("--award-fortune", help="a Fortune Point per survivor at the end")
    ] = False,
    seed: SeedOption = None,
    as_json: JsonOption = False,
) -> None:
    """Travel the journey under way in a table record to its end, as the GM would by
    default: the first Role assignment the rules allow on each Stretch, its Toughness Tests
    and Chaos Dice, then journey's end. Set out first with a setup's journey or
    'referee table act FILE --as referee journey.start ...'."""
    from referee.systems.zweihander.wilderness import travel_on

    if not seat:
        fail("journey: say which seat travels with --as referee")

    def travel(table: Table[Any], dice: DiceSource) -> Table[Any]:
        return travel_on(table, dice, camp=camp, award_fortune=award_fortune)

    _play_out(file, seat, seed, as_json, "journey", travel)


def corruption_command(
    corruption: Annotated[
        int, typer.Option("--corruption", min=0, max=1000, help="Corruption this session")
    ] = 0,
    order: Annotated[int, typer.Option("--order", min=0, max=100, help="ranks towards Order")] = 0,
    chaos: Annotated[int, typer.Option("--chaos", min=0, max=100, help="ranks towards Chaos")] = 0,
    seed: SeedOption = None,
    face: Annotated[int | None, typer.Option("--face", help="the d10's face")] = None,
) -> None:
    """The end-of-session roll: Corruption into ranks of Order and Chaos."""
    from referee.dice import DiceSourceError
    from referee.systems.zweihander.character import Character
    from referee.systems.zweihander.madness import end_of_session

    if face is not None and not 1 <= face <= 10:
        fail(f"--face: {face} cannot come up on a d10")
    character = Character("character", corruption=corruption, order_ranks=order, chaos_ranks=chaos)
    remainder = corruption % 10
    if remainder:
        out_odds = Fraction(remainder, 10)
        console().print(
            f"Chance of a Chaos rank from the remainder {remainder}: {_pct(out_odds)}",
            highlight=False,
        )
    try:
        end = end_of_session(character, _dice(seed, None if face is None else [face]))
    except DiceSourceError as error:
        fail(f"--face: {error}")
    after = end.character
    die = "no roll" if end.corruption_die is None else f"d10 {end.corruption_die}"
    lines = [
        f"Corruption {corruption}: {die}; +{end.order_gained} Order, +{end.chaos_gained} Chaos",
        f"Ranks now: Order {after.order_ranks}, Chaos {after.chaos_ranks}",
    ]
    if end.fate_point:
        lines.append("Ten ranks of Order: gain 1 Fate Point; Alignment ranks erased")
    if end.disorder:
        lines.append("Ten ranks of Chaos: gain 1 Disorder (GM's choice); ranks erased")
    for line in lines:
        console().print(line, highlight=False)


def travel_command(
    miles: Annotated[int, typer.Argument(min=0, max=100_000, help="distance in miles")],
    transport: Annotated[str, typer.Option("--transport", "-t")] = "human",
    route: Annotated[str, typer.Option("--route", "-r", help="road, path, river, sea")] = "road",
    forced_march: Annotated[bool, typer.Option("--forced-march")] = False,
    current: Annotated[
        int, typer.Option("--current", min=-10, max=10, help="-10 to +10 on water")
    ] = 0,
    bad_weather: Annotated[bool, typer.Option("--bad-weather")] = False,
) -> None:
    """Overland travel: miles per day and days for a distance."""
    from referee.core import RefereeError
    from referee.systems.zweihander.overland import Leg, needs_pilot_test

    leg = Leg(miles, transport, route, forced_march, current, bad_weather)
    try:
        mpd, days = leg.miles_per_day, leg.days
    except RefereeError as error:
        fail(str(error))
    console().print(f"{mpd} miles per day: {days} days for {miles} miles", highlight=False)
    if forced_march:
        console().print(
            "Forced march: a Hard (-20%) Toughness Test each evening, or "
            "Incapacitated! and no recovery for 24 hours",
            highlight=False,
        )
    if needs_pilot_test(route, bad_weather):
        console().print(
            "Bad weather at sea: a Pilot Test may be needed to avoid capsizing", highlight=False
        )


def route_command(
    file: Annotated[Path, typer.Argument(help="YAML: legs (distance, transport, route …)")],
) -> None:
    """Overland travel over several legs: miles per day and days for each, and the total."""
    from referee.core import RefereeError
    from referee.systems.zweihander.overland import Route, needs_pilot_test

    try:
        route = Route.from_data(_load(file))
    except RefereeError as error:
        fail(f"{file}: {error}")
    out = console()
    for i, leg in enumerate(route.legs, 1):
        notes = []
        if leg.forced_march:
            notes.append("forced march: Hard Toughness Test")
        if needs_pilot_test(leg.route, leg.bad_weather):
            notes.append("Pilot Test against capsizing")
        extra = f" ({'; '.join(notes)})" if notes else ""
        out.print(
            f"{i}. {leg.distance} miles by {leg.route}, {leg.transport}: "
            f"{leg.miles_per_day} mpd, {leg.days} days{extra}",
            markup=False,
            highlight=False,
        )
    out.print(f"Total: {route.distance} miles in {route.days} days", highlight=False)


def lists_command(
    which: Annotated[
        str, typer.Argument(help="situations (Stress, Fear, Terror), offences, or disorders")
    ],
) -> None:
    """The text's reference lists: madness situations, offences by weight, Disorders."""
    from referee.systems.zweihander.tables import (
        disorders,
        madness_situations,
        offence_weights,
    )

    out = console()
    if which == "situations":
        for line in madness_situations():
            out.print(f"- {line}", markup=False, highlight=False)
    elif which == "offences":
        for weight in offence_weights().values():
            out.print(
                f"{weight.weight} ({weight.points[0]}-{weight.points[1]} points)",
                markup=False,
                highlight=False,
            )
            for example in weight.examples:
                points = ""
                if example.points is not None:
                    low, high = example.points
                    per = "/" + example.per if example.per else ""
                    points = f" ({low if low == high else f'{low}-{high}'}{per})"
                out.print(f"  - {example.offence}{points}", markup=False, highlight=False)
    elif which == "disorders":
        for kind, names in disorders().items():
            out.print(kind, markup=False, highlight=False)
            for name in names:
                out.print(f"  - {name}", markup=False, highlight=False)
    else:
        fail(f"lists: {which!r} is not one of situations, offences, disorders")


def requisitions_command(
    weight: Annotated[str | None, typer.Argument(help="minor, middling or major")] = None,
) -> None:
    """The example requisitions, with their costs and how often they may be made."""
    from referee.core import RefereeError
    from referee.systems.zweihander.reputation import requisition
    from referee.systems.zweihander.tables import requisition_weights

    names = [weight] if weight else list(requisition_weights())
    for name in names:
        try:
            row = requisition(name)
        except RefereeError as error:
            fail(str(error))
        low, high = row.cost
        ruled = "" if row.weight == "minor" else "; the cost is Referee's ruling"
        console().print(
            f"{row.weight} ({low}-{high} points{ruled}, once a {row.threshold})",
            highlight=False,
            markup=False,
        )
        for example in row.examples:
            console().print(f"  - {example}", highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    """Add the `zweihander` command group to ``app``."""
    sub = typer.Typer(
        name="zweihander",
        help="Zweihänder house rules: tests, chases, journeys, intrigue.",
        no_args_is_help=True,
    )
    app.add_typer(sub, name="zweihander")
    sub.command("test")(skill_test_command)
    sub.command("chase")(chase_command)
    sub.command("journey")(journey_command)
    sub.command("corruption")(corruption_command)
    sub.command("travel", context_settings={"ignore_unknown_options": True})(travel_command)
    sub.command("route")(route_command)
    sub.command("lists")(lists_command)
    sub.command("requisitions")(requisitions_command)
