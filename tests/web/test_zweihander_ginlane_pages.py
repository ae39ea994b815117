"""The Zweihänder and Gin Lane pages on the new contract (issue 26), in Chromium, each seat in its
own browser context, through the page: what a person chose in a console — the d100 roller's
Skill, Difficulty Rating and Assist Die; the tagging console's skill and tags — survives another
seat's move, with the focus and the odds; and every seat's page fits a 360-pixel phone, its wide
tables scrolling inside a focusable, named wrapper, no table header empty."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage, act_api, demo_setup, make_table, observation
from tests.web.test_zweihander_ginlane_hursagmu import GIN, GIN_PLAYERS, _gin_until_kit_waits

#: Marks an element so that the test can tell it is the very node it was (patched, not rebuilt).
MARK = "(s) => { document.querySelector(s).dataset.mark = 'kept'; }"
MARKED = "(s) => document.querySelector(s) && document.querySelector(s).dataset.mark === 'kept'"
FOCUSED = "() => document.activeElement && document.activeElement.id"


# ------------------------------------------------------------------------------ Zweihänder


def test_zweihander_roller_keeps_its_fields_focus_and_odds_across_a_push(
    live: Live, browser: Any
) -> None:
    data = demo_setup("zweihander")
    table, tokens = make_table(live, "zweihander", data["setup"], data["players"])
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    bob = SeatPage(browser, live, table, "bob", tokens["bob"])
    try:
        page = alice.page
        odds = page.locator("#zw-odds")
        # the odds are there before anything is rolled: Charm 50 at Standard
        page.wait_for_selector("#zw-odds .roll:has-text('d100 ≤ 50')", timeout=TIMEOUT)
        page.select_option("#zw-difficulty", "Hard")
        page.check("#zw-assist")
        page.wait_for_selector("#zw-odds:has-text('Assist Die')", timeout=TIMEOUT)
        page.wait_for_selector("#zw-odds:has-text('d100 ≤ 30')", timeout=TIMEOUT)
        page.focus("#zw-difficulty")
        page.evaluate(MARK, ".zw-roller")
        page.evaluate(MARK, "#zw-difficulty")
        # bob tests Bert's Intimidate from his own page: a push reaches alice's
        before = alice.version()
        bob.page.wait_for_selector("#zw-odds .roll", timeout=TIMEOUT)
        bob.page.click("#zw-roll")
        alice.pushed(before)
        page.wait_for_selector("#log > li[data-kind='test.rolled']", timeout=TIMEOUT)
        # alice's roller is the same roller, as she left it: values, focus, odds
        assert page.evaluate(MARKED, ".zw-roller"), "the roller was built again"
        assert page.evaluate(MARKED, "#zw-difficulty"), "the Difficulty field was built again"
        assert page.input_value("#zw-difficulty") == "Hard"
        assert page.is_checked("#zw-assist")
        assert page.input_value("#zw-skill") == "Charm"
        assert page.evaluate(FOCUSED) == "zw-difficulty"
        page.wait_for_function(
            "() => !document.querySelector('#zw-odds').classList.contains('stale')",
            timeout=TIMEOUT,
        )
        text = odds.text_content() or ""
        assert "d100 ≤ 30" in text and "Assist Die" in text and "Critical success" in text, text
        # nothing of alice's was rolled: the log's only test is Bert's
        rolled = page.locator("#log > li[data-kind='test.rolled']")
        assert rolled.count() == 1 and "bert" in (rolled.text_content() or "").lower()
        # and the roller still rolls what it shows
        before = alice.version()
        page.click("#zw-roll")
        alice.pushed(before)
        last = page.locator("#log > li[data-kind='test.rolled']").last
        assert "Assist Die" in (last.text_content() or "")
        assert not alice.errors and not bob.errors, alice.errors + bob.errors
    finally:
        alice.context.close()
        bob.context.close()


# ------------------------------------------------------------------------------ Gin Lane


def test_ginlane_tagging_console_keeps_the_skill_tags_and_odds_across_a_push(
    live: Live, browser: Any
) -> None:
    table, tokens = make_table(live, "ginlane", GIN, GIN_PLAYERS)
    _gin_until_kit_waits(live, table, tokens)
    turn = observation(live, table, tokens["referee"])["state"]["turn"]
    other = {"bob": "bob", "sal": "sal"}[turn]
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    them = SeatPage(browser, live, table, other, tokens[other])
    try:
        page = alice.page
        page.wait_for_selector(".gl-tagging .gl-column .odds", timeout=TIMEOUT)
        page.select_option("#gl-skill", "Alertness")
        page.check("#gl-tag-0")
        page.check("#gl-tag-1")
        columns = page.locator(".gl-column")
        page.wait_for_function(
            "() => document.querySelectorAll('.gl-column .odds').length === 5", timeout=TIMEOUT
        )
        # the odds side by side: none, each Aspect alone (the Society's, free, given at creation,
        # among them), both; with Alertness, not the cosh's
        label = page.locator(".gl-column .odds").first.get_attribute("aria-label") or ""
        assert "Alertness" in label, label
        texts = [columns.nth(i).locator(".odds").text_content() for i in range(5)]
        assert texts[1] == texts[2] == texts[3] and len({texts[0], texts[1], texts[4]}) == 3, texts
        page.focus("#gl-tag-1")
        page.evaluate(MARK, ".gl-tagging")
        page.evaluate(MARK, "#gl-columns")
        # the seat whose turn it is takes a Full Defence on its own page: a push reaches alice
        before = alice.version()
        them.take("full_defence")
        alice.pushed(before)
        assert page.evaluate(MARKED, ".gl-tagging"), "the console was built again"
        assert page.evaluate(MARKED, "#gl-columns"), "the columns were built again"
        assert page.input_value("#gl-skill") == "Alertness"
        assert page.is_checked("#gl-tag-0") and page.is_checked("#gl-tag-1")
        assert page.evaluate(FOCUSED) == "gl-tag-1"
        assert columns.count() == 5
        page.wait_for_function(
            "() => document.querySelectorAll('.gl-column .odds').length === 5", timeout=TIMEOUT
        )
        assert "chosen" in (columns.nth(4).get_attribute("class") or "")
        assert "Alertness" in (
            page.locator(".gl-column .odds").last.get_attribute("aria-label") or ""
        )
        assert "4d6kh2" in (columns.nth(4).text_content() or "")
        # the column's button attacks with what it shows; the attack waits for bob's defence
        # (set-up: his answer over the API)
        before = alice.version()
        columns.nth(4).locator("button").click()
        alice.pushed(before)
        act_api(live, table, tokens["bob"], "bob", "defend", skill="Agility")
        page.wait_for_selector("#log > li[data-kind='attack.rolled']", timeout=TIMEOUT)
        card = page.locator("#log > li[data-kind='attack.rolled']").last
        assert "Alertness" in (card.text_content() or "")
        assert not alice.errors and not them.errors, alice.errors + them.errors
    finally:
        alice.context.close()
        them.context.close()


# ------------------------------------------------------------------------------ 360 px

#: Every element of the page that is not inside a scrolling wrapper ends within the viewport;
#: each wide table is in a wrapper that is focusable and named; no table header is empty.
FITS = """() => {
  const width = window.innerWidth, out = [];
  for (const el of document.querySelectorAll('#table-app *')) {
    if (el.closest('.scroll-x') && !el.matches('.scroll-x')) continue;
    if (el.closest('.sr-only, details:not([open]) > :not(summary)')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 0.5)
      out.push((el.id || el.className || el.tagName) + ' ends at ' + Math.round(r.right));
  }
  for (const t of document.querySelectorAll('table')) {
    const wrap = t.closest('.scroll-x');
    if (!wrap || wrap.getAttribute('tabindex') !== '0' || !wrap.getAttribute('aria-label'))
      out.push('a table outside a focusable, named wrapper: ' + t.textContent.slice(0, 60));
  }
  for (const th of document.querySelectorAll('th')) {
    if (!th.textContent.trim())
      out.push('an empty header: ' + th.closest('table').textContent.slice(0, 60));
  }
  return out;
}"""


def _fits_a_phone(seat: SeatPage, boards: list[str], shot: Path) -> None:
    page = seat.page
    page.set_viewport_size({"width": 360, "height": 780})
    for board in boards:
        page.wait_for_selector(board, timeout=TIMEOUT)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{seat.seat}'s page is {width} px wide on a 360 px phone"
    panel = page.evaluate(
        "() => { const p = document.getElementById('state-panel');"
        " return [p.scrollWidth, p.clientWidth]; }"
    )
    assert panel[0] <= panel[1], f"{seat.seat}: the board is {panel[0]} px in a {panel[1]} px panel"
    page.screenshot(path=str(shot), full_page=True)
    overflow = page.evaluate(FITS)
    assert not overflow, f"{seat.seat}: {overflow[:6]}"
    assert not seat.errors, seat.errors


#: The demo's characters with what a chase, a journey and an exchange need, a long name and
#: a long stretch's name.
ZW_SETUP: dict[str, Any] = {
    "fortune_points": 2,
    "characters": {
        "anna": {
            "bonuses": {"WB": 4, "AB": 4, "BB": 3, "PB": 3},
            "skills": {"Charm": 50, "Coordination": 50, "Athletics": 50, "Navigation": 55},
            "order_ranks": 3,
            "chaos_ranks": 1,
            "social_class": "burgher",
            "reputation": 1,
        },
        "bert": {
            "bonuses": {"WB": 3, "AB": 3, "BB": 2, "PB": 4},
            "skills": {"Intimidate": 45, "Coordination": 45, "Survival": 40, "Toughness": 50},
            "chaos_ranks": 2,
            "social_class": "peasant",
        },
        "the_watch_sergeant_of_the_tavern_district": {
            "bonuses": {"WB": 3, "AB": 2, "BB": 4, "PB": 3},
            "skills": {"Coordination": 40, "Toughness": 50, "Stealth": 50},
        },
    },
    "journey": {
        "travellers": ["anna", "bert", "the_watch_sergeant_of_the_tavern_district"],
        "stretches": [
            {
                "name": "the old forest road past the charcoal-burners' huts",
                "length": "short",
                "terrain": "trails",
                "bad_weather": True,
                "threat": "Mildly Dangerous",
                "days": 4,
            },
            {
                "name": "the Grey Peaks",
                "length": "medium",
                "terrain": "mountains",
                "threat": "Moderately Dangerous",
                "days": 10,
            },
        ],
    },
}


def test_every_zweihander_seat_page_fits_a_phone(
    live: Live, browser: Any, screenshots: Path
) -> None:
    players = {"alice": ["anna"], "bob": ["bert"]}
    table, tokens = make_table(live, "zweihander", ZW_SETUP, players)
    sergeant = "the_watch_sergeant_of_the_tavern_district"
    referee = tokens["referee"]
    act_api(
        live,
        table,
        referee,
        "referee",
        "journey.roles",
        guide="anna",
        survivalist="bert",
        scout=sergeant,
    )
    act_api(
        live,
        table,
        referee,
        "referee",
        "chase.start",
        # (Anna stays out of it: a participant acts only in the chase, and her roller is shown)
        escapees={sergeant: "on foot"},
        pursuers={"bert": "on foot"},
        head_start="escapees",
        escape_condition=3,
        takedown="busy tavern",
    )
    act_api(
        live,
        table,
        referee,
        "referee",
        "exchange.start",
        npc="Magistrate Vollmer of the Upper Town",
        disposition="Unfriendly",
        npc_alignment="order",
        participants=["anna", "bert"],
        favourable="Charm",
        unfavourable="Intimidate",
        objectives="a writ of passage through the northern gate before the snows",
        stakes="the party's names in the watch's ledger",
    )
    boards = [".zw-chase .rung", ".zw-journey table", ".zw-exchange", ".zw-session table"]
    for seat in ("referee", "alice", "bob"):
        page = SeatPage(browser, live, table, seat, tokens[seat])
        try:
            roller = [".zw-roller .roll"] if seat == "alice" else []
            _fits_a_phone(page, boards + roller, screenshots / f"zweihander-{seat}-boards-360.png")
        finally:
            page.context.close()


def test_the_chase_shows_the_complications_of_its_own_state(live: Live, browser: Any) -> None:
    """The Complications are the chase's own state (``chase.complications``): the ladder lists
    those of the chase under way, so a second chase starts with none of the first's, and an
    ended chase shows nobody "yet to move"."""
    table, tokens = make_table(live, "zweihander", ZW_SETUP, {"alice": ["anna"], "bob": ["bert"]})
    act_api(
        live,
        table,
        tokens["referee"],
        "referee",
        "chase.start",
        escapees={"anna": "on foot"},
        pursuers={"bert": "on foot"},
        head_start="escapees",
        escape_condition=3,
        takedown="busy tavern",
    )
    seat = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = seat.page
        page.wait_for_selector(".zw-chase:has-text('none yet')", timeout=TIMEOUT)
        version = seat.version()
        state = observation(live, table, tokens["alice"])["state"]
        chase = state["chase"]
        first = {**state, "chase": {**chase, "complications": [[1, "anna"]]}}
        page.evaluate("(o) => window.RefTable.render(o)", {"version": version + 1, "state": first})
        page.wait_for_selector(
            ".zw-complications li:has-text('Round 1: a Complication for anna')", timeout=TIMEOUT
        )
        assert "yet to move" in (page.text_content(".zw-chase") or "")
        second = {**state, "chase": {**chase, "complications": []}}
        page.evaluate("(o) => window.RefTable.render(o)", {"version": version + 2, "state": second})
        page.wait_for_selector(".zw-chase:has-text('none yet')", timeout=TIMEOUT)
        ended = {**state, "chase": {**chase, "ended": "the escapees give up"}}
        page.evaluate("(o) => window.RefTable.render(o)", {"version": version + 3, "state": ended})
        page.wait_for_selector(".zw-chase:has-text('over: the escapees give up')", timeout=TIMEOUT)
        assert "yet to move" not in (page.text_content(".zw-chase") or "")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


#: Gin Lane's ambush, Kit with a long Aspect.
GIN_LONG: dict[str, Any] = copy.deepcopy(GIN)
GIN_LONG["characters"]["kit"]["aspects"] = [
    "Quick Hands",
    "Old Soldier of the Forty-Second Regiment of Foot",
]


def test_every_ginlane_seat_page_fits_a_phone(live: Live, browser: Any, screenshots: Path) -> None:
    table, tokens = make_table(live, "ginlane", GIN_LONG, GIN_PLAYERS)
    _gin_until_kit_waits(live, table, tokens)
    boards = [".gl-zones .gl-person", ".gl-aspects, .gl-board p.muted"]
    for seat in ("referee", "alice", "bob", "sal"):
        page = SeatPage(browser, live, table, seat, tokens[seat])
        try:
            console = [".gl-tagging .gl-column .odds"] if seat == "alice" else []
            _fits_a_phone(page, boards + console, screenshots / f"ginlane-{seat}-boards-360.png")
        finally:
            page.context.close()
