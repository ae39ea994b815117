"""What a Hursagmu handout prints from the game's own rules (``SYSTEM.handout_data``).

>>> data = handout_data()
>>> data["action_penalty"], data["action_step"], data["round_seconds"]
(-2, 2, 6)
>>> data["skills"]["striking"], data["skills"]["command"]
('dexterity', 'intelligence')
"""

from __future__ import annotations

from typing import Any

from referee.systems.hursagmu.rounds import ACTION_PENALTY, ACTION_STEP
from referee.systems.hursagmu.state import ROUND_SECONDS
from referee.systems.hursagmu.tables import SKILL_ATTRIBUTES

__all__ = ["handout_data"]


def handout_data() -> dict[str, Any]:
    """Each major action after the first: ``action_penalty`` to skills and ``action_step``
    lower on Initiative; a round lasts about ``round_seconds``; ``skills``: every skill and
    the attribute it rolls with (``data/skills.yaml``), for a sheet to list them all."""
    return {
        "action_penalty": ACTION_PENALTY,
        "action_step": ACTION_STEP,
        "round_seconds": ROUND_SECONDS,
        "skills": dict(SKILL_ATTRIBUTES),
    }
