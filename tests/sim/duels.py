"""The two-character Intrigue duel both the exact model's and the dice path's tests set up."""

from __future__ import annotations

from typing import Any


def intrigue_duel(
    stamina: tuple[int, int], strength: tuple[int, int], combat: tuple[int, int]
) -> dict[str, Any]:
    """Ann (number 10) against Bob (number 11), each side's Stamina, Strength and Combat."""
    return {
        "characters": {
            side: {
                "name": side.title(),
                "number": 10 + i,
                "combat": combat[i],
                "strength": strength[i],
                "stamina": stamina[i],
            }
            for i, side in enumerate(("ann", "bob"))
        }
    }
