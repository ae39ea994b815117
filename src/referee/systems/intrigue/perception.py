"""Perception Envelopes and Contingency Envelopes, as actions: checks, reports, opening.

Rules text (Intrigue in the Clouds), "Perception Envelopes" and "Contingency Envelopes";
RULINGS.md: a character never sees the contents of their own perception envelopes; a perceiver
sees an envelope's contents only when the check qualifies; the 15-minute cooldown is per
(perceiver, target) pair, in game time.
"""

from __future__ import annotations

from referee.core import (
    REFEREE_ONLY,
    Action,
    Builder,
    CheckResult,
    Event,
    Json,
    Outcome,
    RollCard,
    RuleError,
    Secret,
    Total,
    only,
    set_timer,
)
from referee.core.clock import time_of_day
from referee.dice import DiceSource, Roll
from referee.systems.intrigue.acting import acting_character, tell
from referee.systems.intrigue.actions import ENCOUNTER, OPEN, PERCEIVE, REPORT
from referee.systems.intrigue.characters import PERCEPTION, Character
from referee.systems.intrigue.envelopes import (
    ConditionKind,
    PerceptionEnvelope,
    envelopes_handed_over,
    is_for,
)
from referee.systems.intrigue.events import (
    CONTINGENCY_OPENABLE,
    ENVELOPE_OPENED,
    PERCEPTION_MADE,
    PERCEPTION_READY,
)
from referee.systems.intrigue.rules import DICE, PERCEPTION_COOLDOWN, envelope_odds, skill_check
from referee.systems.intrigue.state import IntrigueState

__all__ = [
    "KNOCKED_OUT",
    "ROBBED",
    "SEARCHED",
    "SHOT",
    "encounter",
    "format_duration",
    "open_envelope",
    "perceive",
    "perception_check",
    "report",
    "seen_happening",
]

PERCEPTION_RULE = "Perception Envelopes"
CONTINGENCY_RULE = "Contingency Envelopes"

SHOT = "shot"
"""Hit by an Attack made with a gun's Item Card ("Open if shot")."""
KNOCKED_OUT = "knocked out"
"""Knocked Out ("Taking Damage")."""
ROBBED = "robbed"
"""Robbed of an Item Card by the victor ("Taking Damage": "rob them")."""
SEARCHED = "searched"
"""Searched by the victor ("Taking Damage": "search them")."""


def format_duration(seconds: int) -> str:
    """A span of game time for a person.

    >>> format_duration(600), format_duration(75), format_duration(0)
    ('10m00s', '1m15s', '0m00s')
    """
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes}m{rest:02d}s"


def perceive(
    state: IntrigueState, me: Character, target: Character, dice: DiceSource, now: int | None
) -> list[Event]:
    """ "Roll your dice, add your Perception Skill and tell the player your total".

    The holder learns the total and hands the envelopes over; the perceiver's skill, dice and
    the contents are the perceiver's; the odds of each envelope are the referee's.
    """
    if target.id == me.id:
        raise RuleError(PERCEPTION_RULE, "a character cannot perceive themselves")
    until = state.cooldown_until(me.id, target.id)
    if until is not None:
        left = "" if now is None else f" ({format_duration(until - now)} left)"
        raise RuleError(
            PERCEPTION_RULE,
            f"{me.name} checked {target.name} less than 15 minutes ago: "
            f"the next check may be made at {time_of_day(until, state.start)}{left}",
        )
    perception = me.skill(PERCEPTION)
    envelopes = state.envelopes_of(target.id)
    chances = envelope_odds(perception, envelopes, me.number)
    side = Total(DICE, perception)
    total, rolled = side.roll(dice)
    faces = [d.face for d in rolled.dice]
    handed = envelopes_handed_over(envelopes, me.number, total)
    label = f"{me.name} perceives {target.name}"
    # the perceiver's own card: the total told to the holder (no odds: they are the referee's)
    mine = RollCard(
        label=label,
        rule=PERCEPTION_RULE,
        dice=side.expression,
        odds=None,
        faces=tuple(faces),
        outcome="rolled",
        margin=None,
        value=total,
        shown=rolled.describe(),
    )
    cards = _referees_cards(me, label, perception, envelopes, total, rolled)
    payload: dict[str, Json] = {
        "perceiver": me.id,
        "target": target.id,
        "total": total,
        "envelopes": [{"id": e.id, "label": e.label} for e in handed],
    }
    secrets = [
        Secret("perception", perception, only(me.id)),
        Secret("faces", faces, only(me.id)),
        Secret("roll", mine.to_json(), only(me.id)),
        Secret("chances", {k: str(v) for k, v in chances.items()}, REFEREE_ONLY),
        Secret("rolls", cards, REFEREE_ONLY),
    ]
    if handed:
        secrets.append(
            Secret(
                "contents",
                {e.id: {"contents": e.contents, "directions": e.directions} for e in handed},
                only(me.id),
            )
        )
    ready = Event(PERCEPTION_READY, {"perceiver": me.id, "target": target.id}, audience=only(me.id))
    return [
        Event(
            PERCEPTION_MADE,
            payload,
            audience=only(me.id, target.id),
            secrets=tuple(secrets),
        ),
        set_timer(
            f"perception:{me.id}:{target.id}",
            ready,
            after=PERCEPTION_COOLDOWN,
            audience=only(me.id),
            label=f"{me.name} may perceive {target.name} again",
        ),
    ]


