"""An evening of Intrigue in the Clouds at the web table, in Chromium (issue 28): the referee
(1280 px) and three players on phones (360 px), each in a browser context of their own,
clicking the pages only.

Miss Twelve perceives the Countess from her phone, the odds first; the Gorilla rolls his
Stealth against her, and she — the loser — is told the outcome, never his dice or total; the
Gorilla draws his pistol and starts a combat from his phone, the Countess declares a Defensive
Action from hers, the referee resolves: shot and Knocked Out, her phone is asked at once to open
"Open if shot" (the prompt is hers alone), she opens it, and her page says she is knocked out
until 19:05. The referee's clock runs on: at 19:05 she wakes, at 19:15 Miss Twelve may perceive
the Countess again — each told on the page concerned. Every player's page is searched for the
other seats' secrets. The Countess's phone at the decisive moment is photographed for
docs/web.md (docs/img/web-intrigue-decisive.png).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.web.conftest import Live, docs_picture
from tests.web.seats import TIMEOUT, SeatPage
from tests.web.test_intrigue_clock import _choice, _clock, _wait_clock

PEARLS = "Her pearls are paste."
LOCKET = "The locket over your heart stopped the bullet."

EVENING: dict[str, Any] = {
    "start": "19:00",
    "characters": {
        "countess": {
            "name": "The Countess",
            "number": 40,
            "combat": 0,
            "stamina": 7,
            "perception_envelopes": [
                {"id": "to-all", "to": "ALL", "target": 16, "contents": PEARLS}
            ],
            "contingency_envelopes": [{"id": "shot", "event": "shot", "contents": LOCKET}],
        },
        # hits whatever the dice (3d6 + 15 > 0 + 10 + 3) for 4, over half her Stamina of 7;
        # his Stealth 19 beats any Stealth roll of Miss Twelve's (3d6 + 0 ≤ 18 < 22)
        "gorilla": {
            "name": "The Gorilla",
            "number": 62,
            "combat": 15,
            "stamina": 9,
            "skills": {"Stealth": 19},
            "items": {"pistol": {"damage": 4, "gun": True}},
        },
        "twelve": {"name": "Miss Twelve", "number": 12, "skills": {"Perception": 3}},
    },
}
PLAYERS = {"ann": ["twelve"], "gus": ["gorilla"], "cid": ["countess"]}


def _odds_first(seat: SeatPage, details: Any, words: str) -> str:
    """The odds the form shows before it is sent (its odds box, once it holds ``words``)."""
    seat.wait_text(f"#{details.get_attribute('id')} .odds-box", words)
    return details.locator(".odds-box").text_content() or ""


def _events_received(seat: SeatPage, kind: str) -> list[dict[str, Any]]:
    """Every event of ``kind`` in the raw bytes ``seat`` received (pushes and answers)."""
    found: list[dict[str, Any]] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("kind") == kind and "payload" in value:
                found.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for raw in [*seat.frames, *seat.bodies]:
        try:
            walk(json.loads(raw))
        except ValueError:
            continue
    return found


def _has(received: str, key: str, value: object) -> bool:
    """True if ``received`` (JSON, spaced or not) holds ``"key": value``."""
    return re.search(rf'"{key}":\s*{re.escape(str(value))}\b', received) is not None


def test_an_evening_shot_knocked_out_opened_and_woken(
    live: Live, browser: Any, screenshots: Path
) -> None:
    created = live.store.create_table(
        "intrigue", EVENING, name="An evening", players=PLAYERS, start="19:00"
    )
    table, tokens = created.id, dict(created.tokens)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    twelve = SeatPage(browser, live, table, "ann", tokens["ann"]).phone()
    gorilla = SeatPage(browser, live, table, "gus", tokens["gus"]).phone()
    countess = SeatPage(browser, live, table, "cid", tokens["cid"]).phone()
    seats = (referee, twelve, gorilla, countess)
    try:
        for seat in seats:
            _wait_clock(seat, "19:00")
        # -- Miss Twelve perceives the Countess from her phone: her total's odds first
        form = _choice(twelve, "twelve|perceive|perceive")
        form.locator("select[name='target']").select_option('"countess"')
        odds = _odds_first(twelve, form, "3d6 + 3")
        assert "16 or more" in odds and "to-all" not in odds
        twelve.submit(form)
        twelve.wait_text("#ic-cooldowns", "Next check on #40 The Countess at 19:15")

        # -- the Gorilla rolls his Stealth against hers: she loses, and is told only that
        versus = _choice(gorilla, "gorilla|roll|skill roll against another character")
        versus.locator("select[name='skill']").select_option('"Stealth"')
        versus.locator("select[name='against']").select_option('"twelve"')
        assert "3d6 + 19" in _odds_first(gorilla, versus, "3d6 + 19")
        gorilla.submit(versus)
        twelve.wait_version(gorilla.version())
        [rolled] = [e for e in live.store.load(table).log.events if e.kind == "skill.rolled"]
        won = rolled.data
        assert won["success"] is True and won["total"] >= 22
        twelve.wait_text("#log", "rolls Stealth against")
        line = re.search(
            r"[^.]*rolls Stealth against [^.]*\.", twelve.page.text_content("#log") or ""
        )
        assert (
            line and line.group(0).endswith("succeeds.") and str(won["total"]) not in line.group(0)
        )
        told = _events_received(twelve, "skill.rolled")
        assert told, "her phone was told of the roll"
        for event in told:
            parts = {
                **event["payload"],
                **{x["name"]: x["value"] for x in event.get("secrets", [])},
            }
            assert parts["success"] is True and parts["against_total"] == won["against_total"]
            assert "total" not in parts and "faces" not in parts, parts  # not his dice or total
            assert str(won["total"]) not in event.get("text", "")
        heard = twelve.received()
        assert "3d6+19" not in heard and "3d6 + 19" not in heard  # his Stealth, nowhere
        assert all("value" not in {x["name"] for x in e.get("secrets", [])} for e in told)
        [his] = _events_received(gorilla, "skill.rolled")[-1:]
        assert {x["name"] for x in his["secrets"]} >= {"total", "faces", "against_total"}

        # -- the Gorilla draws his pistol and shouts Combat at the Countess, from his phone
        gorilla.submit(_choice(gorilla, "gorilla|draw|draw"))
        start = _choice(gorilla, "gorilla|start_combat|start a combat")
        start.get_by_label("countess", exact=True).check()
        gorilla.submit(start)
        attack = _choice(gorilla, "gorilla|declare|attack")
        attack.locator("select[name='target']").select_option('"countess"')
        assert "3d6+15 > 10" in _odds_first(gorilla, attack, "3d6+15")
        gorilla.submit(attack)
        defend = _choice(countess, "countess|declare|defend")
        countess.submit(defend)
        referee.submit(_choice(referee, "referee|resolve|resolve"))

        # -- shot and Knocked Out: her phone asks her at once to open "Open if shot"
        region = countess.page.locator("#act-panel .prompt[role='region']")
        region.wait_for(timeout=TIMEOUT)
        said = region.text_content() or ""
        assert "may be opened now" in said and "Open if shot" in said, said
        assert "Nothing for you to do" not in (countess.page.text_content("#choices") or "")
        countess.wait_text("#ic-news", "Envelope shot (Open if shot) may be opened now")
        countess.wait_text("#console", "Knocked out: wakes at 19:05")
        first = region.bounding_box()
        assert first is not None and first["y"] < 500  # read without scrolling
        width = countess.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"her page is {width} px wide on a 360 px phone"
        opening = region.locator("details.choice[data-key='countess|open|open']")
        opening.locator("summary").click()
        opening.locator("button[type=submit]").wait_for(timeout=TIMEOUT)
        countess.page.screenshot(path=str(screenshots / "intrigue-decisive-360.png"))
        countess.page.screenshot(path=str(docs_picture("web-intrigue-decisive.png")))
        for other in (twelve, gorilla):
            heard = other.received()
            assert "Open if shot" not in heard and "may be opened now" not in heard
            assert other.page.locator("#act-panel .prompt").count() == 0
            # nor that she, knocked out, has anything to do
            assert "countess" not in (other.page.text_content("#to-move") or "")

        # -- she opens it, knocked out; then her page says why she waits, and until when
        countess.submit(opening)
        countess.wait_text("#ic-handed", LOCKET)
        waiting = countess.page.locator("#choices p.waiting")
        waiting.wait_for(timeout=TIMEOUT)
        assert "The Countess is knocked out, until 19:05." in (waiting.text_content() or "")
        countess.page.screenshot(path=str(screenshots / "intrigue-knocked-out-waits-360.png"))

        # -- the referee's clock: at 19:05 she wakes, at 19:15 Miss Twelve may look again
        referee.page.click("#ic-plus-5")
        _wait_clock(countess, "19:05")
        countess.wait_text("#ic-news", "#40 The Countess wakes")
        referee.wait_text("#ic-news", "#40 The Countess wakes")
        countess.page.wait_for_selector("#choices p.waiting", state="detached", timeout=TIMEOUT)
        _choice(countess, "countess|roll|skill roll against a Target Number")
        referee.page.fill("#ic-to", "19:15")
        referee.page.click("#ic-to-go")
        _wait_clock(referee, "19:15")
        twelve.wait_text("#ic-news", "You may perceive #40 The Countess again")
        assert _clock(twelve) == "19:15"
        for other in (gorilla, countess):
            assert "may perceive #40" not in (other.page.text_content("#ic-news") or "")

        # -- no player's page ever received another seat's secrets
        for seat in (twelve, gorilla):
            assert LOCKET not in seat.received()
        for seat in (gorilla, countess):
            assert PEARLS not in seat.received()  # hers to hand over, never to read
        for seat in (twelve, countess):
            heard = seat.received()
            assert not _has(heard, "stamina", 9) and not _has(heard, "Stealth", 19)
        for seat in (twelve, gorilla):
            heard = seat.received()
            assert not _has(heard, "stamina", 7) and not _has(heard, "stamina_stat", 7)
        for seat in (gorilla, countess):
            assert not _has(seat.received(), "Perception", 3)
        for seat in seats:
            assert not seat.errors, (seat.seat, seat.errors)
    finally:
        for seat in seats:
            seat.context.close()
