"""``referee table actions``, ``show`` and ``log``: a table as one seat sees it, from
:func:`referee.core.table.observe`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.table.places import observed

if TYPE_CHECKING:
    from referee.core.table import Observation

__all__ = [
    "actions_command",
    "log_command",
    "print_json",
    "print_observation_events",
    "show_command",
]


def print_json(data: Any) -> None:
    """``data`` as indented JSON on standard output."""
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _domain(domain: dict[str, Any]) -> str:
    """A domain's JSON in one line: what a seat may write for that parameter."""
    if "one_of" in domain:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in domain["one_of"])
    if "between" in domain:
        low, high = domain["between"]
        return f"{low}..{high}"
    if "some_of" in domain:
        values = ", ".join(json.dumps(v, ensure_ascii=False) for v in domain["some_of"])
        return f"a list of [{values}]"
    if "record" in domain:
        optional = set(domain.get("optional") or ())
        fields = ", ".join(
            f"{name}{'?' if name in optional else ''}: {_domain(d)}"
            for name, d in domain["record"].items()
        )
        return "{" + fields + "}"
    if "any_of" in domain:
        return " or ".join(f"({label}) {_domain(d)}" for label, d in domain["any_of"].items())
    if "steps" in domain:
        return f"{domain['least']} to {domain['most']} steps, each {_domain(domain['steps'])}"
    if "depends" in domain:
        cases = "; ".join(
            f"if {json.dumps(v, ensure_ascii=False)}: {_domain(d)}" for v, d in domain["cases"]
        )
        return f"by {domain['depends']} ({cases})"
    return "text"


def _percent(fraction: str) -> str:
    from fractions import Fraction

    return f"{float(Fraction(fraction)) * 100:.1f}%"


def print_observation_events(seen: Observation) -> None:
    """Each event of ``seen`` narrated, with its number and time, and each roll's dice and
    odds."""
    from referee.core.cards import event_cards
    from referee.core.clock import format_time

    for event, text in zip(seen.events, seen.narration, strict=True):
        typer.echo(f"#{event.number:<4} {format_time(event.at, seen.start)}  {text}")
        for card in event_cards(event.data):
            typer.echo(f"        🎲 {card.describe()}")
            if card.odds:
                odds = ", ".join(f"{o} {_percent(p)}" for o, p in card.odds.items())
                typer.echo(f"           odds were: {odds}")


def actions_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
    seat: Annotated[str, typer.Option("--as", help="your seat")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
) -> None:
    """What this seat may do now, with the odds of each check it would roll."""
    table, seen = observed(ctx, target, seat)
    if as_json:
        print_json([choice.to_json() for choice in seen.choices])
        return
    for prompt in seen.prompts:
        waits = "everyone waits" if prompt.blocking else "others may act meanwhile"
        typer.echo(f"DECIDE — {prompt.actor}: {prompt.reason}  ({prompt.section}; {waits})")
        typer.echo(f"    answer with: {', '.join(prompt.kinds)}")
        if prompt.default is not None:
            given = json.dumps(prompt.default.params, ensure_ascii=False)
            typer.echo(f"    if declined: {prompt.default.kind} {given}")
    if not seen.choices:
        waiting = ", ".join(seen.to_move) or "nobody"
        typer.echo(f"Nothing for {seat} to do now (to move: {waiting}).")
    for choice in seen.choices:
        spec = table.spec(choice.kind)
        section = f"  ({spec.section})" if spec is not None else ""
        label = f" — {choice.label}" if choice.label else ""
        answers = "  [answers a prompt]" if choice.prompt else ""
        typer.echo(f"{choice.actor}: {choice.kind}{label}{section}{answers}")
        for param, domain in choice.params.items():
            typer.echo(f"    {param} = {_domain(domain.to_json())}")
        for preview in choice.odds:
            odds = ", ".join(f"{o} {_percent(p)}" for o, p in preview.odds.items())
            typer.echo(f"    odds: {preview.label}: {preview.dice}: {odds}")


def show_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
    seat: Annotated[str, typer.Option("--as", help="whose view")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
) -> None:
    """The table as this seat sees it: state, whose move, version."""
    from referee.core.clock import format_time
    from referee.core.registry import system

    table, seen = observed(ctx, target, seat)
    if as_json:
        print_json(seen.to_json())
        return
    typer.echo(
        f"{system(table.system).title} — as {seat}, version {seen.version}, "
        f"{format_time(seen.now, seen.start)}"
    )
    typer.echo(f"to move: {', '.join(seen.to_move) or 'nobody'}")
    typer.echo(json.dumps(seen.state, ensure_ascii=False, indent=2))


def log_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TABLE", help="a record file or a table id")],
    seat: Annotated[str, typer.Option("--as", help="whose view")],
    since: Annotated[int, typer.Option(help="only events after this version")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
) -> None:
    """The log narrated as this seat sees it, every roll with its dice and odds."""
    _, seen = observed(ctx, target, seat, since=since)
    if as_json:
        print_json({"events": seen.to_json()["events"], "actions": list(seen.actions)})
        return
    print_observation_events(seen)
