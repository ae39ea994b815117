"""The simulated chase played on the same dice as the procedure, without the procedure's steps.

The simulator's default policy (:mod:`referee.systems.zweihander.simulation`) plays the chase
the exact model solves (:mod:`referee.systems.zweihander.exact`): the GM starts it (the seat's
character, else the first, flees on foot from all the others, with the Head Start), then the
step read from the ladder (:func:`~.simulation.chase_step`): a Takedown by the first the chase
calls on who has caught up, else the move of the next on the ladder, else the GM ends the
Round. Nobody takes an Action, attacks or gives up. Where a table is at the start of such a
chase (:func:`chase_on_dice`: no chase nor Complex Exchange under way, and the game accepts the
start), each encounter is played here step by step as the simulator would take it, drawing
every die from the same dice in the same order as the procedure does. So a seeded simulation
gives the same encounters, outcome for outcome and action for action, as the one through
``Table.act`` (``tests/sim/test_chase_dice.py`` plays both and compares), for a small part of
the cost.

What the rules read is read from the table by the game's own functions: each one's Movement
on foot (:func:`~.chase_ladder.movement`), the Initiative Ladder (:func:`~.chase_ladder.ladder`),
the Takedown's difficulty (:func:`~.takedown.takedown_difficulty`), each Skill Test's outcome
(:class:`~.percentile.SkillTest`) at the Base Chance the Peril Condition Track leaves
(:meth:`~.character.Character.chance`), Peril through
:meth:`~.character.Character.suffer_peril`. Then, as "Chase scene rules" has it:

- ``chase.start``: each Pursuer, in the order named, rolls 1D10 + Initiative for the ladder;
  the Escapees get the Head Start (+3);
- a move: 1D10 + Movement added to the Value; then every Pursuer still in whose Value reaches
  the rearmost Escapee who has moved this Round (the lowest Value, ties the higher on the
  ladder) is lowered to it and has caught up — equal Values not again after a Takedown on that
  Escapee this Round;
- a Takedown: the Pursuer's Coordination Test at the chase's difficulty: a Critical Failure
  costs 3 Value, a Failure 1, a Critical Success takes both out; a Success makes the Escapee
  test Coordination, and failing it both are out;
- the GM's end of the Round: the rearmost Escapee's Chaos Die (a Complication changes
  nothing the rules play out), then in ladder order the fatigue Toughness Test (−10) of each
  participant still in past their Brawn Bonus in Rounds, 2D10+2 Peril on a Failure, 3D10+3 on
  a Critical Failure; Incapacitated!, they are exhausted;
- the chase ends when every Escapee is out (the Pursuers win), every Pursuer is out or the
  Escape Condition is met (the Escapees win).

>>> from referee.core import system
>>> sheet = {"bonuses": {"AB": 3, "BB": 2}, "skills": {"Coordination": 40, "Toughness": 40}}
>>> table = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet}})
>>> from referee.dice import RandomSource
>>> outcome, steps = chase_on_dice(table, None)(RandomSource(1), 2_000)
>>> outcome.winner in ("escapees", "pursuers"), steps >= 3
(True, True)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from referee.core import Outcome, Table
from referee.core.simulation import EncounterOutcome
from referee.dice import DiceSource
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.chase import FATIGUE_DIFFICULTY
from referee.systems.zweihander.chase_ladder import CHASE_START, HEAD_START, ladder, movement
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.takedown import takedown_difficulty

__all__ = ["ChaseOnDice", "chase_on_dice"]

ON_FOOT = "on foot"
SUCCEEDS = frozenset({Outcome.SUCCESS, Outcome.CRITICAL_SUCCESS})
FATIGUE_PERIL = {Outcome.FAILURE: (2, 2), Outcome.CRITICAL_FAILURE: (3, 3)}
"""Fatigue's Peril as (d10s, added): 2D10+2 on a Failure, 3D10+3 on a Critical Failure."""


