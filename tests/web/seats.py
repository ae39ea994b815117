"""A seat at the web table as the browser tests drive it, and what the tests ask of a table.

:class:`SeatPage` is one seat's browser context and page, joined by its link, with every byte it
received from the server (page, API answers, WebSocket frames) kept for the search for secrets.
Its methods are what a player does and waits for: take a move through its form and wait for the
table to answer, wait for a push, read a text, Tab to a control, photograph the page at a desk
and on a phone. The functions below it set a table up over the API and search what a seat
received for what only other seats are shown.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping, Set
from pathlib import Path
from typing import Any

import httpx
import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from tests.web.conftest import WAIT, Live

TIMEOUT = WAIT  # ms: a bound on a hang, not on speed (conftest.WAIT)
DESK = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}

#: Words every roll card uses, shown on any seat's page by the odds of its own choices.
VOCABULARY = {"success", "failure", "critical success", "critical failure", "match", "tie"}


class SeatPage:
    """One seat's browser context and page, with every byte it received from the server."""

    def __init__(self, browser: Any, live: Live, table: str, seat: str, token: str) -> None:
        self.seat = seat
        self.context = browser.new_context(viewport=DESK)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.bodies: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("response", self._response)
        self.page.goto(f"{live.base}/join/{table}#{token}")
        self.page.wait_for_url(f"**/table/{table}", timeout=TIMEOUT)
        self.page.wait_for_selector("body[data-live='1']", timeout=TIMEOUT)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def _response(self, response: Any) -> None:
        if "/api/" in response.url:
            with contextlib.suppress(Exception):  # a socket upgrade has no body
                self.bodies.append(response.text())

    def phone(self) -> SeatPage:
        """Hold the page on a 360 px phone."""
        self.page.set_viewport_size(PHONE)
        return self

    def count_buzzes(self) -> SeatPage:
        """Count the page's calls of ``navigator.vibrate`` (a new prompt's buzz) from now on."""
        self.page.evaluate(
            "() => { window.__buzz = 0;"
            " navigator.vibrate = () => { window.__buzz += 1; return true; }; }"
        )
        return self

    def buzzes(self) -> int:
        return int(self.page.evaluate("window.__buzz"))

    def version(self) -> int:
        return int(self.page.get_attribute("body", "data-version") or -1)

    def wait_version(self, version: int) -> None:
        self.page.wait_for_selector(f"body[data-version='{version}']", timeout=TIMEOUT)

    def moved_on(self, version: int) -> None:
        """Wait until the page has drawn a version other than ``version``."""
        self.page.wait_for_selector(f"body:not([data-version='{version}'])", timeout=TIMEOUT)

    def reached(self, version: int) -> None:
        """Wait until the page has drawn ``version`` or a later one."""
        self.page.wait_for_function(
            f"() => Number(document.body.dataset.version) >= {version}", timeout=TIMEOUT
        )

    def pushed(self, before: int) -> None:
        """Wait until the page has drawn an observation newer than ``before``."""
        self.page.wait_for_function(
            f"() => Number(document.body.dataset.version) > {before}", timeout=TIMEOUT
        )

    def received(self) -> str:
        return "\n".join([self.page.content(), *self.frames, *self.bodies])

    def text(self, selector: str) -> str:
        return self.page.text_content(selector) or ""

    def wait_text(self, selector: str, text: str, *, any_of: bool = False) -> None:
        """Wait until the first element matching ``selector`` (with ``any_of``, any of them)
        shows ``text``."""
        self.page.wait_for_function(
            "([s, t, any]) => any"
            " ? [...document.querySelectorAll(s)].some(e => e.textContent.includes(t))"
            " : !!document.querySelector(s)"
            " && document.querySelector(s).textContent.includes(t)",
            arg=[selector, text, any_of],
            timeout=TIMEOUT,
        )

    def submit(self, form: Any, followers: Iterable[SeatPage] = ()) -> int:
        """Press ``form``'s submit button (a form, or the ``details`` holding it) and wait for
        the table's answer: the new version, asserted taken (else the page's refusal is the
        failure's message), then for each of ``followers`` to draw it live."""
        before = self.version()
        form.locator("button[type=submit]").click()
        self.page.wait_for_function(
            f"() => document.body.dataset.version != '{before}' || "
            "document.getElementById('refused').textContent.length > 0",
            timeout=TIMEOUT,
        )
        assert self.version() != before, self.page.text_content("#refused")
        version = self.version()
        follow(followers, version)
        return version

    def take(self, kind: str, actor: str | None = None, **labels: str | list[str]) -> int:
        """Take ``kind`` through its generic form: selects set by the label of an option, texts
        filled, checkbox groups ticked by label; the new version."""
        page = self.page
        if actor is not None and page.locator("#act-as").count():
            page.select_option("#act-as", actor)
        details = (
            page.locator("details.choice")
            .filter(has=page.locator(f"form[data-kind='{kind}']"))
            .first
        )
        form = details.locator("form")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        for name, value in labels.items():
            if isinstance(value, list):
                for label in value:
                    form.get_by_label(label, exact=True).check()
            elif form.locator(f"select[name='{name}']").count():
                form.locator(f"select[name='{name}']").select_option(label=value)
            else:
                form.locator(f"input[name='{name}']").fill(value)
        return self.submit(form)

    def act_first_legal(self, prefer: str = "") -> str:
        """Open each offered choice in turn (kinds containing ``prefer`` first) and take it with
        its defaults until the rules accept one; the kind taken."""
        before = self.version()
        kinds = [
            form.get_attribute("data-kind") or ""
            for form in self.page.locator("details.choice > form").all()
        ]
        order = sorted(range(len(kinds)), key=lambda i: not (prefer and prefer in kinds[i]))
        for index in order[:12]:
            details = self.page.locator("details.choice").nth(index)
            kind = details.locator("form").get_attribute("data-kind") or ""
            if details.get_attribute("open") is None:
                details.locator("summary").click()
            refusals = self.page.get_attribute("body", "data-refusals") or "0"
            details.locator("button[type=submit]").click()
            # taken, or refused: at its field or button in the form (counted in data-refusals),
            # else in the page's one alert
            self.page.wait_for_function(
                f"() => document.body.dataset.version != '{before}' || "
                f"(document.body.dataset.refusals || '0') != '{refusals}' || "
                "document.getElementById('refused').textContent.length > 0",
                timeout=TIMEOUT,
            )
            if self.version() != before:
                return kind
            said = details.locator(".refusal[role=alert]")
            shown = said.first.text_content() if said.count() else None
            refused = shown or self.page.text_content("#refused")
            assert refused, f"seat {self.seat}: {kind} was refused without a word"
        raise AssertionError(f"seat {self.seat}: no choice offered was accepted")

    def tab_to(self, selector: str, presses: int = 120) -> None:
        """Press Tab until the focus is on ``selector``."""
        for _ in range(presses):
            self.page.keyboard.press("Tab")
            if self.page.evaluate(
                "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
            ):
                return
        raise AssertionError(f"Tab never reached {selector}")

    def photograph(self, screenshots: Path, name: str) -> None:
        """At 1280 and 360 pixels (light and dark): never wider than the phone."""
        page = self.page
        page.set_viewport_size(DESK)
        page.screenshot(path=str(screenshots / f"{name}-1280.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(screenshots / f"{name}-360.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{name}: the page is {width} px wide on a 360 px phone"
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(screenshots / f"{name}-360-dark.png"))
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(DESK)


def follow(pages: Iterable[SeatPage], version: int) -> None:
    """Wait until every page has drawn ``version`` (or a later one)."""
    for seat in pages:
        seat.reached(version)


def make_table(
    live: Live, game: str, setup: dict[str, Any], players: dict[str, list[str]]
) -> tuple[str, dict[str, str]]:
    """A table of ``game`` made in the store: its id and each seat's token."""
    created = live.store.create_table(game, setup, name=f"Test {game}", players=players)
    return created.id, dict(created.tokens)


def demo_setup(game: str) -> dict[str, Any]:
    """The set-up of ``game``'s demo table."""
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / DEMOS[game]).read_text("utf-8"))
    return data


