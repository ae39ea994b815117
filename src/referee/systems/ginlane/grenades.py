"""Grenades: the throw, the one attack on everyone in the zone, and the Fizzle.

Gin Lane, "Grenades" (and "Fizzle").
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from referee.core import (
    Action,
    Builder,
    Choice,
    Depends,
    Domain,
    OneOf,
    RuleError,
)
from referee.core.naming import possessive_of, title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, place, resolve_tags, roll_spec
from referee.systems.ginlane.cards import check_card, odds_json, roll_card
from referee.systems.ginlane.consequences import take_stress
from referee.systems.ginlane.defence import DefenceCheck, ask_defence
from referee.systems.ginlane.grapple import held
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
)
from referee.systems.ginlane.scene import (
    ON_TARGET,
    Blast,
    Combatant,
    Fizzle,
    PendingAttack,
    Release,
    SceneFold,
    SceneState,
)
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.zones import zones_between


def fizzle_chance(spec: GinLaneRoll) -> Fraction:
    """Fizzle: the exact chance that the grenade's attack shows a natural 2 or 3."""
    return sum(
        (p for t, p in spec.distribution().items() if rules.is_fizzle(t - spec.bonus)),
        Fraction(0),
    )


def _on_target_missed(on_target: str | None, margin: int) -> dict[str, str]:
    """Grenades: "An excess of 3+, allows the thrower to apply an On Target": an On Target
    asked for and not reached is said (``on_target_missed``), never dropped silently."""
    return {"on_target_missed": on_target} if on_target and margin < rules.ON_TARGET_EXCESS else {}