@functools.cache
def _outcomes(base_chance: int, modifier: int) -> tuple[Outcome, ...]:
    """The outcome of each d100 face (index 1–100) of a Skill Test, read from the game's own
    :class:`SkillTest` once."""
    test = SkillTest(base_chance, modifier)
    return (Outcome.FAILURE, *(test.outcome_of(face) for face in range(1, 101)))


def _test(character: Character, skill: str, modifier: int, dice: DiceSource) -> Outcome:
    """A Skill Test's d100 rolled and read."""
    return _outcomes(character.chance(skill), modifier)[dice.roll(100)]


class _Runner:
    """One participant as an encounter goes: their character (Peril changes), Movement, Value,
    whether they have moved this Round, whom they caught or tackled, whether they are in."""

    __slots__ = (
        "caught",
        "character",
        "escapee",
        "id",
        "moved",
        "movement",
        "peril",
        "status",
        "tackled",
        "value",
    )

    def __init__(self, character: Character, escapee: bool, value: int) -> None:
        self.id = character.id
        self.character = character
        self.peril = character.peril  # at the start: the Peril taken is counted from it
        self.escapee = escapee
        self.movement = movement(character, ON_FOOT)
        self.value = value
        self.moved = False
        self.caught: _Runner | None = None
        self.tackled: _Runner | None = None
        self.status = "in"


@dataclass(frozen=True)
class ChaseOnDice:
    """A chase's encounters played on the dice (see the module's doc): call it with the dice
    and the most actions an encounter may take; it answers the outcome and the actions taken.
    ``escapees`` and ``pursuers`` as ``chase.start`` names them, each side's characters."""

    escapees: tuple[Character, ...]
    pursuers: tuple[Character, ...]
    head_start: str | None
    escape_rounds: int
    takedown: int

    def __call__(self, dice: DiceSource, max_steps: int) -> tuple[EncounterOutcome, int]:
        runners = self._ladder(dice)
        escapees = [r for r in runners if r.escapee]
        pursuers = [r for r in runners if not r.escapee]
        steps, round_ = 0, 1
        current: _Runner | None = None
        winner = None
        while steps < max_steps and winner is None:
            steps += 1
            tackler = _first_to_tackle(current, runners)
            if tackler is not None:
                self._takedown(tackler, dice)
            else:
                mover = next((r for r in runners if r.status == "in" and not r.moved), None)
                if mover is not None:
                    mover.value += dice.roll(10) + mover.movement
                    mover.moved = True
                    current = mover
                    _catch_up(escapees, pursuers)
                    continue  # a move ends no chase
                _end_round(runners, escapees, round_, dice)
                round_ += 1
                current = None
            winner = self._winner(escapees, pursuers, round_)
        rounds = round_ - (0 if any(r.moved for r in runners) else 1)
        damage = {r.id: r.character.peril - r.peril for r in runners}
        taken_down = {"taken_down": sum(1 for r in runners if r.status == "taken down")}
        return EncounterOutcome(
            winner or "unfinished", rounds, damage, winner is not None, taken_down
        ), steps

    def _ladder(self, dice: DiceSource) -> list[_Runner]:
        """``chase.start``: each Pursuer's 1D10 + Initiative, in the order named; the ladder."""
        rolled = [(p.id, dice.roll(10) + p.initiative) for p in self.pursuers]
        order = ladder([(e.id, e.bonus("AB")) for e in self.escapees], rolled)
        by_id = {c.id: c for c in (*self.escapees, *self.pursuers)}
        fleeing = {e.id for e in self.escapees}
        head = None if self.head_start is None else self.head_start.rstrip("s") == "escapee"
        return [
            _Runner(by_id[i], i in fleeing, HEAD_START if head == (i in fleeing) else 0)
            for i in order
        ]

    def _takedown(self, pursuer: _Runner, dice: DiceSource) -> None:
        """The Pursuer's Takedown on the Escapee they caught; the Escapee may have to resist."""
        escapee = pursuer.caught
        assert escapee is not None
        outcome = _test(pursuer.character, "Coordination", self.takedown, dice)
        both_out = outcome is Outcome.CRITICAL_SUCCESS
        if outcome is Outcome.CRITICAL_FAILURE:
            pursuer.value -= 3
        elif outcome is Outcome.FAILURE:
            pursuer.value -= 1
        elif not both_out:
            both_out = _test(escapee.character, "Coordination", 0, dice) not in SUCCEEDS
        pursuer.caught, pursuer.tackled = None, escapee
        if both_out:
            for r in (pursuer, escapee):
                r.status, r.caught = "taken down", None

    def _winner(self, escapees: list[_Runner], pursuers: list[_Runner], round_: int) -> str | None:
        """The side the game names once the chase ends ("Ending the chase"), else ``None``."""
        if all(r.status != "in" for r in escapees):
            return "pursuers"
        if all(r.status != "in" for r in pursuers) or round_ > self.escape_rounds:
            return "escapees"
        return None


