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
        "artha-and-the-tie-breaker",
    } <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_passes(path: Path) -> None:
    """The scenario runs and each `expect:` holds."""
    run = run_scenario(load_scenario(path))
    assert run.expectations, "an example without expectations proves nothing"
    failed = [f"{f.description} (got {f.actual!r})" for f in run.failures]
    assert not failed, failed


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_to_the_same_state(path: Path) -> None:
    """The state is a fold of the log: replaying an example's log, without dice, gives it back;
    and no faction sees another's slip before that slip is revealed."""
    from referee.core import Table, view
    from referee.systems.kingdoms import PROCEDURE

    run = run_scenario(load_scenario(path))
    again = Table.replay(PROCEDURE, run.table.setup, run.table.log)
    assert PROCEDURE.state_json(again.state) == PROCEDURE.state_json(run.table.state)
    for faction in run.table.state.factions:
        for event in view(run.table.log, faction):
            if event.kind == "slip.written" and event.payload["faction"] != faction:
                assert "slip" not in event.data
