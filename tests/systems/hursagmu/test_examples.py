"""Every worked example of hursagmu-encounters.txt, as a scenario in examples/hursagmu/, passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "hursagmu"
FILES = sorted(EXAMPLES.glob("*.yaml"))


def test_examples_exist() -> None:
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_passes(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.system == "hursagmu"
    assert scenario.expect, f"{path.name} has no expect: block"
    run = run_scenario(scenario)
    failures = [f"expect.{r.index}: {r.description} (got {r.actual!r})" for r in run.failures]
    assert not failures, "\n".join(failures)
