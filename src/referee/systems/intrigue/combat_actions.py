"""Combat Actions: declaring them in initiative order (resolving them: :mod:`.resolution`).

Rules text (Intrigue in the Clouds), "Combat Actions" (Attacking, Grabbing, Squeeze, Throw or
Release, Break Free, Defensive Action, Screaming in Terror), "Multiple Attackers", "Mental
Combat" and "Mixing Mental and Normal Combat" (a mental ability as a Combat Action); RULINGS.md:
each participant declares knowing the declarations before theirs; ties in order resolve
simultaneously; a Defensive Action counts for the whole round.
"""

from __future__ import annotations

from referee.core import Action, ActionError, Builder, Event, Json
from referee.dice import DiceSource
from referee.systems.intrigue.acting import acting_character, tell
from referee.systems.intrigue.actions import DECLARE, Declare
from referee.systems.intrigue.attacking import PlannedAttack, plan_attack, rolls_of
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.events import COMBAT_DECLARED
from referee.systems.intrigue.resolution import active_sides, preview, resolve, resolve_place
from referee.systems.intrigue.rounds import (
    begin_round,
    initiative_rank,
    my_combat,
    pending_declarers,
    refuse,
)
from referee.systems.intrigue.rules import GROUP_LIMIT
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
    _held_or_holding(combat, who, kind)
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
        payload |= _attack_or_grab(state, combat, who, args)
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


def _held_or_holding(combat: Combat, who: CharacterId, kind: str) -> None:
    """ "A Held Character can attempt no action other than Breaking Free or Screaming in
    Terror"; a Holder Squeezes, Throws or Releases (ruling)."""
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


def _attack_or_grab(
    state: IntrigueState, combat: Combat, who: CharacterId, args: Declare
) -> dict[str, Json]:
    """An Attack or a Grab's target, mental ability and group ("Attacking", "Grabbing",
    "Mixing Mental and Normal Combat", "Multiple Attackers")."""
    kind = args.action
    payload: dict[str, Json] = {}
    if args.target is None:
        raise refuse("Combat Actions", "name the target (a character id or number)")
    target = state.character(str(args.target)).id
    if target == who or not state.is_active(combat, target):
        raise refuse(kind.capitalize(), f"{target} is not a target in {combat.id}")
    payload["target"] = target
    ability_name = args.ability
    if ability_name is not None:
        payload["ability"] = _mental_ability(state, combat, who, kind, ability_name)
    elif who in combat.by_mind:
        raise refuse(
            "Mixing Mental and Normal Combat", f"{who} ranks by Mind: name the mental ability"
        )
    if kind == "grab" and combat.holder_of(target) is not None:
        raise refuse("Grabbing", f"{target} is already Held")
    members = [state.character(str(m)).id for m in args.group]
    if members:
        if ability_name is not None:
            raise refuse("Multiple Attackers", "a group makes an Attack or Grab, not mental")
        _may_gang_up(state, combat, who, members, args)
        payload["group"] = list(members)
    return payload


def _mental_ability(
    state: IntrigueState, combat: Combat, who: CharacterId, kind: str, ability_name: str
) -> str:
    """The mental ability an Attack uses in a combat ("Mixing Mental and Normal Combat")."""
    ability = state.character(who).ability(ability_name)
    if kind != "attack" or ability is None or not ability.mental:
        raise refuse("Mental Combat", f"{who} has no mental ability {ability_name!r}")
    if not ability.in_combat:
        raise refuse(
            "Mixing Mental and Normal Combat",
            f"{ability.name} cannot be used during normal combat",
        )
    if who not in combat.by_mind:
        raise refuse(
            "Mixing Mental and Normal Combat",
            f"{who} must use_mind before the round's declarations to use {ability.name}",
        )
    return ability.name


def _may_gang_up(
    state: IntrigueState,
    combat: Combat,
    who: CharacterId,
    members: list[CharacterId],
    args: Declare,
) -> None:
    """ "Up to four characters can gang up on a single target", of one side, each with an
    action still to declare ("Multiple Attackers")."""
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


def ranked_above(combat: Combat, held: Declaration) -> list[CharacterId]:
    """Who still acts before a held action may be taken: every unresolved place ranked at or
    above the holder's ("hold their action until a later time": after the holder's own place,
    ties included, since "Ties act simultaneously"). Other holders' places wait for no one."""
    return [
        d.actor
        for d in combat.declarations
        if not d.resolved and d.kind not in ("hold", "group") and d.rank >= held.rank
    ]


def declare(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """Declare a Combat Action for the round, in initiative order (RULINGS: each knows the
    declarations before theirs). A character who held their action declares it during the
    resolution, and it resolves at once ("A character can choose to hold their action")."""
    who = acting_character(b.state, action).id
    args = DECLARE.of(action)
    combat = begin_round(b, my_combat(b.state, who))
    state = b.state
    mine = combat.declaration(who)
    waiting = pending_declarers(state, combat)
    if mine is not None and mine.kind == "hold" and not mine.resolved and not waiting:
        _take_held_action(b, combat, mine, args, dice)
        return
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
    tell(
        b, Event(COMBAT_DECLARED, {"combat": combat.id, "character": who, "rank": rank, **payload})
    )


def _take_held_action(
    b: Builder[IntrigueState], combat: Combat, held: Declaration, args: Declare, dice: DiceSource
) -> None:
    """ "A character can choose to 'hold' their action until a later time": declared now, it
    resolves at once — later than the places ranked above, never earlier."""
    state, who = b.state, held.actor
    if args.action == "hold":
        raise refuse("Initiative", f"{who} is already holding their action")
    ahead = ranked_above(combat, held)
    if ahead:
        raise refuse(
            "Initiative",
            f"{who} holds their action until a later time: {', '.join(ahead)} "
            f"act{'s' if len(ahead) == 1 else ''} first (Combat Stat, highest to lowest)",
        )
    payload = validate(state, combat, who, args)
    rank = initiative_rank(state, combat, who)
    tell(
        b, Event(COMBAT_DECLARED, {"combat": combat.id, "character": who, "rank": rank, **payload})
    )
    combat = b.state.combat(combat.id)
    decl = combat.declaration(who)
    assert decl is not None
    resolve_place(b, combat, [decl], dice)
