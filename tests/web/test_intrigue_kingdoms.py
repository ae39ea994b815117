"""The per-game screens of Intrigue in the Clouds and Burning Kingdoms, in Chromium.

Intrigue: the referee runs a Perception Check from the console (the odds of each envelope shown
for the perceiver and target chosen), and is told which envelope to hand over; the perceiving
player sees its contents arrive; the holder sees what to hand over but never what is inside.
Kingdoms: each faction writes its sealed slip on its own screen (the odds of its own pool
following the fields), the other faction's page never holds it before the reveal, and both
see the reveal, its engagements' odds, each faction's artha choice and the resolution.
One flow per game is completed with the keyboard alone. Screenshots: build/screenshots/.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage

#: What the Countess's envelopes hold: only a perceiver who earns one (and the referee) may see it.
PEARLS = "Her pearls are paste."
VIENNA = "You recognise her: she was a cook in Vienna."


def _intrigue(live: Live) -> tuple[str, dict[str, str]]:
    """The Intrigue demo, Mr Fifteen's Perception raised to 13: his check on the Countess
    earns the envelope for ALL whatever the dice (3d6 + 13 ≥ 16), so the flow is the same on
    every run; Miss Twelve keeps her 3 (odds of 7/27 and 1/2)."""
    data = yaml.safe_load((EXAMPLES / DEMOS["intrigue"]).read_text("utf-8"))
    setup = copy.deepcopy(data["setup"])
    setup["characters"]["fifteen"]["skills"]["Perception"] = 13
    created = live.store.create_table(
        "intrigue", setup, name="Perception", players=data["players"], start="19:00"
    )
    return created.id, dict(created.tokens)


def test_intrigue_referee_perception_console(live: Live, browser: Any, screenshots: Path) -> None:
    table, tokens = _intrigue(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    fifteen = SeatPage(browser, live, table, "fifteen", tokens["fifteen"])
    holder = SeatPage(browser, live, table, "ann", tokens["ann"])  # plays the Countess
    pages = [referee, fifteen, holder]
    try:
        page = referee.page
        page.wait_for_selector("#ic-perceiver", timeout=TIMEOUT)
        # the odds follow the fields: Miss Twelve (Perception 3) on the Countess: two envelopes
        page.select_option("#ic-perceiver", "twelve")
        page.select_option("#ic-target", "countess")
        referee.wait_text("#ic-perc-odds", "to-some")
        odds = referee.text("#ic-perc-odds")
        assert "Give to ALL with a Roll of 16 or more" in odds and "3d6+3 ≥ 16" in odds
        assert "25.9%" in odds and "50%" in odds  # 7/27 and 1/2, the rules' own checks
        # Miss Twelve on Mr Fifteen, who carries nothing: nothing to hand over
        page.select_option("#ic-target", "fifteen")
        referee.wait_text("#ic-perc-odds", "nothing to hand over")
        # Mr Fifteen (Perception 13) on the Countess: the envelope for ALL alone, surely
        page.select_option("#ic-perceiver", "fifteen")
        page.select_option("#ic-target", "countess")
        referee.wait_text("#ic-perc-odds", "3d6+13 ≥ 16")
        assert "to-some" not in referee.text("#ic-perc-odds")
        before = referee.version()
        page.click("#ic-perceive")
        for seat in pages:
            seat.wait_version(before + 2)  # the check and its cooldown's timer
        # the referee is told which envelope to hand over, by its label, in the console and log
        said = "hands over “Give to ALL with a Roll of 16 or more” (to-all)"
        referee.wait_text("#ic-perc-said", said)
        assert said in referee.text("#log")
        # and the cooldown: the same check again is refused until 19:15
        referee.wait_text("#ic-perc-odds", "next check at 19:15")
        assert page.is_disabled("#ic-perceive")
        # the perceiver sees the contents arrive, on their own screen
        fifteen.wait_text("#ic-handed", PEARLS)
        assert "Give to ALL with a Roll of 16 or more" in fifteen.text("#ic-handed")
        # the holder is told what to hand over, never what is inside
        holder.wait_text("#log", "hands over “Give to ALL")
        received = holder.received()
        assert PEARLS not in received and VIENNA not in received
        assert VIENNA not in fifteen.received()  # not earned: never sent to him either
        assert "Perception" not in holder.text("#console")  # another's skill values stay his
        for seat in pages:
            assert not seat.errors, seat.errors
        referee.photograph(screenshots, "intrigue-referee-console")
        fifteen.photograph(screenshots, "intrigue-fifteen-envelopes")
    finally:
        for seat in pages:
            seat.context.close()


def _take(seat: SeatPage, kind: str, label: str = "") -> None:
    """Take the generic choice of ``kind`` (whose summary says ``label``) with its defaults:
    a scene, a pass, the reveal, keeping a roll."""
    details = seat.page.locator(f"details.choice:has(> form[data-kind='{kind}'])")
    if label:
        details = details.filter(has_text=label)
    details = details.first
    form = details.locator("form")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    seat.submit(form)


def test_kingdoms_sealed_slips_and_the_reveal(live: Live, browser: Any, screenshots: Path) -> None:
    table, tokens = live.demo("kingdoms")
    elves = SeatPage(browser, live, table, "ann", tokens["ann"])
    orcs = SeatPage(browser, live, table, "bob", tokens["bob"])
    pages = [elves, orcs]
    try:
        # the elves script a Fortify on their own screen; its odds follow the Persona spent
        page = elves.page
        page.wait_for_selector("#bk-elves-maneuver", timeout=TIMEOUT)
        page.select_option("#bk-elves-maneuver", "Fortify")
        elves.wait_text("#bk-elves-odds", "4d6 vs Ob 2")
        assert "68.8%" in elves.text("#bk-elves-odds")  # 11/16: Logistics B4 against Ob 2
        page.fill("#bk-elves-persona", "1")
        elves.wait_text("#bk-elves-odds", "5d6 vs Ob 2")
        assert "81.3%" in elves.text("#bk-elves-odds")  # 13/16 with a die of Persona
        page.click("#bk-elves-seal")
        elves.wait_text("#bk-sealed-elves", "Fortify with Logistics (1 Persona)")
        # the orcs script an Infiltrate of the elves on theirs
        orcs.page.wait_for_selector("#bk-orcs-maneuver", timeout=TIMEOUT)
        orcs.page.select_option("#bk-orcs-maneuver", "Infiltrate")
        orcs.page.select_option("#bk-orcs-target", "elves")
        orcs.wait_text("#bk-orcs-odds", "successes")
        orcs.page.click("#bk-orcs-seal")
        orcs.wait_text("#bk-sealed-orcs", "Infiltrate with Inconspicuous against the Elves")
        elves.page.wait_for_function(
            f"() => Number(document.body.dataset.version) >= {orcs.version()}", timeout=TIMEOUT
        )
        # neither page ever held the other's slip before the reveal
        for seat, words, maneuver in (
            (orcs, "Fortify with Logistics", "Fortify"),
            (elves, "Infiltrate with Inconspicuous", "Infiltrate"),
        ):
            received = seat.received().replace(" ", "")
            assert words.replace(" ", "") not in received, f"{seat.seat} received the other slip"
            assert f'"maneuver":"{maneuver}"' not in received, f"{seat.seat}: the other slip"
        assert '"maneuver":"Fortify"' in elves.received().replace(" ", "")  # the search can hit
        # the orcs' conflict scene (Infiltrate requires one), both pass, the elves read the slips
        _take(orcs, "scene", "conflict scene")
        _take(elves, "pass")
        _take(orcs, "pass")
        _take(elves, "reveal")
        for seat in pages:
            seat.wait_text("#state", "The reveal of maneuver 1")
            seat.wait_text("#state", "the Orcs against the Elves · versus (V)")
            state = seat.text("#state")
            assert "Fortify with Logistics (1 Persona)" in state
            assert "Infiltrate with Inconspicuous against the Elves" in state
            assert "no artha" in state and "%" in state  # each engagement's odds by artha
            # each page checked both slips against the commitments it saw sealed (issue 12)
            seals = seat.page.locator("#log .seal")
            seals.first.wait_for()
            assert seals.count() == 2, seals.all_inner_texts()
            assert [s.get_attribute("data-verdict") for s in seals.all()] == ["checked"] * 2
        # each faction's artha choice after the roll, then the resolution narrated
        # (a faction with no Fate or Deeds left has nothing to decide: its roll stands)
        for seat in pages:
            if seat.page.locator("details.choice > form[data-kind='keep']").count():
                _take(seat, "keep")
        for seat in pages:
            seat.wait_text("#state", "kept the roll")
        _take(elves, "resolve")
        for seat in pages:
            seat.wait_text("#state", "The resolution")
            assert seat.page.locator("#state ol.narrated li").count() >= 1
            assert not seat.errors, seat.errors
        elves.photograph(screenshots, "kingdoms-elves-reveal")
    finally:
        for seat in pages:
            seat.context.close()


def test_intrigue_perception_check_by_keyboard_alone(live: Live, browser: Any) -> None:
    """The referee: Tab to the perceiver, arrow keys to choose, Tab to the target and to the
    button, Enter; the console says what to hand over and the perceiver's page shows it."""
    table, tokens = _intrigue(live)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    fifteen = SeatPage(browser, live, table, "fifteen", tokens["fifteen"])
    try:
        page = referee.page
        page.wait_for_selector("#ic-perceiver", timeout=TIMEOUT)
        referee.tab_to("#ic-perceiver")
        for _ in range(5):  # the characters by badge number: 40, 15, 12, 20; arrow to "15"
            if page.eval_on_selector("#ic-perceiver", "el => el.value") == "fifteen":
                break
            page.keyboard.press("ArrowDown")
        assert page.eval_on_selector("#ic-perceiver", "el => el.value") == "fifteen"
        referee.tab_to("#ic-target")
        for _ in range(5):
            if page.eval_on_selector("#ic-target", "el => el.value") == "countess":
                break
            page.keyboard.press("ArrowDown")
        referee.wait_text("#ic-perc-odds", "3d6+13 ≥ 16")
        referee.tab_to("#ic-perceive")
        page.keyboard.press("Enter")
        referee.wait_text("#ic-perc-said", "hands over “Give to ALL")
        fifteen.wait_text("#ic-handed", PEARLS)
    finally:
        referee.context.close()
        fifteen.context.close()


