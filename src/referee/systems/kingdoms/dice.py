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

Odds are exact: :func:`success_distribution` convolves exact per-die distributions of
``min(successes, cap)``; the top bucket ``cap`` holds exactly the probability of ``cap`` or more.

>>> pool = BurningPool(exponent=4)
>>> pool.dice
4
>>> obstacle_odds(pool, Artha(), obstacle=2)
Fraction(11, 16)
>>> obstacle_odds(pool, Artha(fate=True), obstacle=5)
Fraction(55, 768)
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.core import (
    BLACK,
    GREY,
    WHITE,
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

__all__ = [
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

CAP = 60
"""Successes are counted up to this many for odds: ``P(cap)`` is the chance of ``cap`` or more."""

MAX_PERSONA = 3
"""Persona points per test (parent-games.md: "at most 1 Fate, 3 Persona, 2 Deeds")."""
MAX_FATE = 1
"""Fate points per test."""
MAX_DEEDS = 2
"""Deeds points per test: one before the roll, one after."""


class Shade(enum.IntEnum):
    """A shade: the least face that counts as a success (parent-games.md)."""

    BLACK = BLACK
    GREY = GREY
    WHITE = WHITE

    @classmethod
    def parse(cls, text: str) -> Shade:
        """``"B"``/``"black"``, ``"G"``/``"grey"``, ``"W"``/``"white"``.

        >>> Shade.parse("G")
        <Shade.GREY: 3>
        """
        key = text.strip().upper()
        for shade in cls:
            if key in (shade.name, shade.name[0]):
                return shade
        raise RuleError("Shades", f"{text!r} is not a shade (B, G or W)")

    @property
    def letter(self) -> str:
        """``B``, ``G`` or ``W``."""
        return self.name[0]


WOUND_DICE: Mapping[str, int] = {
    "superficial": 0,
    "light": 1,
    "midi": 2,
    "severe": 3,
    "traumatic": 4,
}
"""Dice each wound costs (parent-games.md); a Superficial wound costs +1 Ob instead."""

WOUND_HEALTH_OB: Mapping[str, int] = {
    "superficial": 1,
    "light": 2,
    "midi": 3,
    "severe": 4,
    "traumatic": 5,
}
"""The Health test obstacle to recover from each wound (parent-games.md)."""


def fork_dice(exponent: int) -> int:
    """Dice one FoRK adds: +1D, or +2D if the FoRKed skill's exponent is 7 or more.

    >>> fork_dice(6), fork_dice(7)
    (1, 2)
    """
    return 2 if exponent >= 7 else 1


def help_dice(exponent: int) -> int:
    """Dice one helper adds: +1D with exponent 4 or less, +2D with 5 or more.

    >>> help_dice(4), help_dice(5)
    (1, 2)
    """
    return 2 if exponent >= 5 else 1


@dataclass(frozen=True)
class Artha:
    """The artha spent on one test: Persona and Deeds before the roll, Fate and Deeds after.

    >>> Artha(persona=2, deeds_before=True).spent()
    {'fate': 0, 'persona': 2, 'deeds': 1}
    >>> Artha(persona=4)
    Traceback (most recent call last):
    ...
    referee.core.errors.RuleError: Artha: at most 3 Persona on one test, not 4
    """

    persona: int = 0
    deeds_before: bool = False
    fate: bool = False
    deeds_after: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.persona <= MAX_PERSONA:
            raise RuleError(
                "Artha", f"at most {MAX_PERSONA} Persona on one test, not {self.persona}"
            )

    def spent(self) -> dict[str, int]:
        """Points of each kind this spends."""
        return {
            "fate": int(self.fate),
            "persona": self.persona,
            "deeds": int(self.deeds_before) + int(self.deeds_after),
        }

    def label(self) -> str:
        """A short name for a person: ``"no artha"``, ``"2 Persona + Fate"``."""
        parts = []
        if self.persona:
            parts.append(f"{self.persona} Persona")
        if self.deeds_before:
            parts.append("Deeds (double)")
        if self.fate:
            parts.append("Fate")
        if self.deeds_after:
            parts.append("Deeds (reroll)")
        return " + ".join(parts) or "no artha"

    def to_json(self) -> dict[str, Any]:
        """``{"persona", "deeds_before", "fate", "deeds_after"}``."""
        return {
            "persona": self.persona,
            "deeds_before": self.deeds_before,
            "fate": self.fate,
            "deeds_after": self.deeds_after,
        }


@dataclass(frozen=True)
class BurningPool:
    """What goes into a test's dice before the roll.

    ``exponent`` is the ability's; ``forks`` and ``helping`` are dice already counted (see
    :func:`fork_dice`, :func:`help_dice`); ``bonus`` other dice the rules add (Onslaught +3D,
    an Infiltrate's advantage); ``penalty`` dice taken away (wounds, Sapped dice).
    ``open_ended`` for abilities open-ended by nature.

    >>> BurningPool(exponent=5, forks=1, helping=2, penalty=2).dice
    6
    >>> BurningPool(exponent=5, forks=1).dice_with(Artha(persona=1, deeds_before=True))
    12
    """

    exponent: int
    shade: Shade = Shade.BLACK
    forks: int = 0
    helping: int = 0
    bonus: int = 0
    penalty: int = 0
    open_ended: bool = False

    @property
    def dice(self) -> int:
        """Dice rolled without artha (never fewer than 0)."""
        return self.dice_with(Artha())

    def dice_with(self, artha: Artha) -> int:
        """Dice rolled with ``artha``: Deeds doubles the exponent, Persona adds 1D each."""
        base = self.exponent * (2 if artha.deeds_before else 1)
        total = base + self.forks + self.helping + self.bonus + artha.persona - self.penalty
        return max(0, total)

    def to_json(self) -> dict[str, Any]:
        """Every field, the shade as its letter."""
        return {
            "exponent": self.exponent,
            "shade": self.shade.letter,
            "forks": self.forks,
            "helping": self.helping,
            "bonus": self.bonus,
            "penalty": self.penalty,
            "open_ended": self.open_ended,
        }


# ------------------------------------------------------------------------------ exact odds

Dist = dict[int, Fraction]
# A per-die distribution with a flag: (successes capped, a failed die remains) -> probability.
FlagDist = dict[tuple[int, bool], Fraction]


def _chain(shade: int, cap: int) -> FlagDist:
    """One open-ended die: successes (capped) and whether its last face failed, exactly."""
    six = Fraction(1, 6)
    hit = Fraction(6 - shade, 6)  # success faces other than 6
    miss = Fraction(shade - 1, 6)
    out: FlagDist = {}
    for sixes in range(cap):
        lead = six**sixes
        # ends on a failure after `sixes` sixes
        out[(sixes, True)] = out.get((sixes, True), Fraction(0)) + lead * miss
        # ends on a success that is not a 6
        if sixes + 1 < cap:
            out[(sixes + 1, False)] = out.get((sixes + 1, False), Fraction(0)) + lead * hit
    # the rest scores `cap` or more: cap-1 sixes then a success, or cap sixes and then a chain
    # that ends on a failure or a success in the ratio of those faces.
    after = six**cap
    ratio = miss + hit
    out[(cap, False)] = (
        out.get((cap, False), Fraction(0)) + six ** (cap - 1) * hit + after * hit / ratio
    )
    out[(cap, True)] = out.get((cap, True), Fraction(0)) + after * miss / ratio
    return {k: v for k, v in out.items() if v}


def _plain(shade: int) -> FlagDist:
    """One die that is not open-ended."""
    return {(1, False): Fraction(7 - shade, 6), (0, True): Fraction(shade - 1, 6)}


def _flatten(dist: FlagDist, cap: int) -> Dist:
    out: Dist = {}
    for (k, _), p in dist.items():
        key = min(k, cap)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def _die(shade: int, open_ended: bool, deeds_after: bool, cap: int) -> FlagDist:
    """One die of the pool after Fate-on-a-closed-test and Deeds: successes and a failed flag."""
    first = _chain(shade, cap) if open_ended else _plain(shade)
    if not deeds_after:
        return first
    reroll = _chain(shade, cap) if open_ended else _plain(shade)
    out: FlagDist = {}
    for (k, failed), p in first.items():
        if not failed:
            out[(k, False)] = out.get((k, False), Fraction(0)) + p
            continue
        for (j, again), q in reroll.items():
            key = (min(k + j, cap), again)
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


def success_distribution(
    dice: int, shade: int, open_ended: bool, artha: Artha = Artha(), cap: int = CAP
) -> Dist:
    """Exact distribution of ``min(successes, cap)`` for ``dice`` d6 after the roll's artha.

    ``dice`` already includes Persona and Deeds-before dice; this applies Fate and Deeds after
    (see the module docstring for their order).

    >>> success_distribution(2, BLACK, False)
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    >>> success_distribution(1, BLACK, False, Artha(deeds_after=True))
    {0: Fraction(1, 4), 1: Fraction(3, 4)}
    """
    return dict(_success_distribution(dice, shade, open_ended, artha, cap))


@functools.cache
def _success_distribution(
    dice: int, shade: int, open_ended: bool, artha: Artha, cap: int
) -> tuple[tuple[int, Fraction], ...]:
    """:func:`success_distribution`, memoised (pools repeat: every reveal asks again)."""
    if dice <= 0:
        return ((0, Fraction(1)),)
    exploding = open_ended or artha.fate
    per_die = _die(shade, exploding, artha.deeds_after, cap)
    fate_reroll = open_ended and artha.fate
    # convolve with the "a failed die remains" flag, in whole numbers over a common
    # denominator (far faster than fractions; exactly the same result)
    scale = math.lcm(*(q.denominator for q in per_die.values()))
    weights = {key: q.numerator * (scale // q.denominator) for key, q in per_die.items()}
    counts: dict[tuple[int, bool], int] = {(0, False): 1}
    for _ in range(dice):
        nxt: dict[tuple[int, bool], int] = {}
        for (k, f), p in counts.items():
            for (j, g), q in weights.items():
                key = (min(k + j, cap), f or g)
                nxt[key] = nxt.get(key, 0) + p * q
        counts = nxt
    whole = scale**dice
    total: FlagDist = {key: Fraction(n, whole) for key, n in counts.items()}
    if not fate_reroll:
        return tuple(sorted(_flatten(total, cap).items()))
    reroll = _flatten(_chain(shade, cap), cap)
    out: Dist = {}
    for (k, failed), chance in total.items():
        if failed:
            for j, again in reroll.items():
                key_ = min(k + j, cap)
                out[key_] = out.get(key_, Fraction(0)) + chance * again
        else:
            out[k] = out.get(k, Fraction(0)) + chance
    return tuple(sorted(out.items()))


def obstacle_odds(pool: BurningPool, artha: Artha, obstacle: int) -> Fraction:
    """Exact chance that ``pool`` with ``artha`` passes ``obstacle`` (successes ≥ Ob).

    Exact with no truncation: the count is capped at the obstacle.

    >>> obstacle_odds(BurningPool(3, Shade.GREY), Artha(), 1)
    Fraction(26, 27)
    """
    if obstacle <= 0:
        return Fraction(1)
    dist = success_distribution(
        pool.dice_with(artha), pool.shade, pool.open_ended, artha, cap=obstacle
    )
    return dist.get(obstacle, Fraction(0))


def versus_odds(
    attacker: BurningPool,
    defender: BurningPool,
    attacker_artha: Artha = Artha(),
    defender_artha: Artha = Artha(),
    cap: int = CAP,
) -> Fraction:
    """Chance that ``attacker`` beats ``defender`` in a versus test (the defender wins ties).

    Exact for closed pools; for open-ended pools both counts are capped at ``cap`` (60), where
    equal capped counts go to the defender — a difference below 6⁻⁵⁰.

    >>> versus_odds(BurningPool(1), BurningPool(1))
    Fraction(1, 4)
    """
    mine = success_distribution(
        attacker.dice_with(attacker_artha), attacker.shade, attacker.open_ended, attacker_artha, cap
    )
    theirs = success_distribution(
        defender.dice_with(defender_artha), defender.shade, defender.open_ended, defender_artha, cap
    )
    return sum((p * q for a, p in mine.items() for b, q in theirs.items() if a > b), Fraction(0))


def artha_choices(pool: BurningPool, available: Mapping[str, int] | None = None) -> list[Artha]:
    """Every way to spend artha on one test that ``available`` (fate, persona, deeds) allows.

    >>> [a.label() for a in artha_choices(BurningPool(3), {"fate": 1, "persona": 1, "deeds": 0})]
    ['no artha', 'Fate', '1 Persona', '1 Persona + Fate']
    """
    have = dict(available) if available is not None else {"fate": 1, "persona": 3, "deeds": 2}
    out: list[Artha] = []
    for persona in range(min(MAX_PERSONA, have.get("persona", 0)) + 1):
        for deeds_before in (False, True):
            for deeds_after in (False, True):
                deeds = int(deeds_before) + int(deeds_after)
                if deeds > min(MAX_DEEDS, have.get("deeds", 0)):
                    continue
                for fate in (False, True):
                    if fate and have.get("fate", 0) < 1:
                        continue
                    out.append(Artha(persona, deeds_before, fate, deeds_after))
    return out


# ------------------------------------------------------------------------------ rolling


@dataclass(frozen=True)
class PoolRoll:
    """A rolled test: every face in the order the source gave it, stage by stage, and successes.

    ``stages`` maps ``"pool"``, ``"fate"``, ``"deeds"`` to the faces each rolled (explosions
    included); ``successes`` the total after all of them.
    """

    dice: int
    shade: int
    open_ended: bool
    successes: int
    stages: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    failed: int = 0
    sixes: int = 0

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, in order."""
        return tuple(f for stage in self.stages.values() for f in stage)

    def to_json(self) -> dict[str, Any]:
        """``{"dice", "shade", "open_ended", "successes", "stages"}``."""
        return {
            "dice": self.dice,
            "shade": Shade(self.shade).letter,
            "open_ended": self.open_ended,
            "successes": self.successes,
            "stages": {k: list(v) for k, v in self.stages.items()},
        }


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
    >>> r = roll_pool(3, BLACK, False, Artha(fate=True), ScriptedSource([6, 2, 4, 5]))
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
    >>> first = roll_before(2, BLACK, False, ScriptedSource([6, 1]))
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


def after_distribution(rolled: PoolRoll, artha: Artha, cap: int = CAP) -> Dist:
    """Exact distribution of the successes ``rolled`` ends with once the after-the-roll artha
    in ``artha`` is spent on it, step by step as :func:`spend_after` rolls it (the faces
    already showing stay): a closed roll's Fate opens its 6s, then Deeds rerolls every die
    still failed (open-ended once Fate is spent); an open-ended roll's Deeds rerolls its failed
    dice, then Fate rerolls one die still failed. Extra successes are counted up to ``cap``.

    >>> from referee.dice import ScriptedSource
    >>> rolled = roll_before(2, BLACK, False, ScriptedSource([6, 1]))
    >>> after_distribution(rolled, Artha(deeds_after=True))
    {1: Fraction(1, 2), 2: Fraction(1, 2)}
    >>> after_distribution(rolled, Artha())
    {1: Fraction(1, 1)}
    """
    base, shade = rolled.successes, rolled.shade
    if not artha.fate and not artha.deeds_after:
        return {base: Fraction(1)}
    if rolled.open_ended:
        if artha.deeds_after:
            more = success_distribution(rolled.failed, shade, True, Artha(fate=artha.fate), cap)
        else:
            more = success_distribution(1 if rolled.failed else 0, shade, True, cap=cap)
    elif not artha.fate:
        more = success_distribution(rolled.failed, shade, False, cap=cap)
    elif not artha.deeds_after:
        more = success_distribution(rolled.sixes, shade, True, cap=cap)
    else:
        # Fate: each 6 is an open-ended die (successes, and whether it ended on a failure);
        # then Deeds rerolls the roll's failed dice and those, open-ended
        fate: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
        chain = _chain(shade, cap)
        for _ in range(rolled.sixes):
            step: dict[tuple[int, int], Fraction] = {}
            for (k, m), p in fate.items():
                for (j, failed), q in chain.items():
                    key = (min(k + j, cap), m + int(failed))
                    step[key] = step.get(key, Fraction(0)) + p * q
            fate = step
        more = {}
        for (k, m), p in fate.items():
            for j, q in success_distribution(rolled.failed + m, shade, True, cap=cap).items():
                count = min(k + j, cap)
                more[count] = more.get(count, Fraction(0)) + p * q
    return {base + k: p for k, p in sorted(more.items()) if p}


def artha_buys_nothing(rolled: PoolRoll, *, fate: bool, deeds: bool) -> str | None:
    """Why Fate and Deeds spent after ``rolled`` could change no die, or ``None`` when they
    can (parent-games.md: Fate opens a closed roll's 6s — and, with Deeds, its rerolls — or
    rerolls one failed die of an open-ended one; Deeds rerolls every failed die). A point that
    buys nothing is refused rather than taken (Burning Kingdoms audit B6).

    >>> from referee.dice import ScriptedSource
    >>> no_sixes = roll_before(2, BLACK, False, ScriptedSource([4, 2]))
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
    artha: Artha = Artha()

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
    attacker_artha: Artha = Artha()
    defender_artha: Artha = Artha()

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
