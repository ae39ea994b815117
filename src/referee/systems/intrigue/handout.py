"""What an Intrigue in the Clouds handout prints from the game's own rules
(``SYSTEM.handout_data``).

>>> handout_data()
{'dice': '3d6', 'perception': 'Perception'}
"""

from __future__ import annotations

from typing import Any

from referee.systems.intrigue.characters import PERCEPTION
from referee.systems.intrigue.rules import DICE

__all__ = ["handout_data"]


def handout_data() -> dict[str, Any]:
    """The dice a skill roll adds to the skill value ("Skill Rolls"), and the skill every
    character has ("All characters also have the Perception Skill")."""
    return {"dice": DICE, "perception": PERCEPTION}
