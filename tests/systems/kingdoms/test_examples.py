"""Every scenario under examples/kingdoms/ plays to the end with every expectation met."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "kingdoms").glob("*.yaml"))


def test_there_are_examples() -> None:
    """The worked examples of the text are scenario files."""
    names = {p.stem for p in EXAMPLES}
    assert {
        "sap-against-logistics",
        "joint-conquest-of-the-dwarves",
        "grannir-and-raddrim",
        "four-factions-every-maneuver",
    } <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_passes(path: Path) -> None:
    """The scenario runs and each `expect:` holds."""
    run = run_scenario(load_scenario(path))
    assert run.expectations, "an example without expectations proves nothing"
    failed = [f"{f.description} (got {f.actual!r})" for f in run.failures]
    assert not failed, failed
