"""Zweihänder offers the simulator a chase ("Chase scene rules") and, where its characters
cannot chase, a Complex Exchange ("Social Intrigue").

**The chase.** The first character (or the seat's) flees on foot from all the others, with the
head start, needing 3 Rounds ahead to escape; each side takes a Takedown where it may, else
moves. The winner is the side the game names (``escapees`` or ``pursuers``).

**The Complex Exchange**, where the table cannot chase (its characters have no Coordination,
say): each participant tests their first Social Tactic, no Reputation burnt, then the GM ends
it. The game names no winner of an exchange: the outcome is the party's best Tactic Test.

Both are solved exactly by :mod:`referee.systems.zweihander.exact`.

>>> [c.name for c in SIMULATIONS]
['a chase', 'a Complex Exchange']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core import REFEREE, Action, RefereeError, Table
from referee.core.policies import first_value
from referee.core.simulation import (
    EncounterOutcome,
    PlayedAlike,
    SimulatedConflict,
    conflict_over,
    conflict_result,
)
from referee.systems.zweihander import chase as chase_rules
from referee.systems.zweihander.chase import CHASE_END_ROUND, CHASE_MOVE
from referee.systems.zweihander.chase_scene import next_to_move
from referee.systems.zweihander.procedure import can_act
from referee.systems.zweihander.state import ExchangeState, ZweihanderState
from referee.systems.zweihander.takedown import takedown_choices

__all__ = ["CHASE", "EXCHANGE", "SIMULATIONS"]


# -- the chase -------------------------------------------------------------------------------


def chase_begin(table: Table[Any], seat: str | None) -> list[Action]:
    """The GM starts a chase: ``seat``'s character (else the first) flees on foot from the
    others, with the head start, escaping 3 Rounds ahead."""
    state: ZweihanderState = table.state
    if state.chase is not None and not state.chase.ended:
        return []
    characters = [c.id for c in state.characters]
    if len(characters) < 2:
        return []
    escapee = seat if seat is not None and seat in characters else characters[0]
    pursuers = [c for c in characters if c != escapee]
    return [
        Action(
            REFEREE,
            "chase.start",
            {
                "escapees": {escapee: "on foot"},
                "pursuers": {p: "on foot" for p in pursuers},
                "head_start": "escapees",
                "escape_condition": 3,
            },
        )
    ]


def is_over(start: Table[Any], table: Table[Any]) -> bool:
    """The game's conflict is over. (A chase played while a Complex Exchange is under way
    ends with the exchange as the game's current conflict: not over, so "unfinished".)"""
    return conflict_over(table)


def peril_taken(start: Table[Any], table: Table[Any], people: Sequence[str]) -> dict[str, int]:
    """The steps down the Peril Condition Track each of ``people`` took since ``start``."""
    before: ZweihanderState = start.state
    after: ZweihanderState = table.state
    return {c: after.character(c).peril - before.character(c).peril for c in people}


def chase_outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The side the game names as winning (``escapees`` or ``pursuers``); until the chase
    ends, ``pursuers`` (the simulation reads a winner only once it is over)."""
    state: ZweihanderState = table.state
    chase = state.chase
    people = () if chase is None else chase.participants
    result = conflict_result(table)
    won = result.winners[0] if result is not None and result.over and result.winners else None
    # the rounds played: once a Round has ended the counter names the next one, not yet begun
    begun = any(p.moved for p in people)
    return EncounterOutcome(
        won or "pursuers",
        (0 if chase is None else chase.round) - (0 if begun else 1),
        peril_taken(start, table, [p.id for p in people]),
        result is not None and result.over,
        {"taken_down": sum(1 for p in people if p.status == "taken down")},
    )


def chase_step(table: Table[Any]) -> Action | None:
    """The default player's step in a chase under way, read from the ladder rather than from
    every choice listed: a Takedown by the first the chase calls on who may attempt one, else
    the move of the next on the ladder, else the GM ends the Round — what the default policy
    takes of the choices (:data:`CHASE`'s preference, the first value of each domain).
    ``None`` where it is anything else, or a prompt waits: the choices are listed then."""
    state: ZweihanderState = table.state
    chase = state.chase
    if chase is None or chase.ended is not None or table.prompts():
        return None
    for pid in chase_rules.called(chase):
        me = chase.participant(pid)
        if me.is_in and can_act(state.character(pid)):
            for choice in takedown_choices(state, me):
                return Action(
                    pid, choice.kind, {k: first_value(d) for k, d in choice.params.items()}
                )
    nxt = next_to_move(chase)
    if nxt is None:
        return Action(REFEREE, CHASE_END_ROUND.kind, {})
    return Action(nxt.id, CHASE_MOVE.kind, {}) if can_act(state.character(nxt.id)) else None


class OnesDice:
    """A dice source of 1s: only to ask the game whether it accepts an action."""

    def roll(self, sides: int) -> int:
        return 1


def why_no_chase(table: Table[Any]) -> str | None:
    """``None`` if the simulation's chase can be played from ``table`` (one under way, or the
    game accepts its ``chase.start``); else the game's own reason it cannot."""
    state: ZweihanderState = table.state
    if state.chase is not None and not state.chase.ended:
        return None
    begin = chase_begin(table, None)
    if not begin:
        return "a chase needs two characters"
    try:
        table.act(begin[0], OnesDice())
    except RefereeError as error:
        return str(error)
    return None


