"""How the hub closes a live socket (:mod:`referee.server.live`): the close codes the page
understands, and a close that gives up on a client that does not read."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket, WebSocketState

__all__ = [
    "CLOSE_BEHIND",
    "CLOSE_FLOODED",
    "CLOSE_GRACE_SECONDS",
    "CLOSE_REVOKED",
    "MESSAGES_PER_MINUTE",
    "close",
]

CLOSE_REVOKED = 4401
"""The close code of a socket whose seat was revoked (or whose token no longer opens it)."""

CLOSE_BEHIND = 4408
"""The close code of a socket that fell behind: a message to it was not sent within the send
timeout (its client does not read). The page reconnects at once and catches up by version."""

CLOSE_GRACE_SECONDS = 10.0
"""How long the close frame of a socket that fell behind may wait for its client to read what
is before it; then the connection is cut (:mod:`referee.server.sockets`)."""

CLOSE_FLOODED = 1008
"""The close code (policy violation) of a socket that sent more than :data:`MESSAGES_PER_MINUTE`."""

MESSAGES_PER_MINUTE = 120
"""What a client may send on its socket in a minute (pings, a few a minute, are all it needs)."""


async def close(socket: WebSocket, code: int, timeout: float = 10.0) -> None:
    """Close ``socket`` with ``code``; a close frame that cannot be written within ``timeout``
    (a client that does not read) is given up on."""
    with contextlib.suppress(Exception):
        if socket.application_state == WebSocketState.CONNECTED:
            await asyncio.wait_for(socket.close(code), timeout)
