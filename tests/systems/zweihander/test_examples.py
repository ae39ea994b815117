"""Every scenario in examples/zweihander/ plays to the end with every expectation met."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.scenario import load_scenario, run_scenario

EXAMPLES = sorted((Path(__file__).parents[3] / "examples" / "zweihander").glob("*.yaml"))


def test_there_are_examples_of_each_subsystem() -> None:
    names = " ".join(p.stem for p in EXAMPLES)
    for part in ("chase", "journey", "exchange", "corruption"):
        assert part in names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_meets_its_expectations(path: Path) -> None:
    run = run_scenario(load_scenario(path))
    assert run.scenario.expect, f"{path.name} has no expect: block"
    assert run.passed, [f.description + f" (got {f.actual!r})" for f in run.failures]
