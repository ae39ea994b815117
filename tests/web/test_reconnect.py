"""A seat's page when its server goes away and comes back on the same port: it keeps trying
(table.js ``nextWait``: 0.25 s, half as long again each time, at most 1.6 s, each jittered by a
quarter), so it is live again within 2 s of the server's return, with what was done while it was
away.

No wait is timed: the page's own schedule is read (every ``setTimeout`` it sets to ``connect``
again is recorded by an init script) and each wait it chose must be at most 1.6 s × 1.25.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn

import tests.core.toy_procedure  # noqa: F401  (registers kernel_toy)
from referee.core import Action
from referee.server import Settings, create_app
from referee.store import Store, open_store
from referee.web import mount
from tests.web.conftest import WAIT

#: The longest wait the page may schedule between two tries: its cap, 1.6 s, jittered up by a
#: quarter. A server back up is found within this of its return.
LONGEST_WAIT_MS = 1600 * 1.25

#: How many tries the page makes while the server is away: enough to reach the cap (the sixth
#: wait is the first at 1.6 s before jitter) and stay there.
TRIES_AWAY = 8

#: Every wait the page schedules to connect again, in the order it set them (milliseconds).
RECORD_WAITS = """
window.refereeWaits = [];
(function () {
  var setTimeoutBefore = window.setTimeout;
  window.setTimeout = function (callback, wait) {
    if (typeof callback === "function" && callback.name === "connect") {
      window.refereeWaits.push(wait);
    }
    return setTimeoutBefore.apply(window, arguments);
  };
})();
"""


class Restartable:
    """A server over ``store`` on one loopback port, stopped (its port closed: a page's
    connection is refused) and started again on the same port, as a restarted process is."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.port = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._bound: socket.socket | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        bound = socket.socket()
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        bound.bind(("127.0.0.1", self.port))
        bound.listen(128)
        self.port = int(bound.getsockname()[1])
        app = create_app(
            self._store, Settings(rate=0, anonymous_rate=0, poll_seconds=0.2), mount=mount
        )
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, kwargs={"sockets": [bound]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 60  # when to give up waiting, not a verdict on speed
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self._server, self._thread, self._bound = server, thread, bound

    def stop(self) -> None:
        assert self._server is not None and self._thread is not None and self._bound is not None
        self._server.should_exit = True
        self._thread.join(60)
        assert not self._thread.is_alive(), "the server did not stop"
        self._bound.close()


@pytest.fixture
def restartable(tmp_path: Path) -> Any:
    store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    server = Restartable(store)
    server.start()
    try:
        yield server
    finally:
        if server._thread is not None and server._thread.is_alive():
            server.stop()
        store.close()


def waits_of(page: Any) -> list[float]:
    """The waits the page has scheduled before trying to connect again (milliseconds)."""
    return [float(w) for w in page.evaluate("window.refereeWaits")]


def test_a_page_is_live_again_soon_after_its_server_returns_with_what_it_missed(
    browser: Any, restartable: Restartable
) -> None:
    store = restartable._store
    created = store.create_table("kernel_toy", {}, name="Reconnecting")
    context = browser.new_context()
    context.add_init_script(RECORD_WAITS)
    page = context.new_page()
    try:
        page.goto(f"{restartable.base}/join/{created.id}#{created.tokens['krockin']}")
        page.wait_for_selector("body[data-live='1']", timeout=WAIT)
        version = int(page.get_attribute("body", "data-version") or -1)
        assert waits_of(page) == []

        restartable.stop()
        page.wait_for_selector("body[data-live='0']", timeout=WAIT)
        # another program acts while the server is away
        table = store.act(
            created.id, Action("scarface", "rally", {}), seat="scarface", expect_version=version
        )
        page.wait_for_function(f"() => window.refereeWaits.length >= {TRIES_AWAY}", timeout=WAIT)
        restartable.start()

        page.wait_for_selector("body[data-live='1']", timeout=WAIT)
        page.wait_for_selector(f"body[data-version='{table.version}']", timeout=WAIT)
        assert page.locator("li[data-kind='rally.rolled']").count() == 1
        waits = waits_of(page)
        assert len(waits) >= TRIES_AWAY
        assert waits[0] <= 250 * 1.25
        assert max(waits) <= LONGEST_WAIT_MS, waits
    finally:
        context.close()
