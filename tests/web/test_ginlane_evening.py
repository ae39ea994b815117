"""An evening of Gin Lane at the web table (issue 28, "the first hit stops the fight"): a fight
played through the pages only — the referee at 1280 px, three players on phones at 360 px,
each in a browser context of their own, the real server, store and WebSocket, the dice the
table's own.

Moll (Weapons 5, a pole-arm) fights Jack and Tom. Jack is attacked: his phone asks him for his
defence (Gin Lane, "Defence") with the odds of each allowed skill side by side; he tags his own
Aspect and dodges; the hit waits for him ("Consequences") and he takes a Consequence instead of
stress. Jack's manoeuvre on Moll waits for her defence the same way, chosen on her phone.
Tom, attacked in his turn, concedes before the roll (Rulings: conceding). Tom's Wait
keeps its plan a secret: no other player's page ever receives it. The decisive moment, Jack's
defence prompt, is photographed for docs/web.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Live, docs_picture
from tests.web.seats import TIMEOUT, SeatPage

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
PLAN = "knife Moll in the back when she turns"
"""Tom's Wait: a secret of his seat (and the referee's)."""

SETUP = {
    "zones": ["the Crown"],
    "characters": {
        "moll": {
            "side": "society",
            "weapon": "pole-arm",
            "aspects": ["Sharp-Tongued Fencing Mistress", "Daughter of a Thames Waterman"],
            "skills": {
                "Weapons": 5,
                **dict.fromkeys(["Agility", "Brawl"], 4),
                **dict.fromkeys(["Strength", "Stealth", "Burglary"], 3),
                **dict.fromkeys(["Gambling", "Drive", "Charm", "Empathy"], 2),
                **dict.fromkeys(["Alertness", "Deceive", "Oratory", "Investigation", "Ride"], 1),
            },
            "experience": 40,
        },
        "jack": {
            "side": "bravoes",
            "npc": True,
            "aspects": ["Gin-Soaked Bravo"],
            "skills": {"Intimidation": 1},
            "experience": 4,
        },
        "tom": {"side": "bravoes", "npc": True, "skills": {"Stealth": 1}, "experience": 2},
    },
}
"""Moll's pole-arm (+3) at 2d6+5 against Jack's and Tom's untrained −2: a hit all but
certain (a Match deals the bonus too), whatever the table's dice."""


def _open(seat: SeatPage, key: str) -> Any:
    """The form of the choice whose key starts ``key`` (``moll|attack``), opened."""
    details = seat.page.locator(f"details.choice[data-key^='{key}']").first
    details.wait_for(timeout=TIMEOUT)
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return details.locator("form")


def _whose_turn(seats: dict[str, SeatPage]) -> str:
    for cid in ("moll", "jack", "tom"):
        if seats[cid].page.locator(f"details.choice[data-key^='{cid}|something_else']").count():
            return cid
    raise AssertionError("nobody's turn on any page")


def _jack_defends_and_takes_a_consequence(seats: dict[str, SeatPage]) -> None:
    moll, jack = seats["moll"], seats["jack"]
    attack = _open(moll, "moll|attack")
    attack.get_by_label("target", exact=True).select_option(label="jack")
    for aspect in ("Sharp-Tongued Fencing Mistress", "Daughter of a Thames Waterman"):
        attack.get_by_label(aspect, exact=True).check()
    moll.submit(attack, seats.values())
    # Jack's phone: the defence asked first, the odds of each skill side by side
    region = jack.page.locator("#act-panel .prompt[role='region']").first
    region.wait_for(timeout=TIMEOUT)
    words = region.text_content() or ""
    assert "Moll attacks Jack with the pole-arm (Weapons): choose a defence" in words
    region.locator("details.choice[data-key^='jack|defend'] > summary").click()
    defend = region.locator("form[data-kind='defend']")
    skills = defend.get_by_label("skill", exact=True).locator("option").all_text_contents()
    assert skills == ["Agility", "Weapons"]
    labels = " ".join(region.locator(".odds-box, .odds").all_text_contents())
    assert "defends with Agility" in labels and "defends with Weapons" in labels
    defend.get_by_label("Gin-Soaked Bravo", exact=True).check()
    jack.page.screenshot(path=str(SHOTS / "ginlane-defence-prompt.png"))
    jack.page.wait_for_selector("form[data-kind='defend'] .odds-box .odds li", timeout=TIMEOUT)
    region.screenshot(path=str(docs_picture("web-ginlane-decisive.png")))
    # the others wait, told whom for
    assert "choose a defence" in (moll.page.locator("#choices").text_content() or "")
    defend.get_by_label("skill", exact=True).select_option(label="Agility")
    jack.submit(defend, seats.values())
    log = seats["referee"].page.locator("#log").text_content() or ""
    assert "Gin-Soaked Bravo" in log  # Jack tagged his Aspect for his defence
    # the hit waits for Jack: he takes a Consequence instead
    region = jack.page.locator("#act-panel .prompt[role='region']").first
    region.wait_for(timeout=TIMEOUT)
    assert "take it, or Consequences instead" in (region.text_content() or "")
    region.locator("details.choice[data-key^='jack|absorb'] > summary").click()
    absorb = region.locator("form[data-kind='absorb']")
    absorb.get_by_role("button", name="Add a step").click()
    step = absorb.locator("li.step").nth(0)
    step.get_by_label("severity", exact=True).select_option(label="heavy")
    step.get_by_label("aspect", exact=True).fill("Broken Arm")
    jack.page.screenshot(path=str(SHOTS / "ginlane-consequence.png"))
    jack.submit(absorb, seats.values())
    sheet = seats["referee"].page.locator("main").text_content() or ""
    assert "Consequences: heavy: Broken Arm" in sheet


