"""Gin Lane: a character sheet per character — the skill pyramid, Aspects, stress tracks and
consequences (Gin Lane, "The Skill Pyramid", "Stress Tracks", "Consequences").

The pyramid is printed as the text builds it: one slot at the top level and one more at each
level below. Skills the seat may see fill their slots; the rest are left to write in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.handouts.common import own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["CONSEQUENCES", "character_sheets", "render"]

RULES = "Gin Lane"

#: Gin Lane, "Consequences": severity, stress mitigated, how long it lasts.
CONSEQUENCES = (
    ("Slight", 2, "a day"),
    ("Moderate", 4, "a week"),
    ("Heavy", 6, "a month"),
    ("Extreme", 8, "permanent: replaces a character Aspect"),
)
TOP = 4


def _pyramid(doc: Document, y: float, skills: Mapping[str, int]) -> float:
    """The skill pyramid, +TOP down to +1, one more slot per level; returns the y below."""
    width = doc.width - 2 * MARGIN - 14
    by_level: dict[int, list[str]] = {}
    for name, level in sorted(skills.items(), key=lambda s: (-int(s[1]), s[0])):
        by_level.setdefault(int(level), []).append(name)
    for row, level in enumerate(range(TOP, 0, -1)):
        slots = max(row + 1, len(by_level.get(level, [])))
        slot_w = min(38.0, (width - (slots - 1) * 2) / slots)
        x0 = MARGIN + 14 + (width - (slots * slot_w + (slots - 1) * 2)) / 2
        doc.text_at(MARGIN, y + 5.5, f"+{level}", 11, "B")
        names = by_level.get(level, [])
        for i in range(slots):
            x = x0 + i * (slot_w + 2)
            doc.set_line_width(0.3)
            doc.rect(x, y, slot_w, 8)
            if i < len(names):
                doc.fitted(x + slot_w / 2, y + 5.5, slot_w - 2, names[i], 9, "")
        y += 10
    return y


def _track(doc: Document, x: float, y: float, name: str, length: int, ticked: list[Any]) -> None:
    doc.text_at(x, y + 4.5, name, 10, "B")
    marked = {int(b) for b in ticked if isinstance(b, int | float | str) and str(b).isdigit()}
    for i in range(length):
        bx = x + 30 + i * 9
        doc.set_line_width(0.3)
        doc.set_fill_color(150)
        doc.rect(bx, y, 7, 7, style="DF" if (i + 1) in marked else "D")
        doc.centred_at(bx + 3.5, y + 10.5, str(i + 1), 6.5)


def character_sheets(
    observation: Mapping[str, Any], paper: str, *, also_blank: bool = False
) -> bytes:
    """One page per character this seat plays (the referee: every character)."""
    state: Mapping[str, Any] = observation["state"]
    chars: Mapping[str, Mapping[str, Any]] = state.get("characters", {})
    doc = Document(paper, title="Gin Lane character sheets")
    ids = own_ids(observation, chars)
    pages: list[tuple[str, Mapping[str, Any]]] = [(i, chars[i]) for i in ids]
    if also_blank or not pages:
        pages.append(("", {}))
    right = doc.width - MARGIN
    for cid, char in pages:
        doc.add_page()
        doc.footer_note(f"{RULES} · Character Sheet")
        doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · CHARACTER SHEET", 7, "B")
        name = str(char.get("name") or (title_of(cid) if cid else ""))
        doc.text_at(MARGIN, MARGIN + 15, name or "Name:", 22 if name else 12, "B")
        if char.get("side"):
            doc.right_at(right, MARGIN + 15, f"Side: {char['side']}", 9)
        y = MARGIN + 24
        doc.heading(MARGIN, y + 4, "Aspects", 12)
        y += 9
        aspects = [
            str(a.get("name", a)) if isinstance(a, Mapping) else str(a)
            for a in char.get("aspects", [])
        ]
        for i in range(max(3, len(aspects))):
            doc.field(
                MARGIN, y, right - MARGIN, f"Aspect {i + 1}", aspects[i] if i < len(aspects) else ""
            )
            y += 9
        y += 3
        doc.heading(MARGIN, y + 4, "Skills — the Skill Pyramid", 12)
        y += 9
        y = _pyramid(doc, y, dict(char.get("skills", {})))
        doc.text_at(
            MARGIN,
            y + 1,
            "You must have more lower level skills than higher level "
            "skills. No relevant skill: roll at -2.",
            7,
            "I",
        )
        y += 6
        doc.heading(MARGIN, y + 4, "Stress Tracks", 12)
        y += 9
        lengths: Mapping[str, int] = char.get("track_lengths") or {
            "Health": 5,
            "Composure": 5,
            "Wealth": 5,
        }
        tracks: Mapping[str, list[Any]] = char.get("tracks", {})
        for track, length in lengths.items():
            _track(doc, MARGIN, y, track, int(length), list(tracks.get(track, [])))
            y += 14
        doc.text_at(
            MARGIN,
            y,
            "Hit for N stress? Tick off the Nth box; if it is used, the "
            "damage rolls up to the next free box.",
            7,
            "I",
        )
        y += 5
        doc.heading(MARGIN, y + 4, "Consequences", 12)
        y += 9
        taken: Mapping[str, Any] = char.get("consequences", {})
        rows = []
        for severity, mitigates, lasts in CONSEQUENCES:
            value = taken.get(severity) or taken.get(severity.lower()) or ""
            text = str(value.get("aspect", value)) if isinstance(value, Mapping) else str(value)
            rows.append([severity, str(mitigates), lasts, text])
        doc.grid(
            MARGIN,
            y,
            [26, 20, 54, right - MARGIN - 100],
            ["Consequence", "Mitigates", "Lasts", "Aspect taken"],
            rows,
            8,
        )
    return doc.to_bytes()


def render(observation: Mapping[str, Any], paper: str) -> dict[str, bytes]:
    """The seat's sheets (the referee's include a blank sheet)."""
    from referee.handouts.common import is_referee

    return {
        "character-sheets.pdf": character_sheets(
            observation, paper, also_blank=is_referee(observation)
        )
    }