def throw_grenade(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Grenades: Agility against 7 (range penalties), On Target at 3+, one Firearms attack."""
    p = acts.THROW_GRENADE.of(action)
    me = b.state.get(action.actor)
    zone = p.zone
    # the supplemental move comes first: the range is from where the thrower then stands
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    distance = b.state.distance(me.zone, zone)
    if distance >= rules.OUT_OF_SIGHT:
        raise RuleError("Zones", f"{zone!r} is {distance} zones away: out of sight")
    # "Throwing through doors, over walls or inside enclosed spaces will be more difficult":
    # the text gives no number; the referee names it (``harder``, Rulings)
    mod += rules.throw_modifier(distance) - p.harder
    tags = resolve_tags(b.state, me, p.tags, [])
    spec = roll_spec(b.state, me, "Agility", tags, mod, p)
    throw_check = DifficultyCheck(spec, rules.GRENADE_DIFFICULTY)
    throw_odds = throw_check.odds()
    throw = throw_check.roll(dice)
    pay(b, me.id, tags, throw.actor)
    b.emit(
        ev.GRENADE_THROWN,
        {
            "character": me.id,
            "zone": zone,
            "distance": distance,
            **throw.to_json(),
            **_on_target_missed(p.on_target, throw.margin),
            "odds": odds_json(throw_odds),
            "roll": check_card(
                throw_check,
                throw,
                f"{title_of(me.id)} throws a grenade into {zone}",
                rule="Grenades",
                odds=throw_odds,
            ),
        },
    )
    if held(b, me, "Agility", throw.total, breaking=""):
        return
    if throw.margin < 0:
        b.emit(ev.GRENADE_ASTRAY, {"character": me.id, "zone": zone})
        return
    on_target = p.on_target
    if on_target and throw.margin >= rules.ON_TARGET_EXCESS:
        victim = b.state.get(on_target)
        if victim.zone != zone:
            raise RuleError("Grenades", f"{victim.id} is not in {zone!r}")
        place(b, ON_TARGET, on=victim.id, setter=me.id, free_side=me.side)
    else:
        on_target = None
    me = b.state.get(me.id)
    names = [*p.attack_tags, *([ON_TARGET] if on_target else [])]
    atags = resolve_tags(b.state, me, names, [on_target] if on_target else [])
    aspec = roll_spec(b.state, me, "Firearms", atags, 0)
    fizzle_odds = fizzle_chance(aspec)
    attack = aspec.roll(dice)
    pay(b, me.id, atags, attack)
    b.emit(
        ev.GRENADE_ATTACK,
        {
            "character": me.id,
            "zone": zone,
            "rolled": attack.to_json(),
            "odds": {"fizzle": str(fizzle_odds)},
            "roll": roll_card(
                aspec,
                attack,
                f"{possessive_of(me.id)} grenade attacks everyone in {zone} (Firearms)",
                rule="Grenades",
                outcome="fizzle" if rules.is_fizzle(attack.natural) else "attack",
                odds={"fizzle": fizzle_odds, "attack": 1 - fizzle_odds},
            ),
        },
    )
    if rules.is_fizzle(attack.natural):
        b.emit(ev.GRENADE_FIZZLED, {"character": me.id, "zone": zone, "on_target": on_target})
        return
    blast(b, me, zone, attack.total, on_target, dice)


def blast(
    b: Builder[SceneState],
    thrower: Combatant,
    zone: str,
    attack: int,
    on_target: str | None,
    dice: DiceSource,
    *,
    fuse: bool = False,
) -> None:
    """One attack against everyone in the zone: Health stress On Target, Composure else; each
    victim in turn chooses her defence (:func:`blast_on`)."""
    victims = [c.id for c in b.state.combatants if c.zone == zone and not c.taken_out]
    b.emit(
        ev.GRENADE_BLAST,
        {
            "character": thrower.id,
            "zone": zone,
            "attack": attack,
            "on_target": on_target,
            "victims": victims,
            "fuse": fuse,
        },
    )
    blast_on(b, dice)


def _track(blast: Blast, victim: str) -> str:
    """Grenades: "Health for those On Target, Composure for the rest"."""
    return "Health" if victim == blast.on_target else "Composure"


def blast_on(b: Builder[SceneState], dice: DiceSource) -> None:
    """Grenades: the blast goes on through its victims while nothing waits for an answer: a
    victim with a defence on the table that may meet it meets it (RULINGS.md, Round 3); the
    next is asked for hers ("Choose a skill to defend with in response to an Attack"): Agility,
    or Resolve against Composure."""
    while (now := b.state.blast) is not None and b.state.pending is None and b.state.hit is None:
        victim = b.state.get(now.left[0])
        track = _track(now, victim.id)
        allowed = rules.defence_skills("Firearms", track=track)
        standing = [(total, s) for s, total in victim.defences if s in allowed]
        if standing:
            total, skill = max(standing)
            b.emit(
                ev.DEFENCE_ROLLED,
                {
                    "character": victim.id,
                    "skill": skill,
                    "total": total,
                    "full_defence": victim.full_defence,
                },
            )
            _stress(b, now, victim, total, dice)
            continue
        ask_defence(
            b,
            attacker=now.thrower,
            target=victim.id,
            kind="blast",
            skill="Firearms",
            track=track,
            params=json.dumps({"attack": now.attack}),
            fuse=now.fuse,
            what=f"{possessive_of(now.thrower)} grenade attacks {title_of(victim.id)} "
            f"in {now.zone} with {now.attack} ({track})",
        )


def _stress(
    b: Builder[SceneState], blast: Blast, victim: Combatant, total: int, dice: DiceSource
) -> None:
    """Resolving attacks: the blast's stress on the victim, the grenade's bonus added."""
    stress = rules.attack_stress(blast.attack, total, rules.GRENADE_BONUS)
    thrower = b.state.get(blast.thrower)
    take_stress(b, thrower, victim, stress, _track(blast, victim.id), None, fuse=blast.fuse)


def answered(
    b: Builder[SceneState], pending: PendingAttack, chosen: acts.Defence, dice: DiceSource
) -> None:
    """Defence: the victim's answer to the blast — Agility, or Resolve against Composure —
    rolled to reach the grenade's total (Rulings), then its stress."""
    now = b.state.blast
    assert now is not None
    victim = b.state.get(pending.target)
    skill = skill_entry(chosen.skill).name
    if skill not in rules.defence_skills("Firearms", track=pending.track):
        raise RuleError(
            "Grenades",
            f"{victim.id} defends on Agility (or Resolve for Composure), not {skill}",
        )
    tags = resolve_tags(b.state, victim, chosen.tags, [now.thrower])
    bonus = rules.FULL_DEFENCE_BONUS if victim.full_defence else 0
    dspec = roll_spec(b.state, victim, skill, tags, bonus)
    rolled = dspec.roll_to(dice, now.attack, beat=False)
    pay(b, victim.id, tags, rolled)
    b.emit(
        ev.DEFENCE_ROLLED,
        {
            "character": victim.id,
            "skill": skill,
            "total": rolled.total,
            "full_defence": victim.full_defence,
            "roll": roll_card(
                dspec,
                rolled,
                f"{title_of(victim.id)} defends against the grenade ({skill} against {now.attack})",
                rule="Grenades",
                outcome="held" if rolled.total >= now.attack else "beaten",
            ),
        },
    )
    _stress(b, now, b.state.get(victim.id), rolled.total, dice)


def blast_checks(state: SceneState, pending: PendingAttack) -> list[tuple[str, DefenceCheck]]:
    """Each skill the victim may defend the blast with, her best first (Agility on a tie),
    with her chance to beat its total (no Aspect tagged; Full defence's +2)."""
    victim = state.get(pending.target)
    attack = int(json.loads(pending.params)["attack"])
    bonus = rules.FULL_DEFENCE_BONUS if victim.full_defence else 0
    allowed = rules.defence_skills("Firearms", track=pending.track)
    ranked = sorted(allowed, key=lambda s: (-victim.level(s), s != "Agility", s))
    return [
        (s, DifficultyCheck(GinLaneRoll(victim.level(s), mode=state.mode, modifier=bonus), attack))
        for s in ranked
    ]


def fuse(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Fizzle: on the thrower's next turn, roll again: EVEN 'phut', ODD a normal attack."""
    me = b.state.get(action.actor)
    fizzle = next((f for f in b.state.fizzles if f.thrower == me.id), None)
    if fizzle is None:
        raise RuleError("Fizzle", f"{me.id} has no fizzled grenade")
    if b.state.current != me.id:
        raise RuleError("Fizzle", "the fuse is rolled on the thrower's next turn")
    fuse = GinLaneRoll(me.level("Firearms"))
    goes_off = sum(
        (p for t, p in fuse.distribution().items() if rules.fuse_goes_off(t - fuse.bonus)),
        Fraction(0),
    )
    rolled = fuse.roll(dice)
    b.emit(
        ev.GRENADE_FUSE,
        {
            "character": me.id,
            "zone": fizzle.zone,
            "rolled": rolled.to_json(),
            "goes_off": rules.fuse_goes_off(rolled.natural),
            "odds": {"goes_off": str(goes_off)},
            "roll": roll_card(
                fuse,
                rolled,
                f"{possessive_of(me.id)} fizzled grenade in {fizzle.zone}: the fuse",
                rule="Grenades",
                outcome="goes off" if rules.fuse_goes_off(rolled.natural) else "phut",
                odds={"goes off": goes_off, "phut": 1 - goes_off},
            ),
        },
    )
    if not rules.fuse_goes_off(rolled.natural):
        return
    blast(b, me, fizzle.zone, rolled.total, fizzle.on_target, dice, fuse=True)


# -- the choices


def throw_choices(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Grenades: a throw into any zone in sight."""
    zones = tuple(
        z
        for z in state.zones
        if (d := zones_between(state, me.zone, z)) is not None and d < rules.OUT_OF_SIGHT
    )
    if not zones:
        return []
    people = {
        z: tuple(c.id for c in state.combatants if c.zone == z and not c.taken_out) for z in zones
    }
    on_target = Depends("zone", tuple((z, OneOf(ids)) for z, ids in people.items() if ids))
    params: dict[str, Domain] = {"zone": OneOf(zones), "on_target": on_target, **release}
    return [Choice(me.id, "throw_grenade", params, label="throw a grenade (On Target: whom)")]


# -- the fold: the scene after a Fizzle and its fuse


def after_grenade_fizzled(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Fizzle: the grenade lies in the zone, its fuse for the thrower's next turn."""
    on = d.get("on_target")
    fizzle = Fizzle(str(d["character"]), str(d["zone"]), str(on) if on else None)
    return evolved(state, fizzles=(*state.fizzles, fizzle))


def after_grenade_fuse(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Fizzle: the fuse rolled, the fizzled grenade is done with, phut or bang."""
    fizzles = tuple(f for f in state.fizzles if f.thrower != d["character"])
    return evolved(state, fizzles=fizzles)


def after_grenade_blast(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Grenades: the blast goes through the victims in the zone, each to defend in turn."""
    victims = tuple(str(v) for v in d["victims"])
    if not victims:
        return state
    on = d.get("on_target")
    blast = Blast(
        str(d["character"]),
        str(d["zone"]),
        int(d["attack"]),
        str(on) if on else None,
        victims,
        fuse=bool(d.get("fuse", False)),
    )
    return evolved(state, blast=blast)


FOLDS: Mapping[str, SceneFold] = {
    ev.GRENADE_BLAST: after_grenade_blast,
    ev.GRENADE_FIZZLED: after_grenade_fizzled,
    ev.GRENADE_FUSE: after_grenade_fuse,
}
"""The scene after each event of this section."""