def _first_to_tackle(current: _Runner | None, runners: list[_Runner]) -> _Runner | None:
    """The first the chase calls on (``chase.called``) who has caught up and may attempt a
    Takedown: the one who has just moved, then the Pursuers in ladder order."""
    for r in runners if current is None else (current, *runners):
        if r.caught is not None and r.status == "in":
            return r
    return None


def _catch_up(escapees: list[_Runner], pursuers: list[_Runner]) -> None:
    """Every Pursuer still in whose Value reaches the rearmost Escapee who has moved this Round
    is lowered to it and has caught up (equal Values: not again after a Takedown on them)."""
    moved = [e for e in escapees if e.status == "in" and e.moved]
    if not moved:
        return
    rear = min(moved, key=lambda e: e.value)
    for x in pursuers:
        if x.status != "in":
            continue
        again = x.caught is rear or x.tackled is rear
        if x.value > rear.value or (x.value == rear.value and not again):
            x.value, x.caught = rear.value, rear


def _end_round(
    runners: list[_Runner], escapees: list[_Runner], round_: int, dice: DiceSource
) -> None:
    """The rearmost Escapee's Chaos Die; fatigue past each one's Brawn Bonus in Rounds."""
    if any(e.status == "in" for e in escapees):
        dice.roll(6)  # the Complication: the GM describes it, it changes no Value
    for r in runners:
        c = r.character
        if r.status != "in" or round_ <= c.bonus("BB"):
            continue
        outcome = _test(c, "Toughness", FATIGUE_DIFFICULTY, dice)
        if outcome in FATIGUE_PERIL:
            count, added = FATIGUE_PERIL[outcome]
            peril = sum(dice.roll(10) for _ in range(count)) + added
            r.character = c = c.suffer_peril(peril)
            if c.is_incapacitated:
                r.status = "exhausted"
    for r in runners:
        r.moved, r.caught, r.tackled = False, None, None


def chase_on_dice(table: Table[Any], seat: str | None) -> ChaseOnDice | None:
    """The encounters of the default policy's chase from ``table``, played on the dice, where
    the table is at the start of the chase of the module's doc: no chase nor Complex Exchange
    under way, the game accepting the start, everyone on foot. ``None`` otherwise (the
    simulator then plays it through the procedure)."""
    from referee.systems.zweihander.simulation import chase_begin, why_no_chase

    state: ZweihanderState = table.state
    under_way = state.chase is not None and state.chase.ended is None
    exchange = state.exchange is not None and not state.exchange.ended
    begin = [] if under_way or exchange else chase_begin(table, seat)
    if len(begin) != 1 or why_no_chase(table) is not None:
        return None
    p = CHASE_START.of(begin[0])
    escapees, pursuers = p.escapees, p.pursuers
    if not isinstance(escapees, dict) or not isinstance(pursuers, dict):
        return None
    if any(mode != ON_FOOT for mode in (*escapees.values(), *pursuers.values())):
        return None
    return ChaseOnDice(
        tuple(state.character(c) for c in escapees),
        tuple(state.character(c) for c in pursuers),
        p.head_start,
        p.escape_condition,
        takedown_difficulty(p.takedown),
    )
