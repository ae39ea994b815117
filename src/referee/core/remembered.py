"""A procedure's answers about one state, each asked once: what every seat's observation of a
table shares (DESIGN.md, "The table contract"; issue 29, "cost per action").

A rule is a function of values, so whose move it is, the prompts, each actor's legal actions,
the result and the conflict depend on the state alone, not on who asks; so does the visible
state of a game whose players all see alike (:attr:`Procedure.players_see_alike`), one for the
players and one for the referee. :func:`observe
<referee.core.observe.observe>` asks them once per seat, and each kernel helper
(:func:`~referee.core.prompts.whose_move`, :func:`~referee.core.prompts.open_choices`, the
waits) asks them again: six seats of one table asked a game like Burning Kingdoms for its
actors' choices a dozen times for one state. :class:`Remembered` stands in for the procedure
for one state, asks it each question once and gives every later asker the same answer; a
:class:`~referee.core.table.Table` keeps one per state (:attr:`Table.remembered
<referee.core.table.Table.remembered>`). What depends on the viewer (the visible state, the
previews, the narration) is passed through, asked each time.

A game's own view of a state may share its public parts the same way: :func:`by_identity`
remembers a function of an immutable value (a state, a combat) by the value's identity, and
:class:`~referee.core.values.SharedJson` marks JSON built once and handed to every seat as it is.

>>> from referee.core.actions import Choice
>>> class Counting(Procedure[int]):
...     asked = 0
...     def initial_state(self, setup): return 0
...     def legal_actions(self, state, actor): return (Choice(actor, "add"),)
...     def evolve(self, state, event): return state + 1
...     def actors(self, state):
...         Counting.asked += 1
...         return ("ann", "bob")
>>> remembered = Remembered(Counting(), 3)
>>> remembered.actors(3), remembered.actors(3), Counting.asked
(('ann', 'bob'), ('ann', 'bob'), 1)
>>> remembered.actors(4), Counting.asked  # another state: asked afresh, not remembered
(('ann', 'bob'), 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from referee.core.actions import Choice
from referee.core.decide import Builder
from referee.core.events import Event, Viewer
from referee.core.procedures import Action, ActorId, Procedure
from referee.core.prompts import Prompt, Result, Waiting
from referee.core.values import JsonObject, SharedJson, to_json
from referee.dice import DiceSource

__all__ = ["Remembered", "by_identity"]

S = TypeVar("S")
V = TypeVar("V")
R = TypeVar("R")

_UNASKED: Any = object()


class Remembered(Procedure[S], Generic[S]):
    """``procedure`` answering about ``state`` once per question (see the module's doc).

    It is a :class:`Procedure` itself, so every kernel helper that takes one takes it. Asked
    about ``state`` (the same object), it answers from what it remembers; asked about any other
    state, or anything that depends on the viewer, it passes the question to ``procedure``.
    The answers are kept as tuples and shared: do not change them.
    """

    def __init__(self, procedure: Procedure[S], state: S) -> None:
        self.procedure = procedure
        self.state = state
        self.catalogue = procedure.catalogue
        self.has_referee = procedure.has_referee
        self.handlers = procedure.handlers
        self.players_see_alike = procedure.players_see_alike
        self._actors: tuple[ActorId, ...] = _UNASKED
        self._characters: tuple[ActorId, ...] = _UNASKED
        self._prompts: tuple[Prompt, ...] = _UNASKED
        self._result: Result = _UNASKED
        self._conflict: Result | None = _UNASKED
        self._choices: dict[ActorId, tuple[Choice, ...]] = {}
        self._waiting: dict[ActorId, Waiting | None] = {}
        self._shown: dict[bool, SharedJson | None] = {}

    # -- remembered: functions of the state alone ----------------------------------------------

    def actors(self, state: S) -> Sequence[ActorId]:
        """:meth:`Procedure.actors`, asked once for :attr:`state`."""
        if state is not self.state:
            return self.procedure.actors(state)
        if self._actors is _UNASKED:
            self._actors = tuple(self.procedure.actors(state))
        return self._actors

    def characters(self, state: S) -> Sequence[ActorId]:
        """:meth:`Procedure.characters`, asked once for :attr:`state`."""
        if state is not self.state:
            return self.procedure.characters(state)
        if self._characters is _UNASKED:
            self._characters = tuple(self.procedure.characters(state))
        return self._characters

    def prompts(self, state: S) -> Sequence[Prompt]:
        """:meth:`Procedure.prompts`, asked once for :attr:`state`."""
        if state is not self.state:
            return self.procedure.prompts(state)
        if self._prompts is _UNASKED:
            self._prompts = tuple(self.procedure.prompts(state))
        return self._prompts

    def legal_actions(self, state: S, actor: ActorId) -> Sequence[Choice]:
        """:meth:`Procedure.legal_actions`, asked once per actor for :attr:`state`."""
        if state is not self.state:
            return self.procedure.legal_actions(state, actor)
        found = self._choices.get(actor)
        if found is None:
            found = self._choices[actor] = tuple(self.procedure.legal_actions(state, actor))
        return found

    def waiting(self, state: S, actor: ActorId) -> Waiting | None:
        """:meth:`Procedure.waiting`, asked once per actor for :attr:`state` (its answer says
        only what the actor's seat may know, so any seat that asks may have it)."""
        if state is not self.state:
            return self.procedure.waiting(state, actor)
        if actor not in self._waiting:
            self._waiting[actor] = self.procedure.waiting(state, actor)
        return self._waiting[actor]

    def result(self, state: S) -> Result:
        """:meth:`Procedure.result`, asked once for :attr:`state`."""
        if state is not self.state:
            return self.procedure.result(state)
        if self._result is _UNASKED:
            self._result = self.procedure.result(state)
        return self._result

    def conflict(self, state: S) -> Result | None:
        """:meth:`Procedure.conflict`, asked once for :attr:`state`."""
        if state is not self.state:
            return self.procedure.conflict(state)
        if self._conflict is _UNASKED:
            self._conflict = self.procedure.conflict(state)
        return self._conflict

    # -- passed through ---------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Any]) -> S:
        """:meth:`Procedure.initial_state` of the procedure."""
        return self.procedure.initial_state(setup)

    def initial_events(self, state: S) -> Sequence[Event]:
        """:meth:`Procedure.initial_events` of the procedure."""
        return self.procedure.initial_events(state)

    def decide(self, state: S, action: Action, dice: DiceSource) -> Sequence[Event]:
        """:meth:`Procedure.decide` of the procedure."""
        return self.procedure.decide(state, action, dice)

    def build(self, state: S, action: Action, dice: DiceSource) -> Builder[S]:
        """:meth:`Procedure.build` of the procedure."""
        return self.procedure.build(state, action, dice)

    def evolve(self, state: S, event: Event) -> S:
        """:meth:`Procedure.evolve` of the procedure."""
        return self.procedure.evolve(state, event)

    def apply(self, state: S, action: Action, dice: DiceSource) -> tuple[S, tuple[Event, ...]]:
        """:meth:`Procedure.apply` of the procedure."""
        return self.procedure.apply(state, action, dice)

    def describe(self, event: Event, viewer: Viewer) -> str:
        """:meth:`Procedure.describe` of the procedure."""
        return self.procedure.describe(event, viewer)

    def previews(self, state: S, viewer: Viewer) -> Sequence[Any]:
        """:meth:`Procedure.previews` of the procedure (it depends on the viewer)."""
        return self.procedure.previews(state, viewer)

    def odds_of(self, state: S, action: Action, viewer: Viewer) -> Sequence[Any]:
        """:meth:`Procedure.odds_of` of the procedure."""
        return self.procedure.odds_of(state, action, viewer)

    def state_json(self, state: S) -> JsonObject:
        """:meth:`Procedure.state_json` of the procedure."""
        return self.procedure.state_json(state)

    def visible_state(self, state: S, viewer: Viewer) -> JsonObject | None:
        """:meth:`Procedure.visible_state` of the procedure: asked for each viewer, or, in a
        game whose players see alike, once for the players and once for the referee, written
        as JSON once and shared (:class:`~referee.core.values.SharedJson`)."""
        if not self.players_see_alike or state is not self.state:
            return self.procedure.visible_state(state, viewer)
        key = viewer.is_referee
        if key not in self._shown:
            shown = self.procedure.visible_state(state, viewer)
            self._shown[key] = None if shown is None else SharedJson(to_json(shown))
        return self._shown[key]


def by_identity(size: int) -> Callable[[Callable[[V], R]], Callable[[V], R]]:
    """Remember ``function(value)`` for the last ``size`` values it was asked about, by the
    value's identity (not its equality, which for a deep frozen value costs as much as the
    answer). For functions of immutable values only: the same object, the same answer. The
    values asked about are held while remembered, so an identity is never reused meanwhile.

    >>> calls = []
    >>> @by_identity(2)
    ... def total(values):
    ...     calls.append(values)
    ...     return sum(values)
    >>> state = (1, 2, 3)
    >>> total(state), total(state), len(calls)
    (6, 6, 1)
    """
    if size < 1:
        raise ValueError("by_identity needs room for at least one value")

    def remembering(function: Callable[[V], R]) -> Callable[[V], R]:
        lock = threading.Lock()
        kept: OrderedDict[int, tuple[V, R]] = OrderedDict()

        def remembered(value: V) -> R:
            key = id(value)
            with lock:
                found = kept.get(key)
                if found is not None and found[0] is value:
                    kept.move_to_end(key)
                    return found[1]
            answer = function(value)
            with lock:
                kept[key] = (value, answer)
                kept.move_to_end(key)
                while len(kept) > size:
                    kept.popitem(last=False)
            return answer

        remembered.__doc__ = function.__doc__
        remembered.__name__ = function.__name__
        remembered.__wrapped__ = function  # type: ignore[attr-defined]
        remembered.cache_clear = kept.clear  # type: ignore[attr-defined]
        return remembered

    return remembering
