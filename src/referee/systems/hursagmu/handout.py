"""What a Hursagmu handout prints from the game's own rules (``SYSTEM.handout_data``).

>>> handout_data()
{'action_penalty': -2, 'action_step': 2, 'round_seconds': 6}
"""

from __future__ import annotations

from typing import Any

from referee.systems.hursagmu.rounds import ACTION_PENALTY, ACTION_STEP
from referee.systems.hursagmu.state import ROUND_SECONDS

__all__ = ["handout_data"]


def handout_data() -> dict[str, Any]:
    """Each major action after the first: ``action_penalty`` to skills and ``action_step``
    lower on Initiative; a round lasts about ``round_seconds``."""
    return {
        "action_penalty": ACTION_PENALTY,
        "action_step": ACTION_STEP,
        "round_seconds": ROUND_SECONDS,
    }
