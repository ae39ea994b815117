"""An evening of Burning Kingdoms at the web table (issue 28), clicked through the pages only:
a facilitator (a seat playing no faction, 1280 px) and two factions on their phones (360 px),
each in its own browser context, through the real server, store and WebSocket.

One maneuver: each faction scripts and seals its slip from its page (the elves spend a Persona
chosen from the Persona options side by side), the orcs direct their conflict scene and pass,
the elves pass and read the slips; the dice roll; the elves see every spending choice as an
option with the odds of the engagement it buys (win, tie, lose) and spend Fate on them; the
slips are resolved. Before the reveal no page but the writer's ever received a sealed slip; a
seat with nothing to do reads why and until when; the log reads as a chronicle.

The table's dice are fixed for the run (its id and seed set before it is created: set-up, not
play), so the evening is the same every time. Screenshots: build/screenshots/kingdoms-evening-*;
the decisive moment is docs/img/web-kingdoms-decisive.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Live, docs_picture
from tests.web.seats import TIMEOUT, SeatPage

ROOT = Path(__file__).resolve().parents[2]

SETUP: dict[str, Any] = {
    "territory": "the Greenway",
    "strict_sheets": False,  # quick play: an evening of Fate and odds, no 2iC or rivals
    "factions": {
        "elves": {
            "disposition": 10,
            "leader": {
                "name": "Aeluin",
                "lifepaths": 7,
                "skills": {"Logistics": "B4"},
                "stats": {"Will": "B4"},
                "artha": {"fate": 1, "persona": 1, "deeds": 0},
            },
        },
        "orcs": {
            "disposition": 12,
            "leader": {
                "name": "Gorbash",
                "lifepaths": 10,
                "skills": {"Inconspicuous": "B5"},
                "stats": {"Will": "B3"},
            },
        },
    },
}
PLAYERS = {"fay": [], "ann": ["elves"], "bob": ["orcs"]}
SEALED = {  # what each slip's sealed content holds, as its JSON says it
    "elves": ['"maneuver": "Fortify"', "Fortify with Logistics"],
    "orcs": ['"maneuver": "Infiltrate"', "Infiltrate with Inconspicuous"],
}


def _seat(browser: Any, live: Live, table: str, seat: str, token: str) -> SeatPage:
    joined = SeatPage(browser, live, table, seat, token)
    if seat != "fay":
        joined.phone()
    return joined


def _choose(seat: SeatPage, key: str, fields: dict[str, str] | None = None) -> None:
    """Open the offered choice ``key`` (actor|kind|label), fill ``fields`` and send it."""
    details = seat.page.locator(f"details.choice[data-key='{key}']")
    details.locator("summary").click()
    for name, value in (fields or {}).items():
        field = details.locator(f"[name='{name}']")
        if (field.evaluate("e => e.tagName")) == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    seat.submit(details)


def _no_slip_but_its_own(seats: dict[str, SeatPage]) -> None:
    """Before the reveal: no page received another faction's sealed slip (the raw bytes)."""
    plays = {"fay": (), "ann": ("elves",), "bob": ("orcs",)}
    for name, seat in seats.items():
        received = seat.received()
        for faction, secrets in SEALED.items():
            if faction in plays[name]:
                continue
            for secret in secrets:
                assert secret not in received, f"{name} received {faction}'s sealed {secret!r}"


@pytest.fixture
def fixed_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's id and dice seed, fixed before it is created: the same rolls every run."""
    monkeypatch.setattr("referee.store.store._new_id", lambda: "kingdoms-evening")
    monkeypatch.setattr("referee.core.fairness.new_seed", lambda: bytes(range(32)))


