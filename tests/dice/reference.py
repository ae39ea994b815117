"""A brute-force reference for exact odds: run the roller itself over every sequence of faces.

Independent of :mod:`referee.dice.probability` (which works on states of kept faces and on
icepool), so agreeing with it checks both the odds and that the odds mean what the roller does.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from referee.dice import parse
from referee.dice.errors import NotationError
from referee.dice.rolling import Roller, final_total


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Replay:
    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.faces):
            raise _NeedDie(sides)
        self.used += 1
        return self.faces[self.used - 1]


def brute_force(
    expression: str, prune_below: Fraction = Fraction(1, 10**7), max_runs: int = 400_000
) -> tuple[dict[object, Fraction], Fraction]:
    """Every total of ``expression`` with its probability, and the probability pruned.

    The distribution returned is renormalised over what was not pruned, as ``odds`` does.
    """
    root = parse(expression).root
    weights: dict[object, Fraction] = defaultdict(Fraction)
    pruned = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    runs = 0
    while stack:
        prefix, p = stack.pop()
        runs += 1
        assert runs <= max_runs, f"{expression}: too many runs for brute force"
        try:
            total = final_total(Roller(_Replay(prefix)).roll(root).value)
        except _NeedDie as need:
            if p < prune_below:
                pruned += p
                continue
            stack.extend(((*prefix, f), p / need.sides) for f in range(1, need.sides + 1))
            continue
        except NotationError as error:
            if "dice rolled" in error.reason:
                pruned += p
                continue
            raise
        weights[total] += p
    kept = 1 - pruned
    return {o: weights[o] / kept for o in sorted(weights)}, pruned  # type: ignore[type-var]
