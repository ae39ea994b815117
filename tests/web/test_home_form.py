"""Home's setup form, built from each game's setup schema (GET /api/games/{name}): a table of
two games made from it, with every seat's join link and QR code; every game's demo setup filled
in from the form alone (an Intrigue envelope's list of badge numbers among it); labels and
buttons in words; what is wrong shown at its field in words, and the focus moved to it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from tests.web.conftest import Live
from tests.web.seats import TIMEOUT


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
        assert "no zone 'cellar'" in (error.text_content() or "").lower()
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


# -------------------------------------------------------------- filling the form from a value


def fill(field: Any, value: Any) -> None:
    """Fill the form's ``field`` (an element with ``data-kind``) with ``value`` as a person
    would: typing, choosing, ticking, and pressing *Add* for each entry of a list or a map."""
    kind = field.get_attribute("data-kind")
    if kind == "object":
        for key, item in value.items():
            fill(field.locator(f":scope > [data-key='{key}']"), item)
    elif kind in ("map", "list"):
        pairs = list(value.items()) if kind == "map" else list(enumerate(value))
        entries = field.locator(":scope > ol > li")
        for index, (key, item) in enumerate(pairs):
            if entries.count() <= index:
                field.locator(":scope > button.sf-add").click()
            entry = entries.nth(index)
            if kind == "map":
                entry.locator(":scope > .sf-field > input.sf-key").fill(str(key))
            fill(entry.locator(":scope > [data-entry]"), item)
    elif kind == "tuple":
        for index, item in enumerate(value):
            fill(field.locator(":scope > [data-kind]").nth(index), item)
    elif kind == "several":
        items = value if isinstance(value, list) else [value]
        field.locator("input").fill(", ".join(str(item) for item in items))
    elif kind == "enum":
        field.locator("select").select_option(label=str(value))
    elif kind == "boolean":
        field.locator("input").set_checked(bool(value))
    else:
        assert kind in ("text", "number"), kind
        field.locator("input").fill(str(value))


def _open_form(page: Any, live: Live, game: str) -> None:
    page.goto(f"{live.base}/")
    page.select_option("#c-system", game)
    page.wait_for_selector(f".sf-root[data-game='{game}'] [data-kind]", timeout=TIMEOUT)


def _create(page: Any, live: Live, name: str) -> dict[str, Any]:
    """Press *Create the table*; the setup the new table was made with."""
    page.fill("#c-name", name)
    page.click("#create button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('#created h3') || document.querySelector('.sf-error')"
        " || document.getElementById('create-error').textContent",
        timeout=TIMEOUT,
    )
    refused = [page.text_content("#create-error"), *page.locator(".sf-error").all_text_contents()]
    assert page.locator("#created h3", has_text=name).count() == 1, refused
    link = page.locator("#created li.join code").first.text_content() or ""
    setup: dict[str, Any] = live.store.load(link.split("/join/")[1].split("#")[0]).setup
    return setup


def _context(browser: Any) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_each_demo_setup_is_made_from_the_form(live: Live, browser: Any, game: str) -> None:
    """Every game's demo setup (``referee play``'s tables) typed into the form, field by field:
    the table made has exactly that setup (nothing left out, nothing added, each value typed as
    the schema types it)."""
    demo = yaml.safe_load((EXAMPLES / DEMOS[game]).read_text("utf-8"))["setup"]
    context, page, errors = _context(browser)
    try:
        _open_form(page, live, game)
        fill(page.locator(".sf-root > [data-kind='object']"), demo)
        assert _create(page, live, f"{game} from the form") == demo
        assert not errors, errors
    finally:
        context.close()


def test_an_envelope_for_several_badges_is_a_comma_separated_list(live: Live, browser: Any) -> None:
    """Intrigue: "Give to Character 12, 20 or 32": the envelope's *To* takes ``12, 20, 32`` (a
    list of badge numbers) or ``ALL`` (one value), typed in one box."""
    context, page, errors = _context(browser)
    try:
        _open_form(page, live, "intrigue")
        countess = page.locator(".sf-root .sf-entry").first
        countess.locator("input.sf-key").fill("countess")
        countess.get_by_label("Number (required)").fill("40")
        envelopes = countess.locator("fieldset.sf-list[data-key='perception_envelopes']")
        for to, target in (("12, 20, 32", "14"), ("ALL", "16")):
            envelopes.get_by_role("button", name="Add a perception envelope").click()
            envelope = envelopes.locator(":scope > ol > li").last
            to_box = envelope.get_by_label("To (required)")
            assert "several separated by commas" in (
                page.locator(f"#{to_box.get_attribute('aria-describedby')}").text_content() or ""
            )
            to_box.fill(to)
            envelope.get_by_label("Target (required)").fill(target)
            envelope.get_by_label("Contents (required)").fill(f"for {to}")
        for name, number in (("twelve", "12"), ("twenty", "20")):
            page.get_by_role("button", name="Add a character").click()
            entry = page.locator(".sf-root [data-key='characters'] > ol > li").last
            entry.locator("input.sf-key").fill(name)
            entry.get_by_label("Number (required)").fill(number)
        setup = _create(page, live, "Envelopes")
        assert [e["to"] for e in setup["characters"]["countess"]["perception_envelopes"]] == [
            [12, 20, 32],
            "ALL",
        ]
        assert not errors, errors
    finally:
        context.close()


def test_labels_and_buttons_are_in_words(live: Live, browser: Any) -> None:
    """Field names are shown as words in sentence case ("Free aspects", not free_aspects); a
    list's button adds one of it with the right article ("Add an ability", never "Add a
    abilitie"); Gin Lane's free aspects, given in the form, are taken as free aspects."""
    context, page, errors = _context(browser)
    try:
        for game in sorted(DEMOS):
            _open_form(page, live, game)
            texts = page.locator(
                "#c-setup label, #c-setup legend, #c-setup button"
            ).all_text_contents()
            assert not [t for t in texts if "_" in t], texts
            assert not [t for t in texts if t[:1].islower()], texts
            for text in texts:
                if text.startswith("Add "):
                    assert re.fullmatch(
                        r"Add (a [^aeiou][a-z ]*|an [aeiou][a-z ]*|to [a-z ]+)", text
                    )
        _open_form(page, live, "intrigue")
        buttons = page.locator("#c-setup button").all_text_contents()
        assert {"Add an ability", "Add a skill", "Add an item", "Add a language"} <= set(buttons)
        _open_form(page, live, "ginlane")
        assert page.locator("#c-setup legend", has_text="Free aspects").count() == 1
        setup = {
            "zones": ["hall"],
            "characters": {"kit": {"zone": "hall", "free_aspects": ["Quick"]}},
        }
        page.get_by_role("button", name="Add a free aspect").click()
        fill(page.locator(".sf-root > [data-kind='object']"), setup)
        assert _create(page, live, "Free aspects") == setup
        assert not errors, errors
    finally:
        context.close()


