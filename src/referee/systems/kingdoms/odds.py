"""Exact odds of Burning Wheel tests (parent-games.md, "Burning Wheel"): the distribution of
successes of a pool after the roll's artha, a test against an obstacle, a versus test (the
defender wins ties), and what after-the-roll artha may still make of a roll.

:func:`success_distribution` convolves exact per-die distributions of ``min(successes, cap)``;
the top bucket ``cap`` holds exactly the probability of ``cap`` or more.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from fractions import Fraction

from referee.systems.kingdoms.pools import (
    CAP,
    MAX_DEEDS,
    MAX_PERSONA,
    NO_ARTHA,
    Artha,
    BurningPool,
    PoolRoll,
)

__all__ = [
    "Dist",
    "after_distribution",
    "artha_choices",
    "obstacle_odds",
    "success_distribution",
    "versus_odds",
]


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
    dice: int, shade: int, open_ended: bool, artha: Artha = NO_ARTHA, cap: int = CAP
) -> Dist:
    """Exact distribution of ``min(successes, cap)`` for ``dice`` d6 after the roll's artha.

    ``dice`` already includes Persona and Deeds-before dice; this applies Fate and Deeds after
    (see the module docstring for their order).

    >>> from referee.systems.kingdoms.pools import Shade
    >>> success_distribution(2, Shade.BLACK, False)
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    >>> success_distribution(1, Shade.BLACK, False, Artha(deeds_after=True))
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

    >>> from referee.systems.kingdoms.pools import Shade
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
    attacker_artha: Artha = NO_ARTHA,
    defender_artha: Artha = NO_ARTHA,
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


def after_distribution(rolled: PoolRoll, artha: Artha, cap: int = CAP) -> Dist:
    """Exact distribution of the successes ``rolled`` ends with once the after-the-roll artha
    in ``artha`` is spent on it, step by step as :func:`spend_after` rolls it (the faces
    already showing stay): a closed roll's Fate opens its 6s, then Deeds rerolls every die
    still failed (open-ended once Fate is spent); an open-ended roll's Deeds rerolls its failed
    dice, then Fate rerolls one die still failed. Extra successes are counted up to ``cap``.

    >>> from referee.dice import ScriptedSource
    >>> from referee.systems.kingdoms.dice import Shade, roll_before
    >>> rolled = roll_before(2, Shade.BLACK, False, ScriptedSource([6, 1]))
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
