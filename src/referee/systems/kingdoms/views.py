"""What each faction may see of a chronicle: everything but the other factions' sealed slips
(before the reveal, each faction sees its own slip alone; "Maneuver Slips").

The state's JSON is the same for every seat but for those slips, so it is written once per
state and shared (issue 29), and each maneuver's record in ``history`` — which only grows as
the chronicle goes on — is written once for as long as it is kept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from referee.core import Viewer, to_json
from referee.core.remembered import by_identity
from referee.core.values import Json, SharedJson
from referee.systems.kingdoms.state import KingdomsState

__all__ = ["SEALED", "state_json", "visible_state"]

SEALED = ("slips", "salts")
"""The parts of the state sealed per faction while the slips are being written."""

_FIELDS = tuple(f.name for f in dataclasses.fields(KingdomsState))


@by_identity(8)
def state_json(state: KingdomsState) -> SharedJson:
    """The whole state as JSON (``to_json`` of it, field by field), once per state."""
    return SharedJson(
        {
            name: [_record_json(r) for r in state.history]
            if name == "history"
            else to_json(getattr(state, name))
            for name in _FIELDS
        }
    )


@by_identity(4096)
def _record_json(record: Mapping[str, Any]) -> Json:
    """A maneuver's record as JSON: written once, the record never changing."""
    written: Json = to_json(record)
    return written


def visible_state(state: KingdomsState, viewer: Viewer) -> SharedJson:
    """The whole state for the referee; for anyone else, everything but other factions'
    sealed slips while they are being written."""
    whole = state_json(state)
    if viewer.is_referee or state.phase != "maneuver":
        return whole
    data: dict[str, Any] = dict(whole)
    for part in SEALED:
        sealed = data.get(part)
        if isinstance(sealed, Mapping):
            data[part] = {f: s for f, s in sealed.items() if f in viewer.identities}
    return SharedJson(data)
