"""Every scenario in examples/ginlane/ plays and meets its ``expect:`` block."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.fairness import sealed_choices
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


def test_the_ambush_plan_is_seen_only_by_its_player_until_she_acts_on_it() -> None:
    """A Wait's plan is sealed (issue 12): until Kit acts on it nobody else sees it, only its
    commitment; when she springs the ambush the plan and its salt are published, and they are
    the plan that was sealed."""
    run = run_scenario(load_scenario(EXAMPLES / "ambush.yaml"))
    plan = "cosh whoever comes through the door"
    for viewer in ("public", "bob", "sal"):
        events = run.events(viewer)
        waits = [e for e in events if e.kind == "waiting"]
        assert waits and all("plan" not in e.data and e.redacted == ("plan", "salt") for e in waits)
        assert all(len(str(e.data["sealed"]["commitment"])) == 64 for e in waits)
        sprung = next(i for i, e in enumerate(events) if e.kind == "wait.acted")
        assert plan not in str([e.to_json() for e in events[:sprung]])
        [unsealed] = events[sprung].data["unsealed"]
        assert unsealed["content"] == plan
        assert sealed_choices(events) == (1, ())
    assert [e.data["plan"] for e in run.events("alice") if e.kind == "waiting"] == [plan]
