"""How each Intrigue event changes the state: the fold behind the log (never rolls, never refuses).

Every event kind the game logs is folded here; :func:`evolve` ignores kinds it does not know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

from referee.core import Event, Json
from referee.systems.intrigue.rules import PERCEPTION_COOLDOWN, RECOVERY_TIME, wounds_taken
from referee.systems.intrigue.state import (
    Combat,
    CombatAttack,
    Declaration,
    Hold,
    IntrigueState,
    evolved,
)

__all__ = ["evolve"]


def _text(data: Mapping[str, Json], key: str) -> str:
    return str(data[key])


def _number(data: Mapping[str, Json], key: str, default: int = 0) -> int:
    value = data.get(key, default)
    return int(cast(int, value))


def _ids(data: Mapping[str, Json], key: str) -> tuple[str, ...]:
    value = data.get(key) or ()
    return tuple(str(v) for v in cast(list[Json], value))


def evolve(state: IntrigueState, event: Event) -> IntrigueState:
    """The state after ``event`` (each event is folded once as it is decided, and again only
    when a log is replayed)."""
    data = event.data if event.secrets else event.payload  # read only: no copy needed
    kind = event.kind
    fold_combat = _COMBAT_FOLDS.get(kind)
    if fold_combat is not None:
        return fold_combat(state, event, data)
    if kind == "perception.made":
        perceiver, target = _text(data, "perceiver"), _text(data, "target")
        kept = tuple(c for c in state.cooldowns if (c[0], c[1]) != (perceiver, target))
        return evolved(
            state, cooldowns=(*kept, (perceiver, target, event.at + PERCEPTION_COOLDOWN))
        )
    if kind == "perception.ready":
        pair = (_text(data, "perceiver"), _text(data, "target"))
        return evolved(state, cooldowns=tuple(c for c in state.cooldowns if (c[0], c[1]) != pair))
    if kind == "contingency.openable":
        return evolved(state, openable=state.openable | set(_ids(data, "envelopes")))
    if kind == "envelope.opened":
        return evolved(state, opened=state.opened | {_text(data, "envelope")})
    if kind == "item.drawn":
        who = _text(data, "character")
        return state.with_status(who, evolved(state.status(who), drawn=_text(data, "item")))
    if kind == "item.robbed":
        return _robbed(state, _text(data, "target"), _text(data, "character"), _text(data, "item"))
    return state


def _robbed(state: IntrigueState, victim: str, robber: str, item: str) -> IntrigueState:
    """The Item Card ``item`` passes from ``victim`` to ``robber``; a drawn weapon taken is no
    longer the victim's drawn one, nor drawn by the robber ("Taking Damage"; ruling)."""
    card = state.character(victim).item(item)
    if card is None:
        return state
    characters = tuple(
        evolved(c, items=tuple(i for i in c.items if i is not card))
        if c.id == victim
        else evolved(c, items=(*c.items, card))
        if c.id == robber
        else c
        for c in state.characters
    )
    state = evolved(state, characters=characters)
    status = state.status(victim)
    if status.drawn is not None and status.drawn.casefold() == card.name.casefold():
        state = state.with_status(victim, evolved(status, drawn=None))
    return state


def _combat(state: IntrigueState, data: Mapping[str, Json]) -> Combat:
    return state.combat(_text(data, "combat"))


