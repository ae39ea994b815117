"""The anchor of issue 29's server benchmark: the least a FastAPI + uvicorn server must do for
one action at a live table, to compare Referee's act route against (``bench/convention.py``).

Its act route does the same transaction as Referee's: read the table's version (409 when the
client's is not it), insert the action and its event rows, commit, and push a small message to
each socket listening at the table. Nothing else: no rules, no observation per seat, no tags.
It speaks Referee's URLs and answers in the same shape where the load tool reads them, so one
load tool drives both servers:

- ``POST /api/tables`` ``{"players": {seat: [...]}}`` → 201 ``{"id", "version", "seats":
  [{"id", "token"}]}``;
- ``POST /api/tables/{id}/actions`` (``Authorization: Bearer <token>``) ``{"kind", "params",
  "version"}`` → 200 ``{"table", "version"}``, 409 when the table moved on, 401 for no seat;
- ``GET /api/tables/{id}/live`` (WebSocket, the same bearer token): first
  ``{"type": "observation", "version": v}``, then one ``{"type": "event", "version": v,
  "event": {...}}`` per action;
- ``GET /api/health`` → ``{"ok": true}``.

On the same databases as Referee (SQLite in WAL mode with ``synchronous=FULL`` and ``BEGIN
IMMEDIATE``, writes serialised by one lock in the process; PostgreSQL with ``SELECT ... FOR
UPDATE``), in tables of its own (``anchor_tables``, ``anchor_actions``, ``anchor_events``,
``anchor_seats``), so it never touches Referee's. Run it alone with

    .venv/bin/python bench/anchor_server.py --port 8001 --database sqlite:////tmp/anchor.sqlite3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import secrets
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from sqlalchemy import Connection, Engine, create_engine, event, text

__all__ = ["SCHEMA", "Anchor", "create_app", "main", "make_engine"]

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS anchor_tables (id VARCHAR(32) PRIMARY KEY, version INTEGER NOT "
    "NULL, actions INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS anchor_seats (table_id VARCHAR(32) NOT NULL, seat VARCHAR(64) "
    "NOT NULL, token_hash VARCHAR(64) NOT NULL, PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS anchor_actions (table_id VARCHAR(32) NOT NULL, number INTEGER "
    "NOT NULL, seat VARCHAR(64) NOT NULL, kind VARCHAR(64) NOT NULL, params TEXT NOT NULL, "
    "PRIMARY KEY (table_id, number))",
    "CREATE TABLE IF NOT EXISTS anchor_events (table_id VARCHAR(32) NOT NULL, number INTEGER "
    "NOT NULL, cause INTEGER NOT NULL, kind VARCHAR(64) NOT NULL, payload TEXT NOT NULL, "
    "PRIMARY KEY (table_id, number))",
]
"""The anchor's own tables (never Referee's ``referee_*``)."""


def make_engine(url: str) -> Engine:
    """An engine set up as Referee's store sets up its own (``referee.store.engine``): SQLite in
    WAL mode, ``synchronous=FULL``, a busy timeout and ``BEGIN IMMEDIATE`` for every
    transaction; PostgreSQL through psycopg 3. The anchor's tables are made if missing."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 60})

        @event.listens_for(engine, "connect")
        def _connect(connection: Any, _record: Any) -> None:
            connection.isolation_level = None
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=60000"):
                connection.execute(f"PRAGMA {pragma}")

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    else:
        engine = create_engine(url, pool_size=10, max_overflow=10)
    with engine.begin() as conn:
        for statement in SCHEMA:
            conn.execute(text(statement))
    return engine


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Anchor:
    """The anchor's state: its database, the seats it knows, and the sockets at each table."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self.write_lock = threading.Lock()  # SQLite: writers queue here, not in the busy handler
        self.seats: dict[tuple[str, str], str] = {}  # (table, token hash) -> seat
        self.sockets: dict[str, dict[WebSocket, asyncio.Queue[str]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    @contextlib.contextmanager
    def writing(self) -> Iterator[Connection]:
        """One write transaction (behind the in-process lock on SQLite)."""
        lock = self.write_lock if self.is_sqlite else contextlib.nullcontext()
        with lock, self.engine.begin() as conn:
            yield conn

    def seat_of(self, table_id: str, authorization: str | None) -> str | None:
        """The seat a bearer token opens at ``table_id`` (known here, or read from the store)."""
        if not authorization or not authorization.startswith("Bearer "):
            return None
        digest = _hash(authorization.removeprefix("Bearer "))
        seat = self.seats.get((table_id, digest))
        if seat is None:
            with self.engine.connect() as conn:
                seat = conn.execute(
                    text("SELECT seat FROM anchor_seats WHERE table_id = :t AND token_hash = :h"),
                    {"t": table_id, "h": digest},
                ).scalar()
            if seat is not None:
                self.seats[(table_id, digest)] = seat
        return seat

    def create(self, players: dict[str, Any]) -> dict[str, Any]:
        """A new table with a token for each seat."""
        table_id = secrets.token_hex(5)
        tokens = {seat: secrets.token_urlsafe(24) for seat in players}
        with self.writing() as conn:
            conn.execute(
                text("INSERT INTO anchor_tables (id, version, actions) VALUES (:id, 0, 0)"),
                {"id": table_id},
            )
            conn.execute(
                text("INSERT INTO anchor_seats VALUES (:t, :s, :h)"),
                [{"t": table_id, "s": s, "h": _hash(k)} for s, k in tokens.items()],
            )
        return {
            "id": table_id,
            "version": 0,
            "seats": [{"id": s, "token": k} for s, k in tokens.items()],
        }

    def act(self, table_id: str, seat: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """Read the version, insert the action and its event, commit (``None``: stale), then
        push the event to the table's sockets."""
        kind = str(body.get("kind", ""))
        params = body.get("params") or {}
        dice = [random.randint(1, 6) for _ in range(int(params.get("dice", 2)))]
        with self.writing() as conn:
            lock = "" if self.is_sqlite else " FOR UPDATE"
            row = conn.execute(
                text(f"SELECT version, actions FROM anchor_tables WHERE id = :id{lock}"),
                {"id": table_id},
            ).first()
            if row is None or row.version != body.get("version", row.version):
                return None
            version, number = row.version + 1, row.actions + 1
            payload = {"actor": seat, "dice": dice, "total": sum(dice)}
            conn.execute(
                text("UPDATE anchor_tables SET version = :v, actions = :a WHERE id = :id"),
                {"v": version, "a": number, "id": table_id},
            )
            conn.execute(
                text("INSERT INTO anchor_actions VALUES (:t, :n, :s, :k, :p)"),
                {"t": table_id, "n": number, "s": seat, "k": kind, "p": json.dumps(params)},
            )
            conn.execute(
                text("INSERT INTO anchor_events VALUES (:t, :n, :c, :k, :p)"),
                {
                    "t": table_id,
                    "n": version,
                    "c": number,
                    "k": f"{kind}.rolled",
                    "p": json.dumps(payload),
                },
            )
        message = {
            "type": "event",
            "version": version,
            "event": {"number": version, "kind": f"{kind}.rolled", "payload": payload},
        }
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.push, table_id, json.dumps(message))
        return {"table": table_id, "version": version}

    def version(self, table_id: str) -> int | None:
        """The table's version, ``None`` for no such table."""
        with self.engine.connect() as conn:
            found = conn.execute(
                text("SELECT version FROM anchor_tables WHERE id = :id"), {"id": table_id}
            ).scalar()
        return None if found is None else int(found)

    def push(self, table_id: str, message: str) -> None:
        """Queue ``message`` for every socket at the table (each has its own writer)."""
        for queue in self.sockets.get(table_id, {}).values():
            queue.put_nowait(message)


