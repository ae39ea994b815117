"""The ``referee`` command line: thin over the library, it parses, calls and renders.

Each concern registers its commands from its own module (``register(app)``). Heavy libraries
(icepool, pydantic, matplotlib) are imported inside the commands that need them, and ``main``
loads only the module of the command asked for (the whole app for ``--help``), so
``referee roll`` starts fast.
"""

from __future__ import annotations

import importlib
import sys

import typer

#: Command modules under ``referee.cli``, and the top-level commands each one adds.
MODULES: dict[str, tuple[str, ...]] = {
    "dice": ("roll", "odds", "demo"),
    "scenario": ("run", "schema"),
    "intrigue": ("intrigue",),
    "kingdoms": ("kingdoms",),
    "zweihander": ("zweihander",),
    "ginlane": ("ginlane",),
    "hursagmu": ("hursagmu",),
}


def build_app(modules: tuple[str, ...] = tuple(MODULES)) -> typer.Typer:
    """The Typer app with the commands of ``modules`` (all of them by default)."""
    app = typer.Typer(
        name="referee",
        help="Referee: dice, exact odds, and rules for five tabletop games.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for name in modules:
        importlib.import_module(f"referee.cli.{name}").register(app)
    return app


def _module_for(argv: list[str]) -> str | None:
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    return next((m for m, commands in MODULES.items() if command in commands), None)


def main() -> None:
    """Entry point of the ``referee`` script."""
    module = _module_for(sys.argv[1:])
    build_app((module,) if module is not None else tuple(MODULES))()


def __getattr__(name: str) -> typer.Typer:
    # ``referee.cli.app``: the whole app, built on first use (tests, documentation tools).
    if name == "app":
        app = build_app()
        globals()["app"] = app
        return app
    raise AttributeError(name)
