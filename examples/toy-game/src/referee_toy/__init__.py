"""A duel that stops to ask the defender: a sixth game, installed as a package of its own.

Referee finds it through the entry point in this package's ``pyproject.toml``
(``[project.entry-points."referee.systems"] toy = "referee_toy:SYSTEM"``): ``referee table new
toy …`` plays it, the web table serves it, the handouts print it and ``referee simulate`` runs
it, with no line of Referee changed. ``docs/new-game.md`` walks through it.

>>> from referee.core.registry import system
>>> system("toy").title
'A duel (the example game)'
"""

from __future__ import annotations

from referee.core import System
from referee_toy.duel import Duel, DuelSetup

__all__ = ["SYSTEM"]

SYSTEM = System(
    name="toy",
    title="A duel (the example game)",
    procedure=Duel(),
    setup_model=DuelSetup,
    summary="Two or more duellists take turns to declare a plan; each attack stops to ask its "
    "target how to defend.",
)
