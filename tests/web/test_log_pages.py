"""The log paged in on demand, in Chromium: an old table's page opens with its latest events,
and "Earlier events" (a button at the top of the log, reached with the keyboard) puts the
page before them at the top, said in a polite live region, until the first event is in; the
live pushes go on as before."""

from __future__ import annotations

from typing import Any

import httpx

from referee.core import Action
from referee.core.table import Table
from referee.server.views import OPEN_EVENTS
from tests.server.test_log_pages import Ledger
from tests.web.conftest import WAIT, Live
from tests.web.seats import SeatPage

EVENTS = 250


def numbers(seat: SeatPage) -> list[int]:
    shown = seat.page.locator("#log > li > span.num").all_text_contents()
    return [int(n.lstrip("#")) for n in shown]


def test_an_old_tables_page_shows_its_last_events_and_pages_in_the_earlier_ones(
    browser: Any, live: Live
) -> None:
    table = Table.start(Ledger(), {}, system="ledger")
    while table.version < EVENTS:
        table = table.act(Action("ann", "note"), None, seat="ann")
    created = live.store.import_record(table.to_record(), name="an old ledger")
    bob = SeatPage(browser, live, created.id, "bob", created.tokens["bob"])
    try:
        page = bob.page
        assert numbers(bob) == list(range(EVENTS - OPEN_EVENTS + 1, EVENTS + 1))
        button = page.locator("#log-earlier")
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelectorAll('#log > li').length === {2 * OPEN_EVENTS}",
            timeout=WAIT,
        )
        assert numbers(bob) == list(range(EVENTS - 2 * OPEN_EVENTS + 1, EVENTS + 1))
        said = page.locator("#log-earlier-said")
        assert said.get_attribute("aria-live") == "polite"
        assert said.text_content() == f"{OPEN_EVENTS} earlier events added at the top."
        assert page.evaluate("document.activeElement.id") == "log-earlier"
        page.keyboard.press("Enter")  # the focus stayed on the button
        page.wait_for_function(
            f"() => document.querySelectorAll('#log > li').length === {EVENTS}", timeout=WAIT
        )
        assert numbers(bob) == list(range(1, EVENTS + 1))
        assert button.count() == 0  # the first event is in: nothing earlier
        assert "start of the table" in (said.text_content() or "")
        assert page.evaluate("document.activeElement.id") == "log"
        acted = httpx.post(
            f"{live.base}/api/tables/{created.id}/actions",
            headers={"Authorization": f"Bearer {created.tokens['ann']}"},
            json={"kind": "note", "version": EVENTS},
        )
        assert acted.status_code == 200, acted.text
        bob.wait_version(EVENTS + 1)
        assert numbers(bob) == list(range(1, EVENTS + 2))
        assert not bob.errors
    finally:
        bob.context.close()
