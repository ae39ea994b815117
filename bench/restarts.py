"""How long a restart keeps a seat from its table (docs/deploy.md, "When something restarts").

- PostgreSQL ends every session of a ``referee serve`` (its LISTEN connection and its pool, as
  a restart of the database does; ``pg_terminate_backend`` on a database of the bench's own):
  the time until the server listens again (a new LISTEN session), and until a seat's socket is
  pushed a change another program made the moment the sessions ended;
- one worker of ``--workers 2`` killed (``kill -9``): the time until uvicorn's supervisor has
  started another in its place;
- the server goes away and comes back on the same port: the time from its return until a
  seat's page (Chromium) is live again.

    .venv/bin/python bench/restarts.py [--quick]

Needs PostgreSQL (``REFEREE_TEST_POSTGRES_URL``, by default the local ``test`` database) and
Debian's Chromium.
"""

from __future__ import annotations

import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.databases import admin_url, drop_postgres, fresh_postgres
from tests.server.test_processes import live, message, serving
from tests.server.test_restarts import Sessions, create, workers_of
from tests.web.conftest import CHROMIUM
from tests.web.test_reconnect import RECORD_WAITS, Restartable

from referee.core import Action
from referee.store import open_store


def postgres_drops_the_server(rounds: int) -> tuple[list[float], list[float]]:
    """Seconds from the sessions ended to the server's new LISTEN session, and to the push."""
    admin = admin_url()
    url, name = fresh_postgres(admin)
    sessions = Sessions(admin, url)
    listening, pushed = [], []
    try:
        with serving(url, poll_seconds="0") as base:
            table_id, tokens, version = create(base)
            with live(base, table_id, tokens["krockin"]) as krockin:
                message(krockin, 30)
                for _ in range(rounds):
                    while not sessions.listening():
                        time.sleep(0.01)
                    before = sessions.listening()
                    assert before <= sessions.terminate_all()
                    start = time.perf_counter()
                    store = open_store(url)  # another program, acting at once
                    store.act(
                        table_id,
                        Action("krockin", "rally", {}),
                        seat="krockin",
                        expect_version=version,
                    )
                    version += 1
                    while sessions.listening() - before == set():
                        time.sleep(0.01)
                    listening.append(time.perf_counter() - start)
                    while message(krockin, 30)["version"] < version:
                        continue  # each message read is one the seat was pushed; wait for ours
                    pushed.append(time.perf_counter() - start)
                    store.close()
    finally:
        sessions.close()
        drop_postgres(admin, name)
    return listening, pushed


def a_worker_killed(rounds: int) -> list[float]:
    """Seconds from ``kill -9`` of one worker of ``--workers 2`` to uvicorn's supervisor having
    started another in its place."""
    admin = admin_url()
    url, name = fresh_postgres(admin)
    respawned = []
    try:
        with serving(url, workers=2, poll_seconds="0") as base:
            port = int(base.rsplit(":", 1)[1])
            for _ in range(rounds):
                workers = workers_of(port)
                while len(workers) != 2:
                    time.sleep(0.05)
                    workers = workers_of(port)
                os.kill(min(workers), signal.SIGKILL)
                start = time.perf_counter()
                while not workers_of(port) - workers:
                    time.sleep(0.01)
                respawned.append(time.perf_counter() - start)
    finally:
        drop_postgres(admin, name)
    return respawned


#: Each socket the page opens, stamped (page time, ms) when it opens.
STAMP_OPENS = """
window.refereeOpened = [];
(function () {
  var WebSocketBefore = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    var socket = new WebSocketBefore(url, protocols);
    socket.addEventListener("open", function () { window.refereeOpened.push(performance.now()); });
    return socket;
  };
  window.WebSocket.prototype = WebSocketBefore.prototype;
})();
"""


def a_page_after_its_server_returns(rounds: int) -> tuple[list[float], list[float]]:
    """Seconds from the server's return until the page's socket is open again (both on the
    page's clock); the longest wait it chose."""
    from playwright.sync_api import sync_playwright

    back, longest = [], []
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/tables.sqlite3")
        server = Restartable(store)
        server.start()
        created = store.create_table("kernel_toy", {}, name="Reconnecting")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            context = chromium.new_context()
            context.add_init_script(RECORD_WAITS)
            context.add_init_script(STAMP_OPENS)
            page = context.new_page()
            page.goto(f"{server.base}/join/{created.id}#{created.tokens['krockin']}")
            page.wait_for_selector("body[data-live='1']", timeout=60_000)
            for _ in range(rounds):
                server.stop()
                page.wait_for_selector("body[data-live='0']", timeout=60_000)
                time.sleep(5)  # away long enough for the page's waits to reach their cap
                server.start()
                start = page.evaluate("performance.now()")
                page.wait_for_selector("body[data-live='1']", timeout=60_000)
                back.append((page.evaluate("window.refereeOpened").pop() - start) / 1000)
                longest.append(max(page.evaluate("window.refereeWaits")) / 1000)
            chromium.close()
        server.stop()
        store.close()
    return back, longest


def line(what: str, values: list[float]) -> str:
    return (
        f"{what}: median {statistics.median(values):.2f} s, max {max(values):.2f} s "
        f"({len(values)} rounds)"
    )


def main() -> None:
    import tests.core.toy_procedure  # noqa: F401  (registers kernel_toy, for the page's server)

    rounds = 3 if "--quick" in sys.argv else 10
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    listening, pushed = postgres_drops_the_server(rounds)
    print(line("PostgreSQL ended the sessions → listening again", listening))
    print(line("PostgreSQL ended the sessions → the seat pushed", pushed))
    print(line("a worker killed → another started in its place", a_worker_killed(rounds)))
    back, longest = a_page_after_its_server_returns(rounds)
    print(line("server back → the page's socket open", back))
    print(line("the longest wait the page chose", longest))


if __name__ == "__main__":
    main()
