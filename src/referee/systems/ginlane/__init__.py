"""Gin Lane: the rules as values and procedures on referee.core (see docs/systems/ginlane.md).

- :mod:`~referee.systems.ginlane.tables`: the printed tables as validated data.
- :mod:`~referee.systems.ginlane.rolls`: 2d6 + skill, tags (options a and b), exact odds.
- :mod:`~referee.systems.ginlane.character`: sheets, the skill pyramid, Experience, the pool.
- :mod:`~referee.systems.ginlane.stress`: stress tracks, Taken Out, consequences.
- :mod:`~referee.systems.ginlane.conflict`: the rules of a fight as pure functions.
- :mod:`~referee.systems.ginlane.magia`: the Sephirot, Philosophers and rituals.
- :mod:`~referee.systems.ginlane.procedure`: :data:`PROCEDURE`, a scene in play
  (``system: ginlane``).
"""

from referee.systems.ginlane.procedure import PROCEDURE, GinLane

__all__ = ["PROCEDURE", "GinLane"]
