"""A Hursagmu round at the web table, clicked through the pages only (issue 28): the referee at
1280 px and two players on 360 px phones, each in a browser context of its own.

- The Master rolls a secret Perception for Marcos; neither player ever receives its dice.
- Both roll Initiative from their phones, each stance's odds shown before the roll.
- Bob ("maneuver") composes his round on the phone: defend, Haste, attack Marcos — a defence and
  an attack against a foe, the penalty and each step's odds shown as it is built — while
  Marcos's phone says why he cannot act, and until when.
- Bob attacks Marcos, who chose to concentrate: the attack waits on Marcos's phone as a prompt
  ("abort the rest of his turn to defend, or take the hit"), answered there by aborting to
  defend with Defense; the attack is rolled against that defence.
- The round ends from the referee's page.

The table's dice are its own; Bob's Quickness (2d6 + 14, at least 16) beats Marcos's Command
(2d6 + 3, at most 15) whatever they are, so Bob is first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Live, docs_picture
from tests.web.seats import TIMEOUT, SeatPage, no_secret, observation, strings

SETUP = {
    "characters": {
        "bob": {
            "dexterity": 5,
            "strength": 1,
            "weapon": 2,
            "stamina": 20,
            "skills": {"quickness": 9, "striking": 3, "defense": 3},
        },
        "ogre": {
            "strength": 2,
            "weapon": 2,
            "stamina": 30,
            "skills": {"quickness": 0, "striking": 2, "defense": 0},
        },
        "marcos": {
            "intelligence": 3,
            "stamina": 40,
            "skills": {"perception": 0, "defiance": 2, "mahasu": 3, "defense": 1},
        },
    }
}


def _odds(form: Any, words: str) -> list[str]:
    """Wait until the form's odds hold ``words``; the labels shown then."""
    form.locator(".odds-box .roll strong", has_text=words).first.wait_for(timeout=TIMEOUT)
    return [t.strip() for t in form.locator(".odds-box .roll strong").all_text_contents()]


def _compose_defend_haste_attack(
    alice: SeatPage, pages: list[SeatPage], bob_init: int, screenshots: Path
) -> None:
    """Bob's round, built step by step on the phone, the penalty and odds following."""
    page = alice.page
    details = page.locator("details.choice").filter(has=page.locator("form[data-kind='declare']"))
    form = details.locator("form")
    details.locator("summary").click()
    steps = form.locator("li.step")
    steps.nth(0).get_by_label("Kind of step 1").select_option(label="defend")
    shown = _odds(form, "no penalty for one action")
    # (Marcos concentrates: his sorcery asks for Defiance, so only the ogre's blow is shown)
    assert shown == [
        f"Odds: step 1 at Initiative {bob_init}: Ogre's striking against Bob's defense, "
        "no penalty for one action"
    ]
    form.get_by_role("button", name="Add a step").click()
    steps.nth(1).get_by_label("Kind of step 2").select_option(label="haste (+2 Initiative)")
    _odds(form, f"step 1 at Initiative {bob_init + 2}")
    form.get_by_role("button", name="Add a step").click()
    third = steps.nth(2)
    assert third.get_by_label("Kind of step 3").input_value() == "attack"
    targets = third.get_by_label("attack", exact=True).locator("option").all_text_contents()
    assert "marcos" in targets
    third.get_by_label("attack", exact=True).select_option(label="marcos")
    shown = _odds(form, "attack marcos")
    # the defence at the hasted Initiative, the attack two lower; both at −4 for three actions
    assert shown[0].startswith(f"Odds: step 1 at Initiative {bob_init + 2}: ")
    assert shown[-1].startswith(
        f"Odds: step 3 at Initiative {bob_init}: attack marcos (striking) against his defense"
    )
    assert all(label.endswith("−4 for three actions") for label in shown), shown
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    details.screenshot(path=str(screenshots / "hursagmu-evening-plan-360.png"))
    alice.submit(form, pages)


