"""Benchmark: the handouts of a 200-character live game of Intrigue in the Clouds.

A synthetic setup of 200 characters, each with skills, languages, perhaps an ability, three
perception envelopes and one contingency envelope. A Character Number is "a two digit number,
unique to the character" ("Character Badges"), so one game holds at most 100 characters: the
200 are two games of 100 (two halls of one evening). For each, the referee seat's badges,
perception envelopes, contingency envelopes and character sheets, rendered on one core. Goal:
under 10 s in all. Prints the wall and CPU time, pages and pages per second.

    .venv/bin/python bench/handouts.py
"""

from __future__ import annotations

import io
import time
from typing import Any

from pypdf import PdfReader

from referee.core.registry import system
from referee.handouts import render_handouts

CHARACTERS = 200


def setup(first: int, count: int = 100) -> dict[str, Any]:
    """A live game of ``count`` (at most 100) characters, guests ``first`` on."""
    characters: dict[str, Any] = {}
    for i in range(first, first + count):
        number = f"{i % 100:02d}"
        characters[f"c{i:03d}"] = {
            "name": f"Guest {i:03d} of the Zeppelin",
            "number": number,
            "skills": {"Perception": i % 4, "Etiquette": 1 + i % 3},
            "languages": ["English", "French"] if i % 2 else ["English"],
            "abilities": {"Read Mind": None} if i % 5 == 0 else {},
            "perception_envelopes": [
                {
                    "id": f"p{i}-{k}",
                    "to": "ALL" if k == 0 else [f"{(i + k) % 100:02d}", f"{(i + 7 * k) % 100:02d}"],
                    "target": 12 + k,
                    "contents": f"Guest {i:03d} has a secret number {k}: a long sentence "
                    "of what the perceiver notices about them.",
                    "directions": "Look away." if k == 2 else "",
                }
                for k in range(3)
            ],
            "contingency_envelopes": [
                {"id": f"q{i}", "event": "shot", "contents": f"Guest {i:03d} survives."}
            ],
        }
    return {"start": "19:00", "characters": characters}


def main() -> None:
    """Build the table, render the referee's handouts, print the figures."""
    tables = [
        system("intrigue").new_table(setup(first), start="19:00")
        for first in range(0, CHARACTERS, 100)
    ]
    wall, cpu = time.perf_counter(), time.process_time()
    printed = [render_handouts(table, "referee", "a4") for table in tables]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    pages = 0
    for hall, files in enumerate(printed, 1):
        for name, pdf in sorted(files.items()):
            count = len(PdfReader(io.BytesIO(pdf)).pages)
            pages += count
            print(f"  hall {hall}: {name:26} {count:4} pages  {len(pdf) / 1024:6.0f} KiB")
    print(
        f"handouts, {CHARACTERS} characters: {pages} pages in {wall:.2f} s wall, {cpu:.2f} s "
        f"CPU: {pages / wall:.0f} pages/s wall, {pages / cpu:.0f} pages/s CPU (goal < 10 s)"
    )


if __name__ == "__main__":
    main()
