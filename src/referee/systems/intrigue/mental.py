"""Mental Combat outside a combat: an unnoticed mental attack, resolved to one side.

Rules text (Intrigue in the Clouds), "Mental Combat" and "Mixing Mental and Normal Combat";
RULINGS.md, Round 3: whether an ability is obvious is its own (``Ability.is_obvious``: a
damaging one is, unless its card says ``obvious: false``). An obvious mental attack is fought as
a combat: declared with ``use_mind`` and ``declare``
(:mod:`~referee.systems.intrigue.combat_actions`). An unobvious one is resolved here, and its
damage, if any, is taken as from any attack (:func:`.damage.damage_aside`).
"""

from __future__ import annotations

from referee.core import Action, Builder, Event, Json, RollCard, RuleError, only
from referee.dice import DiceSource
from referee.systems.intrigue.acting import acting_character, tell
from referee.systems.intrigue.actions import MENTAL_ATTACK
from referee.systems.intrigue.damage import damage_aside
from referee.systems.intrigue.events import MENTAL_ATTACKED
from referee.systems.intrigue.rules import attack_check, attack_target_number
from referee.systems.intrigue.state import IntrigueState

__all__ = ["mental_attack"]

RULE = "Mental Combat"


def mental_attack(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """An unnoticed mental attack: "no need to declare combat ... Simply take the target
    character to one side, resolve the outcome" ("Mental Combat"). Only the two characters
    (and the referee) see it; damage is taken as from any attack (RULINGS.md, Round 3)."""
    state = b.state
    me = acting_character(state, action)
    args = MENTAL_ATTACK.of(action)
    target, ability_name = state.character(str(args.target)), args.ability
    ability = me.ability(ability_name)
    if ability is None or not ability.mental:
        raise RuleError(RULE, f"{me.id} has no Special Ability for Mental Combat {ability_name!r}")
    if ability.is_obvious:
        raise RuleError(
            "Mixing Mental and Normal Combat",
            f"{ability.name} is an obvious mental attack: the Attacker must declare combat",
        )
    if target.id == me.id:
        raise RuleError(RULE, "a character cannot attack themselves")
    if ability.damage and not state.status(target.id).can_act:
        raise RuleError(RULE, f"{target.id} is out of action")
    if state.combat_of(me.id) is not None or state.combat_of(target.id) is not None:
        raise RuleError(RULE, "in a combat, declare it as a Combat Action")
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
        "roll": RollCard.of(
            check, result, f"{me.name} {ability.name} {target.name}", rule=RULE
        ).to_json(),
    }
    if result.is_success:
        payload["effect"] = ability.effect or ability.description
    tell(b, Event(MENTAL_ATTACKED, payload, audience=only(me.id, target.id)))
    if result.is_success and ability.damage:
        tell(b, *damage_aside(b.state, me.id, target.id, ability.damage, ability.name))
