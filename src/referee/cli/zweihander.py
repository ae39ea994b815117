"""`referee zweihander ...`: Zweihänder house rules at the table.

Commands: ``test`` (a Skill Test with its exact odds and criticals), ``chase FILE`` (a chase,
round by round), ``journey FILE`` (a journey, stretch by stretch), ``exchange FILE`` (a Complex
Exchange, as a viewer sees it), ``corruption`` (the end-of-session roll), ``travel`` (overland
miles per day and days), ``requisitions`` (the example requisitions). Bad input: one line on
standard error, exit status 2.
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
    from referee.core import Event, Table
    from referee.dice import DiceSource

REFEREE = "referee"


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _dice(seed: int | None, faces: list[int] | None) -> DiceSource:
    from referee.dice import RandomSource, ScriptedSource

    if faces:
        return ScriptedSource(faces)
    return RandomSource(seed=seed)


def _load(file: Path) -> Any:
    import yaml

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"{file}: cannot read: {error.strerror}")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        fail(f"{file}: not valid YAML{where}")


def _describe(event: Event) -> str:
    d: dict[str, Any] = dict(event.data)
    test = d.get("test")
    shown = ""
    if isinstance(test, dict):
        shown = (
            f"{test.get('skill') or 'test'} {test['total_chance']}% "
            f"({test['difficulty_rating']}{', assisted' if test['assist'] else ''}) "
            f"rolled {test['faces']} → {test['outcome']}"
        )
    k = event.kind
    if k == "chase.started":
        return "Ladder: " + ", ".join(
            f"{p['id']} ({p['side']}, {p['mode']}, Movement {p['movement']}, value {p['value']})"
            for p in d["participants"]
        )
    if k == "chase.moved":
        return f"{d['participant']} rolls {d['d10']} + {d['movement']}: value {d['value']}"
    if k == "chase.caught_up":
        return (
            f"{d['participant']} catches up with {d['escapee']}: "
            f"Pursuit Value {d['was']} → {d['value']}"
        )
    if k == "chase.takedown":
        return f"{d['participant']} attempts a Takedown: {shown}; {d['result']}"
    if k == "chase.complication":
        hit = "a Complication!" if d["complication"] else "no Complication"
        return f"{d['participant']}'s Chaos Die: {d['faces']} → {hit}"
    if k == "chase.fatigue":
        extra = f"; {d['peril']} Peril" if "peril" in d else ""
        return f"{d['participant']} fatigue: {shown}{extra}"
    if k == "chase.round_ended":
        return f"— end of Round {d['round']} —"
    if k == "chase.ended":
        return f"The chase ends: {d['reason']}"
    if k == "journey.role_check":
        who = d.get("character") or "nobody"
        return f"{d['role']} ({who}): {shown or 'unfilled: failure'} — {d['result']}"
    if k == "journey.toughness":
        parts = [
            f"{t['character']} {t['test']['outcome']}"
            + (f" ({t['peril']} Peril → {t['peril_condition']})" if "peril" in t else "")
            for t in d["tests"]
        ]
        return "Toughness: " + "; ".join(parts)
    if k == "journey.chaos":
        return f"{d['chaos_dice']} Chaos Dice {d['faces']} → " + (
            "an encounter!" if d["encounter"] else "nothing"
        )
    if k == "journey.camp":
        return "Strike Camp (24 hours): " + ", ".join(f"{c} {s}" for c, s in d["recovered"].items())
    if k == "journey.stretch_ended":
        return f"End of {d['stretch']}: {d['days']} days, {d['provisions']} days of provisions"
    if k == "journey.ended":
        return f"Journey's end: survivors {d['survivors']}, Fortune Points +{d['fortune_points']}"
    if k == "exchange.started":
        secret = ""
        if "favourable" in d:
            secret = f" [secret: Favourable {d['favourable']}, Unfavourable {d['unfavourable']}]"
        return f"Complex Exchange with {d['npc']} ({d['disposition']}){secret}"
    if k == "exchange.tactic_tested":
        return (
            f"{d['character']} uses {d['tactic']}: {shown}; read as {d['outcome']} at "
            f"{d['disposition_read_as']}: {d['result']}"
        )
    if k == "exchange.ended":
        return (
            f"The exchange ends. Favourable Skill: {d['favourable']}; "
            f"Unfavourable: {d['unfavourable']}"
        )
    payload = {k2: v for k2, v in d.items() if k2 != "test"}
    return f"{k} {shown} {json.dumps(payload, ensure_ascii=False)}".strip()


def _show(table: Table[Any], viewer: str, as_json: bool) -> None:
    from referee.core import view

    events = view(table.log, viewer)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "events": [e.to_json() for e in events],
                    "state": table.visible_state(viewer),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    out = console()
    for event in events:
        out.print(_describe(event), markup=False, highlight=False)


def _scene(
    file: Path,
    seed: int | None,
    viewer: str,
    as_json: bool,
    player: Callable[[Any, DiceSource], Table[Any]],
) -> None:
    from referee.core import RefereeError
    from referee.dice import DiceSourceError

    data = _load(file)
    try:
        table = player(data, _dice(seed, None))
    except (RefereeError, DiceSourceError) as error:
        fail(f"{file}: {error}")
    except (KeyError, TypeError, ValueError) as error:
        fail(f"{file}: malformed scene: {error!r}")
    _show(table, viewer, as_json)


SeedOption = Annotated[int | None, typer.Option("--seed", help="seed the dice (reproducible)")]
ViewerOption = Annotated[str, typer.Option("--as", help="see it as this viewer")]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON")]


def register(app: typer.Typer) -> None:
    """Add the `zweihander` command group to ``app``."""
    sub = typer.Typer(
        name="zweihander",
        help="Zweihänder house rules: tests, chases, journeys, intrigue.",
        no_args_is_help=True,
    )
    app.add_typer(sub, name="zweihander")

    @sub.command("test")
    def test_command(
        chance: Annotated[
            int, typer.Argument(help="the Base Chance (primary attribute + 10 per Skill Rank)")
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
        odds_only: Annotated[
            bool, typer.Option("--odds", help="show the odds, roll nothing")
        ] = False,
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

    @sub.command("chase")
    def chase_command(
        file: Annotated[Path, typer.Argument(help="YAML: characters and chase (the start)")],
        seed: SeedOption = None,
        viewer: ViewerOption = REFEREE,
        as_json: JsonOption = False,
    ) -> None:
        """Run a chase round by round: moves, catch-ups, takedowns, Chaos Dice, fatigue."""
        from referee.systems.zweihander.play import play_chase

        _scene(file, seed, viewer, as_json, play_chase)

    @sub.command("journey")
    def journey_command(
        file: Annotated[Path, typer.Argument(help="YAML: characters and journey (the route)")],
        seed: SeedOption = None,
        viewer: ViewerOption = REFEREE,
        as_json: JsonOption = False,
    ) -> None:
        """Run a journey stretch by stretch: Role Checks, Toughness, Chaos Dice, camp."""
        from referee.systems.zweihander.play import play_journey

        _scene(file, seed, viewer, as_json, play_journey)

    @sub.command("exchange")
    def exchange_command(
        file: Annotated[Path, typer.Argument(help="YAML: characters, exchange, tactics")],
        seed: SeedOption = None,
        viewer: ViewerOption = REFEREE,
        as_json: JsonOption = False,
    ) -> None:
        """Run a Complex Exchange; players (--as) see the GM's secret Skills only at the end."""
        from referee.systems.zweihander.play import play_exchange

        _scene(file, seed, viewer, as_json, play_exchange)

    @sub.command("corruption")
    def corruption_command(
        corruption: Annotated[
            int, typer.Option("--corruption", min=0, help="Corruption this session")
        ] = 0,
        order: Annotated[int, typer.Option("--order", min=0, help="ranks towards Order")] = 0,
        chaos: Annotated[int, typer.Option("--chaos", min=0, help="ranks towards Chaos")] = 0,
        seed: SeedOption = None,
        face: Annotated[int | None, typer.Option("--face", help="the d10's face")] = None,
    ) -> None:
        """The end-of-session roll: Corruption into ranks of Order and Chaos."""
        from referee.dice import DiceSourceError
        from referee.systems.zweihander.character import Character
        from referee.systems.zweihander.madness import end_of_session

        c = Character("character", corruption=corruption, order_ranks=order, chaos_ranks=chaos)
        remainder = corruption % 10
        if remainder:
            out_odds = Fraction(remainder, 10)
            console().print(
                f"Chance of a Chaos rank from the remainder {remainder}: {_pct(out_odds)}",
                highlight=False,
            )
        try:
            end = end_of_session(c, _dice(seed, None if face is None else [face]))
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

    @sub.command("travel")
    def travel_command(
        miles: Annotated[int, typer.Argument(min=0, help="distance in miles")],
        transport: Annotated[str, typer.Option("--transport", "-t")] = "human",
        route: Annotated[
            str, typer.Option("--route", "-r", help="road, path, river, sea")
        ] = "road",
        forced_march: Annotated[bool, typer.Option("--forced-march")] = False,
        current: Annotated[int, typer.Option("--current", help="-10 to +10 on water")] = 0,
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

    @sub.command("route")
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

    @sub.command("lists")
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
            for w in offence_weights().values():
                out.print(
                    f"{w.weight} ({w.points[0]}-{w.points[1]} points)",
                    markup=False,
                    highlight=False,
                )
                for o in w.examples:
                    pts = ""
                    if o.points is not None:
                        lo, hi = o.points
                        pts = f" ({lo if lo == hi else f'{lo}-{hi}'}{'/' + o.per if o.per else ''})"
                    out.print(f"  - {o.offence}{pts}", markup=False, highlight=False)
        elif which == "disorders":
            for kind, names in disorders().items():
                out.print(kind, markup=False, highlight=False)
                for name in names:
                    out.print(f"  - {name}", markup=False, highlight=False)
        else:
            fail(f"lists: {which!r} is not one of situations, offences, disorders")

    @sub.command("requisitions")
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
            console().print(
                f"{row.weight} ({low}-{high} points, once a {row.threshold})",
                highlight=False,
                markup=False,
            )
            for example in row.examples:
                console().print(f"  - {example}", highlight=False, markup=False)
