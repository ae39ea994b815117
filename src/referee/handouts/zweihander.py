"""Zweihänder (with the house rules): character sheets with the tracks the house rules add
(Reputation points, Corruption, Order and Chaos ranks, madness: Disorders), a chase tracker
("Chase scene rules") and a journey log (Stretches, Roles, Toughness Tests).

The condition tracks, Corruption per rank towards Chaos, the Head Start, the Takedown table and
the travel Roles are the game's own (``handout_data``), never copied here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.registry import System
from referee.handouts.common import own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["character_sheets", "chase_tracker", "journey_log", "render"]

RULES = "Zweihänder"


def _condition_track(doc: Document, y: float, title: str, steps: Sequence[str], now: str) -> float:
    doc.text_at(MARGIN, y + 5, title, 10, "B")
    w = (doc.width - 2 * MARGIN - 40) / len(steps)
    for i, step in enumerate(steps):
        x = MARGIN + 40 + i * w
        doc.set_fill_color(200)
        doc.rect(x, y, w - 1, 8, style="DF" if step == now else "D")
        doc.fitted(x + (w - 1) / 2, y + 5.3, w - 3, step, 7, "B" if step == now else "")
    return y + 11


def _skills(doc: Document, y: float, char: Mapping[str, Any]) -> float:
    """Bonuses, Initiative, Peril Threshold, and the skills with base chance and ranks."""
    bonuses = " · ".join(f"[{k}] {v}" for k, v in dict(char.get("bonuses", {})).items())
    doc.text_at(MARGIN, y + 4, f"Bonuses: {bonuses or '—'}", 10)
    doc.text_at(MARGIN + 95, y + 4, f"Initiative {char.get('initiative', '')}", 10)
    doc.text_at(MARGIN + 135, y + 4, f"Peril Threshold {char.get('peril_threshold', '')}", 10)
    y += 10
    doc.heading(MARGIN, y + 4, "Skills", 12)
    skills = dict(char.get("skills", {}))
    rows = [
        [name, f"{value}%", str(dict(char.get("ranks", {})).get(name, ""))]
        for name, value in sorted(skills.items())
    ] or [["", "", ""]]
    return doc.grid(MARGIN, y + 8, [60, 25, 25], ["Skill", "Base %", "Ranks"], rows) + 5


def _points_and_ranks(
    doc: Document, y: float, char: Mapping[str, Any], tables: Mapping[str, Any]
) -> float:
    """Fate, Reputation and Reward Points; Corruption towards a rank of Chaos; the ranks."""
    for label, key, boxes in (
        ("Fate Points", "fate_points", 5),
        ("Reputation points", "reputation", 10),
        ("Reward Points", "reward_points", 10),
    ):
        value = int(char.get(key, 0) or 0)
        doc.text_at(MARGIN, y + 4, f"{label}: {value}", 10, "B")
        doc.boxes(MARGIN + 55, y, max(boxes, value), 5, value)
        y += 8
    per_rank = int(tables["corruption_per_chaos_rank"])
    corruption = int(char.get("corruption", 0) or 0)
    doc.text_at(MARGIN, y + 4, f"Corruption: {corruption}", 10, "B")
    doc.boxes(MARGIN + 55, y, per_rank, 5, min(corruption, per_rank))
    doc.text_at(MARGIN + 122, y + 4, f"each {per_rank}: 1 rank towards Chaos", 7, "I")
    y += 10
    order = int(char.get("order_ranks", 0) or 0)
    chaos = int(char.get("chaos_ranks", 0) or 0)
    doc.text_at(MARGIN, y + 4, f"Order ranks: {order}", 10, "B")
    doc.boxes(MARGIN + 55, y, 10, 5, order)
    y += 8
    doc.text_at(MARGIN, y + 4, f"Chaos ranks: {chaos}", 10, "B")
    doc.boxes(MARGIN + 55, y, 10, 5, chaos)
    return y + 10


def _sheet(doc: Document, cid: str, char: Mapping[str, Any], tables: Mapping[str, Any]) -> None:
    """One character's page."""
    right = doc.width - MARGIN
    doc.add_page()
    doc.footer_note(f"{RULES} · Character Sheet (house rules)")
    doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · CHARACTER SHEET", 7, "B")
    doc.text_at(MARGIN, MARGIN + 15, str(char.get("name") or title_of(cid)), 22, "B")
    if char.get("social_class"):
        doc.right_at(right, MARGIN + 15, f"Social Class: {char['social_class']}", 9)
    y = _skills(doc, MARGIN + 24, char)
    doc.heading(MARGIN, y + 4, "Conditions", 12)
    y += 9
    peril, damage = tables["peril_track"], tables["damage_track"]
    y = _condition_track(doc, y, "Peril", peril, str(char.get("peril_condition", "")))
    y = _condition_track(doc, y, "Damage", damage, str(char.get("damage_condition", "")))
    y += 4
    doc.heading(MARGIN, y + 4, "Fate, Reputation, Corruption", 12)
    y = _points_and_ranks(doc, y + 9, char, tables)
    doc.heading(MARGIN, y + 4, "Madness — Disorders", 12)
    y += 9
    disorders = [str(d) for d in char.get("disorders", [])]
    for i in range(max(3, len(disorders))):
        written = disorders[i] if i < len(disorders) else ""
        doc.field(MARGIN, y, right - MARGIN, f"Disorder {i + 1}", written)
        y += 9


