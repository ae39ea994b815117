"""Hursagmu's encounter rules as values and procedures on referee.core (docs/systems/hursagmu.md).

The rules text is ``hursagmu-encounters.txt``; RULINGS.md settles the parent game's core roll
(2d6 + attribute + skill, the acting side wins ties), range challenges, the damage roll and
encumbrance.

- :mod:`~referee.systems.hursagmu.sheet`: characters, stances and the skill roll.
- :mod:`~referee.systems.hursagmu.perception`: Perception, Observation, Stealth, Shadowing,
  Divination.
- :mod:`~referee.systems.hursagmu.rounds`: declared actions, Initiatives, penalties, defences,
  Haste, Recovery, pushing power.
- :mod:`~referee.systems.hursagmu.movement`: range, movement, encumbrance, jumps, charges,
  races, damage.
- :mod:`~referee.systems.hursagmu.state`: the encounter's state and turn order.
- :mod:`~referee.systems.hursagmu.setup`: the setup's model and the encounter it starts.
- :mod:`~referee.systems.hursagmu.initiative`, :mod:`~referee.systems.hursagmu.action_phase`,
  :mod:`~referee.systems.hursagmu.combat`, :mod:`~referee.systems.hursagmu.recovery`,
  :mod:`~referee.systems.hursagmu.senses`, :mod:`~referee.systems.hursagmu.races`: each
  section's steps and folds.
- :mod:`~referee.systems.hursagmu.catalogue`, :mod:`~referee.systems.hursagmu.events`,
  :mod:`~referee.systems.hursagmu.choices`: the table contract — action kinds, the event
  vocabulary, and what each seat may do now.
- :mod:`~referee.systems.hursagmu.encounter`: the ``hursagmu`` procedure, a thin dispatcher.

>>> PROCEDURE.initial_state({"characters": {"bob": {"dexterity": 2}}}).round
1
"""

from referee.systems.hursagmu.encounter import EncounterProcedure
from referee.systems.hursagmu.movement import (
    DamageRoll,
    Movement,
    charge_momentum,
    jump_distance,
    movement_actions,
    movement_rate,
    race_check,
    race_gain,
    range_challenge,
    range_increment,
)
from referee.systems.hursagmu.perception import (
    Awareness,
    divination_check,
    observation_check,
    perception_check,
    shadowing_check,
    stealth_check,
)
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    DefenceResponse,
    RoundPlan,
    Step,
    StepKind,
    can_recover,
    defence_response,
    push_power,
    schedule,
    skill_penalty,
    validate_plan,
)
from referee.systems.hursagmu.sheet import Character, SkillRoll, Stance
from referee.systems.hursagmu.state import Encounter, Fighter, Options, on_turn

PROCEDURE = EncounterProcedure()
"""The procedure scenario files with ``system: hursagmu`` play."""

__all__ = [
    "PROCEDURE",
    "Awareness",
    "Character",
    "DamageRoll",
    "DefenceMode",
    "DefenceResponse",
    "Encounter",
    "EncounterProcedure",
    "Fighter",
    "Movement",
    "Options",
    "RoundPlan",
    "SkillRoll",
    "Stance",
    "Step",
    "StepKind",
    "can_recover",
    "charge_momentum",
    "defence_response",
    "divination_check",
    "jump_distance",
    "movement_actions",
    "movement_rate",
    "observation_check",
    "on_turn",
    "perception_check",
    "push_power",
    "race_check",
    "race_gain",
    "range_challenge",
    "range_increment",
    "schedule",
    "shadowing_check",
    "skill_penalty",
    "stealth_check",
    "validate_plan",
]

from referee.core.registry import System  # noqa: E402
from referee.systems.hursagmu.setup import Setup  # noqa: E402

SYSTEM = System(
    "hursagmu",
    "Hursagmu's encounters",
    PROCEDURE,
    rules="hursagmu-encounters.txt",
    setup_model=Setup,
    summary="A Master's encounter rules on 2d6 + attribute + skill: Initiative (maneuver or "
    "concentrate), declared actions in Initiative order, attack and defence, Recovery, "
    "movement and races, secret Perception, Stealth and Shadowing.",
    handout_data="referee.systems.hursagmu.handout:handout_data",
    commands="referee.systems.hursagmu.commands:register",
    simulations="referee.systems.hursagmu.simulation:SIMULATIONS",
)
"""The game as the registry lists it (entry point ``referee.systems``: hursagmu)."""
