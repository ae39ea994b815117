"""`referee intrigue ...`: Intrigue in the Clouds at the table."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `intrigue` command group to ``app``."""
