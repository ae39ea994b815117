"""Who may act, and how an action's events are told: the first lines of every handler.

Rules text (Intrigue in the Clouds), "Taking Damage": the dead do nothing, the Knocked Out
nothing until they come round (but for a round's resolution, which goes on around them). The
referee has four actions of their own (:data:`REFEREE_ACTIONS`); every other action is a
character's.

Each event an action causes carries the badge names of the characters it mentions, for its
narration (:func:`referee.core.naming.with_names`): :func:`tell` names and emits it.
"""

from __future__ import annotations

from referee.core import REFEREE, Action, Builder, Event, RuleError
from referee.core.naming import with_names
from referee.systems.intrigue.characters import Character
from referee.systems.intrigue.state import IntrigueState

__all__ = ["REFEREE_ACTIONS", "acting_character", "by_the_referee", "no_such_action", "tell"]

REFEREE_ACTIONS = ("admit", "resolve", "next_round", "end_combat")
"""The referee's own actions (a character may ``resolve`` and ``next_round`` their own combat)."""


def tell(b: Builder[IntrigueState], *events: Event) -> None:
    """Emit ``events`` in order, each with the names of the characters it mentions."""
    roster = b.state.names()
    for event in events:
        b.add(with_names(event, roster))


def by_the_referee(action: Action) -> bool:
    """True if the referee takes ``action``."""
    return action.actor == REFEREE


def acting_character(
    state: IntrigueState, action: Action, *, knocked_out_may: bool = False
) -> Character:
    """The character taking ``action``: :class:`RuleError` for the referee (not one of their
    actions), the dead, and the Knocked Out (unless ``knocked_out_may``: a round's resolution
    goes on around them)."""
    if by_the_referee(action):
        raise RuleError("Referee", f"the referee's actions are {', '.join(REFEREE_ACTIONS)}")
    me = state.character(action.actor)
    if state.status(me.id).dead:
        raise RuleError("Taking Damage", f"{me.id} is dead")
    if not knocked_out_may and not state.status(me.id).can_act:
        raise RuleError("Taking Damage", f"{me.id} is Knocked Out")
    return me


def no_such_action(state: IntrigueState, action: Action) -> RuleError:
    """The refusal of one of the referee's own actions taken by a character (after the checks
    of :func:`acting_character`, which come first)."""
    acting_character(state, action)
    return RuleError("Intrigue actions", f"no action {action.kind!r} for a character")
