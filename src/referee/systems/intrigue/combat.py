"""Combat: declaring it, initiative, the actions, escaping, groups, damage and knock-out.

Rules text (Intrigue in the Clouds), "Combat rules" to "Taking Damage", "Mixing Mental and Normal
Combat"; RULINGS.md, "Intrigue in the Clouds". Each function takes the state and returns the
events an action causes (or raises :class:`RuleError`); :mod:`~referee.systems.intrigue.evolve`
folds them. A round has two phases (RULINGS): every participant declares, in initiative order,
then ``resolve`` resolves the declarations place by place, ties simultaneously.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import (
    EVERYONE,
    Event,
    Json,
    OpposedCheck,
    RuleError,
    Secret,
    TargetCheck,
    only,
    set_timer,
)
from referee.dice import DiceSource
from referee.systems.intrigue.characters import Ability, CharacterId
from referee.systems.intrigue.evolve import fold
from referee.systems.intrigue.rules import (
    DEFENSIVE_BONUS,
    ESCAPE_DEFENSIVE_ACTIONS,
    GROUP_LIMIT,
    RECOVERY_TIME,
    SCREAM_BONUS_LIMIT,
    SURPRISE_BONUS,
    attack_check,
    attack_target_number,
    break_free_check,
    escape_check,
    group_attack,
    is_knocked_out,
    squeeze_damage,
    wounds_taken,
)
from referee.systems.intrigue.state import ACTIONS, Combat, Declaration, IntrigueState

__all__ = [
    "FIRST",
    "PlannedAttack",
    "admit",
    "declare",
    "end_combat",
    "escape",
    "escape_plan",
    "initiative_rank",
    "join",
    "next_round",
    "pending_declarers",
    "plan_attack",
    "preview",
    "resolve",
    "rolls_of",
    "start_combat",
    "use_mind",
    "validate",
]

RULE = "Combat rules"
FIRST = 1000
"""The rank of the character who started the combat, in round 1: "goes first" ("Initiative")."""


def _e(kind: str, payload: Mapping[str, Json]) -> Event:
    return Event(kind, dict(payload), audience=EVERYONE)


def _refuse(rule: str, reason: str) -> RuleError:
    return RuleError(f"{RULE}: {rule}", reason)


# -- declaring combat ---------------------------------------------------------------------


def start_combat(
    state: IntrigueState,
    starter: CharacterId,
    targets: Sequence[CharacterId],
    surprised: Sequence[CharacterId] = (),
) -> list[Event]:
    """ "point at the character, or characters, your character is attacking, and shout Combat"
    ("Starting Combat"). ``surprised``: the targets who agree they are surprised ("The
    surprised character is the judge")."""
    if not state.status(starter).can_act:
        raise _refuse("Starting Combat", f"{starter} is out of action")
    if state.combat_of(starter) is not None:
        raise _refuse("Starting Combat", f"{starter} is already in a combat")
    if not targets:
        raise _refuse("Starting Combat", "point at the character, or characters, you attack")
    if len(set(targets)) != len(targets) or starter in targets:
        raise _refuse("Starting Combat", f"targets must be other characters, once: {targets!r}")
    for target in targets:
        status = state.status(target)
        if status.dead or status.knocked_out:
            raise _refuse("Starting Combat", f"{target} is out of action")
        if state.combat_of(target) is not None:
            raise _refuse("Starting Combat", f"{target} is already in a combat")
    for who in surprised:
        if who not in targets:
            raise _refuse("Surprise", f"only a target can be surprised, not {who}")
    number = len(state.combats) + 1
    return [
        _e(
            "combat.started",
            {
                "combat": f"combat-{number}",
                "starter": starter,
                "targets": list(targets),
                "surprised": list(surprised),
            },
        )
    ]


def _side_with(state: IntrigueState, combat: Combat, ally: CharacterId) -> int:
    side = combat.side_of(ally)
    if side is None:
        raise _refuse("Starting Combat", f"{ally} is not in {combat.id}")
    return side


def join(state: IntrigueState, character: CharacterId, ally: CharacterId) -> list[Event]:
    """ "When you shout Start, anyone in the reasonable vicinity can declare that they are part
    of the combat, unless ... you have surprised your target(s)"; they join ``ally``'s side.
    "No-one else may join the combat until it has been resolved" (:func:`admit` for the referee).
    """
    combat = state.combat_of(ally)
    if combat is None:
        raise _refuse("Starting Combat", f"{ally} is not in a combat")
    if combat.is_surprise:
        raise _refuse(
            "Starting Combat", f"{combat.id} is a surprise: only the attacker and targets take part"
        )
    if combat.round > 0:
        raise _refuse(
            "Starting Combat",
            f"{combat.id} is under way: no-one else may join unless a referee rules otherwise",
        )
    return _joined(state, combat, character, _side_with(state, combat, ally))


def admit(state: IntrigueState, character: CharacterId, ally: CharacterId) -> list[Event]:
    """The referee lets ``character`` into a running combat on ``ally``'s side ("unless a
    referee rules otherwise")."""
    combat = state.combat_of(ally)
    if combat is None:
        raise _refuse("Starting Combat", f"{ally} is not in a combat")
    return _joined(state, combat, character, _side_with(state, combat, ally))


def _joined(state: IntrigueState, combat: Combat, who: CharacterId, side: int) -> list[Event]:
    if not state.status(who).can_act:
        raise _refuse("Starting Combat", f"{who} is out of action")
    if who in combat.escaped:
        raise _refuse("Escaping Combat", f"{who} escaped and may not rejoin until it is resolved")
    if state.combat_of(who) is not None:
        raise _refuse("Starting Combat", f"{who} is already in a combat")
    return [_e("combat.joined", {"combat": combat.id, "character": who, "side": side})]


# -- initiative ---------------------------------------------------------------------------


def _can_declare(state: IntrigueState, combat: Combat, who: CharacterId) -> bool:
    surprised_now = combat.round == 1 and who in combat.surprised
    return state.is_active(combat, who) and not surprised_now


def initiative_rank(state: IntrigueState, combat: Combat, who: CharacterId) -> int:
    """Where ``who`` acts this round: the starter first in round 1, then by Combat Stat (halved
    while Holding or Held), or by Mind for a character using a mental ability ("Initiative",
    "Mixing Mental and Normal Combat")."""
    if combat.round == 1 and who == combat.starter:
        return FIRST
    if who in combat.by_mind:
        return state.character(who).mind
    return state.effective_combat(combat, who)


def pending_declarers(state: IntrigueState, combat: Combat) -> tuple[CharacterId, ...]:
    """Who has still to declare this round, highest rank first (ties in joining order)."""
    waiting = [
        c
        for c in combat.participants
        if _can_declare(state, combat, c) and combat.declaration(c) is None
    ]
    return tuple(sorted(waiting, key=lambda c: -initiative_rank(state, combat, c)))


def _round_start(state: IntrigueState, combat: Combat) -> tuple[IntrigueState, Combat, list[Event]]:
    if combat.in_round:
        return state, combat, []
    events = [_e("combat.round_started", {"combat": combat.id, "round": combat.round + 1})]
    state = fold(state, events)
    return state, state.combat(combat.id), events


def _my_combat(state: IntrigueState, who: CharacterId) -> Combat:
    combat = state.combat_of(who)
    if combat is None:
        raise _refuse("Combat Actions", f"{who} is not in a combat")
    return combat


def next_round(state: IntrigueState, combat_id: str) -> list[Event]:
    """Begin the next round (a declaration or ``use_mind`` also begins it)."""
    combat = state.combat(combat_id)
    if combat.ended:
        raise _refuse("Initiative", f"{combat.id} is over")
    if combat.in_round:
        raise _refuse("Initiative", f"round {combat.round} of {combat.id} is not over")
    return _round_start(state, combat)[2]


def use_mind(state: IntrigueState, who: CharacterId) -> list[Event]:
    """ "When using a mental combat ability in a normal combat, the Attacker determines
    initiative using the Mental Stat instead of the Combat Stat": said before the round's first
    declaration; the character's action that round must then be a mental ability."""
    combat = _my_combat(state, who)
    character = state.character(who)
    if not any(a.mental and a.in_combat for a in character.abilities):
        raise _refuse(
            "Mixing Mental and Normal Combat", f"{who} has no mental ability usable in combat"
        )
    state, combat, events = _round_start(state, combat)
    if combat.declarations:
        raise _refuse(
            "Initiative", f"declarations have begun in round {combat.round}: initiative is set"
        )
    if not _can_declare(state, combat, who):
        raise _refuse("Surprise", f"{who} has no action this round")
    if who in combat.held_at_start or who in combat.holding_at_start:
        raise _refuse("Break Free", f"{who} is Holding or Held: no mental ability this round")
    if who in combat.by_mind:
        raise _refuse("Initiative", f"{who} already ranks by Mind this round")
    return [*events, _e("combat.mind_used", {"combat": combat.id, "character": who})]


# -- declaring actions ----------------------------------------------------------------------


def _param_ref(state: IntrigueState, params: Mapping[str, Any], key: str) -> CharacterId:
    value = params.get(key)
    if not isinstance(value, str | int):
        raise _refuse("Combat Actions", f"name the {key} (a character id or number)")
    return state.character(str(value)).id


def validate(
    state: IntrigueState, combat: Combat, who: CharacterId, kind: str, params: Mapping[str, Any]
) -> dict[str, Json]:
    """The declaration's payload, or :class:`RuleError` naming the rule that forbids it."""
    if kind not in ACTIONS:
        raise _refuse("Combat Actions", f"no combat action {kind!r} (one of {', '.join(ACTIONS)})")
    if who in combat.held_at_start and kind not in ("break_free", "scream"):
        raise _refuse(
            "Break Free",
            f"{who} is Held: a Held Character can attempt no action other than Breaking Free "
            "or Screaming in Terror",
        )
    is_held = who in combat.held_at_start
    if (
        not is_held
        and who in combat.holding_at_start
        and kind not in ("squeeze", "throw", "release")
    ):
        raise _refuse(
            "Squeeze, Throw or Release",
            f"{who} is Holding {combat.held_by(who)}: Squeeze, Throw or Release (ruling)",
        )
    payload: dict[str, Json] = {"action": kind}
    mental = who in combat.by_mind
    if mental and kind not in ("attack", "hold"):
        raise _refuse(
            "Mixing Mental and Normal Combat",
            f"{who} ranks by Mind this round: use a mental ability",
        )
    if kind == "draw":
        item = params.get("item")
        if not isinstance(item, str) or state.character(who).item(item) is None:
            raise _refuse("Draw a Weapon or Item", f"{who} has no item card {item!r}")
        payload["item"] = item
    elif kind in ("attack", "grab"):
        target = _param_ref(state, params, "target")
        if target == who or not state.is_active(combat, target):
            raise _refuse(kind.capitalize(), f"{target} is not a target in {combat.id}")
        payload["target"] = target
        ability_name = params.get("ability")
        if ability_name is not None:
            ability = state.character(who).ability(str(ability_name))
            if kind != "attack" or ability is None or not ability.mental:
                raise _refuse("Mental Combat", f"{who} has no mental ability {ability_name!r}")
            if not ability.in_combat:
                raise _refuse(
                    "Mixing Mental and Normal Combat",
                    f"{ability.name} cannot be used during normal combat",
                )
            if not mental:
                raise _refuse(
                    "Mixing Mental and Normal Combat",
                    f"{who} must use_mind before the round's declarations to use {ability.name}",
                )
            payload["ability"] = ability.name
        elif mental:
            raise _refuse(
                "Mixing Mental and Normal Combat", f"{who} ranks by Mind: name the mental ability"
            )
        if kind == "grab" and combat.holder_of(target) is not None:
            raise _refuse("Grabbing", f"{target} is already Held")
        group = params.get("group") or []
        if not isinstance(group, list):
            raise _refuse("Multiple Attackers", "a group is a list of characters")
        members = [state.character(str(m)).id for m in group]
        if members:
            if ability_name is not None:
                raise _refuse("Multiple Attackers", "a group makes an Attack or Grab, not mental")
            if len(set(members)) != len(members) or who in members:
                raise _refuse("Multiple Attackers", f"each member once: {group!r}")
            if len(members) + 1 > GROUP_LIMIT:
                raise _refuse(
                    "Multiple Attackers", f"up to {GROUP_LIMIT} characters, not {len(members) + 1}"
                )
            waiting = pending_declarers(state, combat)
            for m in members:
                if combat.side_of(m) != combat.side_of(who):
                    raise _refuse("Multiple Attackers", f"{m} is not on {who}'s side")
                if m not in waiting or m in combat.by_mind:
                    raise _refuse("Multiple Attackers", f"{m} cannot join {who}'s action now")
                if m in combat.held_at_start or m in combat.holding_at_start:
                    raise _refuse("Multiple Attackers", f"{m} is Holding or Held")
            payload["group"] = list(members)
    elif kind in ("squeeze", "throw", "release"):
        held = combat.held_by(who)
        if who not in combat.holding_at_start or held is None:
            raise _refuse(
                "Squeeze, Throw or Release", f"{who} did not start the turn Holding a character"
            )
        payload["target"] = held
    elif kind == "break_free":
        if who not in combat.held_at_start:
            raise _refuse("Break Free", f"{who} was not Held at the start of the turn")
        payload["target"] = combat.holder_of(who)
    elif kind == "scream":
        bonus = params.get("bonus", 0)
        if not isinstance(bonus, int) or not 0 <= bonus <= SCREAM_BONUS_LIMIT:
            raise _refuse(
                "Screaming in Terror",
                f"the referee's bonus is 0 to {SCREAM_BONUS_LIMIT}, not {bonus!r}",
            )
        payload["bonus"] = bonus
    return payload


def declare(
    state: IntrigueState, who: CharacterId, kind: str, params: Mapping[str, Any], dice: DiceSource
) -> list[Event]:
    """Declare ``who``'s Combat Action for the round, in initiative order (RULINGS: each knows
    the declarations before theirs). A character who held their action declares it during the
    resolution, and it resolves at once ("A character can choose to hold their action")."""
    combat = _my_combat(state, who)
    state, combat, events = _round_start(state, combat)
    mine = combat.declaration(who)
    waiting = pending_declarers(state, combat)
    if mine is not None and mine.kind == "hold" and not mine.resolved and not waiting:
        if kind == "hold":
            raise _refuse("Initiative", f"{who} is already holding their action")
        payload = validate(state, combat, who, kind, params)
        rank = initiative_rank(state, combat, who)
        declared = _e(
            "combat.declared", {"combat": combat.id, "character": who, "rank": rank, **payload}
        )
        events.append(declared)
        state = fold(state, [declared])
        combat = state.combat(combat.id)
        decl = combat.declaration(who)
        assert decl is not None
        return events + _resolve_place(state, combat, [decl], dice)
    if mine is not None:
        raise _refuse("Initiative", f"{who} has already declared {mine.kind} this round")
    if who not in waiting:
        raise _refuse("Surprise", f"{who} does not get an action this round")
    rank = initiative_rank(state, combat, who)
    ahead = [c for c in waiting if initiative_rank(state, combat, c) > rank]
    if ahead:
        raise _refuse(
            "Initiative",
            f"{', '.join(ahead)} declare{'s' if len(ahead) == 1 else ''} before {who} "
            f"(Combat Stat, highest to lowest)",
        )
    payload = validate(state, combat, who, kind, params)
    events.append(
        _e("combat.declared", {"combat": combat.id, "character": who, "rank": rank, **payload})
    )
    return events


# -- resolving ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedAttack:
    """An Attack or Grab about to be rolled: who rolls, against what, and its check."""

    attackers: tuple[CharacterId, ...]
    leader: CharacterId
    target: CharacterId
    kind: str
    ability: Ability | None
    modifier: int
    target_number: int
    damage: int

    @property
    def check(self) -> TargetCheck:
        """The kernel check: 3d6 + modifier > Target Number."""
        return attack_check(self.modifier, self.target_number)

    def describe(self) -> str:
        """One line: who rolls what against what."""
        what = self.ability.name if self.ability is not None else self.kind
        return (
            f"{'+'.join(self.attackers)} {what} {self.target}: "
            f"3d6{self.modifier:+d} > {self.target_number}"
        )


def plan_attack(state: IntrigueState, combat: Combat, decl: Declaration) -> PlannedAttack:
    """The roll for an Attack, a Grab, a group's single roll or a mental attack ("Attacking",
    "Grabbing", "Multiple Attackers", "Mental Combat"), from the state before its place."""
    assert decl.target is not None
    target = decl.target
    defence = combat.declaration(target)
    defensive = defence is not None and defence.kind == "defend"
    scream = defence.bonus if defence is not None and defence.kind == "scream" else 0
    ability = state.character(decl.actor).ability(decl.ability) if decl.ability else None
    if ability is not None:
        mind = state.character(decl.actor).mind
        dodge = defensive and ability.can_be_dodged
        if ability.target is not None:
            # "adding his Mind Stat and subtracting three for ScarFace's dodge"
            modifier = mind - (DEFENSIVE_BONUS if dodge else 0)
            number = ability.target
        else:
            modifier = mind
            number = attack_target_number(state.character(target).mind, defensive=dodge)
        return PlannedAttack(
            (decl.actor,), decl.actor, target, "attack", ability, modifier, number, ability.damage
        )
    attackers = (decl.actor, *(m for m in decl.group if state.is_active(combat, m)))
    stats = [state.effective_combat(combat, m) for m in attackers]
    best, helpers = group_attack(stats)
    leader = attackers[stats.index(best)]
    surprise = (
        SURPRISE_BONUS
        if combat.round == 1 and combat.is_surprise and combat.starter in attackers
        else 0
    )
    number = attack_target_number(
        state.effective_combat(combat, target),
        grab=decl.kind == "grab",
        defensive=defensive,
        scream_bonus=scream,
    )
    drawn = state.status(leader).drawn
    weapon = state.character(leader).item(drawn) if drawn else None
    damage = (
        weapon.damage
        if weapon is not None and weapon.damage is not None
        else state.character(leader).strength
    )
    return PlannedAttack(
        attackers, leader, target, decl.kind, None, best + helpers + surprise, number, damage
    )


def _damage(state: IntrigueState, target: CharacterId, amount: int, how: str) -> list[Event]:
    """ "Each successful Attack does a fixed amount of damage"; knock-out ("Taking Damage")."""
    status = state.status(target)
    total = status.damage + amount
    out = is_knocked_out(single=amount, total=total, stamina=state.stamina(target))
    events = [
        _e(
            "damage.taken",
            {
                "character": target,
                "amount": amount,
                "total": total,
                "stamina": state.stamina(target),
                "by": how,
                "knocked_out": out,
            },
        )
    ]
    if out and not status.knocked_out:
        events.append(_e("character.knocked_out", {"character": target}))
    return events


def _lapse(combat: Combat, who: CharacterId, reason: str) -> Event:
    return _e("combat.action_lapsed", {"combat": combat.id, "character": who, "reason": reason})


def _resolve_one(
    base: IntrigueState,
    running: IntrigueState,
    combat: Combat,
    decl: Declaration,
    dice: DiceSource,
) -> list[Event]:
    who = decl.actor
    if not base.is_active(combat, who):
        return [_lapse(combat, who, f"{who} is out of the combat")]
    if combat.holder_of(who) is not None and who not in combat.held_at_start:
        return [_lapse(combat, who, f"{who} was grabbed: no further Actions that turn")]
    cid = combat.id
    if decl.kind == "draw":
        return [_e("item.drawn", {"combat": cid, "character": who, "item": decl.item})]
    if decl.kind in ("defend", "scream"):
        return [_e("combat.action_taken", {"combat": cid, "character": who, "action": decl.kind})]
    if decl.kind in ("attack", "grab"):
        assert decl.target is not None
        if not base.is_active(combat, decl.target):
            return [_lapse(combat, who, f"{decl.target} is out of the combat")]
        if decl.kind == "grab" and running.combat(combat.id).holder_of(decl.target) is not None:
            return [_lapse(combat, who, f"{decl.target} is already Held")]
        plan = plan_attack(base, combat, decl)
        result = plan.check.roll(dice)
        events = [
            _e(
                "attack.rolled",
                {
                    "combat": cid,
                    "action": plan.kind,
                    "attackers": list(plan.attackers),
                    "target": plan.target,
                    "ability": plan.ability.name if plan.ability else None,
                    "modifier": plan.modifier,
                    "target_number": plan.target_number,
                    "chance": str(plan.check.odds().success),
                    "total": result.value,
                    "faces": list(result.faces),
                    "hit": result.is_success,
                },
            )
        ]
        if result.is_success and plan.kind == "grab":
            events.append(
                _e("character.grabbed", {"combat": cid, "holder": who, "held": plan.target})
            )
        elif result.is_success and plan.damage > 0:
            how = plan.ability.name if plan.ability else (base.status(plan.leader).drawn or "hand")
            events += _damage(running, plan.target, plan.damage, how)
        if result.is_success and plan.ability is not None and plan.ability.effect:
            # "others can have more subtle effects when an Attack is successful"
            effect = {
                "combat": cid,
                "attacker": who,
                "target": plan.target,
                "ability": plan.ability.name,
                "effect": plan.ability.effect,
            }
            events.append(_e("mental.effect", effect))
        return events
    if decl.kind in ("squeeze", "throw", "release"):
        held = combat.held_by(who)
        if held is None:
            return [_lapse(combat, who, f"{who} holds nobody")]
        strength = base.character(who).strength
        events = []
        if decl.kind == "squeeze":
            events += _damage(running, held, squeeze_damage(strength), "squeeze")
        elif decl.kind == "throw":
            events += _damage(running, held, strength, "throw")
        if decl.kind != "squeeze":
            how = "thrown" if decl.kind == "throw" else "released"
            events.append(_e("hold.ends", {"combat": cid, "holder": who, "held": held, "how": how}))
        return events
    if decl.kind == "break_free":
        holder = combat.holder_of(who)
        if holder is None:
            return [_lapse(combat, who, f"{who} is no longer Held")]
        check = break_free_check(base.character(who).strength, base.character(holder).strength)
        result = check.roll(dice)
        events = [
            _e(
                "hold.break_free_rolled",
                {
                    "combat": cid,
                    "character": who,
                    "holder": holder,
                    "total": result.value,
                    "holder_total": result.opponent_value,
                    "chance": str(check.odds().success),
                    "faces": list(result.faces),
                    "broke_free": result.is_success,
                },
            )
        ]
        if result.is_success:
            events.append(
                _e("hold.ends", {"combat": cid, "holder": holder, "held": who, "how": "broke free"})
            )
        return events
    return [_lapse(combat, who, f"{decl.kind} lapsed")]


def _places(combat: Combat) -> list[Declaration]:
    return [d for d in combat.declarations if not d.resolved and d.kind not in ("hold", "group")]


def _resolve_place(
    state: IntrigueState, combat: Combat, decls: Sequence[Declaration], dice: DiceSource
) -> list[Event]:
    """Resolve declarations that act at the same time, all against the state before them."""
    events: list[Event] = []
    running = state
    for decl in decls:
        made = _resolve_one(state, running, combat, decl, dice)
        events += made
        running = fold(running, made)
    done = [d.actor for d in decls] + [m for d in decls for m in d.group]
    events.append(_e("combat.place_resolved", {"combat": combat.id, "characters": done}))
    running = fold(running, events[-1:])
    return events + _after_place(running, running.combat(combat.id))


def _active_sides(state: IntrigueState, combat: Combat) -> set[int]:
    return {s for c, s in combat.sides if state.is_active(combat, c)}


def _after_place(state: IntrigueState, combat: Combat) -> list[Event]:
    if len(_active_sides(state, combat)) < 2:
        return _round_end(state, combat) + aftermath(state, combat, "one side is out")
    unresolved = [d for d in combat.declarations if not d.resolved and d.kind != "group"]
    if not unresolved:
        return _round_end(state, combat)
    return []


def _round_end(state: IntrigueState, combat: Combat) -> list[Event]:
    """Streaks of unhit Defensive Actions, for escaping ("avoid being hit for two turns")."""
    streaks: dict[str, Json] = {}
    for who in combat.participants:
        if not state.is_active(combat, who):
            continue
        decl = combat.declaration(who)
        hit = any(a.hit for a in combat.attacks if a.round == combat.round and a.target == who)
        defended = decl is not None and decl.kind == "defend" and decl.resolved
        streaks[who] = combat.streak(who) + 1 if defended and not hit else 0
    return [
        _e("combat.round_ended", {"combat": combat.id, "round": combat.round, "streaks": streaks})
    ]


def aftermath(state: IntrigueState, combat: Combat, reason: str) -> list[Event]:
    """The combat ends: each Knocked Out character recovers 5 minutes later with their wounds
    ("Taking Damage"), or dies if every Wound would be marked (RULINGS)."""
    events = [_e("combat.ended", {"combat": combat.id, "reason": reason})]
    for who in combat.participants:
        status = state.status(who)
        if not status.knocked_out or status.dead:
            continue
        stamina = state.stamina(who)
        wounds = wounds_taken(total=status.damage, stamina=stamina)
        if status.wounds_marked + wounds >= state.character(who).wounds:
            events.append(_e("character.died", {"character": who, "wounds": wounds}))
            continue
        woke = Event(
            "character.woke",
            {"character": who, "how": "recovered"},
            audience=EVERYONE,
            secrets=(
                Secret("wounds", wounds, only(who)),
                Secret("stamina", stamina - wounds, only(who)),
            ),
        )
        events.append(set_timer(f"wake:{who}", woke, after=RECOVERY_TIME))
    return events


def resolve(state: IntrigueState, combat_id: str, dice: DiceSource) -> list[Event]:
    """Resolve the next place in initiative order (ties simultaneously, RULINGS); when only
    held actions are left, end the round (they lapse)."""
    combat = state.combat(combat_id)
    if combat.ended:
        raise _refuse("Initiative", f"{combat.id} is over")
    if not combat.in_round:
        raise _refuse("Initiative", f"{combat.id}: no round under way (declare, or next_round)")
    waiting = pending_declarers(state, combat)
    if waiting:
        raise _refuse("Initiative", f"{', '.join(waiting)} must declare first")
    places = _places(combat)
    if not places:
        return _round_end(state, combat)
    top = max(d.rank for d in places)
    return _resolve_place(state, combat, [d for d in places if d.rank == top], dice)


def preview(state: IntrigueState, combat_id: str) -> list[tuple[str, Any]]:
    """The rolls the next ``resolve`` makes, each with its check, before it is made."""
    combat = state.combat(combat_id)
    places = _places(combat) if combat.in_round and not pending_declarers(state, combat) else []
    if not places:
        return []
    top = max(d.rank for d in places)
    return rolls_of(state, combat, [d for d in places if d.rank == top])


def rolls_of(
    state: IntrigueState, combat: Combat, decls: Sequence[Declaration]
) -> list[tuple[str, Any]]:
    """The rolls resolving ``decls`` makes, each described, with its check."""
    rolls: list[tuple[str, Any]] = []
    for decl in decls:
        if decl.kind in ("attack", "grab") and decl.target is not None:
            if state.is_active(combat, decl.target) and state.is_active(combat, decl.actor):
                plan = plan_attack(state, combat, decl)
                rolls.append((plan.describe(), plan.check))
        elif decl.kind == "break_free":
            holder = combat.holder_of(decl.actor)
            if holder is not None:
                check = break_free_check(
                    state.character(decl.actor).strength, state.character(holder).strength
                )
                rolls.append((f"{decl.actor} breaks free of {holder}: 3d6+Str vs 3d6+Str", check))
    return rolls


# -- escaping and ending ----------------------------------------------------------------


def escape(state: IntrigueState, who: CharacterId, dice: DiceSource) -> list[Event]:
    """ "To escape a character must first succeed in two consecutive Defensive Actions ... and
    then beat their attacker with a 3d6 + Combat roll ... made at the end of the second
    consecutive turn" ("Escaping Combat"; RULINGS: the strongest who attacked in those rounds).
    """
    combat = _my_combat(state, who)
    if combat.in_round or combat.round == 0:
        raise _refuse("Escaping Combat", "the escape roll is made at the end of a round")
    if who in combat.escape_tried:
        raise _refuse("Escaping Combat", f"{who} has already tried to escape this round")
    if combat.streak(who) < ESCAPE_DEFENSIVE_ACTIONS:
        raise _refuse(
            "Escaping Combat",
            f"{who} has {combat.streak(who)} consecutive unhit Defensive Action(s), "
            f"not {ESCAPE_DEFENSIVE_ACTIONS}",
        )
    payload: dict[str, Json] = {"combat": combat.id, "character": who}
    plan = escape_plan(state, combat, who)
    if plan is None:
        events = [_e("escape.rolled", {**payload, "against": None, "escaped": True})]
    else:
        strongest, check = plan
        result = check.roll(dice)
        events = [
            _e(
                "escape.rolled",
                {
                    **payload,
                    "against": strongest,
                    "total": result.value,
                    "opponent_total": result.opponent_value,
                    "chance": str(check.odds().success),
                    "faces": list(result.faces),
                    "escaped": result.is_success,
                },
            )
        ]
    after = fold(state, events)
    combat = after.combat(combat.id)
    if len(_active_sides(after, combat)) < 2:
        events += aftermath(after, combat, f"{who} escaped")
    return events


def escape_plan(
    state: IntrigueState, combat: Combat, who: CharacterId
) -> tuple[CharacterId, OpposedCheck] | None:
    """Whom ``who`` must beat to escape, and the roll: the strongest (highest Combat Stat) still
    fighting of those who attacked them in the last two rounds; ``None`` if nobody did (ruling:
    then there is nobody to beat)."""
    recent = {
        a
        for attack in combat.attacks
        if attack.target == who and attack.round >= combat.round - 1
        for a in attack.attackers
        if state.is_active(combat, a)
    }
    if not recent:
        return None
    ordered = [c for c in combat.participants if c in recent]
    strongest = max(ordered, key=lambda c: state.character(c).combat)
    check = escape_check(
        state.effective_combat(combat, who), state.effective_combat(combat, strongest)
    )
    return strongest, check


def end_combat(state: IntrigueState, combat_id: str, reason: str) -> list[Event]:
    """The referee ends a combat (the players agree its outcome, or it is stopped)."""
    combat = state.combat(combat_id)
    if combat.ended:
        raise _refuse("Combat rules", f"{combat.id} is already over")
    return aftermath(state, combat, reason)
