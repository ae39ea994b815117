"""The evening as a kernel :class:`~referee.core.Procedure`: ``system: intrigue``.

The action kinds are the catalogue of :mod:`~referee.systems.intrigue.actions` (``actor`` is a
character's id or number; ``referee`` for the referee's own); the events are the vocabulary of
:mod:`~referee.systems.intrigue.events`. Each kind is decided by the module of its section:

=====================  ======================================  ==============================
kind                   section                                 module
=====================  ======================================  ==============================
``perceive``           Perception Envelopes                    ``perception``
``report``             Contingency Envelopes                   ``perception``
``encounter``          Contingency Envelopes                   ``perception``
``open``               Contingency Envelopes                   ``perception``
``roll``               Skill Rolls                             ``skills``
``speak``              Languages                               ``skills``
``draw``               Combat Actions (outside a combat)       ``procedure``
``start_combat``       Starting Combat                         ``combat``
``join``, ``admit``    Starting Combat                         ``combat``
``use_mind``           Mixing Mental and Normal Combat         ``rounds``
``next_round``         Initiative                              ``rounds``
``declare``            Combat Actions, Multiple Attackers      ``combat_actions``
``resolve``            Initiative, Combat Actions              ``combat_actions``
``escape``             Escaping Combat                         ``escape``
``end_combat``         Combat rules                            ``combat``
``mental_attack``      Mental Combat                           ``mental``
``revive``, ``slay``   Taking Damage                           ``damage``
``search``, ``rob``    Taking Damage                           ``damage``
=====================  ======================================  ==============================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    ActorId,
    Between,
    Choice,
    Domain,
    Event,
    JsonObject,
    OddsPreview,
    OneOf,
    Procedure,
    Result,
    RuleError,
    SomeOf,
    Text,
    Viewer,
    only,
    set_timer,
)
from referee.core.naming import possessive, with_names
from referee.dice import DiceSource
from referee.systems.intrigue import actions as spec
from referee.systems.intrigue import combat as fight
from referee.systems.intrigue import damage, perception, skills
from referee.systems.intrigue.characters import ENGLISH, MEDICINE, Character
from referee.systems.intrigue.combat_actions import ranked_above
from referee.systems.intrigue.envelopes import ConditionKind
from referee.systems.intrigue.events import CONTINGENCY_OPENABLE, ITEM_DRAWN, describe
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.game import load_game
from referee.systems.intrigue.mental import mental_attack
from referee.systems.intrigue.odds import own_roll, upcoming
from referee.systems.intrigue.perception import format_duration
from referee.systems.intrigue.rules import (
    ESCAPE_DEFENSIVE_ACTIONS,
    SCREAM_BONUS_LIMIT,
    attack_check,
    attack_target_number,
    medicine_check,
)
from referee.systems.intrigue.state import Combat, IntrigueState
from referee.systems.intrigue.views import game_json

__all__ = ["PROCEDURE", "Intrigue", "format_duration", "game_json"]

REFEREE_ACTIONS = ("admit", "resolve", "next_round", "end_combat")

REFEREES_ODDS = {"perceive": "Perception Envelopes", "roll": "Skill Rolls"}
"""Kinds whose odds only the referee sees (ruling), with the section that rolls them."""

OTHER_ODDS = {
    "mental_attack": "Mental Combat",
    "revive": "Taking Damage",
    "escape": "Escaping Combat",
}
"""The section that rolls each other kind's checks (the rest: "Combat Actions")."""

Handler = Callable[[IntrigueState, Character, Action, DiceSource], Sequence[Event]]


def _who(state: IntrigueState, ref: spec.CharacterRef) -> Character:
    return state.character(str(ref))


def _combat_named(state: IntrigueState, combat_id: str | None) -> str:
    if combat_id is not None:
        return combat_id
    running = state.running
    if len(running) != 1:
        raise RuleError("Combat rules", f"name the combat: {len(running)} are running")
    return running[0].id


def _own_combat(state: IntrigueState, me: Character, combat_id: str | None) -> Combat:
    combat = state.combat_of(me.id)
    if combat is None:
        raise RuleError("Combat rules", f"{me.id} is not in a combat")
    if combat_id is not None and combat_id != combat.id:
        raise RuleError("Combat rules", f"{me.id} is in {combat.id}, not {combat_id}")
    return combat


# -- the character's actions, by kind ---------------------------------------------------------


