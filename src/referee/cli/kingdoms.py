"""`referee kingdoms ...`: Burning Kingdoms at the table."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `kingdoms` command group to ``app``."""
