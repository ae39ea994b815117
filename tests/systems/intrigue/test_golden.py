"""Golden playthroughs: each worked example as each viewer sees it (events and state), diffed.

Regenerate with ``REFEREE_UPDATE_GOLDEN=1 pytest tests/systems/intrigue/test_golden.py`` and
read the diff: a change in who sees what is a change in the rules' secrecy.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

HERE = Path(__file__).parent
EXAMPLES = HERE.parents[2] / "examples" / "intrigue"
GOLDEN = HERE / "golden"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"

CASES = [
    ("perception-envelopes", "referee"),
    ("perception-envelopes", "public"),
    ("perception-envelopes", "ann"),  # plays the Countess, who holds the envelopes
    ("perception-envelopes", "fifteen"),
    ("perception-envelopes", "twelve"),
    ("scarface-and-krockin", "public"),
    ("scarface-damage", "sam"),  # plays ScarFace
    ("lady-rich", "krockin"),
    ("lady-rich", "lady_rich"),
    ("lady-rich", "butler"),
    ("contingency-envelopes", "countess"),
    ("contingency-envelopes", "maid"),
]


@pytest.mark.parametrize(("example", "viewer"), CASES, ids=[f"{e}.{v}" for e, v in CASES])
def test_golden_view(example: str, viewer: str) -> None:
    run = run_scenario(load_scenario(EXAMPLES / f"{example}.yaml"))
    seen = run.to_json(viewer)
    data = {"viewer": viewer, "events": seen["events"], "state": seen["state"]}
    golden = GOLDEN / f"{example}.{viewer}.json"
    if UPDATE:
        golden.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert data == json.loads(golden.read_text(encoding="utf-8"))
