"""Fighting: attacks and their defence, manoeuvres, blocks and grapples.

Gin Lane, "Action: Attack", "Resolving attacks", "Spin", "Action: Manoeuvre", "Action: Block",
"Grapple", "Defence".
Each function takes a :class:`~referee.core.Builder` (the events so far,
folded), the action and the dice; it emits events or raises :class:`~referee.core.RuleError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from referee.core import (
    Action,
    Builder,
    CheckOdds,
    RuleError,
)
from referee.core.naming import possessive_of, title_of
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, place, resolve_tags, roll_spec
from referee.systems.ginlane.cards import check_card, odds_json, roll_card
from referee.systems.ginlane.consequences import take_stress
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
    OpposedRoll,
    Resolution,
)
from referee.systems.ginlane.scene import (
    DEFAULT_DIFFICULTY,
    SCENE,
    SPIN_ASPECT,
    Combatant,
    SceneState,
)
from referee.systems.ginlane.tables import difficulty_number
from referee.systems.ginlane.tables import manoeuvre as named_manoeuvre
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry
from referee.systems.ginlane.zones import grappler_of, step


def held(b: Builder[SceneState], me: Combatant, skill: str, total: int, breaking: str) -> bool:
    """Grapple: a grappled character must beat the grapple strength to do anything
    physical; beating it with an action against the grappler breaks the grapple."""
    grappler = grappler_of(b.state, me.id)
    if grappler is None or skill not in rules.PHYSICAL_SKILLS:
        return False
    assert grappler.block is not None
    if total <= grappler.block.strength:
        b.emit(
            ev.GRAPPLE_HELD,
            {"character": me.id, "by": grappler.id, "strength": grappler.block.strength},
        )
        return True
    if grappler.id == breaking:
        b.emit(ev.GRAPPLE_BROKEN, {"character": me.id, "by": grappler.id, "total": total})
    return False


Announce = Callable[[DifficultyCheck | OpposedRoll, Resolution, str, CheckOdds], None]
"""Records the attacker's roll (its check, result, the defence skill and the exact odds)."""


def defend(
    b: Builder[SceneState],
    attacker: Combatant,
    target: Combatant,
    spec: GinLaneRoll,
    attack_skill: str,
    defence: acts.Defence | None,
    *,
    small: bool = False,
    extra_free: int = 0,
    floor: int | None = None,
    track: str | None = None,
    dice: DiceSource,
    announce: Announce,
) -> tuple[Resolution, str]:
    """Roll (or reuse) the target's defence against an attack or manoeuvre ("Defence").

    ``announce`` records the attacker's roll, with its exact odds worked out before the
    dice were rolled, ahead of the defence's events.
    """
    skill = None if defence is None else defence.skill
    if skill is None:
        allowed = rules.defence_skills(attack_skill, small_weapon=small, track=track)
        skill = max(allowed, key=lambda s: (target.level(s), s == "Agility"))
    skill = skill_entry(str(skill)).name
    if not rules.can_defend(skill, attack_skill, small_weapon=small, track=track):
        raise RuleError("Defence", f"{skill} can't defend against a {attack_skill} attack")
    standing = target.standing(skill)
    if standing is not None:
        standing_check = DifficultyCheck(spec, max(standing, floor or standing))
        odds = standing_check.odds()
        result = standing_check.roll(dice)
        announce(standing_check, result, skill, odds)
        b.emit(
            ev.DEFENCE_STANDS,
            {"character": target.id, "skill": skill, "total": standing},
        )
        return result, skill
    dtags = () if defence is None else defence.tags
    tags = resolve_tags(b.state, target, dtags, [attacker.id])
    bonus = rules.FULL_DEFENCE_BONUS if target.full_defence else 0
    dspec = roll_spec(b.state, target, skill, tags, bonus)
    if extra_free:
        dspec = replace(dspec, tags=dspec.tags + extra_free, free_tags=dspec.free_tags + extra_free)
    opposed = OpposedRoll(spec, dspec, floor)
    odds = opposed.odds()
    result = opposed.roll(dice)
    assert result.opponent is not None
    announce(opposed, result, skill, odds)
    pay(b, target.id, tags, result.opponent)
    b.emit(
        ev.DEFENCE_ROLLED,
        {
            "character": target.id,
            "skill": skill,
            "total": result.opponent.total,
            "rolled": result.opponent.to_json(),
            "full_defence": target.full_defence,
        },
    )
    return result, skill


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
    distance = b.state.distance(me.zone, target.zone)
    if skill in rules.SOCIAL_ATTACKS:
        # words: no weapon, reach as far as a raised voice carries (Rulings)
        if distance > rules.SOCIAL_REACH:
            raise RuleError("Zones", f"{target.id} is {distance} zones away, out of earshot")
        bonus, long_range = 0, False
    elif skill != weapon.skill:
        # a weapon used with another skill (a pistol as a club) is improvised (Rulings)
        if distance > 0:
            raise RuleError("Range", f"a {weapon.name} used with {skill} reaches 0 zones")
        bonus, long_range = rules.IMPROVISED_BONUS, False
    else:
        bonus = rules.damage_bonus(weapon, distance)
        long_range = rules.is_long_range(weapon, distance)
    track = p.track or ("Composure" if skill in rules.SOCIAL_ATTACKS else "Health")
    tags = resolve_tags(b.state, me, p.tags, [target.id])
    spec = roll_spec(b.state, me, skill, tags, mod, p)
    protector = next(
        (
            c
            for c in b.state.combatants
            if c.block is not None
            and c.block.kind == "protect"
            and c.block.target == target.id
            and not c.taken_out
        ),
        None,
    )

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


