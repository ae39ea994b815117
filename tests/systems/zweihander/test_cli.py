"""`referee zweihander ...` end to end: output for good input, one line and status 2 for bad."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli import build_app

FILES = Path(__file__).parents[3] / "examples" / "zweihander" / "cli"

app: typer.Typer = build_app(("table", "zweihander"))
runner = CliRunner()


def referee(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def run(*args: str) -> tuple[int, str, str]:
    return referee("zweihander", *args)


def new_table(tmp_path: Path, setup: Path | str, name: str = "table.json") -> Path:
    record = tmp_path / name
    if isinstance(setup, str):
        file = tmp_path / f"{name}.setup.yaml"
        file.write_text(setup, encoding="utf-8")
        setup = file
    code, _, err = referee("table", "new", "zweihander", str(setup), "--out", str(record))
    assert code == 0, err
    return record


def start_chase(record: Path, *params: str) -> None:
    code, _, err = referee(
        "table", "act", str(record), "--as", "referee", "chase.start", *params, "--seed", "1"
    )
    assert code == 0, err


def test_test_shows_exact_odds_and_the_roll() -> None:
    code, out, _ = run("test", "45", "-d", "Hard", "--face", "22")
    assert code == 0
    assert "Total Chance 25%" in out
    assert "critical success      3/100" in out
    assert "critical failure       2/25" in out
    assert "critical success" in out.splitlines()[-1]


def test_test_with_an_assist_die() -> None:
    code, out, _ = run("test", "40", "--assist", "--face", "57", "--face", "3")
    assert code == 0 and "→ 37: success" in out


def test_odds_only_rolls_nothing() -> None:
    code, out, _ = run("test", "120", "--odds")
    assert code == 0 and "99/100" in out and "Rolled" not in out


@pytest.mark.parametrize(
    "args",
    [
        ("test", "45", "-d", "Impossible"),
        ("test", "45", "--face", "101"),
        ("test", "45", "--face", "40", "--face", "3"),
        ("test", "45", "--assist", "--face", "40"),
        ("chase", "no-such-file.json", "--as", "referee"),
        ("chase", "no-such-file.json"),
        ("travel", "100", "-t", "carriage", "-r", "path"),
        ("requisitions", "gigantic"),
        ("corruption", "--corruption", "5", "--face", "11"),
        ("lists", "recipes"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: tuple[str, ...]) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ("test", "9" * 5000),
        ("test", "1001"),
        ("travel", "9" * 30),
        ("travel", "100", "--current", "11"),
        ("corruption", "--corruption", "9" * 5000),
        ("chase", "--as"),
        ("journey",),
    ],
)
def test_bad_usage_is_one_line_and_status_2_from_the_script(args: tuple[str, ...]) -> None:
    script = Path(sys.executable).with_name("referee")
    done = subprocess.run(
        [str(script), "zweihander", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_chase_plays_the_chase_in_a_table_record_to_its_end(tmp_path: Path) -> None:
    record = new_table(tmp_path, FILES / "chase.yaml")
    start_chase(
        record,
        "escapees={cutpurse: on foot}",
        "pursuers=[watchman, hound]",
        "head_start=escapees",
        "escape_condition=6",
        "takedown=darkness of night",
    )
    code, out, err = run("chase", str(record), "--as", "referee", "--seed", "7")
    assert code == 0, err
    assert "Cutpurse rolls" in out and "The chase ends" in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["system"] == "zweihander" and data["version"] == len(data["events"])
    kinds = [a["kind"] for a in data["actions"]]
    assert kinds[0] == "chase.start" and "chase.move" in kinds and "chase.end_round" in kinds
    assert {a["seat"] for a in data["actions"]} == {"referee"}
    # the record is a table like any other: referee table reads it back and shows it
    code, out, _ = referee("table", "show", str(record), "--as", "watchman")
    assert code == 0 and "version" in out
    code, _, err = run("chase", str(record), "--as", "referee")
    assert (code == 2 and "no chase is under way" in err) or "has ended" in err


def test_only_the_referee_plays_a_chase_out(tmp_path: Path) -> None:
    record = new_table(tmp_path, FILES / "chase.yaml")
    start_chase(record, "escapees=[cutpurse]", "pursuers=[hound]")
    before = record.read_text(encoding="utf-8")
    code, _, err = run("chase", str(record), "--as", "hound")
    assert code == 2 and "only the referee" in err
    code, _, err = run("chase", str(record), "--as", "nobody")
    assert code == 2 and "no seat 'nobody'" in err
    assert record.read_text(encoding="utf-8") == before


def test_journey_travels_the_journey_in_a_table_record(tmp_path: Path) -> None:
    record = new_table(tmp_path, FILES / "route.yaml")
    code, out, err = run(
        "journey",
        str(record),
        "--as",
        "referee",
        "--seed",
        "3",
        "--camp",
        "--award-fortune",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    kinds = [e["kind"] for e in data["events"]]
    assert kinds.count("journey.stretch_ended") == 2 and kinds[-1] == "journey.ended"
    assert kinds.count("journey.camp") == 2
    assert data["events"][-1]["payload"]["fortune_points"] == len(
        data["events"][-1]["payload"]["survivors"]
    )


def test_a_record_of_another_game_or_a_bad_record_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not utf-8")
    code, _, err = run("chase", str(bad), "--as", "referee")
    assert code == 2 and "not UTF-8" in err
    bad.write_text("[" * 5000, encoding="utf-8")
    code, _, err = run("journey", str(bad), "--as", "referee")
    assert code == 2 and len(err.strip().splitlines()) == 1
    bad.write_text('{"system": "zweihander", "setup": {"charakters": {}}}', encoding="utf-8")
    code, _, err = run("journey", str(bad), "--as", "referee")
    assert code == 2 and "charakters" in err


def test_corruption_roll() -> None:
    code, out, _ = run("corruption", "--corruption", "14", "--chaos", "2", "--face", "3")
    assert code == 0 and "+2 Chaos" in out and "Chaos 4" in out


def test_travel_and_requisitions() -> None:
    code, out, _ = run("travel", "100", "-t", "horse", "-r", "road")
    assert code == 0 and "40 miles per day: 3 days" in out
    code, out, _ = run("requisitions", "major")
    assert code == 0 and "Get out of jail for free" in out and "7-9 points" in out


@pytest.mark.parametrize(
    ("which", "line"),
    [
        ("situations", "- A Character's lantern winks out"),
        ("offences", "  - Bleeding (1/turn)"),
        ("disorders", "  - Soldier's heart"),
    ],
)
def test_reference_lists(which: str, line: str) -> None:
    code, out, _ = run("lists", which)
    assert code == 0 and line.replace("'", "’") in out.replace("'", "’")


def test_route_of_several_legs(tmp_path: Path) -> None:
    code, out, _ = run("route", str(FILES / "overland.yaml"))
    assert code == 0
    assert "1. 120 miles by road, horse: 40 mpd, 3 days" in out
    assert "2. 45 miles by path, human: 18 mpd, 3 days (forced march" in out
    assert "3. 90 miles by sea, cog: 25 mpd, 4 days (Pilot Test" in out
    assert "Total: 315 miles in 12 days" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("legs: [{distance: 10, transport: carriage, route: path}]\n")
    code, _, err = run("route", str(bad))
    assert code == 2 and "legs.0" in err
    bad.write_text("legs: [{distance: 10, transport: horse, forced_march: 'false'}]\n")
    code, _, err = run("route", str(bad))
    assert code == 2 and "legs.0.forced_march" in err


def test_a_chase_with_many_participants_is_played_to_its_end(tmp_path: Path) -> None:
    sheet = "{bonuses: {AB: 3, BB: 9, PB: 3}, skills: {Coordination: 1, Toughness: 99}}"
    names = [f"c{i}" for i in range(24)]
    record = new_table(tmp_path, "characters:\n" + "".join(f"  {n}: {sheet}\n" for n in names))
    start_chase(
        record, f"escapees=[{names[0]}]", f"pursuers=[{', '.join(names[1:])}]", "escape_condition=9"
    )
    code, out, _ = run("chase", str(record), "--as", "referee", "--seed", "5")
    assert code == 0 and "The chase ends" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("test", "45", "--face", "101"), "101 cannot come up on a d100"),
        (("test", "45", "--assist", "--face", "40", "--face", "11"), "11 cannot come up on a d10"),
        (("corruption", "--corruption", "5", "--face", "11"), "11 cannot come up on a d10"),
    ],
)
def test_a_bad_face_is_refused_before_anything_is_printed(
    args: tuple[str, ...], message: str
) -> None:
    """Audit B1, B2: the refusal comes first, not after the odds."""
    code, out, err = run(*args)
    assert code == 2 and out == "" and message in err


def test_a_negative_distance_is_refused_as_a_distance() -> None:
    """Audit B3: '-5' is a distance out of range, not an unknown option."""
    script = Path(sys.executable).with_name("referee")
    done = subprocess.run(
        [str(script), "zweihander", "travel", "-5"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "'miles': -5 is not in the range" in done.stderr
