"""Zweihänder: a chase's chance to end by escape or by capture within N rounds, exactly.

Rules text (Zweihänder house rules), "Chase scene rules": Movement, the Initiative Ladder,
1D10 + Movement each Round, catching up, the Takedown, the Complication die, fatigue and the
ways the chase ends.

The chase is the one the simulation's default policy plays (its ``simulation`` module):
every participant moves in ladder order, takes no Action and makes no Ranged or Magick Attack;
a Pursuer who catches up attempts a Takedown at once; the GM ends each Round; nobody gives up.
Its canonical state is what the rules look at: the round, who has moved and who is still in
(escaped, taken down, exhausted), whom each Pursuer has caught or tackled this Round, every
participant's Peril (fatigue), the ladder (not the Initiative totals that placed the
Pursuers on it: the text reads them for nothing else), and the Values **less the lowest Value
of anyone still in** — the text only ever compares Values ("When Pursuit Value >= Escape
Value … lower their Pursuit Value to the Escape Value"), so a chase whose Values are all 10
higher plays the same.

Nothing of the rules is copied here. The chain (:mod:`referee.core.markov`) takes each
step on the table through the game's own procedure: the Initiative d10s of ``chase.start``,
every face of each move's 1D10, the Takedown's and the Escapee's Coordination tests, the
Complication's Chaos Die and fatigue's Toughness test and Peril — faces that do the same thing
merged (a d100 test's hundred faces are a few outcomes). So the answer holds what the game
does, fatigue and exhaustion included; it leaves out only what the default policy never does
(Actions, Attacks, giving up). The Complication die is rolled and answered as the game answers
it: the text's Complication tables are "not in the text" (its parent book's), so a
Complication changes nothing here, nor in the game.

>>> from referee.core import system
>>> quick = {"bonuses": {"AB": 4, "BB": 3}, "skills": {"Coordination": 50, "Toughness": 40}}
>>> slow = {"bonuses": {"AB": 2, "BB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}
>>> table = system("zweihander").new_table({"characters": {"thief": quick, "guard": slow}})
>>> odds = chase_odds(table, rounds=1)
>>> odds.escape_within(1) + odds.capture_within(1) + odds.chain.unfinished == 1
True
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core import Table, system
from referee.core.markov import ChainError, ChainOdds, solve
from referee.core.simulation import conflict_of

__all__ = [
    "ChaseError",
    "ChaseOdds",
    "ExchangeOdds",
    "canonical",
    "chase_odds",
    "exchange_odds",
    "states_estimate",
]

ESCAPE = "escapees"
CAPTURE = "pursuers"
RULE = "Whole-encounter odds (Zweihänder chase)"
MOVE_DIE = 10
"""The faces of the die each participant's move adds to their Value ("1D10 + Movement" each
Round): how far apart two Values may drift in a Round, for :func:`states_estimate` alone —
the chain's transitions roll the procedure's own dice."""
SECONDS_PER_STATE = 0.02
"""What an estimated state costs the chain (the procedure's steps over every face of its
dice), measured on this machine: one escapee and one pursuer over 3 Rounds, fatigue included,
3.3 s for an estimate of 180; two pursuers over 2 Rounds, 19 s for 2,000 (docs/performance.md)."""


class ChaseError(ChainError):
    """The table's chase cannot be solved exactly (the reason says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, RULE)


def canonical(table: Table[Any]) -> Hashable:
    """The chase's canonical state: the game's state JSON with every Value less the lowest
    Value of anyone still in the chase (see the module's doc), and without the Complications
    that arose (they change nothing the rules play out)."""
    state: dict[str, Any] = dict(table.procedure.state_json(table.state))
    chase = state.get("chase")
    if chase:
        people = chase["participants"]
        values = [int(p["value"]) for p in people.values() if p["status"] == "in"]
        low = min(values, default=0)
        chase = {
            **chase,
            "participants": {
                k: {
                    **p,
                    "value": int(p["value"]) - low if p["status"] == "in" else None,
                    "initiative": None,  # read once, for the ladder (the ladder is kept)
                }
                for k, p in people.items()
            },
            "complications": None,  # the GM's to describe: they change no Value nor ending
        }
        state = {**state, "chase": chase}
    return json.dumps(state, sort_keys=True, default=str)


def _chase(table: Table[Any]) -> dict[str, Any]:
    state: dict[str, Any] = dict(table.procedure.state_json(table.state))
    chase: dict[str, Any] = state.get("chase") or {}
    return chase


def _ending(table: Table[Any]) -> str:
    chase = _chase(table)
    return str(chase.get("ended") or "unfinished")