def _combat_started(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    starter = _text(data, "starter")
    state = state.with_combat(
        Combat(
            id=_text(data, "combat"),
            starter=starter,
            sides=((starter, 0), *((c, 1) for c in _ids(data, "targets"))),
            surprised=frozenset(_ids(data, "surprised")),
        )
    )
    return evolved(state, combats_begun=state.combats_begun + 1).without_ended_combats()


def _combat_joined(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    combat = _combat(state, data)
    entry = (_text(data, "character"), _number(data, "side"))
    return state.with_combat(evolved(combat, sides=(*combat.sides, entry)))


def _combat_round_started(
    state: IntrigueState, event: Event, data: Mapping[str, Json]
) -> IntrigueState:
    combat = _combat(state, data)
    holds = tuple(h for h in combat.holds if not h.ending)
    return state.with_combat(
        evolved(
            combat,
            round=_number(data, "round"),
            in_round=True,
            by_mind=frozenset(),
            declarations=(),
            holds=holds,
            held_at_start=frozenset(h.held for h in holds),
            holding_at_start=frozenset(h.holder for h in holds),
            escape_tried=frozenset(),
        )
    )


def _combat_mind_used(
    state: IntrigueState, event: Event, data: Mapping[str, Json]
) -> IntrigueState:
    combat = _combat(state, data)
    return state.with_combat(evolved(combat, by_mind=combat.by_mind | {_text(data, "character")}))


def _combat_declared(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    combat = _combat(state, data)
    actor = _text(data, "character")
    target = data.get("target")
    declaration = Declaration(
        actor=actor,
        kind=_text(data, "action"),
        rank=_number(data, "rank"),
        target=None if target is None else str(target),
        item=None if data.get("item") is None else _text(data, "item"),
        ability=None if data.get("ability") is None else _text(data, "ability"),
        group=_ids(data, "group"),
        bonus=_number(data, "bonus"),
    )
    members = tuple(
        Declaration(actor=m, kind="group", rank=declaration.rank, target=declaration.target)
        for m in declaration.group
    )
    kept = tuple(d for d in combat.declarations if d.actor != actor)
    return state.with_combat(evolved(combat, declarations=(*kept, declaration, *members)))


def _combat_place_resolved(
    state: IntrigueState, event: Event, data: Mapping[str, Json]
) -> IntrigueState:
    combat = _combat(state, data)
    done = set(_ids(data, "characters"))
    declarations = tuple(
        evolved(d, resolved=True) if d.actor in done else d for d in combat.declarations
    )
    return state.with_combat(evolved(combat, declarations=declarations))


def _attack_rolled(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    if data.get("combat") is None:
        return state
    combat = _combat(state, data)
    attack = CombatAttack(
        round=combat.round,
        attackers=_ids(data, "attackers"),
        target=_text(data, "target"),
        hit=bool(data.get("hit")),
    )
    return state.with_combat(evolved(combat, attacks=(*combat.attacks, attack)))


def _damage_taken(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    who = _text(data, "character")
    status = state.status(who)
    total = _number(data, "total")
    if data.get("aside") is None:
        return state.with_status(who, evolved(status, damage=total))
    # an unobvious mental attack, over as it lands (RULINGS.md, Round 3): the Knocked Out come
    # round 5 minutes later; those on their feet carry nothing into a later combat
    if not data.get("knocked_out") or status.knocked_out:
        return state
    pending = wounds_taken(total=total, stamina=state.stamina(who))
    return state.with_status(
        who,
        evolved(
            status,
            damage=total,
            wake_due=event.at + RECOVERY_TIME,
            pending_wounds=pending,
            foes=(_text(data, "aside"),),
        ),
    )


def _character_knocked_out(
    state: IntrigueState, event: Event, data: Mapping[str, Json]
) -> IntrigueState:
    who = _text(data, "character")
    state = state.with_status(who, evolved(state.status(who), knocked_out=True))
    for combat in state.running:
        if any(who in (h.holder, h.held) for h in combat.holds):
            holds = tuple(
                evolved(h, ending=True) if who in (h.holder, h.held) else h for h in combat.holds
            )
            state = state.with_combat(evolved(combat, holds=holds))
    return state


def _character_grabbed(
    state: IntrigueState, event: Event, data: Mapping[str, Json]
) -> IntrigueState:
    combat = _combat(state, data)
    hold = Hold(_text(data, "holder"), _text(data, "held"))
    return state.with_combat(evolved(combat, holds=(*combat.holds, hold)))


def _hold_ends(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    combat = _combat(state, data)
    held = _text(data, "held")
    holds = tuple(evolved(h, ending=True) if h.held == held else h for h in combat.holds)
    return state.with_combat(evolved(combat, holds=holds))


def _combat_round_ended(
    state: IntrigueState, event: Event, data: Mapping[str, Json]
) -> IntrigueState:
    combat = _combat(state, data)
    given = cast(Mapping[str, Json], data.get("streaks") or {})
    streaks = tuple((c, int(cast(int, n))) for c, n in given.items())
    return state.with_combat(evolved(combat, in_round=False, streaks=streaks))


def _escape_rolled(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    combat = _combat(state, data)
    who = _text(data, "character")
    tried = combat.escape_tried | {who}
    if data.get("escaped"):
        # their part in the combat is over: its damage no longer counts ("Taking Damage")
        state = state.with_status(who, evolved(state.status(who), damage=0))
        return state.with_combat(
            evolved(combat, escape_tried=tried, escaped=combat.escaped | {who})
        )
    reset = tuple((c, 0 if c == who else n) for c, n in combat.streaks)
    return state.with_combat(evolved(combat, escape_tried=tried, streaks=reset))


def _combat_ended(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    combat = _combat(state, data)
    state = state.with_combat(evolved(combat, ended=True, in_round=False, holds=()))
    for who in combat.participants:
        status = state.status(who)
        if status.dead or who in combat.escaped:
            continue
        if status.knocked_out:
            pending = wounds_taken(total=status.damage, stamina=state.stamina(who))
            side = combat.side_of(who)
            foes = tuple(c for c, s in combat.sides if s != side and c not in combat.escaped)
            state = state.with_status(
                who,
                evolved(
                    status,
                    wake_due=event.at + RECOVERY_TIME,
                    pending_wounds=pending,
                    foes=foes,
                ),
            )
        else:
            state = state.with_status(who, evolved(status, damage=0))
    return state.without_ended_combats()


def _character_died(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    who = _text(data, "character")
    return state.with_status(
        who, evolved(state.status(who), dead=True, knocked_out=False, wake_due=None, foes=())
    )


def _character_woke(state: IntrigueState, event: Event, data: Mapping[str, Json]) -> IntrigueState:
    who = _text(data, "character")
    status = state.status(who)
    return state.with_status(
        who,
        evolved(
            status,
            knocked_out=False,
            wake_due=None,
            damage=0,
            pending_wounds=0,
            wounds_marked=status.wounds_marked + _number(data, "wounds"),
            foes=(),
        ),
    )


_COMBAT_FOLDS: dict[str, Callable[[IntrigueState, Event, Mapping[str, Json]], IntrigueState]] = {
    "combat.started": _combat_started,
    "combat.joined": _combat_joined,
    "combat.round_started": _combat_round_started,
    "combat.mind_used": _combat_mind_used,
    "combat.declared": _combat_declared,
    "combat.place_resolved": _combat_place_resolved,
    "attack.rolled": _attack_rolled,
    "damage.taken": _damage_taken,
    "character.knocked_out": _character_knocked_out,
    "character.grabbed": _character_grabbed,
    "hold.ends": _hold_ends,
    "combat.round_ended": _combat_round_ended,
    "escape.rolled": _escape_rolled,
    "combat.ended": _combat_ended,
    "character.died": _character_died,
    "character.woke": _character_woke,
}
"""The fold of each combat event kind (combat, attacks, characters, damage, holds, escapes)."""
