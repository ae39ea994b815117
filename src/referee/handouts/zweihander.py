"""Zweihänder (with the house rules): character sheets with the tracks the house rules add
(Reputation points, Corruption, Order and Chaos ranks, madness: Disorders), a chase tracker
("Chase scene rules") and a journey log (Stretches, Roles, Toughness Tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.handouts.common import own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["character_sheets", "chase_tracker", "journey_log", "render"]

RULES = "Zweihänder"
PERIL = (
    "Unhindered",
    "Imperiled",
    "Ignore 1 Skill Rank",
    "Ignore 2 Skill Ranks",
    "Ignore 3 Skill Ranks",
    "Incapacitated!",
)
DAMAGE = (
    "Unharmed",
    "Lightly Wounded",
    "Moderately Wounded",
    "Seriously Wounded",
    "Grievously Wounded",
    "Slain!",
)


def _condition_track(
    doc: Document, y: float, title: str, steps: tuple[str, ...], now: str
) -> float:
    doc.text_at(MARGIN, y + 5, title, 10, "B")
    w = (doc.width - 2 * MARGIN - 40) / len(steps)
    for i, step in enumerate(steps):
        x = MARGIN + 40 + i * w
        doc.set_fill_color(200)
        doc.rect(x, y, w - 1, 8, style="DF" if step == now else "D")
        doc.fitted(x + (w - 1) / 2, y + 5.3, w - 3, step, 7, "B" if step == now else "")
    return y + 11


def character_sheets(observation: Mapping[str, Any], paper: str) -> bytes:
    """One page per character this seat plays (the referee: every character)."""
    chars: Mapping[str, Mapping[str, Any]] = observation["state"].get("characters", {})
    doc = Document(paper, title="Zweihänder character sheets")
    right = doc.width - MARGIN
    ids = own_ids(observation, chars)
    for cid in ids:
        char = chars[cid]
        doc.add_page()
        doc.footer_note(f"{RULES} · Character Sheet (house rules)")
        doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · CHARACTER SHEET", 7, "B")
        doc.text_at(MARGIN, MARGIN + 15, str(char.get("name") or title_of(cid)), 22, "B")
        if char.get("social_class"):
            doc.right_at(right, MARGIN + 15, f"Social Class: {char['social_class']}", 9)
        y = MARGIN + 24
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
        y = doc.grid(MARGIN, y + 8, [60, 25, 25], ["Skill", "Base %", "Ranks"], rows) + 5
        doc.heading(MARGIN, y + 4, "Conditions", 12)
        y += 9
        y = _condition_track(doc, y, "Peril", PERIL, str(char.get("peril_condition", "")))
        y = _condition_track(doc, y, "Damage", DAMAGE, str(char.get("damage_condition", "")))
        y += 4
        doc.heading(MARGIN, y + 4, "Fate, Reputation, Corruption", 12)
        y += 9
        for label, key, boxes in (
            ("Fate Points", "fate_points", 5),
            ("Reputation points", "reputation", 10),
            ("Reward Points", "reward_points", 10),
        ):
            value = int(char.get(key, 0) or 0)
            doc.text_at(MARGIN, y + 4, f"{label}: {value}", 10, "B")
            doc.boxes(MARGIN + 55, y, max(boxes, value), 5, value)
            y += 8
        corruption = int(char.get("corruption", 0) or 0)
        doc.text_at(MARGIN, y + 4, f"Corruption: {corruption}", 10, "B")
        doc.boxes(MARGIN + 55, y, 10, 5, min(corruption, 10))
        doc.text_at(MARGIN + 122, y + 4, "each 10: 1 rank towards Chaos", 7, "I")
        y += 10
        order = int(char.get("order_ranks", 0) or 0)
        chaos = int(char.get("chaos_ranks", 0) or 0)
        doc.text_at(MARGIN, y + 4, f"Order ranks: {order}", 10, "B")
        doc.boxes(MARGIN + 55, y, 10, 5, order)
        y += 8
        doc.text_at(MARGIN, y + 4, f"Chaos ranks: {chaos}", 10, "B")
        doc.boxes(MARGIN + 55, y, 10, 5, chaos)
        y += 10
        doc.heading(MARGIN, y + 4, "Madness — Disorders", 12)
        y += 9
        disorders = [str(d) for d in char.get("disorders", [])]
        for i in range(max(3, len(disorders))):
            doc.field(
                MARGIN,
                y,
                right - MARGIN,
                f"Disorder {i + 1}",
                disorders[i] if i < len(disorders) else "",
            )
            y += 9
    if not ids:
        doc.add_page()
        doc.text_at(MARGIN, 30, "No character sheets for this seat.", 11)
    return doc.to_bytes()


def chase_tracker(observation: Mapping[str, Any], paper: str) -> bytes:
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
            "on the Initiative Ladder above the Pursuers. Head Start: +3 on the "
            "first round.",
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
    doc.text_at(
        MARGIN,
        y + 2,
        "Capture (Coordination Test): Trivial +30% cornered · Easy "
        "+20% in the open · Routine +10% the crowd bars the way",
        7.5,
        "I",
    )
    return doc.to_bytes()


def journey_log(observation: Mapping[str, Any], paper: str) -> bytes:
    """The journey log: each Stretch, its length, Terrain, Threat Level, Roles and tests."""
    state = observation["state"]
    journey = state.get("journey") or {}
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
        "Roles: Guide (Navigation) · Survivalist (Survival) · "
        "Scout (Stealth) — each character takes a Role or assists",
        8,
        "I",
    )
    y += 7
    stretches = list(journey.get("stretches", []))
    rows = [
        [
            str(s.get("name", "")),
            str(s.get("length", "")),
            f"{s.get('terrain', '')}",
            str(s.get("threat", "")),
            str(s.get("days", "")),
            "",
            "",
            "",
            "",
        ]
        for s in stretches
    ]
    rows += [[""] * 9] * max(3, 10 - len(rows))
    w = doc.width - 2 * MARGIN
    y = (
        doc.grid(
            MARGIN,
            y,
            [
                w * 0.22,
                w * 0.09,
                w * 0.09,
                w * 0.08,
                w * 0.07,
                w * 0.12,
                w * 0.12,
                w * 0.1,
                w * 0.11,
            ],
            [
                "Stretch",
                "Length",
                "Terrain",
                "Threat",
                "Days",
                "Guide",
                "Survivalist",
                "Scout",
                "Toughness",
            ],
            rows,
            9,
        )
        + 6
    )
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


def render(observation: Mapping[str, Any], paper: str) -> dict[str, bytes]:
    """The seat's sheets, and the table's chase tracker and journey log."""
    return {
        "character-sheets.pdf": character_sheets(observation, paper),
        "chase-tracker.pdf": chase_tracker(observation, paper),
        "journey-log.pdf": journey_log(observation, paper),
    }
