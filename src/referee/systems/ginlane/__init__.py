"""Gin Lane: the rules as values and procedures on referee.core (see docs/systems/ginlane.md).

The rules as values:

- :mod:`~referee.systems.ginlane.tables`: the printed tables as validated data.
- :mod:`~referee.systems.ginlane.rolls`: 2d6 + skill, tags (options a and b), exact odds;
  :mod:`~referee.systems.ginlane.rerolls`: when a tag's re-roll is worth taking.
- :mod:`~referee.systems.ginlane.character`: sheets, the skill pyramid, Experience, the pool.
- :mod:`~referee.systems.ginlane.stress`: stress tracks, Taken Out, consequences.
- :mod:`~referee.systems.ginlane.conflict`: the rules of a fight as pure functions.
- :mod:`~referee.systems.ginlane.magia`: the Sephirot, Philosophers and rituals.

A scene in play (``system: ginlane``), along the text's sections:

- :mod:`~referee.systems.ginlane.scene`: the setup and the scene's state.
- :mod:`~referee.systems.ginlane.turns`, :mod:`~referee.systems.ginlane.zones`,
  :mod:`~referee.systems.ginlane.fighting`, :mod:`~referee.systems.ginlane.defence`,
  :mod:`~referee.systems.ginlane.manoeuvres`, :mod:`~referee.systems.ginlane.blocks`,
  :mod:`~referee.systems.ginlane.grapple`, :mod:`~referee.systems.ginlane.grenades`,
  :mod:`~referee.systems.ginlane.consequences`, :mod:`~referee.systems.ginlane.aspects`,
  :mod:`~referee.systems.ginlane.between_scenes`: each action, by the section that rules it,
  its handler, choices and folds together; :mod:`~referee.systems.ginlane.answers`: the
  defence and the hit its target answers herself, whatever the section that asked.
- :mod:`~referee.systems.ginlane.actions`: the catalogue of action kinds and their parameters.
- :mod:`~referee.systems.ginlane.choices`: what each seat may do now.
- :mod:`~referee.systems.ginlane.events` and :mod:`~referee.systems.ginlane.payloads`: the event
  vocabulary, its payloads and its narration; :mod:`~referee.systems.ginlane.fold`: each
  section's folds gathered.
- :mod:`~referee.systems.ginlane.procedure`: :data:`PROCEDURE`, its handlers by action kind.

Beside the rules: :mod:`~referee.systems.ginlane.commands` (``referee ginlane …``) and
:mod:`~referee.systems.ginlane.handout` (what its handouts print).

>>> SYSTEM.name, SYSTEM.procedure.has_referee, len(SYSTEM.catalogue) > 20
('ginlane', True, True)
"""

from referee.core.registry import System
from referee.systems.ginlane.procedure import PROCEDURE, GinLane
from referee.systems.ginlane.scene import Setup

__all__ = ["PROCEDURE", "SYSTEM", "GinLane", "Setup"]

SYSTEM = System(
    "ginlane",
    "Gin Lane",
    PROCEDURE,
    rules="gin-lane.txt",
    setup_model=Setup,
    summary=(
        "A Fate-like game of Georgian London: 2d6 + skill, tagged Aspects, zones, "
        "stress tracks and consequences."
    ),
    handout_data="referee.systems.ginlane.handout:handout_data",
    commands="referee.systems.ginlane.commands:register",
    simulations="referee.systems.ginlane.simulation:SIMULATIONS",
)
"""The game as the registry lists it (entry point ``referee.systems``: ginlane)."""
