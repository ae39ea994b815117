"""Every worked example of the rules text, as a scenario under examples/intrigue/, passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "intrigue"
FILES = sorted(EXAMPLES.glob("*.yaml"))


def test_the_examples_are_there() -> None:
    names = {f.stem for f in FILES}
    assert {"perception-envelopes", "scarface-damage", "scarface-and-krockin", "lady-rich"} <= names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_passes(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.system == "intrigue"
    assert scenario.expect, f"{path.name} has no expect: block"
    run = run_scenario(scenario)
    assert not run.failures, [f.description for f in run.failures]
