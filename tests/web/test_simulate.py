"""The "How deadly is this?" section on the web table: the referee of the Intrigue demo table
asks and sees who wins as a percentage, with a chart; a player's page offers no such thing. The
referee's answer is photographed at 360 pixels in the dark theme
(build/screenshots/simulate-360-dark.png, what docs/simulate.md shows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import WAIT, Live

TIMEOUT = WAIT  # ms: a bound on a hang, not on speed (conftest.WAIT)
SIMULATION = 60000  # ms: the server plays the encounters while the page waits


def _seat_page(browser: Any, live: Live, table: str, token: str, width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live.base}/join/{table}#{token}")
    page.wait_for_url(f"**/table/{table}", timeout=TIMEOUT)
    page.wait_for_selector("body[data-live='1']", timeout=TIMEOUT)
    page.wait_for_selector("body[data-simulate]", state="attached", timeout=TIMEOUT)
    page.errors = errors
    return page


def test_the_referee_asks_how_deadly_and_a_player_cannot(
    live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = live.demo("intrigue")
    referee = _seat_page(browser, live, table, tokens["referee"], width=360)
    try:
        assert referee.get_attribute("body", "data-simulate") == "offered"
        referee.emulate_media(color_scheme="dark")
        referee.fill("#sim-runs", "40")
        referee.click("#sim-go")
        referee.wait_for_selector("#sim-headline", timeout=SIMULATION)
        headline = referee.inner_text("#sim-headline")
        assert "Most likely:" in headline and "%" in headline, headline
        rows = referee.locator(".sim-chart li")
        assert rows.count() >= 2
        assert "%" in referee.inner_text(".sim-chart")
        assert "played 40 times" in referee.inner_text(".sim-facts")
        # readable at 360 px: the section is no wider than the page
        width = referee.evaluate("document.getElementById('sim-panel').scrollWidth")
        assert width <= 360, width
        referee.locator("#sim-panel").screenshot(path=str(screenshots / "simulate-360-dark.png"))
        # a precision out of range is refused on the page (the field's range), before any request
        referee.fill("#sim-precision", "2")
        referee.click("#sim-go")
        assert referee.evaluate("document.getElementById('sim-precision').validity.valid") is False
        assert "played 40 times" in referee.inner_text(".sim-facts")
        # a precision stops the server sooner, and the facts say so
        referee.fill("#sim-precision", "0.5")
        referee.fill("#sim-runs", "300")
        referee.click("#sim-go")
        referee.locator(".sim-facts", has_text="narrower than 0.5").wait_for(timeout=SIMULATION)
        assert "played 100 times (of 300 asked" in referee.inner_text(".sim-facts")
        assert referee.errors == []
    finally:
        referee.context.close()
    player = _seat_page(browser, live, table, tokens["ann"])
    try:
        assert player.get_attribute("body", "data-simulate") == "not offered"
        assert player.locator("#sim-go").count() == 0
        assert player.locator("#sim-panel").count() == 0
        assert "How deadly" not in player.content()
        assert player.errors == []
    finally:
        player.context.close()
