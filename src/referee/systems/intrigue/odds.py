"""Exact odds before every roll: the checks an action is about to roll, as kernel checks.

The same check objects the procedure rolls (:mod:`~referee.systems.intrigue.rules`), so the odds
shown and the rule applied cannot disagree. ``upcoming`` never rolls and never changes the state.

>>> from referee.core import Action
>>> from referee.systems.intrigue.game import load_game
>>> state = load_game({"characters": {
...     "ann": {"number": 15, "skills": {"Perception": 3}},
...     "bea": {"number": 40, "perception_envelopes": [
...         {"to": "ALL", "target": 16, "contents": "x"}]}}})
>>> [(words, str(check.odds().success)) for words, check in upcoming(
...     state, Action("ann", "perceive", {"target": "bea"}))]
[('ann is given bea-p1 (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16', '7/27')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from referee.core import EVERYONE, REFEREE, Action, ActionError, Builder, Check, Event, RuleError
from referee.systems.intrigue import combat as fight
from referee.systems.intrigue.actions import DECLARE
from referee.systems.intrigue.characters import MEDICINE, PERCEPTION, Character
from referee.systems.intrigue.combat_actions import ranked_above
from referee.systems.intrigue.envelopes import is_for
from referee.systems.intrigue.events import COMBAT_DECLARED
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.rules import (
    attack_check,
    attack_target_number,
    medicine_check,
    opposed_skill_check,
    skill_check,
)
from referee.systems.intrigue.state import IntrigueState

__all__ = ["LADDER", "own_roll", "upcoming"]

#: The totals a player is shown the chance of reaching when the number to beat is not theirs to
#: know (an envelope's Target Number, another character's skill): the Target Numbers the text's
#: own examples use (14, 16) and those around them.
LADDER = (12, 14, 16, 18, 20)


def _ref(state: IntrigueState, value: Any) -> str | None:
    if isinstance(value, str | int) and not isinstance(value, bool):
        try:
            return state.character(str(value)).id
        except RuleError:
            return None
    return None


def upcoming(state: IntrigueState, action: Action) -> list[tuple[str, Check]]:
    """The rolls ``action`` would make now, each described, with its check (empty if none, or
    if the action would be refused — the procedure says why when it is played)."""
    params = action.params
    kind = action.kind
    if kind == "resolve":
        return _resolving(state, action)
    if not state.has_character(action.actor):
        return []
    me = state.character(action.actor)
    if kind == "perceive":
        target = _ref(state, params.get("target"))
        if target is None:
            return []
        value = me.skill(PERCEPTION)
        return [
            (
                f"{me.id} is given {e.id} ({e.label}): 3d6{value:+d} ≥ {e.target}",
                skill_check(value, e.target),
            )
            for e in state.envelopes_of(target)
            if is_for(e, me.number)
        ]
    if kind == "roll":
        return _skill_roll(state, me, params)
    if kind == "mental_attack":
        return _mental_attack(state, me, params)
    if kind == "revive":
        target = _ref(state, params.get("target"))
        value = me.skill(MEDICINE)
        return [(f"{me.id} wakes {target}: 3d6{value:+d} ≥ 14", medicine_check(value))]
    if kind == "declare":
        return _held_action(state, me.id, params) or _declared_attack(state, me.id, params)
    if kind == "escape":
        combat = state.combat_of(me.id)
        plan = None if combat is None else fight.escape_plan(state, combat, me.id)
        if plan is None:
            return []
        against, check = plan
        return [(f"{me.id} escapes {against}: 3d6+Combat > 3d6+Combat", check)]
    return []


def _resolving(state: IntrigueState, action: Action) -> list[tuple[str, Check]]:
    """The rolls of the next place of the combat a ``resolve`` is for ("Initiative")."""
    combat_id: str | None = None
    if action.actor == REFEREE:
        running = state.running
        given = action.params.get("combat")
        if given is not None:
            combat_id = str(given)
        elif len(running) == 1:
            combat_id = running[0].id
    elif state.has_character(action.actor):
        mine = state.combat_of(state.character(action.actor).id)
        combat_id = mine.id if mine else None
    if combat_id is None:
        return []
    try:
        return list(fight.preview(state, str(combat_id)))
    except RuleError:
        return []


def _skill_roll(
    state: IntrigueState, me: Character, params: Mapping[str, Any]
) -> list[tuple[str, Check]]:
    """A skill roll against a Target Number, or another character's roll ("Skill Rolls")."""
    name = params.get("skill") or params.get("ability")
    if name is None:
        return []
    ability = me.ability(str(name)) if params.get("ability") else None
    value = (ability.value or 0) if ability is not None else me.skill(str(name))
    fixed = params.get("target")
    if isinstance(fixed, int) and not isinstance(fixed, bool):
        return [(f"{me.id} {name}: 3d6{value:+d} ≥ {fixed}", skill_check(value, fixed))]
    other = _ref(state, params.get("against"))
    if other is None:
        return []
    their = state.character(other).skill(str(params.get("against_skill", name)))
    return [
        (
            f"{me.id} {name}: 3d6{value:+d} ≥ {other}'s 3d6{their:+d}",
            opposed_skill_check(value, their),
        )
    ]


def _mental_attack(
    state: IntrigueState, me: Character, params: Mapping[str, Any]
) -> list[tuple[str, Check]]:
    """An unnoticed mental attack ("Mental Combat")."""
    target = _ref(state, params.get("target"))
    ability = me.ability(str(params.get("ability")))
    if target is None or ability is None:
        return []
    number = (
        ability.target
        if ability.target is not None
        else attack_target_number(state.character(target).mind)
    )
    return [
        (
            f"{me.id} {ability.name} {target}: 3d6{me.mind:+d} > {number}",
            attack_check(me.mind, number),
        )
    ]