def observation(live: Live, table: str, token: str) -> dict[str, Any]:
    """The seat's observation over the API, without its tag (a digest of the last event seen,
    the same for every seat that saw it)."""
    answer = httpx.get(
        f"{live.base}/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    data.pop("tag", None)
    return data


def act_api(live: Live, table: str, token: str, actor: str, kind: str, **params: Any) -> None:
    """An action taken over the API (setting the scene for a flow), as that seat."""
    auth = {"Authorization": f"Bearer {token}"}
    version = observation(live, table, token)["version"]
    answer = httpx.post(
        f"{live.base}/api/tables/{table}/actions",
        json={"kind": kind, "actor": actor, "params": params, "version": version},
        headers=auth,
    )
    assert answer.status_code == 200, answer.text


def strings(value: Any) -> set[str]:
    """Every string in a JSON value, keys too."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out |= strings(key) | strings(item)
    elif isinstance(value, list):
        for item in value:
            out |= strings(item)
    return out


def secrets_from(live: Live, table: str, tokens: dict[str, str], seat: str) -> set[str]:
    """Strings (6 characters or more) of the table other seats are shown that ``seat`` is not:
    in the events, action records and state every other seat observes, absent from ``seat``'s
    own observation and from the page's own assets."""
    own = json.dumps(observation(live, table, tokens[seat]), ensure_ascii=False)
    assets = "".join(
        httpx.get(f"{live.base}/static/{name}").text
        for name in ("table.js", "common.js", "theme.js", "app.css")
    )
    others: set[str] = set()
    for other, token in tokens.items():
        if other != seat:
            seen = observation(live, table, token)
            # what the table holds (its log, records and state), not another seat's menu of
            # moves, which changes as it plays and which this seat had once too
            others |= strings([seen["events"], seen["actions"], seen["state"]])
    return {
        text
        for text in others
        if len(text) >= 6 and text not in own and text not in assets and "\n" not in text
    }


def no_secret(
    pages: list[SeatPage],
    live: Live,
    table: str,
    tokens: dict[str, str],
    named: dict[str, tuple[str, ...]],
    menus: Mapping[str, Set[str]] | None = None,
) -> None:
    """No player received a secret named for it (``named``: seat → strings), nor any string
    only other seats are shown; and there was something to search for. In that second search
    a seat's own menu is its own: the one it has now, and those it was shown earlier
    (``menus``: seat → their strings), where the same words (a roll's dice, say) may also
    stand in another seat's log."""
    searched = 0
    for seat in pages:
        if seat.seat == "referee":
            continue
        received = seat.received() + (seat.page.text_content("body") or "")
        for secret in named.get(seat.seat, ()):
            searched += 1
            at = received.find(secret)
            assert at < 0, (
                f"{seat.seat} received {secret!r}: {received[max(0, at - 300) : at + 60]!r}"
            )
        # (the words of this seat's own menu — parameter names, options — are its own too)
        menu = strings(observation(live, table, tokens[seat.seat])["choices"])
        earlier = (menus or {}).get(seat.seat, set())
        found = secrets_from(live, table, tokens, seat.seat) - VOCABULARY - menu - earlier
        searched += len(found)
        leaked = sorted(s for s in found if s in received)
        where = [
            received[max(0, received.find(s) - 200) : received.find(s) + 40] for s in leaked[:2]
        ]
        assert not leaked, f"{seat.seat} received {leaked[:5]}: {where}"
        assert not seat.errors, seat.errors
    assert searched > 0, "no seat had a secret to search for: the test proves nothing"
