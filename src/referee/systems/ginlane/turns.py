"""Turns: Initiative, the order of turns, and the Full Actions that are about the turn itself.

Gin Lane, "Fighting", "Initiative", "Action: Wait", "Action: Full defence", "Action: Something Else
?".
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.core import (
    Action,
    Builder,
    Choice,
    Handler,
    RuleError,
    Secret,
    Text,
    only,
)
from referee.core.fairness import SALT, seal, unseal
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import pay, place, resolve_tags, roll_spec
from referee.systems.ginlane.cards import roll_card
from referee.systems.ginlane.grapple import let_go
from referee.systems.ginlane.scene import (
    SITTING_DUCK,
    Combatant,
    Release,
    SceneFold,
    SceneState,
)


def start_of_action(b: Builder[SceneState], action: Action) -> None:
    """Before a Full Action: the fight goes on, it is the actor's turn (or they Wait), no
    fizzled fuse is pending, and a grappler keeps the grapple or lets go."""
    state = b.state
    if state.over:
        raise RuleError("Taken Out", "the fight is over")
    asked = state.pending.target if state.pending else state.hit.character if state.hit else None
    if asked is not None:
        raise RuleError("Defence", f"the table waits for {title_of(asked)} to answer the attack")
    if not state.order:
        raise RuleError("Initiative", "roll initiative first")
    me = state.get(action.actor)
    if me.taken_out:
        raise RuleError("Taken Out", f"{me.id} has been Taken Out")
    if action.actor != state.current:
        if not me.waiting:
            raise RuleError("Initiative", f"it is {state.current}'s turn, not {me.id}'s")
        # Action: Wait: acting out of turn moves the waiter here for the rest of the fight
        order = [c for c in state.order if c != me.id]
        index = order.index(str(state.current))
        order.insert(index, me.id)
        acted: dict[str, Any] = {"character": me.id, "order": order, "turn": index}
        kept = [unseal(n, plan, salt) for c, n, plan, salt in state.plans if c == me.id]
        if kept:
            acted["unsealed"] = kept
        b.emit(ev.WAIT_ACTED, acted)
    if any(f.thrower == me.id for f in b.state.fizzles):
        raise RuleError("Fizzle", f"{me.id} must roll the fizzled grenade's fuse first (fuse)")
    if me.block is not None and me.block.kind == "grapple" and action.kind != "grapple":
        # Releasing the Grapple: "release a grapple at will and perform a normal action"
        letting_go = getattr(acts.CATALOGUE[action.kind].of(action), "release", False)
        if action.kind != "release" and not letting_go:
            raise RuleError(
                "Grapple",
                f"{me.id} is grappling {me.block.target}: keep the grapple or release it "
                "(release: true) to act otherwise",
            )
        if action.kind != "release":
            let_go(b, me)


def end_turn(b: Builder[SceneState]) -> None:
    """After a Full Action: the fight is over when one side stands, else the next turn."""
    state = b.state
    if state.over or not state.order:
        return
    sides = {c.side for c in state.combatants if not c.taken_out}
    if len(sides) <= 1:
        b.emit(ev.FIGHT_OVER, {"standing": sorted(sides)})
        return
    index, rnd = state.turn, state.round
    for _ in range(len(state.order)):
        index += 1
        if index >= len(state.order):
            index, rnd = 0, rnd + 1
        if not state.get(state.order[index]).taken_out:
            break
    b.emit(ev.TURN_STARTED, {"character": state.order[index], "turn": index, "round": rnd})


def end_turn_unless_asked(b: Builder[SceneState]) -> None:
    """The turn passes unless the action waits for someone's answer: an attack for its
    target's defence ("Defence"), a hit for its target to take it ("Consequences"), a
    grenade's blast for its next victim's defence ("Grenades")."""
    if b.state.pending is None and b.state.hit is None and b.state.blast is None:
        end_turn(b)


@dataclass(frozen=True)
class FullAction:
    """A Full Action ("3. Actions"): taken on one's turn (or out of it, by one Waiting), and
    the turn passes after it: :func:`start_of_action`, the rule, :func:`end_turn`."""

    rule: Handler
    """The rule of the action itself (``(b, action, dice) -> None``)."""

    def __call__(self, b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
        start_of_action(b, action)
        self.rule(b, action, dice)
        end_turn_unless_asked(b)


def initiative(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Initiative: 2d6 + Alertness; the winner goes first, then around the table."""
    if b.state.order:
        raise RuleError("Initiative", "initiative has been rolled")
    seats = [c.id for c in b.state.combatants if not c.taken_out]
    if not seats:
        raise RuleError("Initiative", "no one is left standing to roll initiative")
    tagged = acts.INITIATIVE.of(action).tags
    for cid in tagged:
        if cid not in seats:
            raise RuleError("Initiative", f"{cid!r} is not in the fight to tag for initiative")
    # "Almost any 2d6 roll may be affected by invoking, 'tagging', a relevant Aspect" ("Rolling
    # the Dice"): each character's first initiative roll takes the Aspects they tag
    tags = {
        cid: resolve_tags(b.state, b.state.get(cid), names, []) for cid, names in tagged.items()
    }
    rolls: dict[str, list[int]] = {cid: [] for cid in seats}
    cards: list[dict[str, Any]] = []
    contenders = seats
    while True:
        for cid in contenders:
            c = b.state.get(cid)
            mine = tags.pop(cid, [])
            alertness = roll_spec(b.state, c, "Alertness", mine, 0)
            result = alertness.roll(dice)
            pay(b, cid, mine, result)
            rolls[cid].append(result.total)
            cards.append(
                roll_card(
                    alertness,
                    result,
                    f"{title_of(cid)} rolls initiative (Alertness)",
                    rule="Initiative",
                )
            )
        best = max(rolls[cid][-1] for cid in contenders)
        contenders = [cid for cid in contenders if rolls[cid][-1] == best]
        if len(contenders) == 1:
            break
    winner = contenders[0]
    start = seats.index(winner)
    order = seats[start:] + seats[:start]
    b.emit(
        ev.INITIATIVE_ROLLED, {"totals": rolls, "order": order, "winner": winner, "rolls": cards}
    )
    b.emit(ev.TURN_STARTED, {"character": winner, "turn": 0, "round": 1})


