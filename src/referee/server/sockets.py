"""The WebSocket protocol ``referee serve`` runs: uvicorn's own, with one change.

A socket closed by the server (a client that fell behind, :data:`~referee.server.live.CLOSE_BEHIND`)
may still hold bytes that its client never reads: asyncio closes a transport only once its
buffer is written out, so such a connection, and the message in its buffer, would be held for
as long as the client stays connected without reading. Here, once the app is done with a
socket and the close has had ``close_timeout`` seconds to complete, a connection still open is
cut (the transport aborted): its memory is returned at once. A client that reads closes
cleanly long before.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["CuttingProtocol"]


class CuttingProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, cutting the connections a finished app leaves open."""

    async def run_asgi(self) -> None:
        await super().run_asgi()
        if not self.disconnected:
            self.loop.call_later(self.close_timeout, self._cut)

    def _cut(self) -> None:
        if not self.disconnected:
            self.transport.abort()
