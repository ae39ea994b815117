"""`referee zweihander ...`: Zweihänder house rules at the table."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `zweihander` command group to ``app``."""
