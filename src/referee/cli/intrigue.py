"""`referee intrigue ...`: Intrigue in the Clouds at the table, for a referee in a crowded room.

A game file (YAML) holds the characters and envelopes of a whole evening: the same mapping as a
scenario's ``setup:`` (``start:`` and ``characters:``). What has happened is kept in a log beside
it (``<game>.log.json``, or ``--log PATH``), so cooldowns, knock-outs and combats carry over
from one command to the next. The log holds every secret: it is the referee's.

- ``check GAME``: validate the game file and list the cast.
- ``perceive GAME WHO TARGET``: a Perception Check, the odds of each envelope shown first.
- ``roll GAME WHO SKILL (--target N | --against WHO)``: a skill roll, odds first.
- ``act GAME ACTOR ACTION [key=value ...]``: any action (``start_combat``, ``declare``,
  ``resolve``, ``escape``, ``report``, ``open``, ``revive`` ...), the odds of its rolls first.
- ``combat GAME``: each running combat: the round, who declares next, and the next rolls' odds.
- ``status GAME [WHO]``: a character: Stamina, Wounds, knocked out until when, cooldowns.

Times (``--at``): a wall-clock time ``21:05`` (read with the game file's ``start``), ``+15m``
after the last event, or ``now`` (this computer's clock). Without ``--at`` no time passes.
Bad input: one line on standard error, exit status 2.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import console, fail

if TYPE_CHECKING:
    from referee.core import Action, Event, Table
    from referee.dice import DiceSource
    from referee.systems.intrigue import IntrigueState

REFEREE = "referee"

GameArg = Annotated[Path, typer.Argument(help="the game file (YAML): start and characters")]
LogOpt = Annotated[
    Path | None, typer.Option("--log", help="the evening's log (default: <game>.log.json)")
]
AtOpt = Annotated[
    str | None, typer.Option("--at", help="game time: 21:05, +15m after the last event, or now")
]
SeedOpt = Annotated[str | None, typer.Option("--seed", help="seed the dice (reproducible)")]
DiceOpt = Annotated[
    str | None, typer.Option("--dice", help="the faces to roll, in order: 5,5,6 (no randomness)")
]
AsOpt = Annotated[
    str, typer.Option("--as", help="show what this viewer sees: referee, public, a character")
]
DryOpt = Annotated[bool, typer.Option("--dry-run", help="show the odds only: roll nothing")]

_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")


# -- loading and saving -------------------------------------------------------------------


def _read_game(path: Path) -> dict[str, Any]:
    import yaml

    from referee.core.scenario import yaml_loader

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"{path}: cannot read the game file: {error.strerror}")
    try:
        data = yaml.load(text, Loader=yaml_loader())  # a SafeLoader
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        fail(f"{path}: {getattr(error, 'problem', None) or 'not valid YAML'}{where}")
    if not isinstance(data, dict):
        fail(f"{path}: a game file is a mapping with 'characters'")
    if "setup" in data and "system" in data:  # a scenario file: its setup is the game
        data = data["setup"]
    return dict(data)


def _log_path(game: Path, log: Path | None) -> Path:
    return log if log is not None else game.with_name(game.stem + ".log.json")


def _open(game: Path, log: Path | None, *, replay: bool = True) -> Table[IntrigueState]:
    """The evening so far: the game file, and (if ``replay``) the log replayed over it."""
    from referee.core import Log, RefereeError, Table
    from referee.systems.intrigue import PROCEDURE

    setup = _read_game(game)
    path = _log_path(game, log)
    try:
        if replay and path.exists():
            events = json.loads(path.read_text(encoding="utf-8"))
            return Table.replay(PROCEDURE, setup, Log.from_json(events))
        return Table.start(PROCEDURE, setup)
    except RefereeError as error:
        fail(f"{game}: {error}")
    except (OSError, ValueError, KeyError, TypeError) as error:
        fail(f"{path}: not a log of this game: {error}")


def _save(table: Table[IntrigueState], game: Path, log: Path | None) -> None:
    path = _log_path(game, log)
    try:
        path.write_text(json.dumps(table.log.to_json(), ensure_ascii=False, indent=1) + "\n")
    except OSError as error:
        fail(f"{path}: cannot write the log: {error.strerror}")


def _time(table: Table[IntrigueState], at: str | None) -> int | None:
    from datetime import datetime

    from referee.core import format_time, parse_duration
    from referee.systems.intrigue.game import wall_clock

    if at is None:
        return None
    text = at.strip()
    try:
        if text.startswith("+"):
            return table.now + parse_duration(text[1:])
        if text == "now":
            text = datetime.now().strftime("%H:%M:%S")
        if text.isdigit():
            return int(text)
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


def _whole(option: str, text: str) -> int:
    """A whole number given on the command line, or one line on stderr naming the option."""
    if not _INT.match(text.strip()):
        fail(f"{option}: a whole number, not {text!r}")
    return int(text)


def _dice(seed: str | None, faces: str | None) -> DiceSource:
    from referee.dice import RandomSource, ScriptedSource

    if faces is not None:
        try:
            return ScriptedSource(int(f) for f in faces.replace(" ", "").split(",") if f)
        except ValueError:
            fail(f"--dice: faces are whole numbers separated by commas, not {faces!r}")
    return RandomSource(seed=None if seed is None else _whole("--seed", seed))


def _viewer(table: Table[IntrigueState], who: str) -> str:
    if who in (REFEREE, "public"):
        return who
    if table.state.has_character(who):
        return table.state.character(who).id
    fail(f"--as: no character {who!r} (give referee, public, a character id or number)")


def parse_value(text: str) -> Any:
    """A ``key=value`` value: a whole number, true/false, a ``[list, of, values]``, or text.

    >>> parse_value("2"), parse_value("07"), parse_value("[bob, 12]"), parse_value("true")
    (2, '07', ['bob', 12], True)
    """
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [parse_value(part) for part in inner.split(",")] if inner else []
    if text in ("true", "false"):
        return text == "true"
    if _INT.match(text):
        return int(text)
    return text


def _params(pairs: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            fail(f"parameter {pair!r}: write key=value (target=bob, targets=[bob,cat])")
        params[key.strip()] = parse_value(value)
    return params


# -- showing ------------------------------------------------------------------------------


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _show_odds(table: Table[IntrigueState], action: Action) -> None:
    from rich.markup import escape

    from referee.systems.intrigue.odds import upcoming

    for words, check in upcoming(table.state, action):
        p = check.odds().success
        console().print(f"[cyan]odds[/] {escape(words)}: [bold]{_pct(p)}[/] ({p})")


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _show_event(event: Event, start: str) -> None:
    from rich.markup import escape

    from referee.core import format_time

    payload = " ".join(f"{k}={_value(v)}" for k, v in event.payload.items())
    secrets = " ".join(f"{s.name}={_value(s.value)}" for s in event.secrets)
    hidden = f" (hidden: {', '.join(event.redacted)})" if event.redacted else ""
    line = f"#{event.number} {format_time(event.at, start)} [bold]{escape(event.kind)}[/] "
    line += escape(payload)
    if secrets:
        line += f" [magenta]{escape(secrets)}[/]"
    console().print(line + escape(hidden), highlight=False)


def summary(event: Event) -> str | None:
    """One plain line for the referee to read out, for the events that matter at the table.

    >>> from referee.core import Event
    >>> summary(Event("damage.taken", {"character": "scarface", "amount": 5, "total": 7,
    ...     "stamina": 5, "knocked_out": True}))
    'scarface takes 5 damage (7 this combat, Stamina 5): KNOCKED OUT'
    """
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "perception.made":
        lines = [f"{d['perceiver']} totals {d['total']} on {d['target']}"]
        handed = d.get("envelopes") or []
        if not handed:
            lines.append("no envelope is handed over")
        contents = d.get("contents") or {}
        for envelope in handed:
            lines.append(f"hand over {envelope['id']}: {envelope['label']}")
            inside = contents.get(envelope["id"]) if isinstance(contents, dict) else None
            if inside:
                lines.append(f"  it reads: {inside['contents']}")
                if inside.get("directions"):
                    lines.append(f"  directions: {inside['directions']}")
        return "\n".join(lines)
    if kind == "skill.rolled":
        verdict = "succeeds" if d["success"] else "fails"
        return f"{d['character']} {d['skill']}: {d['total']} — {verdict}"
    if kind == "attack.rolled":
        verdict = "HIT" if d["hit"] else "miss"
        who = "+".join(str(a) for a in d["attackers"])
        return f"{who} → {d['target']}: {d['total']} against {d['target_number']}: {verdict}"
    if kind == "damage.taken":
        out = ": KNOCKED OUT" if d["knocked_out"] else ""
        return (
            f"{d['character']} takes {d['amount']} damage ({d['total']} this combat, "
            f"Stamina {d['stamina']}){out}"
        )
    if kind == "escape.rolled":
        return f"{d['character']} {'escapes' if d['escaped'] else 'fails to escape'}"
    if kind == "hold.break_free_rolled":
        return f"{d['character']} {'breaks free' if d['broke_free'] else 'is still Held'}"
    if kind == "medicine.rolled":
        return f"{d['target']} {'wakes' if d['success'] else 'stays out'} ({d['total']})"
    if kind == "character.woke":
        wounds = f", {d['wounds']} wound(s)" if "wounds" in d else ""
        return f"{d['character']} comes round{wounds}"
    if kind == "character.died":
        return f"{d['character']} is DEAD"
    if kind == "envelope.opened":
        inside = f": {d['contents']}" if "contents" in d else ""
        return f"{d['holder']} opens {d['envelope']}{inside}"
    if kind == "contingency.openable":
        ids = ", ".join(str(i) for i in d["envelopes"]) or "none"
        return f"{d['holder']} may now open: {ids}"
    if kind == "mental.attacked":
        effect = f" — {d['effect']}" if d.get("effect") else ""
        verdict = "works" if d["hit"] else "fails"
        return f"{d['attacker']} {d['ability']} on {d['target']}: {verdict}{effect}"
    return None


def _show_new(before: int, table: Table[IntrigueState], viewer: str) -> None:
    from rich.markup import escape as escape_markup

    from referee.core import view

    new = [e for e in view(table.log, viewer) if e.number > before]
    if not new:
        console().print("[dim](nothing this viewer may see)[/]")
    for event in new:
        _show_event(event, table.state.start)
        said = summary(event)
        if said:
            console().print(f"[bold green]{escape_markup(said)}[/]", highlight=False)


PRIVATE_ROLLS = ("perceive", "roll", "mental_attack")
"""Actions whose odds are not everyone's: a Perception Check's and a skill roll's are the
referee's (ruling 3); an unnoticed mental attack's are the two characters' ("Mental Combat")."""