def chase_odds(table: Table[Any], seat: str | None, time_limit: float | None) -> dict[str, Any]:
    """The exact odds of the chase (:func:`referee.systems.zweihander.exact.chase_odds`)."""
    from referee.systems.zweihander.exact import chase_odds as solve_chase

    return solve_chase(table, seat, time_limit=time_limit).to_json()


def chase_played_alike(table: Table[Any], seat: str | None) -> PlayedAlike | None:
    """The chase's encounters played on the same dice as the procedure, where the table is at
    the start of the chase :mod:`referee.systems.zweihander.chase_dice` plays."""
    from referee.systems.zweihander.chase_dice import chase_on_dice

    return chase_on_dice(table, seat)


CHASE = SimulatedConflict(
    "a chase",
    frozenset({"chase.move", "chase.takedown", "chase.action", "chase.end_round"}),
    ("chase.takedown", "chase.move", "chase.end_round"),
    chase_begin,
    is_over,
    chase_outcome,
    cannot_play=why_no_chase,
    exact=chase_odds,
    played_alike=chase_played_alike,
    default_action=chase_step,
)
"""The chase ("Chase scene rules")."""


# -- the Complex Exchange ---------------------------------------------------------------------


def exchange_of(table: Table[Any]) -> ExchangeState | None:
    state: ZweihanderState = table.state
    return state.exchange


def first_of(domain: Any) -> Any:
    return getattr(domain, "values", (None,))[0]


def exchange_begin(table: Table[Any], seat: str | None) -> list[Action]:
    """The GM begins a Complex Exchange with every character able to test a Social Tactic:
    an Indifferent NPC of the first Alignment and Social Class offered, and as the GM's secret
    Favourable and Unfavourable Skills two Tactics no participant can use, so that the GM's
    secret tilts nothing (the simulation cannot know it)."""
    exchange = exchange_of(table)
    if exchange is not None and not exchange.ended:
        return []
    offered = [c for c in table.legal_actions(REFEREE) if c.kind == "exchange.start"]
    if not offered:
        return []
    params = offered[0].params
    people = list(getattr(params["participants"], "values", ()))
    state: ZweihanderState = table.state
    used = {t for c in people for t in state.character(c).skills}
    tactics = list(getattr(params["favourable"], "values", ()))
    spare = [t for t in tactics if t not in used] + [t for t in tactics if t in used]
    dispositions = list(getattr(params["disposition"], "values", ()))
    return [
        Action(
            REFEREE,
            "exchange.start",
            {
                "npc": "the NPC",
                "disposition": "Indifferent" if "Indifferent" in dispositions else dispositions[0],
                "npc_alignment": first_of(params["npc_alignment"]),
                "participants": people,
                "favourable": spare[0],
                "unfavourable": spare[1] if len(spare) > 1 else spare[0],
            },
        )
    ]


def exchange_actors(table: Table[Any]) -> Sequence[str]:
    """The participants yet to test a Tactic, in order, then the GM."""
    exchange = exchange_of(table)
    if exchange is None:
        return [REFEREE]
    return [*(c for c in exchange.participants if c not in exchange.tested), REFEREE]


TEST_OUTCOMES = ("critical success", "success", "failure", "critical failure")
"""A Tactic Test's outcomes, best first."""


def exchange_outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The party's best Tactic Test (critical success … critical failure), read from the
    log: the game names no winner of an exchange (it is over when the game says so); the
    mental Peril each took; the Fortune Points the party gained."""
    seen = []
    for version in range(start.version, table.version):
        event = table.log[version]
        if event.kind == "exchange.tactic_tested":
            seen.append(str(dict(event.data).get("outcome")))
    best = min(
        seen,
        key=lambda o: TEST_OUTCOMES.index(o) if o in TEST_OUTCOMES else len(TEST_OUTCOMES),
        default="none",
    )
    exchange = exchange_of(table)
    people = [] if exchange is None else list(exchange.participants)
    before: ZweihanderState = start.state
    after: ZweihanderState = table.state
    gained = after.fortune_points - before.fortune_points
    return EncounterOutcome(
        best,
        1,
        peril_taken(start, table, people),
        conflict_over(table),
        {"fortune_points_gained": gained},
    )


def why_no_exchange(table: Table[Any]) -> str | None:
    """``None`` if a Complex Exchange is under way or the GM may begin one."""
    exchange = exchange_of(table)
    if (exchange is not None and not exchange.ended) or exchange_begin(table, None):
        return None
    return "no character can test a Social Tactic"


def exchange_odds(table: Table[Any], seat: str | None, time_limit: float | None) -> dict[str, Any]:
    """The exact odds of the exchange (:func:`referee.systems.zweihander.exact.exchange_odds`)."""
    from referee.systems.zweihander.exact import exchange_odds as solve_exchange

    return solve_exchange(table, time_limit=time_limit).to_json()


EXCHANGE = SimulatedConflict(
    "a Complex Exchange",
    frozenset({"exchange.tactic", "exchange.end"}),
    ("exchange.tactic", "exchange.end"),
    exchange_begin,
    is_over,
    exchange_outcome,
    exchange_actors,
    first_mover=True,
    cannot_play=why_no_exchange,
    exact=exchange_odds,
)
"""The Complex Exchange ("Social Intrigue"), played where the table cannot chase."""

SIMULATIONS = (CHASE, EXCHANGE)
"""What ``SYSTEM.simulations`` names: the chase first (the main one)."""
