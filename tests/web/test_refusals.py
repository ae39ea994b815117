"""Refusals at the field, waiting lines and a prompt's odds, in Chromium (issue 28; docs/web.md,
"Refusals at the field", "Waiting"): a refused action is said in a person's words at the field
it names (marked ``aria-invalid``, described by the message, focused), a rule's refusal at the
form's button inside that form, announced; what the person typed stays. The odds asked while
typing say a field's problem at the field too, without taking the focus. A seat whose character
cannot act sees why and until when, announced politely, gone once it may act; a prompt shows the
odds of each of its answers side by side on a phone.

Played on the example game (``examples/toy-game``) and the Zweihänder demo table through the real
server, store and WebSocket, clicking the pages only: players at 360 px, the referee at 1280 px.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.a11y import serve_axe
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage
from tests.web.test_accessibility import _check_themes

#: What the focused element is and how it is marked: its id, aria-invalid, aria-describedby.
FOCUSED = """() => { const el = document.activeElement;
  return [el && el.id, el && el.getAttribute('aria-invalid'),
          el && el.getAttribute('aria-describedby')]; }"""


def _seats(live: Live, browser: Any, names: tuple[str, ...]) -> dict[str, SeatPage]:
    created = live.store.create_table(
        "toy",
        {"duellists": {name: {} for name in names}},
        name="A duel",
        players={name: [name] for name in names},
    )
    seats = {n: SeatPage(browser, live, created.id, n, created.tokens[n]) for n in names}
    for seat in seats.values():
        seat.phone().count_buzzes()
    return seats


def test_a_refused_field_is_said_at_the_field_and_the_draft_is_kept(
    live: Live, browser: Any, screenshots: Path
) -> None:
    seats = _seats(live, browser, ("ann", "bob"))
    ann = seats["ann"]
    try:
        page = ann.page
        page.locator("details.choice[data-key^='ann|declare'] > summary").click()
        form = page.locator("form[data-kind='declare']")
        step = form.locator("li.step").nth(0)
        step.get_by_label("Kind of step 1").select_option(label="move")
        moves = step.get_by_label("move (1 to 3)")
        moves.fill("7")
        # while typing: the odds asked say it at the field, quietly, the focus left where it is
        said = form.locator(".field-refusal")
        said.wait_for(timeout=TIMEOUT)
        assert said.text_content() == "‘move’ (plan, step 1) must be 3 or less."
        assert said.get_attribute("role") is None
        assert moves.get_attribute("aria-invalid") == "true"
        assert moves.get_attribute("aria-describedby") == said.get_attribute("id")
        # sent anyway: said at the field, announced, the field focused; nothing taken
        before = ann.version()
        form.locator("button[type=submit]").click()
        form.locator(".field-refusal[role='alert']").wait_for(timeout=TIMEOUT)
        focused = page.evaluate(FOCUSED)
        assert focused == [moves.get_attribute("id"), "true", said.get_attribute("id")]
        assert ann.version() == before
        assert page.text_content("#refused") == ""  # not in the page's one alert
        page.screenshot(path=str(screenshots / "refusal-field-toy-ann-360.png"))
        serve_axe(ann.context)  # no WCAG 2.1 A/AA violation with the refusal shown, either theme
        assert _check_themes(page, "ann, a field refused", "refused") == []
        # the draft kept; mended, the refusal goes, and the plan is taken
        assert moves.input_value() == "7"
        moves.fill("2")
        assert form.locator(".refusal").count() == 0
        assert moves.get_attribute("aria-invalid") is None
        form.locator("button[type=submit]").click()
        ann.moved_on(before)
        assert not ann.errors, ann.errors
    finally:
        for seat in seats.values():
            seat.context.close()


def _referee_form(page: Any, kind: str) -> Any:
    details = page.locator(f"details.choice:has(> form[data-kind='{kind}'])").first
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return details.locator("form")


def test_the_server_refuses_at_the_field_and_the_rules_at_the_button(
    live: Live, browser: Any, screenshots: Path
) -> None:
    """The Zweihänder referee starts a journey with no traveller ticked (the parameters need
    one: said at the travellers), then an exchange whose Favourable and Unfavourable Skills are
    the same (the rules refuse: said at the exchange's button, the NPC's name typed kept)."""
    table, tokens = live.demo("zweihander")
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    try:
        page = referee.page
        before = referee.version()
        journey = _referee_form(page, "journey.start")
        journey.locator("button[type=submit]").click()
        said = journey.locator(".field-refusal[role='alert']")
        said.wait_for(timeout=TIMEOUT)
        assert said.text_content() == "‘travellers’ needs at least 1."
        travellers = journey.locator("fieldset[data-path='travellers']")
        assert travellers.get_attribute("aria-invalid") == "true"
        assert travellers.get_attribute("aria-describedby") == said.get_attribute("id")
        inside = page.evaluate(
            "(id) => document.getElementById(id).contains(document.activeElement)",
            travellers.get_attribute("id"),
        )
        assert inside, "the focus is not at the refused field"
        # a rule: at the exchange's own button, inside its form, announced; the draft kept
        exchange = _referee_form(page, "exchange.start")
        exchange.locator("input[data-path='npc']").fill("the harbour master")
        exchange.get_by_label("anna", exact=True).check()
        exchange.locator("button[type=submit]").click()
        rule = exchange.locator(".form-refusal[role='alert']")
        rule.wait_for(timeout=TIMEOUT)
        text = rule.text_content() or ""
        assert text.startswith("The rules refuse this (exchange.start): "), text
        assert "Favourable and Unfavourable Skills differ" in text
        button = exchange.locator("button[type=submit]")
        assert button.get_attribute("aria-describedby") == rule.get_attribute("id")
        assert page.evaluate("document.activeElement.id") == button.get_attribute("id")
        assert exchange.locator("input[data-path='npc']").input_value() == "the harbour master"
        assert journey.locator(".field-refusal").count() == 1  # each form keeps its own
        assert page.text_content("#refused") == "" and referee.version() == before
        page.screenshot(path=str(screenshots / "refusal-rule-zweihander-referee-1280.png"))
        # mended: another Unfavourable Skill, and the exchange starts
        unfavourable = exchange.locator("select[data-path='unfavourable']")
        options = unfavourable.locator("option").all_text_contents()
        unfavourable.select_option(label=options[1])
        assert exchange.locator(".refusal").count() == 0
        exchange.locator("button[type=submit]").click()
        referee.moved_on(before)
        assert not referee.errors, referee.errors
    finally:
        referee.context.close()


def test_a_seat_that_must_wait_sees_why_until_it_may_act(
    live: Live, browser: Any, screenshots: Path
) -> None:
    """Bob waits for Ann's move; Ann attacks him, and Bob's phone asks him to defend (the odds of
    each defence side by side, a Decline, a buzz): his waiting line goes, and Ann's comes."""
    seats = _seats(live, browser, ("ann", "bob"))
    ann, bob = seats["ann"], seats["bob"]
    try:
        waiting = bob.page.locator("#choices .waiting-lines[aria-live='polite'] p.waiting")
        waiting.wait_for(timeout=TIMEOUT)
        assert waiting.text_content() == "bob: it is ann's move, until they have acted."
        assert ann.page.locator("#choices p.waiting").count() == 0  # Ann may act
        line = waiting.bounding_box()
        assert line is not None and line["y"] < 400 and line["width"] <= 360
        # Ann attacks Bob
        ann.page.locator("details.choice[data-key^='ann|declare'] > summary").click()
        form = ann.page.locator("form[data-kind='declare']")
        form.locator("li.step").nth(0).get_by_label("attack", exact=True).select_option(label="bob")
        before = ann.version()
        form.locator("button[type=submit]").click()
        bob.moved_on(before)
        region = bob.page.locator("#act-panel .prompt[role='region']")
        region.wait_for(timeout=TIMEOUT)
        assert bob.page.locator("#choices p.waiting").count() == 0  # he may act now
        ann.page.locator("#choices p.waiting").wait_for(timeout=TIMEOUT)
        assert (ann.page.text_content("#choices p.waiting") or "").startswith(
            "ann: the table waits for bob to decide"
        )
        # the odds of each defence side by side, without opening the form; Decline; a buzz
        odds = region.locator(".prompt-odds figure")
        assert odds.count() == 2
        assert region.locator("details.choice[open]").count() == 0
        first, second = odds.nth(0).bounding_box(), odds.nth(1).bounding_box()
        assert first and second and abs(first["y"] - second["y"]) < 1 and first["x"] < second["x"]
        assert second["x"] + second["width"] <= 360
        assert "sabre" in (odds.nth(0).text_content() or "")
        assert "agility" in (odds.nth(1).text_content() or "")
        assert region.locator("figure .odds li .pct").count() >= 4
        assert region.get_by_role("button", name="Decline").is_visible()
        assert bob.buzzes() == 1
        bob.page.screenshot(path=str(screenshots / "prompt-odds-toy-bob-360.png"))
        serve_axe(bob.context)
        assert _check_themes(bob.page, "bob, a prompt's odds", "prompted") == []
        serve_axe(ann.context)
        assert _check_themes(ann.page, "ann, waiting", "waiting") == []
        ann.page.screenshot(path=str(screenshots / "waiting-toy-ann-360.png"))
        width = bob.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"bob's page is {width} px on a phone"
        # a character the state names is waited for by name, as its prompts name it
        bob.page.evaluate(
            "(o) => window.RefTable.render(o)",
            {
                "state": {"characters": {"bob": {"name": "Moll"}}},
                "prompts": [],
                "choices": [],
                "waiting": [{"actor": "bob", "reason": "knocked out", "until": "until 19:40"}],
            },
        )
        assert bob.page.text_content("#choices p.waiting") == "Moll: knocked out, until 19:40."
        for seat in seats.values():
            assert not seat.errors, seat.errors
    finally:
        for seat in seats.values():
            seat.context.close()