def _may_see_odds(state: IntrigueState, action: Action, viewer: str) -> bool:
    """True if ``viewer`` may be shown the odds of ``action``'s rolls before they are made."""
    if viewer == REFEREE or action.kind not in PRIVATE_ROLLS:
        return True
    if action.kind == "mental_attack":
        target = action.params.get("target")
        known = isinstance(target, str | int) and not isinstance(target, bool)
        if known and state.has_character(str(target)):
            return viewer in (action.actor, state.character(str(target)).id)
        return viewer == action.actor
    return False


def _play(
    game: Path,
    log: Path | None,
    action_of: Any,
    at: str | None,
    seed: str | None,
    faces: str | None,
    viewer: str,
    dry_run: bool,
) -> None:
    from referee.core import RefereeError

    table = _open(game, log)
    who = _viewer(table, viewer)
    when = _time(table, at)
    try:
        if when is not None:
            table = table.advance(when)
        action = action_of(table)
        if _may_see_odds(table.state, action, who):
            _show_odds(table, action)
        if dry_run:
            return
        before = len(table.log)
        table = table.act(action, _dice(seed, faces))
    except RefereeError as error:
        fail(str(error))
    _save(table, game, log)
    _show_new(before, table, who)


# -- commands ---------------------------------------------------------------------------------


