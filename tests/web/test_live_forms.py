"""A live update never discards what a person is doing (issue 26): the table page is drawn with
a diffing view library (Preact + htm), so a push from other seats keeps the typed values, the
open forms, the focused element and its caret, and the log's scroll; after a submit the focus
stays on the page. Forms built from the structured domains (record, any_of, steps, depends)
give the right JSON; prompts and the result are shown; every seat of every demo table fits a
360-pixel phone."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from referee.cli.demo_tables import DEMOS
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage, observation


def _default(domain: dict[str, Any]) -> Any:
    if "one_of" in domain:
        return domain["one_of"][0]
    if "between" in domain:
        return domain["between"][0]
    if "low" in domain:
        return domain["low"]
    if "some_of" in domain:
        return domain["some_of"][: domain.get("least") or 0]
    text = domain.get("text")
    return text if isinstance(text, str) and text else "a note"


def _act_through_api(live: Live, table: str, token: str, prefer: str) -> int:
    """Another seat takes the first action the rules accept (kinds named ``prefer`` first),
    through the API, with each parameter's first value → the table's new version."""
    seen = observation(live, table, token)
    choices = sorted(seen["choices"], key=lambda c: c["kind"] != prefer)
    for choice in choices[:15]:
        params = {name: _default(d) for name, d in choice["params"].items()}
        answer = httpx.post(
            f"{live.base}/api/tables/{table}/actions",
            json={
                "kind": choice["kind"],
                "actor": choice["actor"],
                "params": params,
                "version": seen["version"],
            },
            headers={"Authorization": f"Bearer {token}"},
        )
        if answer.status_code == 200:
            return int(answer.json()["version"])
    raise AssertionError(f"no action of this seat was accepted: {choices[:3]}")


def _form(page: Any, kind: str) -> Any:
    return page.locator(f"details.choice:has(> form[data-kind='{kind}'])").first


def test_a_push_keeps_what_a_player_is_doing(live: Live, browser: Any) -> None:
    """Mr Fifteen's player types a sentence to speak, opens a skill roll and types its Target
    Number, and leaves the caret in the middle of the sentence; the referee and two other
    players act; the sentence, the number, both open forms, the very same focused element and
    its caret are as they were, and so is the log's scroll. A submit leaves the focus on the
    page, never on <body>."""
    table, tokens = live.demo("intrigue")
    fifteen = SeatPage(browser, live, table, "fifteen", tokens["fifteen"])
    try:
        page = fifteen.page
        with_target = "details.choice:has(> form[data-kind='roll'] input[name='target'])"
        roll = page.locator(with_target).first
        roll.locator("summary").click()
        roll.locator("input[name='target']").fill("17")
        speak = _form(page, "speak")
        speak.locator("summary").click()
        content = speak.locator("input[name='content']")
        content.fill("Meet me on the upper deck")
        content.click()
        page.keyboard.press("Home")
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        # the element itself is marked: a form drawn again would make a new one without the mark
        page.evaluate("document.activeElement.__kept = true")
        focused = page.evaluate("document.activeElement.id")
        assert focused and focused == content.get_attribute("id")
        # the log scrolled back to its start (made short enough to scroll); the page follows the
        # log's end only when it was at the end
        page.evaluate(
            "() => { const log = document.getElementById('log'); log.style.maxHeight = '1rem';"
            " log.scrollTop = 0; }"
        )
        # three other seats act, through the API
        version = fifteen.version()
        for seat in ("referee", "twelve", "twenty"):
            version = _act_through_api(live, table, tokens[seat], prefer="report")
        fifteen.wait_version(version)
        assert content.input_value() == "Meet me on the upper deck"
        assert roll.locator("input[name='target']").input_value() == "17"
        assert speak.get_attribute("open") is not None
        assert roll.get_attribute("open") is not None
        assert page.evaluate("document.activeElement.__kept === true")
        assert page.evaluate("document.activeElement.id") == focused
        assert page.evaluate("document.activeElement.selectionStart") == 4
        assert page.evaluate("document.getElementById('log').scrollTop") == 0
        assert page.evaluate("document.getElementById('log').scrollHeight") > page.evaluate(
            "document.getElementById('log').clientHeight"
        )
        # a submit: the focus stays on the page (the form's button, or the refusal)
        before = fifteen.version()
        speak.locator("button[type=submit]").click()
        page.wait_for_function(
            f"() => document.body.dataset.version != '{before}' || "
            "document.getElementById('refused').textContent.length > 0",
            timeout=TIMEOUT,
        )
        active = page.evaluate("document.activeElement && document.activeElement.tagName")
        assert active not in (None, "BODY"), active
        assert not fifteen.errors, fifteen.errors
    finally:
        fifteen.context.close()


#: Every element that scrolls (a wide table, the log, the state panel) but cannot be reached
#: with the keyboard or has no name; and the number of empty table headers.
UNREACHABLE = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) continue;
    const cs = getComputedStyle(el);
    const x = /(auto|scroll)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1;
    const y = /(auto|scroll)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 1;
    if (!x && !y) continue;
    const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
    if (el.tabIndex < 0 || !named) bad.push(el.id || el.className || el.tagName);
  }
  const empty = [...document.querySelectorAll('th')].filter(th => !th.textContent.trim());
  return {bad: bad, emptyHeaders: empty.length};
}"""


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_every_seat_fits_a_phone(game: str, live: Live, browser: Any) -> None:
    """Every seat of the demo table, at 360 px: nothing wider than the phone, every region that
    scrolls focusable and named, no empty table header; and at 1280 px with the root font at
    200%, nothing wider than the window."""
    table, tokens = live.demo(game)
    for seat, token in tokens.items():
        page = SeatPage(browser, live, table, seat, token)
        try:
            assert page.page.evaluate(UNREACHABLE) == {"bad": [], "emptyHeaders": 0}, seat
            page.page.set_viewport_size({"width": 360, "height": 780})
            width = page.page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{game}: {seat}'s page is {width} px on a phone"
            assert page.page.evaluate(UNREACHABLE) == {"bad": [], "emptyHeaders": 0}, seat
            page.page.set_viewport_size({"width": 1280, "height": 900})
            page.page.evaluate("document.documentElement.style.fontSize = '200%'")
            width = page.page.evaluate("document.documentElement.scrollWidth")
            assert width <= 1280, f"{game}: {seat}'s page is {width} px at 200% text"
            assert not page.errors, page.errors
        finally:
            page.context.close()


