"""``referee run`` and ``referee schema`` (issue 3: the rules kernel)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the scenario commands to ``app``."""
