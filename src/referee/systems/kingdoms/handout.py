"""What a Burning Kingdoms handout prints from the game's own tables (``SYSTEM.handout_data``).

>>> len(handout_data()["maneuvers"]), handout_data()["maneuvers"][-1]
(11, 'Sap')
"""

from __future__ import annotations

from typing import Any

from referee.systems.kingdoms.tables import MANEUVERS

__all__ = ["handout_data"]


def handout_data() -> dict[str, Any]:
    """``maneuvers``: the eleven maneuvers a slip ticks ("Maneuvering in the Chronicle")."""
    return {"maneuvers": MANEUVERS}
