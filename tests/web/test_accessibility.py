"""Accessibility, checked by axe-core (WCAG 2.1 A and AA) in Chromium: Home, and every seat's page
of every demo table, at 360 and 1280 px wide, in the light and the dark theme, before and after
an action; and what axe cannot see: with the root font at 200% no page is wider than its window.

Each case names its page, width and theme; a failure lists each rule broken, with the selector
of every element that breaks it (``tests/web/a11y.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from referee.core import Table
from referee.core.registry import system
from tests.web.a11y import report, serve_axe, violations
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage
from tests.web.test_home_form import fill
from tests.web.test_table import PREFER

WIDTHS = (360, 1280)
THEMES = ("light", "dark")


def _seats(game: str) -> list[str]:
    """The seats of ``game``'s demo table, as the store makes them."""
    data = yaml.safe_load((EXAMPLES / DEMOS[game]).read_text("utf-8"))
    table = Table.start(system(game).procedure, data["setup"], players=data.get("players"))
    return [seat.id for seat in table.seats]


def _cases() -> list[Any]:
    """Each seat of each demo table at each width; both themes are checked on the one page."""
    return [
        pytest.param(game, seat, width, id=f"{game}-{seat}-{width}")
        for game in sorted(DEMOS)
        for seat in _seats(game)
        for width in WIDTHS
    ]


def _too_wide_at_200_percent(page: Any) -> str:
    """With the root font at 200% (a person's larger text), the page must not be wider than its
    window; the font is put back after."""
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    page.wait_for_timeout(100)  # one layout at the new size
    wide = page.evaluate(
        """() => {
            const out = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;
            const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
                + (typeof e.className === "string" && e.className
                   ? "." + e.className.split(" ").join(".") : "");
            // the elements that break out: beyond the window, their parent not
            const culprits = Array.from(document.querySelectorAll("body *"))
                .filter(e => out(e) && !out(e.parentElement)).slice(0, 5).map(name);
            return [document.documentElement.scrollWidth, window.innerWidth, culprits];
        }"""
    )
    page.evaluate("document.documentElement.style.fontSize = ''")
    scroll, window, beyond = wide
    if scroll <= window:
        return ""
    return (
        f"at 200% text the page is {scroll} px wide in a {window} px window (beyond it: {beyond})"
    )


def _check(page: Any, where: str, text_200: bool = True) -> list[str]:
    """axe's violations on ``page`` now, and (``text_200``) whether it is too wide at 200%
    text: each problem a paragraph that names ``where``."""
    problems = []
    found = report(violations(page), where)
    if found:
        problems.append(found)
    wide = _too_wide_at_200_percent(page) if text_200 else ""
    if wide:
        problems.append(f"{where}: {wide}")
    return problems


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_home(live: Live, browser: Any, width: int, theme: str) -> None:
    """Home with its setup form drawn; after a field is refused (the message at the field);
    after a table is made (every seat's link and QR code)."""
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=theme)
    serve_axe(context)
    page = context.new_page()
    name = f"Home at {width} px, {theme} theme"
    try:
        page.goto(f"{live.base}/")
        page.select_option("#c-system", "zweihander")
        page.wait_for_selector(".sf-root[data-game='zweihander'] [data-kind]", timeout=TIMEOUT)
        problems = _check(page, f"{name}, the form", text_200=False)
        # a half-given journey: its travellers are asked for, at their field
        page.locator(".sf-root [data-key='journey'] [data-key='days'] input").fill("2")
        page.click("#create button[type=submit]")
        page.wait_for_selector(".sf-error", timeout=TIMEOUT)
        problems += _check(page, f"{name}, a field refused", text_200=False)
        page.locator(".sf-root [data-key='journey'] [data-key='days'] input").fill("")
        fill(page.locator(".sf-root > [data-kind='object']"), {"characters": {"anna": {}}})
        page.fill("#c-name", "Checked")
        page.click("#create button[type=submit]")
        page.wait_for_function(
            "() => document.querySelectorAll('#created li.join svg').length > 0",
            timeout=TIMEOUT,
        )
        problems += _check(page, f"{name}, a table made", text_200=False)
        assert not problems, "\n\n".join(problems)
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_home_at_200_percent_text(live: Live, browser: Any, width: int) -> None:
    """Home with the root font at 200%: its form, a refusal at a field and a table made are
    no wider than the window."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{live.base}/")
        page.select_option("#c-system", "kingdoms")
        page.wait_for_selector(".sf-root[data-game='kingdoms'] [data-kind]", timeout=TIMEOUT)
        page.click("#create button[type=submit]")  # a faction without a name: refused
        page.wait_for_selector(".sf-error", timeout=TIMEOUT)
        wide = _too_wide_at_200_percent(page)
        assert not wide, f"Home at {width} px: {wide}"
    finally:
        context.close()


def _act(
    live: Live, browser: Any, game: str, table: str, tokens: dict[str, str], seat: SeatPage
) -> str:
    """An action taken at the table: by this seat from its own page where it has a move, else by
    the first other seat that has one (from that seat's page); this page shows it. The kind."""
    before = seat.version()
    if seat.page.locator("details.choice").count():
        kind = seat.act_first_legal(PREFER.get(game, ""))
        return f"{seat.seat} took {kind}"
    for other in tokens:
        if other == seat.seat:
            continue
        actor = SeatPage(browser, live, table, other, tokens[other])
        try:
            if actor.page.locator("details.choice").count():
                kind = actor.act_first_legal(PREFER.get(game, ""))
                seat.wait_version(actor.version())
                assert seat.version() > before
                return f"{other} took {kind}"
        finally:
            actor.context.close()
    raise AssertionError(f"{game}: no seat has a move to take")


def _check_themes(page: Any, name: str, when: str) -> list[str]:
    """axe's violations in the light and the dark theme, and (once: the theme does not change
    a layout) whether the page is too wide at 200% text."""
    problems = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        page.wait_for_timeout(50)  # the new colours are drawn
        problems += _check(page, f"{name}, {theme} theme, {when}", text_200=theme == THEMES[0])
    return problems


@pytest.mark.parametrize(("game", "seat", "width"), _cases())
def test_seat_page(live: Live, browser: Any, game: str, seat: str, width: int) -> None:
    """A seat's table page of a demo table, in both themes, before and after an action."""
    table, tokens = live.demo(game)
    page = SeatPage(browser, live, table, seat, tokens[seat])
    try:
        serve_axe(page.context)
        page.page.set_viewport_size({"width": width, "height": 800})
        page.page.wait_for_timeout(100)  # the layout settles at the new width
        name = f"{game} {seat}'s page at {width} px"
        problems = _check_themes(page.page, name, "before an action")
        done = _act(live, browser, game, table, tokens, page)
        page.page.wait_for_timeout(200)  # what the action changed is drawn
        problems += _check_themes(page.page, name, f"after an action ({done})")
        assert not page.errors, page.errors
        assert not problems, "\n\n".join(problems)
    finally:
        page.context.close()


def test_axe_is_injected_under_the_pages_own_policy(live: Live, browser: Any) -> None:
    """The pages' Content Security Policy (script-src 'self') stays in force while axe runs: an
    inline script is still refused on the page axe was added to."""
    context = browser.new_context()
    serve_axe(context)
    page = context.new_page()
    try:
        page.goto(f"{live.base}/")
        assert violations(page) is not None
        with pytest.raises(Exception, match="Content Security Policy"):
            page.add_script_tag(content="window.inlined = 1")
    finally:
        context.close()