def character_sheets(
    observation: Mapping[str, Any], paper: str, *, tables: Mapping[str, Any]
) -> bytes:
    """One page per character this seat plays (the referee: every character)."""
    chars: Mapping[str, Mapping[str, Any]] = observation["state"].get("characters", {})
    doc = Document(paper, title="Zweihänder character sheets")
    ids = own_ids(observation, chars)
    for cid in ids:
        _sheet(doc, cid, chars[cid], tables)
    if not ids:
        doc.add_page()
        doc.text_at(MARGIN, 30, "No character sheets for this seat.", 11)
    return doc.to_bytes()


def _takedown(doc: Document, y: float, rows: Sequence[Mapping[str, Any]]) -> float:
    """The Takedown Coordination Test difficulties, each with where the Escapee is caught."""
    doc.heading(MARGIN, y + 4, "Capture (Coordination Test)", 11)
    y += 8
    widths = [30, 20, doc.width - 2 * MARGIN - 50]
    cells = [
        [
            str(row["difficulty"]),
            f"{int(row['modifier']):+d}%",
            str(row["condition"]).removeprefix("Capture an Escapee "),
        ]
        for row in rows
    ]
    return doc.grid(MARGIN, y, widths, ["Difficulty", "Modifier", "Capture an Escapee …"], cells)


def chase_tracker(
    observation: Mapping[str, Any], paper: str, *, tables: Mapping[str, Any]
) -> bytes:
    """The chase tracker: Escapees above Pursuers, Escape and Pursuit Value round by round."""
    state = observation["state"]
    doc = Document(paper, title="Zweihänder chase tracker")
    doc.add_page()
    doc.footer_note(f"{RULES} · Chase scene rules")
    doc.heading(MARGIN, MARGIN + 6, "Chase Tracker")
    y = MARGIN + 13
    y = (
        doc.paragraph(
            MARGIN,
            y,
            doc.width - 2 * MARGIN,
            "Each Round, in order of Initiative, every participant rolls 1D10 + "
            "Movement and adds it to their Escape or Pursuit Value. Escapees stand "
            f"on the Initiative Ladder above the Pursuers. Head Start: "
            f"{int(tables['head_start']):+d} on the first round.",
            8.5,
            "I",
        )
        + 3
    )
    chase = state.get("chase") or {}
    people = [p for p in chase.get("participants", []) if isinstance(p, Mapping)]
    people.sort(key=lambda p: 0 if p.get("side") == "escapee" else 1)
    named = [(title_of(str(p.get("id", ""))), str(p.get("side", "")).title()) for p in people]
    rounds = 10
    first = 58.0
    col = (doc.width - 2 * MARGIN - first - 20) / rounds
    header = ["Participant", "Side", *[f"R{i + 1}" for i in range(rounds)]]
    rows = [[n, side, *[""] * rounds] for n, side in named]
    rows += [["", "", *[""] * rounds]] * max(2, 12 - len(named))
    y = doc.grid(MARGIN, y, [first, 20, *[col] * rounds], header, rows, 9) + 6
    doc.heading(MARGIN, y + 4, "Escape Conditions", 11)
    y += 12
    for _ in range(3):
        doc.line(MARGIN, y, doc.width - MARGIN, y)
        y += 8
    _takedown(doc, y, tables["takedown"])
    return doc.to_bytes()


def journey_log(observation: Mapping[str, Any], paper: str, *, tables: Mapping[str, Any]) -> bytes:
    """The journey log: each Stretch, its length, Terrain, Threat Level, Roles and tests."""
    state = observation["state"]
    journey = state.get("journey") or {}
    roles = [(str(r["role"]), str(r["skill"])) for r in tables["roles"]]
    doc = Document(paper, title="Zweihänder journey log")
    doc.add_page()
    doc.footer_note(f"{RULES} · Journeys")
    doc.heading(MARGIN, MARGIN + 6, "Journey Log")
    y = MARGIN + 13
    travellers = ", ".join(title_of(str(t)) for t in journey.get("travellers", []))
    doc.field(MARGIN, y, doc.width - 2 * MARGIN, "Travellers", travellers)
    y += 11
    doc.text_at(
        MARGIN,
        y + 3,
        "Roles: "
        + " · ".join(f"{role} ({skill})" for role, skill in roles)
        + " — each character takes a Role or assists",
        8,
        "I",
    )
    y += 7
    columns = 6 + len(roles)
    rows = [
        [
            str(s.get("name", "")),
            str(s.get("length", "")),
            f"{s.get('terrain', '')}",
            str(s.get("threat", "")),
            str(s.get("days", "")),
            *[""] * (len(roles) + 1),
        ]
        for s in journey.get("stretches", [])
    ]
    rows += [[""] * columns] * max(3, 10 - len(rows))
    w = doc.width - 2 * MARGIN
    widths = [w * f for f in (0.22, 0.09, 0.09, 0.08, 0.07)]
    widths += [w * 0.34 / len(roles)] * len(roles) + [w * 0.11]
    header = ["Stretch", "Length", "Terrain", "Threat", "Days", *(r for r, _ in roles)]
    y = doc.grid(MARGIN, y, widths, [*header, "Toughness"], rows, 9) + 6
    doc.heading(MARGIN, y + 4, "Provisions and encounters", 11)
    y += 10
    doc.grid(
        MARGIN,
        y,
        [w / 4] * 4,
        ["Day", "Provisions", "Encounter", "Notes"],
        [["", "", "", ""]] * 8,
        8,
    )
    return doc.to_bytes()


def render(observation: Mapping[str, Any], game: System, paper: str) -> dict[str, bytes]:
    """The seat's sheets, and the table's chase tracker and journey log."""
    tables = game.load_handout_data()
    return {
        "character-sheets.pdf": character_sheets(observation, paper, tables=tables),
        "chase-tracker.pdf": chase_tracker(observation, paper, tables=tables),
        "journey-log.pdf": journey_log(observation, paper, tables=tables),
    }
