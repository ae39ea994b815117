"""Resolving a round: place by place in initiative order, each Combat Action taking effect.

Rules text (Intrigue in the Clouds), "Initiative" (highest Combat Stat first), "Combat Actions"
(Attacking, Grabbing, Squeeze, Throw or Release, Break Free, Defensive Action, Screaming in
Terror, Draw a Weapon or Item), "Doing Damage" and "Taking Damage"; RULINGS.md: ties in order
resolve simultaneously, all against the state before their place; a round ends when every place
is resolved (held actions not taken lapse), or when one side is out.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from referee.core import Action, Builder, Check, Event, Json, RollCard
from referee.dice import DiceSource
from referee.systems.intrigue.acting import tell
from referee.systems.intrigue.actions import RESOLVE
from referee.systems.intrigue.attacking import plan_attack, rolls_of
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.damage import aftermath, damage
from referee.systems.intrigue.events import (
    ATTACK_ROLLED,
    CHARACTER_GRABBED,
    COMBAT_ACTION_LAPSED,
    COMBAT_ACTION_TAKEN,
    COMBAT_PLACE_RESOLVED,
    COMBAT_ROUND_ENDED,
    HOLD_BREAK_FREE_ROLLED,
    HOLD_ENDS,
    ITEM_DRAWN,
    MENTAL_EFFECT,
)
from referee.systems.intrigue.perception import SHOT, seen_happening
from referee.systems.intrigue.rounds import combat_acted_on, pending_declarers, refuse
from referee.systems.intrigue.rules import break_free_check, squeeze_damage
from referee.systems.intrigue.state import Combat, Declaration, IntrigueState

__all__ = ["active_sides", "preview", "resolve", "resolve_place"]


def resolve(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """Resolve the next place in initiative order (ties simultaneously, RULINGS); when only
    held actions are left, end the round (they lapse)."""
    combat = combat_acted_on(b.state, action, RESOLVE.of(action).combat)
    if combat.ended:
        raise refuse("Initiative", f"{combat.id} is over")
    if not combat.in_round:
        raise refuse("Initiative", f"{combat.id}: no round under way (declare, or next_round)")
    waiting = pending_declarers(b.state, combat)
    if waiting:
        raise refuse("Initiative", f"{', '.join(waiting)} must declare first")
    places = _places(combat)
    if not places:
        tell(b, _round_end(b.state, combat))
        return
    top = max(d.rank for d in places)
    resolve_place(b, combat, [d for d in places if d.rank == top], dice)


def preview(state: IntrigueState, combat_id: str) -> list[tuple[str, Any]]:
    """The rolls the next ``resolve`` makes, each with its check, before it is made."""
    combat = state.combat(combat_id)
    places = _places(combat) if combat.in_round and not pending_declarers(state, combat) else []
    if not places:
        return []
    top = max(d.rank for d in places)
    return rolls_of(state, combat, [d for d in places if d.rank == top])


def _places(combat: Combat) -> list[Declaration]:
    return [d for d in combat.declarations if not d.resolved and d.kind not in ("hold", "group")]


def resolve_place(
    b: Builder[IntrigueState], combat: Combat, decls: Sequence[Declaration], dice: DiceSource
) -> None:
    """Resolve declarations that act at the same time, all against the state before them (but
    a Grab on one already Held this place, and damage on damage, follow what was done)."""
    before = b.state
    for decl in decls:
        _resolve_one(b, before, combat, decl, dice)
    done = [d.actor for d in decls] + [m for d in decls for m in d.group]
    tell(b, Event(COMBAT_PLACE_RESOLVED, {"combat": combat.id, "characters": done}))
    after = b.state
    combat = after.combat(combat.id)
    if len(active_sides(after, combat)) < 2:
        tell(b, _round_end(after, combat), *aftermath(after, combat, "one side is out"))
    elif not [d for d in combat.declarations if not d.resolved and d.kind != "group"]:
        tell(b, _round_end(after, combat))


def active_sides(state: IntrigueState, combat: Combat) -> set[int]:
    """The sides with someone still fighting."""
    return {s for c, s in combat.sides if state.is_active(combat, c)}


def _round_end(state: IntrigueState, combat: Combat) -> Event:
    """Streaks of unhit Defensive Actions, for escaping ("avoid being hit for two turns")."""
    streaks: dict[str, Json] = {}
    for who in combat.participants:
        if not state.is_active(combat, who):
            continue
        decl = combat.declaration(who)
        hit = any(a.hit for a in combat.attacks if a.round == combat.round and a.target == who)
        defended = decl is not None and decl.kind == "defend" and decl.resolved
        streaks[who] = combat.streak(who) + 1 if defended and not hit else 0
    return Event(
        COMBAT_ROUND_ENDED,
        {"combat": combat.id, "round": combat.round, "streaks": streaks},
    )


def _lapse(combat: Combat, who: CharacterId, reason: str) -> Event:
    return Event(COMBAT_ACTION_LAPSED, {"combat": combat.id, "character": who, "reason": reason})


def _resolve_one(
    b: Builder[IntrigueState],
    before: IntrigueState,
    combat: Combat,
    decl: Declaration,
    dice: DiceSource,
) -> None:
    """One declared Combat Action, read against the state ``before`` its place."""
    who = decl.actor
    if not before.is_active(combat, who):
        tell(b, _lapse(combat, who, f"{before.name(who)} is out of the combat"))
    elif combat.holder_of(who) is not None and who not in combat.held_at_start:
        reason = f"{before.name(who)} was grabbed: no further Actions that turn"
        tell(b, _lapse(combat, who, reason))
    elif decl.kind == "draw":
        tell(b, Event(ITEM_DRAWN, {"combat": combat.id, "character": who, "item": decl.item}))
    elif decl.kind in ("defend", "scream"):
        taken = {"combat": combat.id, "character": who, "action": decl.kind}
        tell(b, Event(COMBAT_ACTION_TAKEN, taken))
    elif decl.kind in ("attack", "grab"):
        _attack(b, before, combat, decl, dice)
    elif decl.kind in ("squeeze", "throw", "release"):
        _squeeze_throw_or_release(b, before, combat, decl)
    elif decl.kind == "break_free":
        _break_free(b, before, combat, decl, dice)
    else:
        tell(b, _lapse(combat, who, f"{decl.kind} lapsed"))


def _attack(
    b: Builder[IntrigueState],
    before: IntrigueState,
    combat: Combat,
    decl: Declaration,
    dice: DiceSource,
) -> None:
    """An Attack or a Grab, a group's, or a mental attack: "If the total is greater than the
    Target's Combat Stat + 10, the attack succeeds" ("Attacking", "Grabbing")."""
    who, cid = decl.actor, combat.id
    assert decl.target is not None
    if not before.is_active(combat, decl.target):
        tell(b, _lapse(combat, who, f"{before.name(decl.target)} is out of the combat"))
        return
    if decl.kind == "grab" and b.state.combat(cid).holder_of(decl.target) is not None:
        tell(b, _lapse(combat, who, f"{before.name(decl.target)} is already Held"))
        return
    plan = plan_attack(before, combat, decl)
    result = plan.check.roll(dice)
    rolled: dict[str, Json] = {
        "combat": cid,
        "action": plan.kind,
        "attackers": list(plan.attackers),
        "target": plan.target,
        "ability": plan.ability.name if plan.ability else None,
        "modifier": plan.modifier,
        "target_number": plan.target_number,
        "chance": _chance(plan.check),
        "total": result.value,
        "faces": list(result.faces),
        "hit": result.is_success,
        "roll": RollCard.of(plan.check, result, plan.label, rule=plan.rule).to_json(),
    }
    tell(b, Event(ATTACK_ROLLED, rolled))
    if result.is_success and plan.kind == "grab":
        tell(b, Event(CHARACTER_GRABBED, {"combat": cid, "holder": who, "held": plan.target}))
    elif result.is_success and plan.damage > 0:
        how = plan.ability.name if plan.ability else (before.status(plan.leader).drawn or "hand")
        if plan.ability is None and _is_gun(before, plan.leader):
            tell(b, *seen_happening(b.state, plan.target, SHOT))
        tell(b, *damage(b.state, plan.target, plan.damage, how))
    if result.is_success and plan.ability is not None and plan.ability.effect:
        # "others can have more subtle effects when an Attack is successful"
        effect = {
            "combat": cid,
            "attacker": who,
            "target": plan.target,
            "ability": plan.ability.name,
            "effect": plan.ability.effect,
        }
        tell(b, Event(MENTAL_EFFECT, effect))


