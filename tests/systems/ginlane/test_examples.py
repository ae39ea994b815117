"""Every scenario in examples/ginlane/ plays and meets its ``expect:`` block."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ginlane"
FILES = sorted(EXAMPLES.glob("*.yaml"))


def test_there_are_examples() -> None:
    assert len(FILES) >= 1


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_meets_its_expectations(path: Path) -> None:
    run = run_scenario(load_scenario(path))
    assert run.scenario.system == "ginlane"
    assert run.scenario.expect, f"{path.name} expects nothing"
    failed = [f"{f.description} (actual {f.actual!r})" for f in run.failures]
    assert not failed, failed


def test_the_ambush_plan_is_seen_only_by_its_player() -> None:
    run = run_scenario(load_scenario(EXAMPLES / "ambush.yaml"))
    plan = "cosh whoever comes through the door"
    for viewer in ("public", "bob", "sal"):
        waits = [e for e in run.events(viewer) if e.kind == "waiting"]
        assert waits and all("plan" not in e.data and e.redacted == ("plan",) for e in waits)
        assert plan not in str(run.to_json(viewer)["events"])
    assert [e.data["plan"] for e in run.events("alice") if e.kind == "waiting"] == [plan]
