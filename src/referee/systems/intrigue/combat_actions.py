"""Combat Actions: declaring them in initiative order, and resolving them place by place.

Rules text (Intrigue in the Clouds), "Combat Actions" (Attacking, Grabbing, Squeeze, Throw or
Release, Break Free, Defensive Action, Screaming in Terror), "Multiple Attackers", "Mental
Combat" and "Mixing Mental and Normal Combat" (a mental ability as a Combat Action); RULINGS.md:
each participant declares knowing the declarations before theirs; ties in order resolve
simultaneously; a Defensive Action counts for the whole round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core import ActionError, Event, Json, RollCard, TargetCheck
from referee.dice import DiceSource
from referee.systems.intrigue.actions import Declare
from referee.systems.intrigue.characters import Ability, CharacterId
from referee.systems.intrigue.damage import aftermath, damage
from referee.systems.intrigue.events import (
    ATTACK_ROLLED,
    CHARACTER_GRABBED,
    COMBAT_ACTION_LAPSED,
    COMBAT_ACTION_TAKEN,
    COMBAT_DECLARED,
    COMBAT_PLACE_RESOLVED,
    COMBAT_ROUND_ENDED,
    HOLD_BREAK_FREE_ROLLED,
    HOLD_ENDS,
    ITEM_DRAWN,
    MENTAL_EFFECT,
)
from referee.systems.intrigue.evolve import fold
from referee.systems.intrigue.rounds import (
    initiative_rank,
    my_combat,
    pending_declarers,
    refuse,
    round_start,
)
from referee.systems.intrigue.rules import (
    DEFENSIVE_BONUS,
    GROUP_LIMIT,
    SURPRISE_BONUS,
    attack_check,
    attack_target_number,
    break_free_check,
    group_attack,
    squeeze_damage,
)
from referee.systems.intrigue.state import Combat, Declaration, IntrigueState

__all__ = [
    "PlannedAttack",
    "active_sides",
    "declare",
    "plan_attack",
    "preview",
    "ranked_above",
    "resolve",
    "rolls_of",
    "validate",
]


_TAKES: dict[str, frozenset[str]] = {
    "draw": frozenset({"item"}),
    "attack": frozenset({"target", "ability", "group"}),
    "grab": frozenset({"target", "group"}),
    "scream": frozenset({"bonus"}),
}
"""The parameters each Combat Action takes besides ``action`` (the rest take none)."""


def validate(
    state: IntrigueState, combat: Combat, who: CharacterId, args: Declare
) -> dict[str, Json]:
    """The declaration's payload, or :class:`RuleError` naming the rule that forbids it."""
    kind = args.action
    given = args.model_fields_set - {"action"}
    extra = sorted(given - _TAKES.get(kind, frozenset()))
    if extra:
        takes = ", ".join(sorted(_TAKES.get(kind, ()))) or "nothing else"
        raise ActionError("declare", (extra[0],), f"{kind} takes no {extra[0]} (it takes: {takes})")
    if who in combat.held_at_start and kind not in ("break_free", "scream"):
        raise refuse(
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
        raise refuse(
            "Squeeze, Throw or Release",
            f"{who} is Holding {combat.held_by(who)}: Squeeze, Throw or Release (ruling)",
        )
    payload: dict[str, Json] = {"action": kind}
    mental = who in combat.by_mind
    if mental and kind not in ("attack", "hold"):
        raise refuse(
            "Mixing Mental and Normal Combat",
            f"{who} ranks by Mind this round: use a mental ability",
        )
    if kind == "draw":
        item = args.item
        if item is None or state.character(who).item(item) is None:
            raise refuse("Draw a Weapon or Item", f"{who} has no item card {item!r}")
        payload["item"] = item
    elif kind in ("attack", "grab"):
        if args.target is None:
            raise refuse("Combat Actions", "name the target (a character id or number)")
        target = state.character(str(args.target)).id
        if target == who or not state.is_active(combat, target):
            raise refuse(kind.capitalize(), f"{target} is not a target in {combat.id}")
        payload["target"] = target
        ability_name = args.ability
        if ability_name is not None:
            ability = state.character(who).ability(ability_name)
            if kind != "attack" or ability is None or not ability.mental:
                raise refuse("Mental Combat", f"{who} has no mental ability {ability_name!r}")
            if not ability.in_combat:
                raise refuse(
                    "Mixing Mental and Normal Combat",
                    f"{ability.name} cannot be used during normal combat",
                )
            if not mental:
                raise refuse(
                    "Mixing Mental and Normal Combat",
                    f"{who} must use_mind before the round's declarations to use {ability.name}",
                )
            payload["ability"] = ability.name
        elif mental:
            raise refuse(
                "Mixing Mental and Normal Combat", f"{who} ranks by Mind: name the mental ability"
            )
        if kind == "grab" and combat.holder_of(target) is not None:
            raise refuse("Grabbing", f"{target} is already Held")
        members = [state.character(str(m)).id for m in args.group]
        if members:
            if ability_name is not None:
                raise refuse("Multiple Attackers", "a group makes an Attack or Grab, not mental")
            if len(set(members)) != len(members) or who in members:
                raise refuse("Multiple Attackers", f"each member once: {args.group!r}")
            if len(members) + 1 > GROUP_LIMIT:
                raise refuse(
                    "Multiple Attackers", f"up to {GROUP_LIMIT} characters, not {len(members) + 1}"
                )
            waiting = pending_declarers(state, combat)
            for m in members:
                if combat.side_of(m) != combat.side_of(who):
                    raise refuse("Multiple Attackers", f"{m} is not on {who}'s side")
                if m not in waiting or m in combat.by_mind:
                    raise refuse("Multiple Attackers", f"{m} cannot join {who}'s action now")
                if m in combat.held_at_start or m in combat.holding_at_start:
                    raise refuse("Multiple Attackers", f"{m} is Holding or Held")
            payload["group"] = list(members)
    elif kind in ("squeeze", "throw", "release"):
        held = combat.held_by(who)
        if who not in combat.holding_at_start or held is None:
            raise refuse(
                "Squeeze, Throw or Release", f"{who} did not start the turn Holding a character"
            )
        payload["target"] = held
    elif kind == "break_free":
        if who not in combat.held_at_start:
            raise refuse("Break Free", f"{who} was not Held at the start of the turn")
        payload["target"] = combat.holder_of(who)
    elif kind == "scream":
        payload["bonus"] = args.bonus
    return payload


def ranked_above(combat: Combat, held: Declaration) -> list[CharacterId]:
    """Who still acts before a held action may be taken: every unresolved place ranked above
    the holder's ("hold their action until a later time": later, never earlier)."""
    return [
        d.actor
        for d in combat.declarations
        if not d.resolved and d.kind not in ("hold", "group") and d.rank > held.rank
    ]


def declare(state: IntrigueState, who: CharacterId, args: Declare, dice: DiceSource) -> list[Event]:
    """Declare ``who``'s Combat Action for the round, in initiative order (RULINGS: each knows
    the declarations before theirs). A character who held their action declares it during the
    resolution, and it resolves at once ("A character can choose to hold their action")."""
    combat = my_combat(state, who)
    state, combat, events = round_start(state, combat)
    mine = combat.declaration(who)
    waiting = pending_declarers(state, combat)
    kind = args.action
    if mine is not None and mine.kind == "hold" and not mine.resolved and not waiting:
        if kind == "hold":
            raise refuse("Initiative", f"{who} is already holding their action")
        ahead = ranked_above(combat, mine)
        if ahead:
            raise refuse(
                "Initiative",
                f"{who} holds their action until a later time: {', '.join(ahead)} "
                f"act{'s' if len(ahead) == 1 else ''} first (Combat Stat, highest to lowest)",
            )
        payload = validate(state, combat, who, args)
        rank = initiative_rank(state, combat, who)
        declared = Event(
            COMBAT_DECLARED, {"combat": combat.id, "character": who, "rank": rank, **payload}
        )
        events.append(declared)
        state = fold(state, [declared])
        combat = state.combat(combat.id)
        decl = combat.declaration(who)
        assert decl is not None
        return events + _resolve_place(state, combat, [decl], dice)
    if mine is not None:
        raise refuse("Initiative", f"{who} has already declared {mine.kind} this round")
    if who not in waiting:
        raise refuse("Surprise", f"{who} does not get an action this round")
    rank = initiative_rank(state, combat, who)
    ahead = [c for c in waiting if initiative_rank(state, combat, c) > rank]
    if ahead:
        raise refuse(
            "Initiative",
            f"{', '.join(ahead)} declare{'s' if len(ahead) == 1 else ''} before {who} "
            f"(Combat Stat, highest to lowest)",
        )
    payload = validate(state, combat, who, args)
    events.append(
        Event(COMBAT_DECLARED, {"combat": combat.id, "character": who, "rank": rank, **payload})
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
    names: Mapping[CharacterId, str] = field(default_factory=dict, compare=False)
    """The badge names of the characters, by id: what the card's label says."""

    @property
    def check(self) -> TargetCheck:
        """The kernel check: 3d6 + modifier > Target Number."""
        return attack_check(self.modifier, self.target_number)

    @property
    def label(self) -> str:
        """Who does what to whom, by name: ``ScarFace+Cat attack Krockin``."""
        what = self.ability.name if self.ability is not None else self.kind
        return f"{'+'.join(map(self._name, self.attackers))} {what} {self._name(self.target)}"

    def _name(self, who: CharacterId) -> str:
        return self.names.get(who, who)

    @property
    def rule(self) -> str:
        """The section of the text the roll follows."""
        if self.ability is not None:
            return "Mental Combat"
        if len(self.attackers) > 1:
            return "Multiple Attackers"
        return "Grabbing" if self.kind == "grab" else "Attacking"

    def describe(self) -> str:
        """One line: who rolls what against what."""
        return f"{self.label}: 3d6{self.modifier:+d} > {self.target_number}"


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
            (decl.actor,),
            decl.actor,
            target,
            "attack",
            ability,
            modifier,
            number,
            ability.damage,
            names=state.names(),
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
        attackers,
        leader,
        target,
        decl.kind,
        None,
        best + helpers + surprise,
        number,
        damage,
        names=state.names(),
    )


def _lapse(combat: Combat, who: CharacterId, reason: str) -> Event:
    return Event(COMBAT_ACTION_LAPSED, {"combat": combat.id, "character": who, "reason": reason})


def _resolve_one(
    base: IntrigueState,
    running: IntrigueState,
    combat: Combat,
    decl: Declaration,
    dice: DiceSource,
) -> list[Event]:
    who = decl.actor
    if not base.is_active(combat, who):
        return [_lapse(combat, who, f"{base.name(who)} is out of the combat")]
    if combat.holder_of(who) is not None and who not in combat.held_at_start:
        return [_lapse(combat, who, f"{base.name(who)} was grabbed: no further Actions that turn")]
    cid = combat.id
    if decl.kind == "draw":
        return [Event(ITEM_DRAWN, {"combat": cid, "character": who, "item": decl.item})]
    if decl.kind in ("defend", "scream"):
        return [Event(COMBAT_ACTION_TAKEN, {"combat": cid, "character": who, "action": decl.kind})]
    if decl.kind in ("attack", "grab"):
        assert decl.target is not None
        if not base.is_active(combat, decl.target):
            return [_lapse(combat, who, f"{base.name(decl.target)} is out of the combat")]
        if decl.kind == "grab" and running.combat(combat.id).holder_of(decl.target) is not None:
            return [_lapse(combat, who, f"{base.name(decl.target)} is already Held")]
        plan = plan_attack(base, combat, decl)
        result = plan.check.roll(dice)
        events = [
            Event(
                ATTACK_ROLLED,
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
                    "roll": RollCard.of(plan.check, result, plan.label, rule=plan.rule).to_json(),
                },
            )
        ]
        if result.is_success and plan.kind == "grab":
            events.append(
                Event(CHARACTER_GRABBED, {"combat": cid, "holder": who, "held": plan.target})
            )
        elif result.is_success and plan.damage > 0:
            how = plan.ability.name if plan.ability else (base.status(plan.leader).drawn or "hand")
            events += damage(running, plan.target, plan.damage, how)
        if result.is_success and plan.ability is not None and plan.ability.effect:
            # "others can have more subtle effects when an Attack is successful"
            effect = {
                "combat": cid,
                "attacker": who,
                "target": plan.target,
                "ability": plan.ability.name,
                "effect": plan.ability.effect,
            }
            events.append(Event(MENTAL_EFFECT, effect))
        return events
    if decl.kind in ("squeeze", "throw", "release"):
        held = combat.held_by(who)
        if held is None:
            return [_lapse(combat, who, f"{base.name(who)} holds nobody")]
        strength = base.character(who).strength
        events = []
        if decl.kind == "squeeze":
            events += damage(running, held, squeeze_damage(strength), "squeeze")
        elif decl.kind == "throw":
            events += damage(running, held, strength, "throw")
        if decl.kind != "squeeze":
            how = "thrown" if decl.kind == "throw" else "released"
            events.append(
                Event(HOLD_ENDS, {"combat": cid, "holder": who, "held": held, "how": how})
            )
        return events
    if decl.kind == "break_free":
        holder = combat.holder_of(who)
        if holder is None:
            return [_lapse(combat, who, f"{base.name(who)} is no longer Held")]
        check = break_free_check(base.character(who).strength, base.character(holder).strength)
        result = check.roll(dice)
        events = [
            Event(
                HOLD_BREAK_FREE_ROLLED,
                {
                    "combat": cid,
                    "character": who,
                    "holder": holder,
                    "total": result.value,
                    "holder_total": result.opponent_value,
                    "chance": str(check.odds().success),
                    "faces": list(result.faces),
                    "broke_free": result.is_success,
                    "roll": RollCard.of(
                        check,
                        result,
                        f"{base.name(who)} breaks free of {base.name(holder)}",
                        rule="Break Free",
                    ).to_json(),
                },
            )
        ]
        if result.is_success:
            events.append(
                Event(
                    HOLD_ENDS, {"combat": cid, "holder": holder, "held": who, "how": "broke free"}
                )
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
    events.append(Event(COMBAT_PLACE_RESOLVED, {"combat": combat.id, "characters": done}))
    running = fold(running, events[-1:])
    return events + _after_place(running, running.combat(combat.id))


def active_sides(state: IntrigueState, combat: Combat) -> set[int]:
    return {s for c, s in combat.sides if state.is_active(combat, c)}


def _after_place(state: IntrigueState, combat: Combat) -> list[Event]:
    if len(active_sides(state, combat)) < 2:
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
        Event(
            COMBAT_ROUND_ENDED,
            {"combat": combat.id, "round": combat.round, "streaks": streaks},
        )
    ]


def resolve(state: IntrigueState, combat_id: str, dice: DiceSource) -> list[Event]:
    """Resolve the next place in initiative order (ties simultaneously, RULINGS); when only
    held actions are left, end the round (they lapse)."""
    combat = state.combat(combat_id)
    if combat.ended:
        raise refuse("Initiative", f"{combat.id} is over")
    if not combat.in_round:
        raise refuse("Initiative", f"{combat.id}: no round under way (declare, or next_round)")
    waiting = pending_declarers(state, combat)
    if waiting:
        raise refuse("Initiative", f"{', '.join(waiting)} must declare first")
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
                words = f"{state.name(decl.actor)} breaks free of {state.name(holder)}"
                rolls.append((f"{words}: 3d6+Str vs 3d6+Str", check))
    return rolls
