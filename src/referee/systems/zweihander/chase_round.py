"""A Round of a chase (house rules, "Chase scene rules"): moving, Actions, Ranged and Magick
Attacks, catching up.

"Each Round in order of Initiative, every participant rolls 1D10 + Movement and add it to their
current Escape and Pursuit Value. He can then describe an Action if he wishes. If it succeeds,
add 1 to 3 to its Value; if it critically fails, reduces it by 3 […]. A Ranged or Magick Attack
costs 3 Value points (1 on critical success, 6 on critical failure). Each rank of Damage
Threshold results in the victim losing 3 Value points." And "When (Pursuit Value >= Escape
Value), immediately lower their Pursuit Value to the Escape Value. The Pursuer may attempt a
Takedown" (:mod:`.takedown`).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from referee.core import (
    Action,
    ActionSpec,
    Between,
    Builder,
    Choice,
    NoParams,
    OneOf,
    Outcome,
    Params,
    RuleError,
    Who,
)
from referee.core.naming import possessive, title_of
from referee.core.values import evolved
from referee.dice import DiceSource, roll
from referee.systems.zweihander.chase_scene import (
    SECTION,
    chase_under_way,
    end_if_over,
    next_to_move,
)
from referee.systems.zweihander.emit import character_payload, test_card, test_json
from referee.systems.zweihander.events import (
    CHASE_ACTION_TAKEN,
    CHASE_ATTACKED,
    CHASE_CAUGHT_UP,
    CHASE_MOVED,
)
from referee.systems.zweihander.percentile import Difficulty, SkillTest, difficulty
from referee.systems.zweihander.state import ChaseState, Participant, ZweihanderState

__all__ = [
    "ACTION_LOSS",
    "ATTACK_COST",
    "CHASE_ACTION",
    "CHASE_ATTACK",
    "CHASE_MOVE",
    "DAMAGE_RANK_LOSS",
    "ChaseAction",
    "ChaseAttack",
    "attack",
    "fold_action_taken",
    "fold_attacked",
    "fold_caught_up",
    "fold_moved",
    "move",
    "round_choices",
    "take_action",
]

ATTACK_COST = {
    Outcome.CRITICAL_SUCCESS: 1,
    Outcome.SUCCESS: 3,
    Outcome.FAILURE: 3,
    Outcome.CRITICAL_FAILURE: 6,
}
"""A Ranged or Magick Attack costs 3 Value points (1 on critical success, 6 on critical failure)."""
ACTION_LOSS = 3
"""An Action that critically fails reduces the Value by 3."""
DAMAGE_RANK_LOSS = 3
"""Each rank of Damage Threshold: the victim loses 3 Value points."""


class ChaseAction(Params):
    """``chase.action``: the ``skill`` tested at a ``difficulty``, the Value ``gain`` (+1 to +3)
    on a success, the ``loss`` on a Critical Failure, and a ``description``."""

    skill: str
    difficulty: Difficulty = 0
    gain: int = Field(default=1, ge=1, le=3)
    loss: int = Field(default=ACTION_LOSS, ge=0, le=30)
    description: str = ""


class ChaseAttack(Params):
    """``chase.attack``: a Ranged or Magick Attack on the ``target`` with ``skill`` at a
    ``difficulty``; ``damage_ranks`` of Damage Threshold on a hit."""

    target: str
    skill: str
    difficulty: Difficulty = 0
    damage_ranks: int = Field(default=0, ge=0, le=5)


CHASE_MOVE = ActionSpec(
    "chase.move",
    NoParams,
    section=f"{SECTION} (Movement)",
    who=Who.CHARACTER,
    summary="1D10 + Movement added to the Value, in ladder order",
    record="everyone",
)
CHASE_ACTION = ActionSpec(
    "chase.action",
    ChaseAction,
    section=f"{SECTION} (Actions)",
    who=Who.CHARACTER,
    summary="a described Action right after one's move: +1 to +3 on a success",
    record="everyone",
)
CHASE_ATTACK = ActionSpec(
    "chase.attack",
    ChaseAttack,
    section=f"{SECTION} (Ranged and Magick Attacks)",
    who=Who.CHARACTER,
    summary="an attack costing 3 Value (1 on a critical, 6 on a fumble)",
    record="everyone",
)


def move(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.move``: in ladder order, 1D10 + Movement added to the Value."""
    actor = action.actor
    chase = chase_under_way(b.state, "chase.move")
    who = chase.participant(actor)
    if not who.is_in:
        raise RuleError("chase.move", f"{title_of(actor)} is out of the chase ({who.status})")
    nxt = next_to_move(chase)
    if nxt is None or nxt.id != actor:
        if nxt is None:
            said = f"everyone has moved this Round, {title_of(actor)} too: the GM ends the Round"
        else:
            said = f"it is {possessive(title_of(nxt.id))} move, not {possessive(title_of(actor))}"
        raise RuleError("chase.move (Initiative Ladder)", said)
    r = roll("1d10", dice)
    gained = int(r.total) + who.movement
    b.emit(
        CHASE_MOVED,
        {
            "participant": actor,
            "d10": int(r.total),
            "movement": who.movement,
            "gained": gained,
            "value": who.value + gained,
            "round": chase.round,
        },
    )
    catch_up(b)
    end_if_over(b)


