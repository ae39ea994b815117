"""Dice notation, rolls that show every die, and exact odds of the same expression.

>>> from referee.dice import roll, odds, ScriptedSource
>>> roll("3d6+2", ScriptedSource([1, 2, 3])).total
8
>>> odds("(2d6)>=7").probability(True)
Fraction(7, 12)
"""

from typing import TYPE_CHECKING

from referee.dice.errors import DiceSourceError, FairnessError, NotationError, RefereeError
from referee.dice.notation import Expression, parse
from referee.dice.result import Roll, RolledDie
from referee.dice.rolling import roll
from referee.dice.sources import DiceSource, RandomSource, ScriptedSource, SystemSource

if TYPE_CHECKING:  # imported when used (below); named here for type checkers
    from referee.dice.fairness import DerivedSource
    from referee.dice.probability import Odds, odds


def __getattr__(name: str) -> object:
    # ``odds`` pulls in icepool, and fair play hashing; import them only when asked, so rolling
    # starts fast.
    if name in ("odds", "Odds"):
        from referee.dice import probability as _odds_module

        return getattr(_odds_module, name)
    if name == "DerivedSource":
        from referee.dice import fairness

        return fairness.DerivedSource
    raise AttributeError(name)


__all__ = [
    "DerivedSource",
    "DiceSource",
    "DiceSourceError",
    "Expression",
    "FairnessError",
    "NotationError",
    "Odds",
    "RandomSource",
    "RefereeError",
    "Roll",
    "RolledDie",
    "ScriptedSource",
    "SystemSource",
    "odds",
    "parse",
    "roll",
]