def create_app(url: str) -> FastAPI:
    """The anchor's app over the database at ``url``."""
    anchor = Anchor(url)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anchor.loop = asyncio.get_running_loop()
        yield
        anchor.engine.dispose()

    app = FastAPI(lifespan=lifespan)
    app.state.anchor = anchor

    @app.get("/api/health")
    def health() -> dict[str, bool]:
        return {"ok": True}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        body = await request.json()
        return anchor.create(dict(body.get("players") or {"p1": []}))

    @app.post("/api/tables/{table_id}/actions")
    def act(table_id: str, request: Request, body: dict[str, Any]) -> JSONResponse:
        seat = anchor.seat_of(table_id, request.headers.get("authorization"))
        if seat is None:
            return JSONResponse({"error": "unauthorized"}, status_code=401)
        done = anchor.act(table_id, seat, body)
        if done is None:
            return JSONResponse({"error": "stale"}, status_code=409)
        return JSONResponse(done)

    @app.websocket("/api/tables/{table_id}/live")
    async def live(websocket: WebSocket, table_id: str) -> None:
        authorization = websocket.headers.get("authorization")
        seat = await asyncio.to_thread(anchor.seat_of, table_id, authorization)
        if seat is None:
            await websocket.close(4401)
            return
        await websocket.accept()
        queue: asyncio.Queue[str] = asyncio.Queue()
        anchor.sockets.setdefault(table_id, {})[websocket] = queue
        version = await asyncio.to_thread(anchor.version, table_id)
        queue.put_nowait(json.dumps({"type": "observation", "version": version}))

        async def write() -> None:
            while True:
                await websocket.send_text(await queue.get())

        writer = asyncio.create_task(write())
        try:
            with contextlib.suppress(WebSocketDisconnect):  # the client went: stop writing
                while True:
                    await websocket.receive_text()
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            anchor.sockets[table_id].pop(websocket, None)
            if not anchor.sockets[table_id]:
                del anchor.sockets[table_id]

    return app


def main() -> None:
    """Serve the anchor with the uvicorn settings ``referee serve`` uses."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--database", required=True, help="sqlite:///file or postgresql://...")
    options = parser.parse_args()
    uvicorn.run(
        create_app(options.database),
        host=options.host,
        port=options.port,
        access_log=False,
        log_level="warning",
        ws_max_size=64 * 1024,
        server_header=False,
    )


if __name__ == "__main__":
    main()
