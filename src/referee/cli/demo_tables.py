"""``referee play``: the five demo tables, served for a room (what ``make run`` runs).

    referee play                      # http://127.0.0.1:8000/, links for this machine
    referee play --host 0.0.0.0       # phones on the same network join by the QR codes

The first run creates one demo table per game in the database (``REFEREE_DATABASE_URL``, else
the default SQLite file) from the game's demo setup (``examples/<game>/...``) and keeps every
seat's token in ``demo-tables.json`` beside the default database (readable by this user only:
the store keeps only hashes). Later runs reuse the same tables and links. Then every seat's join
link is printed, with a QR code, and ``referee serve`` runs until Ctrl-C.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["DEMOS", "demo_tables", "register"]

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DEMO_LIST = EXAMPLES / "demo-tables.yaml"
"""Which scenario file seats each game's demo table: data, not code, so a game added needs no
change here."""


def _demos() -> dict[str, str]:
    from referee.core.loader import load_file

    listed = load_file(DEMO_LIST)
    if not isinstance(listed, dict) or not all(isinstance(v, str) for v in listed.values()):
        raise ValueError(f"{DEMO_LIST}: a mapping of game names to scenario files")
    return {str(game): str(file) for game, file in listed.items()}


DEMOS: dict[str, str] = _demos()
"""The demo of each game: a scenario file under ``examples/`` (its setup and players)."""


def _tokens_file() -> Path:
    from referee.store.engine import default_sqlite_path

    return default_sqlite_path().parent / "demo-tables.json"


def demo_tables(store: Any, url: str, path: Path | None = None) -> list[dict[str, Any]]:
    """The demo tables in ``store`` (created the first time), each
    ``{"id", "system", "name", "seats": {seat: token}}``; the tokens are kept in ``path``."""
    from referee.core.loader import load_file

    path = path or _tokens_file()
    try:
        kept: dict[str, Any] = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        kept = {}
    known = {info.id for info in store.tables()}
    tables = kept.get(url, {})
    changed = False
    for game, example in DEMOS.items():
        entry = tables.get(game)
        if entry is not None and entry["id"] in known:
            continue
        data = load_file(EXAMPLES / example)
        name = f"Demo: {data.get('title', game)}"
        created = store.create_table(
            game,
            data["setup"],
            name=name,
            players=data.get("players"),
            start=str(data.get("start", "00:00")),
        )
        tables[game] = {
            "id": created.id,
            "system": game,
            "name": name,
            "seats": dict(created.tokens),
        }
        changed = True
    if changed:
        kept[url] = tables
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(kept, indent=1), "utf-8")
        os.chmod(path, 0o600)
    return [tables[game] for game in DEMOS]


def _lan_address() -> str:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: it only picks a route
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def play(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8000,
    qr: Annotated[bool, typer.Option(help="Print a QR code for each join link.")] = True,
) -> None:
    """Create (once) a demo table per game, print every seat's join link, and serve them."""
    import segno

    from referee.cli.output import fail
    from referee.cli.serve import serve
    from referee.core.errors import RefereeError
    from referee.store import open_store
    from referee.store.engine import database_url

    try:
        url = database_url()
        store = open_store(url)
        try:
            tables = demo_tables(store, url)
        finally:
            store.close()
    except (RefereeError, OSError) as error:
        fail(f"play: {error}")
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    for table in tables:
        typer.echo(f"\n== {table['name']} ({table['system']}, table {table['id']})")
        for seat, token in table["seats"].items():
            link = f"{base}/join/{table['id']}#{token}"
            typer.echo(f"  {seat:<10} {link}")
            if qr:
                segno.make(link, error="l").terminal(compact=True, border=1)
    typer.echo(f"\nOpen {base}/ — or a seat's link above on each device.\n")
    serve(host=host, port=port, database=url, workers=1, log_level="warning")


def register(app: typer.Typer) -> None:
    """Add ``referee play``."""
    group = typer.Typer(invoke_without_command=True, add_completion=False)
    group.callback()(play)
    app.add_typer(group, name="play", help="Serve the five demo tables (what `make run` runs).")