def test_a_number_out_of_its_range_is_said_at_its_field_before_it_is_sent(
    live: Live, browser: Any
) -> None:
    """A Hursagmu player at 360 px pushes power with 0 hits: the odds asked while typing say
    at the field that it must be 1 or more; sent, the same words are announced there, focused,
    and nothing is taken."""
    table, tokens = live.demo("hursagmu")
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        alice.phone().count_buzzes()
        page = alice.page
        push = page.locator("details.choice:has(> form[data-kind='push'])").first
        push.locator("summary").click()
        hits = push.locator("input[data-path='hits']")
        hits.fill("0")
        said = push.locator(".field-refusal")
        said.wait_for(timeout=TIMEOUT)
        assert said.text_content() == "‘hits’ must be 1 or more."
        before, refusals = alice.version(), page.get_attribute("body", "data-refusals")
        push.locator("button[type=submit]").click()
        push.locator(".field-refusal[role='alert']").wait_for(timeout=TIMEOUT)
        assert said.text_content() == "‘hits’ must be 1 or more."
        assert page.evaluate(FOCUSED) == [
            hits.get_attribute("id"),
            "true",
            said.get_attribute("id"),
        ]
        assert page.get_attribute("body", "data-refusals") != refusals
        assert alice.version() == before and hits.input_value() == "0"
        assert not alice.errors, alice.errors
    finally:
        alice.context.close()
