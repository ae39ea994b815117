"""A table's cost independent of its age (issues 29 and 31): a seat's observation is held from
the end of the log, grown by what each change adds, and read further back only when asked, yet
every answer cut from it is the whole observation's to the byte."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.core import Action
from referee.core.chunked import CHUNK
from referee.core.registry import system
from referee.core.table import Table
from referee.dice import ScriptedSource
from referee.server.views import (
    OPEN_EVENTS,
    ObservationCache,
    earlier_events,
    latest,
    observation,
)
from referee.store import open_store
from tests.server.test_log_pages import Ledger

SEATS = ("referee", "scarface", "krockin", "lady")

# steps of the toy game whose events each seat sees differently: public, own, the referee's
STEPS = [
    (Action("scarface", "perceive", {"target": "krockin"}), [6, 6, 6]),
    (Action("scarface", "write_slip", {"maneuver": "feint"}), []),
    (Action("lady", "recall", {"chance": 40}), [12]),
    (Action("krockin", "note", {"text": "hm"}), []),
    (Action("krockin", "rally", {"dice": 2}), [3, 6, 2]),
    (Action("lady", "write_slip", {"maneuver": "assault"}), []),
    (Action("krockin", "write_slip", {"maneuver": "feint"}), []),  # the slips revealed
]


def toy(events: int) -> Table[Any]:
    """A toy table of at least ``events`` events, every seat seeing a part of them."""
    import tests.core.toy_procedure  # noqa: F401

    setup = {"characters": {"scarface": {"skill": 10}, "krockin": {}, "lady": {}}}
    table = system("kernel_toy").new_table(setup)
    while table.version < events:
        table = step(table)
    return table


def step(table: Table[Any]) -> Table[Any]:
    """The table after the next of :data:`STEPS`."""
    action, faces = STEPS[len(table.actions) % len(STEPS)]
    return table.act(action, ScriptedSource(faces), at=table.now + 1_000)


def opened(table: Table[Any], seat: str, since: int, tag: str | None, limit: int) -> Any:
    """What ``GET /api/tables/{id}`` answered before the observation was held from the end:
    the whole observation, cut to its latest events when it starts from the first."""
    seen = observation(table, "t", seat, since, tag)
    return latest(seen, limit) if seen["since"] == 0 else {**seen, "earlier": None}


def same(a: Any, b: Any) -> bool:
    return json.dumps(a) == json.dumps(b)  # key order and all


def test_every_answer_from_an_old_tables_held_observation_is_the_whole_ones() -> None:
    table = toy(600)
    sinces = (0, 1, 200, 470, 480, 530, 590, table.version - 1, table.version, table.version + 5)
    for seat in SEATS:
        whole = observation(table, "t", seat)
        for since in sinces:
            right = observation(table, "t", seat, since)["tag"]
            for tag in (None, right, "wrong"):
                cache = ObservationCache()  # each from the end of the log, read back as asked
                expected = observation(table, "t", seat, since, tag)
                assert same(cache.observation(table, "t", seat, since, tag), expected)
                for limit in (1, 7, OPEN_EVENTS):
                    got = ObservationCache().opening(table, "t", seat, since, tag, limit)
                    assert same(got, opened(table, seat, since, tag, limit)), (seat, since, tag)
        cache = ObservationCache()
        for before in (table.version + 1, 590, 431, 120, 3, 1):
            for limit in (1, 50, 1_000):
                page = cache.earlier(table, "t", seat, before, limit)
                assert same(page, earlier_events(whole, "t", before, limit)), (seat, before)


def test_a_held_observation_grown_and_let_go_answers_as_a_whole_one() -> None:
    table = toy(300)
    cache = ObservationCache(hold=40)  # lets go of old events every few steps
    for _ in range(30):
        table = step(table)
        for seat in SEATS:
            for since in (table.version - 1, table.version - 30, 250, 0):
                tag = observation(table, "t", seat, since)["tag"]
                got = cache.observation(table, "t", seat, since, tag)
                assert same(got, observation(table, "t", seat, since, tag)), (seat, since)
            got = cache.opening(table, "t", seat)
            assert same(got, opened(table, seat, 0, None, OPEN_EVENTS))


def ledger(events: int) -> Table[Any]:
    table = Table.start(Ledger(), {}, system="ledger")
    while table.version < events:
        table = table.act(Action("ann", "note"), None, seat="ann")
    return table


def test_a_push_on_an_old_table_observes_only_what_changed() -> None:
    table = ledger(10_000)
    cache = ObservationCache()
    for seat in ("ann", "bob"):
        first = cache.opening(table, "t", seat)
        assert len(first["events"]) == OPEN_EVENTS and first["earlier"] == 10_000 - 99
    assert cache.events_observed <= 2 * (OPEN_EVENTS + 1)  # the end of the log, not the log
    for _ in range(20):
        before = cache.events_observed
        after = table.act(Action("ann", "note"), None, seat="ann")
        for seat in ("ann", "bob"):
            pushed = cache.observation(after, "t", seat, table.version)
            assert [e["number"] for e in pushed["events"]] == [after.version]
        assert cache.events_observed - before == 2  # one new event for each of two seats
        table = after


def test_a_seat_that_pages_back_observes_the_page_not_the_log() -> None:
    table = ledger(10_000)
    cache = ObservationCache()
    cache.opening(table, "t", "bob")
    before = cache.events_observed
    page = cache.earlier(table, "t", "bob", 10_000 - 99, 100)
    assert [e["number"] for e in page["events"]] == list(range(9_801, 9_901))
    assert cache.events_observed - before <= 2 * 101


@pytest.mark.parametrize("events", [10_000])
def test_opening_a_stored_old_table_reads_the_end_of_its_log(tmp_path: Any, events: int) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    created = store.import_record(ledger(events).to_record(), name="old")
    store.forget()  # as a new process: loaded from the snapshot, the log paged in on demand
    table = store.load(created.id)
    chunks = events // CHUNK
    assert table.log._items.unread() >= chunks - 1
    cache = ObservationCache()
    for seat in ("ann", "bob"):
        cache.opening(table, "t", seat)
        cache.observation(table, "t", seat, events - 3)
    assert table.log._items.unread() >= chunks - 1  # the end of the log alone was read
    whole = cache.observation(table, "t", "bob", 0)  # a seat that asks for everything
    assert len(whole["events"]) == events and table.log._items.unread() == 0
    store.close()


def test_one_seats_long_read_holds_up_no_other_seat() -> None:
    import threading

    inside, go_on = threading.Event(), threading.Event()

    class Slow(Ledger):
        """A ledger whose first event takes ann's reading as long as the test likes."""

        def describe(self, event: Any, viewer: Any) -> str:
            if viewer.id == "ann" and event.number == 1:
                inside.set()
                go_on.wait(10)
            return super().describe(event, viewer)

    table = Table.start(Slow(), {}, system="ledger")
    while table.version < 300:
        table = table.act(Action("ann", "note"), None, seat="ann")
    cache = ObservationCache()
    paging = threading.Thread(target=lambda: cache.earlier(table, "t", "ann", 150, 200))
    paging.start()  # ann pages back to the first event, and is held there
    assert inside.wait(10)
    answered: list[int] = []
    other = threading.Thread(
        target=lambda: answered.append(cache.opening(table, "t", "bob")["version"])
    )
    other.start()
    other.join(timeout=10)
    go_on.set()
    paging.join(timeout=10)
    assert answered == [300]  # bob was answered while ann's read went on
