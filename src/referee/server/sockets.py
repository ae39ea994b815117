"""The WebSocket protocol ``referee serve`` runs: uvicorn's own, with two changes.

**A connection left open is cut.** A socket closed by the server (a client that fell behind,
:data:`~referee.server.live.CLOSE_BEHIND`) may still hold bytes that its client never reads:
asyncio closes a transport only once its buffer is written out, so such a connection, and the
message in its buffer, would be held for as long as the client stays connected without reading.
Here, once the app is done with a socket and the close has had ``close_timeout`` seconds to
complete, a connection still open is cut (the transport aborted): its memory is returned at
once. A client that reads closes cleanly long before.

**A short message is sent as it is.** With permessage-deflate (RFC 7692) agreed, uvicorn
compresses every message. A push after an action is a few hundred bytes, which compression
shrinks by a few hundred more at a cost the server pays six times an action (some 6% of its
CPU under a convention's load, issue 29). A message under :data:`PLAIN_BELOW` bytes is sent
uncompressed — RFC 7692 lets a sender leave any message so, its RSV1 bit clear, and every
client reads it — as Node's ``ws`` does below its own 1 KiB threshold; a table's first message
(tens of KB) is still compressed.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode

__all__ = ["PLAIN_BELOW", "CuttingProtocol"]

PLAIN_BELOW = 1024
"""Messages shorter than this many bytes are sent uncompressed."""


class CuttingProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, cutting the connections a finished app leaves open and
    compressing only the messages worth it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn.available_extensions = [
            _ShortPlainFactory.of(f) if type(f) is ServerPerMessageDeflateFactory else f
            for f in self.conn.available_extensions or []
        ]

    async def run_asgi(self) -> None:
        await super().run_asgi()
        if not self.disconnected:
            self.loop.call_later(self.close_timeout, self._cut)

    def _cut(self) -> None:
        if not self.disconnected:
            self.transport.abort()


class _ShortPlain(PerMessageDeflate):
    """permessage-deflate, a message under :data:`PLAIN_BELOW` bytes sent as it is."""

    def encode(self, frame: Frame) -> Frame:
        whole = frame.opcode in (Opcode.TEXT, Opcode.BINARY) and frame.fin
        if whole and len(frame.data) < PLAIN_BELOW:
            return frame  # (RSV1 clear: not compressed)
        return super().encode(frame)


class _ShortPlainFactory(ServerPerMessageDeflateFactory):
    """uvicorn's factory, agreeing the same parameters, handing out :class:`_ShortPlain`."""

    @classmethod
    def of(cls, factory: ServerPerMessageDeflateFactory) -> _ShortPlainFactory:
        made = cls.__new__(cls)
        made.__dict__.update(factory.__dict__)
        return made

    def process_request_params(self, *args: Any, **kwargs: Any) -> Any:
        response, extension = super().process_request_params(*args, **kwargs)
        extension.__class__ = _ShortPlain
        return response, extension