def _just_moved(state: ZweihanderState, actor: str, kind: str) -> Participant:
    """The participant who may act now: ``actor``, right after their own move this Round."""
    chase = chase_under_way(state, kind)
    who = chase.participant(actor)
    if chase.current != actor or not who.moved:
        raise RuleError(
            kind, f"{title_of(actor)} may act only right after their own move this Round"
        )
    if who.acted:
        raise RuleError(kind, f"{title_of(actor)} has already taken an Action this Round")
    if not who.is_in:
        raise RuleError(kind, f"{title_of(actor)} is out of the chase ({who.status})")
    return who


def take_action(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.action``: a described Action tested; +gain on a success, −loss on a fumble."""
    actor = action.actor
    p = CHASE_ACTION.of(action)
    who = _just_moved(b.state, actor, "chase.action")
    c = b.state.character(actor)
    skill = p.skill
    test = SkillTest(c.chance(skill), difficulty(p.difficulty))
    result = test.roll(dice)
    change = (
        p.gain
        if result.is_success
        else (-p.loss if result.outcome is Outcome.CRITICAL_FAILURE else 0)
    )
    b.emit(
        CHASE_ACTION_TAKEN,
        {
            "participant": actor,
            "description": p.description,
            "test": test_json(test, result, skill),
            "roll": test_card(
                test, result, f"{title_of(actor)} tests {skill} (a chase Action)", SECTION
            ),
            "change": change,
            "value": who.value + change,
        },
    )
    catch_up(b)
    end_if_over(b)


def attack(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.attack``: a Ranged or Magick Attack; its cost, and the victim's Damage."""
    actor = action.actor
    p = CHASE_ATTACK.of(action)
    who = _just_moved(b.state, actor, "chase.attack")
    chase = chase_under_way(b.state, "chase.attack")
    target = chase.participant(p.target)
    if target.side == who.side or not target.is_in:
        raise RuleError(
            "chase.attack", f"{title_of(target.id)} is not an opponent still in the chase"
        )
    c = b.state.character(actor)
    skill = p.skill
    ranks = p.damage_ranks
    test = SkillTest(c.chance(skill), difficulty(p.difficulty))
    result = test.roll(dice)
    cost = ATTACK_COST[result.outcome]
    hit = result.is_success
    loss = DAMAGE_RANK_LOSS * ranks if hit else 0
    victim = b.state.character(target.id)
    hurt = victim.suffer_damage(ranks) if hit else victim
    payload = {
        "participant": actor,
        "target": target.id,
        "test": test_json(test, result, skill),
        "roll": test_card(
            test, result, f"{title_of(actor)} attacks {title_of(target.id)}", SECTION
        ),
        "cost": cost,
        "value": who.value - cost,
        "hit": hit,
        "damage_ranks": ranks if hit else 0,
        "target_loss": loss,
        "target_value": target.value - loss,
        "target_slain": hurt.is_slain,
    }
    b.emit(CHASE_ATTACKED, character_payload(b.state, payload, [hurt]))
    catch_up(b)
    end_if_over(b)


def catch_up(b: Builder[ZweihanderState]) -> None:
    """Pursuit Value ≥ an Escape Value: lower it to that Escape Value; a Takedown may follow.

    With several escapees, a pursuer catches the rearmost one in the chase (the lowest Escape
    Value; ties: the higher on the ladder) — Referee's ruling.
    """
    chase = b.state.chase
    if chase is None:
        return
    # Catching up is checked against the Escapees who have run this Round: one who has not yet
    # moved has no Escape Value of this Round to be caught at (in Round 1 their 0 is nothing
    # they accumulated; later, a Pursuit Value lowered to theirs last Round is not a new catch).
    # Escapees all move before any Pursuer, so each Pursuer's move is checked against them all.
    escapees = [e for e in chase.side("escapee") if e.is_in and e.moved]
    if not escapees:
        return
    rear = min(escapees, key=lambda e: e.value)
    for x in chase.side("pursuer"):
        if not x.is_in:
            continue
        # Equal Values catch once: not again after a Takedown on that Escapee this Round.
        again = x.caught == rear.id or x.tackled == rear.id
        if x.value > rear.value or (x.value == rear.value and not again):
            b.emit(
                CHASE_CAUGHT_UP,
                {
                    "participant": x.id,
                    "escapee": rear.id,
                    "was": x.value,
                    "value": rear.value,
                },
            )


def fold_moved(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.moved``: the new Value; the mover may now act."""
    x = chase.participant(str(data["participant"]))
    chase = chase.with_participant(evolved(x, value=int(data["value"]), moved=True, acted=False))
    return evolved(chase, current=x.id)


def fold_action_taken(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.action_taken``: the new Value; the Action is spent."""
    x = chase.participant(str(data["participant"]))
    return chase.with_participant(evolved(x, value=int(data["value"]), acted=True))


def fold_attacked(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.attacked``: the attacker's Value less the cost; the victim's less the Damage."""
    x = chase.participant(str(data["participant"]))
    chase = chase.with_participant(evolved(x, value=int(data["value"]), acted=True))
    t = chase.participant(str(data["target"]))
    status = "slain" if data.get("target_slain") else t.status
    return chase.with_participant(evolved(t, value=int(data["target_value"]), status=status))


def fold_caught_up(chase: ChaseState, data: Any) -> ChaseState:
    """``chase.caught_up``: the Pursuit Value lowered to the Escape Value; a Takedown is open."""
    x = chase.participant(str(data["participant"]))
    return chase.with_participant(evolved(x, value=int(data["value"]), caught=str(data["escapee"])))


def round_choices(state: ZweihanderState, me: Participant) -> list[Choice]:
    """A participant's move when the ladder calls on them; right after it, an Action or an
    attack on someone of the other side."""
    chase = state.chase
    assert chase is not None
    actor = me.id
    c = state.character(actor)
    out: list[Choice] = []
    nxt = next_to_move(chase)
    if nxt is not None and nxt.id == actor:
        out.append(Choice(actor, CHASE_MOVE.kind, label="move: 1D10 + Movement"))
    skills = tuple(sorted(c.skills))
    if chase.current != actor or not me.moved or me.acted or c.is_incapacitated or not skills:
        return out
    out.append(
        Choice(
            actor,
            CHASE_ACTION.kind,
            {"skill": OneOf(skills), "gain": Between(1, 3)},
            label="describe an Action",
        )
    )
    foes = tuple(x.id for x in chase.participants if x.side != me.side and x.is_in)
    if foes:
        out.append(
            Choice(
                actor,
                CHASE_ATTACK.kind,
                {"target": OneOf(foes), "skill": OneOf(skills), "damage_ranks": Between(0, 5)},
                label="a Ranged or Magick Attack",
            )
        )
    return out
