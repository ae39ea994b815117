"""Random words become faces without bias, and the default source is the OS's CSPRNG."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from referee.dice import RandomSource, roll
from referee.dice.errors import DiceSourceError
from referee.dice.sources import WORD_BITS, SystemSource, face_of

#: Every die size Referee uses, and a large one.
SIZES = [2, 3, 4, 6, 8, 10, 12, 20, 100, 10_000]
LARGE = 1_000_003


def preimages(sides: int, bits: int) -> np.ndarray:
    """How many of the ``2**bits`` words give each face (index 0: rejected words)."""
    words = np.arange(1 << bits, dtype=np.int64)
    return np.bincount(face_of(words, sides, bits), minlength=sides + 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("sides", SIZES)
@pytest.mark.parametrize("bits", [16, 20])
def test_every_face_has_exactly_as_many_words(sides: int, bits: int) -> None:
    counts = preimages(sides, bits)
    faces = counts[1:]
    assert (faces == faces[0]).all(), f"d{sides}: {sorted(set(faces.tolist()))}"
    assert counts[0] == (1 << bits) % sides  # only the leftover words are rejected
    assert faces[0] == (1 << bits) // sides


def test_a_large_die_too() -> None:
    counts = preimages(LARGE, 24)
    assert (counts[1:] == counts[1]).all()
    assert counts[0] == (1 << 24) % LARGE


@pytest.mark.parametrize("sides", SIZES)
def test_at_full_width_the_accepted_words_divide_evenly(sides: int) -> None:
    # 2**64 words cannot be enumerated. The rejected ones are the top 2**64 % sides; the
    # accepted ones, 0 .. limit - 1, give face f for f - 1, f - 1 + sides, ...: as many for
    # every face when limit is a multiple of sides.
    span = 1 << WORD_BITS
    top = range(max(0, span - 2 * sides), span)
    rejected = [w for w in top if face_of(w, sides) == 0]
    limit = span - len(rejected)
    assert rejected == list(range(limit, span))
    assert limit % sides == 0
    assert [face_of(w, sides) for w in (0, sides - 1, limit - sides, limit - 1)] == [
        1,
        sides,
        1,
        sides,
    ]


def test_plain_modulo_would_fail_the_check() -> None:
    # the check is not vacuous: the biased mapping word % sides + 1 does not pass it
    words = np.arange(1 << 16, dtype=np.int64)
    biased = np.bincount(words % 6 + 1, minlength=7)[1:]
    assert not (biased == biased[0]).all()


def test_system_source_faces_are_uniform() -> None:
    source = SystemSource()
    counts = Counter(source.roll(6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chisquare([counts[f] for f in range(1, 7)]).pvalue > 1e-6


def test_system_source_refuses_a_die_without_sides() -> None:
    with pytest.raises(DiceSourceError):
        SystemSource().roll(0)


def test_rolling_without_a_source_draws_from_the_buffered_stream() -> None:
    from referee.dice import sources

    sources._WORDS[:] = [9, 4]  # the next words, last first
    try:
        assert roll("2d6").faces == (5, 4)  # 4 % 6 + 1, then 9 % 6 + 1
        assert sources._WORDS == []
        assert RandomSource().roll(6) in range(1, 7)  # an empty buffer is refilled
        assert len(sources._WORDS) == sources.BUFFER_BYTES // 8 - 1
    finally:
        sources._WORDS.clear()


def test_a_seeded_source_still_repeats() -> None:
    assert roll("10d6", RandomSource(7)).faces == roll("10d6", RandomSource(7)).faces


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_never_reuses_its_parents_words() -> None:
    source = SystemSource()
    source.roll(6)  # the buffer is filled before the fork
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        os.write(write, bytes(source.roll(256) - 1 for _ in range(64)))
        os._exit(0)
    os.close(write)
    child = b""
    while chunk := os.read(read, 1024):
        child += chunk
    os.close(read)
    os.waitpid(pid, 0)
    parent = bytes(source.roll(256) - 1 for _ in range(64))
    assert len(child) == 64 and child != parent
