"""Secret rolls of the senses (hursagmu-encounters.txt, "Perception and Observation").

- ``perceive``: the Master rolls Perception, Observation or Divination in secret for a
  character; the character learns only whether he noticed; the challenge and the roll card
  are the referee's alone ("the Master should make these rolls in secret").
- ``sneak``: Stealth against the perceiver's Perception, Shadowing against his Observation
  ("Shadowing is to Observation what Stealth is to Perception"); the sneak learns whether he
  was noticed, the roll itself (which tells the perceiver's skill) is the Master's; the
  perceiver hears of it only if he notices. A senseless (unconscious) perceiver notices
  nothing.

>>> from referee.systems.hursagmu.sheet import Character
>>> sneak_check(Character("t", dexterity=3, skills={"stealth": 4}),
...             Character("g", intelligence=1, skills={"perception": 2}), "stealth").odds().success
Fraction(65, 72)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import (
    REFEREE_ONLY,
    Action,
    Builder,
    Event,
    OddsPreview,
    OpposedCheck,
    RollCard,
    RuleError,
    Secret,
    TargetCheck,
    Viewer,
    only,
)
from referee.core.naming import possessive_of as _own
from referee.dice import DiceSource
from referee.systems.hursagmu.catalogue import PERCEIVE, SNEAK
from referee.systems.hursagmu.events import PERCEPTION_ROLLED, SNEAK_NOTICED, STEALTH_ROLLED
from referee.systems.hursagmu.perception import (
    SOFT_NOISE_WHILE_ASLEEP,
    Awareness,
    divination_check,
    observation_check,
    perception_check,
    shadowing_check,
    stealth_check,
)
from referee.systems.hursagmu.sheet import Character
from referee.systems.hursagmu.state import Encounter

__all__ = [
    "AGAINST",
    "FOLDS",
    "decide_perceive",
    "decide_sneak",
    "fold_woken",
    "odds_of",
    "perceive_check",
    "sneak_check",
]

RULE = "Perception and Observation"
"""The section of the text both rolls implement."""

AGAINST = {"stealth": "perception", "shadowing": "observation"}
"""What each sneaking skill is rolled against."""


def perceive_check(state: Encounter, action: Action) -> TargetCheck:
    """The check a ``perceive`` rolls (:class:`RuleError` where the rules refuse it)."""
    params = PERCEIVE.of(action)
    who = params.character
    f = state.fighter(who)
    if not f.conscious:
        raise RuleError("Perception", f"{who} is unconscious: no perception rolls for anything")
    if params.skill == "perception":
        asleep = f.asleep if params.asleep is None else params.asleep
        awareness = Awareness.ASLEEP if asleep else Awareness.AWAKE
        check = perception_check(
            f.sheet,
            params.challenge,
            sense=params.sense,
            yards=params.yards,
            factors=params.factors,
            awareness=awareness,
            soft_noise=params.soft,
        )
    elif params.skill == "observation":
        check = observation_check(f.sheet, params.challenge, factors=params.factors)
    else:
        check = divination_check(f.sheet, params.challenge, yards=params.yards)
    return check


def decide_perceive(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """The Master's secret roll for a character."""
    state = b.state
    params = PERCEIVE.of(action)
    who = params.character
    check = perceive_check(state, action)
    result = check.roll(dice)
    card = RollCard.of(
        check, result, f"{_own(who)} {params.skill} (in secret)", rule="Perception and Observation"
    )
    b.add(
        Event(
            PERCEPTION_ROLLED,
            {"character": who, "skill": params.skill, "noticed": result.is_success},
            audience=only(who),
            secrets=(
                Secret("challenge", check.target, REFEREE_ONLY),
                Secret("roll", card.to_json(), REFEREE_ONLY),
            ),
        )
    )


