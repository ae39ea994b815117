"""The web table: the pages a browser opens, over the server's JSON API (docs/web.md).

:func:`mount` adds them to the server's app (``create_app(..., mount=mount)``):

- ``/`` — Home: the tables this browser has joined; a table created from a setup (YAML pasted
  or uploaded), with every seat's join link and QR code.
- ``/join/{table}`` — the join link's landing: the token after ``#`` is posted to
  ``POST /api/tables/{table}/join`` (which sets the seat's cookie) and the page moves on to the
  table.
- ``/table/{table}`` — the table as this seat sees it.

A page is a shell: it carries no table's data. Its script reads everything from the API —
``GET /api/tables/{table}`` and the WebSocket ``/api/tables/{table}/live`` — so every byte a seat
receives about a table is what ``observe`` gives that seat. Two helpers take JSON bodies and
answer from nothing but the body: ``POST /web/yaml`` (a setup file read as JSON) and
``POST /web/qr`` (a QR code as SVG). Every asset is served from ``/static``; nothing is fetched
from elsewhere.

>>> from fastapi import FastAPI
>>> app = FastAPI()
>>> mount(app)
>>> sorted(r.path for r in app.routes if r.path in {"/", "/join/{table_id}", "/table/{table_id}"})
['/', '/join/{table_id}', '/table/{table_id}']
"""

from __future__ import annotations

from referee.web.pages import mount

__all__ = ["mount"]
