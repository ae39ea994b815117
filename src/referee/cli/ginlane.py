"""`referee ginlane ...`: Gin Lane at the table."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `ginlane` command group to ``app``."""
