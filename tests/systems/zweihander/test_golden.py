"""Golden playthroughs: each example as each viewer sees it, diffed against a recorded file.

Set REFEREE_UPDATE_GOLDEN=1 to record them again after a deliberate change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

EXAMPLES = Path(__file__).parents[3] / "examples" / "zweihander"
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"

CASES = [
    ("complex-exchange", "referee"),
    ("complex-exchange", "alice"),
    ("complex-exchange", "bob"),
    ("complex-exchange", "public"),
    ("chase-takedown", "referee"),
    ("journey", "referee"),
    ("session-corruption", "referee"),
]


@pytest.mark.parametrize(("example", "viewer"), CASES, ids=[f"{e}.{v}" for e, v in CASES])
def test_playthrough_matches_its_golden_file(example: str, viewer: str) -> None:
    run = run_scenario(load_scenario(EXAMPLES / f"{example}.yaml"))
    data = run.to_json(viewer)
    golden = GOLDEN / f"{example}.{viewer}.json"
    if UPDATE:
        golden.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert data == json.loads(golden.read_text(encoding="utf-8"))


@pytest.mark.parametrize("viewer", ["alice", "bob", "public"])
def test_golden_player_views_hold_no_secret_skill_before_the_reveal(viewer: str) -> None:
    data = json.loads((GOLDEN / f"complex-exchange.{viewer}.json").read_text(encoding="utf-8"))
    for event in data["events"][:-1]:
        assert not {"favourable", "unfavourable", "bumped_by"} & set(event["payload"])
        assert event["secrets"] == []
    assert {"favourable", "unfavourable"} <= set(data["events"][0]["redacted"])
    assert data["events"][-1]["payload"]["favourable"] == "Charm"
