"""A short message is sent as it is (``referee.server.sockets``; issue 29): with
permessage-deflate agreed, a table's first message (tens of KB) comes compressed, and a push
after an action (a few hundred bytes) comes uncompressed, its RSV1 bit clear, as RFC 7692 lets
a sender leave any message. Read off the wire by a client of its own, frame by frame."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import zlib
from typing import Any

import httpx
import pytest

from referee.server.sockets import PLAIN_BELOW
from tests.server.test_processes import HOST, serving

pytestmark = pytest.mark.slow


class Wire:
    """A seat's WebSocket, offering permessage-deflate, read frame by frame."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        port = int(base.rsplit(":", 1)[1])
        self.sock = socket.create_connection((HOST, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /api/tables/{table_id}/live HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        assert b"permessage-deflate" in head.lower(), head
        self.inflate = zlib.decompressobj(-zlib.MAX_WBITS)

    def _exactly(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            assert chunk, "the server closed the socket"
            data += chunk
        return data

    def message(self) -> tuple[bool, dict[str, Any]]:
        """The next text message: (whether it came compressed, its JSON)."""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._exactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._exactly(8))
            payload = self._exactly(length)
            if first & 0x0F != 0x1:  # (a ping or the like)
                continue
            assert first & 0x80, "one frame a message"
            compressed = bool(first & 0x40)
            if compressed:
                payload = self.inflate.decompress(payload + b"\x00\x00\xff\xff")
            return compressed, json.loads(payload)


def test_a_tables_first_message_comes_compressed_and_a_short_push_as_it_is(
    tmp_path: Any,
) -> None:
    with serving(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as base:
        made = httpx.post(
            f"{base}/api/tables", json={"system": "kernel_toy", "setup": {}, "name": "t"}
        ).json()
        tokens = {s["id"]: s["token"] for s in made["seats"]}
        wire = Wire(base, made["id"], tokens["scarface"])
        compressed, opening = wire.message()
        assert compressed
        assert len(json.dumps(opening)) >= PLAIN_BELOW
        acted = httpx.post(
            f"{base}/api/tables/{made['id']}/actions",
            headers={"Authorization": f"Bearer {tokens['scarface']}"},
            json={"kind": "note", "params": {"text": "hi"}, "version": opening["version"]},
        )
        assert acted.status_code == 200, acted.text
        compressed, push = wire.message()
        assert push["version"] == acted.json()["version"]
        assert len(json.dumps(push)) < PLAIN_BELOW
        assert not compressed
        wire.sock.close()
