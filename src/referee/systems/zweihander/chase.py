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
from typing import Any

from referee.core import REFEREE, Action, Event, Outcome, RuleError
from referee.dice import DiceSource, roll
from referee.systems.zweihander import params as P
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.emit import Emitter, test_json
from referee.systems.zweihander.percentile import ChaosDice, SkillTest, difficulty, roll_peril
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
    "decide",
    "evolve",
    "ladder",
    "movement",
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
        "chase.started",
        "chase.moved",
        "chase.action_taken",
        "chase.attacked",
        "chase.caught_up",
        "chase.takedown",
        "chase.complication",
        "chase.fatigue",
        "chase.round_ended",
        "chase.ended",
        "chase.gave_up",
    }
)
"""The event kinds a chase emits."""


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


def _sides(params: Mapping[str, Any], key: str) -> list[tuple[str, str]]:
    value = params.get(key)
    if isinstance(value, Mapping):
        return [(str(k), str(v)) for k, v in value.items()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [(v, "on foot") for v in value]
    raise RuleError(
        "chase.start", f"{key!r}: a list of characters or a mapping id: mode, not {value!r}"
    )


def decide(
    state: ZweihanderState, action: Action, dice: DiceSource, evolve_all: Any
) -> list[Event]:
    """The events of a chase action (``evolve_all`` folds any event: the procedure's evolve)."""
    out = Emitter(state, evolve_all)
    kind, p = action.kind, action.params
    if kind == "chase.start":
        _start(out, p, dice)
    elif kind == "chase.move":
        _move(out, action.actor, dice)
    elif kind == "chase.action":
        _action(out, action.actor, p, dice)
    elif kind == "chase.attack":
        _attack(out, action.actor, p, dice)
    elif kind == "chase.takedown":
        _takedown(out, action.actor, p, dice)
    elif kind == "chase.end_round":
        _end_round(out, dice)
    elif kind == "chase.give_up":
        chase = _chase(out.state, kind)
        side = P.text(p, "side", kind)
        if side.rstrip("s") not in SIDES:
            raise RuleError(kind, f"side is escapees or pursuers, not {side!r}")
        side = side.rstrip("s")
        if action.actor != REFEREE:
            mine = next((x for x in chase.participants if x.id == action.actor), None)
            if mine is None or not mine.is_in:
                raise RuleError(kind, f"{action.actor} is not in the chase and cannot give up")
            if mine.side != side:
                raise RuleError(kind, f"{action.actor} may give up only for the {mine.side}s")
        out.emit("chase.gave_up", {"side": side, "round": chase.round})
    else:
        raise RuleError("Chase scene", f"no chase action {kind!r}")
    _check_end(out)
    return out.events


def _start(out: Emitter, p: Mapping[str, Any], dice: DiceSource) -> None:
    if out.state.chase is not None and out.state.chase.ended is None:
        raise RuleError("chase.start", "a chase is already under way")
    rounds = P.integer(p, "escape_condition", "chase.start", 3)
    if rounds not in ESCAPE_CONDITIONS:
        raise RuleError("chase.start", f"the Escape Condition is 3, 6 or 9 Rounds, not {rounds}")
    head = p.get("head_start")
    if head is not None and str(head).rstrip("s") not in SIDES:
        raise RuleError("chase.start", f"head_start is escapees or pursuers, not {head!r}")
    head_side = None if head is None else str(head).rstrip("s")
    tk = takedown_difficulty(p.get("takedown", "Standard"))
    escapees = _sides(p, "escapees")
    pursuers = _sides(p, "pursuers")
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
        "chase.started",
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
        "chase.moved",
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


def _action(out: Emitter, actor: str, p: Mapping[str, Any], dice: DiceSource) -> None:
    who = _current(out, actor, "chase.action")
    c = out.state.character(actor)
    skill = P.text(p, "skill", "chase.action")
    gain = P.integer(p, "gain", "chase.action", 1, low=1, high=3)
    loss = P.integer(p, "loss", "chase.action", ACTION_LOSS, low=0)
    test = SkillTest(c.chance(skill), difficulty(p.get("difficulty", 0)))
    result = test.roll(dice)
    change = (
        gain if result.is_success else (-loss if result.outcome is Outcome.CRITICAL_FAILURE else 0)
    )
    out.emit(
        "chase.action_taken",
        {
            "participant": actor,
            "description": str(p.get("description", "")),
            "test": test_json(test, result, skill),
            "change": change,
            "value": who.value + change,
        },
    )
    _catch_up(out)


def _attack(out: Emitter, actor: str, p: Mapping[str, Any], dice: DiceSource) -> None:
    who = _current(out, actor, "chase.attack")
    chase = _chase(out.state, "chase.attack")
    target = chase.participant(P.text(p, "target", "chase.attack"))
    if target.side == who.side or not target.is_in:
        raise RuleError("chase.attack", f"{target.id} is not an opponent in the chase")
    c = out.state.character(actor)
    skill = P.text(p, "skill", "chase.attack")
    ranks = P.integer(p, "damage_ranks", "chase.attack", 0, low=0, high=5)
    test = SkillTest(c.chance(skill), difficulty(p.get("difficulty", 0)))
    result = test.roll(dice)
    cost = ATTACK_COST[result.outcome]
    hit = result.is_success
    loss = DAMAGE_RANK_LOSS * ranks if hit else 0
    victim = out.state.character(target.id)
    hurt = victim.suffer_damage(ranks) if hit else victim
    out.emit(
        "chase.attacked",
        {
            "participant": actor,
            "target": target.id,
            "test": test_json(test, result, skill),
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
                "chase.caught_up",
                {
                    "participant": x.id,
                    "escapee": rear.id,
                    "was": x.value,
                    "value": rear.value,
                },
            )


def _takedown(out: Emitter, actor: str, p: Mapping[str, Any], dice: DiceSource) -> None:
    chase = _chase(out.state, "chase.takedown")
    who = chase.participant(actor)
    if who.side != "pursuer" or who.caught is None or not who.is_in:
        raise RuleError("chase.takedown", f"{actor} has not caught up with an escapee")
    escapee = chase.participant(who.caught)
    if not escapee.is_in:
        raise RuleError("chase.takedown", f"{escapee.id} is no longer in the chase")
    tk = takedown_difficulty(p["condition"]) if "condition" in p else chase.takedown_difficulty
    test = SkillTest(out.state.character(actor).chance("Coordination"), tk)
    result = test.roll(dice)
    payload: dict[str, Any] = {
        "participant": actor,
        "escapee": escapee.id,
        "test": test_json(test, result, "Coordination"),
    }
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
        e_test = SkillTest(out.state.character(escapee.id).chance("Coordination"))
        e_result = e_test.roll(dice)
        payload["escapee_test"] = test_json(e_test, e_result, "Coordination")
        if e_result.is_success:
            payload["result"] = "the Escapee passes their Coordination Test and stays in the chase"
        else:
            payload.update(
                taken_out=[actor, escapee.id],
                result="the Escapee fails: both are taken out of the chase",
            )
    out.emit("chase.takedown", payload)


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
            "chase.complication",
            {
                "participant": rear.id,
                "value": rear.value,
                "faces": list(rolled.faces),
                "odds": str(chaos.odds()),
                "complication": rolled.triggered,
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
        }
        after = c
        if not result.is_success:
            peril, faces = roll_peril(FATIGUE_PERIL[result.outcome], dice)
            after = c.suffer_peril(peril)
            payload.update(peril=peril, peril_faces=list(faces), exhausted=after.is_incapacitated)
        out.emit("chase.fatigue", payload, characters=[after])
    out.emit("chase.round_ended", {"round": chase.round})


def _check_end(out: Emitter) -> None:
    chase = out.state.chase
    if chase is None or chase.ended is not None:
        return
    reason = _ending(chase)
    if reason is not None:
        out.emit("chase.ended", {"reason": reason, "round": chase.round})


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
    if event.kind == "chase.started":
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
    if event.kind == "chase.moved":
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), moved=True, acted=False))
        chase = replace(chase, current=x.id)
    elif event.kind == "chase.action_taken":
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), acted=True))
    elif event.kind == "chase.attacked":
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), acted=True))
        t = chase.participant(str(d["target"]))
        status = "slain" if d.get("target_slain") else t.status
        chase = chase.with_participant(replace(t, value=_int(d["target_value"]), status=status))
    elif event.kind == "chase.caught_up":
        x = chase.participant(str(d["participant"]))
        chase = chase.with_participant(replace(x, value=_int(d["value"]), caught=str(d["escapee"])))
    elif event.kind == "chase.takedown":
        x = chase.participant(str(d["participant"]))
        x = replace(x, caught=None, tackled=str(d["escapee"]))
        if "value" in d:
            x = replace(x, value=_int(d["value"]))
        chase = chase.with_participant(x)
        for pid in _list(d.get("taken_out", [])):
            t = chase.participant(str(pid))
            chase = chase.with_participant(replace(t, status="taken down", caught=None))
    elif event.kind == "chase.fatigue":
        if d.get("exhausted"):
            x = chase.participant(str(d["participant"]))
            chase = chase.with_participant(replace(x, status="exhausted"))
    elif event.kind == "chase.round_ended":
        chase = replace(
            chase,
            round=chase.round + 1,
            current=None,
            participants=tuple(
                replace(x, moved=False, acted=False, caught=None, tackled=None)
                for x in chase.participants
            ),
        )
    elif event.kind == "chase.gave_up":
        side = str(d["side"])
        chase = replace(
            chase,
            participants=tuple(
                replace(x, status="gave up") if x.side == side and x.is_in else x
                for x in chase.participants
            ),
        )
    elif event.kind == "chase.ended":
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
