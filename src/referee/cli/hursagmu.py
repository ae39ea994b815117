"""`referee hursagmu ...`: Hursagmu's encounter rules at the table."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `hursagmu` command group to ``app``."""
