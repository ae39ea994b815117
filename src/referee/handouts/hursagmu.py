"""Hursagmu: a round-planner sheet per character (Hursagmu's encounter rules: "Each round of
conflict has three distinct phases: Initiative, Action, and Recovery"; each major action after
the first costs a cumulative -2 to skills and comes two Initiative lower; Dex or Int skills,
not both, in a round). The penalty and the Initiative step of each further action, and a
round's length, are the game's own (``handout_data``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.registry import System
from referee.handouts.common import own_ids, title_of
from referee.handouts.pdf import MARGIN, Document

__all__ = ["render", "round_planner", "sheet_lines"]

RULES = "Hursagmu"
ROUNDS = 12


def sheet_lines(sheet: Mapping[str, Any] | None, skills: Mapping[str, str]) -> list[str]:
    """The character's sheet in lines: the attributes and weapon, then every skill of the game
    (``skills``: name → attribute, the game's list) under its attribute, with his level (0 for
    one he lacks: the roll is the attribute alone). Nothing for a blank planner.

    >>> for line in sheet_lines({"dexterity": 2, "intelligence": 1, "strength": 3,
    ...                          "skills": {"striking": 5}, "weapon": 6},
    ...                         {"striking": "dexterity", "command": "intelligence"}):
    ...     print(line)
    Dexterity 2 · Intelligence 1 · Strength 3 · Willpower 0 · Weapon 6 (melee)
    Dex skills: striking 5
    Int skills: command 0
    """
    if not sheet:
        return []
    attributes = ("dexterity", "intelligence", "strength", "willpower")
    first = " · ".join(f"{a.capitalize()} {sheet.get(a, 0)}" for a in attributes)
    lines = [f"{first} · Weapon {sheet.get('weapon', 0)} ({sheet.get('weapon_type', 'melee')})"]
    levels: Mapping[str, int] = sheet.get("skills", {})
    for attribute, short in (("dexterity", "Dex"), ("intelligence", "Int")):
        names = [n for n, a in skills.items() if a == attribute]
        if names:
            listed = " · ".join(f"{n} {levels.get(n, 0)}" for n in names)
            lines.append(f"{short} skills: {listed}")
    return lines


def round_planner(
    observation: Mapping[str, Any], paper: str, *, tables: Mapping[str, Any]
) -> bytes:
    """One round-planner page per character this seat plays (the referee: every one)."""
    penalty, step = int(tables["action_penalty"]), int(tables["action_step"])
    state = observation["state"]
    chars: Mapping[str, Mapping[str, Any]] = state.get("characters", {})
    doc = Document(paper, title="Hursagmu round planner")
    ids = own_ids(observation, chars) or [""]
    w = doc.width - 2 * MARGIN
    for cid in ids:
        char = chars.get(cid, {})
        doc.add_page()
        doc.footer_note(
            f"{RULES} · Round Planner · a round is about {tables['round_seconds']} seconds"
        )
        doc.text_at(MARGIN, MARGIN + 5, f"{RULES.upper()} · ROUND PLANNER", 7, "B")
        doc.text_at(MARGIN, MARGIN + 15, title_of(cid) if cid else "Character:", 20, "B")
        stats = f"Hits {char.get('hits', '')} · Stamina {char.get('stamina', '')}"
        doc.right_at(doc.width - MARGIN, MARGIN + 15, stats if cid else "", 10)
        y = MARGIN + 18
        for line in sheet_lines(char.get("sheet"), tables["skills"]):
            y = doc.paragraph(MARGIN, y, w, line, 7.5)
        y += 2
        doc.text_at(
            MARGIN,
            y + 2,
            "Phases: Initiative → Action → Recovery. Each major action "
            f"after the first: {penalty} to every skill this round, {step} lower on Initiative.",
            7.5,
            "I",
        )
        y += 5
        header = [
            "Round",
            "Initiative",
            "Dex / Int",
            "1st action (Init)",
            f"2nd (Init -{step}, {penalty})",
            f"3rd (Init -{2 * step}, {2 * penalty})",
            "Hits",
            "Recovery",
        ]
        widths = [w * f for f in (0.07, 0.1, 0.09, 0.2, 0.17, 0.17, 0.08, 0.12)]
        rows = [[str(r), "", "", "", "", "", "", ""] for r in range(1, ROUNDS + 1)]
        y = doc.grid(MARGIN, y, widths, header, rows, 14.5) + 4
        doc.text_at(
            MARGIN,
            y + 2,
            "Recovery: no actions this round and OK on both Health "
            "and Sanity → recover one hit; injured this round → no recovery.",
            7.5,
            "I",
        )
    return doc.to_bytes()


def render(observation: Mapping[str, Any], game: System, paper: str) -> dict[str, bytes]:
    """The seat's round planners."""
    return {"round-planner.pdf": round_planner(observation, paper, tables=game.load_handout_data())}
