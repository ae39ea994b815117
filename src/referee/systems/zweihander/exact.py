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
from math import factorial
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
    "seconds_estimate",
    "states_estimate",
]

ESCAPE = "escapees"
CAPTURE = "pursuers"
RULE = "Whole-encounter odds (Zweihänder chase)"
MOVE_DIE = 10
"""The faces of the die each participant's move adds to their Value ("1D10 + Movement" each
Round): how far apart two Values may drift in a move, for :func:`states_estimate` alone —
the chain's transitions roll the procedure's own dice."""
SECONDS_PER_STATE = 0.003
"""What an estimated state costs the chain (the procedure's steps over every face of its
dice), measured on this machine (docs/performance.md): 1.3–3.7 ms a state actually expanded,
the estimate a third more than those."""
FATIGUE = 30
"""How many times a state's work the GM's end of a Round takes for each participant fatigued
in it (a Toughness Test, then every face of 2D10+2 or 3D10+3 Peril): measured, 260 procedure
steps a state against 11–18, 76 ms against 1.3–3.7 (docs/performance.md)."""


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


def _spread_states(spreads: list[int]) -> int:
    """How many vectors of Values less the lowest participants reach whose Values have each
    moved by 0 to ``spreads[i]`` (a sum of d10s) from one vector: the lattice points of the box
    of the spreads seen along its diagonal, ``e_0 + e_1 + … + e_{n-1}`` of the spreads (their
    elementary symmetric sums; two participants: ``1 + a + b``).

    >>> _spread_states([9, 9, 0])
    100
    """
    sums = [1]
    for a in spreads:
        sums = [x + a * y for x, y in zip([*sums, 0], [0, *sums], strict=True)]
    return sum(sums[:-1])


def _places(table: Table[Any], seat: str | None, horizon: int) -> list[tuple[int, int]]:
    """Each place of the Rounds to solve (before each move, and the GM's end of the Round),
    with about how many canonical states it holds and how many participants are fatigued there
    (at a Round's end past their Brawn Bonus in Rounds: "Participants are unaffected by fatigue
    up to their Brawn Bonus in Rounds"), read from the table before any is expanded.

    What grows in the key is the Values less the lowest: after ``m`` moves a Value has drifted
    by 0 to ``(MOVE_DIE - 1) × m`` (:func:`_spread_states` counts the vectors), on each order of
    the Pursuers on the ladder. That is the dice alone: the Pursuers lowered to the Escape
    Value on catching up merge many of them, a failed Takedown (-1, -3) and a Takedown yet to be
    tried add a few; measured, the estimate is 1.0–1.4 times the states expanded."""
    state: dict[str, Any] = dict(table.procedure.state_json(table.state))
    chase = state.get("chase")
    if chase and not chase.get("ended"):
        people = {k: p["side"] for k, p in chase["participants"].items() if p["status"] == "in"}
        played = int(chase.get("round", 1)) - 1
    else:
        begin = conflict_of(table).begin(table, seat)
        params: dict[str, Any] = dict(begin[0].params) if begin else {}
        people = dict.fromkeys(params.get("escapees") or {}, "escapee")
        people.update(dict.fromkeys(params.get("pursuers") or {}, "pursuer"))
        played = 0
    ladders = factorial(sum(1 for side in people.values() if side == "pursuer"))
    brawn = [int(state["characters"][c]["bonuses"].get("BB", 0)) for c in people]
    n, drift = len(people), MOVE_DIE - 1
    found: list[tuple[int, int]] = []
    for r in range(played + 1, horizon + 1):
        moves = r - played
        for j in range(n + 1):
            spreads = [drift * moves] * j + [drift * (moves - 1)] * (n - j)
            tired = sum(1 for b in brawn if r > b) if j == n else 0
            found.append((ladders * _spread_states(spreads), tired))
    if horizon < _escape_condition(table, seat):  # the next Round begun, its first move taken
        found.append((ladders * _spread_states([drift * (horizon - played)] * n), 0))
    return found


def states_estimate(table: Table[Any], seat: str | None, horizon: int) -> int:
    """About how many canonical states the chain of ``table``'s chase expands over ``horizon``
    Rounds, read from the table before any is expanded (:func:`_places`).

    >>> from referee.core import system
    >>> sheet = {"bonuses": {"AB": 3, "BB": 3}, "skills": {"Coordination": 40}}
    >>> duo = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet}})
    >>> states_estimate(duo, None, 3)
    252
    >>> trio = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet, "c": sheet}})
    >>> states_estimate(trio, None, 3)
    18492
    """
    return sum(states for states, _ in _places(table, seat, horizon))


def seconds_estimate(table: Table[Any], seat: str | None, horizon: int) -> float:
    """About how many seconds the chain of ``table``'s chase takes over ``horizon`` Rounds:
    :data:`SECONDS_PER_STATE` an estimated state, :data:`FATIGUE` times it at a Round's end for
    each participant fatigued there (:func:`_places`).

    >>> from referee.core import system
    >>> sheet = {"bonuses": {"AB": 3, "BB": 2}, "skills": {"Coordination": 40, "Toughness": 40}}
    >>> duo = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet}})
    >>> round(seconds_estimate(duo, None, 2), 3), round(seconds_estimate(duo, None, 3), 3)
    (0.453, 149.091)
    """
    work = sum(states * FATIGUE**tired for states, tired in _places(table, seat, horizon))
    return float(work * SECONDS_PER_STATE)


def chase_odds(
    table: Table[Any],
    seat: str | None = None,
    rounds: int | None = None,
    time_limit: float | None = None,
) -> ChaseOdds:
    """The exact odds of the chase the default policy plays from ``table`` (the one under way,
    else the simulation's: ``seat``'s character the escapee) for its first ``rounds`` rounds
    (default: all of them, its Escape Condition); refused past ``time_limit`` seconds, and at
    once where the chain's :func:`seconds_estimate` (over its :func:`states_estimate`, to the
    whole ms a state) is past it."""
    if table.procedure is not system("zweihander").procedure:
        raise ChaseError(f"a chase is a Zweihänder conflict, not {table.system}")
    if conflict_of(table).name != "a chase":
        raise ChaseError("this table cannot chase: its conflict is " + conflict_of(table).name)
    horizon = _escape_condition(table, seat) if rounds is None else rounds
    if horizon < 1:
        raise ChaseError(f"rounds must be at least 1, not {horizon}")
    states = states_estimate(table, seat, horizon)
    return ChaseOdds(
        solve(
            table,
            key=canonical,
            horizon=horizon,
            seat=seat,
            describe=_ending,
            time_limit=time_limit,
            estimate=states,
            seconds_per_state=round(seconds_estimate(table, seat, horizon) / max(states, 1), 3),
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
