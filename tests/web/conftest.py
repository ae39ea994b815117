"""A live server (the real store on a fresh SQLite file, the web table mounted) on a free
loopback port, and Debian's Chromium driven by Playwright.

No test here is ever skipped: a missing Chromium is a failure that says how to install it.
Every test that drives the browser is marked ``slow``: ``make check`` leaves them to ``make test``.
Under pytest-xdist each worker has its own server, store and browser (session fixtures are per
worker), on a port the system chose.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from referee.server import Settings, create_app
from referee.store import open_store
from referee.web import mount

CHROMIUM = "/usr/bin/chromium"
#: The longest a test waits for what must happen on a page (ms). A passing test never waits it
#: out; a failing one does. CI's two cores run the whole suite at once, and a live update that
#: takes 50 ms alone has taken over 8 s there, so this bounds a hang, not the table's speed
#: (``make bench`` measures that).
WAIT = 120_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def docs_picture(name: str) -> Path:
    """Where a flow photographs a picture that the docs show: ``build/screenshots/<name>``, or
    ``docs/img/<name>`` itself when ``REFEREE_UPDATE_PICTURES=1`` (as goldens are written again),
    so an ordinary run of the tests never rewrites a tracked file."""
    folder = DOCS_IMG if os.environ.get("REFEREE_UPDATE_PICTURES") == "1" else SCREENSHOTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


class Live:
    """The server under test: its base URL and store."""

    def __init__(self, base: str, store: Any) -> None:
        self.base = base
        self.store = store

    def demo(self, game: str) -> tuple[str, dict[str, str]]:
        """A new table of ``game`` from its demo setup → (id, tokens by seat)."""
        data = yaml.safe_load((EXAMPLES / DEMOS[game]).read_text("utf-8"))
        created = self.store.create_table(
            game, data["setup"], name=f"Demo {game}", players=data.get("players")
        )
        return created.id, dict(created.tokens)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test that drives Chromium ``slow`` (seconds each: ``make check`` skips them)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


def _free_port() -> int:
    """A loopback port nothing listens on now (``bench/web.py``'s server)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _listening() -> socket.socket:
    """A loopback socket on a port the system chose, already bound and listening: handed to
    the server as it is, so no other process (another xdist worker) can take the port between
    choosing it and serving on it."""
    bound = socket.socket()
    bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    bound.bind(("127.0.0.1", 0))
    bound.listen(128)
    return bound


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    path = tmp_path_factory.mktemp("web") / "tables.sqlite3"
    store = open_store(f"sqlite:///{path}")
    settings = Settings(rate=0, anonymous_rate=0, poll_seconds=0.2)
    app = create_app(store, settings, mount=mount)
    bound = _listening()
    port = int(bound.getsockname()[1])
    server = uvicorn.Server(  # the WebSocket protocol of ``referee serve`` (short messages plain)
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_max_size=65536,
            ws="referee.server.sockets:CuttingProtocol",
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [bound]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # when to give up waiting, not a verdict on speed
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield Live(f"http://127.0.0.1:{port}", store)
    server.should_exit = True
    thread.join(10)
    bound.close()
    store.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    assert Path(CHROMIUM).exists(), (
        "Chromium is missing: `apt-get install -y chromium` (make test does it when it can)"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        yield _Patient(chromium)
        chromium.close()


class _Patient:
    """The browser, whose every new context waits up to :data:`WAIT` for what a test awaits."""

    def __init__(self, chromium: Any) -> None:
        self._chromium = chromium

    def new_context(self, **options: Any) -> Any:
        context = self._chromium.new_context(**options)
        context.set_default_timeout(WAIT)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chromium, name)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