# A hand-made choice with the structured domains (docs/web.md; /work CONTRACT): a round's plan
# of steps, each an attack or a move; an attack's range depends on its skill; a note whose
# domain depends on a top-level sibling; an optional field.
STEP = {
    "any_of": {
        "attack": {
            "record": {
                "kind": {"one_of": ["attack"]},
                "target": {"one_of": ["guard", "sleeper"]},
                "skill": {"one_of": ["sword", "bow"]},
                "range": {"depends": "skill", "cases": [["bow", {"between": [1, 50]}]]},
            }
        },
        "move": {
            "record": {
                "kind": {"one_of": ["move"]},
                "yards": {"between": [1, 10]},
                "shout": {"text": ""},
            },
            "optional": ["shout"],
        },
    }
}
PLAN = {
    "actor": "thief",
    "kind": "plan_round",
    "label": "plan the round",
    "prompt": True,
    "odds": [],
    "params": {
        "steps": {"steps": STEP, "least": 1, "most": 3},
        "mode": {"one_of": ["careful", "bold"]},
        "note": {
            "depends": "mode",
            "cases": [["careful", {"text": "why"}], ["bold", {"one_of": [1, 2]}]],
        },
    },
}
PROMPT = {
    "actor": "thief",
    "name": "Thief",
    "kinds": ["plan_round"],
    "section": "Combat: Declaring",
    "reason": "The guard wakes: plan your round",
    "cause": None,
    "default": {"kind": "wait", "params": {}},
    "blocking": True,
}
KEY = "thief|plan_round|plan the round"


