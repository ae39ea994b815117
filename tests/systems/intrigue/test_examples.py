"""Every worked example of the rules text, as a scenario under examples/intrigue/, passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.scenario import ScenarioRun, load_scenario, run_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "intrigue"
FILES = sorted(EXAMPLES.glob("*.yaml"))


def test_the_examples_are_there() -> None:
    names = {f.stem for f in FILES}
    assert {
        "perception-envelopes",
        "scarface-damage",
        "scarface-and-krockin",
        "lady-rich",
        "contingency-envelopes",
        "the-victors-way",
        "unnoticed-mind-spike",
    } <= names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_passes(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.system == "intrigue"
    assert scenario.expect, f"{path.name} has no expect: block"
    run = run_scenario(scenario)
    assert not run.failures, [f.description for f in run.failures]


def run_example(name: str) -> ScenarioRun:
    return run_scenario(load_scenario(EXAMPLES / f"{name}.yaml"))


def contents_seen(run: ScenarioRun, viewer: str) -> str:
    return str([e.to_json() for e in run.events(viewer)]) + str(run.to_json(viewer)["state"])


def test_the_perception_example_reaches_the_right_readers() -> None:
    """15 rolling 18 reads the ALL envelope only; 12 rolling 18 reads both; 20 rolling 13 reads
    neither (then 19, at 19:20, both); the Countess reads none of her own."""
    run = run_example("perception-envelopes")
    fifteen, twelve = contents_seen(run, "fifteen"), contents_seen(run, "twelve")
    assert "paste" in fifteen and "Vienna" not in fifteen
    assert "paste" in twelve and "Vienna" in twelve and "Look startled" in twelve
    countess = contents_seen(run, "ann")  # ann plays the Countess
    assert "paste" not in countess and "Vienna" not in countess and "startled" not in countess
    assert "paste" not in contents_seen(run, "public")


def test_the_lady_rich_example_is_seen_by_the_two_alone() -> None:
    run = run_example("lady-rich")
    assert "7-3-1" in contents_seen(run, "krockin") and "7-3-1" in contents_seen(run, "lady_rich")
    butler = [e.kind for e in run.events("butler")]
    assert "mental.attacked" not in butler and "7-3-1" not in contents_seen(run, "butler")


def test_the_contingency_example_opens_for_the_holder_alone() -> None:
    run = run_example("contingency-envelopes")
    assert "your son" in contents_seen(run, "countess")
    assert "your son" not in contents_seen(run, "baron")
    assert "rubis" in contents_seen(run, "baron") and "rubis" not in contents_seen(run, "maid")
    assert "locket" not in contents_seen(run, "countess")  # never shot: never opened


def test_the_victors_search_is_the_searchers_and_opens_no_envelope() -> None:
    """Rulings 25, 26: ScarFace (sam) reads what he found; Krockin (kim) and the Valet see only
    that a search and two robberies happened; no event shows anyone an envelope's contents."""
    run = run_example("the-victors-way")
    sam, kim, valet = (contents_seen(run, v) for v in ("sam", "kim", "valet"))
    assert "from the Countess" in sam and "Open if shot" in sam
    for other in (kim, valet):
        assert "from the Countess" not in other and "character.searched" in other
    for viewer in ("sam", "kim", "valet", "referee"):
        events = str([e.to_json() for e in run.events(viewer)])
        assert "Leeds" not in events and "hip flask" not in events
