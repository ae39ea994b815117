"""Tables for the handouts' tests, from the games' own examples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from referee.core.registry import system
from referee.core.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_table(name: str) -> Table[Any]:
    """The table an example sets up (its setup and players, before any action)."""
    data = yaml.safe_load((EXAMPLES / name).read_text("utf-8"))
    return system(data["system"]).new_table(
        data["setup"], players=data.get("players"), start=data.get("start", "00:00")
    )
