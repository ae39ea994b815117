"""Burning Kingdoms: the rules as values and procedures on referee.core.

Modules, along the text's sections. The rules as values: :mod:`.pools`, :mod:`.dice` and
:mod:`.odds` (Burning Wheel tests: what goes into a pool, the roll, the exact odds),
:mod:`.tables` (the matrix and the printed tables as data), :mod:`.disposition` (the builder,
"Territorial Conquest"), :mod:`.sheets` ("Faction Leaders"), :mod:`.setup` (a chronicle's set-up
as a model). The chronicle at the table, one module a section, each with its handlers and
folds: :mod:`.structure` ("Structure of Play"), :mod:`.prologue` ("Prologues and Chronicle
Objective"), :mod:`.slips` and :mod:`.scripting` ("Maneuvering in the Chronicle"),
:mod:`.scenes` ("Scene Economy"), :mod:`.reveal`, :mod:`.engagements` ("Independent and Versus
Maneuvers", "Multiple Opponents"), :mod:`.resolution` ("Maneuver Resolution", one function per
maneuver), :mod:`.artha`, :mod:`.tie_breaker`, :mod:`.consequences`, :mod:`.wound_recovery`,
:mod:`.downtime`; :mod:`.actions` (the action catalogue), :mod:`.choices` (what a faction may do
now), :mod:`.events` and :mod:`.payloads` (the event vocabulary, its payloads and narration),
:mod:`.cards` (roll cards), :mod:`.state`, :mod:`.fold` and :mod:`.procedure` (the handlers and
folds gathered). Beside the rules: :mod:`.commands` (``referee kingdoms …``) and
:mod:`.handout` (what its handouts print). See docs/systems/kingdoms.md.

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
    simulations="referee.systems.kingdoms.simulation:SIMULATIONS",
)
"""The game as the registry lists it (entry point ``referee.systems``: kingdoms)."""
