"""Logging for ``referee serve``: uvicorn's own loggers, and the server's, without noise.

>>> line = "ASGI callable returned without completing handshake."
>>> QuietDenials().filter(logging.makeLogRecord({"msg": line}))
False
"""

from __future__ import annotations

import logging

__all__ = ["QuietDenials"]


class QuietDenials(logging.Filter):
    """Drop uvicorn's error line for a WebSocket refused with an HTTP answer before its
    handshake (a 401 for a socket without a seat): the refusal is intended, not an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for that one line."""
        return record.getMessage() != "ASGI callable returned without completing handshake."