def sneak_check(
    sneak: Character, perceiver: Character, skill: str, modifier: int = 0, *, asleep: bool = False
) -> OpposedCheck:
    """Stealth (or Shadowing) against Perception (or Observation): the sneak acts, so he
    wins ties. A sleeper hears "someone sneaking toward the sleeper" only with a "far more
    difficult" roll: his Perception at -4 (ruling 16's +4 to the challenge, on his side of an
    opposed roll)."""
    hearing = -SOFT_NOISE_WHILE_ASLEEP if asleep else 0
    if skill == "stealth":
        return stealth_check(sneak, perceiver, sneak_modifier=modifier, perceiver_modifier=hearing)
    return shadowing_check(sneak, perceiver, shadow_modifier=modifier, watcher_modifier=hearing)


def decide_sneak(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """Stealth or Shadowing, rolled in secret."""
    state = b.state
    who = action.actor
    f = state.fighter(who)
    params = SNEAK.of(action)
    perceiver = params.perceiver
    p = state.fighter(perceiver)
    skill = params.skill
    against = AGAINST[skill]
    reason = ""
    if not p.conscious:
        reason = "unconscious: senseless"
    elif p.asleep and skill == "shadowing":
        reason = "asleep: he observes nothing (a sleeper hears, no more)"
    if reason:
        b.add(
            Event(
                STEALTH_ROLLED,
                {
                    "character": who,
                    "perceiver": perceiver,
                    "skill": skill,
                    "noticed": False,
                    "reason": reason,
                },
                audience=only(who),
            )
        )
        return
    check = sneak_check(f.sheet, p.sheet, skill, params.modifier, asleep=p.asleep)
    result = check.roll(dice)
    noticed = not result.is_success
    card = RollCard.of(
        check,
        result,
        f"{_own(who)} {skill} against {_own(perceiver)} {against}",
        rule="Perception and Observation",
    )
    # The roll, its dice and its odds tell the perceiver's Perception (or Observation): the
    # Master's alone. The sneak learns whether he was noticed.
    events = [
        Event(
            STEALTH_ROLLED,
            {
                "character": who,
                "perceiver": perceiver,
                "skill": skill,
                "against": against,
                "noticed": noticed,
            },
            audience=only(who),
            secrets=(Secret("roll", card.to_json(), REFEREE_ONLY),),
        )
    ]
    if noticed:
        events.append(
            Event(
                SNEAK_NOTICED,
                {"character": perceiver, "noticed": who, "skill": against},
                audience=only(perceiver, who),
            )
        )
    b.extend(events)


def odds_of(state: Encounter, action: Action, viewer: Viewer) -> tuple[OddsPreview, ...]:
    """The exact odds of a ``perceive`` or ``sneak`` with its parameters as given — for the
    Master alone: both are his secret rolls, and their odds would tell a player the other
    side's skill. Nothing where the rules would refuse the action or no roll is made (a
    senseless perceiver).
    """
    if not viewer.is_referee:
        return ()
    try:
        if action.kind == PERCEIVE.kind:
            looking = PERCEIVE.of(action)
            label = f"{_own(looking.character)} {looking.skill} (in secret)"
            return (OddsPreview.of(perceive_check(state, action), label, rule=RULE),)
        if action.kind == SNEAK.kind:
            params = SNEAK.of(action)
            f, p = state.fighter(action.actor), state.fighter(params.perceiver)
            if not p.conscious or (p.asleep and params.skill == "shadowing"):
                return ()
            check = sneak_check(f.sheet, p.sheet, params.skill, params.modifier, asleep=p.asleep)
            against = AGAINST[params.skill]
            label = (
                f"{_own(action.actor)} {params.skill} against {_own(params.perceiver)} {against}"
            )
            return (OddsPreview.of(check, label, rule=RULE),)
    except RuleError:
        return ()
    return ()


def fold_woken(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """A sleeper who notices something wakes ("to see if they wake up")."""
    who = str(d["character"])
    if d.get("noticed") is False:  # perception.rolled: nothing heard
        return state
    if who in state.fighters and state.fighters[who].asleep:
        return state.with_fighter(who, asleep=False)
    return state


FOLDS = {PERCEPTION_ROLLED: fold_woken, SNEAK_NOTICED: fold_woken}
"""This module's event kinds that change the state: noticing wakes a sleeper."""
