"""Burning Kingdoms: faction sheets, blank maneuver slips, and a chronicle summary.

- **Faction sheet**: the faction's disposition, its Faction Leader and second-in-command (2iC)
  with their artha (fate, persona, deeds), its rival factions ("Rival Relationships").
- **Maneuver slips** ("Pick your Maneuvers privately, marking your faction name, the attempted
  maneuver and your intended target when applicable on a slip of paper"): blank, eight to a
  page with a cutting guide, the eleven maneuvers to tick (the game's own list:
  ``handout_data["maneuvers"]``).
- **Chronicle summary**: the territory, each faction's disposition, and the chronicle so far
  as this seat may read it (the events it sees, narrated).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.registry import System
from referee.handouts.common import own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["chronicle_summary", "faction_sheets", "maneuver_slips", "render"]

RULES = "Burning Kingdoms"


def _name(faction: Mapping[str, Any], fid: str) -> str:
    return title_of(str(faction.get("name") or fid))


def _person(doc: Document, y: float, role: str, person: Mapping[str, Any] | None) -> float:
    right = doc.width - MARGIN
    doc.heading(MARGIN, y + 4, role, 12)
    y += 9
    if not person:
        doc.field(MARGIN, y, right - MARGIN, "Name")
        return y + 12
    doc.text_at(MARGIN, y + 4, str(person.get("name", "")), 13, "B")
    artha = dict(person.get("artha", {}))
    doc.right_at(
        right,
        y + 4,
        "Artha — "
        + " · ".join(f"{k.title()} {artha.get(k, 0)}" for k in ("fate", "persona", "deeds")),
        10,
    )
    y += 8
    stats = " · ".join(f"{k} {v}" for k, v in dict(person.get("stats", {})).items())
    skills = " · ".join(f"{k} {v}" for k, v in dict(person.get("skills", {})).items())
    doc.text_at(MARGIN, y + 3, f"Stats: {stats or '—'}", 9)
    y += 5
    doc.text_at(MARGIN, y + 3, f"Skills: {skills or '—'}", 9)
    y += 5
    extra = (
        f"Resources {person.get('resources', '')} · Circles {person.get('circles', '')} · "
        f"Lifepaths {person.get('lifepaths', '')}"
    )
    doc.text_at(MARGIN, y + 3, extra, 9)
    relationships = [
        str(r.get("name", r)) if isinstance(r, Mapping) else str(r)
        for r in person.get("relationships", [])
    ]
    if relationships:
        y += 5
        doc.text_at(MARGIN, y + 3, "Relationships: " + ", ".join(relationships), 9)
    return y + 9


def faction_sheets(observation: Mapping[str, Any], paper: str) -> bytes:
    """One page per faction this seat plays (the referee: every faction)."""
    state = observation["state"]
    factions: Mapping[str, Mapping[str, Any]] = state.get("factions", {})
    doc = Document(paper, title="Burning Kingdoms faction sheets")
    ids = own_ids(observation, factions)
    right = doc.width - MARGIN
    for fid in ids:
        faction = factions[fid]
        doc.add_page()
        doc.footer_note(f"{RULES} · Faction Sheet · {state.get('territory', '')}")
        doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · FACTION SHEET", 7, "B")
        doc.text_at(MARGIN, MARGIN + 15, _name(faction, fid), 22, "B")
        doc.right_at(right, MARGIN + 8, "Disposition", 8, "B")
        doc.right_at(right, MARGIN + 18, str(faction.get("disposition", "")), 24, "B")
        y = MARGIN + 24
        doc.text_at(
            MARGIN,
            y + 3,
            f"Territory: {state.get('territory', '')} · starting "
            f"disposition {faction.get('starting_disposition', '')}",
            9,
        )
        y += 9
        doc.field(MARGIN, y, right - MARGIN, "Objective", str(faction.get("objective", "")))
        y += 12
        y = _person(doc, y, "Faction Leader", faction.get("leader"))
        y = _person(doc, y, "Second-in-Command (2iC)", faction.get("second"))
        doc.heading(MARGIN, y + 4, "Rivals", 12)
        y += 8
        rows = [
            [
                _name(other, oid),
                str(other.get("disposition", "")),
                "out" if other.get("out") else "",
            ]
            for oid, other in factions.items()
            if oid != fid
        ]
        y = doc.grid(MARGIN, y, [70, 30, 30], ["Rival faction", "Disposition", ""], rows) + 6
        doc.heading(MARGIN, y + 4, "Maneuvers", 12)
        y += 8
        doc.grid(
            MARGIN,
            y,
            [25, 45, 50, right - MARGIN - 120],
            ["Maneuver", "Chosen", "Target", "Result"],
            [[str(i + 1), "", "", ""] for i in range(6)],
            7.5,
        )
    if not ids:
        doc.add_page()
        doc.text_at(MARGIN, 30, "No faction sheet for this seat.", 11)
    return doc.to_bytes()


def maneuver_slips(paper: str, *, maneuvers: Sequence[str], faction: str = "") -> bytes:
    """Blank maneuver slips, eight to a page with a cutting guide, ``maneuvers`` to tick."""
    doc = Document(paper, title="Burning Kingdoms maneuver slips")
    doc.add_page()
    doc.footer_note(
        f"{RULES} · Maneuver slips · cut along the corner marks, fold, and put "
        "in the shared envelope"
    )
    w, h, gap = 88.0, 60.0, 6.0
    x0 = (doc.width - 2 * w - gap) / 2
    y0 = (doc.height - 4 * h - 3 * gap) / 2
    for i in range(8):
        x = x0 + (i % 2) * (w + gap)
        y = y0 + (i // 2) * (h + gap)
        doc.cut_guide(x, y, w, h)
        doc.set_line_width(0.3)
        doc.rect(x, y, w, h)
        doc.text_at(x + 3, y + 5, "MANEUVER SLIP", 7, "B")
        doc.right_at(x + w - 3, y + 5, "Maneuver no. ____", 7)
        doc.field(x + 3, y + 8, w - 6, "Faction", faction)
        doc.text_at(x + 3, y + 20, "Maneuver (tick one)", 7, "B")
        for j, name in enumerate(maneuvers):
            cx = x + 3 + (j % 3) * 28
            cy = y + 23 + (j // 3) * 5.5
            doc.rect(cx, cy, 3, 3)
            doc.text_at(cx + 4.5, cy + 2.8, name, 8)
        doc.field(x + 3, y + 46, w - 6, "Target (when applicable)")
    return doc.to_bytes()


def chronicle_summary(observation: Mapping[str, Any], paper: str) -> bytes:
    """The territory, each faction's disposition, and the chronicle as this seat sees it."""
    state = observation["state"]
    factions: Mapping[str, Mapping[str, Any]] = state.get("factions", {})
    doc = Document(paper, title="Burning Kingdoms chronicle summary")
    doc.add_page()
    doc.footer_note(f"{RULES} · Chronicle summary")
    doc.heading(MARGIN, MARGIN + 6, f"Chronicle of {state.get('territory', '')}")
    y = MARGIN + 12
    doc.text_at(
        MARGIN,
        y + 3,
        f"Session {state.get('session', '')} · Maneuver "
        f"{state.get('maneuver', '')} · phase: {state.get('phase', '')}",
        9,
    )
    if state.get("winner"):
        doc.text_at(MARGIN + 110, y + 3, f"Conqueror: {state['winner']}", 9, "B")
    y += 7
    rows = [
        [
            _name(f, fid),
            str((f.get("leader") or {}).get("name", "")),
            str(f.get("starting_disposition", "")),
            str(f.get("disposition", "")),
            "out" if f.get("out") else "",
        ]
        for fid, f in factions.items()
    ]
    w = doc.width - 2 * MARGIN
    y = (
        doc.grid(
            MARGIN,
            y,
            [w * 0.25, w * 0.25, w * 0.18, w * 0.18, w * 0.14],
            ["Faction", "Faction Leader", "Starting disposition", "Disposition", ""],
            rows,
        )
        + 6
    )
    doc.heading(MARGIN, y + 4, "What has happened", 12)
    y += 9
    lines = [str(e.get("text", "")) for e in observation.get("events", []) if e.get("text")]
    for line in lines or ["Nothing yet: the chronicle begins."]:
        if y > doc.height - 20:
            doc.add_page()
            doc.footer_note(f"{RULES} · Chronicle summary")
            y = MARGIN
        y = doc.paragraph(MARGIN, y, w, f"• {line}", 8.5) + 0.8
    return doc.to_bytes()


def render(observation: Mapping[str, Any], game: System, paper: str) -> dict[str, bytes]:
    """The seat's faction sheets, blank maneuver slips, and the chronicle summary."""
    maneuvers = game.load_handout_data()["maneuvers"]
    factions: Mapping[str, Mapping[str, Any]] = observation["state"].get("factions", {})
    own = own_ids(observation, factions)
    name = _name(factions[own[0]], own[0]) if len(own) == 1 else ""
    return {
        "faction-sheets.pdf": faction_sheets(observation, paper),
        "maneuver-slips.pdf": maneuver_slips(paper, maneuvers=maneuvers, faction=name),
        "chronicle-summary.pdf": chronicle_summary(observation, paper),
    }
