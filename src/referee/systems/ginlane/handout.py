"""What a Gin Lane handout prints from the game's own tables (``SYSTEM.handout_data``).

>>> data = handout_data()
>>> [(c["severity"], c["mitigates"]) for c in data["consequences"]][-1]
('extreme', 8)
>>> data["stress_tracks"], data["no_relevant_skill"]
({'Health': 5, 'Composure': 5, 'Wealth': 5}, -2)
"""

from __future__ import annotations

from typing import Any

from referee.systems.ginlane.character import BASE_TRACK, TRACK_SKILLS
from referee.systems.ginlane.rolls import NO_RELEVANT_SKILL
from referee.systems.ginlane.tables import consequences

__all__ = ["handout_data"]


def handout_data() -> dict[str, Any]:
    """ "Consequences" (severity, stress mitigated, how long it lasts); the "Stress Tracks" and
    the boxes each starts with; "No Relevant Skill"'s effective skill."""
    return {
        "consequences": [
            {"severity": row.severity, "mitigates": row.mitigates, "lasts": row.lasts}
            for row in consequences()
        ],
        "stress_tracks": dict.fromkeys(TRACK_SKILLS, BASE_TRACK),
        "no_relevant_skill": NO_RELEVANT_SKILL,
    }
