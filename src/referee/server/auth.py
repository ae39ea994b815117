"""Who is asking: a seat of a table, from its token (a cookie or a bearer header), rate-limited.

A seat's token reaches the server in one of two ways:

- **A cookie**, ``referee_seat_<table id>``, HttpOnly and SameSite=Strict (Secure over HTTPS),
  set by ``POST /api/tables/{id}/join`` when a browser hands over the token of its join link.
  One cookie per table, so a browser may sit at several tables.
- **A bearer header**, ``Authorization: Bearer <token>``, for scripts. It wins over a cookie.

Every route that names a table resolves the caller to a seat of *that* table before anything
else, and answers 401 the same way whether the table does not exist, the token is unknown, was
revoked or belongs to another table. Tokens are checked by the store (which keeps only their
hashes); a token once checked is remembered for ``seat_cache_seconds`` under its SHA-256, never
in the clear, and forgotten at once when the seat is revoked. Nothing here logs a token.

>>> limiter = RateLimiter(rate=1.0, burst=2)
>>> [limiter.allow("alice", now=0.0) for _ in range(3)]
[True, True, False]
>>> limiter.allow("alice", now=1.0)
True
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from referee.core.events import REFEREE
from referee.server.errors import ApiError, unauthorized
from referee.server.ports import TableStore

__all__ = [
    "COOKIE_PREFIX",
    "TABLE_ID",
    "Caller",
    "RateLimiter",
    "SeatResolver",
    "cookie_name",
    "token_from",
]

COOKIE_PREFIX = "referee_seat_"
"""A seat's cookie is named this followed by the table's id."""

TABLE_ID = r"^[A-Za-z0-9_\-]{1,64}$"
"""What a table id looks like in a path (anything else is not a table of this server)."""

_TABLE_ID = re.compile(TABLE_ID)
_MAX_TOKEN = 512


def cookie_name(table_id: str) -> str:
    """The name of the cookie that holds a seat's token at ``table_id``."""
    return f"{COOKIE_PREFIX}{table_id}"


def token_from(
    headers: Mapping[str, str], cookies: Mapping[str, str], table_id: str
) -> tuple[str | None, str]:
    """The token a request carries for ``table_id`` and how: ``(token, "bearer" | "cookie")``."""
    header = headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip(), "bearer"
        return None, "bearer"
    return cookies.get(cookie_name(table_id)), "cookie"


def token_key(token: str) -> str:
    """The SHA-256 of a token: how the server remembers one without keeping it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Caller:
    """A request resolved to a seat of a table.

    ``via`` is how the token came (``"cookie"`` or ``"bearer"``).
    """

    table_id: str
    seat: str
    via: str

    @property
    def is_referee(self) -> bool:
        """True for the referee's seat."""
        return self.seat == REFEREE


class SeatResolver:
    """Tokens to seats, through the store, remembered for a while under their hashes."""

    def __init__(self, store: TableStore, ttl: float, *, size: int = 10_000) -> None:
        self._store = store
        self._ttl = ttl
        self._size = size
        self._lock = threading.Lock()
        self._known: OrderedDict[tuple[str, str], tuple[str, float]] = OrderedDict()

    @staticmethod
    def key_of(token: str | None) -> str | None:
        """The :func:`token_key` of a token that may open a seat (``None`` for one that opens
        none: absent, empty or too long): taken once a request, and handed to
        :meth:`remembered` and :meth:`seat` (issue 29: at most one hash a request)."""
        if token is None or not token or len(token) > _MAX_TOKEN:
            return None
        return token_key(token)

    def remembered(self, table_id: str, token: str | None, hashed: str | None = None) -> str | None:
        """The seat ``token`` was found to open at ``table_id`` a moment ago, if it was: no
        store, no waiting (``None``: ask :meth:`seat`). ``hashed``: the token's
        :meth:`key_of`, if the caller took it."""
        if token is None or not token or len(token) > _MAX_TOKEN:
            return None
        key = (table_id, hashed if hashed is not None else token_key(token))
        with self._lock:
            known = self._known.get(key)
            if known is not None and known[1] > time.monotonic():
                self._known.move_to_end(key)
                return known[0]
        return None

    def seat(self, table_id: str, token: str | None, hashed: str | None = None) -> str | None:
        """The seat ``token`` opens at ``table_id``; ``None`` for any token that opens none.
        ``hashed``: the token's :func:`token_key`, from a caller that keeps it (a live socket
        checks its token before each push: one hash a socket, not one a push)."""
        if token is None or not token or len(token) > _MAX_TOKEN:
            return None
        if not _TABLE_ID.match(table_id):
            return None
        key = (table_id, hashed if hashed is not None else token_key(token))
        now = time.monotonic()
        with self._lock:
            known = self._known.get(key)
            if known is not None and known[1] > now:
                self._known.move_to_end(key)
                return known[0]
        try:
            seat = self._store.seat_for_token(table_id, token)
        except Exception as error:
            if type(error).__name__ == "NoSuchTable":
                return None
            raise
        if seat is not None and self._ttl > 0:
            with self._lock:
                self._known[key] = (seat, now + self._ttl)
                while len(self._known) > self._size:
                    self._known.popitem(last=False)
        return seat

    def forget_all(self) -> None:
        """Forget every token (revocations may have been missed)."""
        with self._lock:
            self._known.clear()

    def forget(self, table_id: str, seat: str | None = None) -> None:
        """Forget the tokens remembered for ``seat`` at ``table_id`` (every seat if ``None``)."""
        with self._lock:
            for key in [k for k, (s, _) in self._known.items() if k[0] == table_id]:
                if seat is None or self._known[key][0] == seat:
                    del self._known[key]

    def caller(self, table_id: str, token: str | None, via: str) -> Caller:
        """The caller, or the one 401 (see the module's doc)."""
        seat = self.seat(table_id, token)
        if seat is None:
            raise unauthorized()
        return Caller(table_id, seat, via)


class RateLimiter:
    """A token bucket per key: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, *, size: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self._size = size
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one request from ``key``'s bucket; ``False`` if it is empty."""
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            allowed = tokens >= 1.0
            if allowed:
                tokens -= 1.0
            self._buckets[key] = (tokens, now)
            self._buckets.move_to_end(key)
            while len(self._buckets) > self._size:
                self._buckets.popitem(last=False)
            return allowed

    def check(self, key: str) -> None:
        """:meth:`allow`, or a 429 :class:`ApiError`."""
        if not self.allow(key):
            retry = max(1, round(1 / self.rate)) if self.rate > 0 else 1
            raise ApiError(
                429,
                "rate_limited",
                "too many requests: slow down",
                headers={"Retry-After": str(retry)},
            )
