"""The simulated duel played on the same dice as the procedure, without the procedure's steps.

The simulator's default policy plays an Intrigue combat of two as the duel
:mod:`referee.systems.intrigue.exact` solves: each side Attacks the other every round until
one is Knocked Out. Where the table's combat is that duel (read from the game's own procedure
by :func:`~referee.systems.intrigue.exact.duel_from_table`: each Attack's chance, the damage of
a hit, the hits that Knock each side Out and whether that kills them), each encounter is played
here step by step as the simulator would take it — two declarations a round, then the referee
resolving place by place ("Initiative": the starter first in round 1, then the higher Combat
Stat, ties together) — drawing each Attack's 3d6 from the same dice in the same order as the
procedure does. So a seeded simulation gives the same encounters, outcome for outcome, as the
one through ``Table.act`` (``tests/sim/test_duel_dice.py`` plays both and compares), for a
small part of the cost.

An Attack "succeeds if the total is greater than the Target's Combat Stat + 10" ("Combat
Actions", Attacking): it hits exactly when its 3d6 reach a threshold, read back from the game's
own chance of the Attack (:func:`~referee.systems.intrigue.fast.threshold_3d6`). A side
Knocked Out in a place before its own lapses, and rolls nothing.

>>> from referee.core import system
>>> table = system("intrigue").new_table({"characters": {
...     "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 2, "stamina": 4},
...     "bob": {"name": "Bob", "number": 12, "combat": 1, "strength": 2, "stamina": 4}}})
>>> from referee.dice import RandomSource
>>> outcome, steps = DuelOnDice(duel_from_table(table, "ann", "bob"))(RandomSource(1), 2_000)
>>> outcome.winner in ("ann", "bob"), steps >= 3
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core import RefereeError, Table
from referee.core.simulation import EncounterOutcome
from referee.dice import DiceSource
from referee.systems.intrigue.exact import Duel, Duelist, duel_from_table
from referee.systems.intrigue.fast import threshold_3d6

__all__ = ["DuelOnDice", "duel_on_dice"]


@dataclass
class _Side:
    """One duelist as an encounter goes: the 3d6 their Attack must reach, the hits they took."""

    duelist: Duelist
    threshold: int
    hits: int = 0

    @property
    def out(self) -> bool:
        return self.hits >= self.duelist.knock_out

    def attacked(self, by: _Side, dice: DiceSource) -> None:
        """``by``'s Attack on this side: three dice, a hit when they reach ``by``'s threshold."""
        self.hits += _hit(by, dice)


@dataclass(frozen=True)
class DuelOnDice:
    """A duel's encounters played on the dice (see the module's doc): call it with the dice and
    the most actions an encounter may take; it answers the outcome and the actions taken."""

    duel: Duel

    def __call__(self, dice: DiceSource, max_steps: int) -> tuple[EncounterOutcome, int]:
        a = _Side(self.duel.a, threshold_3d6(self.duel.a.hit))
        b = _Side(self.duel.b, threshold_3d6(self.duel.b.hit))
        later = self.duel.later_order
        steps = round_ = 0
        while steps < max_steps:
            round_ += 1  # the first declaration begins the round
            steps += 1
            if steps == max_steps:
                break
            steps += 1  # the second declaration
            if steps == max_steps:
                break
            steps += 1  # the referee resolves the first place
            order = "a" if round_ == 1 else later
            if order == "both":  # one place: both Attack against the state before it
                b_hit_by_a, a_hit_by_b = _hit(a, dice), _hit(b, dice)
                a.hits += a_hit_by_b
                b.hits += b_hit_by_a
            else:
                first, second = (a, b) if order == "a" else (b, a)
                second.attacked(first, dice)
                if second.out or steps == max_steps:
                    break
                steps += 1  # the second place; the round ends with it
                first.attacked(second, dice)
            if a.out or b.out:
                break
        return self._outcome(a, b, round_), steps

    def _outcome(self, a: _Side, b: _Side, rounds: int) -> EncounterOutcome:
        over = a.out or b.out
        standing = [s.duelist.id for s in (a, b) if not s.out]
        winner = (",".join(sorted(standing)) or "none") if over else "unfinished"
        damage = {s.duelist.id: s.hits * s.duelist.damage for s in (a, b)}
        deaths = sum(1 for s in (a, b) if s.out and s.duelist.dies)
        knocked_out = sum(1 for s in (a, b) if s.out and not s.duelist.dies)
        extra = {"deaths": deaths, "knocked_out": knocked_out}
        return EncounterOutcome(winner, rounds, damage, over, extra)


def _hit(attacker: _Side, dice: DiceSource) -> int:
    """1 if ``attacker``'s 3d6 reach their threshold, else 0."""
    return int(dice.roll(6) + dice.roll(6) + dice.roll(6) >= attacker.threshold)


def duel_on_dice(table: Table[Any], starter: str, target: str) -> DuelOnDice | None:
    """The encounters of the duel ``starter`` begins on ``target`` at ``table``, played on the
    dice, where it is the duel of the module's doc; ``None`` where it is not (a chance that
    changes, a target never Knocked Out: the simulator then plays it through the procedure)."""
    try:
        return DuelOnDice(duel_from_table(table, starter, target))
    except RefereeError:
        return None
