"""The ``referee`` command line: thin over the library, it parses, calls and renders.

Each concern registers its commands from its own module. Heavy libraries (icepool, pydantic,
matplotlib) are imported inside the commands that need them, so ``referee roll`` starts fast.
"""

from __future__ import annotations

import typer

from referee.cli import dice as _dice
from referee.cli import ginlane as _ginlane
from referee.cli import hursagmu as _hursagmu
from referee.cli import intrigue as _intrigue
from referee.cli import kingdoms as _kingdoms
from referee.cli import scenario as _scenario
from referee.cli import zweihander as _zweihander

app = typer.Typer(
    name="referee",
    help="Referee: dice, exact odds, and rules for five tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (_dice, _scenario, _intrigue, _kingdoms, _zweihander, _ginlane, _hursagmu):
    _module.register(app)


def main() -> None:
    """Entry point of the ``referee`` script."""
    app()