def wait(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Wait: forgo the turn to react later; what for is the waiter's secret."""
    me = b.state.get(action.actor)
    plan = acts.WAIT.of(action).plan
    if not plan:
        b.emit(ev.WAITING, {"character": me.id})
        return
    # sealed (issue 12): everyone sees the commitment; the plan and its salt are published,
    # and checked, when the waiter acts on it
    name = f"round {b.state.round}, turn {b.state.turn}: the plan of {me.id}"
    sealed, salt = seal(name, plan, dice, only(me.id))
    b.emit(
        ev.WAITING,
        {"character": me.id, "sealed": sealed},
        secrets=(Secret("plan", plan, only(me.id)), salt),
    )


def full_defence(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Full defence: +2 on defensive rolls until the next turn."""
    b.emit(ev.FULL_DEFENCE, {"character": action.actor})


def something_else(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Something Else: the distraction is a free-taggable Sitting Duck."""
    me = b.state.get(action.actor)
    b.emit(ev.SOMETHING_ELSE, {"character": me.id, "what": acts.SOMETHING_ELSE.of(action).what})
    place(b, SITTING_DUCK, on=me.id, setter=me.id, free_side="!" + me.side, until_turn_of=me.id)


# -- the choices


def turn_choices(me: Combatant, release: Release) -> list[Choice]:
    """ "Action: Wait", "Action: Full defence", "Action: Something Else ?": open on every turn."""
    return [
        Choice(
            me.id,
            "wait",
            {"plan": Text(f"{me.id} strikes whoever comes through the door"), **release},
        ),
        Choice(me.id, "full_defence", dict(release)),
        Choice(me.id, "something_else", {"what": Text(f"{me.id} loads a pistol"), **release}),
    ]


# -- the fold: the scene after each event of "Initiative" and the turns


def after_initiative_rolled(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Initiative: the order of turns, the winner first, then around the table."""
    return evolved(state, order=tuple(d["order"]))


def after_turn_started(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """A turn starts: every defence on the table is gone (RULINGS.md, Round 3: it stands "in
    the Turn" it was rolled in); the character's Full defence, Wait and Block (but a grapple,
    maintained turn by turn) end, and Aspects lasting "until your next turn" lapse."""
    cid = str(d["character"])
    state = _defences_cleared(state)
    me = state.get(cid)
    me = evolved(me, full_defence=False, waiting=False)
    if me.block is not None and me.block.kind != "grapple":
        me = evolved(me, block=None)
    aspects = tuple(a for a in state.aspects if a.until_turn_of != cid)
    return evolved(state.put(me), turn=int(d["turn"]), round=int(d["round"]), aspects=aspects)


def _defences_cleared(state: SceneState) -> SceneState:
    return evolved(state, combatants=tuple(evolved(c, defences=()) for c in state.combatants))


def after_wait_acted(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Action: Wait: the waiter acts, and takes this place in the order from now on: the
    waiter's own Turn, so the defences on the table are gone (RULINGS.md, Round 3)."""
    state = _defences_cleared(state)
    me = evolved(state.get(str(d["character"])), waiting=False)
    plans = tuple(p for p in state.plans if p[0] != me.id)
    return evolved(state.put(me), order=tuple(d["order"]), turn=int(d["turn"]), plans=plans)


def after_waiting(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Action: Wait: the character waits; a sealed plan is kept with its salt until acted on."""
    cid = str(d["character"])
    waiting = state.put(evolved(state.get(cid), waiting=True))
    sealed = d.get("sealed")
    if isinstance(sealed, dict) and isinstance(d.get(SALT), str):
        plan = (cid, str(sealed["choice"]), str(d.get("plan", "")), str(d[SALT]))
        plans = (*(p for p in state.plans if p[0] != cid), plan)
        return evolved(waiting, plans=plans)
    return waiting


def after_full_defence(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Action: Full defence: +2 on defensive rolls until the next turn."""
    return state.put(evolved(state.get(str(d["character"])), full_defence=True))


def after_fight_over(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Taken Out: no more than one side stands; the fight is over."""
    return evolved(state, over=True)


FOLDS: Mapping[str, SceneFold] = {
    ev.INITIATIVE_ROLLED: after_initiative_rolled,
    ev.TURN_STARTED: after_turn_started,
    ev.WAIT_ACTED: after_wait_acted,
    ev.WAITING: after_waiting,
    ev.FULL_DEFENCE: after_full_defence,
    ev.FIGHT_OVER: after_fight_over,
}
"""The scene after each event of this section."""
