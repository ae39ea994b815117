"""Prompts at the web table, end to end (docs/kernel.md, "Prompts"; docs/web.md): a game stops
and asks a seat; that seat's phone shows the question first, vibrates, and answers it from the
page; the other seats wait, told whom for, and never read a secret prompt's words.

Played on the example game installed as a package of its own (``examples/toy-game``, the game
``toy``: a sixth game's page needs no change to the web table) through the real server, store
and WebSocket, each seat in its own browser context at 360 px, clicking the pages only.
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage

REASON = "ann attacks bob with the sabre: parry or dodge"


def test_a_prompt_is_asked_on_its_seats_phone_and_answered_there(live: Live, browser: Any) -> None:
    created = live.store.create_table(
        "toy",
        {"duellists": {"ann": {}, "bob": {}, "cat": {}}},
        name="A duel",
        players={"ann": ["ann"], "bob": ["bob"], "cat": ["cat"]},
    )
    seats = {
        s: SeatPage(browser, live, created.id, s, created.tokens[s]) for s in ("ann", "bob", "cat")
    }
    try:
        for seat in seats.values():
            seat.phone().count_buzzes()
        ann, bob, cat = seats["ann"], seats["bob"], seats["cat"]
        # Ann builds her turn from the page: attack Bob with the sabre, then guard high
        ann.page.locator("details.choice[data-key^='ann|declare'] > summary").click()
        form = ann.page.locator("form[data-kind='declare']")
        step = form.locator("li.step").nth(0)
        step.get_by_label("attack", exact=True).select_option(label="bob")
        form.get_by_role("button", name="Add a step").click()
        second = form.locator("li.step").nth(1)
        second.locator("select").first.select_option(label="guard")
        ann.submit(form, seats.values())
        # Bob's phone: the question first, in its own region, and a buzz
        region = bob.page.locator("#act-panel .prompt[role='region']")
        region.wait_for(timeout=TIMEOUT)
        assert REASON in (region.text_content() or "")
        assert bob.buzzes() == 1
        first = bob.page.locator("#act-panel .prompt").first.bounding_box()
        assert first is not None and first["y"] < 400  # at the top, read without scrolling
        # Ann and Cat wait, and never read the secret prompt's words
        for other in (ann, cat):
            assert other.page.locator("form[data-kind='declare']").count() == 0
            assert REASON not in other.received()
        # Bob parries with the dagger: the skills offered follow the defence chosen
        region.locator("summary").first.click()
        defend = region.locator("form[data-kind='defend']")
        defend.get_by_label("defence", exact=True).select_option(label="parry")
        skills = defend.get_by_label("skill", exact=True).locator("option").all_text_contents()
        assert skills == ["sabre", "dagger"]
        defend.get_by_label("skill", exact=True).select_option(label="dagger")
        bob.page.wait_for_selector("form[data-kind='defend'] .odds-box .odds li", timeout=TIMEOUT)
        bob.submit(defend, seats.values())
        assert bob.page.locator("#act-panel .prompt[role='region']").count() == 0
        log = ann.page.locator("#log").text_content() or ""
        assert "defence.rolled" in log or "defends" in log or "attacks" in log
        for seat in seats.values():
            assert not seat.errors, seat.errors
    finally:
        for seat in seats.values():
            seat.context.close()
