"""A Hursagmu player composes the round's plan on a 360-pixel phone, from the page alone (issue
26): defend, Haste, then attack the ogre — each step's shape chosen from its labelled select, the
round's penalty and each step's odds (``round_plan.plan_odds`` through ``POST /odds``) updating
as steps are added; sent, the steps are the state every seat sees."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Live
from tests.web.seats import TIMEOUT, SeatPage, act_api, make_table, observation

SETUP = {
    "characters": {
        "hero": {
            "dexterity": 2,
            "strength": 2,
            "weapon": 5,
            "stamina": 20,
            "skills": {"quickness": 2, "striking": 5, "defense": 6},
        },
        "ogre": {
            "dexterity": 1,
            "strength": 4,
            "weapon": 6,
            "stamina": 30,
            "skills": {"quickness": 1, "striking": 3, "defense": 1},
        },
    }
}


def _odds_labels(page: Any, form: Any) -> list[str]:
    return [t.strip() for t in form.locator(".odds-box .roll strong").all_text_contents()]


def _wait_odds(page: Any, form: Any, words: str) -> list[str]:
    """Wait until the form's odds hold ``words``; the labels shown then."""
    form.locator(".odds-box .roll strong", has_text=words).first.wait_for(timeout=TIMEOUT)
    return _odds_labels(page, form)


def test_a_player_composes_defend_haste_and_attack_on_a_phone(
    live: Live, browser: Any, screenshots: Path
) -> None:
    table, tokens = make_table(live, "hursagmu", SETUP, {"alice": ["hero"], "bruno": ["ogre"]})
    act_api(live, table, tokens["alice"], "hero", "initiative", stance="maneuver")
    act_api(live, table, tokens["bruno"], "ogre", "initiative", stance="maneuver")
    state = observation(live, table, tokens["alice"])["state"]
    hero, ogre = (state["characters"][w]["initiative"] for w in ("hero", "ogre"))
    # the hero on turn (the dice are the table's own: whoever is faster declares first)
    if ogre >= hero:
        act_api(live, table, tokens["bruno"], "ogre", "declare", actions=[{"defend": "defense"}])
    alice = SeatPage(browser, live, table, "alice", tokens["alice"])
    try:
        page = alice.page
        page.set_viewport_size({"width": 360, "height": 780})
        details = page.locator("details.choice").filter(
            has=page.locator("form[data-kind='declare']")
        )
        form = details.locator("form")
        details.locator("summary").click()
        steps = form.locator("li.step")
        assert steps.count() == 1  # at least one step: the first is there to begin with
        # step 1: defend
        step = steps.nth(0)
        step.get_by_label("Kind of step 1").select_option(label="defend")
        shown = _wait_odds(page, form, "no penalty for one action")
        assert shown == [
            "Odds: step 1 at Initiative "
            f"{hero}: Ogre's striking against Hero's defense, no penalty for one action"
        ]
        # step 2: Haste
        form.get_by_role("button", name="Add a step").click()
        steps.nth(1).get_by_label("Kind of step 2").select_option(label="haste (+2 Initiative)")
        # (the new step is an attack until its kind is chosen: wait for Haste's Initiative)
        shown = _wait_odds(page, form, f"step 1 at Initiative {hero + 2}")
        assert shown == [
            f"Odds: step 1 at Initiative {hero + 2}: Ogre's striking against Hero's defense, "
            "−2 for two actions"
        ]
        # step 3: attack the ogre (the attack shape is the new step's first)
        form.get_by_role("button", name="Add a step").click()
        third = steps.nth(2)
        assert third.get_by_label("Kind of step 3").input_value() == "attack"
        third.get_by_label("attack", exact=True).select_option(label="ogre")
        shown = _wait_odds(page, form, "step 3")
        assert shown[-1].startswith(
            f"Odds: step 3 at Initiative {hero}: attack ogre (striking) against his defense"
        )
        assert all(label.endswith("−4 for three actions") for label in shown), shown
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width} px wide on a 360 px phone"
        form.scroll_into_view_if_needed()
        # (docs/img/web-hursagmu-plan-360.png is this picture)
        details.screenshot(path=str(screenshots / "hursagmu-plan-360.png"))
        # sent: the state holds the declared steps, and the planner shows them
        before = alice.version()
        form.locator("button[type=submit]").click()
        page.wait_for_function(
            f"() => document.body.dataset.version != '{before}' || "
            "document.getElementById('refused').textContent.length > 0",
            timeout=TIMEOUT,
        )
        assert alice.version() == before + 1, page.text_content("#refused")
        plan = observation(live, table, tokens["bruno"])["state"]["characters"]["hero"]["plan"]
        assert [(s["kind"], s.get("target"), s.get("skill")) for s in plan] == [
            ("defend", None, "defense"),
            ("haste", None, None),
            ("attack", "ogre", "striking"),
        ]
        timeline = page.locator(".hg-timeline")
        assert "hero: attack ogre (striking)" in (timeline.text_content() or "")
        assert not alice.errors, alice.errors
    finally:
        alice.context.close()
