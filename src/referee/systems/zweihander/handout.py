"""What a Zweihänder handout prints from the game's own tables (``SYSTEM.handout_data``).

>>> data = handout_data()
>>> data["peril_track"][0], data["damage_track"][-1], data["head_start"]
('Unhindered', 'Slain!', 3)
>>> [(r["role"], r["skill"]) for r in data["roles"]][0]
('Guide', 'Navigation')
"""

from __future__ import annotations

from typing import Any

from referee.systems.zweihander.character import DAMAGE_TRACK, PERIL_TRACK
from referee.systems.zweihander.chase import HEAD_START
from referee.systems.zweihander.madness import CORRUPTION_PER_CHAOS_RANK
from referee.systems.zweihander.tables import role_tables, takedown_conditions

__all__ = ["handout_data"]


def handout_data() -> dict[str, Any]:
    """The Peril and Damage Condition Tracks, best first; Corruption per rank towards Chaos;
    the chase's Head Start and the Takedown table ("Chase scene rules"); the travel Roles and
    their Skills ("Journeys")."""
    return {
        "peril_track": PERIL_TRACK,
        "damage_track": DAMAGE_TRACK,
        "corruption_per_chaos_rank": CORRUPTION_PER_CHAOS_RANK,
        "head_start": HEAD_START,
        "takedown": [
            {"difficulty": row.difficulty, "modifier": row.modifier, "condition": row.condition}
            for row in takedown_conditions()
        ],
        "roles": [{"role": row.role, "skill": row.skill} for row in role_tables()],
    }
