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


def test_a_skill_below_zero_is_the_skill_not_an_option() -> None:
    """No Relevant Skill rolls at -2: "-2" is the skill a roll or its odds are asked for."""
    code, out, _ = run("odds", "-2", "--vs", "7", "--json")
    assert code == 0 and json.loads(out)[0]["a"] == "1/6"  # 2d6 - 2 beats 7 on 10 or more
    code, out, _ = run("roll", "-2", "--vs", "7", "--seed", "1")
    assert code == 0 and "success 1/6" in out and "-2 =" in out


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


def wide(monkeypatch: pytest.MonkeyPatch, columns: int = 120) -> None:
    """Output as wide as a terminal of ``columns`` (120: no title or table is wrapped)."""
    monkeypatch.setenv("COLUMNS", str(columns))


def test_a_roll_shows_its_odds_by_margin_the_three_chances_then_the_roll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide(monkeypatch)
    code, out, _ = run("roll", "2", "--vs", "Great", "--tags", "1", "--seed", "3")
    assert code == 0
    assert [line.rstrip() for line in out.splitlines()] == [
        "2d6+2 with 1 tag(s), option a, against 9",
        "(Great)",
        "┏━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━┓",
        "┃ Margin ┃ Result      ┃ Probability ┃      % ┃",
        "┡━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━┩",
        "│     -5 │ Failure     │       1/216 │  0.46% │",
        "│     -4 │ Failure     │        1/72 │  1.39% │",
        "│     -3 │ Failure     │       7/216 │  3.24% │",
        "│     -2 │ Failure     │        1/18 │  5.56% │",
        "│     -1 │ Failure     │      19/216 │  8.80% │",
        "│     +0 │ Match       │         1/8 │ 12.50% │",
        "│     +1 │ Minimal     │      17/108 │ 15.74% │",
        "│     +2 │ Fair        │         1/6 │ 16.67% │",
        "│     +3 │ Solid       │      17/108 │ 15.74% │",
        "│     +4 │ Good        │         1/8 │ 12.50% │",
        "│     +5 │ Significant │        2/27 │  7.41% │",
        "└────────┴─────────────┴─────────────┴────────┘",
        "success 49/72 = 68.06%, Match 1/8 = 12.50%, failure 7/36 = 19.44%",
        "rolled: 3d6kh2 (~~2~~, 4, 3) = 7 +2 = 9",
        "Match (margin +0); Experience Pool points to pay: 1",
    ]


def test_an_opposed_roll_names_both_sides_and_shows_the_oppositions_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide(monkeypatch)
    code, out, _ = run(
        "roll", "1", "--against", "2", "--mode", "b", "--tags", "1", "--against-tags", "1",
        "--modifier", "-1", "--seed", "5",
    )  # fmt: skip
    lines = [line.rstrip() for line in out.splitlines()]
    assert code == 0
    assert lines[:2] == ["2d6+0 with 1 tag(s) against 2d6+2 with 1 tag(s),", "option b"]
    assert lines[5] == "│    -12 │ Failure      │         1/1296 │  0.08% │"
    assert lines[-3:] == [
        "rolled: 2d6 (4, 5) +0 = 9",
        "opposition: 2d6 (5, 6) +2 = 13",
        "Failure (margin -4); Experience Pool points to pay: 0",
    ]


def test_a_roll_as_json_gives_the_odds_the_result_and_the_points_paid() -> None:
    code, out, _ = run(
        "roll", "2", "--vs", "8", "--tags", "2", "--free", "1", "--seed", "1", "--json"
    )
    data = json.loads(out)
    assert code == 0 and out.endswith("}\n") and out.count("\n") == 1
    assert data["odds"]["outcomes"] == {"success": "131/144", "tie": "65/1296", "failure": "13/324"}
    assert data["result"]["paid"] == 1
    code, out, _ = run("roll", "2", "--vs", "8", "--odds-only", "--json")
    assert code == 0 and set(json.loads(out)) == {"odds"}


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "--vs", "8", "--modifier", "100", "--odds-only", "--", "-100"),
        ("roll", "100", "--vs", "8", "--modifier", "-100", "--odds-only"),
        ("roll", "2", "--against", "100", "--odds-only"),
        ("roll", "2", "--against", "-100", "--odds-only"),
        ("odds", "100", "--vs", "-100", "--max-tags", "0"),
        ("odds", "--vs", "100", "--max-tags", "6", "--", "-100"),
    ],
)
def test_skills_modifiers_and_difficulties_from_minus_100_to_100_are_rolled(
    args: tuple[str, ...],
) -> None:
    code, out, err = run(*args)
    assert code == 0, err
    assert "success" in out or "Option a" in out