def test_structured_domains_prompts_and_the_result(live: Live, browser: Any) -> None:
    table, tokens = live.demo("hursagmu")
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = alice.page
        alice.count_buzzes()

        def render(obs: dict[str, Any]) -> None:
            page.evaluate("(o) => window.RefTable.render(o)", obs)

        def params() -> Any:
            return page.evaluate("(k) => window.RefTable.paramsOf(k)", KEY)

        obs = {"choices": [PLAN], "prompts": [PROMPT]}
        render(obs)
        # the prompt: a region at the top of "Your move", named by its reason, with its choice
        region = page.locator("#act-panel .prompt[role='region']")
        assert "The guard wakes: plan your round" in (region.locator("h3").text_content() or "")
        assert region.locator("details.choice > form[data-kind='plan_round']").count() == 1
        assert region.get_by_role("button", name="Decline").count() == 1
        assert alice.buzzes() == 1  # a new prompt for this seat
        render(obs)
        assert alice.buzzes() == 1  # the same prompt again: no buzz
        fid = page.evaluate("(k) => window.RefTable.idOf(k)", KEY)
        region.locator("summary").click()
        assert params() == {
            "steps": [{"kind": "attack", "target": "guard", "skill": "sword"}],
            "mode": "careful",
            "note": "why",
        }
        # one step at least: no Remove; an attack with a bow has a range
        assert page.locator(f"#{fid}-steps button:has-text('Remove')").count() == 0
        step1 = page.locator(f"#{fid}-steps li.step").nth(0)
        step1.get_by_label("skill", exact=True).select_option(label="bow")
        step1.get_by_label("range (1 to 50)").fill("30")
        assert params()["steps"] == [
            {"kind": "attack", "target": "guard", "skill": "bow", "range": 30}
        ]
        # a second step, a move; its optional shout left out until asked for
        page.click(f"#{fid}-steps-add")
        step2 = page.locator(f"#{fid}-steps li.step").nth(1)
        assert page.evaluate("document.activeElement.tagName") in ("SELECT", "INPUT")
        step2.get_by_label("Kind of step 2").select_option(label="move")
        step2.get_by_label("yards (1 to 10)").fill("4")
        assert params()["steps"][1] == {"kind": "move", "yards": 4}
        step2.get_by_label("Give shout (optional)").check()
        step2.get_by_label("shout", exact=True).fill("Now!")
        assert params()["steps"][1] == {"kind": "move", "yards": 4, "shout": "Now!"}
        # a push keeps the whole draft
        render({"version": alice.version(), "choices": [PLAN], "prompts": [PROMPT]})
        assert params()["steps"][1] == {"kind": "move", "yards": 4, "shout": "Now!"}
        # move the move up: both steps keep their fields
        step2.get_by_role("button", name="Move step 2 up").click()
        assert params()["steps"] == [
            {"kind": "move", "yards": 4, "shout": "Now!"},
            {"kind": "attack", "target": "guard", "skill": "bow", "range": 30},
        ]
        # at most 3: the third step, then no "Add a step"
        page.click(f"#{fid}-steps-add")
        assert len(params()["steps"]) == 3
        assert page.locator(f"#{fid}-steps-add").count() == 0
        page.locator(f"#{fid}-steps li.step").nth(0).get_by_role(
            "button", name="Remove step 1"
        ).click()
        assert [s["kind"] for s in params()["steps"]] == ["attack", "attack"]
        assert page.evaluate("document.activeElement.id") == f"{fid}-steps-add"
        # the note depends on the mode: text when careful, a choice of 1 or 2 when bold
        page.locator(f"#{fid}-note").fill("quietly")
        assert params()["note"] == "quietly"
        page.locator(f"#{fid}-mode").select_option(label="bold")
        assert page.locator(f"select#{fid}-note").count() == 1
        assert params()["note"] == 1
        page.locator(f"#{fid}-note").select_option(label="2")
        assert params()["note"] == 2
        page.locator(f"#{fid}-mode").select_option(label="careful")
        assert params()["note"] == "quietly"  # each case keeps its own draft
        # every input is labelled
        unlabelled = page.evaluate(
            "(id) => [...document.querySelectorAll('#' + id + ' input, #' + id + ' select')]"
            ".filter(e => !e.labels || !e.labels.length).map(e => e.id)",
            fid,
        )
        assert unlabelled == []
        # the choice gone: its form goes; back: it starts afresh
        render({"choices": [], "prompts": []})
        assert page.locator(f"#{fid}").count() == 0
        render({"choices": [dict(PLAN, prompt=False)], "prompts": []})
        assert params()["steps"] == [{"kind": "attack", "target": "guard", "skill": "sword"}]
        assert page.locator("#act-panel .prompt").count() == 0
        # the result: a banner when a conflict or the game is over; none while neither is
        render({"result": {"over": False, "winners": [], "summary": "", "conflict": None}})
        assert page.locator(".result").count() == 0
        render(
            {
                "result": {
                    "over": False,
                    "winners": [],
                    "summary": "",
                    "conflict": {
                        "name": "the fight at the gate",
                        "over": True,
                        "winners": ["thief"],
                        "summary": "The guard sleeps again.",
                    },
                }
            }
        )
        banner = page.locator(".result[role='region']").text_content() or ""
        assert "The fight at the gate is over" in banner and "Won: thief." in banner
        # a winner and a character to move are named as the state names them, not by id
        state = page.evaluate("() => window.RefTable.context().obs.state")
        state["characters"]["thief"]["name"] = "Moll"
        conflict = {"name": "the fight", "over": True, "winners": ["thief"], "summary": ""}
        render(
            {
                "state": state,
                "to_move": ["thief"],
                "result": {"over": False, "winners": [], "summary": "", "conflict": conflict},
            }
        )
        banner = page.locator(".result[role='region']").text_content() or ""
        assert "Won: Moll." in banner, banner
        assert page.locator("#to-move").text_content() == "To move: Moll"
        assert not alice.errors, alice.errors
    finally:
        alice.context.close()


