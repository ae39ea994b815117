"""Append-only storage shared between versions of a sequence: what the log and the actions use.

A version is its storage and its length. Appending to the newest version extends the storage in
place (amortised O(1)); appending to an older one (a branch, as after an undo, or a benchmark
acting twice from the same table) copies only the index of chunks and the last, partial chunk,
never the whole sequence. Full chunks are never written again, so versions share them.

Why chunks: a branch of a 100,000-event log used to copy a list of 100,000 references, which
Python's garbage collector then walked in every young collection until it was promoted — a cost
that grew with the log. Now a branch copies at most :data:`CHUNK` references and the index.

>>> store = Chunks()
>>> first = store.append(0, "a")
>>> first.append(1, "b").slice(0, 2), first.append(1, "c").slice(0, 2)
(['a', 'b'], ['a', 'c'])
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice
from typing import Generic, TypeVar

__all__ = ["CHUNK", "Chunks"]

T = TypeVar("T")

CHUNK = 512
"""Items per chunk: a branch copies at most this many references, plus the index."""


class Chunks(Generic[T]):
    """The storage of an append-only sequence, in chunks of :data:`CHUNK` items."""

    __slots__ = ("_chunks", "_length")

    def __init__(self, items: list[T] | None = None) -> None:
        items = items or []
        self._chunks: list[list[T]] = [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]
        self._length = len(items)

    def append(self, size: int, *items: T) -> Chunks[T]:
        """The storage holding the first ``size`` items of this one, then ``items``: this one,
        extended in place, when ``size`` is its length; otherwise a branch."""
        store = self if size == self._length else self._branch(size)
        chunks = store._chunks
        for item in items:
            if not chunks or len(chunks[-1]) == CHUNK:
                chunks.append([item])
            else:
                chunks[-1].append(item)
        store._length += len(items)
        return store

    def _branch(self, size: int) -> Chunks[T]:
        full, part = divmod(size, CHUNK)
        store: Chunks[T] = Chunks.__new__(Chunks)
        store._chunks = self._chunks[:full]  # full chunks are never written again: shared
        if part:
            store._chunks.append(self._chunks[full][:part])
        store._length = size
        return store

    def get(self, index: int) -> T:
        """The item at ``index`` (0 ≤ index < a version's size: the caller checks)."""
        return self._chunks[index // CHUNK][index % CHUNK]

    def iterate(self, size: int) -> Iterator[T]:
        """The first ``size`` items, in order."""
        return islice(chain.from_iterable(self._chunks), size)

    def slice(self, start: int, stop: int) -> list[T]:
        """The items from ``start`` to ``stop`` (0 ≤ start, stop ≤ a version's size)."""
        if start >= stop:
            return []
        first, offset = divmod(start, CHUNK)
        chunks = self._chunks
        if first == (stop - 1) // CHUNK:
            return chunks[first][offset : stop - first * CHUNK]
        out = chunks[first][offset:]
        last = (stop - 1) // CHUNK
        for i in range(first + 1, last):
            out.extend(chunks[i])
        out.extend(chunks[last][: stop - last * CHUNK])
        return out
