"""The ``referee`` command line: thin over the library, it parses, calls and renders.

Each concern registers its commands from its own module (``register(app)``), and each game its
command group from its own package (``System.commands``, found through the registry: the
command line names no game). Heavy libraries (icepool, pydantic, matplotlib) are imported
inside the commands that need them, and ``main`` loads only the module of the command asked
for (a game's only when its command is run; the whole app for ``--help``), so ``referee roll``
starts fast.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

#: Command modules under ``referee.cli``, and the top-level commands each one adds. Each game
#: adds one more, named as the game (``referee kingdoms …``), listed after :data:`GAMES_AFTER`.
MODULES: dict[str, tuple[str, ...]] = {
    "dice": ("roll", "odds", "demo"),
    "scenario": ("run", "schema"),
    "table": ("table",),
    "verify": ("verify",),
    "serve": ("serve",),
    "demo_tables": ("play",),
    "handouts": ("handouts",),
    "simulate": ("simulate",),
}

#: The command module the games' commands follow in ``referee --help``.
GAMES_AFTER = "verify"


#: ``referee --help`` as Click prints it without Rich: shown without loading every command's
#: module (``tests/test_cli_main.py`` holds it to the whole app's own help, word for word; the
#: games' commands in the registry's order, by name, each with its own group's help).
TOP_HELP = """\
Usage: referee [OPTIONS] COMMAND [ARGS]...

  Referee: dice, exact odds, and rules for five tabletop games.

Options:
  --help  Show this message and exit.

Commands:
  roll        Roll dice and show every die: dropped ones struck through,...
  odds        Show the exact odds of every outcome, as fractions and...
  demo        A short guided tour of rolls and exact odds (what `make...
  run         Play a scenario file and print its events as VIEWER sees them.
  schema      Print the JSON Schema of scenario files (for editors).
  table       Play any game one step at a time over a record file or the...
  verify      Check every die of a table against its seed.
  ginlane     Gin Lane: 2d6 + skill, tagged Aspects, stress and...
  hursagmu    Hursagmu's encounter rules: round planner, odds, range, a...
  intrigue    Intrigue in the Clouds: the cast, odds calculators,...
  kingdoms    Burning Kingdoms: dispositions, sealed maneuver slips,...
  zweihander  Zweihänder house rules: tests, chases, journeys, intrigue.
  serve       Serve every table over HTTP and WebSocket.
  play        Serve the five demo tables (what `make run` runs).
  handouts    Print a seat's handouts as PDF files.
  simulate    Whole-encounter odds: simulate a conflict.
"""


def build_app(names: tuple[str, ...] | None = None) -> typer.Typer:
    """The Typer app with the commands of ``names``: command modules of :data:`MODULES` and
    games by name (by default all of them, in the order of :func:`everything`)."""
    import typer

    app = typer.Typer(
        name="referee",
        help="Referee: dice, exact odds, and rules for five tabletop games.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for name in everything() if names is None else names:
        if name in MODULES:
            importlib.import_module(f"referee.cli.{name}").register(app)
        else:
            add_game_commands(app, name)
    return app


def everything() -> tuple[str, ...]:
    """Every command module and every game, as ``referee --help`` lists their commands: the
    games (by name, from the registry) after :data:`GAMES_AFTER`."""
    from referee.core.registry import systems

    names = tuple(MODULES)
    after = names.index(GAMES_AFTER) + 1
    return (*names[:after], *systems(), *names[after:])


def add_game_commands(app: typer.Typer, name: str) -> None:
    """Add the game ``name``'s own commands to ``app`` (none if it has none): the function its
    :class:`~referee.core.registry.System` names in ``commands``, ``"module:function"``."""
    from referee.core.registry import system

    where = system(name).commands
    if not where:
        return
    module, _, function = where.partition(":")
    getattr(importlib.import_module(module), function)(app)


def _module_for(argv: list[str]) -> str | None:
    """The command module, or the game, of the command ``argv`` runs (``None``: no command)."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command is None:
        return None
    found = next((m for m, commands in MODULES.items() if command in commands), None)
    if found is not None:
        return found
    from referee.core.registry import systems

    return command if command in systems() else None


def _quick_roll(argv: list[str]) -> bool:
    """``referee roll EXPR [--seed N] [--json]``, the command a table runs most, without
    loading Typer (a third of the start-up): the same roll, output and errors as the Typer
    command (``referee.cli.dice``), which serves every other form (``--help``, options in
    another spelling). True if it ran."""
    if not argv or argv[0] != "roll":
        return False
    rest, seed, as_json, expression = argv[1:], None, False, None
    while rest:
        word, rest = rest[0], rest[1:]
        if word == "--json" and not as_json:
            as_json = True
        elif word == "--seed" and seed is None and rest and rest[0].lstrip("-").isdigit():
            seed, rest = int(rest[0]), rest[1:]
        elif expression is None and not word.startswith("-"):
            expression = word
        else:
            return False
    if expression is None:
        return False
    from referee.cli.rolls import roll_once

    roll_once(expression, seed, as_json)
    return True


def main() -> None:
    """Entry point of the ``referee`` script.

    A usage error (a missing argument, an option's bad value) is one line on standard error,
    naming the command, with exit status 2, like every other bad input.
    """
    from referee.cli.output import fail

    if _quick_roll(sys.argv[1:]):
        return
    if not sys.stdout.isatty():
        # Rich only on a terminal, as for every other output: piped help is Click's plain
        # text, without loading Rich's Markdown renderer (some 90 ms)
        os.environ.setdefault("TYPER_USE_RICH", "0")
        if sys.argv[1:] in ([], ["--help"]):
            sys.stdout.write(TOP_HELP)
            return
    module = _module_for(sys.argv[1:])
    app = build_app((module,) if module is not None else None)
    if not app.registered_commands and not app.registered_groups:
        app = build_app()  # a game with no commands of its own: no such command, says Click
    try:
        status = app(standalone_mode=False)
    except SystemExit:
        raise
    except Exception as error:
        message = getattr(error, "format_message", None)
        exit_code = getattr(error, "exit_code", None)
        if type(error).__name__ == "NoArgsIsHelpError":  # a group named alone: its help
            sys.stdout.write(str(message() if callable(message) else error).rstrip() + "\n")
            raise SystemExit(0) from None
        if callable(message) and isinstance(exit_code, int):  # Click's usage errors
            text = str(message()).strip()
            if not text:  # `referee` alone: the help was shown
                raise SystemExit(0) from None
            ctx = getattr(error, "ctx", None)
            command = " ".join(str(ctx.command_path).split()[1:]) if ctx is not None else ""
            fail(f"{command}: {text}" if command else text, status=exit_code)
        if type(error).__name__ == "Abort":  # Ctrl-C at a prompt
            fail("aborted", status=1)
        raise
    if isinstance(status, int) and status:
        raise SystemExit(status)


def __getattr__(name: str) -> typer.Typer:
    # ``referee.cli.app``: the whole app, built on first use (tests, documentation tools).
    if name == "app":
        app = build_app()
        globals()["app"] = app
        return app
    raise AttributeError(name)
