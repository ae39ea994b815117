"""Append-only storage shared between versions of a sequence: what the log and the actions use.

A version is its storage and its length. Appending to the newest version extends the storage in
place (amortised O(1)); appending to an older one (a branch, as after an undo, or a benchmark
acting twice from the same table) copies only the index of chunks and the last, partial chunk,
never the whole sequence. Full chunks are never written again, so versions share them.

A storage may also begin with chunks not yet read (:meth:`Chunks.paged`): each is fetched the
first time one of its items is read, and kept. This is how a table loaded from a snapshot holds
a log of any age without reading it: the store fetches the old events only if someone reads them.

Why chunks: a branch of a 100,000-event log used to copy a list of 100,000 references, which
Python's garbage collector then walked in every young collection until it was promoted — a cost
that grew with the log. Now a branch copies at most :data:`CHUNK` references and the index.

>>> store = Chunks()
>>> first = store.append(0, "a")
>>> first.append(1, "b").slice(0, 2), first.append(1, "c").slice(0, 2)
(['a', 'b'], ['a', 'c'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import chain, islice
from typing import Any, Generic, TypeVar

__all__ = ["CHUNK", "Chunks", "Fetch"]

T = TypeVar("T")

CHUNK = 512
"""Items per chunk: a branch copies at most this many references, plus the index."""


Fetch = Callable[[int, int], Sequence[T]]
"""``fetch(start, stop)``: the items from ``start`` to ``stop`` of a paged storage."""


class _Page(Generic[T]):
    """A full chunk not read yet: it reads itself, once, the first time it is looked into.
    It stands where the chunk's list would, so reading a storage never asks which it holds."""

    __slots__ = ("_fetch", "_items", "_start")

    def __init__(self, fetch: Fetch[T], start: int) -> None:
        self._fetch = fetch
        self._start = start
        self._items: list[T] | None = None

    def _read(self) -> list[T]:
        if self._items is None:
            items = list(self._fetch(self._start, self._start + CHUNK))
            if len(items) != CHUNK:
                raise ValueError(
                    f"fetched {len(items)} items from {self._start}, not the chunk's {CHUNK}"
                )
            self._items = items
        return self._items

    def __len__(self) -> int:
        return CHUNK

    def __getitem__(self, index: Any) -> Any:
        return self._read()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self._read())

    @property
    def read(self) -> bool:
        """Whether the chunk has been fetched."""
        return self._items is not None


class Chunks(Generic[T]):
    """The storage of an append-only sequence, in chunks of :data:`CHUNK` items."""

    __slots__ = ("_chunks", "_length")

    def __init__(self, items: list[T] | None = None) -> None:
        items = items or []
        self._chunks: list[list[T]] = [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]
        self._length = len(items)

    @classmethod
    def paged(cls, length: int, fetch: Fetch[T], then: Sequence[T] = ()) -> Chunks[T]:
        """The storage of ``length`` items fetched on demand, a chunk at a time, by
        ``fetch(start, stop)`` (``length`` a multiple of :data:`CHUNK`), then ``then``.

        >>> calls = []
        >>> def fetch(start, stop):
        ...     calls.append(start)
        ...     return list(range(start, stop))
        >>> store = Chunks.paged(2 * CHUNK, fetch, then=["new"])
        >>> store.get(2 * CHUNK), calls
        ('new', [])
        >>> store.get(CHUNK + 1), calls
        (513, [512])
        """
        if length % CHUNK:
            raise ValueError(f"a paged storage holds whole chunks of {CHUNK}, not {length} items")
        store: Chunks[T] = cls.__new__(cls)
        pages: list[Any] = [_Page(fetch, start) for start in range(0, length, CHUNK)]
        store._chunks = pages
        store._length = length
        return store.append(length, *then)

    def unread(self) -> int:
        """How many chunks have not been fetched yet (for tests and benchmarks)."""
        return sum(1 for c in self._chunks if isinstance(c, _Page) and not c.read)

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
