"""Home's setup form, built from each game's setup schema (GET /api/games/{name}): a table of
two games made from it, with every seat's join link and QR code, and the server's refusal of
a bad field shown at that field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Live
from tests.web.test_table import TIMEOUT


def _add_character(page: Any, name: str) -> Any:
    """Add an entry to the characters map (the last list of the form's root) and name it."""
    characters = page.locator(".sf-root > fieldset > fieldset.sf-list").filter(
        has=page.locator("legend", has_text="characters")
    )
    characters.locator(":scope > button", has_text="Add").click()
    entry = characters.locator(".sf-entry").last
    entry.locator("input").first.fill(name)
    return entry


def _field(entry: Any, label: str) -> Any:
    return entry.get_by_label(label, exact=False).first


def test_the_setup_form_creates_tables_of_two_games(
    live: Live, browser: Any, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{live.base}/")
        # Hursagmu: two characters, one with a Dexterity and a Stealth skill
        page.select_option("#c-system", "hursagmu")
        page.wait_for_selector(".sf-root legend:has-text('Hursagmu')", timeout=TIMEOUT)
        first = page.locator(".sf-entry").first  # minProperties 1: one entry to start with
        first.locator("input").first.fill("thief")
        _field(first, "dexterity").fill("3")
        skills = first.locator("fieldset.sf-list", has=page.locator("legend", has_text="skills"))
        skills.locator(":scope > button").click()
        skills.locator(".sf-entry input").first.fill("stealth")
        skills.locator(".sf-entry input").nth(1).fill("4")
        _add_character(page, "guard")
        page.fill("#c-name", "From the form")
        page.screenshot(path=str(screenshots / "home-form-1280.png"), full_page=True)
        page.click("#create button[type=submit]")
        page.wait_for_function(
            "() => document.querySelectorAll('#created li.join svg').length === 3",
            timeout=TIMEOUT,
        )
        links = page.locator("#created li.join code").all_text_contents()
        assert len(links) == 3 and all("/join/" in link and "#" in link for link in links)
        table = links[0].split("/join/")[1].split("#")[0]
        # the setup is what the form says, typed as the schema types it, defaults left out
        setup = live.store.load(table).setup
        assert setup["characters"] == {
            "thief": {"dexterity": 3, "skills": {"stealth": 4}},
            "guard": {},
        }
        # Gin Lane: zones from the list, a character standing in one
        page.select_option("#c-system", "ginlane")
        page.wait_for_selector(".sf-root legend:has-text('Gin Lane')", timeout=TIMEOUT)
        zones = page.locator("fieldset.sf-list", has=page.locator("legend", has_text="zones"))
        for zone in ("hall", "parlour"):
            zones.locator(":scope > button").click()
            zones.locator(".sf-entry input").last.fill(zone)
        kit = (
            page.locator(".sf-root fieldset.sf-list .sf-entry")
            .filter(has=page.get_by_label("Name (id) of this character"))
            .first
        )
        kit.locator("input").first.fill("kit")
        _field(kit, "zone").fill("parlour")
        page.fill("#c-name", "Gin from the form")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#created h3:has-text('Gin from the form')", timeout=TIMEOUT)
        page.wait_for_function(
            "() => document.querySelectorAll('#created li.join svg').length === 2",
            timeout=TIMEOUT,
        )
        assert len(page.locator("#created li.join code").all_text_contents()) == 2
        # a field the game refuses: the server's message at that field, focused
        _field(kit, "zone").fill("cellar")
        page.click("#create button[type=submit]")
        error = page.locator(".sf-error")
        error.wait_for(timeout=TIMEOUT)
        assert "no zone 'cellar'" in (error.text_content() or "")
        zone_input = _field(kit, "zone")
        assert zone_input.get_attribute("aria-invalid") == "true"
        assert zone_input.get_attribute("aria-describedby") == error.get_attribute("id")
        assert page.evaluate("document.activeElement.getAttribute('aria-invalid')") == "true"
        # the message sits inside the field's own box
        assert kit.locator(".sf-error").count() == 1
        page.set_viewport_size({"width": 360, "height": 780})
        page.wait_for_timeout(300)  # the layout settles at the new width before the picture
        page.screenshot(path=str(screenshots / "home-form-360.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"Home is {width} px wide on a 360 px phone"
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(screenshots / "home-form-360-dark.png"))
        assert not errors, errors
    finally:
        context.close()