def spin(b: Builder[SceneState], defender: Combatant, *, against: Combatant) -> None:
    """Success Levels: a defence that beats the roll by 4 or more gets spin — a free tag for the
    defender's side on the roller, until the roller's next turn."""
    place(
        b,
        SPIN_ASPECT,
        on=against.id,
        setter=defender.id,
        free_side=defender.side,
        until_turn_of=against.id,
    )
    b.emit(ev.SPIN, {"character": defender.id, "against": against.id})


def manoeuvre(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Manoeuvre: set (or remove) an Aspect, against a defence or a difficulty."""
    p = acts.MANOEUVRE.of(action)
    me = b.state.get(action.actor)
    named = named_manoeuvre(p.named) if p.named else None
    name = p.aspect or (named.aspect if named else "")
    if not name:
        raise RuleError("Action: Manoeuvre", "needs an 'aspect' or a 'named' manoeuvre")
    if not (p.skill or named):
        raise RuleError("Action: Manoeuvre", "say which skill: 'skill' (or a 'named' one)")
    skill = skill_entry(p.skill or (named.skill if named else "")).name
    if named is not None and named.on == "self":
        on = me.id
    elif p.target:
        on = p.target
        b.state.get(on)
    elif p.zone:
        on = p.zone
        if on not in b.state.zones:
            raise RuleError("Zones", f"no zone {on!r}")
    elif p.scene:
        on = SCENE
    else:
        on = me.id
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    tags = resolve_tags(b.state, me, p.tags, [on])
    spec = roll_spec(b.state, me, p.skill or skill, tags, mod, p)
    opponent = on if on in {c.id for c in b.state.combatants} and on != me.id else None
    if opponent is not None:
        far = b.state.distance(me.zone, b.state.get(opponent).zone)
        if far >= rules.OUT_OF_SIGHT:
            raise RuleError("Zones", f"{opponent} is {far} zones away: out of sight")
        reach = rules.manoeuvre_reach(skill, weapon_entry(me.weapon))
        if far > reach:
            raise RuleError(
                "Zones", f"{opponent} is {far} zones away: a {skill} manoeuvre reaches {reach}"
            )

    def announce(
        check: DifficultyCheck | OpposedRoll, result: Resolution, dskill: str, odds: CheckOdds
    ) -> None:
        pay(b, me.id, tags, result.actor)
        against = f"{dskill} of {opponent}" if isinstance(check, OpposedRoll) else "a difficulty"
        b.emit(
            ev.MANOEUVRE_ROLLED,
            {
                "character": me.id,
                "aspect": name,
                "on": on,
                "skill": skill,
                **result.to_json(),
                "odds": odds_json(odds),
                "roll": check_card(
                    check,
                    result,
                    f"{title_of(me.id)} manoeuvres for {name} on {on} ({skill} against {against})",
                    rule="Action: Manoeuvre",
                    odds=odds,
                ),
            },
        )

    if opponent is not None and p.difficulty is None:
        target = b.state.get(opponent)
        result, _ = defend(b, me, target, spec, skill, p.defence, dice=dice, announce=announce)
    else:
        given = p.difficulty if p.difficulty is not None else DEFAULT_DIFFICULTY
        difficulty = difficulty_number(given)
        fixed = DifficultyCheck(spec, difficulty)
        odds = fixed.odds()
        result = fixed.roll(dice)
        announce(fixed, result, skill, odds)
    if held(b, me, skill, result.total, breaking=on):
        return
    if opponent is not None and p.difficulty is None:
        # Success Levels: "-4 [...] defence gets spin" — against a manoeuvre as against an
        # attack (Rulings)
        defender = b.state.get(opponent)
        if rules.is_spin(result.total, result.total - result.margin):
            spin(b, defender, against=me)
    if not result.is_success:
        return
    if p.remove:
        found = [a for a in b.state.aspects if a.name.lower() == name.lower() and a.on == on]
        if not found:
            raise RuleError("Manoeuvres", f"no Aspect {name!r} on {on} to remove")
        b.emit(ev.ASPECT_REMOVED, {"id": found[0].id, "name": found[0].name, "on": on})
        if found[0].name == "Disarmed" and on == me.id and me.dropped:
            b.emit(ev.WEAPON_RECOVERED, {"character": me.id, "weapon": me.dropped})
        return
    unique = p.unique if p.unique is not None else bool(named and named.unique)
    place(
        b,
        name,
        on=on,
        setter=me.id,
        free_side=me.side,
        unique_to=me.id if unique else None,
    )
    if named is not None and named.name == "disarm" and opponent is not None:
        b.emit(ev.WEAPON_DROPPED, {"character": opponent, "weapon": b.state.get(opponent).weapon})


def block(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Block: the roll is the Block's strength until the blocker's next turn."""
    p = acts.BLOCK.of(action)
    me = b.state.get(action.actor)
    chosen = {"protect": p.protect, "doorway": p.doorway, "hold": p.hold, "action": p.action}
    kind = next((k for k, v in chosen.items() if v), None)
    if kind is None:
        raise RuleError("Action: Block", "say what to block: protect, doorway, hold or action")
    target = str(chosen[kind])
    if kind == "protect":
        b.state.get(target)
    elif kind == "doorway":
        b.state.distance(me.zone, target)
    elif kind == "action" and p.skill is None:
        # "Say what action you want to prevent and roll an appropriate skill"
        raise RuleError("Action: Block", f"say which skill blocks {target!r}")
    default = "Strength" if kind == "hold" else "Weapons"
    skill = skill_entry(p.skill or default).name
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    tags = resolve_tags(b.state, me, p.tags, [target])
    strength = roll_spec(b.state, me, p.skill or skill, tags, mod, p)
    rolled = strength.roll(dice)
    pay(b, me.id, tags, rolled)
    if held(b, me, skill, rolled.total, breaking=""):
        return
    b.emit(
        ev.BLOCK_SET,
        {
            "character": me.id,
            "kind": kind,
            "target": target,
            "strength": rolled.total,
            "skill": skill,
            "rolled": rolled.to_json(),
            "roll": roll_card(
                strength,
                rolled,
                f"{title_of(me.id)} blocks: {kind} {target} ({skill})",
                rule="Action: Block",
                outcome="strength",
            ),
        },
    )


def overcome(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Block: the Block's strength "must be beaten in an appropriate skill roll by
    anyone wanting to succeed in the named action"."""
    p = acts.OVERCOME.of(action)
    me = b.state.get(action.actor)
    blocker = b.state.get(p.blocker)
    if blocker.block is None or blocker.block.kind != "action" or blocker.taken_out:
        raise RuleError("Action: Block", f"{blocker.id} blocks no named action now")
    named = blocker.block.target
    skill = skill_entry(p.skill).name
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    tags = resolve_tags(b.state, me, p.tags, [blocker.id])
    spec = roll_spec(b.state, me, p.skill, tags, mod, p)
    check = DifficultyCheck(spec, blocker.block.strength)
    odds = check.odds()
    result = check.roll(dice)
    pay(b, me.id, tags, result.actor)
    if held(b, me, skill, result.total, breaking=""):
        return
    b.emit(
        ev.BLOCK_TESTED,
        {
            "blocker": blocker.id,
            "strength": blocker.block.strength,
            "character": me.id,
            "action": named,
            **result.to_json(),
            "odds": odds_json(odds),
            "roll": check_card(
                check,
                result,
                f"{title_of(me.id)} tries to {named} past {possessive_of(blocker.id)} Block "
                f"({skill})",
                rule="Action: Block",
                odds=odds,
            ),
        },
    )
    if result.is_success:
        b.emit(ev.BLOCK_OVERCOME, {"character": me.id, "blocker": blocker.id, "action": named})


def grapple(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Grapple: Strength, tagging an Aspect on the target; maintained turn by turn."""
    p = acts.GRAPPLE.of(action)
    me = b.state.get(action.actor)
    target = b.state.get(p.target)
    # the supplemental move comes first: the grappler lays hands on whoever is then in reach
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    if target.zone != me.zone:
        raise RuleError("Grapple", f"{target.id} is not in {me.id}'s zone")
    maintaining = (
        me.block is not None and me.block.kind == "grapple" and (me.block.target == target.id)
    )
    names = list(p.tags)
    if not maintaining:
        tag = p.tag
        if not tag:
            raise RuleError("Grapple", "tag an Aspect that lets you lay hands on the target")
        on_target = [a for a in b.state.aspects if a.on == target.id]
        if not any(a.name.lower() == str(tag).lower() for a in on_target) and not (
            target.sheet.has_aspect(str(tag))
        ):
            raise RuleError("Grapple", f"{target.id} has no Aspect {tag!r} to take advantage of")
        names = [str(tag), *names]
    tags = resolve_tags(b.state, me, names, [target.id])
    strength = roll_spec(b.state, me, "Strength", tags, mod)
    rolled = strength.roll(dice)
    pay(b, me.id, tags, rolled)
    if held(b, me, "Strength", rolled.total, breaking=target.id):
        return
    b.emit(
        ev.GRAPPLE_SET,
        {
            "character": me.id,
            "target": target.id,
            "strength": rolled.total,
            "maintained": maintaining,
            "supplemental": p.supplemental or None,
            "rolled": rolled.to_json(),
            "roll": roll_card(
                strength,
                rolled,
                f"{title_of(me.id)} grapples {title_of(target.id)}",
                rule="Grapple",
                outcome="strength",
            ),
        },
    )


def let_go(b: Builder[SceneState], me: Combatant) -> None:
    """Releasing the Grapple: "you can release a grapple at will"."""
    if me.block is None or me.block.kind != "grapple":
        raise RuleError("Releasing the Grapple", f"{me.id} is not grappling anyone")
    b.emit(ev.GRAPPLE_RELEASED, {"character": me.id, "target": me.block.target})


def release(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Releasing the Grapple; with ``to``, the bum's rush: move the opponent a zone, a
    Strength roll against the opponent's defence ("The opponent gets a defence in these
    cases as the grapple is off now")."""
    p = acts.RELEASE.of(action)
    me = b.state.get(action.actor)
    if me.block is None or me.block.kind != "grapple":
        raise RuleError("Releasing the Grapple", f"{me.id} is not grappling anyone")
    target = b.state.get(me.block.target)
    to = p.to
    if to:
        step(b.state, target.zone, to, clear=True)
    let_go(b, me)
    if not to:
        return
    me = b.state.get(me.id)
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    tags = resolve_tags(b.state, me, p.tags, [target.id])
    spec = roll_spec(b.state, me, "Strength", tags, mod, p)

    def announce(
        check: DifficultyCheck | OpposedRoll, result: Resolution, dskill: str, odds: CheckOdds
    ) -> None:
        pay(b, me.id, tags, result.actor)
        b.emit(
            ev.RUSH_ROLLED,
            {
                "character": me.id,
                "target": target.id,
                "to": to,
                "defence_skill": dskill,
                **result.to_json(),
                "odds": odds_json(odds),
                "roll": check_card(
                    check,
                    result,
                    f"{title_of(me.id)} rushes {title_of(target.id)} to {to} "
                    f"(Strength against {dskill})",
                    rule="Releasing the Grapple",
                    odds=odds,
                ),
            },
        )

    result, _ = defend(b, me, target, spec, "Strength", p.defence, dice=dice, announce=announce)
    if result.is_success:
        b.emit(ev.MOVED, {"character": target.id, "from": target.zone, "to": to, "by": me.id})


def seize(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Hold a thing: seizing it needs an appropriate roll beating the Block."""
    p = acts.SEIZE.of(action)
    me = b.state.get(action.actor)
    thing = p.thing
    skill = skill_entry(p.skill).name
    strength = None
    for c in b.state.combatants:
        if c.block and c.block.kind == "hold" and c.block.target == thing and c.id != me.id:
            strength = c.block.strength
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    tags = resolve_tags(b.state, me, p.tags, [])
    spec = roll_spec(b.state, me, p.skill, tags, mod, p)
    check = DifficultyCheck(spec, strength if strength is not None else 0)
    odds = check.odds()
    result = check.roll(dice)
    pay(b, me.id, tags, result.actor)
    if held(b, me, skill, result.total, breaking=""):
        return
    b.emit(
        ev.SEIZE_ROLLED,
        {
            "character": me.id,
            "thing": thing,
            "against": strength,
            **result.to_json(),
            "odds": odds_json(odds),
            "roll": check_card(
                check,
                result,
                f"{title_of(me.id)} seizes {thing} ({skill})",
                rule="Hold a thing",
                odds=odds,
            ),
        },
    )
    if result.is_success:
        b.emit(ev.SEIZED, {"character": me.id, "thing": thing})
