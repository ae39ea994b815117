"""Procedures: multi-step rules as state machines over immutable state (DESIGN.md, "Procedures").

A game writes a :class:`Procedure`: how a table starts from a setup (``initial_state``), which
actions an actor may take (``legal_actions``), what an action does (``decide``: state, action,
dice in → events out, or :class:`~referee.core.errors.RuleError`), and how each event changes
the state (``evolve``). Dice are only rolled in ``decide``, from the source it is given, and the
faces go into the events, so ``evolve`` never rolls: **the state is a fold of ``evolve`` over the
log**, and replaying a log gives the same state without any dice source.

A :class:`~referee.core.table.Table` is a procedure in play: its state, its log, its clock, its
seats and the actions recorded. It is immutable; each step returns a new table.

The table contract (DESIGN.md) adds what every interface stands on: a ``catalogue`` of action
kinds (:mod:`referee.core.actions`), ``legal_actions`` as :class:`~referee.core.actions.Choice`
s with real domains, ``describe(event, viewer)`` to narrate the log, and the seats a table has.

>>> from referee.core.events import Event
>>> from referee.core.errors import RuleError
>>> from referee.core.table import Table
>>> class Counter(Procedure[int]):
...     def initial_state(self, setup): return int(setup.get("start", 0))
...     def legal_actions(self, state, actor): return (Choice(actor, "add"),)
...     def decide(self, state, action, dice):
...         if action.kind != "add":
...             raise RuleError("Counting", f"no such action {action.kind!r}")
...         return (Event("added", {"by": action.actor}),)
...     def evolve(self, state, event): return state + 1 if event.kind == "added" else state
>>> table = Table.start(Counter(), {"start": 1}).act(Action("ann", "add"), dice=None)
>>> table.state, [e.kind for e in table.log]
(2, ['added'])
>>> Table.replay(Counter(), {"start": 1}, table.log).state
2
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from referee.core.actions import Catalogue, Choice
from referee.core.clock import GameTime
from referee.core.decide import KERNEL_KINDS, Builder, Handlers
from referee.core.events import Event, Viewer
from referee.core.values import JsonObject, to_json
from referee.dice import DiceSource

if TYPE_CHECKING:
    from referee.core.prompts import Prompt, Result, Waiting

__all__ = ["KERNEL_KINDS", "Action", "ActorId", "Procedure"]

S = TypeVar("S")

ActorId: TypeAlias = str
"""Who acts: a character's, a faction's or a player's id, or ``"referee"``."""


@dataclass(frozen=True)
class Action:
    """What an actor does: ``kind`` names it, ``params`` are its JSON parameters.

    ``at`` is the game time the action is taken: :meth:`Table.act` sets it, so ``decide`` can
    read the clock (``action.at``); it takes no part in comparisons, so
    ``action in legal_actions(...)`` works.

    >>> Action("scarface", "perceive", {"target": "krockin"}).to_json()
    {'actor': 'scarface', 'kind': 'perceive', 'params': {'target': 'krockin'}}
    """

    actor: ActorId
    kind: str
    params: JsonObject = field(default_factory=dict)
    at: GameTime | None = field(default=None, compare=False)
    args: Any = field(default=None, compare=False, repr=False)
    """The parameters parsed by the action's spec (set by the table; ``spec.of(action)``)."""

    def to_json(self) -> dict[str, Any]:
        """``{"actor", "kind", "params"}``, and ``"at"`` when set."""
        data = {"actor": self.actor, "kind": self.kind, "params": to_json(self.params)}
        if self.at is not None:
            data["at"] = self.at
        return data


