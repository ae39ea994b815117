"""The two-character duels the exact models' and the dice paths' tests set up."""

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


def ginlane_duel(
    moll: dict[str, int], jack: dict[str, int], weapons: tuple[str, str] = ("sword", "sword")
) -> dict[str, Any]:
    """Moll (the society) against Jack (the bravoes) in the taproom: each one's skills and
    weapon."""
    return {
        "zones": ["taproom"],
        "characters": {
            "moll": {"side": "society", "weapon": weapons[0], "skills": moll},
            "jack": {"side": "bravoes", "weapon": weapons[1], "skills": jack},
        },
    }