def test_kingdoms_slip_by_keyboard_alone(live: Live, browser: Any) -> None:
    """A faction: Tab to the maneuver, arrow keys to choose Fortify, Tab to the seal button,
    Enter; its screen shows the sealed slip."""
    table, tokens = live.demo("kingdoms")
    elves = SeatPage(browser, live, table, "ann", tokens["ann"])
    try:
        page = elves.page
        page.wait_for_selector("#bk-elves-maneuver", timeout=TIMEOUT)
        elves.tab_to("#bk-elves-maneuver")
        for _ in range(6):
            if page.eval_on_selector("#bk-elves-maneuver", "el => el.value") == "Fortify":
                break
            page.keyboard.press("ArrowDown")
        assert page.eval_on_selector("#bk-elves-maneuver", "el => el.value") == "Fortify"
        elves.tab_to("#bk-elves-seal")
        page.keyboard.press("Enter")
        elves.wait_text("#bk-sealed-elves", "Fortify with Logistics")
        # The slip can be drawn by the table's live update before the seal's answer moves the
        # focus to it: wait for the focus, which fails the test if it never comes.
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.id === 'bk-sealed-elves'",
            timeout=TIMEOUT,
        )
        assert page.evaluate("document.activeElement.id") == "bk-sealed-elves"
    finally:
        elves.context.close()
