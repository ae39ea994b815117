"""``referee run`` and ``referee schema`` end to end, with golden JSON for the toy procedure."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli.scenario import register

from . import toy_procedure  # noqa: F401  (registers the system "kernel_toy")

HERE = Path(__file__).parent
TOY = HERE / "scenarios" / "toy.yaml"
GOLDEN = HERE / "golden"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"

app = typer.Typer()
register(app)
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("viewer", ["referee", "public", "alice", "scarface", "krockin"])
def test_toy_scenario_golden_json(viewer: str) -> None:
    code, out, err = run("run", str(TOY), "--as", viewer, "--json")
    assert code == 0, err
    data = json.loads(out)
    golden = GOLDEN / f"toy.{viewer}.json"
    if UPDATE:
        golden.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert data == json.loads(golden.read_text(encoding="utf-8"))


def test_views_differ_as_the_audiences_say() -> None:
    seen = {}
    for viewer in ("referee", "public", "alice", "scarface", "krockin"):
        seen[viewer] = run("run", str(TOY), "--as", viewer, "--json")[1]
    assert "Krockin is a Guild spy" in seen["referee"]
    assert "Krockin is a Guild spy" in seen["scarface"]
    assert "Krockin is a Guild spy" in seen["alice"]  # alice plays scarface
    assert "Krockin is a Guild spy" not in seen["krockin"]
    assert "Krockin is a Guild spy" not in seen["public"]
    assert "suspects Scarface" in seen["referee"]
    assert all("suspects Scarface" not in seen[v] for v in ("public", "alice", "krockin"))
    assert "actual" not in seen["public"]


def test_narration_prints_events_and_expectations() -> None:
    code, out, _ = run("run", str(TOY), "--as", "krockin")
    assert code == 0
    assert "slips.revealed" in out
    assert "hidden: maneuver" in out
    assert "✓ expect.0" in out
    assert "Krockin is a Guild spy" not in out


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = "system: kernel_toy\ndice: {script: [6, 6, 6, 1, 1]}\n"


def test_failed_expectation_exits_1_naming_it(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "expect:\n  - {path: characters.scarface.wounds, equals: 3}\n")
    code, out, err = run("run", str(path))
    assert code == 1
    assert "expect.0 failed: characters.scarface.wounds equals 3 (got 0)" in err
    assert "✗ expect.0" in out


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("system: kernel_toy\ndice: {sead: 1}\n", "dice.sead"),
        ("system: kernel_toy\ndice: {seed: 1, script: [1]}\n", "dice"),
        ("system: kernel_toy\n", "dice"),
        (BASE + "actions:\n  - {actor: a, action: b, at: 'nine'}\n", "actions.0.at"),
        (BASE + "actions:\n  - {actor: a}\n", "actions.0"),
        (BASE + "actions:\n  - {actor: a, action: b, parms: {}}\n", "actions.0.parms"),
        (BASE + "expect:\n  - {path: x}\n", "expect.0"),
        (BASE + "expect:\n  - {event: x, count: -1}\n", "expect.0.count"),
        (BASE + "start: '25:99'\n", "start"),
        ("system: no_such_game\ndice: {seed: 1}\n", "system"),
        (
            BASE + "setup: {characters: {scarface: {skill: lots}, krockin: {}}}\n",
            "setup.characters.scarface.skill",
        ),
        ("- a list\n", "a scenario is a mapping"),
        ("system: [unclosed\n", "line"),
    ],
)
def test_bad_file_exits_2_naming_the_path(tmp_path: Path, text: str, path: str) -> None:
    file = write(tmp_path, text)
    code, out, err = run("run", str(file))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert path in err
    assert "Traceback" not in err + out


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("run", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "cannot read" in err


def test_refused_action_exits_2_naming_the_step_and_rule(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        BASE
        + "actions:\n"
        + "  - {actor: scarface, action: perceive, params: {target: krockin}}\n"
        + "  - {actor: scarface, action: perceive, params: {target: krockin}, at: '+10m'}\n",
    )
    code, _, err = run("run", str(file))
    assert code == 2
    assert "actions.1" in err and "step 1 (scarface: perceive)" in err
    assert "Toy: perception cooldown" in err


def test_dice_script_running_out_exits_2(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        "system: kernel_toy\ndice: {script: [1]}\n"
        "actions:\n  - {actor: scarface, action: attack, params: {target: krockin}}\n",
    )
    code, _, err = run("run", str(file))
    assert code == 2
    assert "actions.0" in err and "ran out" in err


def test_time_going_back_exits_2(tmp_path: Path) -> None:
    file = write(tmp_path, BASE + "actions:\n  - {at: '01:00'}\n  - {at: 60}\n")
    code, _, err = run("run", str(file))
    assert code == 2 and "actions.1" in err and "cannot go back" in err


def test_seeded_dice_are_reproducible(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        "system: kernel_toy\ndice: {seed: 42}\nactions:\n"
        + "  - {actor: scarface, action: attack, params: {target: krockin}}\n" * 3,
    )
    first = run("run", str(file), "--json")
    assert first[0] == 0
    assert first == run("run", str(file), "--json")


def test_schema_is_json_schema_of_scenarios() -> None:
    code, out, _ = run("schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["title"] == "Referee scenario"
    assert {"system", "setup", "dice", "actions", "expect"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"system", "dice"}


def test_the_referee_app_has_run_and_schema() -> None:
    from referee.cli import app as referee_app

    result = runner.invoke(referee_app, ["run", str(TOY), "--as", "public", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["viewer"] == "public"
    assert runner.invoke(referee_app, ["schema"]).exit_code == 0


@pytest.mark.parametrize("viewer", ["public", "alice", "scarface", "krockin"])
def test_only_the_referee_reads_what_an_expectation_says(viewer: str) -> None:
    # An expectation may quote a secret (the toy's quotes the revealed slips): other viewers
    # learn only whether it held, in JSON and in the narration.
    code, out, _ = run("run", str(TOY), "--as", viewer, "--json")
    assert code == 0
    for expectation in json.loads(out)["expectations"]:
        assert set(expectation) == {"expect", "passed"}
    code, out, _ = run("run", str(TOY), "--as", viewer)
    assert code == 0
    assert "feint" not in out.split("expect.0")[1]
    assert "expect.1: checked" in out
    code, out, _ = run("run", str(TOY), "--as", "referee")
    assert "expect.1: revealed equals" in out
