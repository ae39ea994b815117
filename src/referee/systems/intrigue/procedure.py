"""The evening as a kernel :class:`~referee.core.Procedure`: ``system: intrigue``.

The action kinds are the catalogue of :mod:`~referee.systems.intrigue.actions` (``actor`` is a
character's id or number; the referee for the referee's own); the events are the vocabulary of
:mod:`~referee.systems.intrigue.events`. Each kind is decided by a handler in the module of its
section (:attr:`Intrigue.handlers`), each event folded once as it is emitted:

=====================  ======================================  ==============================
kind                   section                                 module
=====================  ======================================  ==============================
``perceive``           Perception Envelopes                    ``perception``
``report``             Contingency Envelopes                   ``perception``
``encounter``          Contingency Envelopes                   ``perception``
``open``               Contingency Envelopes                   ``perception``
``roll``               Skill Rolls                             ``skills``
``speak``              Languages                               ``skills``
``draw``               Combat Actions (outside a combat)       ``combat``
``start_combat``       Starting Combat                         ``combat``
``join``, ``admit``    Starting Combat                         ``combat``
``use_mind``           Mixing Mental and Normal Combat         ``rounds``
``next_round``         Initiative                              ``rounds``
``declare``            Combat Actions, Multiple Attackers      ``combat_actions``
``resolve``            Initiative, Combat Actions              ``resolution``
``escape``             Escaping Combat                         ``escape``
``end_combat``         Combat rules                            ``combat``
``mental_attack``      Mental Combat                           ``mental``
``revive``, ``slay``   Taking Damage                           ``damage``
``search``, ``rob``    Taking Damage                           ``damage``
=====================  ======================================  ==============================

What each seat may do is :mod:`~referee.systems.intrigue.choices`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    ActorId,
    Choice,
    Event,
    Handlers,
    JsonObject,
    OddsPreview,
    Procedure,
    Prompt,
    Result,
    Viewer,
    Waiting,
    only,
    set_timer,
)
from referee.core.naming import possessive, with_names
from referee.systems.intrigue import actions as spec
from referee.systems.intrigue import combat as fight
from referee.systems.intrigue import damage, mental, perception, resolution, rounds, skills
from referee.systems.intrigue.choices import (
    combat_choices,
    evening_choices,
    opening_choices,
    referee_choices,
    who_does_what,
)
from referee.systems.intrigue.combat_actions import declare
from referee.systems.intrigue.envelopes import ConditionKind
from referee.systems.intrigue.escape import escape
from referee.systems.intrigue.events import CONTINGENCY_OPENABLE, describe
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.game import load_game
from referee.systems.intrigue.odds import own_roll, upcoming
from referee.systems.intrigue.perception import format_duration
from referee.systems.intrigue.state import IntrigueState
from referee.systems.intrigue.views import game_json
from referee.systems.intrigue.waiting import envelope_prompts, why_waiting

__all__ = ["HANDLERS", "PROCEDURE", "Intrigue", "format_duration", "game_json"]

REFEREES_ODDS = {"perceive": "Perception Envelopes", "roll": "Skill Rolls"}
"""Kinds whose odds only the referee sees (ruling), with the section that rolls them."""

OTHER_ODDS = {
    "mental_attack": "Mental Combat",
    "revive": "Taking Damage",
    "escape": "Escaping Combat",
}
"""The section that rolls each other kind's checks (the rest: "Combat Actions")."""

HANDLERS = Handlers(
    {
        "perceive": perception.perception_check,
        "roll": skills.roll,
        "report": perception.report,
        "encounter": perception.encounter,
        "open": perception.open_envelope,
        "speak": skills.speak,
        "draw": fight.draw,
        "start_combat": fight.start_combat,
        "join": fight.join,
        "admit": fight.admit,
        "use_mind": rounds.use_mind,
        "next_round": rounds.next_round,
        "declare": declare,
        "resolve": resolution.resolve,
        "escape": escape,
        "end_combat": fight.end_combat,
        "mental_attack": mental.mental_attack,
        "revive": damage.revive,
        "slay": damage.slay,
        "search": damage.search,
        "rob": damage.rob,
    },
    rule="Intrigue actions",
)
"""The handler of each action kind, in the module of its section (the table above)."""


