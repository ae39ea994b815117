"""The Zweihänder, Gin Lane and Hursagmu screens in Chromium: for each game the referee and two
players in separate browser contexts at once, a flow that uses the game's console and makes a
secret exist, every other page following live, no player receiving the secret (page text, DOM,
API answers, WebSocket frames); a keyboard-only flow per game; screenshots at 360 and 1280 px,
light and dark (build/screenshots/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Live
from tests.web.seats import (
    TIMEOUT,
    SeatPage,
    act_api,
    demo_setup,
    follow,
    make_table,
    no_secret,
    observation,
    strings,
)

# ------------------------------------------------------------------------------ Zweihänder


def test_zweihander_exchange_secret_and_d100_roller(
    live: Live, browser: Any, screenshots: Path
) -> None:
    data = demo_setup("zweihander")
    table, tokens = make_table(live, "zweihander", data["setup"], data["players"])
    pages = [
        SeatPage(browser, live, table, seat, tokens[seat]) for seat in ("referee", "alice", "bob")
    ]
    referee, alice, bob = pages
    try:
        # the GM begins a Complex Exchange, his Favourable and Unfavourable Skills secret
        referee.take(
            "exchange.start",
            "referee",
            npc="Magistrate Vollmer",
            disposition="Unfriendly",
            npc_alignment="order",
            participants=["anna", "bert"],
            favourable="Leadership",
            unfavourable="Bargain",
        )
        follow(pages, referee.version())
        referee.page.wait_for_selector(
            ".zw-exchange .secret-note:has-text('Leadership')", timeout=TIMEOUT
        )
        alice.page.wait_for_selector(".zw-exchange:has-text('Magistrate Vollmer')", timeout=TIMEOUT)
        # alice's d100 roller: the odds follow the Difficulty and the Assist Die, criticals apart
        roller = alice.page.locator(".zw-roller")
        roller.locator(".odds-box .roll").wait_for(timeout=TIMEOUT)
        assert "d100 ≤ 50" in (roller.text_content() or "")
        alice.page.select_option("#zw-difficulty", "Hard")
        alice.page.wait_for_selector(".zw-roller .odds-box:has-text('d100 ≤ 30')", timeout=TIMEOUT)
        alice.page.check("#zw-assist")
        alice.page.wait_for_selector(".zw-roller .odds-box:has-text('Assist Die')", timeout=TIMEOUT)
        assert "Critical success" in (roller.text_content() or "")
        before = alice.version()  # read before the click: the referee's page may move first
        alice.page.click("#zw-roll")
        alice.wait_version(before + 1)
        follow(pages, alice.version())
        for seat in pages:
            seat.page.wait_for_selector("#log > li[data-kind='test.rolled'] .roll", timeout=TIMEOUT)
        # each player makes their Social Tactic Test; the others see it live
        alice.take("exchange.tactic", tactic="Charm")
        follow(pages, alice.version())
        bob.take("exchange.tactic", tactic="Intimidate")
        follow(pages, bob.version())
        alice.page.wait_for_selector(
            "#log > li[data-kind='exchange.tactic_tested'] >> nth=1", timeout=TIMEOUT
        )
        secret = ("Leadership", "Bargain")
        no_secret(pages, live, table, tokens, {"alice": secret, "bob": secret})
        alice.photograph(screenshots, "zweihander-alice-exchange")
        referee.photograph(screenshots, "zweihander-referee-exchange")
        # the exchange ends: now everyone may know the GM's Skills
        referee.take("exchange.end", "referee")
        alice.page.wait_for_selector(
            ".zw-exchange .secret-note:has-text('Leadership')", timeout=TIMEOUT
        )
    finally:
        for seat in pages:
            seat.context.close()


def test_zweihander_keyboard_only(live: Live, browser: Any) -> None:
    table, tokens = live.demo("zweihander")
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = alice.page
        page.wait_for_selector(".zw-roller .odds-box .roll", timeout=TIMEOUT)
        alice.tab_to("#zw-difficulty")
        page.keyboard.press("ArrowDown")  # one step harder than Standard
        page.wait_for_selector(".zw-roller .odds-box:has-text('d100 ≤ 40')", timeout=TIMEOUT)
        alice.tab_to("#zw-assist")
        page.keyboard.press("Space")
        assert page.is_checked("#zw-assist")
        alice.tab_to("#zw-roll")
        before = alice.version()
        page.keyboard.press("Enter")
        alice.wait_version(before + 1)
        referee.wait_version(before + 1)
        card = referee.page.locator("#log > li[data-kind='test.rolled']").last
        assert "Assist Die" in (card.text_content() or "")
    finally:
        referee.context.close()
        alice.context.close()


# ------------------------------------------------------------------------------ Gin Lane

#: the ambush demo, with Aspects to tag and a pool to pay for them, Bob in the parlour with Kit
GIN = {
    "zones": ["hall", "parlour"],
    "links": [["hall", "parlour"]],
    "characters": {
        "kit": {
            "side": "society",
            "zone": "parlour",
            "weapon": "cosh",
            "pool": 2,
            "skills": {"Weapons": 2, "Alertness": 1, "Agility": 1},
            "aspects": ["Quick Hands", "Old Soldier"],
        },
        "bob": {"side": "mob", "zone": "parlour", "skills": {"Agility": 1, "Alertness": 1}},
        "sal": {"side": "mob", "zone": "hall", "skills": {"Agility": 1}},
    },
}
GIN_PLAYERS = {"alice": ["kit"], "bob": ["bob"], "sal": ["sal"]}
PLAN = "cosh whoever comes through the door"


def _gin_until_kit_waits(
    live: Live, table: str, tokens: dict[str, str], pages: dict[str, SeatPage] | None = None
) -> None:
    """Initiative, then everyone's turn until Kit has waited (with the plan, a secret)."""
    act_api(live, table, tokens["referee"], "referee", "initiative")
    for _ in range(6):
        state = observation(live, table, tokens["referee"])["state"]
        turn = state["turn"]
        if state["characters"]["kit"]["waiting"]:
            return
        seat = {"kit": "alice", "bob": "bob", "sal": "sal"}[turn]
        if pages is not None and turn == "kit":
            pages["alice"].take("wait", plan=PLAN)
        elif turn == "kit":
            act_api(live, table, tokens["alice"], "kit", "wait", plan=PLAN)
        else:
            act_api(live, table, tokens[seat], turn, "full_defence")
    raise AssertionError("Kit never waited")


