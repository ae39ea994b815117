"""The conflicts the games offer for simulation, read from the registry.

Each game lists its conflicts in its own package (``System.simulations``: how each begins,
which action kinds belong to it, who moves, when it is over, what came of it, its exact model
where it has one; :class:`~referee.core.simulation.SimulatedConflict`). Whether a conflict is
over and who won, the game says through the table contract (``procedure.conflict(state)``);
what it counts besides, the game's own simulation module reads from its own state. Nothing
here names a game: :data:`CONFLICTS` is every installed game's main conflict, by system name.

>>> from referee.core import system, systems
>>> all(CONFLICTS[name] == system(name).simulated_conflicts()[0] for name in CONFLICTS)
True
>>> sorted(CONFLICTS) == [name for name in systems() if system(name).simulated_conflicts()]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from referee.core.registry import system, systems
from referee.core.simulation import (
    EncounterOutcome,
    SimulatedConflict,
    conflict_of,
    why_not_main,
)

__all__ = [
    "CONFLICTS",
    "EncounterOutcome",
    "MainConflicts",
    "SimulatedConflict",
    "conflict_of",
    "why_not_main",
]


class MainConflicts(Mapping[str, SimulatedConflict]):
    """Each game's main conflict, by system name: the games that offer one (read from the
    registry each time: a game registered later is found too)."""

    def __getitem__(self, name: str) -> SimulatedConflict:
        offered = system(name).simulated_conflicts() if name in systems() else ()
        if not offered:
            raise KeyError(f"no whole-encounter simulation for system {name!r}")
        return offered[0]

    def __contains__(self, name: object) -> bool:
        return (
            isinstance(name, str) and name in systems() and bool(system(name).simulated_conflicts())
        )

    def __iter__(self) -> Iterator[str]:
        return (name for name in systems() if system(name).simulated_conflicts())

    def __len__(self) -> int:
        return sum(1 for _ in self)


CONFLICTS = MainConflicts()
"""Every game's main conflict, by system name (``table.system in CONFLICTS``)."""