class Intrigue(Procedure[IntrigueState]):
    """Intrigue in the Clouds: one table for the whole evening, with a referee."""

    catalogue = spec.CATALOGUE
    has_referee = True
    handlers = HANDLERS

    def initial_state(self, setup: Mapping[str, Any]) -> IntrigueState:
        """The evening from the game file (see :func:`~referee.systems.intrigue.game.load_game`)."""
        return load_game(setup)

    def start_time(self, state: IntrigueState) -> str:
        """The evening starts when the game file says (its ``start``, 00:00 if it says none)."""
        return state.start

    def initial_events(self, state: IntrigueState) -> Sequence[Event]:
        """Timers for "Open at nine o'clock": each tells its holder alone, at that time. An
        envelope due at the start itself is told at once: a timer fires only as the clock moves
        past it, and nothing need move the clock (audit round 3, I-N2)."""
        events = []
        for envelope in state.contingency_envelopes:
            if envelope.condition.kind is ConditionKind.AT and envelope.condition.at is not None:
                told = Event(
                    CONTINGENCY_OPENABLE,
                    {"holder": envelope.holder, "envelopes": [envelope.id], "why": "time"},
                    audience=only(envelope.holder),
                )
                if envelope.condition.at == 0:
                    events.append(told)
                    continue
                events.append(
                    set_timer(
                        f"contingency:{envelope.id}",
                        told,
                        at=envelope.condition.at,
                        audience=only(envelope.holder),
                        label=f"{possessive(state.name(envelope.holder))} envelope "
                        f"{envelope.id} may be opened",
                    )
                )
        roster = state.names()
        return [with_names(e, roster) for e in events]

    def actors(self, state: IntrigueState) -> Sequence[ActorId]:
        """Who may act now: in a live-action game, every character still on their feet, and
        the referee."""
        return (*(c.id for c in state.characters if state.status(c.id).can_act), REFEREE)

    def characters(self, state: IntrigueState) -> Sequence[ActorId]:
        """Every character: a seat each by default."""
        return tuple(c.id for c in state.characters)

    # -- choices -------------------------------------------------------------------------

    def legal_actions(self, state: IntrigueState, actor: ActorId) -> Sequence[Choice]:
        """The actions ``actor`` may take now, with the values the rules allow as far as the
        state tells (targets, combat actions, envelopes, languages, items).

        The odds of a Perception Check or a skill roll are the referee's (ruling), so their
        choices carry none; a combat roll's and an unnoticed mental attack's are the actor's.
        """
        if actor == REFEREE:
            return referee_choices(state)
        if not state.has_character(actor):
            return ()
        me = state.character(actor)
        status = state.status(me.id)
        if status.dead:
            return ()
        if not status.can_act:  # Knocked Out: an envelope whose condition is met (ruling 29)
            return opening_choices(state, me)
        combat = state.combat_of(me.id)
        if combat is not None:
            return (*combat_choices(state, me, combat), *opening_choices(state, me))
        return evening_choices(state, me)

    def prompts(self, state: IntrigueState) -> Sequence[Prompt]:
        """Each sealed Contingency Envelope whose condition is met, to its holder: open it
        (:func:`~referee.systems.intrigue.waiting.envelope_prompts`; rulings 28, 29)."""
        return envelope_prompts(state)

    def waiting(self, state: IntrigueState, actor: ActorId) -> Waiting | None:
        """Why a character with nothing open waits, and until when: dead, Knocked Out until
        19:40, surprised, or others declaring first
        (:func:`~referee.systems.intrigue.waiting.why_waiting`)."""
        return why_waiting(state, actor)

    def previews(self, state: IntrigueState, viewer: Viewer) -> Sequence[Any]:
        """The odds of the rolls the next ``resolve`` of each running combat makes (combat is
        fought in the open: every viewer may see them)."""
        return tuple(
            OddsPreview.of(check, who_does_what(words), rule="Combat Actions")
            for combat in state.running
            for words, check in fight.preview(state, combat.id)
        )

    def odds_of(self, state: IntrigueState, action: Action, viewer: Viewer) -> Sequence[Any]:
        """The odds of the checks ``action`` would roll with its parameters as given: the very
        checks :meth:`decide` rolls (:func:`~referee.systems.intrigue.odds.upcoming`), one per
        envelope the perceiver could earn, a skill roll against this Target Number or that
        character, a mental attack on this target...

        Only for an action open to its actor now (a target off cooldown, a declaration in
        turn): the rules would refuse anything else, and it has no odds. A player is given the
        exact odds of their own roll where every number in it is theirs to know (a skill roll
        against a Target Number they chose, one against a character they play). A Perception
        Check's odds per envelope tell which envelopes a character carries, and an opposed
        roll's the other character's skill: those are the referee's alone, and the player is
        shown instead the chance their own total reaches each number
        (:func:`~referee.systems.intrigue.odds.own_roll`).
        """
        params = dict(action.params)
        if not any(
            c.kind == action.kind and c.allows(params)
            for c in self.legal_actions(state, action.actor)
        ):
            return ()
        rule = {**REFEREES_ODDS, **OTHER_ODDS}.get(action.kind, "Combat Actions")
        if action.kind in REFEREES_ODDS and not viewer.is_referee:
            mine = own_roll(state, action, lambda who: who in viewer.identities)
            if mine is not None:
                words, dice, chance = mine
                return (OddsPreview(words, rule, dice, {k: str(p) for k, p in chance.items()}),)
        return tuple(
            OddsPreview.of(check, who_does_what(words), rule=rule)
            for words, check in upcoming(state, action)
        )

    # -- the result ----------------------------------------------------------------------

    def conflict(self, state: IntrigueState) -> Result | None:
        """The last combat begun (``None`` before the first): over when it has ended ("Combat
        rules"); its winners every participant still on their feet and not escaped when it
        ended — the side left standing ("the victor", "Taking Damage"; both sides if the
        referee ends it with both standing). ``returns``: +1 on their feet, 0 escaped
        ("Escaping Combat"), -1 Knocked Out or dead. Intrigue has no end of its own: the
        evening never is over (:meth:`result` keeps the kernel's default).
        """
        if not state.combats:
            return None
        combat = state.combats[-1]
        people = tuple(dict.fromkeys(combat.participants))
        escaped = tuple(c for c in people if c in combat.escaped)
        standing = tuple(c for c in people if c not in combat.escaped and state.status(c).can_act)
        names = {c: state.character(c).name for c in people}
        returns = tuple((c, 0 if c in escaped else 1 if c in standing else -1) for c in people)
        if not combat.ended:
            return Result(
                f"the combat {combat.id}",
                summary=f"round {combat.round}: {_listed(names[c] for c in standing)} fighting",
                returns=returns,
            )
        if standing:
            words = f"{_listed(names[c] for c in standing)} left standing"
        elif escaped:
            words = f"nobody left standing; {_listed(names[c] for c in escaped)} escaped"
        else:
            words = "nobody left standing"
        return Result(
            f"the combat {combat.id}",
            True,
            standing,
            f"{words} after round {combat.round}",
            returns,
        )

    # -- fold and views ----------------------------------------------------------------

    def evolve(self, state: IntrigueState, event: Event) -> IntrigueState:
        """Fold one event (:func:`referee.systems.intrigue.evolve.evolve`)."""
        return evolve(state, event)

    def describe(self, event: Event, viewer: Viewer) -> str:
        """The event in words (:func:`referee.systems.intrigue.events.describe`)."""
        return describe(event, viewer)

    def state_json(self, state: IntrigueState) -> dict[str, Any]:
        """Everything, as the referee sees it (what ``expect: path`` reads)."""
        return game_json(state, None)

    def visible_state(self, state: IntrigueState, viewer: Viewer) -> JsonObject | None:
        """The referee sees all; a player their own characters' sheets and envelopes' outsides
        (never the contents of their own Perception Envelopes), others' badges, and combats."""
        return game_json(state, None if viewer.is_referee else viewer.identities)


def _listed(names: Iterable[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``; ``"nobody"`` for none."""
    named = list(names)
    if not named:
        return "nobody"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


PROCEDURE = Intrigue()