def test_a_round_with_defend_and_attack_haste_and_an_abort_to_defend(
    live: Live, browser: Any, screenshots: Path
) -> None:
    created = live.store.create_table(
        "hursagmu",
        SETUP,
        name="An evening",
        players={"alice": ["bob"], "bruno": ["marcos"]},
    )
    table, tokens = created.id, dict(created.tokens)
    pages = [
        SeatPage(browser, live, table, seat, tokens[seat]) for seat in ("referee", "alice", "bruno")
    ]
    referee, alice, bruno = pages
    try:
        alice.phone().count_buzzes()
        bruno.phone().count_buzzes()
        # the Master's secret roll: Marcos's Perception, its dice his alone
        referee.take(
            "perceive",
            "referee",
            character="marcos",
            skill="perception",
            challenge="13",
            sense="hearing",
        )
        for seat in pages:
            seat.wait_version(referee.version())
        # Initiative from the phones, each stance's odds shown before the roll
        details = alice.page.locator("details.choice").filter(
            has=alice.page.locator("form[data-kind='initiative']")
        )
        details.locator("summary").click()
        initiative_odds = details.locator(".odds-box, .odds").first.text_content() or ""
        assert "Bob maneuvers (Quickness): ahead of Marcos' Quickness" in initiative_odds
        alice.take("initiative", stance="maneuver")
        bruno.wait_version(alice.version())
        before_odds = bruno.page.locator("details.choice").filter(
            has=bruno.page.locator("form[data-kind='initiative']")
        )
        before_odds.locator("summary").click()
        assert "before Bob's Initiative" in (before_odds.text_content() or "")
        # (its dice, "2d6+3 ≥ 17" say, are bruno's own, whoever else's roll reads the same)
        initiative_menu = strings(observation(live, table, tokens["bruno"])["choices"])
        bruno.take("initiative", stance="concentrate")
        referee.take("initiative", "ogre", stance="maneuver")
        for seat in pages:
            seat.wait_version(referee.version())
        state = observation(live, table, tokens["alice"])["state"]["characters"]
        bob_init, marcos_init = state["bob"]["initiative"], state["marcos"]["initiative"]
        assert bob_init > marcos_init
        # Marcos cannot act yet: his phone says why, and until when
        waiting = bruno.page.locator("#choices p.waiting[data-actor='marcos']")
        waiting.wait_for(timeout=TIMEOUT)
        assert (
            f"his Initiative {marcos_init} comes after Bob's {bob_init}, until Bob has acted"
            in (waiting.text_content() or "")
        )
        # Bob's round: defend, Haste, attack Marcos
        _compose_defend_haste_attack(alice, pages, bob_init, screenshots)
        plan = observation(live, table, tokens["bruno"])["state"]["characters"]["bob"]["plan"]
        assert [(s["kind"], s.get("target")) for s in plan] == [
            ("defend", None),
            ("haste", None),
            ("attack", "marcos"),
        ]
        # Bob strikes from the quick moves; Marcos, concentrating, is asked on his phone
        before = alice.version()
        alice.page.locator("#hg-act-bob").click()
        for seat in pages:
            seat.moved_on(before)
        region = bruno.page.locator("#act-panel .prompt[role='region']")
        region.wait_for(timeout=TIMEOUT)
        asked = region.locator("h3").text_content() or ""
        assert "Bob attacks Marcos with striking" in asked
        assert "aborts the rest of his turn" in asked and "take the hit" in asked
        assert region.locator("button.decline").count() == 1  # declining takes the hit
        region.locator("details.choice > summary", has_text="defend").first.click()
        defend = region.locator("form[data-kind='defend']")
        assert defend.locator("li.step").nth(0).get_by_label("Kind of step 1").input_value() == (
            "defend"
        )
        shown = _odds(defend, "aborting his turn")
        assert shown[0].startswith("Odds: Bob's striking against Marcos' defense, aborting")
        # the others wait, told whom for
        assert "Waiting for marcos" in (alice.page.text_content("#act-panel") or "")
        region.screenshot(path=str(screenshots / "hursagmu-abort-prompt-360.png"))
        # (docs/img/web-hursagmu-decisive.png is this picture)
        region.screenshot(path=str(docs_picture("web-hursagmu-decisive.png")))
        bruno.submit(defend, pages)
        events = observation(live, table, tokens["alice"])["events"]
        kinds = [e["kind"] for e in events]
        assert "turn.aborted" in kinds
        resolved = [e for e in events if e["kind"] == "attack.resolved"][-1]["payload"]
        assert (resolved["target"], resolved["defended"]) == ("marcos", True)
        assert bruno.page.locator("#act-panel .prompt[role='region']").count() == 0
        # the ogre (the Master's) strikes Bob, who declared a defence: declining, he makes it
        referee.take("declare", "ogre")
        before = referee.version()
        referee.page.locator("#hg-act-ogre").click()
        for seat in pages:
            seat.moved_on(before)
        asked_bob = alice.page.locator("#act-panel .prompt[role='region']")
        asked_bob.wait_for(timeout=TIMEOUT)
        assert "Ogre attacks Bob with striking: defend with defense, or take the hit" in (
            asked_bob.text_content() or ""
        )
        before = alice.version()
        asked_bob.locator("button.decline").click()
        for seat in pages:
            seat.moved_on(before)
        resolved = [
            e
            for e in observation(live, table, tokens["alice"])["events"]
            if e["kind"] == "attack.resolved"
        ][-1]["payload"]
        assert (resolved["attacker"], resolved["defended"]) == ("ogre", True)
        # the round is over: the referee ends it from his page
        referee.take("end_round", "referee")
        for seat in pages:
            seat.wait_version(referee.version())
        assert "Round 2" in (alice.page.text_content(".hg-board") or "")
        # nobody received another seat's secret: the Master's roll for Marcos above all
        no_secret(
            pages,
            live,
            table,
            tokens,
            {
                "alice": ("Marcos' perception (in secret)", "rolls perception in secret against"),
                # (the Perception's dice, unless bruno's own Initiative odds read the same)
                "bruno": (
                    "Marcos' perception (in secret)",
                    "in secret against",
                    *({"2d6+3 ≥ 13"} - initiative_menu),
                ),
            },
            menus={"bruno": initiative_menu},
        )
        for seat in pages:
            assert not seat.errors, seat.errors
    finally:
        for seat in pages:
            shot = screenshots / f"hursagmu-evening-{seat.seat}.png"
            seat.page.screenshot(path=str(shot), full_page=True)
            seat.context.close()
