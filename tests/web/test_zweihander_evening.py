"""An evening at a Zweihänder table, clicked through the pages only (issue 28): the demo table's
GM (1280 px) and two players on their phones (360 px), each in a browser context of their own.

The GM notes an NPC's Corruption; starts a chase composed at the table — Anna and Bert fleeing
on horseback, the magistrate's Captain Roth and Sergeant Maas riding after them — whose
Initiative is in the log with its dice; each player moves their rider when the ladder calls on
them and, between, reads why they wait and until when; the GM rides the NPCs, attempts the
Takedowns they are offered and ends each Round until the chase is over (nobody "yet to move" on
an ended chase). Then the GM composes a journey of two Stretches, gives the Guide to Bert and the
Scout to Anna, and every page shows the Threat Level as the Scout's check left it; and rewards
the stables. No player's page ever holds the NPCs' Corruption, Ranks or Disorders, nor the
offence the GM noted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage, demo_setup, follow, make_table, no_secret

OFFENCE = "Roth beat the stable boy bloody"
#: The NPCs' secrets in the demo setup: the Captain's Disorder, and his Chaos Ranks.
DISORDER = "Sanguine thrall"
CHAOS_RANKS = re.compile(r'"chaos_ranks":\s*7')


def _open(seat: SeatPage, kind: str, actor: str | None = None) -> Any:
    """The form of ``kind`` on ``seat``'s page, opened (acting as ``actor`` on the GM's)."""
    page = seat.page
    if actor is not None and page.locator("#act-as").count():
        page.select_option("#act-as", actor)
    details = page.locator("details.choice").filter(has=page.locator(f"form[data-kind='{kind}']"))
    details.first.wait_for(timeout=TIMEOUT)
    if details.first.get_attribute("open") is None:
        details.first.locator("summary").click()
    return details.first.locator("form")


def _runner(fieldset: Any, index: int, character: str, mode: str) -> None:
    if fieldset.locator("li.step").count() <= index:
        fieldset.get_by_role("button", name="Add a step").click()
    step = fieldset.locator("li.step").nth(index)
    step.locator("select[name$='.character']").select_option(label=character)
    step.locator("select[name$='.mode']").select_option(label=mode)


def _start_the_chase(referee: SeatPage, pages: list[SeatPage]) -> None:
    form = _open(referee, "chase.start", "referee")
    escapees, pursuers = (
        form.locator("fieldset.steps").nth(0),
        form.locator("fieldset.steps").nth(1),
    )
    _runner(escapees, 0, "anna", "palfrey horse")
    _runner(escapees, 1, "bert", "rouncey horse")
    _runner(pursuers, 0, "captain_roth", "couser horse")
    _runner(pursuers, 1, "sergeant_maas", "destrier horse or flying")
    form.locator("select[name='takedown']").select_option(label="Standard")
    referee.submit(form, pages)


def _next_rung(seat: SeatPage) -> str | None:
    """Who the ladder calls on next, as the chase board shows it (``None``: all have moved)."""
    for rung in seat.page.locator(".zw-chase li.rung").all():
        if "yet to move" in (rung.text_content() or ""):
            return rung.locator("strong").first.text_content()
    return None


def _still_in(seat: SeatPage, name: str) -> bool:
    """Whether ``name`` is still running, as the chase board shows it."""
    rung = seat.page.locator(".zw-chase li.rung").filter(
        has=seat.page.locator(f"strong:text-is('{name}')")
    )
    return "out" not in (rung.first.get_attribute("class") or "").split()


def _is_over(seat: SeatPage) -> bool:
    return "(over:" in (seat.page.text_content(".zw-chase h3") or "")


def _ride_the_chase_out(
    referee: SeatPage, riders: dict[str, SeatPage], pages: list[SeatPage]
) -> int:
    """Every participant moves as the ladder calls; the GM rides the NPCs (with a Takedown when
    one catches up, Ride against Ride) and ends each Round. The number of Takedowns tried."""
    takedowns = 0
    for _ in range(80):
        if _is_over(referee):
            return takedowns
        nxt = _next_rung(referee)
        if nxt is None:
            referee.submit(_open(referee, "chase.end_round", "referee"), pages)
        elif nxt in riders:
            rider = riders[nxt]
            for name, other in riders.items():
                # the other rider, still running with nothing to do, is told why and until when
                idle = other.page.locator("#choices details.choice").count() == 0
                if other is not rider and idle and _still_in(referee, name):
                    waiting = other.page.locator("#choices p.waiting")
                    waiting.first.wait_for(timeout=TIMEOUT)
                    assert "the chase, Round" in (waiting.first.text_content() or "")
            rider.submit(_open(rider, "chase.move"), pages)
        else:
            referee.submit(_open(referee, "chase.move", nxt), pages)
            if (
                not _is_over(referee)
                and referee.page.locator("form[data-kind='chase.takedown']").count()
            ):
                form = _open(referee, "chase.takedown", nxt)
                form.locator("select[name='skill']").select_option(label="Ride")
                form.locator("select[name='escapee_skill']").select_option(label="Ride")
                referee.submit(form, pages)
                takedowns += 1
    raise AssertionError("the chase never ended")


def _compose_the_journey(referee: SeatPage, pages: list[SeatPage]) -> None:
    form = _open(referee, "journey.start", "referee")
    form.locator("fieldset").filter(has_text="travellers").first.get_by_label(
        "anna", exact=True
    ).check()
    form.locator("fieldset").filter(has_text="travellers").first.get_by_label(
        "bert", exact=True
    ).check()
    stretches = form.locator("fieldset.steps")
    route = [
        ("the marsh road", "short", "3", "marshes", "Mildly Dangerous"),
        ("the Grey Peaks", "medium", "10", "mountains", "Moderately Dangerous"),
    ]
    for i, (name, length, days, terrain, threat) in enumerate(route):
        if stretches.locator("li.step").count() <= i:
            stretches.get_by_role("button", name="Add a step").click()
        step = stretches.locator("li.step").nth(i)
        step.locator("input[name$='.name']").fill(name)
        step.locator("select[name$='.length']").select_option(label=length)
        step.locator("input[name$='.days']").fill(days)
        step.locator("select[name$='.terrain']").select_option(label=terrain)
        step.locator("select[name$='.threat']").select_option(label=threat)
    referee.submit(form, pages)


def test_an_evening_a_chase_on_horseback_and_a_journey_composed_at_the_table(
    live: Live, browser: Any, screenshots: Path
) -> None:
    data = demo_setup("zweihander")
    table, tokens = make_table(live, "zweihander", data["setup"], data["players"])
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    bob = SeatPage(browser, live, table, "bob", tokens["bob"])
    pages = [referee, alice, bob]
    players = [alice, bob]
    try:
        for seat in players:
            seat.phone()
        # the GM notes the Captain's offence: his Corruption is the GM's alone
        referee.take(
            "corruption",
            "referee",
            character="captain_roth",
            weight="minor",
            offence=OFFENCE,
        )
        follow(pages, referee.version())
        referee.page.wait_for_selector(
            ".zw-session tr:has-text('captain_roth'):has-text('Order 1 / Chaos 7')",
            timeout=TIMEOUT,
        )
        for seat in players:
            row = seat.page.locator(".zw-session tr", has_text="captain_roth")
            assert "the GM's" in (row.text_content() or "")

        # the chase: two escapees on horseback, two NPCs riding after them
        _start_the_chase(referee, pages)
        for seat in pages:
            started = seat.page.locator("#log > li[data-kind='chase.started']")
            started.wait_for(timeout=TIMEOUT)
            said = started.text_content() or ""
            assert re.search(r"Captain Roth 1D10 \d+ \+ Initiative 7 = \d+", said), said
            assert re.search(r"Sergeant Maas 1D10 \d+ \+ Initiative 6 = \d+", said), said
        assert _next_rung(alice) == "anna"  # [AB] 4 tops the ladder, Bert's 3 next
        waiting = bob.page.locator("#choices p.waiting")
        waiting.wait_for(timeout=TIMEOUT)
        words = waiting.text_content() or ""
        assert "it is Anna's move on the Initiative Ladder" in words, words
        assert "until your turn, after Anna" in words, words
        assert bob.page.locator("form[data-kind='chase.move']").count() == 0
        _ride_the_chase_out(referee, {"anna": alice, "bert": bob}, pages)
        for seat in pages:
            board = seat.page.locator(".zw-chase")
            board.wait_for(timeout=TIMEOUT)
            assert "over:" in (board.text_content() or "")
            assert "yet to move" not in (board.text_content() or "")
        alice.page.locator(".zw-chase").scroll_into_view_if_needed()
        alice.page.screenshot(path=str(screenshots / "zweihander-decisive-360.png"))

        # a journey composed at the table; Bert guides, Anna scouts, nobody survives the camp
        _compose_the_journey(referee, pages)
        alice.page.wait_for_selector(".zw-journey:has-text('the Grey Peaks')", timeout=TIMEOUT)
        roles = _open(referee, "journey.roles", "referee")
        roles.locator("select[name='guide']").select_option(label="bert")
        roles.locator("select[name='scout']").select_option(label="anna")
        referee.submit(roles, pages)
        scout = alice.page.locator("#log > li[data-kind='journey.role_check']").nth(2)
        said = scout.text_content() or ""
        # a Failure raises the Threat Level a step, and so does a Critical Failure ("as Failure")
        raised = "increase Threat Level" in said or "as Failure" in said
        threat = "2" if raised else "0"
        for seat in pages:
            now = seat.page.locator(".zw-journey .zw-threat")
            now.wait_for(timeout=TIMEOUT)
            assert (now.text_content() or "").startswith(threat), now.text_content()
            row = seat.page.locator(".zw-journey tr", has_text="the marsh road")
            assert f"threat {threat} (route 1)" in (row.text_content() or "")

        # the stables: Anna's Reward Points, half for the rest of Alice's stable
        referee.take("stable.reward", "referee", reward="10")
        follow(pages, referee.version())
        alice.page.wait_for_selector("#log > li[data-kind='stable.rewarded']", timeout=TIMEOUT)

        # no player's page ever held the NPCs' secrets, nor the offence the GM noted
        for seat in players:
            received = seat.received()
            for secret in (OFFENCE, DISORDER):
                assert secret not in received, f"{seat.seat} received {secret!r}"
            assert not CHAOS_RANKS.search(received), f"{seat.seat} received the Chaos Ranks"
        assert OFFENCE in referee.received() and DISORDER in referee.received()
        named = {"alice": (OFFENCE, DISORDER), "bob": (OFFENCE, DISORDER)}
        no_secret(pages, live, table, tokens, named)
    finally:
        for seat in pages:
            seat.context.close()
