"""The evening as a kernel :class:`~referee.core.Procedure`: ``system: intrigue`` scenarios.

Actions (``actor`` is a character's id or number; ``referee`` for the referee's own):

=====================  ========================================================================
``perceive``           ``{target}``: a Perception Check ("Perception Envelopes")
``roll``               ``{skill | ability, target | against [, against_skill]}``: a skill roll
``report``             ``{event}``: the holder reports "shot" ("Contingency Envelopes")
``encounter``          ``{character, how: see | meet | talk}``: the holder met character N
``open``               ``{envelope}``: open a Contingency Envelope whose condition is met
``speak``              ``{language, listeners, content}``: a conversation ("Languages")
``draw``               ``{item}``: draw a weapon or item outside combat
``start_combat``       ``{targets, surprised}``: "Combat! three, two, one, START!"
``join``               ``{with}``: join a combat on ``with``'s side when "start" is called
``admit``              (referee) ``{character, with}``: let someone into a running combat
``use_mind``           rank by Mind this round ("Mixing Mental and Normal Combat")
``declare``            ``{action, target, item, ability, group, bonus}``: a Combat Action
``resolve``            ``{combat}``: resolve the next place in initiative order
``next_round``         ``{combat}``: begin the next round
``escape``             the escape roll, at the end of a round ("Escaping Combat")
``end_combat``         (referee) ``{combat, reason}``
``mental_attack``      ``{target, ability}``: an unnoticed mental attack ("Mental Combat")
``revive``             ``{target}``: a Medicine roll of 14 or more wakes them ("Taking Damage")
``slay``               ``{target}``: the victor's way with a Knocked Out character
=====================  ========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import (
    EVERYONE,
    REFEREE,
    REFEREE_ONLY,
    Action,
    ActorId,
    Event,
    Json,
    JsonObject,
    Procedure,
    RuleError,
    Secret,
    Total,
    Viewer,
    cancel_timer,
    format_time,
    only,
    register_system,
    set_timer,
)
from referee.dice import DiceSource
from referee.systems.intrigue import combat as fight
from referee.systems.intrigue.characters import ENGLISH, MEDICINE, PERCEPTION, Character
from referee.systems.intrigue.envelopes import ConditionKind, envelopes_handed_over
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.game import load_game
from referee.systems.intrigue.rules import (
    DICE,
    PERCEPTION_COOLDOWN,
    attack_check,
    attack_target_number,
    envelope_odds,
    medicine_check,
    opposed_skill_check,
    skill_check,
)
from referee.systems.intrigue.state import IntrigueState

__all__ = ["PROCEDURE", "Intrigue", "format_duration", "game_json"]

REFEREE_ACTIONS = ("admit", "resolve", "next_round", "end_combat")


def format_duration(seconds: int) -> str:
    """A span of game time for a person.

    >>> format_duration(600), format_duration(75), format_duration(0)
    ('10m00s', '1m15s', '0m00s')
    """
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes}m{rest:02d}s"


def _refuse(rule: str, reason: str) -> RuleError:
    return RuleError(rule, reason)


def _ref(state: IntrigueState, params: Mapping[str, Any], key: str) -> Character:
    value = params.get(key)
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise _refuse("Character Badges", f"give {key!r}: a character id or number")
    return state.character(str(value))


class Intrigue(Procedure[IntrigueState]):
    """Intrigue in the Clouds: one table for the whole evening."""

    def initial_state(self, setup: Mapping[str, Any]) -> IntrigueState:
        """The evening from the game file (see :func:`~referee.systems.intrigue.game.load_game`)."""
        return load_game(setup)

    def initial_events(self, state: IntrigueState) -> Sequence[Event]:
        """Timers for "Open at nine o'clock": each tells its holder alone, at that time."""
        events = []
        for envelope in state.contingency_envelopes:
            if envelope.condition.kind is ConditionKind.AT and envelope.condition.at is not None:
                told = Event(
                    "contingency.openable",
                    {"holder": envelope.holder, "envelopes": [envelope.id], "why": "time"},
                    audience=only(envelope.holder),
                )
                events.append(
                    set_timer(f"contingency:{envelope.id}", told, at=envelope.condition.at)
                )
        return events

    def actors(self, state: IntrigueState) -> Sequence[ActorId]:
        """Every character, and the referee."""
        return (*(c.id for c in state.characters), REFEREE)

    def legal_actions(self, state: IntrigueState, actor: ActorId) -> Sequence[Action]:
        """Representative actions: perception checks off cooldown, combat starts, declarations."""
        if actor == REFEREE:
            return tuple(Action(actor, "resolve", {"combat": c.id}) for c in state.running)
        if not state.has_character(actor):
            return ()
        me = state.character(actor)
        if not state.status(me.id).can_act:
            return ()
        others = [c for c in state.characters if c.id != me.id]
        combat = state.combat_of(me.id)
        if combat is not None:
            return tuple(
                Action(me.id, "declare", {"action": kind}) for kind in ("defend", "scream", "hold")
            ) + tuple(
                Action(me.id, "declare", {"action": "attack", "target": c})
                for c in combat.participants
                if c != me.id and state.is_active(combat, c)
            )
        actions = [
            Action(me.id, "perceive", {"target": o.id})
            for o in others
            if state.cooldown_until(me.id, o.id) is None
        ]
        actions += [
            Action(me.id, "start_combat", {"targets": [o.id]})
            for o in others
            if state.status(o.id).can_act and state.combat_of(o.id) is None
        ]
        return tuple(actions)

    # -- decide --------------------------------------------------------------------------

    def decide(self, state: IntrigueState, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events ``action`` causes, or :class:`RuleError` with the rule that refuses it."""
        params = action.params
        kind = action.kind
        if action.actor == REFEREE:
            return self._referee(state, kind, params, dice)
        me = state.character(action.actor)
        if state.status(me.id).dead:
            raise _refuse("Taking Damage", f"{me.id} is dead")
        if kind == "resolve":
            combat = state.combat_of(me.id)
            if combat is None:
                raise _refuse("Combat rules", f"{me.id} is not in a combat")
            return fight.resolve(state, combat.id, dice)
        if kind == "next_round":
            combat = state.combat_of(me.id)
            if combat is None:
                raise _refuse("Combat rules", f"{me.id} is not in a combat")
            return fight.next_round(state, combat.id)
        if not state.status(me.id).can_act:
            raise _refuse("Taking Damage", f"{me.id} is Knocked Out")
        if kind == "perceive":
            return self._perceive(state, me, params, dice, action.at)
        handler = getattr(self, f"_do_{kind}", None)
        if handler is None:
            raise _refuse("Intrigue actions", f"no action {kind!r}")
        events: Sequence[Event] = handler(state, me, params, dice)
        return events

    def _referee(
        self, state: IntrigueState, kind: str, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        if kind not in REFEREE_ACTIONS:
            raise _refuse("Referee", f"the referee's actions are {', '.join(REFEREE_ACTIONS)}")
        if kind == "admit":
            who = _ref(state, params, "character")
            ally = _ref(state, params, "with")
            return fight.admit(state, who.id, ally.id)
        combat_id = params.get("combat")
        if combat_id is None:
            running = state.running
            if len(running) != 1:
                raise _refuse("Combat rules", f"name the combat: {len(running)} are running")
            combat_id = running[0].id
        if kind == "end_combat":
            return fight.end_combat(state, str(combat_id), str(params.get("reason", "referee")))
        if kind == "next_round":
            return fight.next_round(state, str(combat_id))
        return fight.resolve(state, str(combat_id), dice)

    # -- perception, skills ------------------------------------------------------------

    def _perceive(
        self,
        state: IntrigueState,
        me: Character,
        params: Mapping[str, Any],
        dice: DiceSource,
        now: int | None,
    ) -> list[Event]:
        """ "Roll your dice, add your Perception Skill and tell the player your total"."""
        target = _ref(state, params, "target")
        if target.id == me.id:
            raise _refuse("Perception Envelopes", "a character cannot perceive themselves")
        until = state.cooldown_until(me.id, target.id)
        if until is not None:
            left = "" if now is None else f" ({format_duration(until - now)} left)"
            raise _refuse(
                "Perception Envelopes",
                f"{me.id} checked {target.id} less than 15 minutes ago: "
                f"the next check may be made at {format_time(until, state.start)}{left}",
            )
        perception = me.skill(PERCEPTION)
        envelopes = state.envelopes_of(target.id)
        chances = envelope_odds(perception, envelopes, me.number)
        total, rolled = Total(DICE, perception).roll(dice)
        handed = envelopes_handed_over(envelopes, me.number, total)
        # "tell the player your total": the holder learns the total and hands the envelopes
        # over; the perceiver's skill and dice are theirs; the odds before the roll the referee's.
        payload: dict[str, Json] = {
            "perceiver": me.id,
            "target": target.id,
            "total": total,
            "envelopes": [{"id": e.id, "label": e.label} for e in handed],
        }
        secrets = [
            Secret("perception", perception, only(me.id)),
            Secret("faces", [d.face for d in rolled.dice], only(me.id)),
            Secret("chances", {k: str(v) for k, v in chances.items()}, REFEREE_ONLY),
        ]
        if handed:
            secrets.append(
                Secret(
                    "contents",
                    {e.id: {"contents": e.contents, "directions": e.directions} for e in handed},
                    only(me.id),
                )
            )
        ready = Event(
            "perception.ready", {"perceiver": me.id, "target": target.id}, audience=only(me.id)
        )
        return [
            Event(
                "perception.made",
                payload,
                audience=only(me.id, target.id),
                secrets=tuple(secrets),
            ),
            set_timer(f"perception:{me.id}:{target.id}", ready, after=PERCEPTION_COOLDOWN),
        ]

    def _do_roll(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """ "roll 3d6 and add their sum to your skill value" against a Target Number that "may be
        a fixed number or a roll + skill value from another character" ("Skill Rolls")."""
        skill = params.get("skill")
        ability_name = params.get("ability")
        if (skill is None) == (ability_name is None):
            raise _refuse("Skill Rolls", "give exactly one of 'skill' and 'ability'")
        for key in ("skill", "ability", "against_skill"):
            if key in params and not isinstance(params[key], str):
                raise _refuse("Skill Rolls", f"{key} is a name, not {params[key]!r}")
        if skill is not None:
            name = str(skill)
            value = me.skill(name)
        else:
            ability = me.ability(str(ability_name))
            if ability is None:
                raise _refuse("Skill Rolls", f"{me.id} has no special ability {ability_name!r}")
            name = ability.name
            value = ability.value or 0
        payload: dict[str, Json] = {"character": me.id, "skill": name}
        secrets = [Secret("value", value, only(me.id))]
        target = params.get("target")
        against = params.get("against")
        if (target is None) == (against is None):
            raise _refuse("Skill Rolls", "give exactly one of 'target' and 'against'")
        if target is not None:
            if isinstance(target, bool) or not isinstance(target, int):
                raise _refuse("Skill Rolls", f"a Target Number is a whole number, not {target!r}")
            check = skill_check(value, target)
            result = check.roll(dice)
            payload["target"] = target
            audience = only(me.id)
            chance = check.odds().success
        else:
            other = _ref(state, params, "against")
            their = str(params.get("against_skill", name))
            their_value = other.skill(their)
            opposed = opposed_skill_check(value, their_value)
            result = opposed.roll(dice)
            payload |= {
                "against": other.id,
                "against_skill": their,
                "against_total": result.opponent_value,
            }
            secrets.append(Secret("against_value", their_value, only(other.id)))
            audience = only(me.id, other.id)
            chance = opposed.odds().success
        # each tells the other their total; skill values and the odds stay private
        secrets.append(Secret("chance", str(chance), REFEREE_ONLY))
        payload |= {"total": result.value, "faces": list(result.faces)}
        payload["success"] = result.is_success
        return [Event("skill.rolled", payload, audience=audience, secrets=tuple(secrets))]

    # -- contingency envelopes ---------------------------------------------------------

    def _openable_now(self, state: IntrigueState, me: Character, ids: list[str], why: str) -> Event:
        return Event(
            "contingency.openable",
            {"holder": me.id, "envelopes": ids, "why": why},
            audience=only(me.id),
        )

    def _do_report(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """The holder reports an event ("Open if shot"); they are told which envelopes open."""
        happened = params.get("event")
        if not isinstance(happened, str) or not happened:
            raise _refuse("Contingency Envelopes", "say what happened: {event: shot}")
        ids = [
            e.id
            for e in state.contingency_envelopes
            if e.holder == me.id
            and e.id not in state.openable
            and e.condition.met_by_event(happened)
        ]
        return [self._openable_now(state, me, ids, f"event: {happened}")]

    def _do_encounter(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """The holder saw, met or talked to character N ("Open if you see character 53" is
        different from "Open if you talk to character 53")."""
        other = _ref(state, params, "character")
        if other.id == me.id:
            raise _refuse("Contingency Envelopes", "a character does not meet themselves")
        how_text = params.get("how", "meet")
        try:
            how = ConditionKind(how_text)
        except ValueError:
            how = ConditionKind.AT
        if how not in (ConditionKind.SEE, ConditionKind.MEET, ConditionKind.TALK):
            raise _refuse("Contingency Envelopes", f"how is see, meet or talk, not {how_text!r}")
        ids = [
            e.id
            for e in state.contingency_envelopes
            if e.holder == me.id
            and e.id not in state.openable
            and e.condition.met_by_encounter(other.number, how)
        ]
        return [self._openable_now(state, me, ids, f"{how.value} {other.number}")]

    def _do_open(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """Open a Contingency Envelope: "You are on your honour only to open them if the
        condition is met"; the contents are the holder's alone."""
        envelope = state.contingency(str(params.get("envelope")))
        if envelope.holder != me.id:
            raise _refuse("Contingency Envelopes", f"{envelope.id} is not {me.id}'s envelope")
        if envelope.id not in state.openable:
            raise _refuse(
                "Contingency Envelopes",
                f"{envelope.id} is only to be opened when its condition is met: "
                f"{envelope.condition.label}",
            )
        return [
            Event(
                "envelope.opened",
                {"holder": me.id, "envelope": envelope.id, "label": envelope.condition.label},
                audience=only(me.id),
                secrets=(Secret("contents", envelope.contents, only(me.id)),),
            )
        ]

    # -- languages ---------------------------------------------------------------------

    def _do_speak(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """ "Only people who also understand that language may approach you to hear what you are
        saying" ("Languages"): the content reaches only those who follow it."""
        language = params.get("language")
        if not isinstance(language, str) or not me.can_follow(language):
            raise _refuse("Languages", f"{me.id} does not speak {language!r}")
        listeners_raw = params.get("listeners") or []
        if not isinstance(listeners_raw, list):
            raise _refuse("Languages", "listeners is a list of characters")
        listeners = [state.character(str(x)) for x in listeners_raw]
        followers = [c.id for c in listeners if c.can_follow(language) and c.id != me.id]
        audience = only(me.id, *followers)
        return [
            Event(
                "conversation.held",
                {"speaker": me.id, "language": language, "listeners": [c.id for c in listeners]},
                audience=EVERYONE,
                secrets=(
                    Secret("followed_by", followers, audience),
                    Secret("content", str(params.get("content", "")), audience),
                ),
            )
        ]

    # -- combat ------------------------------------------------------------------------

    def _do_draw(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        if state.combat_of(me.id) is not None:
            raise _refuse("Combat Actions", "in combat, Draw a Weapon or Item is your Action")
        item = params.get("item")
        if not isinstance(item, str) or me.item(item) is None:
            raise _refuse("Draw a Weapon or Item", f"{me.id} has no item card {item!r}")
        return [Event("item.drawn", {"character": me.id, "item": item})]

    def _do_start_combat(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        raw = params.get("targets")
        if raw is None and "target" in params:
            raw = [params["target"]]
        if not isinstance(raw, list):
            raise _refuse("Starting Combat", "point at your targets: {targets: [..]}")
        targets = [state.character(str(t)).id for t in raw]
        raw_surprised = params.get("surprised") or []
        if not isinstance(raw_surprised, list):
            raise _refuse("Surprise", "surprised is a list of targets: {surprised: [..]}")
        surprised = [state.character(str(t)).id for t in raw_surprised]
        return fight.start_combat(state, me.id, targets, surprised)

    def _do_join(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        return fight.join(state, me.id, _ref(state, params, "with").id)

    def _do_use_mind(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        return fight.use_mind(state, me.id)

    def _do_declare(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        kind = params.get("action")
        if not isinstance(kind, str):
            raise _refuse("Combat Actions", "declare {action: attack | grab | ...}")
        return fight.declare(state, me.id, kind, params, dice)

    def _do_escape(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        return fight.escape(state, me.id, dice)

    def _do_mental_attack(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """An unnoticed mental attack: "no need to declare combat ... Simply take the target
        character to one side, resolve the outcome" ("Mental Combat"). Only the two characters
        (and the referee) see it."""
        target = _ref(state, params, "target")
        ability = me.ability(str(params.get("ability")))
        if ability is None or not ability.mental:
            raise _refuse(
                "Mental Combat",
                f"{me.id} has no Special Ability for Mental Combat {params.get('ability')!r}",
            )
        if ability.obvious:
            raise _refuse(
                "Mixing Mental and Normal Combat",
                f"{ability.name} is an obvious mental attack: the Attacker must declare combat",
            )
        if ability.damage:
            raise _refuse(
                "Mixing Mental and Normal Combat",
                f"{ability.name} does damage: fight it as a combat (ruling)",
            )
        if target.id == me.id:
            raise _refuse("Mental Combat", "a character cannot attack themselves")
        if state.combat_of(me.id) is not None or state.combat_of(target.id) is not None:
            raise _refuse("Mental Combat", "in a combat, declare it as a Combat Action")
        number = ability.target if ability.target is not None else attack_target_number(target.mind)
        check = attack_check(me.mind, number)
        result = check.roll(dice)
        payload: dict[str, Json] = {
            "attacker": me.id,
            "target": target.id,
            "ability": ability.name,
            "modifier": me.mind,
            "target_number": number,
            "chance": str(check.odds().success),
            "total": result.value,
            "faces": list(result.faces),
            "hit": result.is_success,
        }
        if result.is_success:
            payload["effect"] = ability.effect or ability.description
        return [Event("mental.attacked", payload, audience=only(me.id, target.id))]

    # -- after a combat ----------------------------------------------------------------

    def _knocked_out_after(self, state: IntrigueState, target: Character, what: str) -> None:
        status = state.status(target.id)
        if not status.knocked_out or status.wake_due is None:
            raise _refuse(
                "Taking Damage", f"{target.id} is not Knocked Out after a combat ({what})"
            )

    def _do_revive(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """ "Knocked Out Characters can be awakened with a Medicine roll of 14 or more"."""
        target = _ref(state, params, "target")
        self._knocked_out_after(state, target, "Medicine wakes the Knocked Out")
        if not me.has_skill(MEDICINE):
            raise _refuse("Taking Damage", f"{me.id} has no Medicine skill")
        if state.combat_of(me.id) is not None:
            raise _refuse("Combat Actions", f"{me.id} is in a combat")
        check = medicine_check(me.skill(MEDICINE))
        result = check.roll(dice)
        events = [
            Event(
                "medicine.rolled",
                {
                    "character": me.id,
                    "target": target.id,
                    "medicine": me.skill(MEDICINE),
                    "chance": str(check.odds().success),
                    "total": result.value,
                    "faces": list(result.faces),
                    "success": result.is_success,
                },
            )
        ]
        if result.is_success:
            status = state.status(target.id)
            events += [
                cancel_timer(f"wake:{target.id}"),
                Event(
                    "character.woke",
                    {"character": target.id, "how": "medicine"},
                    secrets=(
                        Secret("wounds", status.pending_wounds, only(target.id)),
                        Secret(
                            "stamina",
                            state.stamina(target.id) - status.pending_wounds,
                            only(target.id),
                        ),
                    ),
                ),
            ]
        return events

    def _do_slay(
        self, state: IntrigueState, me: Character, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        """ "In the meantime, the victor can have his or her way with them (search them, rob
        them, slit their throats…)"."""
        target = _ref(state, params, "target")
        self._knocked_out_after(state, target, "only the Knocked Out are at the victor's mercy")
        if state.combat_of(me.id) is not None:
            raise _refuse("Combat Actions", f"{me.id} is in a combat")
        return [
            cancel_timer(f"wake:{target.id}"),
            Event("character.died", {"character": target.id, "by": me.id}),
        ]

    # -- fold and views ----------------------------------------------------------------

    def evolve(self, state: IntrigueState, event: Event) -> IntrigueState:
        """Fold one event (:func:`referee.systems.intrigue.evolve.evolve`)."""
        return evolve(state, event)

    def state_json(self, state: IntrigueState) -> dict[str, Any]:
        """Everything, as the referee sees it (what ``expect: path`` reads)."""
        return game_json(state, None)

    def visible_state(self, state: IntrigueState, viewer: Viewer) -> JsonObject | None:
        """The referee sees all; a player their own characters' sheets and envelopes' outsides
        (never the contents of their own Perception Envelopes), others' badges, and combats."""
        return game_json(state, None if viewer.is_referee else viewer.identities)


def _character_json(state: IntrigueState, c: Character) -> dict[str, Json]:
    status = state.status(c.id)
    return {
        "name": c.name,
        "number": c.number,
        "combat": c.combat,
        "strength": c.strength,
        "stamina": state.stamina(c.id),
        "stamina_stat": c.stamina,
        "mind": c.mind,
        "wounds": c.wounds,
        "wounds_marked": status.wounds_marked,
        "wounds_left": c.wounds - status.wounds_marked,
        "damage": status.damage,
        "knocked_out": status.knocked_out,
        "wake_due": status.wake_due,
        "wakes_at": None if status.wake_due is None else format_time(status.wake_due, state.start),
        "pending_wounds": status.pending_wounds,
        "dead": status.dead,
        "drawn": status.drawn,
        "skills": dict(c.skills),
        "languages": ([ENGLISH] if c.speaks_english else []) + list(c.languages),
        "abilities": [a.name for a in c.abilities],
        "items": [i.name for i in c.items],
    }


def game_json(state: IntrigueState, identities: frozenset[str] | None) -> dict[str, Any]:
    """The state as JSON: everything when ``identities`` is ``None`` (the referee), otherwise
    what a viewer who is those characters may see."""
    everything = identities is None
    mine = identities or frozenset()
    characters: dict[str, Any] = {}
    for c in state.characters:
        if everything or c.id in mine:
            characters[c.id] = _character_json(state, c)
        else:
            status = state.status(c.id)
            characters[c.id] = {
                "name": c.name,
                "number": c.number,
                "knocked_out": status.knocked_out,
                "dead": status.dead,
            }
    perception: dict[str, Any] = {}
    for p in state.perception_envelopes:
        if everything:
            perception[p.id] = {
                "holder": p.holder,
                "label": p.label,
                "contents": p.contents,
                "directions": p.directions,
            }
        elif p.holder in mine:
            perception[p.id] = {"holder": p.holder, "label": p.label}
    contingency: dict[str, Any] = {}
    for e in state.contingency_envelopes:
        if everything or e.holder in mine:
            entry: dict[str, Any] = {
                "holder": e.holder,
                "label": e.condition.label,
                "openable": e.id in state.openable,
                "opened": e.id in state.opened,
            }
            if everything or e.id in state.opened:
                entry["contents"] = e.contents
            contingency[e.id] = entry
    cooldowns = [
        {"perceiver": a, "target": b, "until": format_time(until, state.start), "due": until}
        for a, b, until in state.cooldowns
        if everything or a in mine
    ]
    combats: dict[str, Any] = {}
    for combat in state.combats:
        combats[combat.id] = {
            "starter": combat.starter,
            "sides": {c: s for c, s in combat.sides},
            "surprised": sorted(combat.surprised),
            "round": combat.round,
            "ended": combat.ended,
            "in_round": combat.in_round,
            "declarations": {
                d.actor: {"action": d.kind, "target": d.target, "resolved": d.resolved}
                for d in combat.declarations
            },
            "holds": {h.held: h.holder for h in combat.holds},
            "streaks": dict(combat.streaks),
            "escaped": sorted(combat.escaped),
            "pending": list(fight.pending_declarers(state, combat)) if combat.in_round else [],
        }
    return {
        "start": state.start,
        "characters": characters,
        "perception_envelopes": perception,
        "contingency_envelopes": contingency,
        "cooldowns": cooldowns,
        "combats": combats,
    }


PROCEDURE = Intrigue()
register_system("intrigue", PROCEDURE)