def _referees_cards(
    me: Character,
    label: str,
    perception: int,
    envelopes: tuple[PerceptionEnvelope, ...],
    total: int,
    rolled: Roll,
) -> list[Json]:
    """The referee's cards: one per envelope the perceiver could earn, with its exact odds."""
    faces = tuple(d.face for d in rolled.dice)
    cards: list[Json] = []
    for e in envelopes:
        if not is_for(e, me.number):
            continue
        check = skill_check(perception, e.target)
        result = CheckResult(
            outcome=Outcome.SUCCESS if total >= e.target else Outcome.FAILURE,
            value=total,
            margin=total - e.target,
            rolls=(rolled,),
            faces=faces,
        )
        cards.append(RollCard.of(check, result, f"{label}: {e.id}", rule=PERCEPTION_RULE).to_json())
    return cards


def _openable_now(me: Character, ids: list[str], why: str) -> Event:
    return Event(
        CONTINGENCY_OPENABLE,
        {"holder": me.id, "envelopes": ids, "why": why},
        audience=only(me.id),
    )


def seen_happening(state: IntrigueState, holder: str, happening: str) -> list[Event]:
    """What the engine saw happen to ``holder`` (:data:`SHOT`, :data:`KNOCKED_OUT`,
    :data:`ROBBED`, :data:`SEARCHED`) meets the condition of their sealed envelopes that name it
    ("Open if shot"): they may be opened now, and the holder alone is told (ruling 28). Nothing
    when no envelope of theirs waits for it."""
    ids = [
        e.id
        for e in state.contingency_envelopes
        if e.holder == holder and e.id not in state.openable and e.condition.met_by_event(happening)
    ]
    if not ids:
        return []
    return [_openable_now(state.character(holder), ids, f"event: {happening}")]


def perception_check(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """``perceive``: a Perception Check on another character (:func:`perceive`)."""
    me = acting_character(b.state, action)
    target = b.state.character(str(PERCEIVE.of(action).target))
    tell(b, *perceive(b.state, me, target, dice, action.at))


def report(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """The holder reports an event ("Open if shot"); they are told which envelopes open."""
    state = b.state
    me = acting_character(state, action)
    happened = REPORT.of(action).event
    ids = [
        e.id
        for e in state.contingency_envelopes
        if e.holder == me.id and e.id not in state.openable and e.condition.met_by_event(happened)
    ]
    tell(b, _openable_now(me, ids, f"event: {happened}"))


def encounter(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """The holder saw, met or talked to character N ("Open if you see character 53" is
    different from "Open if you talk to character 53")."""
    state = b.state
    me = acting_character(state, action)
    args = ENCOUNTER.of(action)
    other, how = state.character(str(args.character)), args.how
    if other.id == me.id:
        raise RuleError(CONTINGENCY_RULE, "a character does not meet themselves")
    kind = ConditionKind(how)
    ids = [
        e.id
        for e in state.contingency_envelopes
        if e.holder == me.id
        and e.id not in state.openable
        and e.condition.met_by_encounter(other.number, kind)
    ]
    tell(b, _openable_now(me, ids, f"{kind.value} {other.number}"))


def open_envelope(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """``open`` a Contingency Envelope: "You are on your honour only to open them if the
    condition is met"; the contents are the holder's alone."""
    state = b.state
    me = acting_character(state, action, knocked_out_may=True)  # ruling 29
    envelope = state.contingency(OPEN.of(action).envelope)
    if envelope.holder != me.id:
        raise RuleError(CONTINGENCY_RULE, f"{envelope.id} is not {me.id}'s envelope")
    if envelope.id not in state.openable:
        raise RuleError(
            CONTINGENCY_RULE,
            f"{envelope.id} is only to be opened when its condition is met: "
            f"{envelope.condition.label}",
        )
    tell(
        b,
        Event(
            ENVELOPE_OPENED,
            {"holder": me.id, "envelope": envelope.id, "label": envelope.condition.label},
            audience=only(me.id),
            secrets=(Secret("contents", envelope.contents, only(me.id)),),
        ),
    )
