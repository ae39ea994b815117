"""The web table on loopback, in Debian's Chromium (docs/web.md, "Performance").

- time to a usable table page: from navigation to the page live (its WebSocket open and the
  table drawn), median and p99 over N loads;
- page weight: every byte the table page loads (HTML, CSS, JS, API answers), and whether any
  request left 127.0.0.1;
- click to the other seats: six seats of one table, each in its own browser context; one clicks
  an action and the time until each of the five others has drawn the change (each page stamps
  ``performance.timeOrigin + now()`` as the message is applied), p50 and p99.

    .venv/bin/python bench/web.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.conftest import CHROMIUM, Live, _free_port


def serve(folder: str) -> tuple[Live, Any]:
    import threading

    import uvicorn

    from referee.server import Settings, create_app
    from referee.store import open_store
    from referee.web import mount

    store = open_store(f"sqlite:///{folder}/bench.sqlite3")
    app = create_app(store, Settings(rate=0, anonymous_rate=0), mount=mount)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return Live(f"http://127.0.0.1:{port}", store), server


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    from playwright.sync_api import sync_playwright

    quick = "--quick" in sys.argv
    loads, clicks = (10, 10) if quick else (60, 60)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        live, server = serve(folder)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        table, tokens = live.demo("intrigue")
        # ---- time to a usable page, and its weight
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{live.base}/join/{table}#{tokens['ann']}")
        page.wait_for_selector("body[data-live='1']")
        sizes: dict[str, int] = {}
        outside: list[str] = []

        def seen(response: Any) -> None:
            if not response.url.startswith(live.base):
                outside.append(response.url)
            try:
                sizes[response.url] = len(response.body())
            except Exception:
                sizes[response.url] = 0

        page.on("response", seen)
        page.on(
            "request",
            lambda r: (
                None
                if r.url.startswith((live.base, "ws://127.0.0.1", "data:"))
                else outside.append(r.url)
            ),
        )
        times = []
        for _ in range(loads):
            sizes.clear()
            start = time.perf_counter()
            page.goto(f"{live.base}/table/{table}")
            page.wait_for_selector("body[data-live='1']")
            times.append((time.perf_counter() - start) * 1000)
        weight = sum(sizes.values())
        print(
            f"usable table page: median {statistics.median(times):.1f} ms, "
            f"p99 {pct(times, 0.99):.1f} ms ({loads} loads)"
        )
        print(
            f"page weight: {weight / 1024:.1f} KB over {len(sizes)} responses; "
            f"requests off the machine: {len(outside)}"
        )
        context.close()
        # ---- click to the other seats, six seats
        seats = [*[s for s in tokens if s != "referee"][:5], "referee"]
        pages = []
        for seat in seats:
            ctx = browser.new_context()
            p = ctx.new_page()
            p.goto(f"{live.base}/join/{table}#{tokens[seat]}")
            p.wait_for_selector("body[data-live='1']")
            pages.append(p)
        actor, others = pages[-1], pages[:-1]
        lags: list[float] = []
        stamp = "() => performance.timeOrigin + performance.now()"
        for _ in range(clicks):
            version = int(actor.get_attribute("body", "data-version") or 0)
            actor.evaluate(
                "() => { var d = document.querySelector('details.choice'); d.open = true; }"
            )
            t0 = actor.evaluate(stamp)
            actor.locator("details.choice button[type=submit]").first.click()
            for other in others:
                other.wait_for_function(f"() => Number(document.body.dataset.version) > {version}")
                lags.append(float(other.get_attribute("body", "data-seen") or 0) - t0)
        print(
            f"click to the 5 other seats: p50 {statistics.median(lags):.1f} ms, "
            f"p99 {pct(lags, 0.99):.1f} ms ({clicks} clicks x 5 seats)"
        )
        browser.close()
        server.should_exit = True


if __name__ == "__main__":
    main()
