"""The Zweihänder house rules at a table: one :class:`~referee.core.Procedure` for every section.

``system: zweihander``. The setup (:mod:`.setup`) names the characters, the party's
``fortune_points``, the players' ``stables``, and optionally a ``journey``. Each action kind
belongs to the section of the text that defines it, and each section's module holds its
parameters, its steps and its choices:

==========================  ============================================  ======================
kinds                       section of the text                           module
==========================  ============================================  ======================
``test``                    Skill Test (the d100 core)                    :mod:`.skill_tests`
``morale``                  Combat rules / Morale checks                  :mod:`.morale`
``chase.*``                 Chase scene rules                             :mod:`.chase`
``journey.*``               Wilderness travel rules                       :mod:`.wilderness`
``travel.forced_march``     Overland exploration / Forced march           :mod:`.overland`
``social.simple``,          Social Intrigue                               :mod:`.social`
``exchange.*``
``madness``, ``corruption``, Madness; Corruption; Order & Chaos            :mod:`.madness`
``session.end``
``reputation.award``,       Reputation points; Requisitions               :mod:`.reputation`
``requisition``
``stable.reward``           Character stable                              :mod:`.stable`
==========================  ============================================  ======================

The two long sections are split by part of the text, :mod:`.chase` gathering
:mod:`.chase_ladder`, :mod:`.chase_round`, :mod:`.takedown` and :mod:`.chase_scene`, and
:mod:`.wilderness` gathering :mod:`.stretches`, :mod:`.roles` and :mod:`.strike_camp`.

The procedure here only gathers them: the catalogue, the handlers (:data:`HANDLERS`, decided
through the kernel's :class:`~referee.core.decide.Builder`: each event folded once, as it is
emitted), the fold of character changes, and the views.

>>> from referee.core import Table, Action
>>> t = Table.start(ZweihanderProcedure(), {"characters": {"anna": {"skills": {"Charm": 50}}}})
>>> sorted({c.kind for c in t.legal_actions("anna")})
['requisition', 'social.simple', 'test']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    ActorId,
    Builder,
    Catalogue,
    Choice,
    Event,
    Handlers,
    OddsPreview,
    Procedure,
    Result,
    RuleError,
    ScenarioError,
    Viewer,
    Waiting,
    Who,
)
from referee.core.naming import title_of
from referee.core.values import JsonObject, evolved, to_json
from referee.dice import DiceSource
from referee.systems.zweihander import chase as chase_rules
from referee.systems.zweihander import (
    madness,
    morale,
    npcs,
    overland,
    reputation,
    skill_tests,
    social,
    wilderness,
)
from referee.systems.zweihander import setup as setup_model
from referee.systems.zweihander import stable as stable_rules
from referee.systems.zweihander.character import DAMAGE_TRACK, PERIL_TRACK, Character
from referee.systems.zweihander.events import JOURNEY_STARTED
from referee.systems.zweihander.events import describe as narrate
from referee.systems.zweihander.stable import check_stable
from referee.systems.zweihander.state import (
    ChaseState,
    ExchangeState,
    ZweihanderState,
    apply_character_changes,
)

__all__ = ["CATALOGUE", "HANDLERS", "ZweihanderProcedure", "can_act"]

HANDLERS = Handlers(
    {
        skill_tests.TEST.kind: skill_tests.decide_test,
        morale.MORALE.kind: morale.decide_morale,
        **chase_rules.HANDLERS,
        **wilderness.HANDLERS,
        overland.FORCED_MARCH_SPEC.kind: overland.decide_forced_march,
        social.SIMPLE.kind: social.decide_simple,
        social.EXCHANGE_START.kind: social.decide_exchange_start,
        social.EXCHANGE_TACTIC.kind: social.decide_exchange_tactic,
        social.EXCHANGE_END.kind: social.decide_exchange_end,
        madness.MADNESS.kind: madness.decide_madness,
        madness.CORRUPTION.kind: madness.decide_corruption,
        madness.SESSION_END.kind: madness.decide_session_end,
        reputation.REPUTATION_AWARD.kind: reputation.decide_reputation,
        reputation.REQUISITION.kind: reputation.decide_requisition,
        stable_rules.STABLE_REWARD.kind: stable_rules.decide_stable,
    },
    rule="Zweihänder house rules (actions)",
)
"""The handler of each action kind, in the module of its section of the text."""

SPECS: tuple[ActionSpec[Any], ...] = (
    skill_tests.TEST,
    morale.MORALE,
    *chase_rules.SPECS,
    *wilderness.SPECS,
    overland.FORCED_MARCH_SPEC,
    *social.SPECS,
    *madness.SPECS,
    *reputation.SPECS,
    stable_rules.STABLE_REWARD,
)
CATALOGUE = Catalogue(SPECS)
"""Every action kind of a Zweihänder table."""

_CHOICES: tuple[Callable[[ZweihanderState, str], list[Choice]], ...] = (
    wilderness.choices,
    skill_tests.choices,
    social.choices,
    madness.choices,
    reputation.choices,
    morale.choices,
    overland.choices,
    stable_rules.choices,
)


class ZweihanderProcedure(Procedure[ZweihanderState]):
    """The house rules as one state machine: tests, morale, chases, journeys, intrigue, madness."""

    catalogue = CATALOGUE
    handlers = HANDLERS
    has_referee = True
    players_see_alike = True  # what the GM keeps back is kept from every player alike

    # -- setup ------------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Any]) -> ZweihanderState:
        """Characters, Fortune Points, stables and a journey from ``setup``."""
        setup_model.check(setup)
        chars = setup.get("characters", {})
        characters = tuple(Character.from_setup(str(k), v or {}) for k, v in chars.items())
        state = ZweihanderState(
            characters=characters, fortune_points=setup.get("fortune_points", 0)
        )
        stables: dict[str, tuple[str, ...]] = {}
        for player, members in setup.get("stables", {}).items():
            try:
                check_stable(members)
                for m in members:
                    state.character(m)
            except RuleError as error:
                raise ScenarioError(error.reason, ("stables", str(player))) from None
            stables[str(player)] = tuple(members)
        state = evolved(state, stables=stables)
        if setup.get("journey") is not None:
            payload = wilderness.start_payload(state, setup["journey"], ("journey",))
            state = wilderness.evolve(state, Event(JOURNEY_STARTED, payload))
        return state

    def actors(self, state: ZweihanderState) -> Sequence[ActorId]:
        """Whose move it is: the GM; in a chase, whoever the ladder calls on (ruling 35), and
        every character able to act who is not running in it; else every character able to
        act."""
        free = [c.id for c in state.characters if can_act(c)]
        chase = state.chase
        if chase is not None and chase.ended is None:
            aside = [c for c in free if not chase_rules.is_running(state, c)]
            return tuple(dict.fromkeys([REFEREE, *chase_rules.called(chase), *aside]))
        return (REFEREE, *free)

    def characters(self, state: ZweihanderState) -> Sequence[ActorId]:
        """Every character a player may play (the NPCs are the GM's)."""
        return tuple(c.id for c in state.characters if not c.npc)

    # -- actions ----------------------------------------------------------------------------

    def legal_actions(self, state: ZweihanderState, actor: ActorId) -> Sequence[Choice]:
        """Every action open to ``actor`` now, with the domain of each parameter."""
        if actor != REFEREE and not any(c.id == actor for c in state.characters):
            return ()
        if actor != REFEREE and not can_act(state.character(actor)):
            return ()  # Slain!, or Incapacitated! ("they cannot continue"): see waiting
        if chase_rules.is_running(state, actor):
            # a participant acts in the chase, in ladder order (Referee's ruling)
            return tuple(chase_rules.choices(state, actor))
        return (*chase_rules.choices(state, actor), *_aside_from_the_chase(state, actor))

    def waiting(self, state: ZweihanderState, actor: ActorId) -> Waiting | None:
        """Why ``actor`` has nothing to do now, and until when: Slain!, Incapacitated!, or
        waiting for their turn in the chase (:func:`.chase.waiting`)."""
        if actor == REFEREE or not any(c.id == actor for c in state.characters):
            return None
        c = state.character(actor)
        who = title_of(actor)
        if c.is_slain:
            return Waiting(actor, f"{who} is Slain!", None, "Damage Condition Track")
        if c.is_incapacitated:
            return Waiting(
                actor,
                f"{who} is Incapacitated! and cannot act",
                "until they recover: Striking Camp on a journey recovers Peril",
                "Peril Condition Track",
            )
        return chase_rules.waiting(state, actor)

    def build(
        self, state: ZweihanderState, action: Action, dice: DiceSource
    ) -> Builder[ZweihanderState]:
        """Decide ``action`` through :data:`HANDLERS`, once the actor may take it: an action
        for the GM only from the referee, any other from someone at the table."""
        spec = CATALOGUE.spec(action.kind)
        if spec.who is Who.REFEREE and action.actor != REFEREE:
            raise RuleError(
                action.kind, f"only the referee (the GM) takes this action, not {action.actor!r}"
            )
        if action.actor != REFEREE:
            state.character(action.actor)  # refuses an actor who is nobody at the table
        builder = super().build(state, action, dice)
        # what of an NPC is the GM's leaves every player's sight (the data, hence the fold, kept)
        builder.events[:] = [npcs.guard(state, event) for event in builder.events]
        return builder

    # -- the fold ---------------------------------------------------------------------------

    def evolve(self, state: ZweihanderState, event: Event) -> ZweihanderState:
        """Fold any event: character changes first, then the section's own state."""
        d = event.data
        if "characters" in d:
            state = apply_character_changes(state, d["characters"])
        if npcs.NPC_CHANGES in d:
            state = apply_character_changes(state, d[npcs.NPC_CHANGES])
        kind = event.kind
        if kind in chase_rules.KINDS:
            return chase_rules.evolve(state, event)
        if kind in wilderness.KINDS:
            return wilderness.evolve(state, event)
        if kind in social.KINDS:
            return social.evolve(state, event)
        return reputation.evolve(overland.evolve(state, event), event)

    # -- the result -------------------------------------------------------------------------

    def conflict(self, state: ZweihanderState) -> Result | None:
        """The chase or the Complex Exchange under way (a chase first, if both are); else the
        one that has ended (the chase, if both have: the state keeps no order between them);
        ``None`` if neither has begun. The house rules have no end of their own: the table is
        never over (:meth:`result` keeps the kernel's default).

        A chase ("Chase scene rules") is over when it ends; ``"escapees"`` win if one of them
        escaped, else ``"pursuers"`` (the sides as ``chase.start`` names them); ``returns``:
        +1 each participant of the winning side, -1 the others. A Complex Exchange ("Social
        Intrigue") is over when the GM ends it; the text names no winner ("Result is based on
        Disposition and the Test's result"): its summary gives each participant's result.
        """
        chase, exchange = state.chase, state.exchange
        if chase is not None and (chase.ended is None or exchange is None or exchange.ended):
            return _chase_result(chase)
        if exchange is not None:
            return _exchange_result(exchange)
        return None

    # -- views ------------------------------------------------------------------------------

    def describe(self, event: Event, viewer: Viewer) -> str:
        """The event in words (:func:`.events.describe`)."""
        return narrate(event, viewer)

    def previews(self, state: ZweihanderState, viewer: Viewer) -> Sequence[OddsPreview]:
        """The checks about to be rolled: a caught-up Pursuer's Takedown (everyone sees a
        chase), and the GM's next Toughness Tests of a journey."""
        out = list(chase_rules.previews(state))
        if viewer.is_referee:
            out += wilderness.previews(state)
        return tuple(out)

    def odds_of(
        self, state: ZweihanderState, action: Action, viewer: Viewer
    ) -> Sequence[OddsPreview]:
        """The exact odds of a Skill Test or a social Test with its parameters as given (the
        Difficulty, the Assist Die, the Tactic; a player never sees the GM's secret Skills in
        them: :func:`.social.odds_of`); other kinds: the odds their choice carries."""
        if action.kind == skill_tests.TEST.kind:
            return skill_tests.odds_of(state, action)
        if action.kind in (social.SIMPLE.kind, social.EXCHANGE_TACTIC.kind):
            return social.odds_of(state, action, viewer)
        return super().odds_of(state, action, viewer)

    def state_json(self, state: ZweihanderState) -> JsonObject:
        """The whole state, characters keyed by id (what ``expect: path`` reads)."""
        data = to_json(state)
        assert isinstance(data, dict)
        data["characters"] = {c["id"]: c for c in data["characters"]}
        for c in data["characters"].values():
            c["peril_condition"] = PERIL_TRACK[int(c["peril"])]
            c["damage_condition"] = DAMAGE_TRACK[int(c["damage"])]
        if state.chase is not None:
            data["chase"]["participants"] = {x["id"]: x for x in data["chase"]["participants"]}
            data["chase"]["ladder"] = [x.id for x in state.chase.participants]
        return data

    def visible_state(self, state: ZweihanderState, viewer: Viewer) -> JsonObject | None:
        """The whole state for the referee; for others, everything but the GM's secret Skills
        (before the exchange ends), the NPCs' Corruption, Ranks and Disorders (:mod:`.npcs`),
        and the waits (the names of the referee's timers)."""
        data = dict(self.state_json(state))
        if viewer.is_referee:
            return data
        data = dict(npcs.redact_state(data, npcs.npc_ids(state)))
        # the waits are the kernel timers' names (the referee's): bookkeeping, not the table's
        data.pop("waits", None)
        ex = data.get("exchange")
        if isinstance(ex, Mapping) and not ex.get("ended"):
            data["exchange"] = {
                k: v for k, v in ex.items() if k not in ("favourable", "unfavourable")
            }
        return data


_BESIDE_THE_CHASE = tuple(f.name for f in fields(ZweihanderState) if f.name != "chase")
"""What the other sections' choices read of the state: all of it but the chase."""

_asked_aside: dict[ActorId, tuple[tuple[Any, ...], tuple[Choice, ...]]] = {}
"""Each actor's last choices of the other sections, and the state less its chase they were
worked out for."""


def _aside_from_the_chase(state: ZweihanderState, actor: ActorId) -> tuple[Choice, ...]:
    """The choices of every section but the chase (:data:`_CHOICES`), which read nothing of
    it: worked out again only when something else of the state changed. At every step of a
    chase the GM was offered every other section's choices afresh, the same ones."""
    beside = tuple(getattr(state, name) for name in _BESIDE_THE_CHASE)
    kept = _asked_aside.get(actor)
    if kept is not None and kept[0] == beside:
        return kept[1]
    found = tuple(choice for choices in _CHOICES for choice in choices(state, actor))
    _asked_aside[actor] = (beside, found)
    return found


def can_act(c: Character) -> bool:
    """True unless ``c`` is Slain! or Incapacitated! ("they cannot continue")."""
    return not (c.is_slain or c.is_incapacitated)


def _chase_result(chase: ChaseState) -> Result:
    if chase.ended is None:
        left = [p.id for p in chase.participants if p.is_in]
        return Result("the chase", summary=f"round {chase.round}: {', '.join(left)} still in it")
    escaped = [p.id for p in chase.participants if p.side == "escapee" and p.status == "escaped"]
    side = "escapee" if escaped else "pursuer"
    returns = tuple((p.id, 1 if p.side == side else -1) for p in chase.participants)
    if escaped:
        words = f"{', '.join(escaped)} escaped ({chase.ended})"
    else:
        words = f"the pursuers won ({chase.ended})"
    return Result("the chase", True, (f"{side}s",), words, returns)


def _exchange_result(exchange: ExchangeState) -> Result:
    said = "; ".join(f"{who}: {words}" for who, words in exchange.results)
    untested = [c for c in exchange.participants if c not in exchange.tested]
    if untested and not exchange.ended:
        said = "; ".join(filter(None, (said, f"{', '.join(untested)} still to test")))
    return Result(
        f"the Complex Exchange with {exchange.npc}", exchange.ended, (), said or "no Tactic tested"
    )