@functools.lru_cache(maxsize=1024)
def _chance(check: Check) -> str:
    """The chance of ``check`` succeeding, as an event records it (``"n/d"``): worked out
    once per check (a duel rolls the same two or three checks round after round)."""
    return str(check.odds().success)


def _is_gun(state: IntrigueState, attacker: CharacterId) -> bool:
    """True if ``attacker`` attacks with a gun drawn: the one hit is shot ("Open if shot")."""
    drawn = state.status(attacker).drawn
    weapon = state.character(attacker).item(drawn) if drawn else None
    return weapon is not None and weapon.gun


def _squeeze_throw_or_release(
    b: Builder[IntrigueState], before: IntrigueState, combat: Combat, decl: Declaration
) -> None:
    """ "Squeeze: does half Strength damage"; "Throw: does full Strength damage, and the Hold
    ends"; "Release" ends it ("Squeeze, Throw or Release")."""
    who = decl.actor
    held = combat.held_by(who)
    if held is None:
        tell(b, _lapse(combat, who, f"{before.name(who)} holds nobody"))
        return
    strength = before.character(who).strength
    if decl.kind == "squeeze":
        tell(b, *damage(b.state, held, squeeze_damage(strength), "squeeze"))
    elif decl.kind == "throw":
        tell(b, *damage(b.state, held, strength, "throw"))
    if decl.kind != "squeeze":
        how = "thrown" if decl.kind == "throw" else "released"
        tell(b, Event(HOLD_ENDS, {"combat": combat.id, "holder": who, "held": held, "how": how}))


def _break_free(
    b: Builder[IntrigueState],
    before: IntrigueState,
    combat: Combat,
    decl: Declaration,
    dice: DiceSource,
) -> None:
    """ "Break Free": 3d6 + Strength against the Holder's 3d6 + Strength."""
    who, cid = decl.actor, combat.id
    holder = combat.holder_of(who)
    if holder is None:
        tell(b, _lapse(combat, who, f"{before.name(who)} is no longer Held"))
        return
    check = break_free_check(before.character(who).strength, before.character(holder).strength)
    result = check.roll(dice)
    words = f"{before.name(who)} breaks free of {before.name(holder)}"
    rolled: dict[str, Json] = {
        "combat": cid,
        "character": who,
        "holder": holder,
        "total": result.value,
        "holder_total": result.opponent_value,
        "chance": _chance(check),
        "faces": list(result.faces),
        "broke_free": result.is_success,
        "roll": RollCard.of(check, result, words, rule="Break Free").to_json(),
    }
    tell(b, Event(HOLD_BREAK_FREE_ROLLED, rolled))
    if result.is_success:
        ended = {"combat": cid, "holder": holder, "held": who, "how": "broke free"}
        tell(b, Event(HOLD_ENDS, ended))
