"""``referee simulate``: JSON out, a chart, and one line with exit 2 for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import build_app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()
app = build_app(("simulate",))


def test_json_answer_has_the_simulation_and_the_exact_odds(tmp_path: Path) -> None:
    chart = tmp_path / "odds.png"
    result = runner.invoke(
        app,
        [
            "simulate",
            str(EXAMPLES / "intrigue/scarface-and-krockin.yaml"),
            "--runs",
            "20",
            "--json",
            "--plot",
            str(chart),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["simulation"]["runs"] == 20
    assert data["exact"]["exact"] is True
    assert sum(data["simulation"]["wins"].values()) == 20
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_bare_setup_with_its_system(tmp_path: Path) -> None:
    setup = tmp_path / "setup.yaml"
    setup.write_text(
        "characters:\n"
        "  ann: {name: Ann, number: 11, combat: 1, strength: 2, stamina: 3}\n"
        "  bob: {name: Bob, number: 12, combat: 1, strength: 2, stamina: 3}\n"
    )
    result = runner.invoke(app, ["simulate", str(setup), "--system", "intrigue", "--runs", "5"])
    assert result.exit_code == 0, result.output
    assert "ann" in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nowhere.yaml"], "no file"),
        (["{ex}", "--runs", "0"], "--runs 0"),
        (["{ex}", "--exact-seconds", "0"], "--exact-seconds 0"),
        (["{ex}", "--exact-seconds", "601"], "--exact-seconds 601"),
        (["{ex}", "--policy", "clever"], "--policy 'clever'"),
        (["{ex}", "--plot", "chart.svg"], ".png"),
        (["{ex}", "--as", "nobody"], "no seat 'nobody'"),
        (["{setup}"], "--system"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], says: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    setup = tmp_path / "bare.yaml"
    setup.write_text("characters: {}\n")
    ex = str(EXAMPLES / "ginlane/duel.yaml")
    argv = ["simulate", *(a.format(ex=ex, setup=setup) for a in args)]
    result = runner.invoke(app, argv)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines() or capfd.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert says in lines[0]


def test_the_exact_model_gives_up_when_told(tmp_path: Path) -> None:
    """``--exact-seconds``: the two-pursuer chase is too large to solve in a moment; told to
    give up after one second, it says so beside the simulation."""
    chase = str(EXAMPLES / "zweihander/chase-takedown.yaml")
    argv = ["simulate", chase, "--runs", "5", "--exact-seconds", "1", "--json"]
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["exact"] is None
    assert "more than the 1 s given: too large" in answer["exact_reason"]
