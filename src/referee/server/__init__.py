"""Referee's server: every seat of every table, live, over HTTP and WebSocket (issue 15).

FastAPI, run by uvicorn (``referee serve``), over the store (``referee.store``). Each request
is resolved to a seat of a table first (:mod:`referee.server.auth`); every answer for a seat is
built from ``observe`` (:mod:`referee.server.views`); the referee's seat alone may export the
record. Each seat's WebSocket is pushed what it observes whenever the table changes, in this
process or another one on the same PostgreSQL database (:mod:`referee.server.live`).

- :mod:`~referee.server.app`: :func:`create_app`, the app over a store.
- :mod:`~referee.server.routes`: the JSON API, resource by resource: the games and tables
  there, :mod:`~referee.server.seat_routes` and :mod:`~referee.server.play_routes` beside it,
  and what they share in :mod:`~referee.server.answers`.
- :mod:`~referee.server.errors`: one error body, and which status each error becomes.
- :mod:`~referee.server.middleware`: the body cap, JSON only, an access log without tokens.
- :mod:`~referee.server.settings`: limits and the database.

Nothing in Referee imports this package (import-linter checks it).
"""

from referee.server.app import app_from_env, create_app
from referee.server.settings import Settings

__all__ = ["Settings", "app_from_env", "create_app"]
