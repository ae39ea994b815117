"""Gin Lane: a character sheet per character — the skill pyramid, Aspects, stress tracks and
consequences (Gin Lane, "The Skill Pyramid", "Stress Tracks", "Consequences").

The pyramid is printed as the text builds it: one slot at the top level and one more at each
level below. Skills the seat may see fill their slots; the rest are left to write in. The
consequences, the stress tracks and their boxes, and "No Relevant Skill" are the game's own
(``handout_data``), never copied here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.registry import System, system
from referee.handouts.common import is_referee, own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["character_sheets", "render"]

RULES = "Gin Lane"
#: The system this layout is for (:func:`character_sheets` reads its tables when not given them).
SYSTEM = "ginlane"
#: The pyramid's printed levels: +TOP down to +1, slots to write in above what a sheet holds.
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


def _aspects(doc: Document, y: float, char: Mapping[str, Any]) -> float:
    """The character's Aspects — their own, those given at creation (free-taggable, marked
    so) and their possessions held as Aspects — and lines for three at least."""
    doc.heading(MARGIN, y + 4, "Aspects", 12)
    y += 9

    def names(key: str) -> list[str]:
        return [
            str(a.get("name", a)) if isinstance(a, Mapping) else str(a) for a in char.get(key, [])
        ]

    aspects = [
        *names("aspects"),
        *(f"{a} (free)" for a in names("free_aspects")),
        *(f"{a} (possession)" for a in names("possessions")),
    ]
    for i in range(max(3, len(aspects))):
        written = aspects[i] if i < len(aspects) else ""
        doc.field(MARGIN, y, doc.width - 2 * MARGIN, f"Aspect {i + 1}", written)
        y += 9
    return y


def _stress_tracks(
    doc: Document, y: float, char: Mapping[str, Any], tables: Mapping[str, Any]
) -> float:
    """Each stress track, its boxes numbered and the ticked ones shaded."""
    doc.heading(MARGIN, y + 4, "Stress Tracks", 12)
    y += 9
    lengths: Mapping[str, int] = char.get("track_lengths") or tables["stress_tracks"]
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
    return y + 5


def _consequences(
    doc: Document, y: float, char: Mapping[str, Any], tables: Mapping[str, Any]
) -> None:
    """The consequences, what each mitigates and lasts, and the Aspect taken in each."""
    doc.heading(MARGIN, y + 4, "Consequences", 12)
    y += 9
    taken: Mapping[str, Any] = char.get("consequences", {})
    rows = []
    for row in tables["consequences"]:
        severity = str(row["severity"]).title()
        value = taken.get(severity) or taken.get(severity.lower()) or ""
        text = str(value.get("aspect", value)) if isinstance(value, Mapping) else str(value)
        rows.append([severity, str(row["mitigates"]), str(row["lasts"]), text])
    doc.grid(
        MARGIN,
        y,
        [26, 20, 54, doc.width - 2 * MARGIN - 100],
        ["Consequence", "Mitigates", "Lasts", "Aspect taken"],
        rows,
        8,
    )


def _sheet(doc: Document, cid: str, char: Mapping[str, Any], tables: Mapping[str, Any]) -> None:
    """One character's page (a blank one when ``cid`` is empty)."""
    doc.add_page()
    doc.footer_note(f"{RULES} · Character Sheet")
    doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · CHARACTER SHEET", 7, "B")
    name = str(char.get("name") or (title_of(cid) if cid else ""))
    doc.text_at(MARGIN, MARGIN + 15, name or "Name:", 22 if name else 12, "B")
    if char.get("side"):
        doc.right_at(doc.width - MARGIN, MARGIN + 15, f"Side: {char['side']}", 9)
    y = _aspects(doc, MARGIN + 24, char) + 3
    doc.heading(MARGIN, y + 4, "Skills — the Skill Pyramid", 12)
    y += 9
    y = _pyramid(doc, y, dict(char.get("skills", {})))
    doc.text_at(
        MARGIN,
        y + 1,
        "You must have more lower level skills than higher level "
        f"skills. No relevant skill: roll at {tables['no_relevant_skill']}.",
        7,
        "I",
    )
    y = _stress_tracks(doc, y + 6, char, tables)
    _consequences(doc, y, char, tables)


def character_sheets(
    observation: Mapping[str, Any],
    paper: str,
    *,
    also_blank: bool = False,
    tables: Mapping[str, Any] | None = None,
) -> bytes:
    """One page per character this seat plays (the referee: every character); ``tables`` the
    game's handout data (read from the registry when not given)."""
    if tables is None:
        tables = system(SYSTEM).load_handout_data()
    chars: Mapping[str, Mapping[str, Any]] = observation["state"].get("characters", {})
    doc = Document(paper, title="Gin Lane character sheets")
    pages: list[tuple[str, Mapping[str, Any]]] = [
        (i, chars[i]) for i in own_ids(observation, chars)
    ]
    if also_blank or not pages:
        pages.append(("", {}))
    for cid, char in pages:
        _sheet(doc, cid, char, tables)
    return doc.to_bytes()


def render(observation: Mapping[str, Any], game: System, paper: str) -> dict[str, bytes]:
    """The seat's sheets (the referee's include a blank sheet)."""
    sheets = character_sheets(
        observation, paper, also_blank=is_referee(observation), tables=game.load_handout_data()
    )
    return {"character-sheets.pdf": sheets}
