"""Gin Lane, Zweihänder, Burning Kingdoms and Hursagmu handouts: sheets, trackers, slips."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core.table import observe
from referee.handouts import render_handouts
from tests.handouts.conftest import example_table
from tests.handouts.pdftext import all_text, pages_text, render_pngs

DEMOS = {
    "intrigue": "intrigue/perception-envelopes.yaml",
    "ginlane": "ginlane/ambush.yaml",
    "zweihander": "zweihander/journey.yaml",
    "kingdoms": "kingdoms/artha-and-the-tie-breaker.yaml",
    "hursagmu": "hursagmu/thief-and-sleeper.yaml",
}


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", sorted(DEMOS))
def test_every_page_of_every_seat_renders(game: str, paper: str) -> None:
    table = example_table(DEMOS[game])
    for seat in table.seats:
        for name, pdf in render_handouts(table, seat.id, paper).items():
            assert pdf.startswith(b"%PDF-"), name
            assert b"/FontFile2" in pdf  # the font is embedded
            width = b"595.28" if paper == "a4" else b"612.00"
            assert width in pdf, (name, paper)
            assert render_pngs(pdf), name


def test_gin_lane_sheet_has_the_pyramid_aspects_tracks_and_consequences() -> None:
    text = all_text(
        render_handouts(example_table(DEMOS["ginlane"]), "alice")["character-sheets.pdf"]
    )
    for words in [
        "Kit",
        "Skill Pyramid",
        "+4",
        "+1",
        "Aspects",
        "Health",
        "Composure",
        "Wealth",
        "Consequences",
        "Slight",
        "Moderate",
        "Heavy",
        "Extreme",
        "a month",
    ]:
        assert words in text, words
    assert "Bob" not in text and "Sal" not in text  # alice plays Kit only
    assert "+2 Weapons" in " ".join(text.split())  # Kit's own skills, in the pyramid
    # the Aspect given at creation, free-taggable ("Background"), is printed and marked so
    assert "Member of the Society for Effectual Redress (free)" in " ".join(text.split())


def test_gin_lane_pyramid_prints_the_skills_a_seat_sees() -> None:
    from referee.handouts.ginlane import character_sheets

    observation: dict[str, Any] = {
        "viewer": "ann",
        "plays": ["moll"],
        "state": {
            "characters": {
                "moll": {
                    "name": "Moll Cutpurse",
                    "skills": {"Weapons": 3, "Agility": 2, "Endurance": 1},
                    "aspects": ["Owes Jonathan Wild"],
                    "consequences": {"Slight": "Black eye"},
                }
            }
        },
    }
    text = all_text(character_sheets(observation, "a4"))
    assert "Moll Cutpurse" in text and "Weapons" in text and "Owes Jonathan Wild" in text
    assert "Black eye" in text


def test_zweihander_sheet_tracks_and_trackers() -> None:
    files = render_handouts(example_table(DEMOS["zweihander"]), "referee", "letter")
    assert sorted(files) == ["character-sheets.pdf", "chase-tracker.pdf", "journey-log.pdf"]
    sheets = pages_text(files["character-sheets.pdf"])
    assert len(sheets) == 3
    first = " ".join(sheets[0].split())
    for words in [
        "Anna",
        "Navigation",
        "55%",
        "Reputation points: 2",
        "Corruption: 0",
        "Order ranks",
        "Chaos ranks",
        "Madness",
        "Disorder",
        "Peril",
        "Unhindered",
        "Peril Threshold 6",
    ]:
        assert words in first, words
    journey = all_text(files["journey-log.pdf"])
    for words in [
        "the old forest road",
        "the Grey Peaks",
        "medium",
        "-30",
        "Guide",
        "Survivalist",
        "Scout",
        "Anna, Bert, Cora",
    ]:
        assert words in journey, words
    chase = all_text(files["chase-tracker.pdf"])
    assert "Escape" in chase and "Pursuit Value" in chase and "Head Start" in chase


def test_zweihander_player_prints_their_own_sheet_only() -> None:
    table = example_table("zweihander/complex-exchange.yaml")
    seat = next(s for s in table.seats if not s.is_referee)
    own = set(observe(table, seat.id).to_json()["plays"])
    text = all_text(render_handouts(table, seat.id)["character-sheets.pdf"])
    for cid in ["anna", "bert"]:
        assert (cid.title() in text) == (cid in own)


def test_kingdoms_faction_sheet_slips_and_chronicle() -> None:
    table = example_table(DEMOS["kingdoms"])
    files = render_handouts(table, "ann")
    sheet = all_text(files["faction-sheets.pdf"])
    for words in [
        "Elves",
        "Disposition",
        "10",
        "Faction Leader",
        "Aeluin",
        "Fate 2",
        "Persona 1",
        "Deeds 0",
        "Second-in-Command (2iC)",
        "Rivals",
        "Orcs",
        "12",
    ]:
        assert words in sheet, words
    assert "Gorbash" not in sheet  # the orcs' leader is on bob's sheet
    slips = pages_text(files["maneuver-slips.pdf"])
    assert len(slips) == 1 and slips[0].count("MANEUVER SLIP") == 8
    for maneuver in [
        "Assault",
        "Assess",
        "Conserve",
        "Ensnare",
        "Fortify",
        "Gambit",
        "Harry",
        "Infiltrate",
        "Onslaught",
        "Ploy",
        "Sap",
    ]:
        assert maneuver in slips[0]
    chronicle = all_text(files["chronicle-summary.pdf"])
    assert "the Greenway" in chronicle and "Elves" in chronicle and "Orcs" in chronicle


@pytest.mark.slow
def test_a_faction_sheet_is_its_own_factions_only() -> None:
    table = example_table("kingdoms/four-factions-every-maneuver.yaml")
    for seat in table.seats:
        seen = observe(table, seat.id).to_json()
        own = set(seen["plays"])
        assert own
        text = all_text(render_handouts(table, seat.id)["faction-sheets.pdf"])
        for fid, faction in seen["state"]["factions"].items():
            leader = (faction.get("leader") or {}).get("name")
            assert leader
            assert (leader in text) == (fid in own), (seat.id, fid)


def test_hursagmu_round_planner() -> None:
    files = render_handouts(example_table(DEMOS["hursagmu"]), "referee")
    pages = pages_text(files["round-planner.pdf"])
    assert len(pages) == 3
    text = " ".join(pages[0].split())
    for words in [
        "Thief",
        "ROUND PLANNER",
        "Initiative",
        "Dex / Int",
        "Recovery",
        "12",
        "-2 to every skill",
    ]:
        assert words in text, words


def test_hursagmu_round_planner_lists_every_skill_dexterity_and_weapon() -> None:
    """The planner prints the character's sheet, not only the skills of a declared plan: his
    attributes and weapon, and every skill of the game (the game's own list, ``handout_data``)
    with his level, 0 for one he lacks."""
    files = render_handouts(example_table(DEMOS["hursagmu"]), "referee")
    text = " ".join(pages_text(files["round-planner.pdf"])[0].split())
    for words in ["Dexterity 3", "Weapon", "stealth 4", "quickness", "defense", "mahasu 0"]:
        assert words in text, (words, text[:400])
