"""``referee roll``, ``referee odds`` and ``referee demo``: dice at the command line."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import console, fail
from referee.cli.rolls import roll_once, say_roll
from referee.dice import RandomSource, RefereeError, parse, roll
from referee.dice.rolling import format_total

if TYPE_CHECKING:
    from referee.dice.probability import Odds


def percent(p: Fraction) -> str:
    """A probability as a percentage for a person."""
    value = float(p) * 100
    if 0 < value < 0.01:
        return f"{value:.2e}%"
    return f"{value:.2f}%"


def odds_table(result: Odds) -> Any:
    """A Rich table of each outcome, its probability and the chance of at least it."""
    from rich.table import Table

    table = Table(title=f"Odds of {result.expression}", title_justify="left")
    table.add_column("Outcome", justify="right")
    table.add_column("Probability", justify="right")
    table.add_column("%", justify="right")
    table.add_column("At least", justify="right")
    running = Fraction(1)
    for outcome, p in result.distribution.items():
        table.add_row(format_total(outcome), str(p), percent(p), percent(running))
        running -= p
    return table


def plot_odds(result: Odds, path: Path) -> None:
    """Draw the distribution as a bar chart (PNG or SVG, by the file's suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outcomes = [format_total(o) for o in result.distribution]
    probs = [float(p) * 100 for p in result.distribution.values()]
    fig, ax = plt.subplots(figsize=(max(4.0, len(outcomes) * 0.35), 3.5))
    ax.bar(outcomes, probs, color="#4c72b0")
    ax.set_xlabel("outcome")
    ax.set_ylabel("probability (%)")
    ax.set_title(f"{result.expression}  (mean {float(result.mean):.3f})")
    if len(outcomes) > 30:
        step = max(1, len(outcomes) // 20)
        ax.set_xticks(range(0, len(outcomes), step))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def roll_command(
    expression: Annotated[str, typer.Argument(help="Dice notation, e.g. 4d6kh3 or 6d6!>=4")],
    seed: Annotated[
        int | None, typer.Option(help="Seed for a reproducible roll (default: system CSPRNG)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """Roll dice and show every die: dropped ones struck through, explosions marked."""
    roll_once(expression, seed, as_json)


def odds_command(
    expression: Annotated[str, typer.Argument(help="Dice notation, e.g. 3d6+2>=14")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    plot: Annotated[
        Path | None, typer.Option(help="Draw the distribution to FILE.png or FILE.svg")
    ] = None,
) -> None:
    """Show the exact odds of every outcome, as fractions and percentages."""
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"--plot {str(plot)!r}: the file must end in .png or .svg")
    try:
        parsed = parse(expression)
        from referee.dice.probability import odds

        result = odds(parsed)
    except RefereeError as error:
        fail(str(error))
    if plot is not None:
        try:
            plot_odds(result, plot)
        except OSError as error:
            fail(f"--plot {str(plot)!r}: {error.strerror or error}")
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        return
    out = console()
    out.print(odds_table(result))
    out.print(
        f"mean {result.mean} ≈ {float(result.mean):.4f}, standard deviation ≈ {result.stdev:.4f}",
        soft_wrap=True,
    )
    if result.truncated:
        out.print(
            f"explosions followed until below 1e-12: truncated mass {result.truncated}"
            f" ≈ {float(result.truncated):.3e}",
            soft_wrap=True,
        )
    if plot is not None:
        out.print(f"plot written to {plot}", soft_wrap=True)


def demo_command(
    seed: Annotated[int | None, typer.Option(help="Seed the demo's rolls")] = None,
) -> None:
    """A short guided tour of rolls and exact odds (what `make run` shows)."""
    from rich.markup import escape

    from referee.dice.probability import odds

    out = console()
    source = RandomSource(seed)
    tour = [
        ("A skill roll in Intrigue in the Clouds: 3d6 + Perception 4 against 14", "3d6+4>=14"),
        ("Ability scores the classic way: four d6, keep the highest three", "4d6kh3"),
        ("A Burning Wheel pool: six dice, black shade (4+), sixes open-ended", "6d6!>=4"),
        ("A Zweihänder percentile test", "d100"),
        ("d20's own example, with damage types", "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)"),
    ]
    for caption, expression in tour:
        out.rule(f"[bold]{caption}")
        out.print(f"[cyan]referee roll {escape(repr(expression))}[/]", highlight=False)
        say_roll(roll(expression, source))
        chances = odds(expression)
        if set(chances.distribution) <= {True, False}:
            out.print(
                f"exact chance of success: {chances.probability(True)} "
                f"= {percent(chances.probability(True))}"
            )
        else:
            mean = chances.mean
            exact = f"{mean} ≈ " if mean.denominator < 10**6 else "≈ "
            out.print(
                f"exact mean {exact}{float(mean):.3f}, {len(chances.distribution)} possible totals"
            )
    out.rule()
    out.print(
        "Try [cyan]referee roll '2d20kh1+5'[/], [cyan]referee odds '8d6>=4'[/], "
        "or [cyan]referee --help[/]."
    )


def register(app: typer.Typer) -> None:
    """Add the dice commands to ``app``."""
    app.command("roll")(roll_command)
    app.command("odds")(odds_command)
    app.command("demo")(demo_command)
