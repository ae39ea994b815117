"""The simulated maneuver played on the same dice as the procedure, without the procedure's steps.

The simulator's default policy (:mod:`referee.systems.kingdoms.simulation`) plays one maneuver,
slips to resolution: each faction writes its slip and passes its scenes (no dice), a faction
reads the slips, every roll is kept, each tie-breaker offered is agreed to, and the reader
resolves the slips. Where a table is at such a maneuver (:func:`maneuver_on_dice`: the
policy's steps up to the reveal taken by the game without refusal and without a die), those
steps are taken once, through the procedure, and so is the reveal, on
dice of 1s: what the reveal makes of the slips — void slips, help, each maneuver's cost
sacrificed, which rolls wait to be kept — draws on no face. Each encounter then plays on from
there as the simulator would take it, drawing every die from the same dice in the same order
as the procedure does ("Maneuver Resolution", "Independent and Versus Maneuvers"):

- the reveal: every maneuver test rolled in seat order from the reader (a Harry's defence dice,
  then its attack dice; :func:`~.reveal.read_slips`, :func:`~.reveal.roll_test`);
- a keep for each roll that waits for one (nothing rolled);
- while a versus test is tied, the first faction in seat order that may agree to a tie-breaker
  and has not yet agreed to one does (:func:`~.tie_breaker.tie_break_offer`: its first
  opponent, its first root stat); once both sides have agreed they roll, the side that agreed
  last first (:func:`~.tie_breaker.roll_both`), folded as the game folds the tie-breaker;
- the reader resolves the slips (:func:`~.resolution.resolve`): the maneuver's winner is the
  faction that gained the most disposition, as the game names it.

So a seeded simulation gives the same encounters, outcome for outcome and action for action,
as the one through ``Table.act`` (``tests/sim/test_maneuver_dice.py`` plays both and compares),
for a small part of the cost.

>>> from pathlib import Path
>>> from referee.core import system
>>> from referee.core.loader import load_file
>>> example = Path(__file__).parents[4] / "examples/kingdoms/sap-against-logistics.yaml"
>>> table = system("kingdoms").new_table(load_file(example)["setup"])
>>> from referee.dice import RandomSource
>>> outcome, steps = maneuver_on_dice(table)(RandomSource(0), 2_000)
>>> outcome.winner in ("elves", "tie"), steps
(True, 8)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.core import Action, Event, RefereeError, Table
from referee.core.policies import default_policy, legal_choices
from referee.core.simulation import EncounterOutcome
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.dice import PoolRoll
from referee.systems.kingdoms.events import TIE_BREAK_OFFERED, TIE_BREAK_ROLLED
from referee.systems.kingdoms.procedure import dispositions_before
from referee.systems.kingdoms.resolution import Board, resolve
from referee.systems.kingdoms.reveal import ManeuverTest, board_of, read_slips, roll_test
from referee.systems.kingdoms.scripting import entries_of, order_from, tied_pools, ties_of
from referee.systems.kingdoms.state import KingdomsState, RolledTest
from referee.systems.kingdoms.tie_breaker import (
    roll_both,
    tie_break_offer,
    tie_break_offered,
    tie_break_rolled,
)

__all__ = ["ManeuverOnDice", "maneuver_on_dice"]


class _NoDice:
    """The dice of the steps before the reveal: none is asked for (:class:`_DieAsked`)."""

    def roll(self, sides: int) -> int:
        raise _DieAsked


class _DieAsked(Exception):
    """A step before the reveal asked for a die: not a maneuver played here."""


class _Ones:
    """The reveal taken once on dice of 1s: what it makes of the slips reads no face."""

    def roll(self, sides: int) -> int:
        return 1


@dataclass(frozen=True)
class ManeuverOnDice:
    """A maneuver's encounters played on the dice (see the module's doc): call it with the dice
    and the most actions an encounter may take; it answers the outcome and the actions taken.

    ``before_reveal``: the outcome cut short after each step before the reveal (none rolled);
    ``rolled``: the state after the reveal, its tests rolled on 1s; ``tests``: each maneuver
    test as the reveal rolls it, in its order; ``unresolved``: the outcome cut short after the
    reveal (the costs sacrificed, nothing resolved); ``board``: the table as resolution reads
    it; ``start``, ``began``: each faction's disposition at the start of the simulation and as
    the maneuver began (the game's measure of who gained the most)."""

    before_reveal: tuple[EncounterOutcome, ...]
    rolled: KingdomsState
    tests: tuple[tuple[str, ManeuverTest], ...]
    unresolved: EncounterOutcome
    board: Board
    start: Mapping[str, int]
    began: Mapping[str, int]

    def __call__(self, dice: DiceSource, max_steps: int) -> tuple[EncounterOutcome, int]:
        """One encounter: the outcome and the actions taken."""
        opening = len(self.before_reveal) - 1
        if max_steps <= opening:
            return self.before_reveal[max(0, max_steps)], max(0, max_steps)
        rolls = dict(self.rolled.rolls)
        for fid, test in self.tests:
            first, attack = roll_test(test, dice)
            rolls[fid] = _rolled(rolls[fid], first.successes, attack)
        steps = opening + 1 + sum(1 for t in self.rolled.rolls.values() if not t.decided)
        if steps >= max_steps:  # cut before the last keep is taken, or just after it
            return self.unresolved, max_steps
        state = evolved(self.rolled, rolls=rolls)
        while (offer := _first_offer(state)) is not None:
            if steps == max_steps:
                return self.unresolved, steps
            steps += 1
            state = _tie_break(state, *offer, dice)
        if steps == max_steps:
            return self.unresolved, steps
        return self._resolved(state), steps + 1

    def _resolved(self, state: KingdomsState) -> EncounterOutcome:
        """The reader resolves the slips: each faction's disposition after every effect, and
        the faction that gained the most in the maneuver (``"tie"`` if several did)."""
        disposition = dict(self.board.disposition)
        for effect in resolve(entries_of(state), self.board).effects:
            if effect.kind == "disposition":
                disposition[effect.faction] = int(effect.value or 0)
        gained = {f: v - self.began.get(f, v) for f, v in disposition.items()}
        best = max(gained.values(), default=0)
        top = [f for f, c in gained.items() if c == best]
        change = {f: v - self.start[f] for f, v in disposition.items()}
        return EncounterOutcome(
            top[0] if len(top) == 1 else "tie",
            1,
            {f: -c for f, c in change.items()},
            True,
            {f"change:{f}": c for f, c in change.items()},
        )


def _rolled(test: RolledTest, successes: int, attack: PoolRoll | None) -> RolledTest:
    """``test`` as this encounter rolled it, and kept."""
    return evolved(
        test, successes=successes, attack=0 if attack is None else attack.successes, decided=True
    )


def _first_offer(state: KingdomsState) -> tuple[str, str, str] | None:
    """The tie-breaker the policy agrees to next: the first faction in seat order that has not
    agreed to one and may, its first opponent and first root stat (``None``: none; at once
    where no versus test is tied)."""
    if not ties_of(state):
        return None
    for fid in state.factions:
        if fid in state.tie_offers:
            continue
        opponents, roots = tie_break_offer(state, fid)
        if opponents:
            return fid, opponents[0], roots[0]
    return None


def _tie_break(
    state: KingdomsState, me: str, opponent: str, root: str, dice: DiceSource
) -> KingdomsState:
    """``tie_break``: ``me`` agrees to break its tie with ``opponent`` on ``root``; when the
    opponent has agreed already, both roll (:func:`~.tie_breaker.tie_break`)."""
    theirs = state.tie_offers.get(opponent)
    offered = {"faction": me, "opponent": opponent, "root": root}
    after = tie_break_offered(state, Event(TIE_BREAK_OFFERED, offered))
    if theirs is None or theirs[0] != me:
        return after
    mine = state.factions[me].character(state.rolls[me].roller).stat(root)
    other = state.factions[opponent].character(state.rolls[opponent].roller).stat(theirs[1])
    assert mine is not None and other is not None
    mine_roll, their_roll = roll_both(mine, other, dice)
    extra = {me: mine_roll.successes, opponent: their_roll.successes}
    rolled: dict[str, Any] = {"extra": extra, "pools": tied_pools(state, me, opponent)}
    return tie_break_rolled(after, Event(TIE_BREAK_ROLLED, rolled))


def maneuver_on_dice(table: Table[Any]) -> ManeuverOnDice | None:
    """The player of the maneuver's encounters from ``table`` on the dice, where the default
    policy's steps from ``table`` are slips written and scenes passed up to the reveal, taken
    without a die and without a refusal (``None`` where not — a Prologue, a maneuver revealed
    already: the procedure plays it)."""
    from referee.systems.kingdoms.simulation import MANEUVER

    start = table
    outcomes = [_unfinished(start, table)]
    try:
        while True:
            choices = legal_choices(table, MANEUVER)
            if not choices:
                return None
            action = default_policy(table, MANEUVER, choices, random.Random(0))
            if action.kind not in ("write_slip", "pass"):
                break
            table = table.act(action, _NoDice())
            outcomes.append(_unfinished(start, table))
    except (_DieAsked, RefereeError):
        return None
    if action.kind != "reveal":
        return None
    return _after_the_reveal(start, table, action, tuple(outcomes))


def _after_the_reveal(
    start: Table[Any],
    table: Table[Any],
    reveal: Action,
    before_reveal: tuple[EncounterOutcome, ...],
) -> ManeuverOnDice | None:
    """The player from ``table``, where ``reveal`` is the policy's next action."""
    state: KingdomsState = table.state
    try:
        rolled = table.act(reveal, _Ones())
    except RefereeError:
        return None
    after: KingdomsState = rolled.state
    if after.phase != "rolled" or after.tie_offers:
        return None
    tests = read_slips(state, order_from(state, reveal.actor))[3]
    board = board_of(after)
    return ManeuverOnDice(
        before_reveal,
        after,
        tuple(tests.items()),
        _unfinished(start, rolled),
        board,
        {f: x.disposition for f, x in start.state.factions.items()},
        dispositions_before(after),
    )


def _unfinished(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The outcome of an encounter cut short at ``table``, as the simulator reports it."""
    from referee.systems.kingdoms.simulation import MANEUVER

    outcome = MANEUVER.outcome(start, table)
    return EncounterOutcome("unfinished", outcome.rounds, outcome.damage, False, outcome.extra)
