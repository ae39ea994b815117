"""The store: every table's log in a database, one transaction per action (DESIGN.md,
"referee.store"; docs/store.md).

It stores what the table contract makes and decides nothing: :meth:`Store.act` loads the table,
lets :meth:`~referee.core.table.Table.act` decide, and appends the action and its events in one
transaction, or nothing. Secrets are stored whole; only ``observe`` takes them out.

Its rooms: :mod:`~referee.store.rows` (actions and events as rows, read and appended),
:mod:`~referee.store.snapshots`, :mod:`~referee.store.seating` (seats' tokens) and
:mod:`~referee.store.dice` (the table's own dice).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, text, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError

from referee.core.chunked import CHUNK
from referee.core.errors import RefereeError, StaleTableError
from referee.core.events import Event, Log
from referee.core.fairness import REVEAL_DICE, DiceSeeds, reveal_params
from referee.core.procedures import Action
from referee.core.registry import System, system
from referee.core.table import ActionList, ActionRecord, Seat, SeatId, Table
from referee.core.values import to_json
from referee.dice import DiceSource
from referee.store import seating, snapshots
from referee.store.dice import TableDice
from referee.store.engine import (
    database_url,
    describe_url,
    is_postgresql,
    make_engine,
    normalise_url,
    release_writer,
    translated,
    write_transaction,
)
from referee.store.errors import NoSuchTable, StoreError
from referee.store.migrate import ensure_schema
from referee.store.rows import (
    NOTIFY_CHANNEL,
    Conflict,
    TableRow,
    append,
    append_committed,
    append_sqlite,
    read_actions,
    read_events,
    read_table_row,
)
from referee.store.schema import ACTIONS, EVENTS, SEATS, SNAPSHOTS, TABLES, dumps
from referee.store.tokens import hash_token, new_salt, new_token

__all__ = ["NOTIFY_CHANNEL", "CreatedTable", "Store", "TableInfo", "open_store"]


_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l, o, 0, 1: ids are read aloud


@dataclass(frozen=True)
class CreatedTable:
    """A table just made: its id, the table, and each seat's join token (shown once)."""

    id: str
    table: Table[Any]
    tokens: dict[SeatId, str]


@dataclass(frozen=True)
class TableInfo:
    """A line of :meth:`Store.tables`."""

    id: str
    system: str
    name: str
    version: int
    created: datetime


@dataclass(frozen=True)
class _Cached:
    revision: int
    table: Table[Any]


def open_store(url: str | None = None, *, snapshot_every: int = snapshots.SNAPSHOT_EVERY) -> Store:
    """The store at ``url`` (or ``REFEREE_DATABASE_URL``, or the default SQLite file in the
    user's data folder), its schema migrated to this Referee's on first use.

    :class:`StoreError` (one line) for a wrong URL, a corrupt file or a database out of reach.
    """
    parsed = normalise_url(database_url(url))
    engine = make_engine(parsed)
    with translated(parsed):
        ensure_schema(engine)
    return Store(engine, parsed, snapshot_every=snapshot_every)


