"""A Burning Kingdoms faction's page on a 360-pixel phone, driven through the page alone: two
factions, each in its own browser context.

- A faction half-writes its sealed slip (maneuver, Persona, downtime, the focus in a field);
  the other faction seals its own slip through its own page; the first faction's form still
  holds every value and the very same focused element, which still takes the keys.
- Both factions see the odds of what they will roll before they send it: the slip's pool (and
  each Persona spent, side by side); after the roll, keeping it or spending Fate, side by side;
  a tied versus test's tie-breaker, offered to both. The charts show the outcomes that matter
  (no run of rows under 0.1%), and they are the odds the game's ``odds_of`` gives.
- No page is wider than 360 px, and a faction's own decisions come before its status.

Screenshots: build/screenshots/kingdoms-*-360*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from referee.core import Action, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage


def _fits(seat: SeatPage, name: str, screenshots: Path) -> None:
    """Not wider than the phone (nothing cut: the page itself never scrolls sideways)."""
    page = seat.page
    page.screenshot(path=str(screenshots / f"kingdoms-{name}-360.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{name}: the page is {width} px wide on a 360 px phone"


def _rows(seat: SeatPage, selector: str) -> list[str]:
    """The rows of every odds chart under ``selector``, as their text."""
    return [t.strip() for t in seat.page.locator(f"{selector} ul.odds > li").all_inner_texts()]


def _imported(live: Live, upto: int) -> tuple[str, dict[str, str]]:
    """The demo's own chronicle (Persona, Fate and a tie-breaker) played with its scripted
    dice up to its ``upto``-th action, stored as a table: the same rolls on every run."""
    data = yaml.safe_load((EXAMPLES / DEMOS["kingdoms"]).read_text("utf-8"))
    source = ScriptedSource(data["dice"]["script"])
    table = Table.start(PROCEDURE, data["setup"], players=data["players"], system="kingdoms")
    for step in data["actions"][:upto]:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    created = live.store.import_record(table.to_record(), name="Persona, Fate and a tie")
    return created.id, dict(created.tokens)


def test_a_half_written_slip_survives_the_other_factions_move(
    live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = live.demo("kingdoms")
    elves = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    orcs = SeatPage(browser, live, table, "bob", tokens["bob"]).phone()
    try:
        page = elves.page
        page.wait_for_selector("#bk-elves-maneuver", timeout=TIMEOUT)
        # the decisions come first: the slip form above the faction's status
        assert page.evaluate(
            "document.getElementById('bk-elves-maneuver').compareDocumentPosition("
            "document.querySelector('.bk-status')) & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        page.select_option("#bk-elves-maneuver", "Fortify")
        page.fill("#bk-elves-persona", "1")
        page.fill("#bk-elves-downtime", "1")
        page.focus("#bk-elves-downtime")
        page.evaluate("document.activeElement.dataset.mark = 'mine'")
        elves.wait_text("#bk-elves-odds", "5d6 vs Ob 2")
        before = elves.version()
        # the orcs script and seal their slip through their own page
        orcs.page.wait_for_selector("#bk-orcs-maneuver", timeout=TIMEOUT)
        orcs.page.select_option("#bk-orcs-maneuver", "Infiltrate")
        orcs.page.select_option("#bk-orcs-target", "elves")
        orcs.page.click("#bk-orcs-seal")
        orcs.wait_text("#bk-sealed-orcs", "Infiltrate with Inconspicuous against the Elves")
        elves.wait_version(before + 1)  # the orcs' sealing, pushed to the elves
        # the elves' half-written slip is as they left it: values, focus, caret
        assert page.eval_on_selector("#bk-elves-maneuver", "el => el.value") == "Fortify"
        assert page.eval_on_selector("#bk-elves-persona", "el => el.value") == "1"
        assert page.eval_on_selector("#bk-elves-downtime", "el => el.value") == "1"
        assert page.evaluate("document.activeElement.id") == "bk-elves-downtime"
        assert page.evaluate("document.activeElement.dataset.mark") == "mine"
        elves.wait_text("#bk-elves-odds", "5d6 vs Ob 2")
        # the picture in docs/web.md: the half-written slip on the phone, after the push
        elves.wait_text("#bk-elves-persona-odds", "81.3%")
        top = page.evaluate("document.getElementById('act-h').getBoundingClientRect().y + scrollY")
        page.screenshot(
            path=str(screenshots / "kingdoms-elves-slip-phone-360.png"),
            full_page=True,
            clip={"x": 0, "y": max(0, top - 12), "width": 360, "height": 1330},
        )
        # and the keyboard still types into it: the 1 rubbed out, a 2 typed
        page.keyboard.press("Backspace")
        page.keyboard.type("2")
        assert page.eval_on_selector("#bk-elves-downtime", "el => el.value") == "2"
        page.click("#bk-elves-seal")
        elves.wait_text("#bk-sealed-elves", "Fortify with Logistics (1 Persona; 2 to downtime)")
        for seat, name in ((elves, "elves-slip"), (orcs, "orcs-slip")):
            _fits(seat, name, screenshots)
            assert not seat.errors, seat.errors
    finally:
        elves.context.close()
        orcs.context.close()


def test_each_faction_sees_the_odds_of_its_rolls_before_sending(
    live: Live, browser: Any, screenshots: Path
) -> None:
    # the slips: each faction's own pool, and each Persona spent side by side
    table, tokens = live.demo("kingdoms")
    elves = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    orcs = SeatPage(browser, live, table, "bob", tokens["bob"]).phone()
    try:
        elves.page.wait_for_selector("#bk-elves-maneuver", timeout=TIMEOUT)
        elves.page.select_option("#bk-elves-maneuver", "Fortify")
        elves.wait_text("#bk-elves-persona-odds", "no Persona")
        elves.wait_text("#bk-elves-persona-odds", "81.3%")  # 13/16: 5d6 against Ob 2
        side = elves.text("#bk-elves-persona-odds")
        assert "1 Persona" in side and "68.8%" in side and "81.3%" in side  # 11/16 and 13/16
        orcs.page.wait_for_selector("#bk-orcs-maneuver", timeout=TIMEOUT)
        orcs.page.select_option("#bk-orcs-maneuver", "Infiltrate")
        orcs.wait_text("#bk-orcs-odds", "successes")
        assert "%" in orcs.text("#bk-orcs-odds")
        _fits(elves, "elves-persona", screenshots)
    finally:
        elves.context.close()
        orcs.context.close()

    # after the roll: the elves rolled 2 successes on 5 dice with a 6, and have Fate left
    table, tokens = _imported(live, 6)
    elves = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    try:
        page = elves.page
        page.wait_for_selector("#bk-elves-artha", timeout=TIMEOUT)
        elves.wait_text("#bk-elves-artha", "Spend Fate")
        elves.wait_text("#bk-elves-artha", "41.7%")  # 3 successes: the 6 explodes to a 4-6
        columns = page.locator("#bk-elves-artha > .bk-option").all_inner_texts()
        assert [c.split("\n")[0] for c in columns] == ["No artha", "Fate"]
        assert "2 successes" in columns[0] and "100%" in columns[0]
        rows = _rows(elves, "#bk-elves-artha > .bk-option > div:not(.bk-outcome)")
        assert 3 <= len(rows) <= 8, rows  # the outcomes that matter, not 60 counts
        # and first, what each option buys: winning, tying or losing the Orcs' Infiltrate
        bought = _rows(elves, "#bk-elves-artha .bk-outcome")
        assert bought and all(r.split()[0] in ("win", "tie", "lose") for r in bought), bought
        assert sum("<0.1%" in r for r in rows) <= 1, rows
        assert any(r.startswith("6+ successes") for r in rows), rows
        # the reveal's board fits the phone too, and the decision comes before it
        page.wait_for_selector("#bk-reveal-h", timeout=TIMEOUT)
        _fits(elves, "elves-artha", screenshots)
        assert not elves.errors, elves.errors
    finally:
        elves.context.close()

    # a tied versus test (the elves' Fate made it 4 against 4): the tie-breaker is offered to
    # both, each with its odds before it agrees; the orcs agree first, then the elves
    table, tokens = _imported(live, 7)
    elves = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    orcs = SeatPage(browser, live, table, "bob", tokens["bob"]).phone()
    try:
        # the log's card of the Fate spent: the counts that matter, not 60 rows of "<0.1%"
        card = _rows(elves, "#log li[data-kind='artha.spent']")
        assert 3 <= len(card) <= 8 and sum("<0.1%" in r for r in card) <= 1, card
        # each side tests a root of the skill it used: the elves' Logistics is Perception's
        orcs.wait_text("#bk-orcs-tie-odds", "if the Elves agree on Perception")
        assert "22.7%" in orcs.text("#bk-orcs-tie-odds")  # Will B3 beats Perception B4: 29/128
        assert "agree on Will" not in orcs.text("#bk-orcs-tie-odds")
        roots = elves.page.locator("#bk-elves-tie-root option").all_text_contents()
        assert roots == ["Perception"], roots  # not the Will on Aeluin's sheet
        assert elves.text("label[for='bk-elves-tie-root']") == "Root stat of Logistics"
        elves.wait_text("#bk-elves-tie-odds", "if the Orcs agree on Will")
        mine = elves.text("#bk-elves-tie-odds")
        before = orcs.version()
        orcs.page.click("#bk-orcs-tie-agree")
        elves.wait_version(before + 1)
        elves.wait_text("#bk-elves-tie-h", "tie-breaker")
        elves.wait_text("#bk-elves-tie", "the Orcs agreed to it, on Will")
        # once the orcs agreed, the elves' odds are against the root they chose, no "if"
        elves.page.wait_for_function(
            "() => !document.getElementById('bk-elves-tie-odds')"
            ".textContent.includes('if the Orcs')",
            timeout=TIMEOUT,
        )
        after = elves.text("#bk-elves-tie-odds")
        assert "against the Orcs' Will" in after
        for pct in ("success", "failure"):
            assert pct in mine and pct in after
        for seat, name in ((elves, "elves-tie"), (orcs, "orcs-tie")):
            _fits(seat, name, screenshots)
            assert not seat.errors, seat.errors
    finally:
        elves.context.close()
        orcs.context.close()
