"""The handouts of a game with no layout of its own: its sheets as ``observe`` shows them, and a
card of the actions its catalogue offers. A sixth game prints these with no change here.

- **Sheets** (``sheets.pdf``): every collection of the state that holds sheets by id (its
  characters, factions, duellists …: a mapping of ids to mappings) gives a page per entry this
  seat plays (the referee's seat: every entry), each field as the observation words it.
- **Actions** (``actions.pdf``): each action kind the seat may take — a player's card leaves out
  the referee's — with the section of the rules it implements, its summary and its parameters
  (the values a parameter takes, when the catalogue lists them).

>>> _words({"fate": 1, "deeds": 0}), _words(["sabre", "dagger"]), _words(None)
('fate 1 · deeds 0', 'sabre, dagger', '—')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.registry import System
from referee.handouts.common import is_referee, own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["action_card", "render", "sheet_collections", "sheets"]

#: The ``who`` of an action kind only the referee's seat takes (``referee.core.actions.Who``).
REFEREE_ONLY = "referee"


def _words(value: Any) -> str:
    """A field's value in words: a mapping as ``key value`` pairs, a list joined by commas, a
    flag as yes or no."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return " · ".join(f"{key} {_words(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_words(item) for item in value)
    return str(value)


def sheet_collections(state: Mapping[str, Any]) -> dict[str, Mapping[str, Mapping[str, Any]]]:
    """The collections of the state that hold sheets by id: name → id → sheet.

    >>> sorted(sheet_collections({"duellists": {"ann": {"wounds": 0}}, "turn": "ann"}))
    ['duellists']
    """
    return {
        name: value
        for name, value in state.items()
        if isinstance(value, Mapping)
        and value
        and all(isinstance(sheet, Mapping) for sheet in value.values())
    }


class _Pages:
    """Lines down a page, a new page (with the footer) when the page is full."""

    def __init__(self, doc: Document, footer: str) -> None:
        self.doc = doc
        self.footer = footer
        self.y = 0.0

    def new_page(self) -> None:
        self.doc.add_page()
        self.doc.footer_note(self.footer)
        self.y = MARGIN

    def room(self, height: float) -> None:
        if self.y + height > self.doc.height - 14:
            self.new_page()


def sheets(observation: Mapping[str, Any], game: System, paper: str) -> bytes:
    """A page per sheet this seat plays, each field as the observation words it."""
    doc = Document(paper, title=f"{game.title} sheets")
    pages = _Pages(doc, f"{game.title} · Sheet")
    width = doc.width - 2 * MARGIN
    printed = 0
    for collection, entries in sheet_collections(observation["state"]).items():
        for sheet_id in own_ids(observation, entries):
            sheet = entries[sheet_id]
            pages.new_page()
            kind = title_of(collection).upper()
            doc.text_at(MARGIN, MARGIN + 5, f"{game.title.upper()} · {kind}", 7, "B")
            doc.text_at(MARGIN, MARGIN + 15, str(sheet.get("name") or title_of(sheet_id)), 22, "B")
            pages.y = MARGIN + 24
            for field, value in sheet.items():
                pages.room(12)
                doc.text_at(MARGIN, pages.y + 4, title_of(field), 9, "B")
                pages.y = doc.paragraph(MARGIN + 45, pages.y, width - 45, _words(value), 10) + 2
            printed += 1
    if not printed:
        pages.new_page()
        doc.text_at(MARGIN, 30, "No sheets for this seat.", 11)
    return doc.to_bytes()


def _parameters(schema: Mapping[str, Any]) -> str:
    """An action's parameters: each name, with the values it takes when the schema lists them."""
    out = []
    for name, field in dict(schema.get("properties", {})).items():
        values = field.get("enum") if isinstance(field, Mapping) else None
        out.append(f"{name} ({' | '.join(map(str, values))})" if values else str(name))
    return ", ".join(out) or "none"


def action_card(observation: Mapping[str, Any], game: System, paper: str) -> bytes:
    """The actions this seat may take, as the game's catalogue lists them."""
    doc = Document(paper, title=f"{game.title} actions")
    pages = _Pages(doc, f"{game.title} · Actions")
    pages.new_page()
    doc.heading(MARGIN, MARGIN + 6, f"{game.title}: actions")
    pages.y = MARGIN + 12
    width = doc.width - 2 * MARGIN
    referee = is_referee(observation)
    for spec in game.catalogue.to_json():
        if spec["who"] == REFEREE_ONLY and not referee:
            continue
        pages.room(18)
        doc.text_at(MARGIN, pages.y + 4, str(spec["kind"]), 11, "B")
        doc.right_at(doc.width - MARGIN, pages.y + 4, str(spec["section"]), 8, "I")
        pages.y += 6
        if spec["summary"]:
            pages.y = doc.paragraph(MARGIN, pages.y, width, str(spec["summary"]), 9)
        text = f"Parameters: {_parameters(spec['schema'])}"
        pages.y = doc.paragraph(MARGIN, pages.y, width, text, 8.5, "I") + 3
    return doc.to_bytes()


def render(observation: Mapping[str, Any], game: System, paper: str) -> dict[str, bytes]:
    """The seat's sheets and its card of actions."""
    return {
        "sheets.pdf": sheets(observation, game, paper),
        "actions.pdf": action_card(observation, game, paper),
    }
