"""How ``referee roll`` prints a roll: loaded without Typer, so the command starts fast
(``referee.cli.main`` runs the plain form of ``referee roll`` through :func:`roll_once`)."""

from __future__ import annotations

import json
import sys

from referee.cli.output import console, fail
from referee.dice import RandomSource, RefereeError, roll
from referee.dice.rolling import Roll, RolledDie, format_total

__all__ = ["roll_once", "say_roll", "show_roll"]


def _mark_rich(die: RolledDie) -> str:
    text = str(die.face) if die.rolled == die.face else f"{die.rolled}→{die.face}"
    if die.exploded:
        text = f"[bold yellow]{text}![/]"
    elif die.success:
        text = f"[bold green]{text}[/]"
    if not die.kept:
        text = f"[strike dim]{text}[/]"
    return text


def show_roll(result: Roll) -> str:
    """A roll as Rich markup: dropped dice struck through, explosions marked ``!``."""
    from rich.markup import escape

    from referee.dice.render import render

    body = render(result.tree, _mark_rich, escape, lambda s: f"[strike dim]{s}[/]")
    return f"{body} = [bold]{format_total(result.total)}[/]"


def say_roll(result: Roll) -> None:
    """Print a roll: Rich styles on a terminal, plain marks (``~~1~~``, ``6!``) elsewhere
    (without loading Rich at all, so a piped ``referee roll`` starts fast)."""
    if sys.stdout.isatty():
        console().print(show_roll(result), highlight=False)
    else:
        sys.stdout.write(result.describe() + "\n")


def roll_once(expression: str, seed: int | None, as_json: bool) -> None:
    """``referee roll``: roll ``expression`` (seeded, or from the system's CSPRNG) and print
    it, or one line and exit 2 for a bad expression."""
    try:
        result = roll(expression, RandomSource(seed))
    except RefereeError as error:
        fail(str(error))
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        say_roll(result)
