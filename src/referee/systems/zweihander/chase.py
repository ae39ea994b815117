"""Chase scenes (house rules, "Chase scene rules").

Escapees accumulate Escape Value, Pursuers Pursuit Value, round by round. The Initiative
Ladder: Escapees on top by decreasing Agility Bonus, Pursuers below by decreasing 1D10 +
Initiative. Each Round, in ladder order, every participant rolls 1D10 + Movement and adds it to
their Value, then may describe an Action (+1 to +3 on success, −3 on a Critical Failure) or make
a Ranged or Magick Attack (costing 3 Value, 1 on a Critical Success, 6 on a Critical Failure;
each rank of Damage Threshold costs the victim 3). The Escapee with the lowest Escape Value rolls
a Chaos Die for a Complication. A Pursuer whose Pursuit Value reaches an Escape Value lowers it
to that value and may attempt a Takedown (a Coordination Test). Past their Brawn Bonus in Rounds,
participants test Toughness (−10) each Round or suffer Peril. The chase ends on the Escape
Condition (3/6/9 Rounds), when a side is all taken down, exhausted or Slain!, or gives up.

Actions (see :func:`decide`): ``chase.start``, ``chase.move``, ``chase.action``,
``chase.attack``, ``chase.takedown``, ``chase.end_round``, ``chase.give_up``.

>>> from referee.systems.zweihander.character import Character
>>> movement(Character("anna", bonuses={"AB": 4, "BB": 2}), "climbing")
1
>>> movement(Character("anna", bonuses={"AB": 4}), "palfrey horse")
10
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Between,
    Choice,
    Event,
    NoParams,
    OddsPreview,
    OneOf,
    Outcome,
    Params,
    RuleError,
    SomeOf,
    Table,
    Who,
)
from referee.core.naming import possessive, title_of
from referee.dice import DiceSource, roll
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.emit import (
    Emitter,
    chaos_card,
    test_card,
    test_json,
    test_preview,
)
from referee.systems.zweihander.events import (
    CHASE_ACTION_TAKEN,
    CHASE_ATTACKED,
    CHASE_CAUGHT_UP,
    CHASE_COMPLICATION,
    CHASE_ENDED,
    CHASE_FATIGUE,
    CHASE_GAVE_UP,
    CHASE_MOVED,
    CHASE_ROUND_ENDED,
    CHASE_STARTED,
    CHASE_TAKEDOWN,
)
from referee.systems.zweihander.percentile import (
    DIFFICULTY_NAMES,
    ChaosDice,
    Difficulty,
    SkillTest,
    difficulty,
    roll_peril,
)
from referee.systems.zweihander.state import ChaseState, Participant, ZweihanderState
from referee.systems.zweihander.tables import movement_modes, takedown_conditions

__all__ = [
    "ACTION_LOSS",
    "ATTACK_COST",
    "DAMAGE_RANK_LOSS",
    "ESCAPE_CONDITIONS",
    "FATIGUE_DIFFICULTY",
    "HEAD_START",
    "KINDS",
    "SPECS",
    "choices",
    "decide",
    "evolve",
    "ladder",
    "movement",
    "play_out",
    "previews",
    "takedown_difficulty",
]

HEAD_START = 3
"""A Head Start: +3 Escape or Pursuit Value on the first round."""
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
FATIGUE_DIFFICULTY = -10
"""The fatigue Toughness Test "with -10"."""
FATIGUE_PERIL = {Outcome.FAILURE: "2d10+2", Outcome.CRITICAL_FAILURE: "3d10+3"}
"""Fatigue: 2D10+2 physical Peril, or 3D10+3 on a Critical Failure."""
ESCAPE_CONDITIONS = (3, 6, 9)
"""The Escape Condition: 3, 6 or 9 Rounds have passed."""
SIDES = ("escapee", "pursuer")

KINDS = frozenset(
    {
        CHASE_STARTED,
        CHASE_MOVED,
        CHASE_ACTION_TAKEN,
        CHASE_ATTACKED,
        CHASE_CAUGHT_UP,
        CHASE_TAKEDOWN,
        CHASE_COMPLICATION,
        CHASE_FATIGUE,
        CHASE_ROUND_ENDED,
        CHASE_ENDED,
        CHASE_GAVE_UP,
    }
)
"""The event kinds a chase emits."""
SECTION = "Chase scene rules"

Mode = Literal[
    "climbing",
    "sneaking",
    "swimming",
    "on foot",
    "dog sled",
    "dray horse",
    "stagecoach or wagon",
    "palfrey horse",
    "fancy coach",
    "rouncey horse",
    "carriage",
    "couser horse",
    "chariot",
    "destrier horse or flying",
]
"""The modes of transport of the Movement table (checked against its data file by the tests)."""
ModeWords = Annotated[
    Mode, BeforeValidator(lambda v: "couser horse" if v == "courser horse" else v)
]
"""A mode as a parameter: the table prints "couser horse"; "courser horse" reads as it."""
SideName = Literal["escapees", "pursuers", "escapee", "pursuer"]
"""A side of the chase."""


class ChaseStart(Params):
    """``chase.start`` (the GM): the ``escapees`` and ``pursuers`` (a list of characters on
    foot, or each with their mode of transport), who has a ``head_start``, the
    ``escape_condition`` in Rounds, and the ``takedown`` condition (words of the Takedown table,
    or a Difficulty Rating)."""

    escapees: dict[str, ModeWords] | list[str]
    pursuers: dict[str, ModeWords] | list[str]
    head_start: SideName | None = None
    escape_condition: Literal[3, 6, 9] = 3
    takedown: str | int = "Standard"


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


class Takedown(Params):
    """``chase.takedown``: the ``condition`` (words of the table, or a Difficulty Rating) if not
    the chase's; the ``skill`` the Pursuer tests and the ``escapee_skill`` the Escapee resists
    with (Coordination, "assuming a chase on foot": mounted, the GM names Ride, Drive …)."""

    condition: str | int | None = None
    skill: str = "Coordination"
    escapee_skill: str = "Coordination"


class GiveUp(Params):
    """``chase.give_up``: the ``side`` that gives up."""

    side: SideName


CHASE_START = ActionSpec(
    "chase.start",
    ChaseStart,
    section=SECTION,
    who=Who.REFEREE,
    summary="set the Initiative Ladder and start the chase",
    record="everyone",
)
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
CHASE_TAKEDOWN_SPEC = ActionSpec(
    "chase.takedown",
    Takedown,
    section=f"{SECTION} (Takedown)",
    who=Who.CHARACTER,
    summary="a Pursuer who caught up tests Coordination",
    record="everyone",
)
CHASE_END_ROUND = ActionSpec(
    "chase.end_round",
    NoParams,
    section=f"{SECTION} (Complications, fatigue)",
    who=Who.REFEREE,
    summary="the Complication die and fatigue; the next Round",
    record="everyone",
)
CHASE_GIVE_UP = ActionSpec(
    "chase.give_up",
    GiveUp,
    section=f"{SECTION} (Ending the chase)",
    who=Who.CHARACTER,
    summary="a side gives up the chase",
    record="everyone",
)
SPECS = (
    CHASE_START,
    CHASE_MOVE,
    CHASE_ACTION,
    CHASE_ATTACK,
    CHASE_TAKEDOWN_SPEC,
    CHASE_END_ROUND,
    CHASE_GIVE_UP,
)
"""The actions of a chase."""


def movement(character: Character, mode: str) -> int:
    """Movement for a mode of transport: [AB] or [BB] + the table's modifier, less Encumbrance
    Overage; at least 1 where the table says "(minimum 1)", else at least 0 (Referee's ruling)."""
    modes = movement_modes()
    if mode not in modes:
        raise RuleError("Chase scene (Movement)", f"no mode {mode!r} (known: {', '.join(modes)})")
    row = modes[mode]
    value = character.bonus(row.bonus) + row.modifier - character.encumbrance_overage
    return max(row.minimum if row.minimum is not None else 0, value)


def takedown_difficulty(condition: str | int) -> int:
    """The Takedown's Coordination difficulty: a Difficulty Rating, or words from the table's
    Condition column ("busy tavern")."""
    if isinstance(condition, str):
        words = " ".join(condition.lower().split())
        rows = takedown_conditions()
        for row in rows:
            if words == row.difficulty.lower():
                return row.modifier
        found = [r for r in rows if words and words in r.condition.lower()]
        if len(found) == 1:
            return found[0].modifier
        if len(found) > 1:
            named = "; ".join(f"{r.difficulty}: {r.condition}" for r in found)
            raise RuleError(
                "Takedown (Coordination Test difficulty)",
                f"{condition!r} is in several conditions ({named}); say which",
            )
        try:
            return difficulty(condition)
        except RuleError:
            raise RuleError(
                "Takedown (Coordination Test difficulty)",
                f"{condition!r} is neither a Condition of the table nor a Difficulty Rating",
            ) from None
    return difficulty(condition)


def ladder(
    escapees: Sequence[tuple[str, int]], pursuers: Sequence[tuple[str, int]]
) -> tuple[str, ...]:
    """The Initiative Ladder: escapees by decreasing [AB], then pursuers by decreasing 1D10 +
    Initiative; ties keep the order given (Referee's ruling).

    >>> ladder([("a", 3), ("b", 5)], [("x", 9), ("y", 12)])
    ('b', 'a', 'y', 'x')
    """
    top = sorted(escapees, key=lambda e: -e[1])
    below = sorted(pursuers, key=lambda p: -p[1])
    return tuple(i for i, _ in top) + tuple(i for i, _ in below)


# ------------------------------------------------------------------------------ decide


def _chase(state: ZweihanderState, kind: str) -> ChaseState:
    if state.chase is None:
        raise RuleError(kind, "no chase is under way (start one with chase.start)")
    if state.chase.ended is not None:
        raise RuleError(kind, f"the chase has ended ({state.chase.ended})")
    return state.chase


def _sides(value: Mapping[str, str] | Sequence[str]) -> list[tuple[str, str]]:
    if isinstance(value, Mapping):
        return [(str(k), str(v)) for k, v in value.items()]
    return [(v, "on foot") for v in value]


def decide(
    state: ZweihanderState, action: Action, dice: DiceSource, evolve_all: Any
) -> list[Event]:
    """The events of a chase action (``evolve_all`` folds any event: the procedure's evolve)."""
    out = Emitter(state, evolve_all)
    kind = action.kind
    if kind == CHASE_START.kind:
        _start(out, CHASE_START.of(action), dice)
    elif kind == CHASE_MOVE.kind:
        _move(out, action.actor, dice)
    elif kind == CHASE_ACTION.kind:
        _action(out, action.actor, CHASE_ACTION.of(action), dice)
    elif kind == CHASE_ATTACK.kind:
        _attack(out, action.actor, CHASE_ATTACK.of(action), dice)
    elif kind == CHASE_TAKEDOWN_SPEC.kind:
        _takedown(out, action.actor, CHASE_TAKEDOWN_SPEC.of(action), dice)
    elif kind == CHASE_END_ROUND.kind:
        _end_round(out, dice)
    elif kind == CHASE_GIVE_UP.kind:
        chase = _chase(out.state, kind)
        side = CHASE_GIVE_UP.of(action).side.rstrip("s")
        if action.actor != REFEREE:
            mine = next((x for x in chase.participants if x.id == action.actor), None)
            if mine is None or not mine.is_in:
                raise RuleError(kind, f"{action.actor} is not in the chase and cannot give up")
            if mine.side != side:
                raise RuleError(kind, f"{action.actor} may give up only for the {mine.side}s")
        out.emit(CHASE_GAVE_UP, {"side": side, "round": chase.round})
    else:
        raise RuleError("Chase scene", f"no chase action {kind!r}")
    _check_end(out)
    return out.events


def _start(out: Emitter, p: ChaseStart, dice: DiceSource) -> None:
    if out.state.chase is not None and out.state.chase.ended is None:
        raise RuleError("chase.start", "a chase is already under way")
    rounds = p.escape_condition
    head_side = None if p.head_start is None else p.head_start.rstrip("s")
    tk = takedown_difficulty(p.takedown)
    escapees = _sides(p.escapees)
    pursuers = _sides(p.pursuers)
    if not escapees or not pursuers:
        raise RuleError("chase.start", "a chase needs at least one escapee and one pursuer")
    ids = [i for i, _ in escapees + pursuers]
    if len(set(ids)) != len(ids):
        raise RuleError("chase.start", f"a participant is on both sides or named twice: {ids}")
    for cid in ids:
        c = out.state.character(cid)
        if c.is_incapacitated or c.is_slain:
            raise RuleError(
                "chase.start",
                f"{cid} is {'Slain!' if c.is_slain else c.peril_condition} and cannot take part",
            )
    for cid, mode in escapees + pursuers:
        c = out.state.character(cid)
        if mode == "on foot" and "Coordination" not in c.skills:
            raise RuleError(
                "chase.start (Takedown)",
                f"{cid} has no Base Chance entered for Coordination (a Takedown tests it)",
            )
        if rounds > c.bonus("BB") and "Toughness" not in c.skills:
            raise RuleError(
                "chase.start (fatigue)",
                f"{cid} has no Base Chance entered for Toughness (past their Brawn Bonus of "
                f"{c.bonus('BB')} in Rounds, fatigue tests it)",
            )
    people: dict[str, Participant] = {}
    for cid, mode in escapees:
        c = out.state.character(cid)
        people[cid] = Participant(cid, "escapee", mode, movement(c, mode))
    rolls: dict[str, Any] = {}
    for cid, mode in pursuers:
        c = out.state.character(cid)
        r = roll("1d10", dice)
        total = int(r.total) + c.initiative
        rolls[cid] = {"d10": int(r.total), "initiative": c.initiative, "total": total}
        people[cid] = Participant(cid, "pursuer", mode, movement(c, mode), initiative=total)
    order = ladder(
        [(i, out.state.character(i).bonus("AB")) for i, _ in escapees],
        [(i, people[i].initiative or 0) for i, _ in pursuers],
    )
    participants = []
    for pid in order:
        person = people[pid]
        value = HEAD_START if head_side == person.side else 0
        participants.append(replace(person, value=value))
    out.emit(
        CHASE_STARTED,
        {
            "ladder": list(order),
            "participants": [
                {
                    "id": x.id,
                    "side": x.side,
                    "mode": x.mode,
                    "movement": x.movement,
                    "value": x.value,
                }
                for x in participants
            ],
            "initiative_rolls": rolls,
            "escape_condition": rounds,
            "head_start": head_side,
            "takedown_difficulty": tk,
        },
    )


def _next_to_move(chase: ChaseState) -> Participant | None:
    for x in chase.participants:
        if x.is_in and not x.moved:
            return x
    return None


def _move(out: Emitter, actor: str, dice: DiceSource) -> None:
    chase = _chase(out.state, "chase.move")
    who = chase.participant(actor)
    if not who.is_in:
        raise RuleError("chase.move", f"{actor} is out of the chase ({who.status})")
    nxt = _next_to_move(chase)
    if nxt is None or nxt.id != actor:
        expected = "nobody (end the round)" if nxt is None else nxt.id
        raise RuleError("chase.move (Initiative Ladder)", f"it is {expected}'s turn, not {actor}'s")
    r = roll("1d10", dice)
    gained = int(r.total) + who.movement
    out.emit(
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
    _catch_up(out)


def _current(out: Emitter, actor: str, kind: str) -> Participant:
    chase = _chase(out.state, kind)
    who = chase.participant(actor)
    if chase.current != actor or not who.moved:
        raise RuleError(kind, f"{actor} may act only right after their own move this round")
    if who.acted:
        raise RuleError(kind, f"{actor} has already taken an Action this round")
    if not who.is_in:
        raise RuleError(kind, f"{actor} is out of the chase ({who.status})")
    return who


def _action(out: Emitter, actor: str, p: ChaseAction, dice: DiceSource) -> None:
    who = _current(out, actor, "chase.action")
    c = out.state.character(actor)
    skill = p.skill
    test = SkillTest(c.chance(skill), difficulty(p.difficulty))
    result = test.roll(dice)
    change = (
        p.gain
        if result.is_success
        else (-p.loss if result.outcome is Outcome.CRITICAL_FAILURE else 0)
    )
    out.emit(
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
    _catch_up(out)


def _attack(out: Emitter, actor: str, p: ChaseAttack, dice: DiceSource) -> None:
    who = _current(out, actor, "chase.attack")
    chase = _chase(out.state, "chase.attack")
    target = chase.participant(p.target)
    if target.side == who.side or not target.is_in:
        raise RuleError("chase.attack", f"{target.id} is not an opponent in the chase")
    c = out.state.character(actor)
    skill = p.skill
    ranks = p.damage_ranks
    test = SkillTest(c.chance(skill), difficulty(p.difficulty))
    result = test.roll(dice)
    cost = ATTACK_COST[result.outcome]
    hit = result.is_success
    loss = DAMAGE_RANK_LOSS * ranks if hit else 0
    victim = out.state.character(target.id)
    hurt = victim.suffer_damage(ranks) if hit else victim
    out.emit(
        CHASE_ATTACKED,
        {
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
        },
        characters=[hurt],
    )
    _catch_up(out)


def _catch_up(out: Emitter) -> None:
    """Pursuit Value ≥ an Escape Value: lower it to that Escape Value; a Takedown may follow.

    With several escapees, a pursuer catches the rearmost one in the chase (the lowest Escape
    Value; ties: the higher on the ladder) — Referee's ruling.
    """
    chase = out.state.chase
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
            out.emit(
                CHASE_CAUGHT_UP,
                {
                    "participant": x.id,
                    "escapee": rear.id,
                    "was": x.value,
                    "value": rear.value,
                },
            )


def _takedown(out: Emitter, actor: str, p: Takedown, dice: DiceSource) -> None:
    chase = _chase(out.state, "chase.takedown")
    who = chase.participant(actor)
    if who.side != "pursuer" or who.caught is None or not who.is_in:
        raise RuleError("chase.takedown", f"{actor} has not caught up with an escapee")
    escapee = chase.participant(who.caught)
    if not escapee.is_in:
        raise RuleError("chase.takedown", f"{escapee.id} is no longer in the chase")
    tk = chase.takedown_difficulty if p.condition is None else takedown_difficulty(p.condition)
    test = SkillTest(out.state.character(actor).chance(p.skill), tk)
    result = test.roll(dice)
    payload: dict[str, Any] = {
        "participant": actor,
        "escapee": escapee.id,
        "test": test_json(test, result, p.skill),
    }
    rolls = [
        test_card(
            test,
            result,
            f"{possessive(title_of(actor))} Takedown ({p.skill})",
            f"{SECTION} (Takedown)",
        )
    ]
    if result.outcome is Outcome.CRITICAL_FAILURE:
        payload.update(value=who.value - 3, result="the Pursuer reduces their Pursuit Value by 3")
    elif result.outcome is Outcome.FAILURE:
        payload.update(value=who.value - 1, result="the Pursuer reduces their Pursuit Value by 1")
    elif result.outcome is Outcome.CRITICAL_SUCCESS:
        payload.update(
            taken_out=[actor, escapee.id],
            result="both the Pursuer and the Escapee are taken out of the chase",
        )
    else:
        e_test = SkillTest(out.state.character(escapee.id).chance(p.escapee_skill))
        e_result = e_test.roll(dice)
        payload["escapee_test"] = test_json(e_test, e_result, p.escapee_skill)
        rolls.append(
            test_card(
                e_test,
                e_result,
                f"{escapee.id} resists ({p.escapee_skill})",
                f"{SECTION} (Takedown)",
            )
        )
        if e_result.is_success:
            payload["result"] = "the Escapee passes their Coordination Test and stays in the chase"
        else:
            payload.update(
                taken_out=[actor, escapee.id],
                result="the Escapee fails: both are taken out of the chase",
            )
    payload["rolls"] = rolls
    out.emit(CHASE_TAKEDOWN, payload)


def _end_round(out: Emitter, dice: DiceSource) -> None:
    chase = _chase(out.state, "chase.end_round")
    waiting = _next_to_move(chase)
    if waiting is not None:
        raise RuleError("chase.end_round", f"{waiting.id} has not moved this round")
    escapees = [e for e in chase.side("escapee") if e.is_in]
    if escapees:
        rear = min(escapees, key=lambda e: e.value)
        chaos = ChaosDice(1)
        rolled = chaos.roll(dice)
        out.emit(
            CHASE_COMPLICATION,
            {
                "participant": rear.id,
                "value": rear.value,
                "faces": list(rolled.faces),
                "odds": str(chaos.odds()),
                "complication": rolled.triggered,
                "roll": chaos_card(
                    chaos,
                    rolled,
                    f"{possessive(title_of(rear.id))} Complication",
                    f"{SECTION} (Complications)",
                ),
            },
        )
    for x in chase.participants:
        if not x.is_in:
            continue
        c = out.state.character(x.id)
        if chase.round <= c.bonus("BB"):
            continue
        test = SkillTest(c.chance("Toughness"), FATIGUE_DIFFICULTY)
        result = test.roll(dice)
        payload: dict[str, Any] = {
            "participant": x.id,
            "test": test_json(test, result, "Toughness"),
            "roll": test_card(
                test, result, f"{title_of(x.id)} resists fatigue", f"{SECTION} (Fatigue)"
            ),
        }
        after = c
        if not result.is_success:
            peril, faces = roll_peril(FATIGUE_PERIL[result.outcome], dice)
            after = c.suffer_peril(peril)
            payload.update(peril=peril, peril_faces=list(faces), exhausted=after.is_incapacitated)
        out.emit(CHASE_FATIGUE, payload, characters=[after])
    out.emit(CHASE_ROUND_ENDED, {"round": chase.round})


def _check_end(out: Emitter) -> None:
    chase = out.state.chase
    if chase is None or chase.ended is not None:
        return
    reason = _ending(chase)
    if reason is not None:
        out.emit(CHASE_ENDED, {"reason": reason, "round": chase.round})


def _ending(chase: ChaseState) -> str | None:
    for side in SIDES:
        people = chase.side(side)
        if any(x.status == "gave up" for x in people):
            return f"the {side}s give up"
    for side in SIDES:
        people = chase.side(side)
        if all(not x.is_in for x in people):
            statuses = {x.status for x in people}
            if statuses == {"taken down"} and side == "escapee":
                return "all escapees have been taken down"
            if statuses == {"exhausted"}:
                return f"all {side}s are exhausted"
            if statuses == {"slain"}:
                return f"all {side}s are Slain!"
            return f"no {side} remains in the chase"
    if chase.round > chase.escape_rounds:
        return f"the Escape Condition is met ({chase.escape_rounds} Rounds have passed)"
    return None


# ------------------------------------------------------------------------------ evolve


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a chase event into the state (character changes are folded by the procedure)."""
    d = event.data
    chase = state.chase
    if event.kind == CHASE_STARTED:
        parts = tuple(
            Participant(
                str(x["id"]),
                str(x["side"]),
                str(x["mode"]),
                int(x["movement"]),
                int(x["value"]),
                _initiative(d.get("initiative_rolls"), str(x["id"])),
            )
            for x in _list(d["participants"])
        )
        head = d.get("head_start")
        return replace(
            state,
            chase=ChaseState(
                participants=parts,
                escape_rounds=int(str(d["escape_condition"])),
                takedown_difficulty=int(str(d["takedown_difficulty"])),
                head_start=None if head is None else str(head),
            ),
        )
    if chase is None:
        return state
    if event.kind == CHASE_MOVED:
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), moved=True, acted=False))
        chase = replace(chase, current=x.id)
    elif event.kind == CHASE_ACTION_TAKEN:
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), acted=True))
    elif event.kind == CHASE_ATTACKED:
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), acted=True))
        t = chase.participant(str(d["target"]))
        status = "slain" if d.get("target_slain") else t.status
        chase = chase.with_participant(replace(t, value=_int(d["target_value"]), status=status))
    elif event.kind == CHASE_CAUGHT_UP:
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), caught=str(d["escapee"])))
    elif event.kind == CHASE_TAKEDOWN:
        x = chase.participant(str(d["participant"]))
        x = replace(x, caught=None, tackled=str(d["escapee"]))
        if "value" in d:
            x = replace(x, value=_int(d["value"]))
        chase = chase.with_participant(x)
        for pid in _list(d.get("taken_out", [])):
            t = chase.participant(str(pid))
            chase = chase.with_participant(replace(t, status="taken down", caught=None))
    elif event.kind == CHASE_FATIGUE:
        if d.get("exhausted"):
            x = chase.participant(str(d["participant"]))
            chase = chase.with_participant(replace(x, status="exhausted"))
    elif event.kind == CHASE_ROUND_ENDED:
        chase = replace(
            chase,
            round=chase.round + 1,
            current=None,
            participants=tuple(
                replace(x, moved=False, acted=False, caught=None, tackled=None)
                for x in chase.participants
            ),
        )
    elif event.kind == CHASE_GAVE_UP:
        side = str(d["side"])
        chase = replace(
            chase,
            participants=tuple(
                replace(x, status="gave up") if x.side == side and x.is_in else x
                for x in chase.participants
            ),
        )
    elif event.kind == CHASE_ENDED:
        reason = str(d["reason"])
        parts = chase.participants
        if "Escape Condition" in reason or "pursuer" in reason:
            parts = tuple(
                replace(x, status="escaped") if x.side == "escapee" and x.is_in else x
                for x in parts
            )
        chase = replace(chase, ended=reason, participants=parts)
    return replace(state, chase=chase)


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _int(value: Any) -> int:
    return int(value)


def _initiative(rolls: Any, pid: str) -> int | None:
    if isinstance(rolls, Mapping) and pid in rolls:
        return int(rolls[pid]["total"])
    return None


# ------------------------------------------------------------------------------ choices


def _able(c: Character) -> bool:
    return not (c.is_incapacitated or c.is_slain)


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The chase steps open to ``actor`` now, as the ladder and the Round allow."""
    chase = state.chase
    out: list[Choice] = []
    if chase is None or chase.ended is not None:
        able = tuple(
            c.id
            for c in state.characters
            if _able(c) and {"Coordination", "Toughness"} <= set(c.skills)
        )
        if actor == REFEREE and len(able) >= 2:
            out += [
                Choice(
                    actor,
                    CHASE_START.kind,
                    {
                        "escapees": OneOf(([escapee],)),
                        "pursuers": SomeOf(tuple(x for x in able if x != escapee), least=1),
                        "head_start": OneOf((None, "escapees", "pursuers")),
                        "escape_condition": OneOf(ESCAPE_CONDITIONS),
                        "takedown": OneOf(DIFFICULTY_NAMES),
                    },
                    label=f"start a chase: {title_of(escapee)} runs",
                )
                for escapee in able
            ]
        return out
    nxt = _next_to_move(chase)
    if actor == REFEREE:
        if nxt is None:
            out.append(Choice(actor, CHASE_END_ROUND.kind, label="end the Round"))
        out.append(
            Choice(
                actor,
                CHASE_GIVE_UP.kind,
                {"side": OneOf(("escapees", "pursuers"))},
                label="a side gives up",
            )
        )
        return out
    mine = [x for x in chase.participants if x.id == actor and x.is_in]
    if not mine:
        return out
    me = mine[0]
    c = state.character(actor)
    if nxt is not None and nxt.id == actor:
        out.append(Choice(actor, CHASE_MOVE.kind, label="move: 1D10 + Movement"))
    if chase.current == actor and me.moved and not me.acted and not c.is_incapacitated:
        skills = tuple(sorted(c.skills))
        if skills:
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
                        {
                            "target": OneOf(foes),
                            "skill": OneOf(skills),
                            "damage_ranks": Between(0, 5),
                        },
                        label="a Ranged or Magick Attack",
                    )
                )
    if me.caught is not None and not c.is_incapacitated:
        escapee = state.character(me.caught)
        if me.mode != "on foot" and c.skills and escapee.skills:
            # mounted or in a vehicle: the GM names the skills (Ride, Drive …)
            out.append(
                Choice(
                    actor,
                    CHASE_TAKEDOWN_SPEC.kind,
                    {
                        "skill": OneOf(tuple(sorted(c.skills))),
                        "escapee_skill": OneOf(tuple(sorted(escapee.skills))),
                    },
                    label=f"attempt a Takedown on {title_of(str(me.caught))} (name the skills)",
                )
            )
        elif "Coordination" in c.skills and "Coordination" in escapee.skills:
            out.append(
                Choice(
                    actor,
                    CHASE_TAKEDOWN_SPEC.kind,
                    odds=(_takedown_preview(state, chase, actor),),
                    label=f"attempt a Takedown on {title_of(str(me.caught))}",
                )
            )
    out.append(
        Choice(actor, CHASE_GIVE_UP.kind, {"side": OneOf((me.side + "s",))}, label="give up")
    )
    return out


def _takedown_preview(state: ZweihanderState, chase: ChaseState, actor: str) -> OddsPreview:
    test = SkillTest(state.character(actor).chance("Coordination"), chase.takedown_difficulty)
    return test_preview(
        test, f"{possessive(title_of(actor))} Takedown (Coordination)", f"{SECTION} (Takedown)"
    )


def previews(state: ZweihanderState) -> list[OddsPreview]:
    """The Takedowns about to be rolled (everyone sees a chase)."""
    chase = state.chase
    if chase is None or chase.ended is not None:
        return []
    return [
        _takedown_preview(state, chase, x.id)
        for x in chase.participants
        if x.is_in
        and x.caught is not None
        and "Coordination" in state.character(x.id).skills
        and not state.character(x.id).is_incapacitated
    ]


# ------------------------------------------------------------------------------ playing out

MAX_ROUNDS = max(ESCAPE_CONDITIONS)
"""The longest Escape Condition: a chase never runs past 9 Rounds."""


def play_out(table: Table[ZweihanderState], dice: DiceSource) -> Table[ZweihanderState]:
    """Play the chase under way to its end as the GM would by default: everyone moves in ladder
    order and takes no Action, a Pursuer who catches up attempts a Takedown, the GM ends each
    Round. Every step is taken from the referee's seat (when the table has seats) and recorded.

    >>> from referee.core import Action
    >>> from referee.dice import RandomSource
    >>> from referee.systems.zweihander import SYSTEM
    >>> sheet = {"bonuses": {"AB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}
    >>> t = SYSTEM.new_table({"characters": {"a": sheet, "b": sheet}})
    >>> t = t.act(Action("referee", "chase.start", {"escapees": ["a"], "pursuers": ["b"]}),
    ...           RandomSource(1), seat="referee")
    >>> play_out(t, RandomSource(1)).state.chase.ended is not None
    True
    """
    seat = REFEREE if table.seats else None
    started = table.state.chase
    if started is None or started.ended is not None:
        raise RuleError(SECTION, "no chase is under way (start one with chase.start)")
    steps = 2 * len(started.participants) + 1  # moves, takedowns, the end of the Round
    for _ in range((MAX_ROUNDS + 1) * steps):
        chase = table.state.chase
        if chase is None or chase.ended is not None:
            break
        nxt = _next_to_move(chase)
        if nxt is None:
            table = table.act(Action(REFEREE, CHASE_END_ROUND.kind), dice, seat=seat)
            continue
        table = table.act(Action(nxt.id, CHASE_MOVE.kind), dice, seat=seat)
        after = table.state.chase
        if after is not None and after.ended is None:
            me = after.participant(nxt.id)
            if me.caught is not None and me.is_in:
                table = table.act(Action(me.id, CHASE_TAKEDOWN_SPEC.kind), dice, seat=seat)
    return table
