"""A stored table's own dice: derived from the seeds it committed at the start
(:func:`referee.core.fairness.fair_dice`), so every face can be checked once the seed is revealed;
random for a table stored without seeds (an imported record). docs/fairness.md.
"""

from __future__ import annotations

from typing import Any

from referee.core.fairness import DiceSeeds, fair_dice, is_fair
from referee.core.table import Table
from referee.dice import DiceSource, RandomSource

__all__ = ["TableDice"]


class TableDice:
    """The table's own dice, worked out at the first die asked for (an action that rolls
    nothing costs nothing): derived from its committed seeds, or random without them."""

    __slots__ = ("_seeds", "_source", "_table")

    def __init__(self, table: Table[Any], seeds: DiceSeeds | None) -> None:
        self._table = table
        self._seeds = seeds
        self._source: DiceSource | None = None

    def roll(self, sides: int) -> int:
        if self._source is None:
            fair = self._seeds is not None and is_fair(self._table)
            self._source = (
                fair_dice(self._table, self._seeds) if fair and self._seeds else RandomSource()
            )
        return self._source.roll(sides)
