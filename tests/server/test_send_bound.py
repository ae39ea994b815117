"""A bounded send per socket (docs/server.md, "Live updates"): a socket whose client does not
read is closed with 4408 once a message to it has waited ``send_timeout_seconds``, so that a
hundred of them on an old table hold the server's memory within a bound, and every reference
the hub held for them is dropped once they are gone."""

from __future__ import annotations

import base64
import os
import socket
import struct
import threading
import time
from pathlib import Path

import httpx
import pytest

from referee.core import Action
from referee.core.table import Table
from referee.dice.sources import RandomSource
from referee.store import open_store
from tests.core.toy_procedure import PROCEDURE
from tests.server.test_processes import HOST, serving

#: A real server process, a table of thousands of events and a hundred sockets: `make test`.
pytestmark = pytest.mark.slow

SOCKETS = 100
EVENTS = 3000
GROWTH_BOUND = 150 * 1024 * 1024
"""What a hundred never-reading sockets may add to the server's resident memory (the issue's
goal is 50 MB; the bound is generous so that a loaded machine does not fail it, and still far
below the 1.4 GB that 70 such sockets once cost)."""


def old_table(url: str) -> tuple[str, dict[str, str]]:
    """A kernel toy table of :data:`EVENTS` events, stored; its id and tokens."""
    table = Table.start(PROCEDURE, {}, system="kernel_toy")
    dice = RandomSource(seed=29)
    while table.version < EVENTS:
        table = table.act(Action("krockin", "rally", {}), dice, seat="krockin")
    store = open_store(url)
    try:
        created = store.import_record(table.to_record(), name="old")
    finally:
        store.close()
    return created.id, dict(created.tokens)


def server_pid(port: int) -> int:
    """The process of ``referee serve --port PORT``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in args and b"--port" in args and str(port).encode() in args:
            return int(entry.name)
    raise AssertionError(f"no referee serve on port {port}")


def rss(pid: int) -> int:
    """The resident memory of ``pid``, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def never_reading(port: int, table_id: str, token: str) -> socket.socket:
    """A WebSocket (``since=0``) opened by hand, its upgrade answered, then never read."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((HOST, port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /api/tables/{table_id}/live?since=0 HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: nothing of the first message is read
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


def close_code(raw: socket.socket, seconds: float) -> int | None:
    """Read ``raw`` to its end: the code of the close frame the server sent, if any."""
    raw.settimeout(seconds)
    data = b""
    try:
        while chunk := raw.recv(1 << 16):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            (length,) = struct.unpack("!H", data[at : at + 2])
            at += 2
        elif length == 127:
            (length,) = struct.unpack("!Q", data[at : at + 8])
            at += 8
        if opcode == 0x8 and length >= 2:
            return int(struct.unpack("!H", data[at : at + 2])[0])
        at += length
    return None


def test_sockets_that_never_read_are_closed_and_their_memory_bound(sqlite_url: str) -> None:
    table_id, tokens = old_table(sqlite_url)
    seats = ["referee", "scarface", "krockin"]
    with serving(
        sqlite_url, send_timeout_seconds="3", sockets_per_seat="200", sockets_per_address="400"
    ) as base:
        port = int(base.rsplit(":", 1)[1])
        pid = server_pid(port)
        referee = {"Authorization": f"Bearer {tokens['referee']}"}
        version = 0
        for seat in seats:  # the table read once by every seat, as before the flood
            read = httpx.get(
                f"{base}/api/tables/{table_id}",
                headers={"Authorization": f"Bearer {tokens[seat]}"},
                timeout=30,
            )
            assert read.status_code == 200
            version = read.json()["version"]
        before = rss(pid)
        sockets = [never_reading(port, table_id, tokens[seats[i % 3]]) for i in range(SOCKETS)]
        # one more that reads late: it is sent the close frame once it reads
        late = never_reading(port, table_id, tokens["scarface"])
        code: list[int | None] = []
        reader = threading.Thread(target=lambda: (time.sleep(4), code.append(close_code(late, 20))))
        peak = rss(pid)
        # five undos: each rewrites the log, and every socket is due all of it again, more than
        # the kernel's buffers hold: the server's sends stall
        for _ in range(5):
            undone = httpx.post(
                f"{base}/api/tables/{table_id}/undo",
                headers=referee,
                json={"version": version},
                timeout=30,
            )
            assert undone.status_code == 200, undone.text
            version = undone.json()["version"]
            peak = max(peak, rss(pid))
        reader.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            peak = max(peak, rss(pid))
            if httpx.get(f"{base}/api/health").json()["live_sockets"] == 0:
                break
            time.sleep(0.2)
        reader.join(30)
        assert peak - before < GROWTH_BOUND, (before, peak)
        for raw in [*sockets, late]:
            raw.close()
        health = httpx.get(f"{base}/api/health").json()
        # every socket fell behind and was closed; the hub holds nothing of the table
        assert health["live_sockets"] == 0 and health["live_tables"] == 0, health
        assert health["observations_kept"] == 0, health
        assert code == [4408]
