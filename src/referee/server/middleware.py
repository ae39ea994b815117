"""ASGI middleware: a cap on request bodies, JSON bodies only, and an access log without tokens.

- A body larger than ``max_body`` bytes is refused with 413 before the app reads it (by its
  ``Content-Length``, or by counting as it arrives when there is none).
- A request with a body must say ``Content-Type: application/json`` (415 otherwise): an HTML
  form from another site cannot send that without the browser asking first, which is one of the
  two guards against cross-site requests riding a seat's cookie (the other: SameSite=Strict).
- The access log (logger ``referee.server.access``) writes the method, the path, the status and
  the time taken. Never the query string, a header or a body: tokens travel in those. Run
  uvicorn with its own access log off (``referee serve`` does).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from referee.server.errors import error_body

__all__ = ["Guard"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access = logging.getLogger("referee.server.access")

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(status, code, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The middleware of the module's doc, around ``app``."""

    def __init__(self, app: ASGIApp, *, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [0]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            if scope["method"] in _BODY_METHODS:
                replay = await self._read_body(scope, receive, sending)
                if replay is None:
                    return
                receive = replay
            await self.app(scope, receive, sending)
        finally:
            if access.isEnabledFor(logging.INFO):
                access.info(
                    "%s %s %d %.1f ms",
                    scope["method"],
                    scope.get("path", ""),
                    status[0],
                    (time.perf_counter() - started) * 1000,
                )

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        length = headers.get("content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await _answer(send, 400, "bad_request", "Content-Length is not a number")
                return None
            if declared > self.max_body:
                await _answer(send, 413, "too_large", f"the body is over {self.max_body} bytes")
                return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _answer(send, 413, "too_large", f"the body is over {self.max_body} bytes")
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                await _answer(
                    send,
                    415,
                    "unsupported",
                    "a request body is JSON: Content-Type: application/json",
                )
                return None
        done = [False]

        async def replay() -> Message:
            if not done[0]:
                done[0] = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay
