"""Fighting: an attack, its defence and the stress it does.

Gin Lane, "Action: Attack", "Resolving attacks", "Range" (defence and spin:
:mod:`~referee.systems.ginlane.defence`; manoeuvres, blocks and grapples have their own modules).
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene.
"""

from __future__ import annotations

import json

from referee.core import (
    Action,
    Builder,
    CheckOdds,
    Choice,
    Domain,
    OneOf,
    RuleError,
    SomeOf,
)
from referee.core.actions import Later
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, resolve_tags, roll_spec, taggable
from referee.systems.ginlane.blocks import protector_of
from referee.systems.ginlane.cards import check_card, check_preview, odds_json
from referee.systems.ginlane.consequences import take_stress
from referee.systems.ginlane.defence import (
    DefenceCheck,
    defence_checks,
    defend,
    spin,
    standing_skill,
)
from referee.systems.ginlane.grapple import held
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
    OpposedRoll,
    Resolution,
)
from referee.systems.ginlane.scene import (
    Combatant,
    PendingAttack,
    Release,
    SceneState,
    opponents_of,
)
from referee.systems.ginlane.tables import Weapon
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry
from referee.systems.ginlane.turns import end_turn_unless_asked
from referee.systems.ginlane.zones import zones_between


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
    """Action: Attack: 2d6 + a combat skill against the target's defence, which she chooses
    ("Defence": "Choose a skill to defend with in response to an Attack"): the attack waits
    for her answer (:func:`~referee.systems.ginlane.answers.answer`) unless a defence of hers
    that may meet it is still on the table in this Turn."""
    p = acts.ATTACK.of(action)
    me = b.state.get(action.actor)
    target = b.state.get(p.target)
    if target.taken_out:
        raise RuleError("Taken Out", f"{target.id} is already Taken Out")
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)  # a weapon drawn as a supplemental action is the one in hand
    weapon = weapon_entry(p.weapon or me.weapon)
    skill = skill_entry(p.skill or weapon.skill).name
    at_range(b.state.distance(me.zone, target.zone), target, weapon, skill)
    track = p.track or ("Composure" if skill in rules.SOCIAL_ATTACKS else "Health")
    resolve_tags(b.state, me, p.tags, [target.id])
    if standing_skill(target, skill, weapon.small, track) is None:
        b.emit(
            ev.ATTACK_DECLARED,
            {
                "character": me.id,
                "target": target.id,
                "skill": skill,
                "weapon": weapon.name,
                "track": track,
                "modifier": mod,
                "params": json.dumps(action.params, sort_keys=True),
            },
        )
        return
    strike(b, me, target, p, mod, None, dice)


def answered(
    b: Builder[SceneState], pending: PendingAttack, chosen: acts.Defence, dice: DiceSource
) -> None:
    """Defence: the attack waiting for its target rolled against the defence she chose."""
    p = acts.ATTACK.parse(json.loads(pending.params))
    me, target = b.state.get(pending.attacker), b.state.get(pending.target)
    strike(b, me, target, p, pending.modifier, chosen, dice)


def concede(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Taken Out ("The character has lost the will/ability to resist"): the defender gives up
    before the attack against her is rolled, and is Taken Out; the victor decides what happens,
    within the terms of the contest (Rulings: the text names no concession)."""
    pending = b.state.pending
    if pending is None or pending.target != action.actor or pending.kind != "attack":
        raise RuleError(
            "Taken Out",
            f"{title_of(action.actor)} may concede only before an attack on her is rolled",
        )
    b.emit(ev.CONCEDED, {"character": pending.target, "to": pending.attacker})
    b.emit(ev.TAKEN_OUT, {"character": pending.target, "by": pending.attacker})
    end_turn_unless_asked(b)


def strike(
    b: Builder[SceneState],
    me: Combatant,
    target: Combatant,
    p: acts.Attack,
    mod: int,
    defence: acts.Defence | None,
    dice: DiceSource,
) -> None:
    """Resolving attacks: the attack against the defence chosen (or on the table), the stress
    it inflicts, spin, and the hit taken ("Stress Tracks", "Consequences")."""
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
        defence,
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
    take_stress(b, me, target, stress, track, None)


# -- the choices


def attack_check(
    state: SceneState, me: Combatant, target: Combatant
) -> DifficultyCheck | OpposedRoll | None:
    """The check of an attack with the weapon in hand against ``target``'s best defence
    (no tags), or ``None`` if the target is out of the weapon's reach."""
    weapon = weapon_entry(me.weapon)
    distance = zones_between(state, me.zone, target.zone)
    if distance is None or distance > weapon.range:
        return None
    attack = GinLaneRoll(me.level(weapon.skill), mode=state.mode)
    protector = protector_of(state, target.id)
    floor = protector.block.strength if protector and protector.block else None
    allowed = rules.defence_skills(weapon.skill, small_weapon=weapon.small, track="Health")
    skill = max(allowed, key=lambda s: (target.level(s), s == "Agility"))
    standing = target.standing(skill)
    if standing is not None:
        return DifficultyCheck(attack, max(standing, floor or standing))
    bonus = rules.FULL_DEFENCE_BONUS if target.full_defence else 0
    defence = GinLaneRoll(target.level(skill), mode=state.mode, modifier=bonus)
    if rules.is_long_range(weapon, distance):
        defence = evolved(defence, tags=1, free_tags=1)
    return OpposedRoll(attack, defence, floor)


def attack_choices(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Attack: the opponents in the weapon's reach, each with the exact odds."""
    in_reach: list[tuple[Combatant, DifficultyCheck | OpposedRoll]] = []
    for target in opponents_of(state, me):
        check = attack_check(state, me, target)
        if check is not None:
            in_reach.append((target, check))
    if not in_reach:
        return []
    odds = Later(
        lambda: [
            check_preview(
                check, f"{title_of(me.id)} attacks {title_of(t.id)}", rule="Action: Attack"
            )
            for t, check in in_reach
        ]
    )
    targets = OneOf(tuple(t.id for t, _ in in_reach))
    tags = SomeOf(taggable(state, me, [t.id for t, _ in in_reach]))
    label = f"attack with the {me.weapon}"
    params: dict[str, Domain] = {"target": targets, "tags": tags, **release}
    return [Choice(me.id, "attack", params, odds=odds, label=label)]


def attack_checks(state: SceneState, pending: PendingAttack) -> list[tuple[str, DefenceCheck]]:
    """Each skill the text allows against the attack waiting for a defence, best first, with
    the check it would make (no Aspect tagged; a protecting Block's floor, At Long Range's
    free tag): the odds as the attacker has them."""
    p = acts.ATTACK.parse(json.loads(pending.params))
    me, target = state.get(pending.attacker), state.get(pending.target)
    weapon = weapon_entry(pending.weapon)
    tags = resolve_tags(state, me, p.tags, [target.id])
    spec = roll_spec(state, me, pending.skill, tags, pending.modifier, p)
    _, long_range = at_range(state.distance(me.zone, target.zone), target, weapon, pending.skill)
    protector = protector_of(state, target.id)
    floor = protector.block.strength if protector and protector.block else None
    return defence_checks(
        state,
        target,
        spec,
        pending.skill,
        small=weapon.small,
        track=pending.track,
        floor=floor,
        long_range=long_range,
    )
