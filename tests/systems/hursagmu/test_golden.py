"""Golden playthroughs: `referee run --json` of two scenarios, as each viewer sees them, diffed.

Regenerate after an intended change with ``REFEREE_UPDATE_GOLDEN=1 pytest tests/systems/hursagmu``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "hursagmu"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"
CASES = [
    ("bob-against-fred", "referee"),
    ("thief-and-sleeper", "referee"),
    ("thief-and-sleeper", "alice"),
    ("thief-and-sleeper", "bruno"),
    ("thief-and-sleeper", "guard"),
    ("thief-and-sleeper", "public"),
]


@pytest.mark.parametrize(("name", "viewer"), CASES)
def test_golden_playthrough(name: str, viewer: str) -> None:
    result = CliRunner().invoke(
        app, ["run", str(EXAMPLES / f"{name}.yaml"), "--as", viewer, "--json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    golden = GOLDEN / f"{name}.{viewer}.json"
    if UPDATE:
        golden.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert data == json.loads(golden.read_text(encoding="utf-8"))


def test_players_see_less_than_the_referee() -> None:
    def events(viewer: str) -> list[str]:
        data = json.loads((GOLDEN / f"thief-and-sleeper.{viewer}.json").read_text())
        kinds = [e["kind"] for e in data["events"]]
        assert kinds[0] == "encounter.began"  # who takes part: everyone's to know
        return kinds[1:]

    assert events("referee") == [
        "perception.rolled",
        "stealth.rolled",
        "stealth.rolled",
        "sneak.noticed",
    ]
    assert events("alice") == ["stealth.rolled", "stealth.rolled", "sneak.noticed"]
    assert events("bruno") == ["perception.rolled"]
    assert events("guard") == ["sneak.noticed"]
    assert events("public") == []
