"""Intrigue in the Clouds: character badges, perception and contingency envelopes, sheets.

Each is drawn from the state one seat observes (``observe(table, seat).to_json()["state"]``):
the referee's handouts hold every envelope's contents; a player's hold only their own
characters' badges and sheets.

- **Badges** ("Character Badges"): the name the character goes by, and the Character Number,
  "a two digit number ... in the top right hand corner of the badge".
- **Envelopes** ("Perception Envelopes", "Contingency Envelopes"): folded cards of three panels
  one above the other — the *outside* (who may open it and at what roll, or when to open it,
  in the envelope's own label), the *inside* (contents and directions), and a *flap* folded
  over the inside before the card is folded behind its outside. The outside never holds the
  contents. Cards sit several to a page within crop marks (the cutting guide); the folds are
  dashed.
- **Character sheets** ("Skills", "Languages", "Other Skills and Special Abilities",
  "Stamina Stat"): one page per character. The dice of a skill roll and the skill every
  character has (Perception) are the game's own (``handout_data``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.events import REFEREE
from referee.core.registry import System
from referee.handouts.pdf import MARGIN, Document

__all__ = [
    "BADGE",
    "CARD",
    "PANEL",
    "badges",
    "card_slots",
    "character_sheets",
    "contingency_envelopes",
    "perception_envelopes",
    "render",
]

#: A badge's size (mm): a standard badge holder's card.
BADGE = (86.0, 54.0)
#: An envelope card's size (mm): three panels (outside, inside, flap) one above the other.
CARD = (86.0, 120.0)
#: The height of one panel of an envelope card (mm).
PANEL = CARD[1] / 3
GAP = 8.0

RULES = "Intrigue in the Clouds"


def _slots(doc: Document, size: tuple[float, float]) -> list[tuple[float, float]]:
    """Top-left corners of the cards of ``size`` that fit a page, centred, rows first."""
    w, h = size
    cols = max(1, int((doc.width - 2 * MARGIN + GAP) // (w + GAP)))
    rows = max(1, int((doc.height - 2 * MARGIN - 6 + GAP) // (h + GAP)))
    x0 = (doc.width - (cols * w + (cols - 1) * GAP)) / 2
    y0 = (doc.height - (rows * h + (rows - 1) * GAP)) / 2
    return [(x0 + c * (w + GAP), y0 + r * (h + GAP)) for r in range(rows) for c in range(cols)]


def card_slots(paper: str) -> list[tuple[float, float]]:
    """Top-left corners (mm from the page's top left) of the envelope cards on one page.

    >>> len(card_slots("a4")), len(card_slots("letter"))
    (4, 4)
    """
    return _slots(Document(paper), CARD)


def _number(value: Any) -> str:
    """A Character Number as printed: two digits."""
    text = str(value)
    return text.zfill(2) if text.isdigit() else text


def _wrap(doc: Document, text: str, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` at the current font (greedy, by
    words; a word wider than the line stands alone)."""
    space = doc.get_string_width(" ")
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line: list[str] = []
        used = 0.0
        for word in paragraph.split():
            w = doc.get_string_width(word)
            if line and used + space + w > width:
                lines.append(" ".join(line))
                line, used = [word], w
            else:
                used += (space if line else 0.0) + w
                line.append(word)
        lines.append(" ".join(line))
    return lines


def _fit_block(
    doc: Document, x: float, y: float, w: float, h: float, text: str, size: float, style: str = ""
) -> float:
    """``text`` wrapped and centred in the box, its size shrunk until it fits; returns the y
    below it."""
    while True:
        doc.font(size, style)
        lines = _wrap(doc, text, w)
        if len(lines) * size * 0.42 <= h or size <= 5:
            break
        size -= 0.5
    step = size * 0.42
    for i, line in enumerate(lines):
        doc.text(x + (w - doc.get_string_width(line)) / 2, y + (i + 0.78) * step, line)
    return y + len(lines) * step


def _characters(state: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    chars: dict[str, Mapping[str, Any]] = state.get("characters", {})
    return chars


def badges(state: Mapping[str, Any], paper: str, *, only: set[str] | None = None) -> bytes:
    """Character badges (name; two-digit Character Number in the top right corner)."""
    doc = Document(paper, title="Character Badges")
    chars = [(cid, c) for cid, c in _characters(state).items() if only is None or cid in only]
    slots = _slots(doc, BADGE)
    w, h = BADGE
    for i, (_cid, char) in enumerate(chars):
        if i % len(slots) == 0:
            doc.add_page()
            doc.footer_note(f"{RULES} · Character Badges · cut along the corner marks")
        x, y = slots[i % len(slots)]
        doc.cut_guide(x, y, w, h)
        doc.set_line_width(0.6)
        doc.rect(x + 2, y + 2, w - 4, h - 4)
        # The number: top right corner, in a box.
        doc.set_fill_color(20)
        doc.rect(x + w - 24, y + 4, 20, 15, style="F")
        doc.set_text_color(255)
        doc.centred_at(x + w - 14, y + 15.5, _number(char.get("number", "")), 22, "B")
        doc.set_text_color(0)
        doc.text_at(x + 6, y + 9, RULES.upper(), 6.5, "B")
        doc.fitted(x + w / 2, y + 34, w - 12, str(char.get("name", "")), 20, "B")
        doc.set_text_color(90)
        doc.centred_at(x + w / 2, y + h - 8, "Wear this badge while you are in game", 6.5)
        doc.set_text_color(0)
    if not chars:
        doc.add_page()
        doc.text_at(MARGIN, 30, "No characters to badge.", 11)
    return doc.to_bytes()


def _envelope_card(
    doc: Document,
    x: float,
    y: float,
    kind: str,
    outside: Sequence[tuple[str, float, str]],
    inside: Sequence[tuple[str, float, str]],
    note: str,
) -> None:
    """One folded card: outside panel (``outside`` lines), inside panel, flap."""
    w, _h = CARD
    doc.cut_guide(x, y, w, CARD[1])
    doc.set_line_width(0.3)
    doc.rect(x, y, w, CARD[1])
    doc.dashed(x, y + PANEL, x + w, y + PANEL)
    doc.dashed(x, y + 2 * PANEL, x + w, y + 2 * PANEL)
    # Outside.
    doc.set_fill_color(235)
    doc.rect(x, y, w, 8, style="F")
    doc.centred_at(x + w / 2, y + 5.6, kind.upper(), 8, "B")
    top = y + 11
    for text, size, style in outside:
        top = _fit_block(doc, x + 5, top, w - 10, y + PANEL - 3 - top, text, size, style) + 1.5
    # Inside.
    top = y + PANEL + 3
    doc.set_text_color(90)
    doc.centred_at(x + w / 2, top + 2.5, "INSIDE", 6, "B")
    doc.set_text_color(0)
    top += 5
    for text, size, style in inside:
        room = y + 2 * PANEL - 6 - top
        top = _fit_block(doc, x + 5, top, w - 10, room, text, size, style) + 1.5
    doc.set_text_color(90)
    doc.centred_at(x + w / 2, y + 2 * PANEL - 2.5, note, 5.5, "I")
    # Flap.
    doc.centred_at(
        x + w / 2, y + 2 * PANEL + PANEL / 2, "flap: fold up over the inside first", 6.5, "I"
    )
    doc.centred_at(
        x + w / 2,
        y + 2 * PANEL + PANEL / 2 + 4,
        "then fold both behind the outside, and seal",
        6.5,
        "I",
    )
    doc.set_text_color(0)


def _holder(state: Mapping[str, Any], envelope: Mapping[str, Any]) -> str:
    char = _characters(state).get(str(envelope.get("holder", "")), {})
    name = char.get("name", envelope.get("holder", ""))
    return f"carried by {name} ({_number(char.get('number', '?'))})"


def _envelopes_pdf(
    state: Mapping[str, Any], paper: str, key: str, kind: str, title: str, note: str
) -> bytes:
    doc = Document(paper, title=title)
    envelopes: Mapping[str, Mapping[str, Any]] = state.get(key, {})
    slots = _slots(doc, CARD)
    for i, (_eid, env) in enumerate(envelopes.items()):
        if i % len(slots) == 0:
            doc.add_page()
            doc.footer_note(
                f"{RULES} · {title} · cut along the corner marks, fold on the dashed lines"
            )
        x, y = slots[i % len(slots)]
        inside: list[tuple[str, float, str]] = [(str(env.get("contents", "")), 11, "")]
        if env.get("directions"):
            inside.append((f"Directions: {env['directions']}", 9.5, "I"))
        outside: list[tuple[str, float, str]] = [
            (str(env.get("label", "")), 13, "B"),
            (_holder(state, env), 8, ""),
        ]
        _envelope_card(doc, x, y, kind, outside, inside, note)
    if not envelopes:
        doc.add_page()
        doc.text_at(MARGIN, 30, f"No {title.lower()} at this table.", 11)
    return doc.to_bytes()


def perception_envelopes(state: Mapping[str, Any], paper: str) -> bytes:
    """Every Perception Envelope as a folded card (the referee's state holds the contents)."""
    return _envelopes_pdf(
        state,
        paper,
        "perception_envelopes",
        "Perception Envelope",
        "Perception Envelopes",
        "Read the contents, then return them and give the envelope back.",
    )


def contingency_envelopes(state: Mapping[str, Any], paper: str) -> bytes:
    """Every Contingency Envelope as a folded card whose outside says when to open it."""
    return _envelopes_pdf(
        state,
        paper,
        "contingency_envelopes",
        "Contingency Envelope",
        "Contingency Envelopes",
        "Open only when the condition on the front is met.",
    )


def _stats(doc: Document, char: Mapping[str, Any]) -> float:
    """The Character Number, name, Stats, Stamina and Wounds; returns the y below."""
    right = doc.width - MARGIN
    doc.set_fill_color(20)
    doc.rect(right - 26, MARGIN, 26, 18, style="F")
    doc.set_text_color(255)
    doc.centred_at(right - 13, MARGIN + 13, _number(char.get("number", "")), 24, "B")
    doc.set_text_color(0)
    doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · CHARACTER SHEET", 7, "B")
    doc.text_at(MARGIN, MARGIN + 15, str(char.get("name", "")), 22, "B")
    stats = [
        ("Combat", char.get("combat")),
        ("Strength", char.get("strength")),
        ("Stamina Stat", char.get("stamina_stat")),
        ("Mind", char.get("mind")),
    ]
    y = (
        doc.grid(
            MARGIN,
            MARGIN + 28,
            [45, 20] * 2,
            ["Stat", "Value"] * 2,
            [
                [stats[0][0], str(stats[0][1]), stats[1][0], str(stats[1][1])],
                [stats[2][0], str(stats[2][1]), stats[3][0], str(stats[3][1])],
            ],
        )
        + 8
    )
    doc.text_at(MARGIN, y, "Stamina", 11, "B")
    doc.text_at(MARGIN + 30, y, f"{char.get('stamina')} of {char.get('stamina_stat')}", 10)
    y += 6
    doc.text_at(MARGIN, y + 3.5, "Wounds", 11, "B")
    doc.boxes(MARGIN + 30, y, int(char.get("wounds", 0)), 5, int(char.get("wounds_marked", 0)))
    doc.text_at(
        MARGIN + 30,
        y + 10,
        "Mark off one Wound per point of damage over "
        "the Stamina Stat; when all are marked, the character is dead.",
        7,
        "I",
    )
    return y + 20


def _listed(doc: Document, y: float, title: str, items: Sequence[Any]) -> float:
    """A titled list, one bullet an item (a dash when there is none); returns the y below."""
    doc.text_at(MARGIN, y, title, 11, "B")
    y += 2
    for item in items or ["—"]:
        y += 5.5
        doc.text_at(MARGIN + 4, y, f"• {item}", 10)
    return y


def _sheet(doc: Document, char: Mapping[str, Any], tables: Mapping[str, Any]) -> None:
    """One character's page: Stats, skills, languages, abilities, items and lines for notes."""
    doc.add_page()
    doc.footer_note(f"{RULES} · Character Sheet")
    y = _stats(doc, char)
    skills = dict(char.get("skills", {}))
    skills.setdefault(str(tables["perception"]), 0)
    rows = [[name, str(value)] for name, value in sorted(skills.items())]
    doc.text_at(MARGIN, y, "Skills", 11, "B")
    y = doc.grid(MARGIN, y + 3, [60, 25], ["Skill", "Value"], rows) + 3
    doc.text_at(
        MARGIN,
        y + 3,
        f"Roll {tables['dice']} and add the skill value: equal to or greater "
        "than the Target Number succeeds.",
        7,
        "I",
    )
    y += 12
    doc.text_at(MARGIN, y, "Languages", 11, "B")
    doc.text_at(MARGIN + 30, y, ", ".join(char.get("languages", [])) or "—", 10)
    y = _listed(doc, y + 9, "Special Abilities", list(char.get("abilities", []))) + 9
    y = _listed(doc, y, "Items", list(char.get("items", []))) + 10
    doc.text_at(MARGIN, y, "Notes", 11, "B")
    doc.set_line_width(0.15)
    line = y + 8
    while line < doc.height - 14:
        doc.line(MARGIN, line, doc.width - MARGIN, line)
        line += 8


def character_sheets(
    state: Mapping[str, Any],
    paper: str,
    *,
    only: set[str] | None,
    tables: Mapping[str, Any],
) -> bytes:
    """A character sheet per character whose full sheet the seat may see."""
    doc = Document(paper, title="Character Sheets")
    chars = [
        c
        for cid, c in _characters(state).items()
        if "stamina_stat" in c and (only is None or cid in only)
    ]
    for char in chars:
        _sheet(doc, char, tables)
    if not chars:
        doc.add_page()
        doc.text_at(MARGIN, 30, "No character sheets for this seat.", 11)
    return doc.to_bytes()


def render(observation: Mapping[str, Any], game: System, paper: str) -> dict[str, bytes]:
    """The seat's handouts: the referee gets everything, a player their badges and sheets."""
    state: Mapping[str, Any] = observation["state"]
    tables = game.load_handout_data()
    if observation["viewer"] == REFEREE:
        return {
            "badges.pdf": badges(state, paper),
            "perception-envelopes.pdf": perception_envelopes(state, paper),
            "contingency-envelopes.pdf": contingency_envelopes(state, paper),
            "character-sheets.pdf": character_sheets(state, paper, only=None, tables=tables),
        }
    own = {cid for cid, c in _characters(state).items() if "stamina_stat" in c}
    return {
        "badges.pdf": badges(state, paper, only=own),
        "character-sheets.pdf": character_sheets(state, paper, only=own, tables=tables),
    }