def test_an_evening_of_kingdoms_spends_fate_on_the_odds_it_buys(
    live: Live, browser: Any, screenshots: Path, fixed_dice: None
) -> None:
    created = live.store.create_table("kingdoms", SETUP, name="Greenway", players=PLAYERS)
    tokens = dict(created.tokens)
    seats = {s: _seat(browser, live, created.id, s, tokens[s]) for s in ("fay", "ann", "bob")}
    fay, ann, bob = seats["fay"], seats["ann"], seats["bob"]
    try:
        # the slips, written and sealed from each faction's own page
        ann.page.wait_for_selector("#bk-elves-maneuver", timeout=TIMEOUT)
        ann.page.select_option("#bk-elves-maneuver", "Fortify")
        ann.wait_text("#bk-elves-persona-odds", "1 Persona")
        ann.page.click("#bk-elves-persona-1")  # the Persona option, its odds beside no Persona
        before = ann.version()
        ann.page.click("#bk-elves-seal")
        ann.moved_on(before)
        ann.wait_text("#bk-sealed-elves", "Fortify with Logistics (1 Persona)")
        bob.page.wait_for_selector("#bk-orcs-maneuver", timeout=TIMEOUT)
        bob.page.select_option("#bk-orcs-maneuver", "Infiltrate")
        bob.page.select_option("#bk-orcs-target", "elves")
        before = bob.version()
        bob.page.click("#bk-orcs-seal")
        bob.moved_on(before)
        bob.wait_text("#bk-sealed-orcs", "Infiltrate with Inconspicuous against the Elves")
        for seat in seats.values():
            seat.wait_version(bob.version())
        _no_slip_but_its_own(seats)
        fay.wait_text("#log", "The Orcs' maneuver slip is sealed (hidden until the reveal)")

        # the scenes: the orcs' conflict at the elves, then each passes
        _choose(
            bob,
            "orcs|scene|play a conflict scene",
            {"target": "elves", "outcome": "orcish spies in the Greenway"},
        )
        _choose(bob, "orcs|pass|pass")
        # the orcs wait, and are told why and until when
        bob.wait_text(
            "#choices p.waiting",
            "your slip is sealed and your scenes passed: the reveal waits for the Elves",
        )
        assert "until every faction has spent or passed its scenes" in (
            bob.page.text_content("#choices p.waiting") or ""
        )
        _choose(ann, "elves|pass|pass")
        _no_slip_but_its_own(seats)

        # the reveal, read by the elves: every test rolled at once
        _choose(ann, "elves|reveal|read the slips")
        # the decisive moment: each way of spending after the roll, side by side, each with
        # the chance of winning, tying or losing the Orcs' Infiltrate
        ann.page.wait_for_selector("#bk-elves-artha", timeout=TIMEOUT)
        options = ann.page.locator("#bk-elves-artha > .bk-option")
        titles = [t.split("\n")[0] for t in options.all_inner_texts()]
        assert titles[0] == "No artha" and "Fate" in titles, titles
        fate = ann.page.locator("#bk-elves-artha > .bk-option[data-option='Fate']")
        outcome = fate.locator(".bk-outcome").first
        assert "defending against the Orcs' Infiltrate" in outcome.inner_text()
        rows = [r.strip() for r in fate.locator(".bk-outcome ul.odds > li").all_inner_texts()]
        assert rows and all(r.split()[0] in ("win", "tie", "lose") for r in rows), rows
        for column in options.all():  # outcomes that matter: no run of rows under 0.1%
            shown = column.locator("ul.odds > li").all_inner_texts()
            assert sum("<0.1%" in r for r in shown) <= 1, shown
        ann.page.evaluate(
            "document.getElementById('bk-elves-artha').scrollIntoView({block: 'start'})"
        )
        top = ann.page.evaluate(
            "document.getElementById('bk-elves-artha').closest('section')"
            ".getBoundingClientRect().y + scrollY"
        )
        ann.page.screenshot(
            path=str(screenshots / "kingdoms-evening-decisive-360.png"),
            full_page=True,
            clip={"x": 0, "y": max(0, top - 8), "width": 360, "height": 900},
        )
        decisive = docs_picture("web-kingdoms-decisive.png")
        ann.page.screenshot(
            path=str(decisive),
            type="png",
            full_page=True,
            clip={"x": 0, "y": max(0, top - 8), "width": 360, "height": 900},
        )
        assert decisive.stat().st_size < 150_000

        # the elves spend Fate on the odds shown
        before = ann.version()
        ann.page.click("#bk-elves-spend-fate")
        ann.moved_on(before)
        ann.wait_text("#log", "Fate spent on the Elves' roll")
        # a tie, if the Fate made one: both see its odds and agree
        if ann.page.locator("#bk-elves-tie-odds").count():
            assert "%" in (bob.page.text_content("#bk-orcs-tie-odds") or "")
            assert "%" in (ann.page.text_content("#bk-elves-tie-odds") or "")
            for seat, fid in ((bob, "orcs"), (ann, "elves")):
                before = seat.version()
                seat.page.click(f"#bk-{fid}-tie-agree")
                seat.moved_on(before)
        _choose(ann, "elves|resolve|resolve")
        for seat in seats.values():
            seat.wait_text("#log", "Maneuver 1 ends")

        # the log reads as a chronicle, on every page
        log = fay.page.text_content("#log") or ""
        for line in (
            "The chronicle of the Greenway begins: the Elves (led by Aeluin",
            "The Elves' maneuver slip is sealed (hidden until the reveal)",
            "Gorbash of the Orcs directs a conflict scene at the Elves",
            "the Elves' Fortify with Logistics",
            "the Orcs' Infiltrate with Inconspicuous against the Elves",
            "The Elves' Fortify with Logistics, 5D",
        ):
            assert line in log, line
        assert "elves's" not in log and "→ -" not in log and "orcs's" not in log
        fay.page.screenshot(path=str(screenshots / "kingdoms-evening-facilitator.png"))
        for name, seat in seats.items():
            if name != "fay":
                width = seat.page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, f"{name}'s page is {width} px wide"
                seat.page.screenshot(
                    path=str(screenshots / f"kingdoms-evening-{name}-360.png"), full_page=True
                )
            assert not seat.errors, (name, seat.errors)
    finally:
        for seat in seats.values():
            seat.context.close()
