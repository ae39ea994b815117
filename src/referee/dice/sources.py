"""Dice sources: where every die Referee rolls comes from (DESIGN.md, "Dice sources").

Nothing else in Referee calls :mod:`random`. A source answers one question, ``roll(sides)``:
a face from 1 to ``sides``.

- :class:`SystemSource` (what ``roll(expr)`` uses when no source is given, and
  ``RandomSource()`` without a seed): the operating system's CSPRNG, read 4 KiB at a time.
- ``RandomSource(seed)``: Python's seeded generator, for reproducible runs (not for fairness:
  its faces can be predicted from earlier ones).
- :class:`ScriptedSource`: given faces, in order (tests, scenarios, replays).
- :class:`referee.dice.fairness.DerivedSource`: faces derived from a table's committed seed.

Random words become faces through :func:`face_of`, which rejects the few words that would
make some faces likelier than others (no modulo bias).

>>> ScriptedSource([3, 5]).roll(6)
3
>>> RandomSource(seed=7).roll(6) == RandomSource(seed=7).roll(6)
True
>>> 1 <= SystemSource().roll(20) <= 20
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from referee.dice.errors import DiceSourceError

#: Random words are this many bits wide.
WORD_BITS = 64
#: Bytes read from the operating system at a time by :class:`SystemSource`.
BUFFER_BYTES = 4096


def face_of(word: int, sides: int, bits: int = WORD_BITS) -> int:
    """The face (1 to ``sides``) that a uniformly random ``bits``-bit ``word`` gives, or 0 when
    the word is rejected and another must be drawn.

    Of the ``2**bits`` words, the first ``2**bits - 2**bits % sides`` are accepted, a whole
    number of times ``sides``, so every face has exactly the same number of words; the rest
    (fewer than ``sides``) are rejected. Plain ``word % sides`` would favour the low faces.
    Written without branches, so it maps a NumPy array of words as well as one word.

    >>> face_of(0, 6), face_of(5, 6), face_of(6, 6)
    (1, 6, 1)
    >>> face_of(2**8 - 1, 6, bits=8)  # 256 = 42 * 6 + 4: the last 4 words are rejected
    0
    """
    span = 1 << bits
    return (word % sides + 1) * (word < span - span % sides)


# The words not yet used, shared by every SystemSource of the process. ``list.pop`` is atomic,
# so two threads never receive the same word; a forked child forgets its parent's words.
_WORDS: list[int] = []
_SMALL_DIE = 1 << 32
_SURELY_ACCEPTED = (1 << WORD_BITS) - _SMALL_DIE


def _refill() -> None:
    _WORDS.extend(memoryview(os.urandom(BUFFER_BYTES)).cast("Q").tolist())


os.register_at_fork(after_in_child=_WORDS.clear)


class SystemSource:
    """Unpredictable faces from the operating system's CSPRNG (``os.urandom``), read 4 KiB at
    a time (512 dice per system call), mapped to faces without bias (:func:`face_of`).

    Every instance draws from one buffer per process, so making one is free; a forked child
    process starts with an empty buffer, never its parent's words.

    >>> faces = [SystemSource().roll(6) for _ in range(1000)]
    >>> set(faces) == {1, 2, 3, 4, 5, 6}
    True
    """

    __slots__ = ()

    def roll(self, sides: int) -> int:
        """Return a uniformly random face from 1 to ``sides``."""
        try:
            word = _WORDS.pop()
        except IndexError:
            _refill()
            word = _WORDS.pop()
        # Fast path, the same mapping as face_of: a word below 2**64 - 2**32 is below the
        # rejection limit of every die of up to 2**32 sides.
        if word < _SURELY_ACCEPTED and 0 < sides <= _SMALL_DIE:
            return word % sides + 1
        if sides < 1:
            raise DiceSourceError(f"a die needs at least one side, not {sides}")
        while not (face := face_of(word, sides)):
            try:
                word = _WORDS.pop()
            except IndexError:
                _refill()
                word = _WORDS.pop()
        return face

    def __repr__(self) -> str:
        return "SystemSource()"


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die of ``sides`` faces, numbered 1 to ``sides``."""

    def roll(self, sides: int) -> int:
        """Return a face from 1 to ``sides``."""
        ...


class RandomSource:
    """Random faces: a seeded generator when ``seed`` is given (the same seed gives the same
    faces), otherwise the operating system's CSPRNG through :class:`SystemSource`.

    >>> faces = [RandomSource(seed=1).roll(20) for _ in range(3)]
    >>> all(1 <= f <= 20 for f in faces)
    True
    """

    __slots__ = ("_random", "_system", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed) if seed is not None else None
        self._system = SystemSource()

    def roll(self, sides: int) -> int:
        """Return a uniformly random face from 1 to ``sides``."""
        if self._random is None:
            return self._system.roll(sides)
        # Seeded rolls keep their faces from release to release: scenarios and docs name seeds.
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