WHOLE = "give a whole number from -100 to 100"
EXACTLY_ONE = "roll: give exactly one of --vs DIFFICULTY and --against SKILL"
LADDER = "(Negligible, Low, Fair, Great, Exceeding, Superb, Heroic)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "101", "--vs", "8"), f"skill 101: {WHOLE}"),
        (("roll", "2", "--vs", "8", "--modifier", "-101"), f"--modifier -101: {WHOLE}"),
        (("roll", "2", "--against", "101"), f"--against 101: {WHOLE}"),
        (("roll", "2", "--vs", "101"), f"--vs 101: {WHOLE}"),
        (("roll", "2", "--vs", "8", "--against", "3"), EXACTLY_ONE),
        (("roll", "2"), EXACTLY_ONE),
        (
            ("roll", "2", "--vs", "Tricky"),
            f"Difficulty & Target Number: no difficulty 'Tricky' {LADDER}",
        ),
        (("odds", "101", "--vs", "8"), f"skill 101: {WHOLE}"),
        (("odds", "2", "--vs", "8", "--max-tags", "7"), "--max-tags 7: give 0 to 6"),
        (("odds", "2", "--vs", "8", "--max-tags", "-1"), "--max-tags -1: give 0 to 6"),
        (("odds", "2", "--vs", "-101"), f"--vs -101: {WHOLE}"),
        (
            ("odds", "2", "--vs", "Tricky"),
            f"Difficulty & Target Number: no difficulty 'Tricky' {LADDER}",
        ),
        (
            ("sheet", "no-such-sheet.yaml"),
            "cannot read no-such-sheet.yaml: No such file or directory",
        ),
    ],
)
def test_a_refusal_names_what_was_refused(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and err == f"referee: error: {message}\n"


def test_odds_show_each_number_of_tags_under_both_options(monkeypatch: pytest.MonkeyPatch) -> None:
    wide(monkeypatch)
    code, out, _ = run("odds", "1", "--vs", "9", "--max-tags", "1")
    assert code == 0
    assert [line.rstrip() for line in out.splitlines()] == [
        "2d6+1 to beat 9",
        "┏━━━━━━┳━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━┓",
        "┃ Tags ┃ Option a ┃      % ┃ Option b ┃      % ┃",
        "┡━━━━━━╇━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━┩",
        "│    0 │     5/18 │ 27.78% │     5/18 │ 27.78% │",
        "│    1 │  113/216 │ 52.31% │    41/72 │ 56.94% │",
        "└──────┴──────────┴────────┴──────────┴────────┘",
    ]
    code, out, _ = run("odds", "1", "--vs", "9", "--max-tags", "0", "--json")
    assert code == 0 and out == '[{"tags": 0, "a": "5/18", "b": "5/18", "a_match": "5/36"}]\n'


def test_the_ladder_shows_the_difficulties_and_the_success_levels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide(monkeypatch, 80)
    code, out, _ = run("ladder")
    assert code == 0
    assert [line.rstrip() for line in out.splitlines()] == [
        "Difficulty & Target Number",
        "┏━━━━━━━━━━━━┳━━━━━━━━━━━━┓",
        "┃ Difficulty ┃ Name       ┃",
        "┡━━━━━━━━━━━━╇━━━━━━━━━━━━┩",
        "│        ≤ 6 │ Negligible │",
        "│          7 │ Low        │",
        "│          8 │ Fair       │",
        "│          9 │ Great      │",
        "│         10 │ Exceeding  │",
        "│         11 │ Superb     │",
        "│         12 │ Heroic     │",
        "└────────────┴────────────┘",
        "Success Levels",
        "┏━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓",
        "┃ Degree ┃ Success         ┃ Magnitude    ┃ Duration         ┃ Notes           ┃",
        "┡━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩",
        "│ 0      │ Match (in the   │ touch        │ Instant          │ not failed, try │",
        "│        │ balance)        │              │                  │ again?          │",
        "│ 1      │ Minimal         │ Slight       │ a Round          │                 │",
        "│ 2      │ Fair            │ Minor        │ a scene          │                 │",
        "│ 3      │ Solid           │ Moderate     │ until dawn/dusk  │                 │",
        "│ 4      │ Good            │ Moderate     │ Day              │ defence gets    │",
        "│        │                 │              │                  │ spin            │",
        "│ 5      │ Significant     │ Major        │ Session          │                 │",
        "│ 6      │ Near Perfect    │ Overwhelming │ Longer term -    │                 │",
        "│        │                 │              │ next session?    │                 │",
        "└────────┴─────────────────┴──────────────┴──────────────────┴─────────────────┘",
    ]


def test_a_sheet_shows_its_skills_by_level_its_experience_tracks_and_each_problem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide(monkeypatch)
    code, out, _ = run("sheet", str(EXAMPLES / "sheets" / "broken.yaml"))
    assert code == 1
    assert [line.rstrip() for line in out.splitlines()] == [
        "Lord Fopling",
        "Skills",
        "┏━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┓",
        "┃ Level ┃ Skills                 ┃",
        "┡━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━┩",
        "│    +3 │ Weapons, Charm, Assets │",
        "│    +1 │ Alertness              │",
        "└───────┴────────────────────────┘",
        "Experience 10: 10 on skills, 0 in the pool; 2 extra Aspect(s) for spending",
        "Stress tracks: Health 5, Composure 5, Wealth 7",
        "Languages: 2 of 0 claimed (beyond the native tongue)",
        "Aspects: Macaroni; Macaroni; Member of the Society for Effectual Redress",
        "✗ The Skill Pyramid: 3 skills at +3 need at least 4 at +2, but there are 0",
        "✗ Aspects: Aspect 'macaroni' appears 2 times (must be unique)",
        "✗ Languages: 2 languages claimed, the skills allow 0",
    ]
    code, out, _ = run("sheet", str(EXAMPLES / "sheets" / "moll.yaml"))
    assert code == 0 and out.splitlines()[-1] == "✓ a legal sheet"


def test_a_sheet_without_a_name_is_named_by_its_file_and_json_keeps_its_letters(
    tmp_path: Path,
) -> None:
    text = (EXAMPLES / "sheets" / "moll.yaml").read_text(encoding="utf-8")
    sheet = tmp_path / "moll-café.yaml"
    sheet.write_text(text.replace("name: Moll Cutpurse\n", ""), encoding="utf-8")
    code, out, _ = run("sheet", str(sheet), "--json")
    assert code == 0 and out.count("\n") == 1
    assert out.startswith('{"name": "moll-café", ') and json.loads(out)["problems"] == []
    code, out, _ = run("sheet", str(EXAMPLES / "sheets" / "broken.yaml"), "--json")
    assert code == 1 and json.loads(out)["problems"][-1] == (
        "Languages: 2 languages claimed, the skills allow 0"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("experience: .nan", "a sheet holds names, numbers and lists only (Out of range float"),
        ("skills: {Weapons: three}\nexperience: abc", "skills.Weapons: Input should be a valid"),
    ],
)
def test_a_sheet_refused_says_where(tmp_path: Path, body: str, message: str) -> None:
    sheet = tmp_path / "bad.yaml"
    sheet.write_text(f"name: X\n{body}\n", encoding="utf-8")
    code, _, err = run("sheet", str(sheet))
    assert code == 2 and f"{sheet}: {message}" in err


