"""Tagging, option b: which dice a tag re-rolls, and the sums that follow, exactly.

Gin Lane, "Rolling the Dice" and RULINGS.md: with
:attr:`~referee.systems.ginlane.rolls.TagMode.REROLL` each tag re-rolls one or both dice after
the roll. The player re-rolls only while the roll falls short, and picks the re-roll that
gives the best chance (:func:`reroll_policy`); with no number to beat, each tag re-rolls every
die showing 3 or less (:func:`untargeted_reroll`).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import TypeAlias

__all__ = ["FACES", "final_sums", "reroll_policy", "untargeted_reroll"]

FACES = range(1, 7)
"""The faces of a d6."""

_WHICH_DICE: tuple[tuple[int, ...], ...] = ((0,), (1,), (0, 1))
"""What one tag may re-roll: the first die, the second, or both."""


def _value(total: int, need: int, strict: bool) -> tuple[int, int]:
    """How good a final dice sum is: (reaches the goal, reaches the fallback)."""
    if strict:  # beat ``need``; a Match is the fallback
        return (int(total > need), int(total >= need))
    return (int(total >= need), int(total > need))  # not be beaten; beating is the fallback


_Plan: TypeAlias = tuple[
    tuple[int, ...] | None, tuple[Fraction, Fraction], tuple[tuple[int, Fraction], ...]
]


@functools.cache
def _plan(a: int, b: int, tags: int, need: int, strict: bool) -> _Plan:
    """The best move from dice (a, b) with ``tags`` left: (re-roll which or None, value, dist)."""
    here = _value(a + b, need, strict)
    stop: _Plan = (None, (Fraction(here[0]), Fraction(here[1])), ((a + b, Fraction(1)),))
    if tags == 0 or here[0] == 1:
        return stop
    best: _Plan = stop
    for which in _WHICH_DICE:
        value = [Fraction(0), Fraction(0)]
        dist: dict[int, Fraction] = {}
        outcomes = itertools.product(FACES, repeat=len(which))
        weight = Fraction(1, 6 ** len(which))
        for new in outcomes:
            dice = [a, b]
            for i, face in zip(which, new, strict=True):
                dice[i] = face
            _, v, d = _plan(dice[0], dice[1], tags - 1, need, strict)
            value[0] += weight * v[0]
            value[1] += weight * v[1]
            for s, p in d:
                dist[s] = dist.get(s, Fraction(0)) + weight * p
        if (value[0], value[1]) > best[1]:
            best = (which, (value[0], value[1]), tuple(sorted(dist.items())))
    return best


def reroll_policy(
    dice: tuple[int, int], tags: int, need: int, *, strict: bool = True
) -> tuple[int, ...] | None:
    """Option b: which dice to re-roll (indices), or ``None`` to stop.

    The dice must sum to more than ``need`` (``strict``: to beat a difficulty or an opposed
    total) or to at least ``need`` (not ``strict``: a defence that must not be beaten). The
    choice maximises the chance of reaching that, then of the fallback (a Match for an actor,
    beating the attack for a defence). A roll that already reaches the goal stops.

    >>> reroll_policy((6, 1), 1, need=9)   # keep the 6, re-roll the 1
    (1,)
    >>> reroll_policy((5, 5), 2, need=9) is None
    True
    """
    return _plan(dice[0], dice[1], tags, need, strict)[0]


def final_sums(dice: tuple[int, int], tags: int, need: int, strict: bool) -> dict[int, Fraction]:
    """The chance of each final dice sum from ``dice`` re-rolled by :func:`reroll_policy`."""
    return dict(_plan(dice[0], dice[1], tags, need, strict)[2])


@functools.cache
def _untargeted(a: int, b: int, tags: int) -> dict[int, Fraction]:
    low = tuple(i for i, f in enumerate((a, b)) if f <= 3)
    if tags == 0 or not low:
        return {a + b: Fraction(1)}
    dist: dict[int, Fraction] = {}
    weight = Fraction(1, 6 ** len(low))
    for new in itertools.product(FACES, repeat=len(low)):
        dice = [a, b]
        for i, face in zip(low, new, strict=True):
            dice[i] = face
        for s, p in _untargeted(dice[0], dice[1], tags - 1).items():
            dist[s] = dist.get(s, Fraction(0)) + weight * p
    return dist


def untargeted_reroll(dice: tuple[int, int], tags: int) -> dict[int, Fraction]:
    """Option b with no number to beat: each tag re-rolls every die showing 3 or less (Rulings).

    >>> untargeted_reroll((6, 5), 3)
    {11: Fraction(1, 1)}
    """
    return dict(sorted(_untargeted(dice[0], dice[1], tags).items()))