def own_roll(
    state: IntrigueState, action: Action, knows: Callable[[str], bool]
) -> tuple[str, str, dict[str, Fraction]] | None:
    """What a player may know of the roll ``action`` makes, when the odds :func:`upcoming`
    gives would tell them another character's secret: the chance that their own total (3d6 +
    their own skill, numbers on their own sheet) reaches each total of :data:`LADDER`.

    ``knows(character)`` says whether the viewer may see that character's sheet. ``None`` when
    nothing is hidden from them (the exact odds are theirs), or when the action is not a
    Perception Check or a skill roll against another character. Returns ``(words, dice,
    chance by "N or more")``, each chance the success of the rule's own :func:`skill_check`;
    the dice are written out in words' spacing (``3d6 + 3``), as the player's own sum.

    >>> from referee.systems.intrigue.game import load_game
    >>> state = load_game({"characters": {
    ...     "ann": {"number": 15, "skills": {"Perception": 3}},
    ...     "bea": {"number": 40}}})
    >>> words, dice, chance = own_roll(
    ...     state, Action("ann", "perceive", {"target": "bea"}), lambda c: c == "ann")
    >>> dice, str(chance["16 or more"]), str(chance["14 or more"])
    ('3d6 + 3', '7/27', '1/2')
    """
    if not state.has_character(action.actor):
        return None
    me = state.character(action.actor)
    params = action.params
    if action.kind == "perceive":
        target = _ref(state, params.get("target"))
        if target is None:
            return None
        value = me.skill(PERCEPTION)
        words = f"{me.id}'s Perception total (the envelopes' Target Numbers are {target}'s)"
    elif action.kind == "roll" and params.get("target") is None:
        name = params.get("skill") or params.get("ability")
        other = _ref(state, params.get("against"))
        if name is None or other is None or knows(other):
            return None
        ability = me.ability(str(name)) if params.get("ability") else None
        value = (ability.value or 0) if ability is not None else me.skill(str(name))
        words = f"{me.id}'s {name} total (the skill of {other} is theirs)"
    else:
        return None
    chance = {f"{n} or more": skill_check(value, n).odds().success for n in LADDER}
    return words, f"3d6 {'+' if value >= 0 else '−'} {abs(value)}", chance


def _as_declared(
    state: IntrigueState,
    combat: Any,
    who: str,
    params: Mapping[str, Any],
    is_wanted: Callable[[str], bool],
) -> tuple[IntrigueState, Any, Any] | None:
    """The state after ``who`` declares ``params`` in ``combat`` (a declaration of a kind
    ``is_wanted`` and the rules accept), with the combat and the declaration: what the odds of a
    declaration are read from. ``None`` for one the rules would refuse."""
    try:
        args = DECLARE.parse(params)
        if not is_wanted(args.action):
            return None
        payload = fight.validate(state, combat, who, args)
    except (ActionError, RuleError):
        return None
    rank = fight.initiative_rank(state, combat, who)
    declared = Event(
        COMBAT_DECLARED,
        {"combat": combat.id, "character": who, "rank": rank, **payload},
        audience=EVERYONE,
    )
    b = Builder(state, evolve)
    b.add(declared)
    taken = b.state.combat(combat.id)
    decl = taken.declaration(who)
    return None if decl is None else (b.state, taken, decl)


def _declared_attack(
    state: IntrigueState, who: str, params: Mapping[str, Any]
) -> list[tuple[str, Check]]:
    """An Attack or a Grab being declared: the roll it will make when the round resolves, as
    the declarations stand now ("The Attacker rolls 3d6 and adds their Combat Stat. If the
    total is greater than the Target's Combat Stat + 10, the attack succeeds"). A target who
    has still to declare may yet take a Defensive Action (+3): the words say so. Between rounds
    a declaration begins the next round (as its choice is offered): read from its start."""
    combat = state.combat_of(who)
    if combat is None:
        return []
    state, combat, _ = fight.round_start(state, combat)
    if combat.declaration(who) is not None:
        return []
    found = _as_declared(state, combat, who, params, lambda kind: kind in ("attack", "grab"))
    if found is None:
        return []
    after, taken, decl = found
    rolls = fight.rolls_of(after, taken, [decl])
    target = decl.target
    if target is not None and combat.declaration(target) is None:
        unless = f" (if {target} takes no Defensive Action)"
        rolls = [
            (f"{who_what}{unless}: {dice}" if colon else words + unless, check)
            for words, check in rolls
            for who_what, colon, dice in [words.rpartition(": ")]
        ]
    return rolls


def _held_action(
    state: IntrigueState, who: str, params: Mapping[str, Any]
) -> list[tuple[str, Check]]:
    """A held action taken during the round resolves at once ("A character can choose to
    'hold' their action until a later time"): its roll, if any. An ordinary declaration rolls
    nothing."""
    combat = state.combat_of(who)
    if combat is None or not combat.in_round:
        return []
    mine = combat.declaration(who)
    if mine is None or mine.kind != "hold" or mine.resolved:
        return []
    if fight.pending_declarers(state, combat) or ranked_above(combat, mine):
        return []
    found = _as_declared(state, combat, who, params, lambda kind: kind != "hold")
    if found is None:
        return []
    after, taken, decl = found
    return list(fight.rolls_of(after, taken, [decl]))
