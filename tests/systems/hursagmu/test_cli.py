"""`referee hursagmu ...`: the round planner, encounters, odds and range; bad input exits 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.table import read_table
from referee.systems.hursagmu.state import on_turn

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "hursagmu"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["hursagmu", *args])
    return result.exit_code, result.stdout, result.stderr


def test_plan_shows_initiatives_penalty_and_odds() -> None:
    code, out, _ = run(
        "plan",
        "defend",
        "attack:fred",
        "attack:fred",
        "--initiative",
        "12",
        "--dex",
        "2",
        "--skill",
        "striking=5",
        "--skill",
        "defense=6",
        "--against",
        "6",
    )
    assert code == 0
    assert "skill penalty -4" in out
    for initiative in ("12", "10", "8"):
        assert f"│ {initiative} " in out
    assert "2d6+3" in out and "2d6+4" in out
    assert "155/648" in out  # exact odds: 2d6+3 against 2d6+6, ties to the attacker


def test_plan_movement_and_haste() -> None:
    code, out, _ = run(
        "plan",
        "move:stand",
        "move:foot:16",
        "move:leap",
        "attack:foe",
        "defend",
        "--initiative",
        "11",
    )
    assert code == 0 and "movement actions 4" in out and "skill penalty -2" in out
    assert "│ 3 " in out
    code, out, _ = run("plan", "haste", "haste", "haste", "attack:x", "--initiative", "11")
    assert code == 0 and "│ 17 " in out and "skill penalty -6" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("plan", "fly"), "step 'fly': not a step"),
        (("plan", "move:foot:lots"), "expected a whole number"),
        (("plan", "move:foot:60"), "up to 4"),
        (("plan", "attack:x", "--stance", "dance"), "--stance 'dance'"),
        (("plan", "task:mahasu:9"), "cannot use the Intelligence skill"),
        (("plan", "attack:x", "--skill", "luck"), "expected NAME=LEVEL"),
        (("plan", "attack:x", "--skill", "juggling=3"), "no skill 'juggling'"),
        (("odds", "5"), "exactly one of"),
        (("range", "25", "sling"), "no range increment for 'sling'"),
        (("range", "-5", "missile weapon"), "a distance cannot be negative"),
        (("plan", "move:foot:10:9:extra"), "1 field(s) too many"),
        (("plan", "haste:3"), "1 field(s) too many"),
        (("standing", "/nonexistent.json", "--as", "bob"), "/nonexistent.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_odds_and_range() -> None:
    code, out, _ = run("odds", "7", "--challenge", "14")
    assert code == 0 and "7/12" in out
    code, out, _ = run("odds", "2", "--against", "2")
    assert code == 0 and "721/1296" in out
    code, out, _ = run("range", "25", "missile weapon")
    assert code == 0 and "challenge +2" in out


def new_table(tmp_path: Path, scenario: str = "bob-against-fred") -> Path:
    record = tmp_path / "table.json"
    result = runner.invoke(
        app, ["table", "new", "hursagmu", str(EXAMPLES / f"{scenario}.yaml"), "--out", str(record)]
    )
    assert result.exit_code == 0, result.stderr
    return record


def table_act(record: Path, seat: str, *words: str) -> None:
    result = runner.invoke(app, ["table", "act", str(record), "--as", seat, *words])
    assert result.exit_code == 0, result.stderr


def test_standing_of_a_table_record(tmp_path: Path) -> None:
    record = new_table(tmp_path)
    table_act(record, "bob", "initiative", "stance=maneuver")
    table_act(record, "fred", "initiative", "stance=maneuver")
    table_act(record, "fred", "declare", 'actions=[{"attack": "bob"}, {"defend": true}]')
    code, out, _ = run("standing", str(record), "--as", "bob")
    assert code == 0, out
    assert "Round 1, action phase" in out and "20/20" in out and "25/25" in out
    # fred's two major actions: -2 to each skill, the defence two Initiatives after the attack
    assert "-2" in out and "attack@" in out and "defend@" in out
    assert "Fred declares: attack bob (striking); defend (defense)" in out
    table_act(record, "bob", "declare", 'actions=[{"attack": "fred"}, {"defend": true}]')
    first = on_turn(read_table(record).state)[0]  # the Initiatives were rolled at random
    other = "fred" if first == "bob" else "bob"
    table_act(record, first, "act")
    code, out, _ = run("standing", str(record), "--as", other)
    assert f"pending: {first}'s striking attack on {other}, who defends or takes it" in out
    assert "✓attack@" in out and f"to move: {other}" in out


def test_standing_keeps_a_sneak_from_the_other_seats(tmp_path: Path) -> None:
    record = new_table(tmp_path, "thief-and-sleeper")
    table_act(record, "alice", "sneak", "perceiver=guard", "skill=stealth")
    _, as_alice, _ = run("standing", str(record), "--as", "alice")
    _, as_bruno, _ = run("standing", str(record), "--as", "bruno")
    assert "Thief uses stealth on Guard" in as_alice
    assert "stealth" not in as_bruno and "guard:" not in as_bruno


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not text", "not UTF-8"),
        (b"[" * 5000 + b"]" * 5000, "deep"),
        (b'{"version": ' + b"9" * 5000 + b"}", "digits"),
        (
            b'{"system": "hursagmu", "format": "referee.table/1", "setup": {"characters": '
            b'{"bob": {"dexterty": 2}}}, "seats": [], "start": "00:00", "actions": [], '
            b'"events": []}',
            "dexterty",
        ),
        (
            b'{"system": "hursagmu", "format": "referee.table/1", "setup": {"characters": '
            b'{"bob": {"dexterity": "two"}}}, "seats": [], "start": "00:00", "actions": [], '
            b'"events": []}',
            "dexterity",
        ),
        (b'{"system": "hursagmu"}', "format"),
        (b'{"system": "this.x"}', "no game system 'this.x'"),
        (b"[1, 2]", "a table record is a mapping"),
    ],
)
def test_standing_refuses_a_bad_record_in_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    record = tmp_path / "bad.json"
    record.write_bytes(content)
    code, out, err = run("standing", str(record), "--as", "bob")
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ("plan", "attack:x", "--initiative", "lots"),
        ("odds", "9" * 5000, "--challenge", "3"),
        ("range", "ten", "vision"),
        ("standing", "table.json"),
    ],
)
def test_usage_errors_are_one_line_from_the_command_line(args: tuple[str, ...]) -> None:
    referee = Path(sys.executable).with_name("referee")
    done = subprocess.run(
        [str(referee), "hursagmu", *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_standing_refuses_a_table_of_another_game(tmp_path: Path) -> None:
    record = tmp_path / "intrigue.json"
    result = runner.invoke(
        app,
        [
            "table",
            "new",
            "intrigue",
            str(EXAMPLES.parent / "intrigue" / "lady-rich.yaml"),
            "--out",
            str(record),
        ],
    )
    if result.exit_code != 0:
        pytest.skip(f"no intrigue example to start a table from: {result.stderr}")
    code, _, err = run("standing", str(record), "--as", "referee")
    assert code == 2 and "not 'hursagmu'" in err


def test_plan_shows_the_odds_of_a_required_acrobatics_roll() -> None:
    code, out, _ = run(
        "plan", "move:foot:16:9", "attack:x", "--dex", "2", "--skill", "acrobatics=1"
    )
    assert code == 0 and "acrobatics ≥ 9" in out and "13/18" in out


def test_plan_refuses_a_leap_beyond_maximum_lift() -> None:
    # "a standing long jump for a number of yards equal to his Maximum lift / 50": 2 yards.
    code, out, err = run("plan", "move:leap:9", "--max-lift", "100")
    assert code == 2 and out == ""
    assert "long jump reaches 2 yards" in err and len(err.strip().splitlines()) == 1
    code, _, _ = run("plan", "move:foot:6", "move:leap:4", "--max-lift", "100")
    assert code == 0  # a running start doubles it


def test_plan_checks_a_ranged_attacks_range_table_entry() -> None:
    code, out, err = run("plan", "attack:fred::30:bow")
    assert code == 2 and out == "" and "no range increment for 'bow'" in err
    # Without an opponent the attack is an unopposed roll against the range challenge.
    code, out, _ = run("plan", "attack:fred:missile:25:missile weapon", "--dex", "1")
    assert code == 0 and "2d6+1" in out and "≥ 2" in out and "100.0%" in out


@pytest.mark.parametrize("step", ["defend:striking", "attack:fred:luck", "task:luck:9"])
def test_plan_refuses_unknown_skills_and_non_defences(step: str) -> None:
    code, out, err = run("plan", step)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"step {step!r}" in err


def test_plan_reads_a_weapon_type_and_a_separate_attacker() -> None:
    # A missile attack names no range table entry: the weapon type gives it (audit F4).
    code, out, _ = run("plan", "attack:fred:missile:25", "--weapon-type", "missile weapon")
    assert code == 0 and "≥ 2" in out
    code, _, err = run("plan", "attack:fred:missile:25")
    assert code == 2 and "names its range table entry" in err
    code, _, err = run("plan", "attack:x", "--weapon-type", "sling")
    assert code == 2 and "--weapon-type 'sling'" in err
    # The defence holds against the attacker's own bonus, the attack against --against.
    code, out, _ = run(
        "plan",
        "defend",
        "attack:fred",
        "--against",
        "6",
        "--attacker",
        "9",
        "--dex",
        "2",
        "--skill",
        "defense=6",
        "--skill",
        "striking=5",
    )
    assert code == 0 and "103/648" in out and "575/1296" in out


def test_plan_applies_each_range_challenge_to_the_step_typed_at_that_place() -> None:
    """Range, Haste (issue 28's suspected bug): the planner looks a step's range challenge up
    by the place it was typed and shows it on that same step. Haste first (no Initiative of
    its own), a melee strike, then an arrow at 25 yards ("Between twenty and thirty yards, it
    is 2"): the strike is ≥ 0, the arrow ≥ 2 — the rows are in the order typed, which is the
    Initiative order (Initiatives never rise: "each action after the first happens at an
    Initiative two lower")."""
    code, out, _ = run(
        "plan",
        "haste",
        "attack:fred",
        "attack:fred:missile:25:missile weapon",
        "--initiative",
        "10",
        "--weapon-type",
        "missile weapon",
    )
    assert code == 0, out
    rows = [line for line in out.splitlines() if line.startswith("│ 2 ") or line.startswith("│ 3 ")]
    strike, arrow = rows
    assert "attack fred (striking)" in strike and "│ 12 " in strike and "≥ 0" in strike
    assert "attack fred (missile)" in arrow and "│ 10 " in arrow and "≥ 2" in arrow
