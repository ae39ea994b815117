"""Chase scenes (house rules, "Chase scene rules"): the end of a Round, and the chase as a whole.

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

The rules live by part of the text: :mod:`.chase_ladder` (``chase.start``: the ladder,
Movement), :mod:`.chase_round` (``chase.move``, ``chase.action``, ``chase.attack``, catching
up), :mod:`.takedown` (``chase.takedown``), :mod:`.chase_scene` (``chase.give_up``, the ending);
here: the end of a Round (``chase.end_round``: the Complication, fatigue), the handlers, the
fold, the choices, and :func:`play_out`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Builder,
    Choice,
    Event,
    Handler,
    NoParams,
    OddsPreview,
    OneOf,
    Outcome,
    RuleError,
    Table,
    Waiting,
    Who,
)
from referee.core.naming import possessive, title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.chase_ladder import (
    CHASE_START,
    HEAD_START,
    ChaseStart,
    Mode,
    fold_started,
    ladder,
    movement,
    start_chase,
    start_choices,
)
from referee.systems.zweihander.chase_round import (
    ACTION_LOSS,
    ATTACK_COST,
    CHASE_ACTION,
    CHASE_ATTACK,
    CHASE_MOVE,
    DAMAGE_RANK_LOSS,
    ChaseAction,
    ChaseAttack,
    attack,
    fold_action_taken,
    fold_attacked,
    fold_caught_up,
    fold_moved,
    move,
    round_choices,
    take_action,
)
from referee.systems.zweihander.chase_scene import (
    CHASE_GIVE_UP,
    ESCAPE_CONDITIONS,
    SECTION,
    GiveUp,
    chase_under_way,
    end_if_over,
    fold_ended,
    fold_gave_up,
    give_up,
    next_to_move,
)
from referee.systems.zweihander.emit import chaos_card, character_payload, test_card, test_json
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
from referee.systems.zweihander.percentile import ChaosDice, SkillTest, roll_peril
from referee.systems.zweihander.state import ChaseState, ZweihanderState
from referee.systems.zweihander.takedown import (
    CHASE_TAKEDOWN_SPEC,
    Takedown,
    attempt_takedown,
    fold_takedown,
    takedown_choices,
    takedown_difficulty,
    takedown_previews,
)

__all__ = [
    "ACTION_LOSS",
    "ATTACK_COST",
    "CHASE_ACTION",
    "CHASE_ATTACK",
    "CHASE_END_ROUND",
    "CHASE_GIVE_UP",
    "CHASE_MOVE",
    "CHASE_START",
    "CHASE_TAKEDOWN_SPEC",
    "DAMAGE_RANK_LOSS",
    "ESCAPE_CONDITIONS",
    "FATIGUE_DIFFICULTY",
    "HANDLERS",
    "HEAD_START",
    "KINDS",
    "SPECS",
    "ChaseAction",
    "ChaseAttack",
    "ChaseStart",
    "GiveUp",
    "Mode",
    "Takedown",
    "called",
    "choices",
    "end_round",
    "evolve",
    "is_running",
    "ladder",
    "movement",
    "play_out",
    "previews",
    "takedown_difficulty",
    "waiting",
]

FATIGUE_DIFFICULTY = -10
"""The fatigue Toughness Test "with -10"."""
FATIGUE_PERIL = {Outcome.FAILURE: "2d10+2", Outcome.CRITICAL_FAILURE: "3d10+3"}
"""Fatigue: 2D10+2 physical Peril, or 3D10+3 on a Critical Failure."""

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

CHASE_END_ROUND = ActionSpec(
    "chase.end_round",
    NoParams,
    section=f"{SECTION} (Complications, fatigue)",
    who=Who.REFEREE,
    summary="the Complication die and fatigue; the next Round",
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


def end_round(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.end_round``: once everyone has moved, the rearmost Escapee's Chaos Die, then the
    fatigue Toughness Tests of those past their Brawn Bonus in Rounds; the next Round."""
    chase = chase_under_way(b.state, "chase.end_round")
    waiting = next_to_move(chase)
    if waiting is not None:
        raise RuleError(
            "chase.end_round",
            f"{title_of(waiting.id)} has not moved this Round: it ends once everyone has",
        )
    escapees = [e for e in chase.side("escapee") if e.is_in]
    if escapees:
        rear = min(escapees, key=lambda e: e.value)
        chaos = ChaosDice(1)
        rolled = chaos.roll(dice)
        b.emit(
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
        if x.is_in and chase.round > b.state.character(x.id).bonus("BB"):
            _fatigue(b, x.id, dice)
    b.emit(CHASE_ROUND_ENDED, {"round": chase.round})
    end_if_over(b)


def _fatigue(b: Builder[ZweihanderState], who: str, dice: DiceSource) -> None:
    """ "Every Round thereafter they must make a Toughness Test with -10 or suffer 2D10+2
    physical Peril (or 3D10+3 on a Critical Failure). Once Incapacitated, they cannot
    continue.\""""
    c = b.state.character(who)
    test = SkillTest(c.chance("Toughness"), FATIGUE_DIFFICULTY)
    result = test.roll(dice)
    payload: dict[str, Any] = {
        "participant": who,
        "test": test_json(test, result, "Toughness"),
        "roll": test_card(test, result, f"{title_of(who)} resists fatigue", f"{SECTION} (Fatigue)"),
    }
    after = c
    if not result.is_success:
        peril, faces = roll_peril(FATIGUE_PERIL[result.outcome], dice)
        after = c.suffer_peril(peril)
        payload.update(peril=peril, peril_faces=list(faces), exhausted=after.is_incapacitated)
    b.emit(CHASE_FATIGUE, character_payload(b.state, payload, [after]))


HANDLERS: Mapping[str, Handler] = {
    CHASE_START.kind: start_chase,
    CHASE_MOVE.kind: move,
    CHASE_ACTION.kind: take_action,
    CHASE_ATTACK.kind: attack,
    CHASE_TAKEDOWN_SPEC.kind: attempt_takedown,
    CHASE_END_ROUND.kind: end_round,
    CHASE_GIVE_UP.kind: give_up,
}
"""The handler of each chase action."""

# ------------------------------------------------------------------------------ evolve


def _fold_fatigue(chase: ChaseState, data: Any) -> ChaseState:
    if not data.get("exhausted"):
        return chase
    x = chase.participant(str(data["participant"]))
    return chase.with_participant(evolved(x, status="exhausted"))


def _fold_complication(chase: ChaseState, data: Any) -> ChaseState:
    if not data.get("complication"):
        return chase
    arose = (chase.round, str(data["participant"]))
    return evolved(chase, complications=(*chase.complications, arose))


def _fold_round_ended(chase: ChaseState, data: Any) -> ChaseState:
    return evolved(
        chase,
        round=chase.round + 1,
        current=None,
        participants=tuple(
            evolved(x, moved=False, acted=False, caught=None, tackled=None)
            for x in chase.participants
        ),
    )


_FOLDS: Mapping[str, Callable[[ChaseState, Any], ChaseState]] = {
    CHASE_MOVED: fold_moved,
    CHASE_ACTION_TAKEN: fold_action_taken,
    CHASE_ATTACKED: fold_attacked,
    CHASE_CAUGHT_UP: fold_caught_up,
    CHASE_TAKEDOWN: fold_takedown,
    CHASE_COMPLICATION: _fold_complication,
    CHASE_FATIGUE: _fold_fatigue,
    CHASE_ROUND_ENDED: _fold_round_ended,
    CHASE_GAVE_UP: fold_gave_up,
    CHASE_ENDED: fold_ended,
}
"""The fold of each kind of a chase under way (``chase.started`` makes one)."""


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a chase event into the state (character changes are folded by the procedure)."""
    if event.kind == CHASE_STARTED:
        return fold_started(state, event)
    chase = state.chase
    if chase is None:
        return state
    fold = _FOLDS.get(event.kind)
    return evolved(state, chase=chase if fold is None else fold(chase, event.data))


# ------------------------------------------------------------------------------ choices


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The chase steps open to ``actor`` now, as the ladder and the Round allow."""
    chase = state.chase
    if chase is None or chase.ended is not None:
        return start_choices(state, actor)
    out: list[Choice] = []
    if actor == REFEREE:
        if next_to_move(chase) is None:
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
    me = next((x for x in chase.participants if x.id == actor and x.is_in), None)
    if me is None:
        return out
    out += round_choices(state, me)
    out += takedown_choices(state, me)
    nxt = next_to_move(chase)
    on_turn = chase.current == actor or me.caught is not None or (nxt is not None and nxt is me)
    if on_turn:  # called by the ladder, just moved, or caught up (Referee's ruling)
        out.append(
            Choice(actor, CHASE_GIVE_UP.kind, {"side": OneOf((me.side + "s",))}, label="give up")
        )
    return out


def called(chase: ChaseState) -> tuple[str, ...]:
    """Who the chase calls on now, in order (ruling 35): whoever has just moved (an Action may
    follow), the Pursuers who caught up (a Takedown may follow), the next on the ladder."""
    nxt = next_to_move(chase)
    caught = [x.id for x in chase.participants if x.is_in and x.caught is not None]
    current = [chase.current] if chase.current is not None else []
    return tuple(dict.fromkeys([*current, *caught, *([nxt.id] if nxt else [])]))


def is_running(state: ZweihanderState, actor: str) -> bool:
    """True if ``actor`` is still in a chase under way: they act in it, in ladder order."""
    chase = state.chase
    if chase is None or chase.ended is not None:
        return False
    return any(x.id == actor and x.is_in for x in chase.participants)


def waiting(state: ZweihanderState, actor: str) -> Waiting | None:
    """Why a participant of the chase cannot act now, and until when: whose turn it is on the
    Initiative Ladder, a Takedown to be tried, or the GM to end the Round."""
    chase = state.chase
    if chase is None or not is_running(state, actor):
        return None
    where = f"the chase, Round {chase.round}"
    nxt = next_to_move(chase)
    if nxt is not None:
        still = [x.id for x in chase.participants if x.is_in and not x.moved]
        ahead = still[: still.index(actor)] if actor in still else still
        if chase.current is not None and chase.current != actor:
            doing = f"{title_of(chase.current)} has moved and may take an Action"
        else:
            doing = f"it is {possessive(title_of(nxt.id))} move on the Initiative Ladder"
        me = chase.participant(actor)
        until = (
            "until the next Round (you have moved)"
            if me.moved
            else f"until your turn, after {', '.join(map(title_of, ahead))}"
        )
        return Waiting(actor, f"{where}: {doing}", until, f"{SECTION} (Initiative Ladder)")
    caught = [x.id for x in chase.participants if x.is_in and x.caught is not None]
    if caught:
        who = ", ".join(map(title_of, caught))
        return Waiting(
            actor,
            f"{where}: {who} may attempt a Takedown",
            "until the GM ends the Round",
            f"{SECTION} (Takedown)",
        )
    return Waiting(
        actor,
        f"{where}: everyone has moved; the GM rolls the Complication and fatigue",
        "until the next Round",
        f"{SECTION} (Complications, fatigue)",
    )


def previews(state: ZweihanderState) -> list[OddsPreview]:
    """The Takedowns about to be rolled (everyone sees a chase)."""
    return takedown_previews(state)


# ------------------------------------------------------------------------------ playing out

MAX_ROUNDS = max(ESCAPE_CONDITIONS)
"""The longest Escape Condition: a chase never runs past 9 Rounds."""


def play_out(table: Table[ZweihanderState], dice: DiceSource) -> Table[ZweihanderState]:
    """Play the chase under way to its end as the GM would by default: everyone moves in ladder
    order and takes no Action, a Pursuer who catches up attempts a Takedown, the GM ends each
    Round. Every step is taken from the referee's seat (when the table has seats) and recorded.

    >>> from referee.core import REFEREE, Action
    >>> from referee.dice import RandomSource
    >>> from referee.systems.zweihander import SYSTEM
    >>> sheet = {"bonuses": {"AB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}
    >>> t = SYSTEM.new_table({"characters": {"a": sheet, "b": sheet}})
    >>> t = t.act(Action(REFEREE, "chase.start", {"escapees": ["a"], "pursuers": ["b"]}),
    ...           RandomSource(1), seat=REFEREE)
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
        nxt = next_to_move(chase)
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
