"""``referee serve``: the server (``referee.server``) on this machine, run by uvicorn.

    referee serve                                  # 127.0.0.1:8000, the default SQLite file
    referee serve --host 0.0.0.0 --port 8000       # for phones on the same network
    referee serve --database postgresql+psycopg://postgres@127.0.0.1:5432/test --workers 4
    referee serve --forwarded-allow-ips 127.0.0.1  # behind a reverse proxy on this machine

With SQLite, one process (``--workers 1``); with PostgreSQL, as many as you like: they share the
tables and tell each other of every change (LISTEN/NOTIFY). Uvicorn's access log is off: the
server's own (``referee.server.access``) never writes a token.

Behind a reverse proxy every request comes from the proxy's address, so every player would
share the one allowance of anonymous requests (joins, sign-in failures) an address has.
``--forwarded-allow-ips`` names the proxies whose ``X-Forwarded-For`` is believed (uvicorn's
proxy headers, off by default: a client could otherwise claim any address).
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from referee.cli.output import fail

__all__ = ["register"]


def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="The store's URL (default: REFEREE_DATABASE_URL, else SQLite)."),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Server processes (PostgreSQL only beyond 1).", min=1, max=64)
    ] = 1,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="The reverse proxies (addresses or networks, comma-separated, or '*') whose "
            "X-Forwarded-For names the player's address. Default: none (the direct peer)."
        ),
    ] = None,
) -> None:
    """Serve every table over HTTP and WebSocket until Ctrl-C."""
    import uvicorn

    from referee.core.errors import RefereeError

    if database is not None:
        os.environ["REFEREE_DATABASE_URL"] = database
    url = os.environ.get("REFEREE_DATABASE_URL")
    if workers > 1 and not (url or "").startswith(("postgresql", "postgres:")):
        fail("serve: several --workers need PostgreSQL (--database postgresql+psycopg://...)")
    try:
        from referee.store import open_store

        open_store(url).close()  # the schema migrated once, before any worker starts
    except RefereeError as error:
        fail(f"serve: {error}")
    import copy

    from uvicorn.config import LOGGING_CONFIG

    logging_config = copy.deepcopy(LOGGING_CONFIG)
    logging_config["loggers"]["referee.server"] = {
        "handlers": ["default"],
        "level": log_level.upper(),
    }
    # a socket refused before its handshake (no seat) is intended: not an error line
    logging_config["filters"] = {"denials": {"()": "referee.server.logs.QuietDenials"}}
    logging_config["handlers"]["default"]["filters"] = ["denials"]
    typer.echo(f"Referee serves on http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    uvicorn.run(
        "referee.server.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,
        log_level=log_level,
        log_config=logging_config,
        ws_max_size=64 * 1024,
        ws="referee.server.sockets:CuttingProtocol",  # a closed socket's memory returned
        server_header=False,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def register(app: typer.Typer) -> None:
    """Add ``referee serve`` (a group run without a subcommand, so that Typer keeps the word
    ``serve`` when it is the only command loaded)."""
    group = typer.Typer(invoke_without_command=True, add_completion=False)
    group.callback()(serve)
    app.add_typer(group, name="serve", help="Serve every table over HTTP and WebSocket.")
