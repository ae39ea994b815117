"""`referee ginlane ...` end to end: odds first, rolls, sheets, fights; bad input exits 2."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli.ginlane import register

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ginlane"
app = typer.Typer()
register(app)
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["ginlane", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_roll_shows_exact_odds_then_the_roll() -> None:
    code, out, _ = run("roll", "2", "--vs", "Great", "--tags", "1", "--seed", "3")
    assert code == 0
    assert "success 49/72" in out and "rolled:" in out
    assert out.index("success 49/72") < out.index("rolled:")


def test_roll_json_and_opposed_option_b() -> None:
    code, out, _ = run(
        "roll", "1", "--against", "2", "--mode", "b", "--tags", "1", "--seed", "5", "--json"
    )
    data = json.loads(out)
    assert code == 0 and set(data) == {"odds", "result"}
    assert sum(Fraction(p) for p in data["odds"]["outcomes"].values()) == 1


def test_odds_table_both_options() -> None:
    code, out, _ = run("odds", "1", "--vs", "9", "--json")
    rows = json.loads(out)
    assert code == 0 and rows[0] == {"tags": 0, "a": "5/18", "b": "5/18", "a_match": "5/36"}
    assert rows[1]["a"] == "113/216" and rows[1]["b"] == "41/72"


def test_ladder() -> None:
    code, out, _ = run("ladder")
    assert code == 0 and "Heroic" in out and "Near Perfect" in out


def test_bad_input_is_one_line_and_exit_2() -> None:
    for args in (
        ("roll", "2", "--vs", "Tricky"),
        ("roll", "2"),
        ("roll", "2", "--vs", "8", "--mode", "c"),
        ("odds", "2", "--vs", "8", "--max-tags", "9"),
        ("sheet", "no-such-file.yaml"),
        ("fight", "no-such-file.yaml"),
    ):
        code, _, err = run(*args)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, args


def test_sheet_checked() -> None:
    code, out, _ = run("sheet", str(EXAMPLES / "sheets" / "moll.yaml"))
    assert code == 0 and "a legal sheet" in out and "Health 6" in out
    code, out, _ = run("sheet", str(EXAMPLES / "sheets" / "broken.yaml"), "--json")
    data = json.loads(out)
    assert code == 1
    assert any(p.startswith("The Skill Pyramid") for p in data["problems"])
    assert any(p.startswith("Aspects") for p in data["problems"])
    assert any(p.startswith("Languages") for p in data["problems"])


def test_fight_turn_by_turn() -> None:
    code, out, _ = run("fight", str(EXAMPLES / "duel.yaml"))
    assert code == 0
    assert "attack.match" in out and "TAKEN OUT" in out
    code, out, _ = run("fight", str(EXAMPLES / "duel.yaml"), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[-1]["state"]["characters"]["jack"]["taken_out"] is True


def test_fight_refused_step_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "system: ginlane\nsetup: {characters: {a: {}, b: {}}}\ndice: {script: [2, 2, 1, 1]}\n"
        "actions:\n  - {actor: referee, action: initiative}\n"
        "  - {actor: a, action: attack, params: {target: nobody}}\n",
        encoding="utf-8",
    )
    code, _, err = run("fight", str(bad))
    assert code == 2 and "no character 'nobody'" in err


@pytest.mark.parametrize(
    "body",
    [
        "experience: abc",
        "experience: 2.5",
        "aspects: 5",
        "aspects: null",
        "aspects: Macaroni",
        "languages: 3",
        "free_aspects: null",
        "possessions: {a: 1}",
    ],
)
def test_sheet_with_a_bad_field_is_one_line_exit_2(tmp_path: Path, body: str) -> None:
    sheet = tmp_path / "bad.yaml"
    sheet.write_text(f"name: X\nskills: {{Weapons: 1}}\n{body}\n", encoding="utf-8")
    code, out, err = run("sheet", str(sheet))
    assert code == 2, out
    assert len(err.strip().splitlines()) == 1 and body.split(":")[0] in err
