"""Dice notation, rolls that show every die, and exact odds of the same expression.

>>> from referee.dice import roll, odds, ScriptedSource
>>> roll("3d6+2", ScriptedSource([1, 2, 3])).total
8
>>> odds("(2d6)>=7").probability(True)
Fraction(7, 12)
"""

from referee.dice.errors import DiceSourceError, NotationError, RefereeError
from referee.dice.notation import Expression, parse
from referee.dice.rolling import Roll, RolledDie, roll
from referee.dice.sources import DiceSource, RandomSource, ScriptedSource


def __getattr__(name: str) -> object:
    # ``odds`` pulls in icepool; import it only when asked, so rolling starts fast.
    if name in ("odds", "Odds"):
        from referee.dice import probability as _odds_module

        return getattr(_odds_module, name)
    raise AttributeError(name)


__all__ = [
    "DiceSource",
    "DiceSourceError",
    "Expression",
    "NotationError",
    "Odds",
    "RandomSource",
    "RefereeError",
    "Roll",
    "RolledDie",
    "ScriptedSource",
    "odds",
    "parse",
    "roll",
]