def test_the_log_draws_each_card_once_and_a_margin_only_where_there_is_one(
    live: Live, browser: Any
) -> None:
    table, tokens = live.demo("hursagmu")
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = alice.page
        card = {
            "card": "roll",
            "label": "Thief listens",
            "rule": "perception",
            "dice": "3d6",
            "faces": [3, 4, 5],
            "shown": "3d6 (3, 4, 5) = 12",
            "outcome": "success",
            "margin": None,
        }
        numbered = dict(card, label="Thief strikes", margin=2)
        events = [
            {
                "number": 900,
                "kind": "test.heard",
                "text": "The thief listens.",
                "payload": {"roll": card},
                "secrets": [{"name": "roll", "value": dict(card, odds={"success": "1/2"})}],
            },
            {
                "number": 901,
                "kind": "test.struck",
                "text": "A blow.",
                "payload": {"roll": numbered},
            },
        ]
        page.evaluate("(o) => window.RefTable.render(o)", {"events": events})
        heard = page.locator("#log > li[data-kind='test.heard']")
        assert heard.locator(".roll").count() == 1  # public and secret: the same card, once
        assert heard.locator(".roll .odds").count() == 1  # the fuller of the two
        assert "margin" not in (heard.text_content() or "")
        struck = page.locator("#log > li[data-kind='test.struck']")
        assert "(margin 2)" in (struck.text_content() or "")
        # the live list only grows: an event already shown is not drawn again
        page.evaluate("(o) => window.RefTable.render(o)", {"events": events})
        assert page.locator("#log > li[data-kind='test.heard']").count() == 1
        summary = page.text_content("#log-h") or ""
        assert summary.startswith("What has happened (")
    finally:
        alice.context.close()


def test_on_a_phone_the_decisions_come_first_and_the_log_folds(live: Live, browser: Any) -> None:
    table, tokens = live.demo("zweihander")
    context = browser.new_context(viewport={"width": 360, "height": 780})
    try:
        page = context.new_page()
        page.goto(f"{live.base}/join/{table}#{tokens['alice']}")
        page.wait_for_selector("body[data-live='1']", timeout=TIMEOUT)
        assert page.get_attribute("#log-fold", "open") is None  # folded, "What has happened (N)"
        assert (page.text_content("#log-fold > summary") or "").startswith("What has happened (")
        act = page.locator("#act-panel").bounding_box()
        log = page.locator("#log-panel").bounding_box()
        assert act and log and act["y"] < log["y"]
        page.click("#log-fold > summary")
        assert page.get_attribute("#log-fold", "open") is not None
    finally:
        context.close()