def test_ginlane_tagging_odds_and_a_waits_plan(live: Live, browser: Any, screenshots: Path) -> None:
    table, tokens = make_table(live, "ginlane", GIN, GIN_PLAYERS)
    pages = [
        SeatPage(browser, live, table, seat, tokens[seat]) for seat in ("referee", "alice", "bob")
    ]
    referee, alice, bob = pages
    try:
        referee.take("initiative", "referee")
        follow(pages, referee.version())
        for _ in range(6):
            state = observation(live, table, tokens["referee"])["state"]
            if state["characters"]["kit"]["waiting"]:
                break
            turn = state["turn"]
            if turn == "kit":
                alice.take("wait", plan=PLAN)
            elif turn == "bob":
                bob.take("full_defence")
            else:
                act_api(live, table, tokens["sal"], "sal", "full_defence")
            follow(pages, observation(live, table, tokens["referee"])["version"])
        alice.page.wait_for_selector("#log .secret-note:has-text('cosh whoever')", timeout=TIMEOUT)
        # Kit, waiting, may strike out of turn: the tagging console, odds side by side
        console = alice.page.locator(".gl-tagging")
        console.wait_for(timeout=TIMEOUT)
        alice.page.check("#gl-tag-0")
        alice.page.check("#gl-tag-1")
        columns = alice.page.locator(".gl-column")
        # no tags, each Aspect alone (her two and the Society's, free, given at creation), both
        assert columns.count() == 5
        alice.page.wait_for_function(
            "() => [...document.querySelectorAll('.gl-column .odds')].length === 5", timeout=TIMEOUT
        )
        texts = [columns.nth(i).locator(".odds").text_content() for i in range(5)]
        # one tag is one tag whichever Aspect it is; none, one and two differ
        assert texts[1] == texts[2] == texts[3] and len({texts[0], texts[1], texts[4]}) == 3, texts
        assert "4d6kh2" in (columns.nth(4).text_content() or "")
        # the plan is sealed until Kit acts on it: before, no other player has it
        no_secret(pages, live, table, tokens, {"bob": (PLAN,)})
        alice.photograph(screenshots, "ginlane-alice-tagging")
        before = alice.version()
        columns.nth(1).locator("button").click()
        alice.page.wait_for_function(
            f"() => document.body.dataset.version != '{before}'", timeout=TIMEOUT
        )
        follow(pages, alice.version())
        # the attack waits for Bob's defence ("Defence"): his phone asks; he declines (his
        # best skill, no tag)
        decline = bob.page.locator("#act-panel .prompt[role='region'] button.decline")
        decline.wait_for(timeout=TIMEOUT)
        before = bob.version()
        decline.click()
        bob.page.wait_for_function(f"() => document.body.dataset.version != '{before}'")
        bob.page.wait_for_selector("#log > li[data-kind='attack.rolled'] .roll", timeout=TIMEOUT)
        # acting on it, Kit unseals the plan for everyone
        bob.page.wait_for_selector(
            f"#log > li[data-kind='wait.acted']:has-text('{PLAN}')", timeout=TIMEOUT
        )
        referee.photograph(screenshots, "ginlane-referee-board")
    finally:
        for seat in pages:
            seat.context.close()


