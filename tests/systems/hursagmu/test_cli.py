"""`referee hursagmu ...`: the round planner, encounters, odds and range; bad input exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "hursagmu"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["hursagmu", *args])
    return result.exit_code, result.stdout, result.stderr


def test_plan_shows_initiatives_penalty_and_odds() -> None:
    code, out, _ = run("plan", "defend", "attack:fred", "attack:fred", "--initiative", "12",
                       "--dex", "2", "--skill", "striking=5", "--skill", "defense=6",
                       "--against", "6")
    assert code == 0
    assert "skill penalty -4" in out
    for initiative in ("12", "10", "8"):
        assert f"│ {initiative} " in out
    assert "2d6+3" in out and "2d6+4" in out
    assert "155/648" in out  # exact odds: 2d6+3 against 2d6+6, ties to the attacker


def test_plan_movement_and_haste() -> None:
    code, out, _ = run("plan", "move:stand", "move:foot:16", "move:leap", "attack:foe",
                       "defend", "--initiative", "11")
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
        (("encounter", "/nonexistent.yaml"), "cannot read"),
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


def test_encounter_round_by_round() -> None:
    code, out, _ = run("encounter", str(EXAMPLES / "bob-against-fred.yaml"))
    assert code == 0
    assert "Round 1" in out and "End of round 1" in out and "Round 2" in out
    assert "✗" not in out


def test_encounter_hides_secrets_from_players() -> None:
    code, out, _ = run("encounter", str(EXAMPLES / "thief-and-sleeper.yaml"), "--as", "cook")
    assert code == 0
    assert "stealth.rolled" not in out and "perception.rolled" not in out


def test_plan_shows_the_odds_of_a_required_acrobatics_roll() -> None:
    code, out, _ = run("plan", "move:foot:16:9", "attack:x", "--dex", "2",
                       "--skill", "acrobatics=1")
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
