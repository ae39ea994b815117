"""The end of a round and Recovery (hursagmu-encounters.txt, "Recovery", "Waiting", "The
Waiting Game", "Pushing Power").

"If a character has taken no actions during the round and is OK on both Health and Sanity, then
the character may recover one hit at the end of the round. If a character is injured during the
round ... the character gets no recovery." A character out of hits collapses from exhaustion;
two characters who both waited for the other play the waiting game next round. The Master says
whether a character is OK on Health and Sanity (``condition``).

>>> from referee.systems.hursagmu.state import Encounter, Fighter, Options
>>> from referee.systems.hursagmu.sheet import Character
>>> state = Encounter(Options(), {"bob": Fighter(Character("bob"), 10)}, phase="action")
>>> fold_round_ended(state, {"round": 1, "waiting_game": []}).round
2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event, RuleError
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.hursagmu.catalogue import CONDITION
from referee.systems.hursagmu.events import (
    CHARACTER_COLLAPSED,
    CONDITION_SET,
    HIT_RECOVERED,
    ROUND_ENDED,
)
from referee.systems.hursagmu.rounds import can_recover
from referee.systems.hursagmu.state import Encounter, Fighter, next_key

__all__ = [
    "FOLDS",
    "decide_condition",
    "decide_end_round",
    "fold_condition_set",
    "fold_hit_recovered",
    "fold_round_ended",
    "round_done",
]


def round_done(state: Encounter) -> bool:
    """True when nobody but the waiting has a step left this round."""
    return not any(
        next_key(state, w) is not None and not f.waiting for w, f in state.fighters.items()
    )


def decide_end_round(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """The Master ends the round: collapse from exhaustion, Recovery, the waiting game."""
    state = b.state
    if state.phase != "action":
        missing = [w for w, f in state.fighters.items() if f.conscious and f.initiative is None]
        raise RuleError(
            "Initiative",
            f"the round has not begun: Initiative still to roll for {', '.join(missing)}",
        )
    left = [
        w for w, f in state.fighters.items() if next_key(state, w) is not None and not f.waiting
    ]
    if left:
        raise RuleError("Action", f"{', '.join(left)} still to act or wait this round")
    waiters = [
        w
        for w, f in state.fighters.items()
        if f.conscious and f.waiting and not f.acted and not f.holding
    ]
    if len(waiters) < 2:
        # "If two characters both decide to wait for the other to act": a lone waiter
        # waits for nobody, and plays no waiting game.
        waiters = []
    events: list[Event] = []
    for w, f in state.fighters.items():
        if f.conscious and f.hits <= 0:
            events.append(Event(CHARACTER_COLLAPSED, {"character": w, "cause": "exhaustion"}))
        elif (
            f.conscious
            and f.hits < f.sheet.stamina
            and can_recover(
                acted=f.acted, injured=f.injured, health_ok=f.health_ok, sanity_ok=f.sanity_ok
            )
        ):
            events.append(Event(HIT_RECOVERED, {"character": w, "hits": f.hits + 1}))
    events.append(Event(ROUND_ENDED, {"round": state.round, "waiting_game": waiters}))
    b.extend(events)


def decide_condition(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """The Master rules a character OK or not on Health and Sanity, or asleep or awake
    ("Perception and Observation"); what he does not say is unchanged."""
    state = b.state
    params = CONDITION.of(action)
    f = state.fighter(params.character)
    health = f.health_ok if params.health_ok is None else params.health_ok
    sanity = f.sanity_ok if params.sanity_ok is None else params.sanity_ok
    payload: dict[str, Any] = {
        "character": params.character,
        "health_ok": health,
        "sanity_ok": sanity,
    }
    if params.asleep is not None:
        payload["asleep"] = params.asleep
    b.add(Event(CONDITION_SET, payload))


def fold_condition_set(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """OK or not on Health and Sanity; asleep or awake where the Master says."""
    changes: dict[str, Any] = {"health_ok": bool(d["health_ok"]), "sanity_ok": bool(d["sanity_ok"])}
    if "asleep" in d:
        changes["asleep"] = bool(d["asleep"])
    return state.with_fighter(str(d["character"]), **changes)


def fold_hit_recovered(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """A hit back."""
    return state.with_fighter(str(d["character"]), hits=int(d["hits"]))


def fold_round_ended(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The next round, in its Initiative phase: the round's record is cleared; hits, the
    Master's conditions, held actions, the waiting game and multi-round actions carry on."""
    waiters = {str(w) for w in d["waiting_game"]}
    fighters = {
        who: Fighter(
            f.sheet,
            f.hits,
            conscious=f.conscious,
            health_ok=f.health_ok,
            sanity_ok=f.sanity_ok,
            held_over=f.holding,
            held_initiative=(f.initiative or 0) if f.holding else 0,
            waited_game=who in waiters,
            task=f.task,
            task_rounds=f.task_rounds,
            task_engrossing=f.task_engrossing,
            asleep=f.asleep,
            prone=f.prone,
            mounted=f.mounted,
        )
        for who, f in state.fighters.items()
    }
    return evolved(
        state,
        fighters=fighters,
        round=state.round + 1,
        phase="initiative",
        pending=None,
        clock=None,
    )


FOLDS = {
    CONDITION_SET: fold_condition_set,
    HIT_RECOVERED: fold_hit_recovered,
    ROUND_ENDED: fold_round_ended,
}
"""This module's event kinds and their folds."""
