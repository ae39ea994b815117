"""Fighting: an attack, its defence and the stress it does.

Gin Lane, "Action: Attack", "Resolving attacks", "Range" (defence and spin:
:mod:`~referee.systems.ginlane.defence`; manoeuvres, blocks and grapples have their own modules).
Each function takes a :class:`~referee.core.Builder` (the events so far,
folded), the action and the dice; it emits events or raises :class:`~referee.core.RuleError`.
"""

from __future__ import annotations

from referee.core import (
    Action,
    Builder,
    CheckOdds,
    RuleError,
)
from referee.core.naming import title_of
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, resolve_tags, roll_spec
from referee.systems.ginlane.blocks import protector_of
from referee.systems.ginlane.cards import check_card, odds_json
from referee.systems.ginlane.consequences import take_stress
from referee.systems.ginlane.defence import defend, spin
from referee.systems.ginlane.grapple import held
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    OpposedRoll,
    Resolution,
)
from referee.systems.ginlane.scene import (
    Combatant,
    SceneState,
)
from referee.systems.ginlane.tables import Weapon
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry


def at_range(distance: int, target: Combatant, weapon: Weapon, skill: str) -> tuple[int, bool]:
    """Range: the damage bonus of the weapon at ``distance`` zones, and whether that is long
    range (a free tag for the defence); :class:`RuleError` out of reach."""
    if skill in rules.SOCIAL_ATTACKS:
        # words: no weapon, reach as far as a raised voice carries (Rulings)
        if distance > rules.SOCIAL_REACH:
            raise RuleError("Zones", f"{target.id} is {distance} zones away, out of earshot")
        return 0, False
    if skill != weapon.skill:
        # a weapon used with another skill (a pistol as a club) is improvised (Rulings)
        if distance > 0:
            raise RuleError("Range", f"a {weapon.name} used with {skill} reaches 0 zones")
        return rules.IMPROVISED_BONUS, False
    return rules.damage_bonus(weapon, distance), rules.is_long_range(weapon, distance)


def attack(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Attack: 2d6 + a combat skill against the target's defence."""
    p = acts.ATTACK.of(action)
    me = b.state.get(action.actor)
    target = b.state.get(p.target)
    if target.taken_out:
        raise RuleError("Taken Out", f"{target.id} is already Taken Out")
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)  # a weapon drawn as a supplemental action is the one in hand
    weapon = weapon_entry(p.weapon or me.weapon)
    skill = skill_entry(p.skill or weapon.skill).name
    bonus, long_range = at_range(b.state.distance(me.zone, target.zone), target, weapon, skill)
    track = p.track or ("Composure" if skill in rules.SOCIAL_ATTACKS else "Health")
    tags = resolve_tags(b.state, me, p.tags, [target.id])
    spec = roll_spec(b.state, me, skill, tags, mod, p)
    protector = protector_of(b.state, target.id)

    def announce(
        check: DifficultyCheck | OpposedRoll, result: Resolution, dskill: str, odds: CheckOdds
    ) -> None:
        pay(b, me.id, tags, result.actor)
        b.emit(
            ev.ATTACK_ROLLED,
            {
                "character": me.id,
                "target": target.id,
                "skill": skill,
                "weapon": weapon.name,
                "total": result.actor.total,
                "defence": result.actor.total - result.margin,
                "defence_skill": dskill,
                "rolled": result.actor.to_json(),
                "long_range": long_range,
                "bonus": bonus,
                "odds": odds_json(odds),
                "roll": check_card(
                    check,
                    result,
                    f"{title_of(me.id)} attacks {title_of(target.id)} ({skill} against {dskill})",
                    rule="Action: Attack",
                    odds=odds,
                ),
            },
        )

    result, _ = defend(
        b,
        me,
        target,
        spec,
        skill,
        p.defence,
        small=weapon.small,
        extra_free=1 if long_range else 0,
        floor=protector.block.strength if protector and protector.block else None,
        track=track,
        dice=dice,
        announce=announce,
    )
    attack = result.actor.total
    # the margin is against the higher of the defence and a protecting Block
    against = attack - result.margin
    if held(b, me, skill, attack, breaking=target.id):
        return
    if protector is not None and protector.block is not None:
        b.emit(
            ev.BLOCK_TESTED,
            {"blocker": protector.id, "strength": protector.block.strength, "total": attack},
        )
    stress = rules.attack_stress(attack, against, bonus)
    if attack == against:
        b.emit(ev.ATTACK_MATCH, {"character": me.id, "target": target.id, "stress": stress})
    if rules.is_spin(attack, against):
        spin(b, target, against=me)
    take_stress(b, me, target, stress, track, p.consequences)