def register(app: typer.Typer) -> None:
    """Add the `intrigue` command group to ``app``."""
    sub = typer.Typer(
        name="intrigue",
        help="Intrigue in the Clouds: perception checks, skill rolls and combat at the table.",
        no_args_is_help=True,
    )

    @sub.command("check")
    def check(game: GameArg) -> None:
        """Validate a game file and list the cast (badge, number, stats, envelopes)."""
        from rich.markup import escape
        from rich.table import Table as RichTable

        from referee.systems.intrigue.game import unworn_numbers

        table = _open(game, None, replay=False)
        state = table.state
        out = RichTable(title=f"{game.name}: {len(state.characters)} characters")
        for column in ("No.", "Badge", "id", "Cmb", "Str", "Sta", "Wnd", "Mnd", "Envelopes"):
            out.add_column(column)
        for c in state.characters:
            envelopes = len(state.envelopes_of(c.id))
            contingent = sum(1 for e in state.contingency_envelopes if e.holder == c.id)
            out.add_row(
                c.number,
                c.name,
                c.id,
                str(c.combat),
                str(c.strength),
                str(c.stamina),
                str(c.wounds),
                str(c.mind),
                f"{envelopes} perception, {contingent} contingency",
            )
        console().print(out)
        for note in unworn_numbers(state):
            console().print(f"[yellow]note[/] {escape(note)}", highlight=False)

    @sub.command("perceive")
    def perceive(
        game: GameArg,
        perceiver: Annotated[str, typer.Argument(help="who perceives: id or number")],
        target: Annotated[str, typer.Argument(help="whom: id or number")],
        log: LogOpt = None,
        at: AtOpt = None,
        seed: SeedOpt = None,
        dice: DiceOpt = None,
        viewer: AsOpt = REFEREE,
        dry_run: DryOpt = False,
    ) -> None:
        """A Perception Check: 3d6 + Perception, the envelopes handed over and their contents."""
        from referee.core import Action

        def action_of(table: Table[IntrigueState]) -> Action:
            return Action(table.state.character(perceiver).id, "perceive", {"target": target})

        _play(game, log, action_of, at, seed, dice, viewer, dry_run)

    @sub.command("roll")
    def roll(
        game: GameArg,
        who: Annotated[str, typer.Argument(help="who rolls: id or number")],
        skill: Annotated[str, typer.Argument(help="the skill (or, with --ability, the ability)")],
        target: Annotated[
            str | None, typer.Option("--target", help="a fixed Target Number")
        ] = None,
        against: Annotated[
            str | None, typer.Option("--against", help="another character's roll + skill")
        ] = None,
        ability: Annotated[
            bool, typer.Option("--ability", help="SKILL names a Special Ability")
        ] = False,
        log: LogOpt = None,
        at: AtOpt = None,
        seed: SeedOpt = None,
        dice: DiceOpt = None,
        viewer: AsOpt = REFEREE,
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

        _play(game, log, action_of, at, seed, dice, viewer, dry_run)

    @sub.command("act")
    def act(
        game: GameArg,
        actor: Annotated[str, typer.Argument(help="who acts: a character, or referee")],
        action: Annotated[str, typer.Argument(help="the action: declare, resolve, escape ...")],
        params: Annotated[
            list[str] | None, typer.Argument(help="key=value parameters: target=bob")
        ] = None,
        log: LogOpt = None,
        at: AtOpt = None,
        seed: SeedOpt = None,
        dice: DiceOpt = None,
        viewer: AsOpt = REFEREE,
        dry_run: DryOpt = False,
    ) -> None:
        """Any action (declare, resolve, escape, open, report, revive ...), odds first."""
        from referee.core import Action

        given = _params(params or [])

        def action_of(table: Table[IntrigueState]) -> Action:
            who = actor if actor == REFEREE else table.state.character(actor).id
            return Action(who, action, given)

        _play(game, log, action_of, at, seed, dice, viewer, dry_run)

    @sub.command("combat")
    def combat(game: GameArg, log: LogOpt = None) -> None:
        """Each running combat: round, sides, declarations, who declares next, next rolls' odds."""
        from rich.markup import escape

        from referee.systems.intrigue.combat import initiative_rank, pending_declarers, preview
        from referee.systems.intrigue.rules import ESCAPE_DEFENSIVE_ACTIONS

        table = _open(game, log)
        state = table.state
        if not state.running:
            console().print("no combat is running")
            return
        for fight in state.running:
            sides: dict[int, list[str]] = {0: [], 1: []}
            for c, s in fight.sides:
                damage = state.status(c).damage
                mark = f" (damage {damage})" if damage else ""
                mark += " (escaped)" if c in fight.escaped else ""
                mark += " (out)" if not state.status(c).can_act else ""
                sides.setdefault(s, []).append(c + mark)
            console().print(
                f"[bold]{fight.id}[/] round {fight.round}"
                f"{'' if fight.in_round else ' (between rounds)'}: "
                f"{escape(', '.join(sides[0]))} against {escape(', '.join(sides[1]))}"
            )
            for d in fight.declarations:
                done = "resolved" if d.resolved else f"rank {d.rank}"
                on = f" {d.target}" if d.target else ""
                console().print(f"  {d.actor}: {d.kind}{on} ({done})", highlight=False)
            if fight.in_round:
                waiting = pending_declarers(state, fight)
                if waiting:
                    ranks = ", ".join(f"{c} ({initiative_rank(state, fight, c)})" for c in waiting)
                    console().print(f"  to declare, in order: {ranks}", highlight=False)
                holding = [
                    d.actor for d in fight.declarations if d.kind == "hold" and not d.resolved
                ]
                if holding and not waiting:
                    console().print(
                        f"  holding their action (may declare it now): {', '.join(holding)}",
                        highlight=False,
                    )
                for words, check in preview(state, fight.id):
                    p = check.odds().success
                    console().print(
                        f"  [cyan]next roll[/] {escape(words)}: [bold]{_pct(p)}[/] ({p})"
                    )
            else:
                for c in fight.participants:
                    if fight.streak(c) >= ESCAPE_DEFENSIVE_ACTIONS and state.is_active(fight, c):
                        console().print(f"  {c} may try to escape", highlight=False)

    @sub.command("status")
    def status(
        game: GameArg,
        who: Annotated[str | None, typer.Argument(help="a character (default: everyone)")] = None,
        log: LogOpt = None,
        at: AtOpt = None,
        viewer: AsOpt = REFEREE,
    ) -> None:
        """A character's state: Stamina, Wounds, knocked out until when, dead, cooldowns."""
        from referee.core import RefereeError
        from referee.systems.intrigue.procedure import game_json

        table = _open(game, log)
        when = _time(table, at)
        try:
            if when is not None:
                table = table.advance(when)
            ids = [table.state.character(who).id] if who else [c.id for c in table.state.characters]
        except RefereeError as error:
            fail(str(error))
        seer = _viewer(table, viewer)
        identities = None if seer == REFEREE else frozenset({seer})
        data = game_json(table.state, identities)
        for cid in ids:
            sheet = data["characters"][cid]
            line = f"[bold]{sheet['name']}[/] [{sheet['number']}] ({cid})"
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

    app.add_typer(sub, name="intrigue")
