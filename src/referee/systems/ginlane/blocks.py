"""Blocks: protecting, holding a doorway, a thing or a named action, and getting past.

Gin Lane, "Action: Block", "Hold a thing" ("Hold a doorway": :mod:`~referee.systems.ginlane.zones`).
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import (
    Action,
    Builder,
    Choice,
    Domain,
    OneOf,
    RuleError,
    Text,
)
from referee.core.naming import possessive_of, title_of
from referee.core.values import Json, evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, resolve_tags, roll_spec
from referee.systems.ginlane.cards import check_card, odds_json, roll_card
from referee.systems.ginlane.grapple import held
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
)
from referee.systems.ginlane.scene import (
    Block,
    Combatant,
    Release,
    SceneFold,
    SceneState,
)
from referee.systems.ginlane.tables import skill as skill_entry


def protector_of(state: SceneState, cid: str) -> Combatant | None:
    """Action: Block: who protects ``cid`` (a Block of kind "protect", not Taken Out), if
    anyone: an attack on them must beat the Block's strength as well as their defence."""
    return next(
        (
            c
            for c in state.combatants
            if c.block is not None
            and c.block.kind == "protect"
            and c.block.target == cid
            and not c.taken_out
        ),
        None,
    )


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


# -- the choices


BLOCKING: tuple[Json, ...] = ("Weapons", "Brawl", "Strength", "Agility")
"""Skills offered for a Block of a named action, and for beating one (the referee may name
another)."""


def block_choices(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Block (protect an ally, hold a doorway, prevent a named action), beating a Block
    of a named action, and "Hold a thing" (a Block on a thing, seizing it)."""
    out: list[Choice] = []
    allies = tuple(c.id for c in state.combatants if c.side == me.side and c.id != me.id)
    if allies:
        out.append(Choice(me.id, "block", {"protect": OneOf(allies), **release}))
    doors = tuple(
        sorted({b if a == me.zone else a for a, b, _ in state.links if me.zone in (a, b)})
    )
    if doors:
        out.append(Choice(me.id, "block", {"doorway": OneOf(doors), **release}))
    named_action: dict[str, Domain] = {
        "action": Text("open the door"),
        "skill": OneOf(BLOCKING),
        **release,
    }
    out.append(Choice(me.id, "block", named_action, label="a Block of a named action"))
    blockers = tuple(
        c.id
        for c in state.combatants
        if c.block is not None and c.block.kind == "action" and c.id != me.id and not c.taken_out
    )
    if blockers:
        out.append(
            Choice(
                me.id,
                "overcome",
                {"blocker": OneOf(blockers), "skill": OneOf(BLOCKING), **release},
                label="the action a Block prevents, against it",
            )
        )
    things = tuple(sorted({thing for thing, _ in state.holdings}))
    if things:
        out.append(Choice(me.id, "block", {"hold": OneOf(things), **release}))
        out.append(Choice(me.id, "seize", {"thing": OneOf(things), **release}))
    return out


# -- the fold: the scene after a Block set and a thing seized


def after_block_set(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Action: Block: the roll is the Block's strength until the blocker's next turn."""
    me = state.get(str(d["character"]))
    block = Block(str(d["kind"]), int(d["strength"]), str(d["target"]))
    return state.put(evolved(me, block=block))


def after_seized(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Hold a thing: the thing is in the seizer's hands."""
    holdings = tuple(h for h in state.holdings if h[0] != d["thing"])
    return evolved(state, holdings=(*holdings, (str(d["thing"]), str(d["character"]))))


FOLDS: Mapping[str, SceneFold] = {ev.BLOCK_SET: after_block_set, ev.SEIZED: after_seized}
"""The scene after each event of this section."""
