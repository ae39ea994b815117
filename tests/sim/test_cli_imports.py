"""``referee simulate`` imports the game of the table and no other: every game's modules are
half a second of a command's CPU (docs/performance.md, "simulate (issue 31)")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

RUN = """
import sys
from referee.cli import main
sys.argv = ["referee", "simulate", sys.argv[1], "--runs", "1", "--json"]
try:
    main()
finally:
    games = sorted({m.split(".")[2] for m in sys.modules if m.startswith("referee.systems.")})
    print("imported:", ",".join(games), file=sys.stderr)
"""


def imported_by_simulate(example: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(example)], capture_output=True, text=True, check=True
    )
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("imported: "), done.stderr
    return set(line.removeprefix("imported: ").split(","))


def test_a_duel_at_the_crown_imports_gin_lane_alone() -> None:
    assert imported_by_simulate(EXAMPLES / "ginlane/duel.yaml") == {"ginlane"}


def test_bob_against_fred_imports_hursagmu_alone() -> None:
    assert imported_by_simulate(EXAMPLES / "hursagmu/bob-against-fred.yaml") == {"hursagmu"}
