"""What a server is started with: the database, the limits, the cookie.

Every field has a default that suits one machine on a home network; :meth:`Settings.from_env`
reads the same fields from ``REFEREE_*`` environment variables, which is how the processes
``referee serve --workers N`` starts (uvicorn imports the app in each) learn them.

>>> Settings().max_body
262144
>>> Settings.from_env({"REFEREE_SERVER_RATE": "5", "REFEREE_DATABASE_URL": "sqlite:///x.db"}).rate
5.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """A server's settings.

    - ``database_url``: the store's URL (``None``: ``REFEREE_DATABASE_URL``, else the store's
      default SQLite file).
    - ``max_body``: the largest request body accepted, in bytes (413 beyond).
    - ``rate`` / ``burst``: requests per second a seat may make on average, and at once (429
      beyond); ``anonymous_rate`` / ``anonymous_burst`` the same per client address, for the
      routes that come before a seat is known (create a table, join) and for failed sign-ins.
    - ``seat_cache_seconds``: how long a token once checked is trusted without asking the store
      again (checking one costs a scrypt hash). A revocation or a new token, through any process
      of the same database, ends it at once anyway; so does a dropped LISTEN connection.
    - ``poll_seconds``: how often a table with live seats is checked for changes made by another
      program (the command line) when the database cannot notify (SQLite).
    - ``cookie_max_age``: how long a seat's cookie lasts, in seconds.
    - ``listen``: use PostgreSQL's LISTEN/NOTIFY (``None``: whenever the database is PostgreSQL).
    - ``sockets_per_seat`` / ``sockets_per_address``: how many live sockets one seat of a table,
      and one client address, may hold open in this process at once (a phone and a laptop and a
      few stale tabs; a venue's players behind one address): a socket beyond is refused (429).
    - ``send_timeout_seconds``: how long one message to a live socket may take to be sent; a
      socket whose client does not read it in time is closed with code 4408 ("fell behind"),
      so that it holds at most one message in the server's memory.
    """

    database_url: str | None = None
    max_body: int = 256 * 1024
    rate: float = 20.0
    burst: int = 60
    anonymous_rate: float = 2.0
    anonymous_burst: int = 30
    seat_cache_seconds: float = 600.0
    poll_seconds: float = 1.0
    cookie_max_age: int = 30 * 24 * 3600
    listen: bool | None = None
    sockets_per_seat: int = 8
    sockets_per_address: int = 256
    send_timeout_seconds: float = 10.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``REFEREE_SERVER_<FIELD>`` variables (and ``REFEREE_DATABASE_URL``)."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for spec in fields(cls):
            key = f"REFEREE_SERVER_{spec.name.upper()}"
            if spec.name == "database_url":
                key = "REFEREE_DATABASE_URL"
            raw = env.get(key)
            if raw is None or raw == "":
                continue
            default = getattr(cls, spec.name)
            if spec.name == "database_url":
                values[spec.name] = raw
            elif spec.name == "listen" or isinstance(default, bool):
                values[spec.name] = raw.lower() in ("1", "true", "yes", "on")
            elif isinstance(default, int):
                values[spec.name] = int(raw)
            else:
                values[spec.name] = float(raw)
        return cls(**values)  # type: ignore[arg-type]

    def to_env(self) -> dict[str, str]:
        """The environment variables that :meth:`from_env` reads back into these settings."""
        env: dict[str, str] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if value is None:
                continue
            key = f"REFEREE_SERVER_{spec.name.upper()}"
            if spec.name == "database_url":
                key = "REFEREE_DATABASE_URL"
            env[key] = str(value).lower() if isinstance(value, bool) else str(value)
        return env