def test_the_group_named_alone_shows_its_help_and_its_four_commands() -> None:
    code, out, _ = run()
    assert code == 2 and "Usage: referee ginlane [OPTIONS] COMMAND" in out
    assert "Gin Lane: 2d6 + skill, tagged Aspects, stress and consequences." in out
    for command in ("roll", "odds", "ladder", "sheet"):
        assert f"│ {command} " in out, command


def test_a_sheets_name_aspects_and_problems_are_printed_as_written(tmp_path: Path) -> None:
    """Square brackets a player writes are text, not console markup (a stray '[/]' once
    stopped the command with a traceback)."""
    sheet = tmp_path / "brackets.yaml"
    sheet.write_text(
        "name: 'Moll [/] [b]Cutpurse'\nskills: {'[/]': 1}\naspects: ['[/]', '[/]', '[b]Fop']\n",
        encoding="utf-8",
    )
    code, out, err = run("sheet", str(sheet))
    lines = out.splitlines()
    assert code == 1, err
    assert lines[0] == "Moll [/] [b]Cutpurse" and "│    +1 │ [/]    │" in lines
    assert "Aspects: [/]; [/]; [b]Fop; Member of the Society for Effectual Redress" in lines
    assert "✗ Aspects: Aspect '[/]' appears 2 times (must be unique)" in lines


def test_the_opposition_tags_under_the_rolls_option() -> None:
    from referee.systems.ginlane.rolls import GinLaneRoll, OpposedRoll, TagMode

    for mode in TagMode:
        code, out, _ = run(
            "roll", "1", "--against", "2", "--against-tags", "1", "--mode", mode.value,
            "--odds-only", "--json",
        )  # fmt: skip
        expected = OpposedRoll(GinLaneRoll(1, mode=mode), GinLaneRoll(2, tags=1, mode=mode))
        assert code == 0 and json.loads(out)["odds"] == expected.odds().to_json()


def test_a_rolls_title_counts_its_modifier_in_the_skill(monkeypatch: pytest.MonkeyPatch) -> None:
    wide(monkeypatch)
    code, out, _ = run("roll", "2", "--vs", "8", "--modifier", "1", "--odds-only")
    assert code == 0 and out.startswith("2d6+3 with 0 tag(s), option a, against 8 (Fair)")
