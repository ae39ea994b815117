"""The store's API on SQLite and PostgreSQL: tables made, acted on, undone, loaded from
snapshots, kept apart by version; tokens hashed; nothing stored for a refused action."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select, text

from referee.core import Action, RuleError, ScenarioError, SeatError, StaleTableError, Table
from referee.core.registry import system
from referee.store import NoSuchTable, Store, StoreError, open_store, snapshots
from referee.store.schema import EVENTS, SEATS, SNAPSHOTS

NOTE = Action("scarface", "note", {"text": "hm"})
ATTACK = Action("scarface", "attack", {"target": "krockin"})


def play(store: Store, table_id: str, count: int, seat: str = "scarface") -> Table[object]:
    table = store.load(table_id)
    for i in range(count):
        action = ATTACK if i % 2 else Action("scarface", "note", {"text": f"n{i}"})
        table = store.act(table_id, action, seat=seat, expect_version=table.version)
    return table


def test_a_table_is_made_acted_on_and_loaded_back(url: str) -> None:
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="Winter war", start="19:00")
    assert created.table.version == 2 and len(created.id) == 10  # dice committed, alarm set
    table = play(store, created.id, 6)
    assert store.version(created.id) == table.version
    [info] = store.tables()
    assert (info.id, info.system, info.name, info.version) == (
        created.id,
        "kernel_toy",
        "Winter war",
        table.version,
    )
    fresh = open_store(url)  # another process's view: nothing cached
    loaded = fresh.load(created.id)
    assert loaded == table and loaded.to_record() == table.to_record()
    assert fresh.export(created.id) == table.to_record()
    assert system("kernel_toy").load(fresh.export(created.id)).state == table.state


def test_a_stale_writer_is_refused_and_nothing_is_written(url: str) -> None:
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    v = created.table.version
    store.act(created.id, NOTE, seat="scarface", expect_version=v)
    with pytest.raises(
        StaleTableError, match=f"you read version {v}, but the table is at version {v + 1}"
    ):
        store.act(created.id, NOTE, seat="scarface", expect_version=v)
    other = open_store(url)
    other.act(created.id, NOTE, seat="scarface", expect_version=v + 1)
    with pytest.raises(StaleTableError):  # this store's cache is behind: still refused
        store.act(created.id, NOTE, seat="scarface", expect_version=v + 1)
    assert store.version(created.id) == v + 2 and len(store.load(created.id).actions) == 2


def test_a_refused_action_stores_nothing(url: str) -> None:
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    with pytest.raises(RuleError):
        store.act(
            created.id,
            Action("scarface", "attack", {"target": "scarface"}),
            seat="scarface",
            expect_version=created.table.version,
        )
    with pytest.raises(SeatError):
        store.act(created.id, NOTE, seat="krockin", expect_version=created.table.version)
    assert open_store(url).load(created.id) == created.table


def test_undo_takes_back_the_last_action_for_every_reader(url: str) -> None:
    store, other = open_store(url), open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    before = play(store, created.id, 3)
    assert other.load(created.id) == before
    after_one_more = store.act(created.id, ATTACK, seat="scarface", expect_version=before.version)
    assert other.load(created.id) == after_one_more
    with pytest.raises(SeatError, match="only the referee"):
        store.undo(created.id, seat="scarface")
    # an undo decided on what the seat read: refused if the table moved on since
    with pytest.raises(StaleTableError, match=f"read version {before.version}"):
        store.undo(created.id, seat="referee", expect_version=before.version)
    assert other.load(created.id) == after_one_more
    undone = store.undo(created.id, seat="referee", expect_version=after_one_more.version)
    assert undone == before
    assert other.load(created.id) == before  # its cache is not a prefix any more: reloaded
    again = other.act(created.id, NOTE, seat="scarface", expect_version=before.version)
    assert store.load(created.id) == again
    assert open_store(url).load(created.id) == again


def _snapshot_versions(store: Store) -> list[int]:
    with store.engine.connect() as conn:
        return sorted(conn.execute(select(SNAPSHOTS.c.version)).scalars())


def test_load_starts_from_the_latest_snapshot(url: str) -> None:
    store = open_store(url, snapshot_every=10)
    created = store.create_table("kernel_toy", {}, name="t")
    table = play(store, created.id, 30)
    assert len(_snapshot_versions(store)) == table.version // 10
    assert open_store(url).load(created.id) == table
    # undoing below a snapshot drops it; what is left loads to the same table
    top = _snapshot_versions(store)[-1]
    while store.version(created.id) >= top:
        undone = store.undo(created.id, seat="referee")
    assert _snapshot_versions(store)[-1] < top
    assert open_store(url).load(created.id) == undone
    # a snapshot is what the load starts from: a doctored one shows in the state loaded
    latest = _snapshot_versions(store)[-1]
    with store.engine.begin() as conn:
        blob = conn.execute(
            select(SNAPSHOTS.c.state).where(SNAPSHOTS.c.version == latest)
        ).scalar_one()
        decoded = snapshots.decode(blob)
        assert decoded is not None
        doctored = snapshots.encode(
            replace(decoded.state, notes=decoded.state.notes + 100),
            decoded.clock,
            decoded.ledger,
        )
        conn.execute(SNAPSHOTS.update().where(SNAPSHOTS.c.version == latest).values(state=doctored))
    assert open_store(url).load(created.id).state.notes == undone.state.notes + 100
    # a snapshot of other code is passed over: the events are folded from the start
    with store.engine.begin() as conn:
        conn.execute(SNAPSHOTS.update().values(fingerprint="other code"))
    assert open_store(url).load(created.id) == undone


def test_a_half_written_log_is_an_error_not_a_table(url: str) -> None:
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    table = play(store, created.id, 4)
    with store.engine.begin() as conn:
        conn.execute(EVENTS.delete().where(EVENTS.c.number == table.version))
    with pytest.raises(StoreError, match="inconsistent"):
        open_store(url).load(created.id)


def test_tokens_are_hashed_seat_a_player_and_can_be_revoked(url: str) -> None:
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t", players={"alice": ["scarface"]})
    assert set(created.tokens) == {"referee", "alice", "krockin"}
    with store.engine.connect() as conn:
        stored = conn.execute(select(SEATS.c.token_hash)).scalars().all()
    for token in created.tokens.values():
        assert all(token.encode() not in bytes(h) for h in stored)
    for seat, token in created.tokens.items():
        assert store.seat_for_token(created.id, token) == seat
    assert store.seat_for_token(created.id, "guess") is None
    assert store.seat_for_token("nosuchtable", created.tokens["alice"]) is None
    assert store.seat_for_token(created.id, created.tokens["alice"][:-1]) is None
    new = store.mint(created.id, "alice")
    assert store.seat_for_token(created.id, new) == "alice"
    assert store.seat_for_token(created.id, created.tokens["alice"]) is None
    store.revoke(created.id, "alice")
    assert store.seat_for_token(created.id, new) is None
    assert store.seats(created.id) == {"referee": True, "alice": False, "krockin": True}
    with pytest.raises(SeatError, match="no seat 'mallory'"):
        store.mint(created.id, "mallory")


def test_an_unknown_table_is_no_such_table(url: str) -> None:
    store = open_store(url)
    for call in (
        lambda: store.load("nope"),
        lambda: store.version("nope"),
        lambda: store.export("nope"),
        lambda: store.act("nope", NOTE, seat=None, expect_version=None),
        lambda: store.undo("nope", seat=None),
        lambda: store.mint("nope", "referee"),
    ):
        with pytest.raises(NoSuchTable, match="no table 'nope'"):
            call()


def test_import_re_decides_the_record(url: str) -> None:
    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    record = play(store, created.id, 4).to_record()
    copy = store.import_record(record, name="copy")
    assert copy.id != created.id and store.export(copy.id) == record
    rolled = next(e for e in record["events"] if e["kind"] == "attack.rolled")
    rolled["payload"]["faces"][0] = 7 - rolled["payload"]["faces"][0]
    with pytest.raises(ScenarioError, match="is not what action 2 \\(attack\\) produces"):
        store.import_record(record, name="forged")
    assert {t.name for t in store.tables()} == {"t", "copy"}


def test_postgresql_notifies_each_append(postgres_url: str) -> None:
    """``'<table>:<version>:<origin>'``: the store names itself, so that the server process
    whose store it is knows its own change coming back."""
    import psycopg

    store = open_store(postgres_url)
    created = store.create_table("kernel_toy", {}, name="t")
    dsn = store.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as listener:
        listener.execute("LISTEN referee_tables")
        v = created.table.version
        store.act(created.id, NOTE, seat="scarface", expect_version=v)
        store.undo(created.id, seat="referee")
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=2)]
    assert heard == [f"{created.id}:{v + 1}:{store.origin}", f"{created.id}:{v}:{store.origin}"]


def test_a_load_sees_a_writer_committing_meanwhile_whole_or_not_at_all(url: str) -> None:
    writer, reader = open_store(url), open_store(url)
    created = writer.create_table("kernel_toy", {}, name="t")
    before = play(writer, created.id, 3)
    reading = reader._events

    def events_while_another_commits(*args: Any, **kwargs: Any) -> Any:
        writer.act(created.id, ATTACK, seat="scarface", expect_version=before.version)
        return reading(*args, **kwargs)

    reader._events = events_while_another_commits  # type: ignore[method-assign]
    assert reader.load(created.id) == before  # the database as it was when the load began
    reader._events = reading  # type: ignore[method-assign]
    reader.forget()
    assert reader.load(created.id) == writer.load(created.id) != before


def test_a_stored_tables_dice_are_committed_derived_and_verifiable(url: str) -> None:
    from referee.core.fairness import DICE_COMMITTED, verify

    store = open_store(url)
    created = store.create_table("kernel_toy", {}, name="t")
    assert created.table.log[0].kind == DICE_COMMITTED
    table = created.table
    for _ in range(3):
        table = store.act(created.id, ATTACK, seat="scarface", expect_version=table.version)
    with store.engine.connect() as conn:
        secret = conn.execute(text("SELECT dice_seeds FROM referee_tables")).scalar_one()
    seed = json.loads(secret)["seeds"][0]
    assert seed not in json.dumps(store.export(created.id))  # the seed never leaves the store
    assert verify(table).sealed == 3 and verify(table).checked == 0
    revealed = store.act(
        created.id,
        Action("referee", "reveal_dice", {}),
        seat="referee",
        expect_version=table.version,
    )
    check = verify(revealed)
    assert check.ok and check.checked == 3  # every face is the one the committed seed gives
    after = store.act(created.id, ATTACK, seat="scarface", expect_version=revealed.version)
    assert verify(after).sealed == 1  # the next epoch's seed is stored, and still secret
    assert open_store(url).load(created.id) == after
    imported = store.import_record(store.export(created.id), name="copy")
    assert verify(imported.table).ok