def test_ginlane_keyboard_only(live: Live, browser: Any) -> None:
    table, tokens = make_table(live, "ginlane", GIN, GIN_PLAYERS)
    _gin_until_kit_waits(live, table, tokens)
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = alice.page
        page.wait_for_selector(".gl-tagging .gl-column .odds", timeout=TIMEOUT)
        alice.tab_to("#gl-tag-0")
        page.keyboard.press("Space")
        page.wait_for_function(
            "() => document.querySelectorAll('.gl-column').length === 4", timeout=TIMEOUT
        )
        assert page.is_checked("#gl-tag-0")
        alice.tab_to("#gl-go-1")  # the column of the first Aspect alone
        before = alice.version()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.body.dataset.version != '{before}'", timeout=TIMEOUT
        )
        referee.wait_version(alice.version())
        # the attack waits for Bob's defence (set-up: his answer over the API)
        act_api(live, table, tokens["bob"], "bob", "defend", skill="Agility")
        referee.page.wait_for_selector("#log > li[data-kind='attack.rolled']", timeout=TIMEOUT)
        card = referee.page.locator("#log > li[data-kind='attack.rolled']").last
        assert "3d6kh2" in (card.text_content() or "")
    finally:
        referee.context.close()
        alice.context.close()


# ------------------------------------------------------------------------------ Hursagmu


def test_hursagmu_round_planner_and_a_secret_sneak(
    live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = live.demo("hursagmu")
    pages = [
        SeatPage(browser, live, table, seat, tokens[seat]) for seat in ("referee", "alice", "bruno")
    ]
    referee, alice, bruno = pages
    # every seat's menu at the start (its own words: parameter names and options)
    menus = set().union(*(strings(observation(live, table, t)["choices"]) for t in tokens.values()))
    try:
        # the thief sneaks up on the guard: his roll is the Master's, the result his own
        alice.take("sneak", perceiver="guard", skill="stealth")
        referee.wait_version(alice.version())
        alice.page.wait_for_selector(
            "#log > li[data-kind='stealth.rolled'].secret", timeout=TIMEOUT
        )
        referee.page.wait_for_selector(
            "#log > li[data-kind='stealth.rolled'] .roll", timeout=TIMEOUT
        )
        # everyone rolls Initiative (the Master for the guard); everyone sees the planner fill
        alice.take("initiative", stance="maneuver")
        bruno.take("initiative", stance="concentrate")
        referee.take("initiative", "guard", stance="maneuver")
        follow(pages, referee.version())
        # whoever is on turn declares, then takes the step from the console
        for _ in range(3):
            obs = observation(live, table, tokens["referee"])
            on_turn = obs["state"]["on_turn"]
            if not on_turn:
                break
            who = on_turn[0]
            seat = {"thief": alice, "sleeper": bruno, "guard": referee}[who]
            plan = obs["state"]["characters"][who]["plan"]
            if not plan:
                seat.take("declare", who)
                follow(pages, seat.version())
                for other in pages:
                    other.page.wait_for_selector(
                        f".hg-timeline li:has-text('{who}')", timeout=TIMEOUT
                    )
                nxt = seat.page.locator(f"#hg-act-{who}")
                if nxt.count():
                    before = seat.version()
                    nxt.click()
                    seat.page.wait_for_function(
                        f"() => document.body.dataset.version != '{before}' || "
                        "document.getElementById('refused').textContent.length > 0",
                        timeout=TIMEOUT,
                    )
                    follow(pages, observation(live, table, tokens["referee"])["version"])
                break
        assert bruno.page.locator(".hg-timeline li").count() >= 1
        assert "Next:" in (bruno.page.text_content("#hg-next") or "")
        # the sleeper hears nothing of a sneak that was not even aimed at him
        no_secret(
            pages,
            live,
            table,
            tokens,
            {"bruno": ("stealth.rolled", "Thief's stealth")},
            {seat: menus for seat in tokens},
        )
        alice.photograph(screenshots, "hursagmu-alice-planner")
        referee.photograph(screenshots, "hursagmu-referee-planner")
    finally:
        for seat in pages:
            seat.context.close()


def test_hursagmu_keyboard_only(live: Live, browser: Any) -> None:
    """The thief pushes power from the quick moves with the keyboard alone."""
    table, tokens = live.demo("hursagmu")
    referee = SeatPage(browser, live, table, "referee", tokens["referee"])
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = alice.page
        page.wait_for_selector("#hg-push-thief", timeout=TIMEOUT)
        alice.tab_to("#hg-push-thief-hits")
        page.keyboard.press("ArrowUp")
        assert page.input_value("#hg-push-thief-hits") == "2"
        alice.tab_to("#hg-push-thief")
        before = alice.version()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.body.dataset.version != '{before}' || "
            "document.getElementById('refused').textContent.length > 0",
            timeout=TIMEOUT,
        )
        assert alice.version() == before + 1, page.text_content("#refused")
        referee.wait_version(before + 1)
        assert "pushed 2" in (referee.page.text_content(".hg-board") or "")
    finally:
        referee.context.close()
        alice.context.close()
