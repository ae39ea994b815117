"""Waiting out a period in journey time: the days a journey takes are game time too.

The forced march's "unable to recuperate for 24 hours" and the requisitions' "once a day / week /
month" are kernel timers of the table's clock; but a journey's Stretches (their days) and camps
(24 hours) pass in the fiction without anyone moving that clock. So the state also counts the
``travel_hours`` that journeys have taken, and each such period is a *wait*: the timer's name and
the travel hour it is over. When travel passes it, the step that passed it releases the wait
itself: it cancels the kernel timer and emits the event the timer would have fired. Whichever
comes first (the table's clock or the journey's days) ends the wait; the other finds nothing.

>>> from referee.systems.zweihander.state import ZweihanderState
>>> s = ZweihanderState(travel_hours=30, waits=(("forced-march:s", 24), ("requisition:g:x", 48)))
>>> [e.kind for e in due(s)]
['timer.cancelled', 'travel.recovery_allowed']

A character's id may hold a colon; a requisition's weight (minor, middling, major) never does:

>>> _fired("requisition:Sir:Hugo:minor").payload
{'character': 'Sir:Hugo', 'weight': 'minor'}
"""

from __future__ import annotations

from referee.core import Event, cancel_timer
from referee.core.values import evolved
from referee.systems.zweihander.events import RECOVERY_ALLOWED, REQUISITION_AVAILABLE
from referee.systems.zweihander.state import ZweihanderState

__all__ = ["due", "release", "wait"]


def wait(state: ZweihanderState, name: str, hours: int) -> ZweihanderState:
    """The state with a wait ``name`` over ``hours`` of travel from now."""
    return evolved(state, waits=(*state.waits, (name, state.travel_hours + hours)))


def release(state: ZweihanderState, name: str) -> ZweihanderState:
    """The state without the wait ``name`` (it is over, by either clock)."""
    return evolved(state, waits=tuple(w for w in state.waits if w[0] != name))


def _fired(name: str) -> Event:
    what, _, rest = name.partition(":")
    if what == "forced-march":
        return Event(RECOVERY_ALLOWED, {"character": rest})
    character, _, weight = rest.rpartition(":")
    return Event(REQUISITION_AVAILABLE, {"character": character, "weight": weight})


def due(state: ZweihanderState) -> list[Event]:
    """For each wait that travel has passed: its timer cancelled, and the event it would fire."""
    out: list[Event] = []
    for name, until in state.waits:
        if until <= state.travel_hours:
            out += [cancel_timer(name), _fired(name)]
    return out
