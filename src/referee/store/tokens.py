"""Seat tokens: minted at random, stored only as a scrypt hash, compared in constant time.

A token is 32 random bytes, URL-safe: a join link carries it once. The database keeps
``scrypt(token, salt=the table's salt)``; :func:`matching_seat` hashes a presented token once
and compares it with every seat's hash (each comparison constant-time, and all of them made).

>>> salt = new_salt()
>>> token = new_token()
>>> matching_seat(token, salt, {"alice": hash_token(token, salt), "bob": None})
'alice'
>>> matching_seat("guess", salt, {"alice": hash_token(token, salt)}) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

__all__ = ["hash_token", "join_link", "matching_seat", "new_salt", "new_token"]

_SCRYPT: dict[str, int] = {"n": 2**12, "r": 8, "p": 1, "dklen": 32}
"""scrypt's cost: 4 MiB per hash. A token is 256 random bits, so no guessing is helped by a
slow hash; the hash is there so that a copy of the database holds no usable token."""

_MAX_TOKEN = 256


def join_link(base: str, table_id: str, token: str) -> str:
    """The link that seats a player: ``{base}/join/{table_id}#{token}`` (the token after ``#``
    never reaches a server log).

    >>> join_link("http://127.0.0.1:8000/", "wq4k7m2x9p", "abc")
    'http://127.0.0.1:8000/join/wq4k7m2x9p#abc'
    """
    return f"{base.rstrip('/')}/join/{table_id}#{token}"


def new_token() -> str:
    """A fresh seat token (43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def new_salt() -> bytes:
    """A fresh salt for a table's token hashes."""
    return secrets.token_bytes(16)


def hash_token(token: str, salt: bytes) -> bytes:
    """scrypt of ``token`` with ``salt``."""
    return hashlib.scrypt(token.encode("utf-8"), salt=salt, **_SCRYPT)


def matching_seat(token: str, salt: bytes, hashes: Mapping[str, bytes | None]) -> str | None:
    """The seat whose hash ``token`` matches, or ``None`` (every seat compared, in constant
    time each; a revoked seat, whose hash is ``None``, matches nothing)."""
    if not token or len(token) > _MAX_TOKEN:
        return None
    presented = hash_token(token, salt)
    found: str | None = None
    for seat, stored in hashes.items():
        if stored is not None and hmac.compare_digest(presented, stored):
            found = seat
    return found