class Store:
    """Tables in a database. Build one with :func:`open_store`.

    Every method raises :class:`NoSuchTable` for an unknown id and :class:`StoreError` when the
    database cannot be used; acting raises what :meth:`Table.act` raises, and
    :class:`~referee.core.errors.StaleTableError` when another writer got there first. The
    store may be shared between threads; processes share the database.
    """

    def __init__(self, engine: Engine, url: URL, *, snapshot_every: int) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self.engine = engine
        self.url = url
        self.snapshot_every = snapshot_every
        self._cache: dict[str, _Cached] = {}
        self._lock = threading.Lock()
        # this store's name in its notifications ('<table id>:<version>:<origin>')
        self.origin = "s" + secrets.token_hex(6)

    def __repr__(self) -> str:
        return f"Store({describe_url(self.url)!r})"

    def close(self) -> None:
        """Close the store's connections."""
        release_writer(self.engine)
        self.engine.dispose()

    def forget(self) -> None:
        """Drop the tables this store holds in memory: the next load reads the database (from
        the latest snapshot), as a new process would."""
        with self._lock:
            self._cache.clear()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def is_postgresql(self) -> bool:
        """True when the database is PostgreSQL (which notifies :data:`NOTIFY_CHANNEL`)."""
        return is_postgresql(self.engine)

    # -- making tables -----------------------------------------------------------------------

    def create_table(
        self,
        game: str | System,
        setup: Mapping[str, Any],
        *,
        name: str,
        players: Mapping[str, Sequence[str]] | None = None,
        start: str = "00:00",
    ) -> CreatedTable:
        """A new table of ``game`` (a registered name) from ``setup``, stored, with a token
        minted for each seat. The setup is checked by the game first (:class:`ScenarioError`)."""
        found = system(game) if isinstance(game, str) else game
        table_id = _new_id()
        seeds = DiceSeeds.new(table_id)
        table = Table.start(
            found.procedure,
            found.check_setup(setup),
            system=found.name,
            players=players,
            start=start,
            dice=seeds,
        )
        return self._insert(table, name, table_id=table_id, seeds=seeds)

    def import_record(self, record: Any, *, name: str) -> CreatedTable:
        """Store a table record (``Table.to_record`` format) as a new table, with new tokens.

        The record is verified first: every action re-decided with its recorded dice
        (:meth:`System.load`); a record that does not replay is a :class:`ScenarioError`.
        """
        from referee.core.errors import ScenarioError

        if not isinstance(record, Mapping) or not isinstance(record.get("system"), str):
            raise ScenarioError("a table record is a mapping that names its system", ("system",))
        table = system(record["system"]).load(record)
        return self._insert(table, name)

    def _insert(
        self,
        table: Table[Any],
        name: str,
        *,
        table_id: str | None = None,
        seeds: DiceSeeds | None = None,
    ) -> CreatedTable:
        table_id = table_id or _new_id()
        salt = new_salt()
        tokens = {seat.id: new_token() for seat in table.seats}
        hashes = {seat: hash_token(token, salt) for seat, token in tokens.items()}
        now = datetime.now(UTC)
        with translated(self.url), write_transaction(self.engine) as conn:
            conn.execute(
                insert(TABLES).values(
                    id=table_id,
                    system=table.system,
                    name=name,
                    setup=dumps(to_json(table.setup)),
                    seats=dumps([seat.to_json() for seat in table.seats]),
                    start=table.start_time,
                    created=now,
                    version=table.version,
                    actions=len(table.actions),
                    revision=1,
                    last_undo=0,
                    token_salt=salt,
                    dice_seeds=None if seeds is None else dumps(seeds.to_json()),
                )
            )
            if hashes:
                conn.execute(
                    insert(SEATS),
                    [
                        {"table_id": table_id, "seat": s, "token_hash": h, "minted": now}
                        for s, h in hashes.items()
                    ],
                )
            append(conn, table_id, list(table.actions), list(table.log))
            if len(table.actions) or table.version >= self.snapshot_every:
                snapshots.write_snapshot(conn, table_id, table)
            self._notify(conn, table_id, table.version)
        self._remember(table_id, 1, table)
        return CreatedTable(table_id, table, tokens)

    # -- reading -----------------------------------------------------------------------------

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first."""
        query = select(
            TABLES.c.id, TABLES.c.system, TABLES.c.name, TABLES.c.version, TABLES.c.created
        ).order_by(TABLES.c.created, TABLES.c.id)
        with translated(self.url), self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [TableInfo(r.id, r.system, r.name, r.version, _aware(r.created)) for r in rows]

    def version(self, table_id: str) -> int:
        """The table's version: the number of events in its log."""
        query = select(TABLES.c.version).where(TABLES.c.id == table_id)
        with translated(self.url), self.engine.connect() as conn:
            version = conn.execute(query).scalar()
        if version is None:
            raise NoSuchTable(table_id)
        return int(version)

    def name(self, table_id: str) -> str:
        """The table's name."""
        query = select(TABLES.c.name).where(TABLES.c.id == table_id)
        with translated(self.url), self.engine.connect() as conn:
            name = conn.execute(query).scalar()
        if name is None:
            raise NoSuchTable(table_id)
        return str(name)

    def load(self, table_id: str) -> Table[Any]:
        """The table as it stands: from what this store already holds of it, or the latest
        snapshot, folding only the events after it (nothing is re-decided)."""
        with translated(self.url), self.engine.connect() as conn:
            if is_postgresql(conn):
                # One snapshot of the database for every statement of the load, so that a
                # writer committing meanwhile is seen whole or not at all (SQLite's read
                # transactions are snapshots already).
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                return self._load(conn, table_id)

    def export(self, table_id: str) -> dict[str, Any]:
        """The table's whole record (``Table.to_record``): every secret, for the referee only."""
        return self.load(table_id).to_record()

    # -- writing -----------------------------------------------------------------------------

    def act(
        self,
        table_id: str,
        action: Action,
        *,
        seat: SeatId | None,
        expect_version: int | None,
        at: int | None = None,
        dice: DiceSource | None = None,
    ) -> Table[Any]:
        """Take ``action`` as ``seat`` on the table at ``expect_version``, and store the action
        with all its events in one transaction (or nothing).

        ``dice=None``: the table's own dice, derived from its committed secret seed
        (:func:`referee.core.fairness.fair_dice`); a table without stored seeds (an imported
        one) rolls ``RandomSource()``. A ``reveal_dice`` action without parameters is given
        them from the stored seeds, and the next epoch's seed is stored in the same
        transaction. Raises what :meth:`Table.act` raises, and
        :class:`~referee.core.errors.StaleTableError` if the table is no longer at
        ``expect_version`` — another writer got there first.
        """
        with translated(self.url):
            try:
                with write_transaction(self.engine) as conn:
                    row = self._row(conn, table_id, lock=True)
                    if expect_version is not None and expect_version != row.version:
                        raise StaleTableError(expect_version, row.version)
                    table = self._load(conn, table_id, row)
                    stored = row.dice_seeds
                    seeds = None if stored is None else DiceSeeds.from_json(json.loads(stored))
                    source = dice if dice is not None else TableDice(table, seeds)
                    if action.kind == REVEAL_DICE and seeds is not None and not action.params:
                        params, seeds = reveal_params(seeds)
                        action = Action(action.actor, action.kind, params, at=action.at)
                        conn.execute(
                            update(TABLES)
                            .where(TABLES.c.id == table_id)
                            .values(dice_seeds=dumps(seeds.to_json()))
                        )
                    after = table.act(
                        action, source, at=at, seat=seat, expect_version=expect_version
                    )
                    if after is table:  # nothing happened (an advance to now)
                        return table
                    new_actions = [
                        after.actions[i] for i in range(len(table.actions), len(after.actions))
                    ]
                    if after.version // self.snapshot_every > table.version // self.snapshot_every:
                        snapshots.write_snapshot(conn, table_id, after)
                    new_events = after.log.since(table.version)
                    if is_postgresql(conn):
                        # (the transaction ends here, committed)
                        revision = append_committed(
                            conn, row, after, new_actions, new_events, origin=self.origin
                        )
                    else:
                        revision = append_sqlite(conn, row, after, new_actions, new_events)
            except (IntegrityError, Conflict):
                raise self._stale(table_id, expect_version) from None
        self._remember(table_id, revision, after)
        return after

    def undo(
        self, table_id: str, *, seat: SeatId | None, expect_version: int | None = None
    ) -> Table[Any]:
        """Take back the table's last action (who may: :meth:`Table.undo`), in one transaction.

        ``expect_version`` is the version the seat read: if another action landed since, the
        undo is refused with :class:`~referee.core.errors.StaleTableError` (it would take back
        an action the seat has not seen), checked under the same lock as the undo itself.
        """
        with translated(self.url), write_transaction(self.engine) as conn:
            row = self._row(conn, table_id, lock=True)
            table = self._load(conn, table_id, row)
            if expect_version is not None and expect_version != table.version:
                raise StaleTableError(expect_version, table.version)
            # the table before the last action, rebuilt from the latest snapshot before it
            # (as a load is), not replayed from the start: an undo costs the same at any age
            kept = table.undo_to(1, seat=seat)
            after = self._from_snapshot(
                conn,
                table_id,
                row,
                system(row.system),
                upto=(kept, len(table.actions) - 1),
                revision=int(row.revision) + 1,
            )
            revision = self._advance_row(conn, row, after, undo=True)
            for stored, column in (
                (ACTIONS, ACTIONS.c.number),
                (EVENTS, EVENTS.c.number),
            ):
                limit = len(after.actions) if stored is ACTIONS else after.version
                conn.execute(delete(stored).where(stored.c.table_id == table_id, column > limit))
            conn.execute(
                delete(SNAPSHOTS).where(
                    SNAPSHOTS.c.table_id == table_id, SNAPSHOTS.c.version > after.version
                )
            )
            self._notify(conn, table_id, after.version)
        self._remember(table_id, revision, after)
        return after

    # -- seats -------------------------------------------------------------------------------

    def seat_for_token(self, table_id: str, token: str) -> SeatId | None:
        """The seat ``token`` opens at this table, or ``None`` — for a wrong or revoked token
        and for a table that does not exist alike (so a guess learns nothing)."""
        with translated(self.url), self.engine.connect() as conn:
            return seating.seat_for_token(conn, table_id, token)

    def seats(self, table_id: str) -> dict[SeatId, bool]:
        """Each seat, and whether it has a live token."""
        with translated(self.url), self.engine.connect() as conn:
            self._row(conn, table_id)
            return seating.live_tokens(conn, table_id)

    def mint(self, table_id: str, seat_id: SeatId) -> str:
        """A new token for ``seat_id`` (the old one stops working); shown once, stored hashed."""
        token = new_token()
        with translated(self.url), write_transaction(self.engine) as conn:
            seating.store_token(conn, self._row(conn, table_id), seat_id, token)
        return token

    def revoke(self, table_id: str, seat_id: SeatId) -> None:
        """Make ``seat_id``'s token open nothing (mint a new one to seat someone again)."""
        with translated(self.url), write_transaction(self.engine) as conn:
            seating.revoke_token(conn, self._row(conn, table_id), seat_id)

    # -- the machinery -----------------------------------------------------------------------

    def newest(self, table_id: str, table: Table[Any]) -> Table[Any]:
        """The table ``table_id`` as this store last read or wrote it (the highest revision),
        else ``table``: two changes whose threads finish out of order hand on the newer."""
        with self._lock:
            cached = self._cache.get(table_id)
        return table if cached is None else cached.table

    def _row(self, conn: Connection, table_id: str, *, lock: bool = False) -> TableRow:
        row = read_table_row(conn, table_id, lock=lock)
        if row is None:
            raise NoSuchTable(table_id)
        return row

    def _remember(self, table_id: str, revision: int, table: Table[Any]) -> None:
        with self._lock:
            cached = self._cache.get(table_id)
            if cached is None or cached.revision < revision:
                self._cache[table_id] = _Cached(revision, table)

    def _load(self, conn: Connection, table_id: str, row: TableRow | None = None) -> Table[Any]:
        if row is None:
            row = self._row(conn, table_id)
        with self._lock:
            cached = self._cache.get(table_id)
        if cached is not None and cached.revision == row.revision:
            return cached.table
        game = system(row.system)
        if (
            cached is not None
            and cached.revision >= row.last_undo
            and cached.revision < row.revision
            and cached.table.version <= row.version
        ):
            table = self._catch_up(conn, table_id, cached.table)
        else:
            table = self._from_snapshot(conn, table_id, row, game)
        if table.version != row.version or len(table.actions) != row.actions:
            raise StoreError(
                f"table {table_id!r} is inconsistent: its row says {row.version} events and "
                f"{row.actions} actions, its log holds {table.version} and {len(table.actions)}"
            )
        self._remember(table_id, int(row.revision), table)
        return table

    def _catch_up(self, conn: Connection, table_id: str, table: Table[Any]) -> Table[Any]:
        """``table`` with the actions and events stored after it, folded."""
        events = self._events(conn, table_id, after=table.version)
        chain = table.actions
        for record in self._actions(conn, table_id, after=len(table.actions)):
            chain = chain.append(record)
        log = table.log.append(*events) if events else table.log
        for stamped in log.since(table.version):
            table = table._fold(stamped)  # the kernel's fold: no deciding
        return replace(table, log=log, actions=chain)

    def _from_snapshot(
        self,
        conn: Connection,
        table_id: str,
        row: TableRow,
        game: System,
        *,
        upto: tuple[int, int] | None = None,
        revision: int | None = None,
    ) -> Table[Any]:
        """The table from its latest usable snapshot and the rows after it, folding only the
        events after the snapshot and reading nothing older: the events and actions before it
        are paged in from their rows only if they are read (:meth:`Log.paged`).

        ``upto``: the table as it was at that (events, actions) — what an undo keeps;
        ``revision``: the table row's revision the result stands for (the row's, by default).
        """
        events_upto, actions_upto = upto if upto is not None else (row.version, row.actions)
        revision = int(row.revision) if revision is None else revision
        setup = json.loads(row.setup)
        seats = tuple(Seat(s["id"], tuple(s["plays"])) for s in json.loads(row.seats))
        base, at = snapshots.latest_snapshot(
            conn, table_id, game.procedure, events_upto, actions_upto
        )
        # the log before the snapshot's chunk is read only when someone reads it
        paged_events = 0 if base is None else at[0] - at[0] % CHUNK
        paged_actions = 0 if base is None else at[1] - at[1] % CHUNK
        events = self._events(conn, table_id, after=paged_events, upto=events_upto)
        records = self._actions(conn, table_id, after=paged_actions, upto=actions_upto)
        expected = (row.id, events_upto, revision)
        log = Log.paged(paged_events, self._pager(self._events, expected), events)
        chain: ActionList[ActionRecord] = ActionList.paged(
            paged_actions, self._pager(self._actions, expected), records
        )
        if base is None:
            table = Table.replay(game.procedure, setup, log)
        else:
            table = Table(game.procedure, setup, base.state, clock=base.clock, ledger=base.ledger)
            for event in log.since(at[0]):
                table = table._fold(event)  # the kernel's fold: no deciding
        return replace(
            table, log=log, system=row.system, seats=seats, start_time=row.start, actions=chain
        )

    def _events(
        self, conn: Connection, table_id: str, *, after: int, upto: int | None = None
    ) -> list[Event]:
        """The events numbered after ``after`` (up to ``upto``): every read of a load goes
        through here (:func:`referee.store.rows.read_events`)."""
        return read_events(conn, table_id, after=after, upto=upto)

    def _actions(
        self, conn: Connection, table_id: str, *, after: int, upto: int | None = None
    ) -> list[ActionRecord]:
        """The action records numbered after ``after`` (up to ``upto``)
        (:func:`referee.store.rows.read_actions`)."""
        return read_actions(conn, table_id, after=after, upto=upto)

    def _pager(
        self, read: Callable[..., list[Any]], expected: tuple[str, int, int]
    ) -> Callable[[int, int], list[Any]]:
        """``fetch(start, stop)`` for a paged log (``read`` is :meth:`_events` or
        :meth:`_actions`), reading the rows of the table as it was at its ``expected``
        (id, version, revision). An undo since then may have rewritten them: the table read
        is then stale (:class:`StaleTableError`), never another table's past."""
        table_id, version, revision = expected

        def fetch(start: int, stop: int) -> list[Any]:
            with translated(self.url), self.engine.connect() as conn:
                if is_postgresql(conn):
                    conn.execution_options(isolation_level="REPEATABLE READ")
                with conn.begin():
                    row = self._row(conn, table_id)
                    if int(row.last_undo) > revision:
                        raise StaleTableError(version, int(row.version))
                    items = read(conn, table_id, after=start, upto=stop)
            if len(items) != stop - start:
                raise StoreError(f"table {table_id!r} is missing rows {start + 1} to {stop}")
            return items

        return fetch

    def _advance_row(
        self, conn: Connection, row: TableRow, after: Table[Any], *, undo: bool
    ) -> int:
        """Compare and set the table's row: the new version, one revision on."""
        revision = int(row.revision) + 1
        values: dict[str, Any] = {
            "version": after.version,
            "actions": len(after.actions),
            "revision": revision,
        }
        if undo:
            values["last_undo"] = revision
        changed = conn.execute(
            update(TABLES)
            .where(TABLES.c.id == row.id, TABLES.c.revision == row.revision)
            .values(**values)
        ).rowcount
        if changed != 1:
            raise Conflict(row.id)
        return revision

    def _notify(self, conn: Connection, table_id: str, version: int) -> None:
        if is_postgresql(conn):
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": f"{table_id}:{version}:{self.origin}"},
            )

    def _stale(self, table_id: str, expect_version: int | None) -> RefereeError:
        current = self.version(table_id)
        return StaleTableError(current if expect_version is None else expect_version, current)

    def snapshot_count(self, table_id: str) -> int:
        """How many snapshots the table has (for tests and the benchmark)."""
        with translated(self.url), self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).where(SNAPSHOTS.c.table_id == table_id)
            ).scalar()
        return int(count or 0)


def _new_id() -> str:
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
