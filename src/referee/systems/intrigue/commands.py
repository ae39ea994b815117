"""`referee intrigue ...`: Intrigue in the Clouds at the table, for a referee in a crowded room.

An evening is a table record (``referee table new intrigue GAME.yaml --out evening.json``); any
action is taken with ``referee table act``. These commands add what a referee reaches for:

- ``check GAME``: validate a game file (or a scenario's setup) and list the cast.
- ``envelopes GAME WHO TARGET``: the chance of WHO being handed each of TARGET's envelopes.
- ``skill-odds VALUE TARGET``, ``attack-odds COMBAT DEFENCE``: calculators, no file needed.
- ``perceive TABLE WHO TARGET --as SEAT``: a Perception Check, the referee shown each
  envelope's odds first; ``roll TABLE WHO SKILL (--target N | --against WHO) --as SEAT``: a
  skill roll. Both write the record (``--dry-run``: the odds only).
- ``combat TABLE --as SEAT``: each running combat: the round, who declares next, the next
  rolls' odds. ``status TABLE [WHO] --as SEAT``: Stamina, Wounds, knocked out until when.

Everything shown to a seat comes from :func:`referee.core.observe`, narrated by the game's
vocabulary. Bad input: one line on standard error, exit status 2.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import console, fail

if TYPE_CHECKING:
    from referee.core import Action, Check, Table, TargetCheck
    from referee.dice import DiceSource
    from referee.systems.intrigue import IntrigueState

GameArg = Annotated[Path, typer.Argument(help="the game file (YAML): start and characters")]
TableArg = Annotated[
    Path, typer.Argument(metavar="TABLE", help="the table record (referee table new)")
]
SeatOpt = Annotated[str, typer.Option("--as", help="your seat: referee, or a player's")]
AtOpt = Annotated[
    str | None, typer.Option("--at", help="game time: 21:05, or +15m after the last event")
]
SeedOpt = Annotated[str | None, typer.Option("--seed", help="seed the dice (reproducible)")]
DiceOpt = Annotated[
    str | None, typer.Option("--dice", help="the faces to roll, in order: 5,5,6 (no randomness)")
]
DryOpt = Annotated[bool, typer.Option("--dry-run", help="show the odds only: roll nothing")]

_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]{0,5})$")


# -- reading ----------------------------------------------------------------------------------


def _read_game(path: Path) -> IntrigueState:
    """A game file (or a scenario file's setup) as the evening's state: one line if refused."""
    from referee.core import RefereeError
    from referee.core.loader import load_file
    from referee.systems.intrigue import SYSTEM, load_game

    try:
        data = load_file(path)
        if isinstance(data, dict) and "setup" in data and "system" in data:
            data = data["setup"]  # a scenario file: its setup is the game
        if not isinstance(data, dict):
            fail(f"{path}: a game file is a mapping with 'characters'")
        SYSTEM.check_setup(data)
        return load_game(data)
    except RefereeError as error:
        fail(f"{path}: {error}")


def _read_table(path: Path) -> Table[IntrigueState]:
    from referee.cli.output import read_table

    table = read_table(path)
    if table.system != "intrigue":
        fail(f"{path}: a table of {table.system!r}, not of intrigue")
    return table


def _whole(option: str, text: str) -> int:
    """A whole number given on the command line, or one line on stderr naming the option."""
    if not _INT.match(text.strip()):
        fail(f"{option}: a whole number (at most six digits), not {text!r}")
    return int(text)


def _time(table: Table[IntrigueState], at: str | None) -> int | None:
    from referee.core import format_time, parse_duration
    from referee.systems.intrigue.game import wall_clock

    if at is None:
        return None
    text = at.strip()
    try:
        if text.startswith("+"):
            return table.now + parse_duration(text[1:])
        if text.isdigit() and len(text) <= 9:
            when = int(text)  # seconds of game time: the same guard as a clock time (audit B6)
        else:
            when = wall_clock(text, start=table.state.start)
    except ValueError as error:
        fail(f"--at: {error}")
    if when - table.now > 12 * 3600:
        # a wall-clock time earlier than the start reads as the next day: almost always a slip
        fail(
            f"--at {at}: that is {format_time(when - table.now)} after the last event "
            f"({format_time(table.now, table.state.start)}); game time cannot go back"
        )
    return when


def _dice(seed: str | None, faces: str | None) -> DiceSource:
    from referee.dice import RandomSource, ScriptedSource

    if faces is not None:
        parts = [f for f in faces.replace(" ", "").split(",") if f]
        if not all(_INT.match(f) for f in parts):
            fail(f"--dice: faces are whole numbers separated by commas, not {faces!r}")
        return ScriptedSource(int(f) for f in parts)
    return RandomSource(seed=None if seed is None else _whole("--seed", seed))


# -- showing ----------------------------------------------------------------------------------


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _show_check(words: str, check: Check, prefix: str = "odds") -> None:
    from rich.markup import escape

    p = check.odds().success
    console().print(
        f"[cyan]{prefix}[/] {escape(words)}: [bold]{_pct(p)}[/] ({p})", soft_wrap=True, emoji=False
    )


def _show_seen(table: Table[IntrigueState], seat: str, since: int) -> None:
    """The events after ``since`` as ``seat`` sees them, narrated by the game's vocabulary."""
    from rich.markup import escape

    from referee.core import format_time, observe
    from referee.core.cards import event_cards

    seen = observe(table, seat, since=since)
    if not seen.events:
        console().print("[dim](nothing this seat may see)[/]")
    for event, text in zip(seen.events, seen.narration, strict=True):
        when = format_time(event.at, table.state.start)
        console().print(
            f"#{event.number} {when} {escape(text)}", highlight=False, soft_wrap=True, emoji=False
        )
        for card in event_cards(event.data):
            console().print(
                f"   [magenta]{escape(card.describe())}[/]",
                highlight=False,
                soft_wrap=True,
                emoji=False,
            )


def _play(
    path: Path,
    seat: str,
    action_of: Any,
    at: str | None,
    seed: str | None,
    faces: str | None,
    dry_run: bool,
) -> None:
    """Take one action as ``seat`` on the table record, the referee shown the odds first."""
    from referee.cli.output import write_table
    from referee.core import RefereeError
    from referee.dice import DiceSourceError
    from referee.systems.intrigue.odds import upcoming

    table = _read_table(path)
    before = table.version
    try:
        who = table.seat(seat)
        when = _time(table, at)
        action: Action = action_of(table)
        if who.is_referee:  # the odds of a Perception Check or a skill roll are the referee's
            for words, check in upcoming(table.state, action):
                _show_check(words, check)
        if dry_run:
            return
        source = _dice(seed, faces)
        after = table.act(action, source, at=when, seat=seat, expect_version=before)
    except (RefereeError, DiceSourceError) as error:
        fail(str(error))
    left = getattr(source, "remaining", ())
    if faces is not None and left:  # audit B5: a face given but not rolled is a slip
        fail(
            f"--dice: {len(left)} face(s) left unrolled ({', '.join(map(str, left))}); "
            "nothing written"
        )
    write_table(path, after, read_version=before)
    _show_seen(after, seat, before)


def _attack_check(
    combat: int,
    defence: int,
    *,
    grab: bool,
    defensive: bool,
    scream: int,
    helpers: int,
    surprise: bool,
) -> TargetCheck:
    from referee.systems.intrigue.rules import (
        SURPRISE_BONUS,
        attack_check,
        attack_target_number,
    )

    number = attack_target_number(defence, grab=grab, defensive=defensive, scream_bonus=scream)
    bonus = helpers + (SURPRISE_BONUS if surprise else 0)
    return attack_check(combat + bonus, number)


# -- commands ---------------------------------------------------------------------------------


def check_command(game: GameArg) -> None:
    """Validate a game file and list the cast (badge, number, stats, envelopes)."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    from referee.systems.intrigue.game import next_day_envelopes, unworn_numbers

    state = _read_game(game)
    out = RichTable(title=f"{game.name}: {len(state.characters)} characters")
    for column in ("No.", "Badge", "id", "Cmb", "Str", "Sta", "Wnd", "Mnd", "Envelopes"):
        out.add_column(column)
    for character in state.characters:
        envelopes = len(state.envelopes_of(character.id))
        contingent = sum(
            1 for envelope in state.contingency_envelopes if envelope.holder == character.id
        )
        out.add_row(
            character.number,
            escape(character.name),
            character.id,
            str(character.combat),
            str(character.strength),
            str(character.stamina),
            str(character.wounds),
            str(character.mind),
            f"{envelopes} perception, {contingent} contingency",
        )
    console().print(out)
    for note in unworn_numbers(state) + next_day_envelopes(state):
        console().print(f"[yellow]note[/] {escape(note)}", highlight=False)


def envelopes_command(
    game: GameArg,
    perceiver: Annotated[str, typer.Argument(help="who would perceive: id or number")],
    target: Annotated[str, typer.Argument(help="whom: id or number")],
) -> None:
    """The chance of PERCEIVER being handed each of TARGET's envelopes (a planner for the
    referee writing the game: it reads every envelope's front)."""
    from rich.markup import escape

    from referee.core import RefereeError
    from referee.systems.intrigue.characters import PERCEPTION
    from referee.systems.intrigue.envelopes import is_for
    from referee.systems.intrigue.rules import skill_check

    state = _read_game(game)
    try:
        me, them = state.character(perceiver), state.character(target)
    except RefereeError as error:
        fail(str(error))
    value = me.skill(PERCEPTION)
    held = state.envelopes_of(them.id)
    if not held:
        console().print(f"{them.id} carries no Perception Envelope")
    for envelope in held:
        if not is_for(envelope, me.number):
            console().print(
                f"{escape(envelope.id)} ({escape(envelope.label)}): not for {me.number}"
            )
            continue
        _show_check(
            f"{envelope.id} ({envelope.label}): 3d6{value:+d} ≥ {envelope.target}",
            skill_check(value, envelope.target),
        )


def skill_odds_command(
    value: Annotated[str, typer.Argument(help="the skill value")],
    target: Annotated[str, typer.Argument(help="the Target Number")],
    against: Annotated[
        bool,
        typer.Option("--against", help="TARGET is another character's skill: 3d6 + it"),
    ] = False,
) -> None:
    """A skill roll's odds: 3d6 + VALUE ≥ TARGET (or, --against, ≥ 3d6 + TARGET)."""
    from referee.systems.intrigue.rules import opposed_skill_check, skill_check

    mine, number = _whole("VALUE", value), _whole("TARGET", target)
    if against:
        _show_check(f"3d6{mine:+d} ≥ 3d6{number:+d}", opposed_skill_check(mine, number))
    else:
        _show_check(f"3d6{mine:+d} ≥ {number}", skill_check(mine, number))


def attack_odds_command(
    combat: Annotated[str, typer.Argument(help="the attacker's Combat Stat (or Mind)")],
    defence: Annotated[str, typer.Argument(help="the target's Combat Stat (or Mind)")],
    grab: Annotated[bool, typer.Option("--grab", help="a Grab: + 11, not + 10")] = False,
    defensive: Annotated[
        bool, typer.Option("--defensive", help="the target takes a Defensive Action (+3)")
    ] = False,
    scream: Annotated[str, typer.Option("--scream", help="the referee's bonus, 0 to 3")] = "0",
    helpers: Annotated[
        str, typer.Option("--helpers", help="group members adding +1 each (0 to 3)")
    ] = "0",
    surprise: Annotated[bool, typer.Option("--surprise", help="+3 in the first turn")] = False,
) -> None:
    """An Attack's odds: 3d6 + COMBAT > DEFENCE + 10 (Grab + 11), with the bonuses."""
    from referee.systems.intrigue.rules import GROUP_LIMIT, SCREAM_BONUS_LIMIT

    mine, theirs = _whole("COMBAT", combat), _whole("DEFENCE", defence)
    bonus, helping = _whole("--scream", scream), _whole("--helpers", helpers)
    if not 0 <= bonus <= SCREAM_BONUS_LIMIT:
        fail(f"--scream: the referee's bonus is 0 to {SCREAM_BONUS_LIMIT}, not {bonus}")
    if not 0 <= helping < GROUP_LIMIT:
        fail(f"--helpers: a group is up to {GROUP_LIMIT}: 0 to {GROUP_LIMIT - 1} helpers")
    check = _attack_check(
        mine,
        theirs,
        grab=grab,
        defensive=defensive,
        scream=bonus,
        helpers=helping,
        surprise=surprise,
    )
    _show_check(f"{'Grab' if grab else 'Attack'}: {check.side.expression} > {check.target}", check)


def perceive_command(
    table_file: TableArg,
    perceiver: Annotated[str, typer.Argument(help="who perceives: id or number")],
    target: Annotated[str, typer.Argument(help="whom: id or number")],
    seat: SeatOpt,
    at: AtOpt = None,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    dry_run: DryOpt = False,
) -> None:
    """A Perception Check: 3d6 + Perception; the envelopes handed over (their contents to
    the perceiver alone)."""
    from referee.core import Action

    def action_of(table: Table[IntrigueState]) -> Action:
        return Action(table.state.character(perceiver).id, "perceive", {"target": target})

    _play(table_file, seat, action_of, at, seed, dice, dry_run)


def roll_command(
    table_file: TableArg,
    who: Annotated[str, typer.Argument(help="who rolls: id or number")],
    skill: Annotated[str, typer.Argument(help="the skill (or, with --ability, the ability)")],
    seat: SeatOpt,
    target: Annotated[str | None, typer.Option("--target", help="a fixed Target Number")] = None,
    against: Annotated[
        str | None, typer.Option("--against", help="another character's roll + skill")
    ] = None,
    ability: Annotated[
        bool, typer.Option("--ability", help="SKILL names a Special Ability")
    ] = False,
    at: AtOpt = None,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    dry_run: DryOpt = False,
) -> None:
    """A skill roll: 3d6 + skill ≥ the Target Number (or another's 3d6 + skill)."""
    from referee.core import Action

    if (target is None) == (against is None):
        fail("give exactly one of --target and --against")
    params: dict[str, Any] = {"ability" if ability else "skill": skill}
    if target is not None:
        params["target"] = _whole("--target", target)
    else:
        params["against"] = against

    def action_of(table: Table[IntrigueState]) -> Action:
        return Action(table.state.character(who).id, "roll", params)

    _play(table_file, seat, action_of, at, seed, dice, dry_run)


def combat_command(table_file: TableArg, seat: SeatOpt) -> None:
    """Each running combat: round, sides, declarations, who declares next, next rolls' odds."""
    from rich.markup import escape

    from referee.core import RefereeError, observe

    table = _read_table(table_file)
    try:
        seen = observe(table, seat, since=table.version)
    except RefereeError as error:
        fail(str(error))
    state: Any = seen.state or {}
    combats: dict[str, Any] = state.get("combats", {})
    running = {k: v for k, v in combats.items() if not v["ended"]}
    if not running:
        console().print("no combat is running")
        return
    for cid, fight in running.items():
        sides: dict[int, list[str]] = {0: [], 1: []}
        for who, side in fight["sides"].items():
            mark = " (escaped)" if who in fight["escaped"] else ""
            sides.setdefault(side, []).append(who + mark)
        console().print(
            f"[bold]{escape(cid)}[/] round {fight['round']}"
            f"{'' if fight['in_round'] else ' (between rounds)'}: "
            f"{escape(', '.join(sides[0]))} against {escape(', '.join(sides[1]))}"
        )
        for who, d in fight["declarations"].items():
            done = "resolved" if d["resolved"] else "to resolve"
            on = f" {d['target']}" if d["target"] else ""
            console().print(f"  {who}: {d['action']}{on} ({done})", highlight=False)
        if fight["pending"]:
            console().print(
                f"  to declare, in order: {', '.join(fight['pending'])}", highlight=False
            )
        for who, streak in fight["streaks"].items():
            if streak >= 2 and not fight["in_round"]:
                console().print(f"  {who} may try to escape", highlight=False)
    for preview in seen.previews:
        p = Fraction(preview.odds.get("success", "0"))
        console().print(f"  [cyan]next roll[/] {escape(preview.label)}: [bold]{_pct(p)}[/] ({p})")


def status_command(
    table_file: TableArg,
    seat: SeatOpt,
    who: Annotated[str | None, typer.Argument(help="a character (default: everyone)")] = None,
) -> None:
    """A character as this seat may see them: Stamina, Wounds, knocked out until when."""
    from rich.markup import escape

    from referee.core import RefereeError, observe

    table = _read_table(table_file)
    try:
        ids = [table.state.character(who).id] if who else [c.id for c in table.state.characters]
        seen = observe(table, seat, since=table.version)
    except RefereeError as error:
        fail(str(error))
    data: Any = seen.state or {}
    for cid in ids:
        sheet = data["characters"][cid]
        line = f"[bold]{escape(sheet['name'])}[/] \\[{sheet['number']}] ({cid})"
        if "stamina" in sheet:
            line += (
                f": Stamina {sheet['stamina']}/{sheet['stamina_stat']}, "
                f"Wounds {sheet['wounds_marked']} of {sheet['wounds']} marked, "
                f"damage this combat {sheet['damage']}"
            )
        if sheet["dead"]:
            line += " — DEAD"
        elif sheet["knocked_out"]:
            until = sheet.get("wakes_at") or "the end of the combat + 5 minutes"
            line += f" — Knocked Out until {until}"
        console().print(line, highlight=False)
        for cooldown in data["cooldowns"]:
            if cooldown["perceiver"] == cid:
                console().print(
                    f"  may not perceive {cooldown['target']} until {cooldown['until']}",
                    highlight=False,
                )


def register(app: typer.Typer) -> None:
    """Add the `intrigue` command group to ``app``."""
    sub = typer.Typer(
        name="intrigue",
        help="Intrigue in the Clouds: the cast, odds calculators, perception checks, skill "
        "rolls and combat at the table (play with 'referee table').",
        no_args_is_help=True,
    )
    sub.command("check")(check_command)
    sub.command("envelopes")(envelopes_command)
    sub.command("skill-odds")(skill_odds_command)
    sub.command("attack-odds")(attack_odds_command)
    sub.command("perceive")(perceive_command)
    sub.command("roll")(roll_command)
    sub.command("combat")(combat_command)
    sub.command("status")(status_command)
    app.add_typer(sub, name="intrigue")
