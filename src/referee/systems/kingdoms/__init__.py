"""Burning Kingdoms: the rules as values and procedures on referee.core.

Modules, along the text's sections: :mod:`.dice` (Burning Wheel tests and their exact odds),
:mod:`.tables` (the matrix and the printed tables as data), :mod:`.disposition` (the builder,
"Territorial Conquest"), :mod:`.sheets` ("Faction Leaders"), :mod:`.setup` (a chronicle's set-up
as a model), :mod:`.actions` (the action catalogue), :mod:`.choices` (what a faction may do
now), :mod:`.scripting` ("Maneuvering in the Chronicle", "Scene Economy"), :mod:`.resolution`
("Maneuver Resolution", one function per maneuver), :mod:`.events` (the event vocabulary and its
narration), :mod:`.cards` (roll cards), :mod:`.state`, :mod:`.fold` and :mod:`.procedure` (the
chronicle at the table). See docs/systems/kingdoms.md.

>>> SYSTEM.name, SYSTEM.procedure.has_referee, len(SYSTEM.catalogue)
('kingdoms', False, 17)
"""

from referee.core.registry import System
from referee.systems.kingdoms.procedure import PROCEDURE, KingdomsProcedure
from referee.systems.kingdoms.setup import KingdomsSetup

__all__ = ["PROCEDURE", "SYSTEM", "KingdomsProcedure"]

SYSTEM = System(
    "kingdoms",
    "Burning Kingdoms",
    PROCEDURE,
    rules="burning-kingdoms.txt",
    setup_model=KingdomsSetup,
    summary=(
        "GM-less conquest on Burning Wheel dice: each player leads a faction, scripts a sealed "
        "maneuver slip, plays scenes, and the slips are revealed, rolled and resolved in seat "
        "order until one faction stands."
    ),
    handout_data="referee.systems.kingdoms.handout:handout_data",
    commands="referee.systems.kingdoms.commands:register",
)
"""The game as the registry lists it (entry point ``referee.systems``: kingdoms)."""
