"""Dice notation, rolls that show every die, and exact odds of the same expression.

>>> from referee.dice import roll, odds, ScriptedSource
>>> roll("3d6+2", ScriptedSource([1, 2, 3])).total
8
>>> odds("2d6>=7").probability(True)
Fraction(7, 12)
"""

from referee.dice.errors import DiceSourceError, NotationError, RefereeError
from referee.dice.sources import DiceSource, RandomSource, ScriptedSource

__all__ = [
    "DiceSource",
    "DiceSourceError",
    "NotationError",
    "RandomSource",
    "RefereeError",
    "ScriptedSource",
]
