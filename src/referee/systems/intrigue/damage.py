"""Taking Damage: damage, knock-out, wounds on waking, Medicine, and the victor's way.

Rules text (Intrigue in the Clouds), "Doing Damage" and "Taking Damage"; RULINGS.md: knock-out
and wounds follow the ScarFace example exactly; a character with every Wound marked is dead.
"""

from __future__ import annotations

from referee.core import (
    EVERYONE,
    Action,
    Builder,
    Event,
    Json,
    RollCard,
    RuleError,
    Secret,
    cancel_timer,
    only,
    set_timer,
)
from referee.dice import DiceSource
from referee.systems.intrigue.acting import acting_character, tell
from referee.systems.intrigue.actions import REVIVE, ROB, SEARCH, SLAY
from referee.systems.intrigue.characters import MEDICINE, Character, CharacterId
from referee.systems.intrigue.events import (
    CHARACTER_DIED,
    CHARACTER_KNOCKED_OUT,
    CHARACTER_SEARCHED,
    CHARACTER_WOKE,
    COMBAT_ENDED,
    DAMAGE_TAKEN,
    ITEM_ROBBED,
    MEDICINE_ROLLED,
)
from referee.systems.intrigue.perception import KNOCKED_OUT, ROBBED, SEARCHED, seen_happening
from referee.systems.intrigue.rules import (
    RECOVERY_TIME,
    is_knocked_out,
    medicine_check,
    wounds_taken,
)
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = [
    "RULE",
    "aftermath",
    "damage",
    "damage_aside",
    "revive",
    "rob",
    "search",
    "slay",
    "victors",
]

RULE = "Taking Damage"


def damage(state: IntrigueState, target: CharacterId, amount: int, how: str) -> list[Event]:
    """ "Each successful Attack does a fixed amount of damage"; knock-out ("Taking Damage")."""
    status = state.status(target)
    total = status.damage + amount
    stamina = state.stamina(target)
    out = is_knocked_out(single=amount, total=total, stamina=stamina)
    events = [
        Event(
            DAMAGE_TAKEN,
            {
                "character": target,
                "amount": amount,
                "total": total,
                "by": how,
                "knocked_out": out,
            },
            # the Stamina Stat is on the Character Card: the character's and the referee's
            # (ruling 27, audit R4); the damage and a fall to the floor are there for all to see
            secrets=(Secret("stamina", stamina, only(target)),),
        )
    ]
    if out and not status.knocked_out:
        events.append(Event(CHARACTER_KNOCKED_OUT, {"character": target}))
        events += seen_happening(state, target, KNOCKED_OUT)
    return events


def damage_aside(
    state: IntrigueState, attacker: CharacterId, target: CharacterId, amount: int, how: str
) -> list[Event]:
    """Damage from an unobvious mental attack, resolved to one side without declaring combat:
    "taken as from any attack" (RULINGS.md, Round 3). With no combat around it, the attack is
    over as it lands: Knocked Out by more than half the Stamina (or more than all of it), the
    target comes round 5 minutes later with a Wound for each point beyond the Stamina, or dies;
    on their feet, they carry none of it into a later combat (ruling 32). The damage is the two
    characters' (and the referee's), as the attack is; a fall is seen by everyone."""
    stamina = state.stamina(target)
    out = is_knocked_out(single=amount, total=amount, stamina=stamina)
    events = [
        Event(
            DAMAGE_TAKEN,
            {
                "character": target,
                "amount": amount,
                "total": amount,
                "by": how,
                "knocked_out": out,
                "aside": attacker,
            },
            audience=only(attacker, target),
            secrets=(Secret("stamina", stamina, only(target)),),
        )
    ]
    if out and not state.status(target).knocked_out:
        events.append(Event(CHARACTER_KNOCKED_OUT, {"character": target}))
        events += seen_happening(state, target, KNOCKED_OUT)
        events += _comes_round(state, target, amount)
    return events


def aftermath(state: IntrigueState, combat: Combat, reason: str) -> list[Event]:
    """The combat ends: each Knocked Out character recovers 5 minutes later with their wounds
    ("Taking Damage"), or dies if every Wound would be marked (RULINGS)."""
    events = [Event(COMBAT_ENDED, {"combat": combat.id, "reason": reason})]
    for who in combat.participants:
        status = state.status(who)
        if not status.knocked_out or status.dead:
            continue
        events += _comes_round(state, who, status.damage)
    return events


def _comes_round(state: IntrigueState, who: CharacterId, total: int) -> list[Event]:
    """``who``, Knocked Out with ``total`` damage, wakes 5 minutes later with a Wound per point
    beyond the Stamina — or dies at once if every Wound would be marked ("Taking Damage")."""
    stamina = state.stamina(who)
    wounds = wounds_taken(total=total, stamina=stamina)
    if state.status(who).wounds_marked + wounds >= state.character(who).wounds:
        return [Event(CHARACTER_DIED, {"character": who, "wounds": wounds})]
    woke = Event(
        CHARACTER_WOKE,
        {"character": who, "how": "recovered"},
        audience=EVERYONE,
        secrets=(
            Secret("wounds", wounds, only(who)),
            Secret("stamina", stamina - wounds, only(who)),
        ),
    )
    name = state.name(who)
    return [set_timer(f"wake:{who}", woke, after=RECOVERY_TIME, label=f"{name} wakes")]


def _knocked_out_after(state: IntrigueState, target: Character, what: str) -> None:
    status = state.status(target.id)
    if not status.knocked_out or status.wake_due is None:
        raise RuleError(RULE, f"{target.id} is not Knocked Out after a combat ({what})")


