"""Intrigue in the Clouds: the rules as values and procedures on referee.core.

See docs/systems/intrigue.md for the coverage table and the rulings.

- :mod:`~referee.systems.intrigue.characters`: badges, skills, abilities, languages, stats.
- :mod:`~referee.systems.intrigue.envelopes`: Perception and Contingency Envelopes.
- :mod:`~referee.systems.intrigue.rules`: skill rolls, attacks, groups, damage, as kernel checks.
- :mod:`~referee.systems.intrigue.combat`: combat as declaration and resolution, round by round.
- :mod:`~referee.systems.intrigue.procedure`: the evening as a kernel procedure
  (``system: intrigue``).
- :mod:`~referee.systems.intrigue.game`: the game file (characters and envelopes for an evening);
  :mod:`~referee.systems.intrigue.setup` its shape as a model.
- :mod:`~referee.systems.intrigue.actions`: the action catalogue;
  :mod:`~referee.systems.intrigue.events`: the event vocabulary and its narration.
- :mod:`~referee.systems.intrigue.perception`, :mod:`~referee.systems.intrigue.skills`,
  :mod:`~referee.systems.intrigue.mental`, :mod:`~referee.systems.intrigue.rounds`,
  :mod:`~referee.systems.intrigue.combat_actions`, :mod:`~referee.systems.intrigue.escape`,
  :mod:`~referee.systems.intrigue.damage`: each action, along the text's sections.

>>> from referee.core import Table, Action, view
>>> from referee.dice import ScriptedSource
>>> game = {"characters": {
...     "lady_rich": {"number": 21, "perception_envelopes": [
...         {"to": "ALL", "target": 12, "contents": "She keeps a pistol in her muff"}]},
...     "krockin": {"number": 33, "skills": {"Perception": 2}}}}
>>> table = Table.start(PROCEDURE, game).act(
...     Action("krockin", "perceive", {"target": "lady_rich"}), ScriptedSource([4, 4, 4]))
>>> [e.data.get("contents") for e in view(table.log, "krockin") if e.kind == "perception.made"]
[{'lady_rich-p1': {'contents': 'She keeps a pistol in her muff', 'directions': ''}}]
>>> [e.data.get("contents") for e in view(table.log, "lady_rich") if e.kind == "perception.made"]
[None]
"""

from referee.core.registry import System
from referee.systems.intrigue.characters import Ability, Character, Item
from referee.systems.intrigue.envelopes import (
    ALL,
    Condition,
    ConditionKind,
    ContingencyEnvelope,
    PerceptionEnvelope,
    envelopes_handed_over,
)
from referee.systems.intrigue.game import load_game
from referee.systems.intrigue.procedure import PROCEDURE, Intrigue
from referee.systems.intrigue.setup import GameSetup
from referee.systems.intrigue.state import IntrigueState

__all__ = [
    "ALL",
    "PROCEDURE",
    "SYSTEM",
    "Ability",
    "Character",
    "Condition",
    "ConditionKind",
    "ContingencyEnvelope",
    "GameSetup",
    "Intrigue",
    "IntrigueState",
    "Item",
    "PerceptionEnvelope",
    "envelopes_handed_over",
    "load_game",
]

SYSTEM = System(
    "intrigue",
    "Intrigue in the Clouds",
    PROCEDURE,
    rules="intrigue-in-the-clouds.txt",
    setup_model=GameSetup,
    summary=(
        "A live-action evening on an airship, with a referee: badges and Perception Envelopes, "
        "Contingency Envelopes, skill rolls, languages, and combat to the knock-out."
    ),
    handout_data="referee.systems.intrigue.handout:handout_data",
    commands="referee.systems.intrigue.commands:register",
    simulations="referee.systems.intrigue.simulation:SIMULATIONS",
)
"""The game as the registry lists it (entry point ``referee.systems``: intrigue)."""
