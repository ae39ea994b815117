"""Grapple: laying hands on a target, holding on turn by turn, letting go and the bum's rush.

Gin Lane, "Grapple", "Releasing the Grapple".
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.core import (
    Action,
    Builder,
    CheckOdds,
    Choice,
    OneOf,
    RuleError,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, resolve_tags, roll_spec
from referee.systems.ginlane.cards import check_card, odds_json, roll_card
from referee.systems.ginlane.defence import (
    DefenceCheck,
    ask_defence,
    defence_checks,
    defend,
    standing_skill,
)
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    OpposedRoll,
    Resolution,
)
from referee.systems.ginlane.scene import (
    Block,
    Combatant,
    PendingAttack,
    SceneFold,
    SceneState,
    opponents_of,
)
from referee.systems.ginlane.zones import clear_steps, grappler_of, step


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
    cases as the grapple is off now"), which she chooses: the rush waits for her unless a
    defence of hers that may meet it is on the table in this Turn."""
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
    resolve_tags(b.state, me, p.tags, [target.id])
    if standing_skill(b.state.get(target.id), "Strength", False, None) is None:
        ask_defence(
            b,
            attacker=me.id,
            target=target.id,
            kind="rush",
            skill="Strength",
            modifier=mod,
            params=json.dumps(action.params, sort_keys=True),
            what=f"{title_of(me.id)} gives {title_of(target.id)} the bum's rush "
            f"towards {to} (Strength)",
        )
        return
    rush(b, me, target, p, mod, None, dice)


def answered(
    b: Builder[SceneState], pending: PendingAttack, chosen: acts.Defence, dice: DiceSource
) -> None:
    """Defence: the bum's rush waiting for its target rolled against the defence she chose."""
    p = acts.RELEASE.parse(json.loads(pending.params))
    me, target = b.state.get(pending.attacker), b.state.get(pending.target)
    rush(b, me, target, p, pending.modifier, chosen, dice)


def rush_checks(state: SceneState, pending: PendingAttack) -> list[tuple[str, DefenceCheck]]:
    """Each skill the text allows against the bum's rush waiting for a defence, best first,
    with the check it would make (no Aspect tagged)."""
    p = acts.RELEASE.parse(json.loads(pending.params))
    me, target = state.get(pending.attacker), state.get(pending.target)
    tags = resolve_tags(state, me, p.tags, [target.id])
    spec = roll_spec(state, me, "Strength", tags, pending.modifier, p)
    return defence_checks(state, target, spec, "Strength")


def rush(
    b: Builder[SceneState],
    me: Combatant,
    target: Combatant,
    p: acts.Release,
    mod: int,
    defence: acts.Defence | None,
    dice: DiceSource,
) -> None:
    """The bum's rush rolled: Strength against the opponent's defence; she moves a zone only
    if it succeeds."""
    to = str(p.to)
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

    result, _ = defend(b, me, target, spec, "Strength", defence, dice=dice, announce=announce)
    if result.is_success:
        b.emit(ev.MOVED, {"character": target.id, "from": target.zone, "to": to, "by": me.id})


# -- the choices


def grapple_choices(state: SceneState, me: Combatant) -> list[Choice]:
    """Grapple: a grappler keeps the grapple, lets go, or gives the bum's rush; anyone else
    may grapple an opponent in the zone, tagging an Aspect to lay hands on them."""
    out: list[Choice] = []
    if me.block is not None and me.block.kind == "grapple":
        held = state.get(me.block.target)
        out.append(
            Choice(me.id, "grapple", {"target": OneOf((held.id,))}, label="keep the grapple")
        )
        out.append(Choice(me.id, "release", label="let go"))
        rush = clear_steps(state, held.zone)
        if rush:
            out.append(Choice(me.id, "release", {"to": OneOf(rush)}, label="the bum's rush"))
        return out
    for target in opponents_of(state, me):
        if target.zone != me.zone:
            continue
        on_target = [a.name for a in state.aspects if a.on == target.id]
        handles = tuple(dict.fromkeys(on_target + list(target.sheet.all_aspects)))
        if handles:
            out.append(
                Choice(
                    me.id,
                    "grapple",
                    {"target": OneOf((target.id,)), "tag": OneOf(handles)},
                    label=f"grapple {title_of(target.id)}",
                )
            )
    return out


# -- the fold: the scene after a grapple set, released or broken


def after_grapple_set(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Grapple: the roll is the grapple's strength, maintained turn by turn."""
    me = state.get(str(d["character"]))
    grapple = Block("grapple", int(d["strength"]), str(d["target"]))
    return state.put(evolved(me, block=grapple))


def after_grapple_released(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Releasing the Grapple: the grappler lets go."""
    return state.put(evolved(state.get(str(d["character"])), block=None))


def after_grapple_broken(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Grapple: beaten by the one grappled, the grappler holds on no more."""
    return state.put(evolved(state.get(str(d["by"])), block=None))


FOLDS: Mapping[str, SceneFold] = {
    ev.GRAPPLE_SET: after_grapple_set,
    ev.GRAPPLE_RELEASED: after_grapple_released,
    ev.GRAPPLE_BROKEN: after_grapple_broken,
}
"""The scene after each event of this section."""