class Procedure(ABC, Generic[S]):
    """A multi-step rule: the four methods a game writes, and what the kernel builds on them.

    ``S`` is the procedure's state: immutable values (frozen dataclasses, tuples, frozensets).

    Class attributes a game sets: ``catalogue`` (its action kinds; the table refuses a kind not
    in it, and parses parameters with its spec, unless the catalogue is empty) and
    ``has_referee`` (whether a table of this game has a referee seat).
    """

    catalogue: Catalogue = Catalogue()
    has_referee: bool = True
    handlers: Handlers | None = None
    """The handler of each action kind (:mod:`referee.core.decide`): set it, and ``decide`` and
    ``apply`` need not be written; the table then keeps the state the handler's builder folded
    (each event folded once)."""
    players_see_alike: bool = False
    """Set it where :meth:`visible_state` shows every viewer but the referee the same state (the
    game hides nothing from one player that it shows another): every seat's observation then
    shares one copy, built once per state (:class:`~referee.core.remembered.Remembered`)."""

    @abstractmethod
    def initial_state(self, setup: Mapping[str, Any]) -> S:
        """The state before any action, from a scenario's ``setup`` mapping.

        Raise :class:`~referee.core.errors.ScenarioError` with the path inside ``setup`` (e.g.
        ``("characters", "scarface", "stamina")``) for a bad setup; the runner prefixes ``setup``.
        """

    def start_time(self, state: S) -> str | None:
        """The wall clock at which play starts, where the game's own setup sets it (an Intrigue
        game file's ``start``): the table's clock is then the game's, whatever start the
        caller gave, so the kernel's clock and timers and the game's own words tell the same
        time. Default: ``None``, the start the table is given."""
        return None

    def initial_events(self, state: S) -> Sequence[Event]:
        """Events the table logs when play starts (e.g. timers for "open at nine o'clock").

        They are folded like any other event. Default: none.
        """
        return ()

    @abstractmethod
    def legal_actions(self, state: S, actor: ActorId) -> Sequence[Choice]:
        """The action kinds ``actor`` may take now, each with the domain of its parameters.

        For menus, forms and random play: every value a domain offers should be one the rules
        allow, as far as the state tells (which targets, which maneuvers, which zones).
        :meth:`decide` is still the authority on any action.
        """

    def decide(self, state: S, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events ``action`` causes; raise ``RuleError(rule, reason)`` if it is illegal.

        Take every die from ``dice`` and put the faces (e.g. ``CheckResult.to_json()``) into
        the events. Return events with ``number`` and ``at`` left at 0: the table stamps them.
        Timer events (:func:`~referee.core.clock.set_timer`) may be among them.

        Default: the events of :attr:`handlers`' handler for ``action.kind``.
        """
        return tuple(self.build(state, action, dice).events)

    def build(self, state: S, action: Action, dice: DiceSource) -> Builder[S]:
        """The builder of ``action``'s events from :attr:`handlers` (state folded as they were
        made). A procedure without handlers builds from its own ``decide`` and ``evolve``."""
        if self.handlers is not None:
            return self.handlers.build(state, action, dice, self.evolve)
        if type(self).decide is Procedure.decide:  # a game must give one or the other
            raise NotImplementedError(f"{type(self).__name__} has neither handlers nor decide")
        builder = Builder(state, self.evolve, action.at)
        builder.extend(self.decide(state, action, dice))
        return builder

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """The state after ``event``. Never rolls, never refuses: the event has happened.

        Read the event's :attr:`~referee.core.events.Event.data`; ignore kinds you don't know.
        """

    def apply(self, state: S, action: Action, dice: DiceSource) -> tuple[S, tuple[Event, ...]]:
        """Decide ``action`` and fold its events once: the new state and the events (unstamped
        but for their time).

        Kernel (timer) events are returned but do not reach ``evolve``. Use a :class:`Table` to
        keep the clock and the log.
        """
        builder = self.build(state, action, dice)
        return builder.state, tuple(builder.events)

    def actors(self, state: S) -> Sequence[ActorId]:
        """Whose move it is in ``state``: who may act now. Default: nobody listed."""
        return ()

    def characters(self, state: S) -> Sequence[ActorId]:
        """Every character or faction a player may play (a seat each, by default).

        Default: :meth:`actors` of the state.
        """
        return tuple(a for a in self.actors(state) if a != "referee")

    def prompts(self, state: S) -> Sequence[Prompt]:
        """The decisions the rules give someone now, the table waiting for them
        (:class:`~referee.core.prompts.Prompt`): a defence to choose, a Consequence to take, an
        envelope to open. The kernel makes whose move it is, the choices offered and the actions
        accepted follow from them. Default: none.
        """
        return ()

    def waiting(self, state: S, actor: ActorId) -> Waiting | None:
        """Why ``actor`` cannot act now and until when (:class:`~referee.core.prompts.Waiting`),
        where the game knows better than whose move it is: knocked out until 19:40, the round
        past their Initiative, their faction's scene still to come. Asked only of an actor with
        no choice open now; the answer must say only what that actor's seat may know.
        Default: ``None`` (the kernel says whose move it is, or which prompt the table waits for).
        """
        return None

    def result(self, state: S) -> Result:
        """Whether the whole game is over and who won (:class:`~referee.core.prompts.Result`).

        Default: "the game", never over (a game with no end of its own, such as an evening of
        live action, ends when its players stop).
        """
        from referee.core.prompts import Result

        return Result("the game")

    def conflict(self, state: S) -> Result | None:
        """The current conflict (or the last one, over), whether it is over and who won; ``None``
        if none has begun. Default: none.
        """
        return None

    def describe(self, event: Event, viewer: Viewer) -> str:
        """The event in words, as ``viewer`` sees it (``event`` is already redacted for them).

        Default: the kind and the data. Games narrate each kind of their vocabulary.
        """
        data = ", ".join(f"{k}={v!r}" for k, v in event.data.items())
        return f"{event.kind}: {data}" if data else event.kind

    def previews(self, state: S, viewer: Viewer) -> Sequence[Any]:
        """Odds previews (:class:`~referee.core.cards.OddsPreview`) of the checks about to be
        rolled that ``viewer`` may see (a pending defence, a revealed engagement). Default: none.
        """
        return ()

    def odds_of(self, state: S, action: Action, viewer: Viewer) -> Sequence[Any]:
        """Odds previews of the checks ``action`` would roll, with its parameters as given,
        that ``viewer`` may see: what a form shows as its fields change (a perception check on
        this target, an attack with these Aspects tagged). ``action.args`` holds the parsed
        parameters. Never rolls and never refuses: an action the rules would refuse has no odds.

        Default: the odds of the choice of that kind open to the actor whose domains allow the
        parameters (:meth:`legal_actions`), or none. Games override it where the parameters
        change the check.
        """
        for choice in self.legal_actions(state, action.actor):
            if choice.kind == action.kind and choice.odds and choice.allows(dict(action.params)):
                return choice.odds
        return ()

    def state_json(self, state: S) -> JsonObject:
        """The whole state as a JSON object: what scenario ``expect: path`` reads.

        Default: :func:`~referee.core.values.to_json` of the state.
        """
        data = to_json(state)
        return data if isinstance(data, dict) else {"state": data}

    def visible_state(self, state: S, viewer: Viewer) -> JsonObject | None:
        """The state as ``viewer`` may see it, or ``None`` for nothing.

        Default: the whole state for the referee, nothing for anyone else. Override it to show
        players their part; never include what ``view`` would hide from them.
        """
        return self.state_json(state) if viewer.is_referee else None