def _moll_defends_against_a_manoeuvre(seats: dict[str, SeatPage]) -> None:
    """Jack's Blind (a manoeuvre, Brawl) waits for Moll: her phone asks her for her defence
    ("Choose a skill to defend with in response to an Attack or Manoeuvre"), the allowed
    skills with their odds, no concession; she parries with Weapons."""
    jack, moll = seats["jack"], seats["moll"]
    jack.submit(_open(jack, "jack|manoeuvre"), seats.values())
    region = moll.page.locator("#act-panel .prompt[role='region']").first
    region.wait_for(timeout=TIMEOUT)
    assert region.locator("details.choice[data-key^='moll|concede']").count() == 0
    region.locator("details.choice[data-key^='moll|defend'] > summary").click()
    defend = region.locator("form[data-kind='defend']")
    skills = defend.get_by_label("skill", exact=True).locator("option").all_text_contents()
    assert {"Weapons", "Agility", "Brawl"} <= set(skills), skills
    moll.page.wait_for_selector("form[data-kind='defend'] .odds-box .odds li", timeout=TIMEOUT)
    defend.get_by_label("skill", exact=True).select_option(label="Weapons")
    moll.submit(defend, seats.values())
    log = seats["referee"].page.locator("#log").text_content() or ""
    assert "Moll defends with Weapons" in log


def _tom_concedes(seats: dict[str, SeatPage]) -> None:
    moll, tom = seats["moll"], seats["tom"]
    attack = _open(moll, "moll|attack")
    attack.get_by_label("target", exact=True).select_option(label="tom")
    moll.submit(attack, seats.values())
    region = tom.page.locator("#act-panel .prompt[role='region']").first
    region.wait_for(timeout=TIMEOUT)
    region.locator("details.choice[data-key^='tom|concede'] > summary").click()
    tom.submit(region.locator("form[data-kind='concede']"), seats.values())
    log = seats["referee"].page.locator("#log").text_content() or ""
    assert "Tom concedes to Moll before the roll" in log
    # a Taken Out seat is told why, and until when
    waiting = tom.page.locator("#choices p.waiting").first
    waiting.wait_for(timeout=TIMEOUT)
    assert "Taken Out" in (waiting.text_content() or "")


def test_a_gin_lane_fight_where_a_defender_tags_takes_a_consequence_and_another_concedes(
    live: Live, browser: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    created = live.store.create_table(
        "ginlane",
        SETUP,
        name="A fight at the Crown",
        players={"ann": ["moll"], "ben": ["jack"], "cat": ["tom"]},
    )
    pages = {
        "referee": SeatPage(browser, live, created.id, "referee", created.tokens["referee"]),
        "moll": SeatPage(browser, live, created.id, "ann", created.tokens["ann"]),
        "jack": SeatPage(browser, live, created.id, "ben", created.tokens["ben"]),
        "tom": SeatPage(browser, live, created.id, "cat", created.tokens["cat"]),
    }
    try:
        for cid in ("moll", "jack", "tom"):
            pages[cid].phone().count_buzzes()
        pages["referee"].submit(_open(pages["referee"], "referee|initiative"), pages.values())
        hit = conceded = waited = parried = False
        for _ in range(12):
            if hit and conceded and parried:
                break
            who = _whose_turn(pages)
            # the table's dice are random: Moll lets the turns pass until Jack has made his
            # manoeuvre, so that neither bravo is out of the fight before he has
            if who == "moll" and parried and not hit:
                _jack_defends_and_takes_a_consequence(pages)
                hit = True
            elif who == "moll" and parried:
                _tom_concedes(pages)
                conceded = True
            elif who == "jack" and not parried:
                _moll_defends_against_a_manoeuvre(pages)
                parried = True
            elif who == "tom" and not waited:
                wait = _open(pages["tom"], "tom|wait")
                wait.get_by_label("plan", exact=True).fill(PLAN)
                pages["tom"].submit(wait, pages.values())
                waited = True
            else:
                pages[who].submit(_open(pages[who], f"{who}|something_else"), pages.values())
        assert hit and conceded and parried
        pages["moll"].page.screenshot(path=str(SHOTS / "ginlane-evening-moll.png"))
        # the Wait's plan reached Tom's seat and the referee's, and no other player's
        for cid in ("moll", "jack"):
            assert PLAN not in pages[cid].received(), cid
        for seat in pages.values():
            assert not seat.errors, seat.errors
    finally:
        for seat in pages.values():
            seat.context.close()