def test_what_is_wrong_is_said_in_words_at_its_field(live: Live, browser: Any) -> None:
    """A journey half given (a stretch, no traveller) is shown at the travellers' list ("Give at
    at least one traveller."), focused; the server's refusals in pydantic's words are shown in a
    person's; a setup file naming a field as the form shows it ("free aspects") is told how it
    is written."""
    context, page, errors = _context(browser)
    try:
        _open_form(page, live, "zweihander")
        journey = page.locator(".sf-root [data-key='journey']")
        journey.locator("[data-key='stretches'] [data-key='days'] input").fill("2")
        page.click("#create button[type=submit]")
        message = journey.locator("[data-key='travellers'] > .sf-error")
        message.wait_for(timeout=TIMEOUT)
        assert message.text_content() == "Give at least one traveller."
        focused = page.evaluate(
            "() => [document.activeElement.getAttribute('aria-invalid'),"
            " document.activeElement.getAttribute('aria-describedby')]"
        )
        assert focused[0] == "true" and message.get_attribute("id") in focused[1].split()
        assert "marked below" in (page.text_content("#create-error") or "")
        # the journey left out whole, nothing in it is needed: the table is made
        journey.locator("[data-key='stretches'] [data-key='days'] input").fill("")
        fill(page.locator(".sf-root > [data-kind='object']"), {"characters": {"anna": {}}})
        assert _create(page, live, "No journey") == {"characters": {"anna": {}}}
        # pydantic's messages, as the server sends them, in words
        plain = {
            "Field required": "This is needed: fill it in.",
            "List should have at least 1 item after validation, not 0": "Give at least one.",
            "Dictionary should have at least 1 item after validation, not 0": "Give at least one.",
            "List should have at most 2 items after validation, not 3": "Give at most 2.",
            "Input should be a valid integer, unable to parse string as an integer": (
                "Give a whole number."
            ),
            "Input should be greater than or equal to 0": "Give 0 or more.",
            "Input should be less than or equal to 100000": "Give 100000 or less.",
            "Input should be 'a', 'b', 'extra' or 'reroll'": "Choose one of a, b, extra or reroll.",
            "characters.k.zone: no zone 'cellar'": "No zone 'cellar'",
        }
        said = page.evaluate(
            "(ms) => ms.map(m => RefSchemaForm.plain(m, ['characters', 'k', 'zone']))",
            list(plain),
        )
        assert said == list(plain.values())
        # a setup file with the label's words for a name: refused, and told how it is written
        page.fill("#c-yaml", "zones: [hall]\ncharacters:\n  kit:\n    free aspects: [Quick]\n")
        page.click("#create button[type=submit]")
        page.wait_for_function(
            "() => document.getElementById('create-error').textContent.length > 0",
            timeout=TIMEOUT,
        )
        alert = page.text_content("#create-error") or ""
        assert "“free aspects” is not something" in alert and "“free_aspects”" in alert, alert
        assert "Extra inputs" not in alert
        assert not errors, errors
    finally:
        context.close()
