"""The chunked storage behind the log and the actions: every version reads as a plain list of
what was appended to it, however versions branch (issue 11: a branch copies at most a chunk)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import Event, Log
from referee.core.chunked import CHUNK, Chunks
from referee.core.table import ActionList

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


# -- paged storage (Chunks) ----------------------------------------------------------------------


def test_a_paged_storage_fetches_each_chunk_once_and_only_when_read() -> None:
    """Storage (chunked.py): a table loaded from a snapshot holds its old log as pages fetched
    on demand — each chunk the first time one of its items is read, and never again."""
    calls: list[tuple[int, int]] = []

    def fetch(start: int, stop: int) -> list[int]:
        calls.append((start, stop))
        return list(range(start, stop))

    store = Chunks.paged(3 * CHUNK, fetch, then=["new"])
    assert (store.unread(), calls) == (3, [])
    assert store.get(3 * CHUNK) == "new"
    assert store.get(CHUNK + 1) == CHUNK + 1
    assert (store.unread(), calls) == (2, [(CHUNK, 2 * CHUNK)])
    assert store.get(CHUNK + 2) == CHUNK + 2
    assert calls == [(CHUNK, 2 * CHUNK)]
    assert list(store.iterate(3 * CHUNK + 1)) == [*range(3 * CHUNK), "new"]
    assert store.unread() == 0
    assert calls == [(CHUNK, 2 * CHUNK), (0, CHUNK), (2 * CHUNK, 3 * CHUNK)]


def test_a_storage_made_from_items_reads_each_item_at_its_place() -> None:
    """Storage: a storage made from more than a chunk of items holds each at its own index;
    appending to the newest version extends it in place, to an older one branches."""
    items = list(range(2 * CHUNK + 5))
    store = Chunks(items)
    assert [store.get(i) for i in (0, CHUNK - 1, CHUNK, 2 * CHUNK + 4)] == [
        0,
        CHUNK - 1,
        CHUNK,
        2 * CHUNK + 4,
    ]
    assert store.slice(0, len(items)) == items
    grown = store.append(len(items), "a", "b")
    assert grown is store
    assert grown.append(len(items) + 2, "c") is store
    branch = store.append(len(items), "x")
    assert branch is not store
    assert branch.slice(len(items) - 1, len(items) + 1) == [2 * CHUNK + 4, "x"]
    assert store.slice(len(items), len(items) + 3) == ["a", "b", "c"]


def test_a_paged_storage_holds_whole_chunks_and_each_page_is_a_whole_chunk() -> None:
    """Storage: the paged part is whole chunks; a fetch that gives a short chunk is refused."""
    with pytest.raises(ValueError, match="whole chunks"):
        Chunks.paged(CHUNK + 1, lambda start, stop: [])
    assert Chunks.paged(0, lambda start, stop: [], then=[1, 2]).slice(0, 2) == [1, 2]
    short = Chunks.paged(CHUNK, lambda start, stop: list(range(start, stop - 1)))
    with pytest.raises(ValueError, match=f"fetched {CHUNK - 1} items from 0"):
        short.get(0)


# -- a table's action records (ActionList) -----------------------------------------------


def test_two_chains_are_equal_only_when_they_hold_the_same_records() -> None:
    """A table's action records (``ActionList``): equal when their items are, whatever their
    storage; one action is taken back unless told otherwise."""
    assert ActionList([1, 2]) == ActionList([1, 2])
    assert ActionList([1, 2]) != ActionList([1, 3])
    assert ActionList([1, 2, 3]).without_last() == ActionList([1, 2])
    assert ActionList([1, 2, 3]).without_last(2) == ActionList([1])


def test_a_chain_hashes_and_reads_as_the_tuple_of_its_items() -> None:
    """A chain of records is a value: equal chains hash alike, and its repr lists its items."""
    assert hash(ActionList([1, 2])) == hash((1, 2))
    assert hash(ActionList([1, 2, 3]).without_last()) == hash(ActionList([1, 2]))
    assert repr(ActionList([1, 2])) == "ActionList([1, 2])"
    assert repr(ActionList(["a"]).append("b")) == "ActionList(['a', 'b'])"


def test_a_chain_read_page_by_page_holds_the_stored_records_then_the_new_ones() -> None:
    """``ActionList.paged`` (the store's lazy read of a table's records): ``count`` records fetched
    when first looked at, then ``then``."""
    fetched: list[tuple[int, int]] = []

    def fetch(start: int, stop: int) -> list[int]:
        fetched.append((start, stop))
        return list(range(start, stop))

    chain = ActionList.paged(CHUNK, fetch, then=[-1, -2])
    assert type(chain) is ActionList
    assert len(chain) == CHUNK + 2
    assert fetched == []
    assert chain[CHUNK + 1] == -2
    assert fetched == []
    assert chain[3] == 3
    assert fetched == [(0, CHUNK)]
    assert list(chain) == [*range(CHUNK), -1, -2]
    assert list(chain.append(-3))[-3:] == [-1, -2, -3]
    assert list(ActionList.paged(0, fetch)) == []


def test_a_chain_of_records_holds_what_it_was_made_of_and_never_what_it_dropped() -> None:
    from referee.core.table import ActionList

    chain = ActionList(["a", "b", "c"])
    assert list(chain) == ["a", "b", "c"]
    shorter = chain.without_last()
    assert list(shorter) == ["a", "b"] and len(shorter) == 2
    with pytest.raises(IndexError):
        shorter[2]


def test_a_log_grew_from_another_only_by_appending_to_the_same_storage() -> None:
    """``Log.grew_from``: told without reading the events (the server's observations grow
    by it, docs/server.md): the same storage and at least as long."""
    first = Log().append(Event("a", {}), Event("b", {}))
    grown = first.append(Event("c", {}))
    assert grown.grew_from(first) and first.grew_from(first)
    assert not first.grew_from(grown)  # shorter
    undone = grown.without_last(2)
    assert first.grew_from(undone) and not undone.grew_from(first)
    branch = undone.append(Event("x", {}))  # the place of "b" taken again: a storage of its own
    assert not branch.grew_from(first) and not branch.grew_from(grown)
    again = Log().append(Event("a", {}), Event("b", {}))  # the same events, read anew
    assert again == first and not again.grew_from(first)


def test_a_chain_of_records_grew_from_another_only_by_appending_to_the_same_storage() -> None:
    chain = ActionList(["a", "b"])
    grown = chain.append("c")
    assert grown.grew_from(chain) and chain.grew_from(chain)
    assert not chain.grew_from(grown)
    branch = grown.without_last(2).append("x")
    assert not branch.grew_from(chain) and not branch.grew_from(grown)
    assert not ActionList(["a", "b"]).grew_from(chain)
