"""Zweihänder house rules as values and procedures on referee.core (docs/systems/zweihander.md).

Modules, each one part of the rules text (``rules/zweihander-house-rules.txt``):

- :mod:`.percentile` — the d100 core: Base Chance, Difficulty, criticals, Assist and Chaos Dice
- :mod:`.character` — characters, Peril and Damage Condition Tracks
- :mod:`.narrative` — Narrative considerations (piecemeal armor; fog, mist & smoke)
- :mod:`.morale` — Morale checks
- :mod:`.chase` — Chase scene rules
- :mod:`.overland` — Overland exploration (miles per day)
- :mod:`.wilderness` — Wilderness travel rules
- :mod:`.reputation` — Reputation points and requisitions
- :mod:`.social` — Social Intrigue
- :mod:`.madness` — Madness, Corruption, Order & Chaos, Disorders
- :mod:`.stable` — Character stable
- :mod:`.skill_tests` — Skill Tests at the table
- :mod:`.events` — the event vocabulary: every kind, its payload, its narration
- :mod:`.setup` — the setup's model (characters, Fortune Points, stables, a journey)
- :mod:`.procedure` — all of it as one procedure for scenario files (``system: zweihander``)

>>> from referee.core import get_system
>>> type(get_system("zweihander")).__name__
'ZweihanderProcedure'
"""

from referee.systems.zweihander.procedure import ZweihanderProcedure

PROCEDURE = ZweihanderProcedure()
"""The procedure scenario files with ``system: zweihander`` play."""

__all__ = ["PROCEDURE", "ZweihanderProcedure"]

from referee.core.registry import System  # noqa: E402
from referee.systems.zweihander.setup import Setup  # noqa: E402

SYSTEM = System(
    "zweihander",
    "Zweihänder house rules",
    PROCEDURE,
    rules="zweihander-house-rules.txt",
    setup_model=Setup,
    summary="House rules for Zweihänder (d100): Skill Tests, morale, chases, wilderness "
    "travel, social intrigue, madness and corruption, reputation, the character stable.",
    handout_data="referee.systems.zweihander.handout:handout_data",
    commands="referee.systems.zweihander.commands:register",
    simulations="referee.systems.zweihander.simulation:SIMULATIONS",
)
"""The game as the registry lists it (entry point ``referee.systems``: zweihander)."""
