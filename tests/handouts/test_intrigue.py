"""Intrigue in the Clouds' handouts: badges, perception and contingency envelopes, sheets."""

from __future__ import annotations

import pytest

from referee.core.registry import system
from referee.handouts import render_handouts
from referee.handouts.intrigue import CARD, PANEL, card_slots
from tests.handouts.conftest import example_table
from tests.handouts.pdftext import all_text, pages_text, placed_text, render_pngs

PERCEPTION = "intrigue/perception-envelopes.yaml"
CONTINGENCY = "intrigue/contingency-envelopes.yaml"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_referee_gets_badges_envelopes_and_sheets(paper: str) -> None:
    files = render_handouts(example_table(PERCEPTION), "referee", paper)
    assert sorted(files) == [
        "badges.pdf",
        "character-sheets.pdf",
        "contingency-envelopes.pdf",
        "perception-envelopes.pdf",
    ]
    badges = all_text(files["badges.pdf"])
    for name, number in [
        ("The Countess", "40"),
        ("Mr Fifteen", "15"),
        ("Miss Twelve", "12"),
        ("Dr Twenty", "20"),
    ]:
        assert name in badges and number in badges
    envelopes = all_text(files["perception-envelopes.pdf"])
    assert "Give to ALL with a Roll of 16 or more" in envelopes
    assert "Give to Character 12, 20, 32, if they Roll 14 or more" in envelopes
    assert "Her pearls are paste." in envelopes
    assert "Directions: Look startled." in envelopes
    sheets = pages_text(files["character-sheets.pdf"])
    assert len(sheets) == 4
    assert "Stamina Stat" in sheets[1] and "Perception" in sheets[1] and "3" in sheets[1]
    assert "Languages" in sheets[0] and "English" in sheets[0]
    for pdf in files.values():
        assert render_pngs(pdf)


def test_a_badge_prints_the_number_in_two_digits_in_its_top_right_corner() -> None:
    table = system("intrigue").new_table({"characters": {"kit": {"name": "Kit", "number": "07"}}})
    pdf = render_handouts(table, "referee")["badges.pdf"]
    runs = placed_text(pdf)[0]
    (name,) = [r for r in runs if r[2] == "Kit"]
    (number,) = [r for r in runs if r[2] == "07"]
    assert number[0] > name[0] and number[1] < name[1]  # right of and above the name


def _panels(pdf: bytes) -> dict[str, list[str]]:
    """Every text run of an envelope sheet, sorted into the panel it falls in."""
    found: dict[str, list[str]] = {"outside": [], "inside": [], "flap": [], "page": []}
    slots = card_slots("a4")
    for runs in placed_text(pdf):
        for x, y, text in runs:
            panel = "page"
            for sx, sy in slots:
                if sx <= x <= sx + CARD[0] and sy <= y <= sy + CARD[1]:
                    panel = ("outside", "inside", "flap")[min(2, int((y - sy) // PANEL))]
            found[panel].append(text)
    return found


def test_an_envelopes_outside_says_who_may_open_it_and_never_its_contents() -> None:
    pdf = render_handouts(example_table(PERCEPTION), "referee")["perception-envelopes.pdf"]
    panels = _panels(pdf)
    outside = " ".join(" ".join(panels["outside"]).split())
    inside = " ".join(" ".join(panels["inside"]).split())
    assert "Give to ALL with a Roll of 16 or more" in outside
    assert "carried by The Countess (40)" in outside
    for secret in ["pearls", "paste", "cook", "Vienna", "startled"]:
        assert secret not in outside
        assert secret in inside
    assert not panels["page"] or all("Intrigue" in t or "cut" in t for t in panels["page"])


def test_a_contingency_envelope_says_when_to_open_it_outside() -> None:
    pdf = render_handouts(example_table(CONTINGENCY), "referee")["contingency-envelopes.pdf"]
    panels = _panels(pdf)
    outside = " ".join(" ".join(panels["outside"]).split())
    inside = " ".join(" ".join(panels["inside"]).split())
    for label in ["Open at 21:00", "Open if shot", "Open if you see character 53"]:
        assert label in outside
    assert "The Baron is your son." in inside
    assert "son" not in outside and "locket" not in outside and "ring" not in outside
    assert len(pages_text(pdf)) == 1  # four envelopes to a page


def test_several_envelopes_to_a_page_with_a_cutting_guide() -> None:
    setup = {
        "characters": {
            "a": {
                "name": "A",
                "number": 10,
                "perception_envelopes": [
                    {"id": f"e{i}", "to": "ALL", "target": 10 + i, "contents": f"Secret {i}"}
                    for i in range(9)
                ],
            }
        }
    }
    pdf = render_handouts(system("intrigue").new_table(setup), "referee", "letter")
    pages = pages_text(pdf["perception-envelopes.pdf"])
    assert len(pages) == 3 and len(card_slots("letter")) == 4
    assert "cut along the corner marks" in pages[0]
    assert "Give to ALL with a Roll of 18 or more" in " ".join(pages[2].split())


@pytest.mark.slow
def test_a_players_handouts_hold_no_other_seats_secret() -> None:
    table = example_table(PERCEPTION)
    referee = render_handouts(table, "referee")
    assert "Her pearls are paste." in all_text(referee["perception-envelopes.pdf"])
    secrets = [
        "Her pearls are paste.",
        "You recognise her",
        "Look startled",
        "Give to ALL",  # a label is the holder's, but the player prints no envelope at all
    ]
    for seat in [s.id for s in table.seats if not s.is_referee]:
        files = render_handouts(table, seat)
        assert sorted(files) == ["badges.pdf", "character-sheets.pdf"]
        text = " ".join(all_text(pdf) for pdf in files.values())
        for secret in secrets:
            assert secret not in text, (seat, secret)
    fifteen = " ".join(all_text(pdf) for pdf in render_handouts(table, "fifteen").values())
    assert "Mr Fifteen" in fifteen and "The Countess" not in fifteen
    # Another character's skills are the referee's and theirs: Dr Twenty's sheet is not here.
    assert "Dr Twenty" not in fifteen


def test_a_special_ability_prints_on_its_own_sheet_only() -> None:
    table = example_table("intrigue/lady-rich.yaml")
    own = all_text(render_handouts(table, "krockin")["character-sheets.pdf"])
    other = all_text(render_handouts(table, "lady_rich")["character-sheets.pdf"])
    assert "Read Mind" in own and "Read Mind" not in other


def test_an_unknown_paper_is_refused() -> None:
    with pytest.raises(ValueError, match="paper 'a5'"):
        render_handouts(example_table(PERCEPTION), "referee", "a5")