def _perceive(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    target = _who(state, spec.PERCEIVE.of(action).target)
    return perception.perceive(state, me, target, dice, action.at)


def _roll(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return skills.roll(state, me, spec.ROLL.of(action), dice)


def _report(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return perception.report(state, me, spec.REPORT.of(action).event)


def _encounter(
    state: IntrigueState, me: Character, action: Action, dice: DiceSource
) -> list[Event]:
    args = spec.ENCOUNTER.of(action)
    return perception.encounter(state, me, _who(state, args.character), args.how)


def _open(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return perception.open_envelope(state, me, spec.OPEN.of(action).envelope)


def _speak(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return skills.speak(state, me, spec.SPEAK.of(action))


def _draw(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    """Draw a weapon or item outside combat (in a combat it is the Combat Action)."""
    if state.combat_of(me.id) is not None:
        raise RuleError("Combat Actions", "in combat, Draw a Weapon or Item is your Action")
    item = spec.DRAW.of(action).item
    card = me.item(item)
    if card is None:
        raise RuleError("Draw a Weapon or Item", f"{me.id} has no item card {item!r}")
    return [Event(ITEM_DRAWN, {"character": me.id, "item": item})]


def _start_combat(
    state: IntrigueState, me: Character, action: Action, dice: DiceSource
) -> list[Event]:
    args = spec.START_COMBAT.of(action)
    targets = [_who(state, t).id for t in args.targets]
    surprised = [_who(state, t).id for t in args.surprised]
    return fight.start_combat(state, me.id, targets, surprised)


def _join(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return fight.join(state, me.id, _who(state, spec.JOIN.of(action).with_).id)


def _use_mind(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return fight.use_mind(state, me.id)


def _declare(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return fight.declare(state, me.id, spec.DECLARE.of(action), dice)


def _escape(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return fight.escape(state, me.id, dice)


def _mental_attack(
    state: IntrigueState, me: Character, action: Action, dice: DiceSource
) -> list[Event]:
    args = spec.MENTAL_ATTACK.of(action)
    return mental_attack(state, me, _who(state, args.target), args.ability, dice)


def _revive(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return damage.revive(state, me, _who(state, spec.REVIVE.of(action).target), dice)


def _slay(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return damage.slay(state, me, _who(state, spec.SLAY.of(action).target))


def _search(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    return damage.search(state, me, _who(state, spec.SEARCH.of(action).target))


def _rob(state: IntrigueState, me: Character, action: Action, dice: DiceSource) -> list[Event]:
    args = spec.ROB.of(action)
    return damage.rob(state, me, _who(state, args.target), args.item)


_HANDLERS: Mapping[str, Handler] = {
    "perceive": _perceive,
    "roll": _roll,
    "report": _report,
    "encounter": _encounter,
    "open": _open,
    "speak": _speak,
    "draw": _draw,
    "start_combat": _start_combat,
    "join": _join,
    "use_mind": _use_mind,
    "declare": _declare,
    "escape": _escape,
    "mental_attack": _mental_attack,
    "revive": _revive,
    "slay": _slay,
    "search": _search,
    "rob": _rob,
}


class Intrigue(Procedure[IntrigueState]):
    """Intrigue in the Clouds: one table for the whole evening, with a referee."""

    catalogue = spec.CATALOGUE
    has_referee = True

    def initial_state(self, setup: Mapping[str, Any]) -> IntrigueState:
        """The evening from the game file (see :func:`~referee.systems.intrigue.game.load_game`)."""
        return load_game(setup)

    def initial_events(self, state: IntrigueState) -> Sequence[Event]:
        """Timers for "Open at nine o'clock": each tells its holder alone, at that time."""
        events = []
        for envelope in state.contingency_envelopes:
            if envelope.condition.kind is ConditionKind.AT and envelope.condition.at is not None:
                told = Event(
                    CONTINGENCY_OPENABLE,
                    {"holder": envelope.holder, "envelopes": [envelope.id], "why": "time"},
                    audience=only(envelope.holder),
                )
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

    # -- decide --------------------------------------------------------------------------

    def decide(self, state: IntrigueState, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events ``action`` causes, or :class:`RuleError` with the rule that refuses it;
        each carries the names of the characters it mentions, for its narration."""
        roster = state.names()
        return [with_names(e, roster) for e in self._decide(state, action, dice)]

    def _decide(self, state: IntrigueState, action: Action, dice: DiceSource) -> Sequence[Event]:
        kind = action.kind
        if action.actor == REFEREE:
            return self._referee(state, action, dice)
        me = state.character(action.actor)
        if state.status(me.id).dead:
            raise RuleError("Taking Damage", f"{me.id} is dead")
        if kind == "resolve":
            combat = _own_combat(state, me, spec.RESOLVE.of(action).combat)
            return fight.resolve(state, combat.id, dice)
        if kind == "next_round":
            combat = _own_combat(state, me, spec.NEXT_ROUND.of(action).combat)
            return fight.next_round(state, combat.id)
        if not state.status(me.id).can_act:
            raise RuleError("Taking Damage", f"{me.id} is Knocked Out")
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise RuleError("Intrigue actions", f"no action {kind!r} for a character")
        return handler(state, me, action, dice)

    def _referee(self, state: IntrigueState, action: Action, dice: DiceSource) -> list[Event]:
        kind = action.kind
        if kind not in REFEREE_ACTIONS:
            raise RuleError("Referee", f"the referee's actions are {', '.join(REFEREE_ACTIONS)}")
        if kind == "admit":
            args = spec.ADMIT.of(action)
            return fight.admit(state, _who(state, args.character).id, _who(state, args.with_).id)
        if kind == "end_combat":
            ended = spec.END_COMBAT.of(action)
            return fight.end_combat(state, _combat_named(state, ended.combat), ended.reason)
        combat_id = _combat_named(state, spec.RESOLVE.of(action).combat)
        if kind == "next_round":
            return fight.next_round(state, combat_id)
        return fight.resolve(state, combat_id, dice)

    # -- choices -------------------------------------------------------------------------

    def legal_actions(self, state: IntrigueState, actor: ActorId) -> Sequence[Choice]:
        """The actions ``actor`` may take now, with the values the rules allow as far as the
        state tells (targets, combat actions, envelopes, languages, items).

        The odds of a Perception Check or a skill roll are the referee's (ruling), so their
        choices carry none; a combat roll's and an unnoticed mental attack's are the actor's.
        """
        if actor == REFEREE:
            return _referee_choices(state)
        if not state.has_character(actor):
            return ()
        me = state.character(actor)
        if not state.status(me.id).can_act:
            return ()
        combat = state.combat_of(me.id)
        if combat is not None:
            return _combat_choices(state, me, combat)
        return _evening_choices(state, me)

    def previews(self, state: IntrigueState, viewer: Viewer) -> Sequence[Any]:
        """The odds of the rolls the next ``resolve`` of each running combat makes (combat is
        fought in the open: every viewer may see them)."""
        return tuple(
            OddsPreview.of(check, _who_does_what(words), rule="Combat Actions")
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
            OddsPreview.of(check, _who_does_what(words), rule=rule)
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


# -- the choices -------------------------------------------------------------------------------


def _listed(names: Iterable[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``; ``"nobody"`` for none."""
    named = list(names)
    if not named:
        return "nobody"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _who_does_what(words: str) -> str:
    """``scarface attack krockin`` of ``scarface attack krockin: 3d6+2 > 14`` (the preview's
    dice are the card's own). The dice follow the last ``": "``: a skill's name may hold one
    (``ann Lore: Egypt: 3d6+2 ≥ 12``)."""
    who, colon, _ = words.rpartition(": ")
    return who if colon else words


def _referee_choices(state: IntrigueState) -> tuple[Choice, ...]:
    choices: list[Choice] = []
    running = state.running
    if not running:
        return ()
    ready = [c.id for c in running if c.in_round and not fight.pending_declarers(state, c)]
    if ready:
        odds = tuple(
            OddsPreview.of(check, _who_does_what(words), rule="Combat Actions")
            for cid in ready
            for words, check in fight.preview(state, cid)
        )
        choices.append(
            Choice(REFEREE, "resolve", {"combat": OneOf(tuple(ready))}, odds=odds, label="resolve")
        )
    between = [c.id for c in running if not c.in_round]
    if between:
        choices.append(Choice(REFEREE, "next_round", {"combat": OneOf(tuple(between))}))
    choices.append(Choice(REFEREE, "end_combat", {"combat": OneOf(tuple(c.id for c in running))}))
    fighting = tuple(p for c in running for p in c.participants if state.is_active(c, p))
    free = tuple(
        c.id
        for c in state.characters
        if state.status(c.id).can_act
        and state.combat_of(c.id) is None
        and not any(c.id in r.escaped for r in running)
    )
    if fighting and free:
        choices.append(
            Choice(REFEREE, "admit", {"character": OneOf(free), "with": OneOf(fighting)})
        )
    return tuple(choices)


def _others(state: IntrigueState, me: Character) -> tuple[str, ...]:
    return tuple(c.id for c in state.characters if c.id != me.id)


def _knocked_out_after_combat(state: IntrigueState) -> tuple[str, ...]:
    return tuple(
        c.id
        for c in state.characters
        if state.status(c.id).knocked_out and state.status(c.id).wake_due is not None
    )


def _evening_choices(state: IntrigueState, me: Character) -> tuple[Choice, ...]:
    others = _others(state, me)
    choices: list[Choice] = []
    fresh = tuple(o for o in others if state.cooldown_until(me.id, o) is None)
    if fresh:
        choices.append(Choice(me.id, "perceive", {"target": OneOf(fresh)}, label="perceive"))
    skills = tuple(dict.fromkeys(("Perception", *(name for name, _ in me.skills))))
    choices.append(
        Choice(
            me.id,
            "roll",
            {"skill": OneOf(skills), "target": Between(3, 24)},
            label="skill roll against a Target Number",
        )
    )
    if others:
        choices.append(
            Choice(
                me.id,
                "roll",
                {"skill": OneOf(skills), "against": OneOf(others)},
                label="skill roll against another character",
            )
        )
    mine = [e for e in state.contingency_envelopes if e.holder == me.id]
    happenings = tuple(
        dict.fromkeys(
            e.condition.event
            for e in mine
            if e.condition.kind is ConditionKind.EVENT and e.id not in state.openable
        )
    )
    report: Domain = OneOf(happenings) if happenings else Text("shot")
    choices.append(Choice(me.id, "report", {"event": report}))
    if others:
        choices.append(
            Choice(
                me.id,
                "encounter",
                {"character": OneOf(others), "how": OneOf(("see", "meet", "talk"))},
            )
        )
    openable = tuple(e.id for e in mine if e.id in state.openable and e.id not in state.opened)
    if openable:
        choices.append(Choice(me.id, "open", {"envelope": OneOf(openable)}))
    languages = tuple(dict.fromkeys(([ENGLISH] if me.speaks_english else []) + list(me.languages)))
    if languages:
        choices.append(
            Choice(
                me.id,
                "speak",
                {
                    "language": OneOf(languages),
                    "listeners": SomeOf(others, least=1),
                    "content": Text("Hm."),
                },
            )
        )
    if me.items:
        choices.append(Choice(me.id, "draw", {"item": OneOf(tuple(i.name for i in me.items))}))
    ready = tuple(o for o in others if state.status(o).can_act and state.combat_of(o) is None)
    if ready:
        choices.append(
            Choice(
                me.id,
                "start_combat",
                {"targets": SomeOf(ready, least=1, most=min(3, len(ready)))},
                label="start a combat",
            )
        )
        choices.extend(
            Choice(
                me.id,
                "start_combat",
                {"targets": OneOf(([o],)), "surprised": OneOf(([o],))},
                label=f"start a combat, surprising {o}",
            )
            for o in ready
        )
    joinable = tuple(
        p
        for c in state.running
        if c.round == 0 and not c.is_surprise and me.id not in c.escaped
        for p in c.participants
    )
    if joinable:
        choices.append(Choice(me.id, "join", {"with": OneOf(joinable)}))
    unnoticed = [a for a in me.abilities if a.mental and not a.obvious and not a.damage]
    quiet = tuple(o for o in others if state.combat_of(o) is None)
    if unnoticed and quiet:
        choices.append(
            Choice(
                me.id,
                "mental_attack",
                {"target": OneOf(quiet), "ability": OneOf(tuple(a.name for a in unnoticed))},
                odds=tuple(
                    OddsPreview.of(
                        attack_check(
                            me.mind,
                            a.target
                            if a.target is not None
                            else attack_target_number(state.character(o).mind),
                        ),
                        f"{me.id} {a.name} {o}",
                        rule="Mental Combat",
                    )
                    for a in unnoticed
                    for o in quiet
                ),
            )
        )
    fallen = _knocked_out_after_combat(state)
    if fallen:
        if me.has_skill(MEDICINE):
            choices.append(
                Choice(
                    me.id,
                    "revive",
                    {"target": OneOf(fallen)},
                    odds=(
                        OddsPreview.of(
                            medicine_check(me.skill(MEDICINE)),
                            f"{me.id} wakes the Knocked Out",
                            rule="Taking Damage",
                        ),
                    ),
                )
            )
        beaten = tuple(f for f in fallen if me.id in damage.victors(state, f))
        if beaten:
            choices.append(Choice(me.id, "slay", {"target": OneOf(beaten)}))
            choices.append(Choice(me.id, "search", {"target": OneOf(beaten)}))
            # one choice a victim: the items are that victim's (the victor may search first)
            choices.extend(
                Choice(
                    me.id,
                    "rob",
                    {"target": OneOf((f,)), "item": OneOf(robbable)},
                    label=f"rob {f}",
                )
                for f in beaten
                if (robbable := _robbable(me, state.character(f)))
            )
    return tuple(choices)


def _robbable(me: Character, victim: Character) -> tuple[str, ...]:
    """The Item Cards ``me`` may take from ``victim``: those whose name ``me`` does not hold."""
    return tuple(i.name for i in victim.items if me.item(i.name) is None)


def _declaration_choices(
    state: IntrigueState, me: Character, combat: Combat, *, held_over: bool
) -> list[Choice]:
    """The Combat Actions ``me`` may declare now (``held_over``: a held action taken now)."""
    who = me.id

    def choice(action: str, label: str = "", **params: Domain) -> Choice:
        return Choice(who, "declare", {"action": OneOf((action,)), **params}, label=label or action)

    targets = tuple(
        p
        for p in combat.participants
        if p != who and state.is_active(combat, p) and combat.side_of(p) != combat.side_of(who)
    )
    scream = choice("scream", bonus=Between(0, SCREAM_BONUS_LIMIT))
    if who in combat.held_at_start:
        return [choice("break_free"), scream]
    if who in combat.holding_at_start and combat.held_by(who) is not None:
        return [choice("squeeze"), choice("throw"), choice("release")]
    hold = [] if held_over else [choice("hold")]
    if who in combat.by_mind:
        mental = tuple(a.name for a in me.abilities if a.mental and a.in_combat)
        attack = (
            [choice("attack", "mental attack", target=OneOf(targets), ability=OneOf(mental))]
            if targets and mental
            else []
        )
        return attack + hold
    choices = [choice("defend"), scream, *hold]
    if targets:
        choices.append(choice("attack", target=OneOf(targets)))
        free = tuple(t for t in targets if combat.holder_of(t) is None)
        if free:
            choices.append(choice("grab", target=OneOf(free)))
    if me.items:
        choices.append(choice("draw", item=OneOf(tuple(i.name for i in me.items))))
    return choices


def _combat_choices(state: IntrigueState, me: Character, combat: Combat) -> tuple[Choice, ...]:
    who = me.id
    choices: list[Choice] = []
    which = {"combat": OneOf((combat.id,))}
    if combat.in_round:
        waiting = fight.pending_declarers(state, combat)
        mine = combat.declaration(who)
        if who in waiting:
            rank = fight.initiative_rank(state, combat, who)
            if not any(fight.initiative_rank(state, combat, c) > rank for c in waiting):
                choices += _declaration_choices(state, me, combat, held_over=False)
        elif (
            not waiting
            and mine is not None
            and mine.kind == "hold"
            and not mine.resolved
            and not ranked_above(combat, mine)
        ):
            choices += _declaration_choices(state, me, combat, held_over=True)
        if not waiting:
            choices.append(Choice(who, "resolve", which))
        if not combat.declarations and _may_use_mind(state, me, combat):
            choices.append(Choice(who, "use_mind"))
        return tuple(choices)
    choices.append(Choice(who, "next_round", which))
    choices += _declaration_choices_next(state, me, combat)
    if (
        combat.round > 0
        and combat.streak(who) >= ESCAPE_DEFENSIVE_ACTIONS
        and who not in combat.escape_tried
    ):
        plan = fight.escape_plan(state, combat, who)
        odds = () if plan is None else (OddsPreview.of(plan[1], f"{who} escapes {plan[0]}"),)
        choices.append(Choice(who, "escape", odds=odds))
    if _may_use_mind(state, me, combat):
        choices.append(Choice(who, "use_mind"))
    return tuple(choices)


def _declaration_choices_next(state: IntrigueState, me: Character, combat: Combat) -> list[Choice]:
    """Between rounds a declaration begins the next round: offered to whoever declares first."""
    after = fight.round_start(state, combat)
    state2, combat2 = after[0], after[1]
    waiting = fight.pending_declarers(state2, combat2)
    if not waiting or me.id not in waiting:
        return []
    rank = fight.initiative_rank(state2, combat2, me.id)
    if any(fight.initiative_rank(state2, combat2, c) > rank for c in waiting):
        return []
    return _declaration_choices(state2, me, combat2, held_over=False)


def _may_use_mind(state: IntrigueState, me: Character, combat: Combat) -> bool:
    if not any(a.mental and a.in_combat for a in me.abilities):
        return False
    state2, combat2, _ = fight.round_start(state, combat)
    return (
        not combat2.declarations
        and fight.can_declare(state2, combat2, me.id)
        and me.id not in combat2.held_at_start
        and me.id not in combat2.holding_at_start
        and me.id not in combat2.by_mind
    )


PROCEDURE = Intrigue()
