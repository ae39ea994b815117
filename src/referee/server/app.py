"""The app: :func:`create_app` builds it over a store; :func:`app_from_env` is what uvicorn
imports in each process ``referee serve`` starts.

Room is left for the web table (``referee.web``, a later package): the JSON API lives under
``/api``, so pages and static files can be mounted at ``/`` by :func:`create_app`'s ``mount``
hook without touching a route here.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from fastapi import FastAPI

from referee.server.errors import install_handlers
from referee.server.listener import Listener
from referee.server.live import Hub
from referee.server.middleware import Guard
from referee.server.ports import TableStore
from referee.server.routes import router
from referee.server.settings import Settings
from referee.server.state import ServerState, attach, state_of

__all__ = ["API_VERSION", "YOUNG_COLLECTION", "app_from_env", "create_app", "steady_collector"]

API_VERSION = "1"

log = logging.getLogger("referee.server")

DESCRIPTION = """\
Referee's tables over HTTP and WebSocket. Every route that names a table answers only a seat of
that table (a cookie from `POST /api/tables/{id}/join`, or `Authorization: Bearer <token>`), and
gives each seat only what `observe` gives it. Errors have one body: `{"error": {...}}`.
Live updates: `GET /api/tables/{id}/live` as a WebSocket. See docs/server.md.
"""


def _open_store(url: str | None) -> TableStore:
    from referee.store import open_store

    store: TableStore = open_store(url=url)
    return store


def create_app(
    store: TableStore | None = None,
    settings: Settings | None = None,
    *,
    mount: Callable[[FastAPI], None] | None = None,
) -> FastAPI:
    """The server over ``store`` (opened from ``settings.database_url`` if not given).

    ``mount``, if given, is called with the app once the API's routes are in: the place for the
    web table to add its pages and static files.
    """
    settings = settings or Settings()
    url = settings.database_url or os.environ.get("REFEREE_DATABASE_URL")
    if store is None:
        store = _open_store(url)
    state = ServerState(store, settings, _url_text(getattr(store, "url", None)) or url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        current = state_of(app)
        current.hub.bind(asyncio.get_running_loop())
        tasks: list[asyncio.Task[Any]] = []
        if current.listens and current.postgres_url is not None:
            listener = Listener(
                current.postgres_url,
                cast(Hub, current.notifications),  # the table cache hears each version first
                current.revoked_elsewhere,
                on_connected=current.listening,
                origin=current.store.origin,
            )
            tasks.append(asyncio.create_task(listener.run()))
            app.state.listener = listener
        elif settings.poll_seconds > 0:
            tasks.append(asyncio.create_task(_poll(current, settings.poll_seconds)))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    app = FastAPI(
        title="Referee",
        version=API_VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # Swagger UI loads its scripts from a CDN: nothing here does
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    attach(app, state)
    install_handlers(app)
    app.include_router(router)
    if mount is not None:
        mount(app)
    app.add_middleware(Guard, max_body=settings.max_body)
    return app


def _url_text(url: Any) -> str | None:
    if url is None:
        return None
    render = getattr(url, "render_as_string", None)  # a SQLAlchemy URL hides its password
    return str(render(hide_password=False) if callable(render) else url)


async def _poll(state: ServerState, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            await state.hub.poll()
        except Exception as error:
            log.warning("polling live tables failed: %s", error)


YOUNG_COLLECTION = 20_000
"""Objects allocated (less those freed) between two passes of the cycle collector over the
youngest objects in a server process; Python's default is 700."""


def steady_collector() -> None:
    """Set the cycle collector of a server process for serving (issue 29): what start-up built
    (the games, the app, its routes and schemas: some 200,000 objects) is frozen out of every
    later pass, since it lives as long as the process; and the youngest objects are collected
    every :data:`YOUNG_COLLECTION` allocations rather than every 700. A push builds a few
    thousand short-lived dicts that reference counting frees anyway, so under the default the
    collector ran about once an action, and each pass over the old objects took 100–200 ms:
    11–14% of the server's CPU under the convention benchmark (docs/performance.md)."""
    gc.collect()
    gc.freeze()
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_COLLECTION), middle, old)


def app_from_env() -> FastAPI:
    """The app with :meth:`Settings.from_env` (uvicorn's factory in ``referee serve``), in a
    process whose collector is set for serving (:func:`steady_collector`)."""
    settings = Settings.from_env()
    for module in filter(None, os.environ.get("REFEREE_SERVER_IMPORT", "").split(",")):
        __import__(module)  # a plug-in game registered by import (tests, the benchmark)
    from referee.web import mount  # the web table's pages at `/` (docs/web.md)

    app = create_app(settings=settings, mount=mount)
    steady_collector()
    return app
