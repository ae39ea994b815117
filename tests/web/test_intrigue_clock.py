"""Intrigue's game clock on the table page, in Chromium (issue 26): the referee (1280 px) and a
player (360 px), each in a browser context of their own, clicking the pages only.

The referee moves the clock by minutes and to a time (an earlier time is refused in words) and
can let it follow the wall clock; the player sees the time, read only. What comes due is
announced on the page of the seat it concerns: a perception cooldown's end (and the check is
offered again), a knocked-out character's waking. The player sees the odds of her own roll
before sending it; what the referee is typing survives a player's action. The referee's clock
is photographed for docs/web.md (docs/img/web-intrigue-clock-1280.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.web.conftest import Live, docs_picture
from tests.web.seats import TIMEOUT, SeatPage

EVENING: dict[str, Any] = {
    "start": "19:00",
    "characters": {
        "countess": {
            "name": "The Countess",
            "number": 40,
            "perception_envelopes": [
                {"id": "to-all", "to": "ALL", "target": 16, "contents": "Her pearls are paste."}
            ],
            "contingency_envelopes": [{"id": "nine", "at": "21:00", "contents": "Run."}],
        },
        "twelve": {"name": "Miss Twelve", "number": 12, "skills": {"Perception": 3}},
        # a brute who hits whatever the dice and knocks out with one blow (Strength 10 > 6 / 2)
        "brute": {"name": "Scarface", "number": 11, "combat": 15, "strength": 10},
        "krockin": {"name": "The Amazing Krockin", "number": 33, "stamina": 6},
    },
}
PLAYERS = {"ann": ["twelve"], "bea": ["krockin"], "cid": ["countess"]}


def _table(live: Live) -> tuple[str, dict[str, str]]:
    created = live.store.create_table(
        "intrigue", EVENING, name="The clock", players=PLAYERS, start="19:00"
    )
    return created.id, dict(created.tokens)


def _clock(seat: SeatPage) -> str:
    return (seat.page.text_content("#ic-clock") or "").strip()


def _wait_clock(seat: SeatPage, hhmm: str) -> None:
    seat.wait_text("#ic-clock", hhmm)
    assert _clock(seat) == hhmm


def _choice(seat: SeatPage, key: str) -> Any:
    """The generic form of the choice keyed ``actor|kind|label``, opened (acting as its actor)."""
    page = seat.page
    actor = key.split("|")[0]
    if page.locator("#act-as").count() and page.eval_on_selector("#act-as", "e => e.value") != "":
        page.select_option("#act-as", actor)
    details = page.locator(f"details.choice[data-key='{key}']")
    details.wait_for(timeout=TIMEOUT)
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return details


def _options(details: Any, name: str) -> list[str]:
    return [
        str(v)
        for v in details.locator(f"select[name='{name}'] option").evaluate_all(
            "os => os.map(o => JSON.parse(o.value))"
        )
    ]


def test_the_referee_moves_the_clock_by_minutes_and_to_a_time(
    live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = _table(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    player = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    try:
        page = referee.page
        page.wait_for_selector("#ic-plus-5", timeout=TIMEOUT)
        _wait_clock(referee, "19:00")
        _wait_clock(player, "19:00")
        assert player.page.locator("#ic-plus-1, #ic-to, #ic-follow").count() == 0  # read only
        page.click("#ic-plus-5")
        _wait_clock(referee, "19:05")
        page.click("#ic-plus-1")
        _wait_clock(referee, "19:06")
        page.fill("#ic-minutes", "9")
        page.click("#ic-by")
        _wait_clock(referee, "19:15")
        _wait_clock(player, "19:15")
        # a time earlier than now is refused, in words, and the clock stays
        version = referee.version()
        page.fill("#ic-to", "19:10")
        page.click("#ic-to-go")
        referee.wait_text("#ic-clock-said", "earlier than the game time now, 19:15")
        assert referee.version() == version and _clock(referee) == "19:15"
        page.fill("#ic-to", "20:30")
        page.click("#ic-to-go")
        _wait_clock(referee, "20:30")
        _wait_clock(player, "20:30")
        # what comes next, at its time: the Countess's envelope to open at 21:00
        referee.wait_text("#ic-coming", "at 21:00")
        assert "Envelope nine" in (page.text_content("#ic-coming") or "")
        assert "at 21:00" in (page.text_content("#console") or "")
        # every time written as the time of day: no "in 30 min", no "12m00s left"
        words = re.sub(r"\+\d+ min", "", page.text_content("#console") or "")
        assert not re.search(r"\d+ ?min\b|\d+m\d+s", words), words
        for seat in (referee, player):
            assert not seat.errors, seat.errors
        page.locator(".ic-clock-part").screenshot(path=str(screenshots / "intrigue-clock-1280.png"))
        console = page.locator(".intrigue-console")
        console.screenshot(path=str(docs_picture("web-intrigue-clock-1280.png")))
        # at 21:00 the Countess's player is told she may open it; the referee sees it due now
        countess = SeatPage(browser, live, table, "cid", tokens["cid"]).phone()
        try:
            countess.wait_text("#console", "sealed until 21:00")
            page.click("#ic-plus-15")
            _wait_clock(referee, "20:45")
            page.click("#ic-plus-15")
            countess.wait_text("#ic-news", "Envelope nine (Open at 21:00) may be opened now")
            referee.wait_text("#ic-due", "Envelope nine (Open at 21:00) of #40 The Countess")
            assert "Envelope nine" not in (player.page.text_content("#console") or "")
            width = countess.page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"her page is {width} px wide on a 360 px phone"
            assert not countess.errors, countess.errors
        finally:
            countess.context.close()
    finally:
        referee.context.close()
        player.context.close()


def test_following_the_wall_clock_advances_a_minute_each_minute(live: Live, browser: Any) -> None:
    table, tokens = _table(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    try:
        page = referee.page
        page.clock.install()
        page.wait_for_selector("#ic-follow", timeout=TIMEOUT)
        page.click("#ic-follow")
        assert page.get_attribute("#ic-follow", "aria-pressed") == "true"
        page.clock.run_for(61_000)
        _wait_clock(referee, "19:01")
        page.clock.run_for(60_000)
        _wait_clock(referee, "19:02")
        page.click("#ic-follow")  # paused
        assert page.get_attribute("#ic-follow", "aria-pressed") == "false"
        page.clock.run_for(180_000)
        page.wait_for_timeout(300)
        assert _clock(referee) == "19:02"
    finally:
        referee.context.close()


def test_her_perception_cooldown_ends_on_her_page_with_the_odds_of_her_roll(
    live: Live, browser: Any
) -> None:
    table, tokens = _table(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    twelve = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    try:
        form = _choice(twelve, "twelve|perceive|perceive")
        form.locator("select[name='target']").select_option('"countess"')
        # the odds of her own roll, before she sends it: her total's chances (3d6 + 3)
        form.locator(".odds-box .odds").first.wait_for(timeout=TIMEOUT)
        odds = form.locator(".odds-box").text_content() or ""
        assert "3d6 + 3" in odds and "16 or more" in odds and "25.9%" in odds, odds
        assert "to-all" not in odds  # which envelopes the Countess carries is not hers to know
        # her skill rolls: against a Target Number, exactly; against another, her own total
        fixed = _choice(twelve, "twelve|roll|skill roll against a Target Number")
        fixed.locator("input[name='target']").fill("14")
        twelve.wait_text(f"#{fixed.get_attribute('id')} .odds-box", "3d6+3 ≥ 14")
        assert "50%" in (fixed.locator(".odds-box").text_content() or "")
        versus = _choice(twelve, "twelve|roll|skill roll against another character")
        twelve.wait_text(f"#{versus.get_attribute('id')} .odds-box", "3d6 + 3")
        form = _choice(twelve, "twelve|perceive|perceive")
        twelve.submit(form)
        twelve.wait_text("#ic-cooldowns", "at 19:15")
        assert "countess" not in _options(_choice(twelve, "twelve|perceive|perceive"), "target")
        referee.page.click("#ic-plus-15")
        twelve.wait_text("#ic-news", "You may perceive #40 The Countess again")
        assert twelve.page.get_attribute("#ic-news", "role") == "status"
        assert "countess" in _options(_choice(twelve, "twelve|perceive|perceive"), "target")
        referee.wait_text("#ic-news", "#12 Miss Twelve may perceive #40 The Countess again")
        width = twelve.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"her page is {width} px wide on a 360 px phone"
        for seat in (referee, twelve):
            assert not seat.errors, seat.errors
    finally:
        referee.context.close()
        twelve.context.close()


def test_a_knocked_out_characters_waking_is_announced_on_his_page(
    live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = _table(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    krockin = SeatPage(browser, live, table, "bea", tokens["bea"]).phone()
    try:
        start = _choice(referee, "brute|start_combat|start a combat")
        start.get_by_label("krockin", exact=True).check()
        referee.submit(start)
        referee.submit(_choice(referee, "referee|next_round|next round"))
        attack = _choice(referee, "brute|declare|attack")
        attack.locator("select[name='target']").select_option('"krockin"')
        referee.submit(attack)
        # his own attack's odds, before he declares it (Scarface's Combat 15 + 10 to beat)
        _choice(krockin, "krockin|declare|attack")
        krockin.wait_text("details.choice[data-key='krockin|declare|attack'] .odds-box", "> 25")
        krockin.submit(_choice(krockin, "krockin|declare|defend"))
        referee.submit(_choice(referee, "referee|resolve|resolve"))
        krockin.wait_text("#console", "Knocked out: wakes at 19:05")
        referee.wait_text("#ic-coming", "at 19:05")
        assert "#33 The Amazing Krockin wakes" in (referee.page.text_content("#ic-coming") or "")
        # the combat tracker and the envelopes table scroll in their wrappers on a phone
        referee.page.set_viewport_size({"width": 360, "height": 780})
        width = referee.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the referee's page is {width} px wide on a 360 px phone"
        wrappers = referee.page.locator("#console .scroll-x[tabindex='0'][aria-label]")
        assert wrappers.count() >= 2  # the combat, the contingency envelopes
        referee.page.set_viewport_size({"width": 1280, "height": 900})
        referee.page.click("#ic-plus-5")
        krockin.wait_text("#ic-news", "#33 The Amazing Krockin wakes")
        referee.wait_text("#ic-news", "#33 The Amazing Krockin wakes")
        krockin.page.screenshot(path=str(screenshots / "intrigue-krockin-wakes-360.png"))
        width = krockin.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"his page is {width} px wide on a 360 px phone"
        for seat in (referee, krockin):
            assert not seat.errors, seat.errors
    finally:
        referee.context.close()
        krockin.context.close()


def test_what_the_referee_types_survives_a_players_action(live: Live, browser: Any) -> None:
    table, tokens = _table(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    twelve = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    try:
        page = referee.page
        page.wait_for_selector("#ic-perceiver", timeout=TIMEOUT)
        page.select_option("#ic-perceiver", "twelve")
        page.select_option("#ic-target", "countess")
        referee.wait_text("#ic-perc-odds", "3d6+3 ≥ 16")
        page.fill("#ic-badge", "33")
        page.fill("#ic-tn", "17")
        page.focus("#ic-tn")
        page.eval_on_selector("#ic-tn", "e => { e.dataset.mark = 'kept'; }")
        before = referee.version()
        # Miss Twelve's player speaks, on her own page
        speak = _choice(twelve, "twelve|speak|speak")
        speak.locator("input[type=checkbox]").first.check()
        twelve.submit(speak)
        referee.wait_version(twelve.version())
        assert referee.version() > before
        assert page.eval_on_selector("#ic-perceiver", "e => e.value") == "twelve"
        assert page.eval_on_selector("#ic-target", "e => e.value") == "countess"
        assert page.eval_on_selector("#ic-badge", "e => e.value") == "33"
        assert page.eval_on_selector("#ic-tn", "e => e.value") == "17"
        assert page.evaluate("document.activeElement.dataset.mark") == "kept"
        assert "3d6+3 ≥ 16" in (page.text_content("#ic-perc-odds") or "")
        assert not referee.errors, referee.errors
    finally:
        referee.context.close()
        twelve.context.close()
