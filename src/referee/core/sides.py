"""What a check rolls: a :class:`Total` of dice and a modifier, or a :class:`Pool` of d6 counting
successes at a shade (DESIGN.md, "Checks"). One side of an opposed check is either (:data:`Side`).

Both read their dice expression through :mod:`referee.dice`: the odds and the roll of a side
cannot disagree.

>>> Total("2d6", 3).distribution()[10]
Fraction(1, 6)
>>> Pool(2, shade=WHITE).distribution()
{0: Fraction(1, 36), 1: Fraction(5, 18), 2: Fraction(25, 36)}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from referee.dice import DiceSource, Roll, roll

__all__ = ["BLACK", "GREY", "WHITE", "Pool", "Side", "Total", "distribution_of"]

BLACK = 4
"""Burning Wheel's Black shade: a die succeeds on 4–6."""
GREY = 3
"""Grey shade: a die succeeds on 3–6."""
WHITE = 2
"""White shade: a die succeeds on 2–6."""


def distribution_of(expression: str) -> dict[int, Fraction]:
    """Exact distribution of an integer-valued expression, ascending.

    Explosions' chains are followed until they are rarer than 10⁻¹², and the distribution is
    that of the rolls that stop before (renormalised), so it sums to exactly 1.
    """
    from referee.dice.probability import odds  # icepool: imported only when odds are asked

    return {int(k): v for k, v in odds(expression).distribution.items()}


@dataclass(frozen=True)
class Total:
    """A side that rolls dice and adds a modifier: the value is the total.

    ``dice`` is any :mod:`referee.dice` expression with an integer total (``"3d6"``,
    ``"2d6"``, ``"3d6kh2"``); ``modifier`` is added to it (skill, attribute, bonuses).

    >>> Total("2d6", 3).expression
    '2d6+3'
    """

    dice: str
    modifier: int = 0

    @property
    def expression(self) -> str:
        """The dice expression rolled, modifier included."""
        if self.modifier == 0:
            return self.dice
        sign = "+" if self.modifier > 0 else "-"
        return f"{self.dice}{sign}{abs(self.modifier)}"

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each value, ascending."""
        return distribution_of(self.expression)

    def roll(self, source: DiceSource) -> tuple[int, Roll]:
        """Roll it: the value and the roll behind it."""
        rolled = roll(self.expression, source)
        return int(rolled.total), rolled


@dataclass(frozen=True)
class Pool:
    """A pool of d6 counting successes: the value is the number of successes (Burning Wheel).

    ``dice`` is the pool's size; ``shade`` the least face that succeeds (:data:`BLACK` 4,
    :data:`GREY` 3, :data:`WHITE` 2); ``open_ended`` makes every 6 add another die, which can
    chain. An empty pool rolls nothing and scores no successes.

    >>> Pool(6, shade=GREY, open_ended=True).expression
    '6d6!>=3'
    """

    dice: int
    shade: int = BLACK
    open_ended: bool = False

    @property
    def expression(self) -> str:
        """The dice expression rolled (success counting notation)."""
        bang = "!" if self.open_ended else ""
        return f"{self.dice}d6{bang}>={self.shade}"

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each number of successes, ascending.

        Open-ended pools can in principle score without bound; the dice layer follows chains of
        sixes until they are rarer than 10⁻¹² and renormalises, so the distribution sums to 1.
        """
        if self.dice <= 0:
            return {0: Fraction(1)}
        return distribution_of(self.expression)

    def roll(self, source: DiceSource) -> tuple[int, Roll | None]:
        """Roll it: the number of successes and the roll behind it (``None`` for an empty pool)."""
        if self.dice <= 0:
            return 0, None
        rolled = roll(self.expression, source)
        return int(rolled.total), rolled


Side: TypeAlias = Total | Pool
"""One side of an :class:`OpposedCheck`."""
