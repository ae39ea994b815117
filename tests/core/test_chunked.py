"""The chunked storage behind the log and the actions: every version reads as a plain list of
what was appended to it, however versions branch (issue 11: a branch copies at most a chunk)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.core import Event, Log
from referee.core.chunked import CHUNK, Chunks

# each step: append ``count`` items to version number ``base`` (modulo the versions so far)
STEPS = st.lists(st.tuples(st.integers(0, 50), st.integers(1, 3 * CHUNK)), max_size=12)


@given(STEPS)
def test_every_version_reads_as_its_own_list(steps: list[tuple[int, int]]) -> None:
    versions: list[tuple[Chunks[int], int, list[int]]] = [(Chunks(), 0, [])]
    label = 0
    for base, count in steps:
        store, size, model = versions[base % len(versions)]
        items = list(range(label, label + count))
        label += count
        versions.append((store.append(size, *items), size + count, model + items))
    for store, size, model in versions:
        assert list(store.iterate(size)) == model
        assert [store.get(i) for i in range(size)] == model
        for start in (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, size - 1, size):
            for stop in (start, start + 1, start + CHUNK, size):
                if 0 <= start <= stop <= size:
                    assert store.slice(start, stop) == model[start:stop]


def test_a_branch_copies_at_most_a_chunk() -> None:
    log = Log().append(*(Event("e") for _ in range(10 * CHUNK + 7)))
    head = log.append(Event("head"))
    branch = log.append(Event("branch"))
    assert [e.kind for e in head][-2:] == ["e", "head"]
    assert [e.kind for e in branch][-2:] == ["e", "branch"]
    assert head._items._chunks[0] is branch._items._chunks[0]  # full chunks are shared
    assert len(branch.since(10 * CHUNK)) == 8
