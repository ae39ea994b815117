"""Stopping at a precision (``referee simulate --precision P``, ``simulate(precision=P)``):
encounters are played in batches until every reported 95% interval is narrower than ``P`` — a
winner's rate by ``P`` itself, a mean by ``P`` of its size (at least 1) — and never past
``--runs``; the answer says how many it took and that it stopped there (docs/simulate.md,
"Stopping at a precision")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import build_app
from referee.core import system
from referee.core.loader import load_file
from referee.sim.simulate import BATCH, SimulationReport, simulate, width_allowed

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "intrigue/scarface-and-krockin.yaml"
runner = CliRunner()
app = build_app(("simulate",))


def _duel() -> object:
    data = load_file(DUEL)
    return system("intrigue").new_table(data["setup"], players=data.get("players"))


def _every_interval_narrower(report: SimulationReport, precision: float) -> None:
    estimates = report.estimates()
    assert {name for name, _ in estimates} >= {"wins:scarface", "rounds", "damage:krockin"}
    for name, estimate in estimates:
        allowed = width_allowed(estimate, precision, name.startswith("wins:"))
        assert estimate.high - estimate.low < allowed, (name, estimate, allowed)


def test_a_seeded_run_stops_at_the_precision_before_its_runs() -> None:
    report = simulate(_duel(), runs=2_000, seed=0, precision=0.1)  # type: ignore[arg-type]
    assert report.stopped == "precision" and report.precision == 0.1
    assert BATCH <= report.runs < 2_000
    assert sum(report.wins.values()) == report.runs
    _every_interval_narrower(report, 0.1)
    # a batch earlier, some interval was still too wide: it did not stop late for no reason
    fewer = simulate(_duel(), runs=report.runs - BATCH, seed=0)  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        _every_interval_narrower(fewer, 0.1)
    # the same seed, the same stop
    again = simulate(_duel(), runs=2_000, seed=0, precision=0.1)  # type: ignore[arg-type]
    assert again.to_json() == report.to_json()


def test_never_past_the_runs_asked() -> None:
    report = simulate(_duel(), runs=150, seed=0, precision=0.001)  # type: ignore[arg-type]
    assert report.runs == 150 and report.stopped == "runs"


@pytest.mark.parametrize("precision", [0.0, -0.5, 1.5, float("nan")])
def test_the_library_refuses_a_precision_out_of_range(precision: float) -> None:
    with pytest.raises(ValueError, match="precision"):
        simulate(_duel(), runs=10, precision=precision)  # type: ignore[arg-type]


def test_the_command_says_how_many_runs_it_took_and_why() -> None:
    argv = ["simulate", str(DUEL), "--runs", "2000", "--precision", "0.1"]
    shown = runner.invoke(app, argv)
    assert shown.exit_code == 0, shown.output
    as_json = runner.invoke(app, [*argv, "--json"])
    sim = json.loads(as_json.output)["simulation"]
    assert sim["stopped"] == "precision" and sim["precision"] == 0.1
    assert sim["runs"] < 2_000
    for estimate in [*sim["win_rates"].values(), sim["rounds"]]:
        assert estimate["high"] - estimate["low"] < 0.1 * max(1.0, abs(estimate["value"]))
    words = " ".join(shown.output.split())
    assert f"{sim['runs']:,} encounters" in words
    assert "stopped at the precision asked" in words and "narrower than 0.1" in words


@pytest.mark.parametrize("value", ["0", "-0.01", "1.5", "abc", "nan", "inf"])
def test_a_bad_precision_is_one_line_and_exit_2(
    value: str, capfd: pytest.CaptureFixture[str]
) -> None:
    result = runner.invoke(app, ["simulate", str(DUEL), "--runs", "5", f"--precision={value}"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines() or capfd.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert f"--precision {value!r}" in lines[0] and "above 0 and at most 1" in lines[0]
