"""Burning Wheel dice for Burning Kingdoms (parent-games.md, "Burning Wheel").

A test rolls a pool of d6 — the ability's exponent, plus FoRKs, helping dice, Persona and
maneuver bonuses, minus wound penalties — and counts successes by shade (Black 4–6, Grey 3–6,
White 2–6) against an obstacle (Ob). In a versus test each side's successes are the other's Ob
and the defender wins ties. Artha: Persona (+1D each, before, at most 3), Deeds (before: double
the base exponent; after: reroll every failed die; at most 2, one of each use) and Fate (after:
make 6s open-ended, or reroll one failed die if the test is open-ended already; at most 1).

Every test here is a thin wrapper of the kernel's :class:`~referee.core.Pool`: the base roll is
``Pool.roll``, and each after-the-roll artha rolls a further kernel ``Pool`` from the same dice
source, in this order (a ruling, docs/systems/kingdoms.md):

1. the pool (base dice, then explosion dice in waves, as the kernel rolls them);
2. Fate on a test that is not open-ended: one open-ended die for each 6 showing;
3. Deeds after the roll: every failed die rerolled at once (open-ended if the test now is);
4. Fate on a test open-ended by nature: one failed die (if any remains) rerolled, open-ended.

What goes into a pool is :mod:`.pools`'s, the exact odds :mod:`.odds`'s; this module rolls,
makes the kernel checks, and names all of them. Odds are exact: :func:`success_distribution`
convolves exact per-die distributions of ``min(successes, cap)``; the top bucket ``cap`` holds
exactly the probability of ``cap`` or more.

>>> pool = BurningPool(exponent=4)
>>> pool.dice
4
>>> obstacle_odds(pool, Artha(), obstacle=2)
Fraction(11, 16)
>>> obstacle_odds(pool, Artha(fate=True), obstacle=5)
Fraction(55, 768)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from referee.core import (
    BLACK,
    CheckOdds,
    CheckResult,
    ObstacleCheck,
    OpposedCheck,
    Outcome,
    Pool,
    RuleError,
    TieRule,
)
from referee.dice import DiceSource
from referee.systems.kingdoms.odds import (
    after_distribution,
    artha_choices,
    obstacle_odds,
    success_distribution,
    versus_odds,
)
from referee.systems.kingdoms.pools import (
    CAP,
    MAX_DEEDS,
    MAX_FATE,
    MAX_PERSONA,
    NO_ARTHA,
    WOUND_DICE,
    WOUND_HEALTH_OB,
    Artha,
    BurningPool,
    PoolRoll,
    Shade,
    fork_dice,
    help_dice,
)

__all__ = [
    "BLACK",
    "CAP",
    "MAX_DEEDS",
    "MAX_FATE",
    "MAX_PERSONA",
    "WOUND_DICE",
    "WOUND_HEALTH_OB",
    "Artha",
    "BurningPool",
    "BurningTest",
    "BurningVersus",
    "PoolRoll",
    "Shade",
    "after_distribution",
    "artha_choices",
    "difficulty",
    "fork_dice",
    "help_dice",
    "obstacle_odds",
    "roll_before",
    "roll_pool",
    "spend_after",
    "success_distribution",
    "versus_odds",
]

# ------------------------------------------------------------------------------ rolling


def _roll(
    dice: int, shade: int, open_ended: bool, source: DiceSource
) -> tuple[int, int, int, tuple[int, ...]]:
    """Roll a kernel pool: (successes, failed dice, sixes showing, faces)."""
    if dice <= 0:
        return 0, 0, 0, ()
    successes, rolled = Pool(dice, shade, open_ended).roll(source)
    assert rolled is not None
    faces = tuple(d.face for d in rolled.dice)
    failed = sum(1 for f in faces if f < shade)
    sixes = sum(1 for f in faces if f == 6)
    return successes, failed, sixes, faces


def roll_pool(
    dice: int, shade: int, open_ended: bool, artha: Artha, source: DiceSource
) -> PoolRoll:
    """Roll ``dice`` d6 and apply the after-the-roll artha in ``artha`` (Fate, Deeds).

    ``dice`` already counts Persona and Deeds-before. Faces come from ``source`` in the order
    the module docstring gives.

    >>> from referee.dice import ScriptedSource
    >>> r = roll_pool(3, Shade.BLACK, False, Artha(fate=True), ScriptedSource([6, 2, 4, 5]))
    >>> r.successes, dict(r.stages)
    (3, {'pool': (6, 2, 4), 'fate': (5,)})
    """
    return spend_after(roll_before(dice, shade, open_ended, source), artha, source)


def roll_before(dice: int, shade: int, open_ended: bool, source: DiceSource) -> PoolRoll:
    """Roll the pool alone, before any after-the-roll artha."""
    successes, failed, sixes, faces = _roll(dice, shade, open_ended, source)
    return PoolRoll(dice, shade, open_ended, successes, {"pool": faces}, failed, sixes)


def spend_after(rolled: PoolRoll, artha: Artha, source: DiceSource) -> PoolRoll:
    """Apply Fate and Deeds after the roll to a pool rolled by :func:`roll_before`.

    >>> from referee.dice import ScriptedSource
    >>> first = roll_before(2, Shade.BLACK, False, ScriptedSource([6, 1]))
    >>> again = spend_after(first, Artha(deeds_after=True), ScriptedSource([4]))
    >>> again.successes, dict(again.stages)
    (2, {'pool': (6, 1), 'deeds': (4,)})
    """
    if "fate" in rolled.stages or "deeds" in rolled.stages:
        raise RuleError("Artha", "after-the-roll artha is spent once on a test")
    shade, open_ended = rolled.shade, rolled.open_ended
    stages: dict[str, tuple[int, ...]] = dict(rolled.stages)
    successes, failed = rolled.successes, rolled.failed
    exploding = open_ended
    if artha.fate and not open_ended:
        exploding = True
        more, more_failed, _, extra = _roll(rolled.sixes, shade, True, source)
        if extra:
            stages["fate"] = extra
        successes += more
        failed += more_failed
    if artha.deeds_after and failed:
        more, failed, _, extra = _roll(failed, shade, exploding, source)
        stages["deeds"] = extra
        successes += more
    if artha.fate and open_ended and failed:
        more, failed_again, _, extra = _roll(1, shade, True, source)
        stages["fate"] = extra
        successes += more
        failed = failed - 1 + failed_again
    return PoolRoll(rolled.dice, shade, open_ended, successes, stages, failed, rolled.sixes)


def artha_buys_nothing(rolled: PoolRoll, *, fate: bool, deeds: bool) -> str | None:
    """Why Fate and Deeds spent after ``rolled`` could change no die, or ``None`` when they
    can (parent-games.md: Fate opens a closed roll's 6s — and, with Deeds, its rerolls — or
    rerolls one failed die of an open-ended one; Deeds rerolls every failed die). A point that
    buys nothing is refused rather than taken (Burning Kingdoms audit B6).

    >>> from referee.dice import ScriptedSource
    >>> no_sixes = roll_before(2, Shade.BLACK, False, ScriptedSource([4, 2]))
    >>> artha_buys_nothing(no_sixes, fate=True, deeds=False)
    "Fate makes the roll's 6s open-ended, and it rolled no 6s"
    >>> artha_buys_nothing(no_sixes, fate=True, deeds=True) is None
    True
    """
    if not fate and not deeds:
        return "spend fate, deeds or both (or keep the roll)"
    if deeds and not rolled.failed:
        return "Deeds rerolls failed dice, and the roll has none"
    if fate and not deeds and not rolled.open_ended and not rolled.sixes:
        return "Fate makes the roll's 6s open-ended, and it rolled no 6s"
    if fate and not deeds and rolled.open_ended and not rolled.failed:
        return "Fate rerolls a failed die of an open-ended roll, and it has none"
    return None


def difficulty(dice: int, obstacle: int) -> str:
    """Routine, Difficult or Challenging (parent-games.md); artha dice are not counted.

    >>> difficulty(4, 2), difficulty(4, 3), difficulty(4, 5)
    ('routine', 'difficult', 'challenging')
    """
    if obstacle > dice:
        return "challenging"
    slack = 1 if dice <= 3 else 2 if dice <= 6 else 3
    return "routine" if obstacle <= dice - slack else "difficult"


# ------------------------------------------------------------------------------ as kernel checks


def _odds_from(dist: Mapping[int, Fraction], beats: int, strict: bool) -> CheckOdds:
    outcomes = {Outcome.SUCCESS: Fraction(0), Outcome.FAILURE: Fraction(0)}
    margins: dict[int, Fraction] = {}
    for k, p in dist.items():
        ok = k > beats if strict else k >= beats
        outcomes[Outcome.SUCCESS if ok else Outcome.FAILURE] += p
        margins[k - beats] = margins.get(k - beats, Fraction(0)) + p
    return CheckOdds(outcomes=outcomes, margins=dict(sorted(margins.items())), successes=dict(dist))


@dataclass(frozen=True)
class BurningTest:
    """An independent Burning Wheel test as a kernel check: ``odds()`` and ``roll()`` from the
    same pool, so the odds shown and the rule applied cannot disagree.

    Without after-the-roll artha it is the kernel's :class:`~referee.core.ObstacleCheck`
    itself; with Fate or Deeds after the roll the odds are :func:`success_distribution`'s.

    >>> test = BurningTest(BurningPool(4), obstacle=2)
    >>> test.odds().success
    Fraction(11, 16)
    >>> from referee.dice import ScriptedSource
    >>> test.roll(ScriptedSource([4, 1, 5, 2])).outcome
    <Outcome.SUCCESS: 'success'>
    """

    pool: BurningPool
    obstacle: int
    artha: Artha = NO_ARTHA

    @property
    def dice(self) -> int:
        """Dice rolled (Persona and Deeds-before counted)."""
        return self.pool.dice_with(self.artha)

    @property
    def kernel(self) -> ObstacleCheck | None:
        """The kernel check this is, when no artha is spent after the roll."""
        if self.artha.fate or self.artha.deeds_after:
            return None
        return ObstacleCheck(self.dice, self.obstacle, int(self.pool.shade), self.pool.open_ended)

    def odds(self) -> CheckOdds:
        """Exact odds of passing (successes ≥ Ob), of each margin and number of successes."""
        kernel = self.kernel
        if kernel is not None:
            return kernel.odds()
        dist = success_distribution(
            self.dice,
            self.pool.shade,
            self.pool.open_ended,
            self.artha,
            cap=max(CAP, self.obstacle),
        )
        return _odds_from(dist, self.obstacle, strict=False)

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll the pool, apply the artha after the roll, and count against the Ob."""
        rolled = roll_pool(self.dice, self.pool.shade, self.pool.open_ended, self.artha, source)
        ok = rolled.successes >= self.obstacle
        return CheckResult(
            outcome=Outcome.SUCCESS if ok else Outcome.FAILURE,
            value=rolled.successes,
            margin=rolled.successes - self.obstacle,
            faces=rolled.faces,
        )


