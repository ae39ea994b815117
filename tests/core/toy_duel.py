"""The kernel's toy duel, registered as ``kernel_duel`` for the tests that play it by that name:
the example game installed from ``examples/toy-game`` (``referee_toy``), which is also the game
``toy``."""

from __future__ import annotations

from referee.core import register_system
from referee_toy.duel import Duel

PROCEDURE = Duel()
register_system("kernel_duel", PROCEDURE)
