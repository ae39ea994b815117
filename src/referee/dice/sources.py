"""Dice sources: where every die Referee rolls comes from (DESIGN.md, "Dice sources").

Nothing else in Referee calls :mod:`random`. A source answers one question, ``roll(sides)``:
a face from 1 to ``sides``.

>>> ScriptedSource([3, 5]).roll(6)
3
>>> RandomSource(seed=7).roll(6) == RandomSource(seed=7).roll(6)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from referee.dice.errors import DiceSourceError


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die of ``sides`` faces, numbered 1 to ``sides``."""

    def roll(self, sides: int) -> int:
        """Return a face from 1 to ``sides``."""
        ...


class RandomSource:
    """Random faces: the operating system's CSPRNG, or a seeded generator when ``seed`` is given.

    >>> faces = [RandomSource(seed=1).roll(20) for _ in range(3)]
    >>> all(1 <= f <= 20 for f in faces)
    True
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random: random.Random = random.SystemRandom() if seed is None else random.Random(seed)

    def roll(self, sides: int) -> int:
        """Return a uniformly random face from 1 to ``sides``."""
        return int(self._random.random() * sides) + 1 if sides > 0 else 0

    def __repr__(self) -> str:
        return f"RandomSource(seed={self.seed!r})"


class ScriptedSource:
    """Faces given in advance, handed out in order; for tests, scenarios and replays.

    It fails loudly when the script runs out or a face cannot come up on the die asked for.

    >>> source = ScriptedSource([6, 1])
    >>> source.roll(6), source.roll(6)
    (6, 1)
    >>> source.roll(6)
    Traceback (most recent call last):
    ...
    referee.dice.errors.DiceSourceError: the dice script ran out after 2 faces (a d6 was asked for)
    """

    __slots__ = ("_faces", "_used")

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = tuple(faces)
        self._used = 0

    @property
    def used(self) -> int:
        """How many faces have been handed out."""
        return self._used

    @property
    def remaining(self) -> tuple[int, ...]:
        """The faces not yet handed out."""
        return self._faces[self._used :]

    def roll(self, sides: int) -> int:
        """Return the next scripted face, checking it can come up on a die of ``sides`` faces."""
        if self._used >= len(self._faces):
            raise DiceSourceError(
                f"the dice script ran out after {len(self._faces)} faces (a d{sides} was asked for)"
            )
        face = self._faces[self._used]
        if not 1 <= face <= sides:
            raise DiceSourceError(
                f"scripted face {face} (number {self._used + 1} in the script) "
                f"cannot come up on a d{sides}"
            )
        self._used += 1
        return face

    def __repr__(self) -> str:
        return f"ScriptedSource({list(self._faces)!r})"
