"""The web table in Chromium: each game's demo table, its referee and two players in separate
browser contexts at once. Each sees the others' public actions live; no player's page (its
HTML, the API's answers and every WebSocket frame it received) holds a secret of another seat;
one flow is completed with the keyboard alone; each game's table page is photographed at 360
and 1280 pixels (build/screenshots/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.cli.demo_tables import DEMOS, EXAMPLES
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage, observation, secrets_from

GAMES = ["intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu"]
#: Games whose demo flow puts a secret on the table (a character sheet only the referee and its
#: player see). The others' first moves make none yet: their flows need a sealed slip, a secret
#: skill... (docs/web.md, "Not yet").
MAKES_SECRETS = {"intrigue", "kingdoms"}
#: The kind of move each game's flow takes first where it can: one that makes a secret (a
#: Kingdoms faction scripts its maneuver slip, sealed from the other faction).
PREFER = {"kingdoms": "write_slip"}


def _players(tokens: dict[str, str]) -> list[str]:
    return [seat for seat in tokens if seat != "referee"][:2]


@pytest.mark.parametrize("game", GAMES)
def test_referee_and_two_players_live(
    game: str, live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = live.demo(game)
    seats = (["referee"] if "referee" in tokens else []) + _players(tokens)
    pages = [SeatPage(browser, live, table, seat, tokens[seat]) for seat in seats]
    try:
        # each seat acts in turn (where it has something to do); every other page follows live
        for actor in pages:
            if not actor.page.locator("details.choice").count():
                continue
            before = actor.version()
            kind = actor.act_first_legal(PREFER.get(game, ""))
            now = actor.version()
            assert now > before
            for other in pages:
                other.wait_version(now)
            # an action recorded for everyone shows in every other seat's log at once
            public = [
                a
                for a in observation(live, table, tokens[actor.seat])["actions"]
                if a["kind"] == kind
            ]
            assert public, kind
        for seat_page in pages:
            assert seat_page.page.locator("#log > li").count() >= 1
            assert not seat_page.errors, seat_page.errors
        # secrets: nothing another seat is shown and this player is not reaches this page
        searched = 0
        for seat_page in pages:
            if seat_page.seat == "referee":
                continue
            secrets = secrets_from(live, table, tokens, seat_page.seat)
            received = seat_page.received()
            searched += len(secrets)
            leaked = sorted(s for s in secrets if s in received)
            assert not leaked, f"{game}: {seat_page.seat} received {leaked[:5]}"
        if game in MAKES_SECRETS:
            assert searched > 0, (
                f"{game}: no seat had a secret to search for: the test proves nothing"
            )
        # screenshots: a player at phone and laptop width, the referee (or first seat) on a laptop
        player = pages[-1]
        player.page.screenshot(path=str(screenshots / f"{game}-{player.seat}-1280.png"))
        player.page.set_viewport_size({"width": 360, "height": 780})
        player.page.screenshot(path=str(screenshots / f"{game}-{player.seat}-360.png"))
        player.page.emulate_media(color_scheme="dark")
        player.page.screenshot(path=str(screenshots / f"{game}-{player.seat}-360-dark.png"))
        theme = player.page.get_attribute("html", "data-theme")
        assert theme == "dark", theme
        # every seat's page fits a 360-pixel phone (a wide board scrolls inside its panel)
        for seat_page in pages:
            seat_page.page.set_viewport_size({"width": 360, "height": 780})
            width = seat_page.page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{game}: {seat_page.seat}'s page is {width} px on a phone"
        # the page is titled with the table's name, not its id
        assert player.page.text_content("#title") == f"Demo {game}"
        pages[0].page.screenshot(
            path=str(screenshots / f"{game}-{pages[0].seat}-1280-full.png"), full_page=True
        )
    finally:
        for seat_page in pages:
            seat_page.context.close()


def test_keyboard_only(live: Live, browser: Any) -> None:
    """A player of the Zweihänder demo takes an action with the keyboard alone: Tab to the first
    choice, Enter to open it, Tab to its button, Enter; the referee's page shows it live."""
    table, tokens = live.demo("zweihander")
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    player = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = player.page
        before = player.version()

        def tab_to(selector: str) -> None:
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate(
                    "(s) => document.activeElement && document.activeElement.matches(s)", selector
                ):
                    return
            raise AssertionError(f"Tab never reached {selector}")

        tab_to("details.choice > summary")
        page.keyboard.press("Enter")
        tab_to("details.choice[open] button[type=submit]")
        page.keyboard.press("Enter")
        player.wait_version(before + 1)
        referee.wait_version(before + 1)
        assert page.locator("#log > li").count() >= 2
    finally:
        referee.context.close()
        player.context.close()


def test_home_creates_a_table_with_links_and_qr_codes(live: Live, browser: Any) -> None:
    """Home: a setup file pasted creates a table; every seat's join link is shown with a QR
    code; a link opened in another browser seats it, and its Home lists the table."""
    text = (EXAMPLES / DEMOS["hursagmu"]).read_text("utf-8")
    context = browser.new_context()
    page = context.new_page()
    other = browser.new_context()
    try:
        page.goto(f"{live.base}/")
        page.select_option("#c-system", "hursagmu")
        page.fill("#c-name", "Friday")
        page.fill("#c-yaml", text)
        page.click("#create button[type=submit]")
        page.wait_for_selector("#created li.join svg", timeout=TIMEOUT)
        links = page.locator("#created li.join code").all_text_contents()
        assert len(links) == 4 and all("/join/" in link and "#" in link for link in links)
        page.wait_for_function(
            "() => document.querySelectorAll('#created li.join svg').length === 4",
            timeout=TIMEOUT,
        )
        guest = other.new_page()
        guest.goto(links[1])
        guest.wait_for_selector("body[data-live='1']", timeout=TIMEOUT)
        guest.goto(f"{live.base}/")
        guest.wait_for_selector("#joined a", timeout=TIMEOUT)
        assert "Friday" in (guest.text_content("#joined") or "")
        # a setup the game refuses is one clear line, not a crash
        page.fill("#c-yaml", "characters: 3")
        page.click("#create button[type=submit]")
        page.wait_for_function(
            "() => document.getElementById('create-error').textContent.length > 0",
            timeout=TIMEOUT,
        )
    finally:
        context.close()
        other.close()