def revive(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "Knocked Out Characters can be awakened with a Medicine roll of 14 or more"."""
    state = b.state
    me = acting_character(state, action)
    target = state.character(str(REVIVE.of(action).target))
    _knocked_out_after(state, target, "Medicine wakes the Knocked Out")
    if not me.has_skill(MEDICINE):
        raise RuleError(RULE, f"{me.id} has no Medicine skill")
    if state.combat_of(me.id) is not None:
        raise RuleError("Combat Actions", f"{me.id} is in a combat")
    check = medicine_check(me.skill(MEDICINE))
    result = check.roll(dice)
    card = RollCard.of(check, result, f"{me.name} wakes {target.name}", rule=RULE)
    events = [
        Event(
            MEDICINE_ROLLED,
            {
                "character": me.id,
                "target": target.id,
                "medicine": me.skill(MEDICINE),
                "chance": str(check.odds().success),
                "total": result.value,
                "faces": list(result.faces),
                "success": result.is_success,
                "roll": card.to_json(),
            },
        )
    ]
    if result.is_success:
        status = state.status(target.id)
        events += [
            cancel_timer(f"wake:{target.id}", label=f"{target.name} wakes"),
            Event(
                CHARACTER_WOKE,
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
    tell(b, *events)


def victors(state: IntrigueState, fallen: CharacterId) -> tuple[CharacterId, ...]:
    """Who won the combat ``fallen`` was Knocked Out in: those of the other side not escaped at
    its end, while on their feet ("the victor"; audit R2, reading (a)) — or the attacker of the
    unnoticed mental attack that felled them (ruling 32). Read from ``fallen``'s own status: the
    combat itself may have left the live state for the log (issue 29)."""
    return tuple(c for c in state.status(fallen).foes if state.status(c).can_act)


def _at_the_victors_mercy(state: IntrigueState, me: Character, target: Character) -> None:
    """ "In the meantime, the victor can have his or her way with them": only while ``target``
    is Knocked Out after their combat, only the victor (audit R2, reading (a)), and not while
    the victor is in a combat of their own."""
    _knocked_out_after(state, target, "only the Knocked Out are at the victor's mercy")
    if me.id not in victors(state, target.id):
        raise RuleError(
            RULE, f"only the victor has their way with {target.id}, and {me.id} is not one"
        )
    if state.combat_of(me.id) is not None:
        raise RuleError("Combat Actions", f"{me.id} is in a combat")


def slay(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "In the meantime, the victor can have his or her way with them (search them, rob
    them, slit their throats…)"."""
    state = b.state
    me = acting_character(state, action)
    target = state.character(str(SLAY.of(action).target))
    _at_the_victors_mercy(state, me, target)
    tell(
        b,
        cancel_timer(f"wake:{target.id}", label=f"{target.name} wakes"),
        Event(CHARACTER_DIED, {"character": target.id, "by": me.id}),
    )


def search(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """The victor searches the Knocked Out ("Taking Damage": "search them").

    Ruling (audit M1): the searcher is shown what ``target`` carries — each Item Card (its name,
    damage and description) and the outside of each envelope they hold (its id and label) —
    but no envelope's contents: a Perception Envelope's are read only by a perceiver it is
    handed to ("Perception Envelopes"), a Contingency Envelope's only by its holder
    ("Contingency Envelopes"). Everyone sees that the search happened; what it found is the
    searcher's (and the referee's).
    """
    state = b.state
    me = acting_character(state, action)
    target = state.character(str(SEARCH.of(action).target))
    _at_the_victors_mercy(state, me, target)
    items: list[Json] = [
        {"name": i.name, "damage": i.damage, "description": i.description} for i in target.items
    ]
    envelopes: list[Json] = [
        {"id": e.id, "kind": "perception", "label": e.label} for e in state.envelopes_of(target.id)
    ]
    envelopes += [
        {"id": e.id, "kind": "contingency", "label": e.condition.label}
        for e in state.contingency_envelopes
        if e.holder == target.id
    ]
    tell(
        b,
        Event(
            CHARACTER_SEARCHED,
            {"character": me.id, "target": target.id},
            secrets=(
                Secret("items", items, only(me.id)),
                Secret("envelopes", envelopes, only(me.id)),
            ),
        ),
        *seen_happening(state, target.id, SEARCHED),
    )


def rob(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """The victor takes an Item Card from the Knocked Out ("Taking Damage": "rob them").

    Ruling (audit M1): only an Item Card passes (envelopes are not items); a drawn weapon may be
    taken too — its holder is Knocked Out — and the victor holds it undrawn ("Draw a Weapon or
    Item" is an action of its own). Everyone sees that ``me`` robbed ``target``; which card
    was taken is the two characters' (and the referee's).
    """
    state = b.state
    me = acting_character(state, action)
    args = ROB.of(action)
    target, item = state.character(str(args.target)), args.item
    _at_the_victors_mercy(state, me, target)
    card = target.item(item)
    if card is None:
        raise RuleError(RULE, f"{target.id} holds no Item Card {item!r} to be robbed of")
    if me.item(card.name) is not None:
        raise RuleError(
            RULE,
            f"{me.id} already holds an Item Card called {card.name!r}: two could not be told apart",
        )
    tell(
        b,
        Event(
            ITEM_ROBBED,
            {"character": me.id, "target": target.id},
            secrets=(Secret("item", card.name, only(me.id, target.id)),),
        ),
        *seen_happening(state, target.id, ROBBED),
    )
