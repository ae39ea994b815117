"""Burning Kingdoms: the rules as values and procedures on referee.core.

Modules: :mod:`.dice` (Burning Wheel tests and their exact odds), :mod:`.tables` (the matrix and
the printed tables as data), :mod:`.disposition` (the builder), :mod:`.sheets` (characters),
:mod:`.resolution` (who meets whom and what each maneuver does), :mod:`.state` and
:mod:`.procedure` (the chronicle at the table, consequences and downtime). See
docs/systems/kingdoms.md.
"""

from referee.systems.kingdoms.procedure import PROCEDURE, KingdomsProcedure

__all__ = ["PROCEDURE", "KingdomsProcedure"]