@dataclass(frozen=True)
class ChaseOdds:
    """The exact answer for the first ``horizon`` rounds: ``chain`` holds the distribution of
    (winner, round) — ``"escapees"`` for an escape (the Escape Condition met, or every Pursuer
    out), ``"pursuers"`` for a capture (every Escapee taken down or exhausted) — with the
    chance of each way the chase ended (``chain.endings``, the game's words)."""

    chain: ChainOdds

    @property
    def horizon(self) -> int:
        """The rounds solved."""
        return self.chain.horizon

    def escape_within(self, rounds: int) -> Fraction:
        """P(the escapees have escaped by the end of round ``rounds``)."""
        return self.chain.within(rounds, ESCAPE)

    def capture_within(self, rounds: int) -> Fraction:
        """P(the pursuers have won by the end of round ``rounds``)."""
        return self.chain.within(rounds, CAPTURE)

    def to_json(self) -> dict[str, Any]:
        """Every probability as a fraction string and a float (``referee simulate --json``,
        the web table's answer)."""

        def both(p: Fraction) -> dict[str, Any]:
            return {"exact": str(p), "value": float(p)}

        rounds = range(1, self.horizon + 1)
        expected = self.chain.expected_rounds
        wins = self.chain.wins
        return {
            "exact": True,
            "model": "zweihander chase",
            "wins": {w: both(wins.get(w, Fraction(0))) for w in (ESCAPE, CAPTURE)},
            "escape_by_round": [both(self.escape_within(n)) for n in rounds],
            "capture_by_round": [both(self.capture_within(n)) for n in rounds],
            "by_round": [both(p) for p in self.chain.by_round()],
            "endings": {k: both(v) for k, v in sorted(self.chain.endings.items())},
            "unfinished": both(self.chain.unfinished),
            "expected_rounds": None if expected is None else both(expected),
            "states": self.chain.states,
            "procedure_steps": self.chain.acts,
        }


def _escape_condition(table: Table[Any], seat: str | None) -> int:
    chase = _chase(table)
    if chase and not chase.get("ended"):
        return int(chase["escape_rounds"])
    begin = conflict_of(table).begin(table, seat)
    if not begin:
        raise ChaseError("no chase is under way, and none can begin (fewer than two characters)")
    condition: Any = begin[0].params.get("escape_condition", 3)
    return int(condition)


def states_estimate(table: Table[Any], seat: str | None, horizon: int) -> int:
    """About how many canonical states the chain of ``table``'s chase expands over ``horizon``
    Rounds, read from the table before any is expanded: what the key keeps that grows is the
    Values less the lowest, ``n − 1`` differences each drifting over ``MOVE_DIE × r`` after
    ``r`` Rounds, at each of the ``n + 1`` places of a Round (before each move, and its end).

    >>> from referee.core import system
    >>> sheet = {"bonuses": {"AB": 3, "BB": 3}, "skills": {"Coordination": 40}}
    >>> duo = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet}})
    >>> states_estimate(duo, None, 3)
    180
    >>> trio = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet, "c": sheet}})
    >>> states_estimate(trio, None, 3)
    5600
    """
    chase = _chase(table)
    if chase and not chase.get("ended"):
        people = sum(1 for p in chase["participants"].values() if p["status"] == "in")
        played = int(chase.get("round", 1)) - 1
    else:
        begin = conflict_of(table).begin(table, seat)
        params: dict[str, Any] = dict(begin[0].params) if begin else {}
        people = len(params.get("escapees") or {}) + len(params.get("pursuers") or {})
        played = 0
    return sum(
        (people + 1) * (MOVE_DIE * r) ** max(0, people - 1) for r in range(played + 1, horizon + 1)
    )


def chase_odds(
    table: Table[Any],
    seat: str | None = None,
    rounds: int | None = None,
    time_limit: float | None = None,
) -> ChaseOdds:
    """The exact odds of the chase the default policy plays from ``table`` (the one under way,
    else the simulation's: ``seat``'s character the escapee) for its first ``rounds`` rounds
    (default: all of them, its Escape Condition); refused past ``time_limit`` seconds, and at
    once where the chain's :func:`states_estimate` at :data:`SECONDS_PER_STATE` is past it."""
    if table.procedure is not system("zweihander").procedure:
        raise ChaseError(f"a chase is a Zweihänder conflict, not {table.system}")
    if conflict_of(table).name != "a chase":
        raise ChaseError("this table cannot chase: its conflict is " + conflict_of(table).name)
    horizon = _escape_condition(table, seat) if rounds is None else rounds
    if horizon < 1:
        raise ChaseError(f"rounds must be at least 1, not {horizon}")
    return ChaseOdds(
        solve(
            table,
            key=canonical,
            horizon=horizon,
            seat=seat,
            describe=_ending,
            time_limit=time_limit,
            estimate=states_estimate(table, seat, horizon),
            seconds_per_state=SECONDS_PER_STATE,
        )
    )


@dataclass(frozen=True)
class ExchangeOdds:
    """The exact odds of a Complex Exchange as the simulation plays it (``conflicts.EXCHANGE``:
    each participant tests their first Social Tactic, then the GM ends it): the party's best
    Test (``chain.wins``: critical success … critical failure)."""

    chain: ChainOdds

    def to_json(self) -> dict[str, Any]:
        """Every probability as a fraction string and a float."""

        def both(p: Fraction) -> dict[str, Any]:
            return {"exact": str(p), "value": float(p)}

        return {
            "exact": True,
            "model": "zweihander complex exchange",
            "wins": {k: both(v) for k, v in self.chain.wins.items()},
            "expected_rounds": both(Fraction(1)),
            "states": self.chain.states,
            "procedure_steps": self.chain.acts,
        }


def exchange_odds(table: Table[Any], time_limit: float | None = None) -> ExchangeOdds:
    """The exact odds of the Complex Exchange the simulation plays from ``table`` (one round:
    every participant's Tactic Test through the procedure, every face)."""
    if conflict_of(table).name != "a Complex Exchange":
        raise ChaseError("this table's conflict is not a Complex Exchange")
    return ExchangeOdds(solve(table, key=canonical, horizon=1, time_limit=time_limit))