@dataclass(frozen=True)
class BurningVersus:
    """A versus test as a kernel check: the attacker must beat the defender's successes (the
    defender wins ties). Without after-the-roll artha it is the kernel's
    :class:`~referee.core.OpposedCheck` with :attr:`~referee.core.TieRule.OPPONENT_WINS`.

    >>> BurningVersus(BurningPool(1), BurningPool(1)).odds().success
    Fraction(1, 4)
    """

    attacker: BurningPool
    defender: BurningPool
    attacker_artha: Artha = NO_ARTHA
    defender_artha: Artha = NO_ARTHA

    @property
    def kernel(self) -> OpposedCheck | None:
        """The kernel check this is, when no artha is spent after either roll."""
        if any(a.fate or a.deeds_after for a in (self.attacker_artha, self.defender_artha)):
            return None
        mine = Pool(
            self.attacker.dice_with(self.attacker_artha),
            int(self.attacker.shade),
            self.attacker.open_ended,
        )
        theirs = Pool(
            self.defender.dice_with(self.defender_artha),
            int(self.defender.shade),
            self.defender.open_ended,
        )
        return OpposedCheck(mine, theirs, TieRule.OPPONENT_WINS)

    def odds(self) -> CheckOdds:
        """Exact odds of the attacker winning, and of each margin."""
        kernel = self.kernel
        if kernel is not None:
            return kernel.odds()
        a, d = self.attacker, self.defender
        mine = success_distribution(
            a.dice_with(self.attacker_artha), a.shade, a.open_ended, self.attacker_artha
        )
        theirs = success_distribution(
            d.dice_with(self.defender_artha), d.shade, d.open_ended, self.defender_artha
        )
        outcomes = {Outcome.SUCCESS: Fraction(0), Outcome.FAILURE: Fraction(0)}
        margins: dict[int, Fraction] = {}
        for x, p in mine.items():
            for y, q in theirs.items():
                outcomes[Outcome.SUCCESS if x > y else Outcome.FAILURE] += p * q
                margins[x - y] = margins.get(x - y, Fraction(0)) + p * q
        return CheckOdds(outcomes=outcomes, margins=dict(sorted(margins.items())), successes=mine)

    def roll(self, source: DiceSource) -> CheckResult:
        """Roll the attacker's pool, then the defender's."""
        a = roll_pool(
            self.attacker.dice_with(self.attacker_artha),
            self.attacker.shade,
            self.attacker.open_ended,
            self.attacker_artha,
            source,
        )
        d = roll_pool(
            self.defender.dice_with(self.defender_artha),
            self.defender.shade,
            self.defender.open_ended,
            self.defender_artha,
            source,
        )
        ok = a.successes > d.successes
        return CheckResult(
            outcome=Outcome.SUCCESS if ok else Outcome.FAILURE,
            value=a.successes,
            margin=a.successes - d.successes,
            faces=a.faces + d.faces,
            opponent_value=d.successes,
        )
