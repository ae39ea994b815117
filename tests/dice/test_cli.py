"""``referee roll``, ``referee odds`` and ``referee demo`` from the outside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

runner = CliRunner()


def test_roll_json_has_the_total_and_every_die() -> None:
    result = runner.invoke(app, ["roll", "4d6kh3", "--seed", "1", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["expression"] == "4d6kh3"
    kept = [d["face"] for d in data["dice"] if d["status"] == "kept"]
    dropped = [d for d in data["dice"] if d["status"] == "dropped"]
    assert len(data["dice"]) == 4 and len(dropped) == 1
    assert data["total"] == sum(kept)
    assert min(d["face"] for d in data["dice"]) == dropped[0]["face"]


def test_roll_json_marks_explosions_and_rerolls() -> None:
    data = json.loads(runner.invoke(app, ["roll", "20d6!r1", "--seed", "5", "--json"]).stdout)
    statuses = {d["status"] for d in data["dice"]}
    assert "rerolled" in statuses
    assert any(d["exploded"] for d in data["dice"])
    assert all(d["face"] != 1 for d in data["dice"] if d["status"] == "kept")


def test_dice_of_a_dropped_set_item_are_dropped() -> None:
    data = json.loads(runner.invoke(app, ["roll", "(1d4, 2+2)kh1", "--seed", "1", "--json"]).stdout)
    assert data["total"] == 4
    assert [d["status"] for d in data["dice"]] == ["dropped"]


def test_many_small_dice_still_have_exact_odds() -> None:
    data = json.loads(runner.invoke(app, ["odds", "1000d2", "--json"]).stdout)
    assert data["distribution"][0] == [1000, f"1/{2**1000}"]
    assert data["mean"] == "1500/1"


def test_roll_comparison_total_is_a_boolean() -> None:
    data = json.loads(runner.invoke(app, ["roll", "3d6+2>=14", "--seed", "3", "--json"]).stdout)
    assert data["total"] in (True, False)


def test_roll_plain_output_strikes_dropped_dice() -> None:
    result = runner.invoke(app, ["roll", "4d6kh3", "--seed", "1"])
    assert result.exit_code == 0
    assert "~~" in result.stdout and result.stdout.strip().endswith("= 13")


def test_same_seed_same_roll() -> None:
    first = runner.invoke(app, ["roll", "10d10", "--seed", "42", "--json"]).stdout
    assert first == runner.invoke(app, ["roll", "10d10", "--seed", "42", "--json"]).stdout


def test_odds_json_shape() -> None:
    result = runner.invoke(app, ["odds", "(2d6)>=7", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["expression"] == "(2d6)>=7"
    assert data["distribution"] == [[False, "5/12"], [True, "7/12"]]
    assert data["mean"] == "7/12"
    assert data["truncated"] == "0"


def test_odds_json_reports_truncation_of_explosions() -> None:
    data = json.loads(runner.invoke(app, ["odds", "3d6!", "--json"]).stdout)
    numerator, denominator = (int(x) for x in data["truncated"].split("/"))
    assert 0 < numerator / denominator < 1e-11
    outcomes = [o for o, _ in data["distribution"]]
    assert outcomes == sorted(outcomes)


def test_odds_table() -> None:
    result = runner.invoke(app, ["odds", "2d6"])
    assert result.exit_code == 0
    assert "1/6" in result.stdout and "At least" in result.stdout and "mean 7" in result.stdout


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_odds_plot(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"odds{suffix}"
    result = runner.invoke(app, ["odds", "3d6", "--plot", str(target)])
    assert result.exit_code == 0
    assert target.stat().st_size > 1000


BAD = [
    (["roll", "3d"], "unexpected end of expression"),
    (["odds", "d0"], "at least one side"),
    (["roll", "1000000d1000000"], "more than the 1000"),
    (["odds", "1000000d1000000"], "more than the 1000"),
    (["roll", "(" * 500 + "1" + ")" * 500], "nested more than 50"),
    (["odds", "(" * 500 + "1" + ")" * 500], "nested more than 50"),
    (["roll", "1d20rr<21"], "never ends"),
    (["roll", "10/0"], "division by zero"),
    (["odds", "10/(d2-1)"], "division by zero"),
    (["odds", "3d6", "--plot", "out.txt"], "must end in .png or .svg"),
    (["odds", "1000d6"], "takes too long"),
    (["odds", "500d6!"], "takes too long"),
    (["odds", "(300d6)+(300d6)"], "takes too long"),
    (["odds", "d10000e>1"], "more than 1000 dice deep"),
    (["odds", "4d1000kh3"], "more than 500 possible faces"),
    (["roll", "4d6dlh1"], "at position 4"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_is_one_clear_line_and_status_two(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in result.output


def test_demo_runs_every_step() -> None:
    result = runner.invoke(app, ["demo", "--seed", "7"])
    assert result.exit_code == 0
    steps = [line for line in result.stdout.splitlines() if line.startswith("referee roll '")]
    assert len(steps) == 5
    assert "exact chance of success: 5/8" in result.stdout


def test_main_loads_only_the_module_of_the_command_asked_for() -> None:
    from referee.cli import MODULES, _module_for
    from referee.core.registry import system, systems

    assert _module_for(["roll", "3d6"]) == "dice"
    assert _module_for(["--help"]) is None
    assert _module_for(["kingdoms", "matrix"]) == "kingdoms"
    # each game's command group, named as the game, comes through the registry
    games = [name for name in systems() if system(name).commands]
    commands = [c for names in MODULES.values() for c in names] + games
    assert len(commands) == len(set(commands))
    registered = {c.name for c in app.registered_commands} | {g.name for g in app.registered_groups}
    assert registered == set(commands)
