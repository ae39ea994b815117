"""`referee ginlane ...` end to end: odds first, rolls, sheets, fights; bad input exits 2."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app as root

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ginlane"
runner = CliRunner()
main = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(root, ["ginlane", *args])
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
        ("roll", "99999999999999999999", "--vs", "8"),
        ("roll", "2", "--vs", "8", "--tags", "99999999999999"),
        ("roll", "2", "--vs", "8", "--tags", "1", "--free", "5"),
        ("roll", "2", "--against", "-99999999999"),
        ("odds", "99999999999999999999", "--vs", "8"),
        ("odds", "2", "--vs", "99999999999999999999999"),
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


def test_a_fight_is_played_step_by_step_with_referee_table(tmp_path: Path) -> None:
    """The old ``ginlane fight`` replayed a scenario file of its own; a fight is now a table
    record played with ``referee table`` and narrated by the game's event vocabulary."""
    record = tmp_path / "duel.json"
    setup = str(EXAMPLES / "duel.yaml")
    result = main.invoke(root, ["table", "new", "ginlane", setup, "--out", str(record)])
    assert result.exit_code == 0, result.stderr
    assert "seat moll plays moll" in result.stdout
    act = ["table", "act", str(record), "--as", "referee", "initiative", "--seed", "2"]
    result = main.invoke(root, act)
    assert result.exit_code == 0, result.stderr
    assert "Initiative:" in result.stdout and "goes first" in result.stdout
    events = json.loads(record.read_text())["events"]
    first = next(e for e in events if "order" in e["payload"])["payload"]["order"][0]
    other = "jack" if first == "moll" else "moll"
    result = main.invoke(root, ["table", "actions", str(record), "--as", first])
    assert result.exit_code == 0 and f'target = "{other}"' in result.stdout
    result = main.invoke(
        root,
        ["table", "act", str(record), "--as", first, "attack", f"target={other}", "--seed", "1"],
    )
    assert result.exit_code == 0, result.stderr
    # the attack waits for the defender's answer (a prompt), which she gives from her seat
    assert f"{first.title()} attacks {other.title()} with the sword (Weapons)" in result.stdout
    result = main.invoke(
        root,
        ["table", "act", str(record), "--as", other, "defend", "skill=Agility", "--seed", "3"],
    )
    assert result.exit_code == 0, result.stderr
    assert f"{first.title()} attacks {other.title()} with Weapons (sword)" in result.stdout
    # a misspelt parameter: one line, exit 2, the record unchanged
    before = record.read_text()
    result = main.invoke(
        root, ["table", "act", str(record), "--as", other, "attack", f"taget={first}"]
    )
    assert result.exit_code == 2 and "attack.taget: not a parameter" in result.stderr
    assert record.read_text() == before
    shown = main.invoke(root, ["table", "log", str(record), "--as", other])
    assert shown.exit_code == 0 and "defends with" in shown.stdout


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


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("latin1.yaml", b"name: Moll\naspects: [Caf\xe9]\n", "not UTF-8"),
        ("deep.yaml", b"skills: " + b"[" * 20000 + b"]" * 20000, "deep"),
        ("huge.yaml", b"experience: " + b"9" * 5000, "digits"),
        ("unknown.yaml", b"name: Moll\nskils: {Weapons: 1}\n", "skils"),
        ("wrong.yaml", b"name: Moll\nskills: {Weapons: three}\n", "skills.Weapons"),
        ("list.yaml", b"- Moll\n", "a sheet is a mapping"),
        (
            "bomb.yaml",
            b"a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a]\n"
            b"c: &c [*b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
            "",
        ),
    ],
)
def test_a_hostile_sheet_is_one_line_and_exit_2(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    sheet = tmp_path / name
    sheet.write_bytes(content)
    code, _, err = run("sheet", str(sheet))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert message in err


def test_a_number_too_long_to_read_is_a_usage_error_of_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main as entry

    monkeypatch.setattr("sys.argv", ["referee", "ginlane", "roll", "9" * 5000, "--vs", "8"])
    with pytest.raises(SystemExit) as exit_:
        entry()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
