"""`referee intrigue ...` over table records (with `referee table`), its calculators, and bad
input refused in one line (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

runner = CliRunner()


GAME = """\
start: "21:30"
characters:
  scarface:
    name: ScarFace
    number: 15
    combat: 2
    strength: 2
    stamina: 5
    items: {knife: {damage: 3}}
    perception_envelopes:
      - {to: ALL, target: 12, contents: "A fresh scar: a knife fight last week."}
  krockin:
    name: The Amazing Krockin
    number: 07
    combat: 1
    mind: 3
    skills: {Perception: 2, Medicine: 1}
    abilities:
      Energy Bolt: {mental: true, obvious: true, target: 16, damage: 3}
    contingency_envelopes:
      - {id: nine, at: "21:00", contents: "Open the safe."}
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "evening.yaml"
    path.write_text(GAME)
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["intrigue", *args])
    return result.exit_code, result.stdout, result.stderr


def _lines(*args: str) -> list[str]:
    code, out, err = run(*args)
    assert code == 0, err
    return out.splitlines()


def table_run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["table", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def evening(game: Path) -> Path:
    """A table record of the game: seats referee, scarface, krockin."""
    record = game.parent / "evening.json"
    code, _, err = table_run("new", "intrigue", str(game), "--out", str(record))
    assert code == 0, err
    return record


def test_check_lists_the_cast(game: Path) -> None:
    code, out, _ = run("check", str(game))
    assert code == 0 and "ScarFace" in out and "07" in out
    assert "nobody wears" not in out


def test_check_notes_envelopes_naming_numbers_nobody_wears(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(
        "characters:\n  a:\n    number: 15\n    perception_envelopes:\n"
        "      - {to: [12, 15], target: 10, contents: x}\n"
    )
    code, out, _ = run("check", str(path))
    assert code == 0 and "nobody wears 12" in out


def test_check_warns_of_an_envelope_time_earlier_than_the_start(tmp_path: Path) -> None:
    """Contingency Envelopes, "Open at nine o'clock": with the evening starting at 19:00, an
    envelope "at: 09:00" is read as the next morning — a likely slip, so `check` says so; one
    at the start itself or later in the evening draws no note."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "start: '19:00'\ncharacters:\n  a:\n    number: 15\n    contingency_envelopes:\n"
        "      - {id: morning, at: '09:00', contents: x}\n"
        "      - {id: seven, at: '19:00', contents: y}\n"
        "      - {id: nine, at: '21:00', contents: z}\n"
    )
    code, out, _ = run("check", str(path))
    assert code == 0
    assert "morning (Open at 09:00): 09:00 is earlier than the start (19:00)" in " ".join(
        out.split()
    )
    assert "the next day" in out
    assert "seven" not in out and "nine (" not in out


def test_the_envelopes_planner_gives_each_envelopes_chance(game: Path) -> None:
    code, out, _ = run("envelopes", str(game), "07", "scarface")
    assert code == 0 and "scarface-p1" in out and "3d6+2 ≥ 12" in out and "62.5%" in out


def test_the_calculators() -> None:
    code, out, _ = run("skill-odds", "2", "14")
    assert code == 0 and "3d6+2 ≥ 14: 37.5% (3/8)" in out
    code, out, _ = run("skill-odds", "1", "1", "--against")
    assert code == 0 and "3d6+1 ≥ 3d6+1" in out
    code, out, _ = run("attack-odds", "2", "1")
    assert code == 0 and "Attack: 3d6+2 > 11: 62.5% (5/8)" in out
    code, out, _ = run("attack-odds", "2", "1", "--grab", "--defensive", "--scream", "2")
    assert code == 0 and "Grab: 3d6+2 > 17" in out
    code, out, _ = run("attack-odds", "1", "2", "--helpers", "2", "--surprise")
    assert code == 0 and "Attack: 3d6+6 > 12" in out


def test_a_perception_check_shows_the_referee_the_odds_first_then_the_envelopes(
    evening: Path,
) -> None:
    code, out, err = run(
        "perceive", str(evening), "07", "scarface", "--as", "referee", "--dice", "4,4,4",
        "--at", "21:35",
    )  # fmt: skip
    assert code == 0, err
    assert out.index("62.5%") < out.index("Perception Check")
    assert "scarface-p1 reads: A fresh scar" in out
    code, out, _ = table_run("show", str(evening), "--as", "krockin")
    assert code == 0


def test_the_holder_sees_the_total_not_the_contents(evening: Path) -> None:
    code, out, err = run(
        "perceive", str(evening), "krockin", "15", "--dice", "4,4,4", "--as", "krockin"
    )
    assert code == 0, err
    assert "A fresh scar" in out and "odds" not in out  # the perceiver reads it, no odds
    code, out, _ = table_run("log", str(evening), "--as", "scarface")
    assert code == 0 and "total 14" in out and "A fresh scar" not in out


def test_a_player_acts_only_for_their_own_character(evening: Path) -> None:
    code, _, err = run("perceive", str(evening), "krockin", "15", "--as", "scarface")
    assert code == 2 and "does not play 'krockin'" in err and err.count("\n") == 1


def test_the_cooldown_is_refused_with_the_time_left(evening: Path) -> None:
    e = str(evening)
    run("perceive", e, "07", "15", "--as", "referee", "--dice", "1,1,1", "--at", "21:35")
    code, _, err = run(
        "perceive", e, "07", "15", "--as", "referee", "--dice", "6,6,6", "--at", "21:40"
    )
    assert code == 2
    assert err.count("\n") == 1 and "21:50" in err and "10m00s left" in err
    code, _, _ = run(
        "perceive", e, "07", "15", "--as", "referee", "--dice", "6,6,6", "--at", "21:50"
    )
    assert code == 0


def test_a_skill_roll_with_its_odds(evening: Path) -> None:
    code, out, _ = run(
        "roll", str(evening), "krockin", "Medicine", "--target", "14", "--dice", "6,6,1",
        "--as", "referee",
    )  # fmt: skip
    assert code == 0 and out.index("25.9%") < out.index("rolls Medicine")
    assert "The Amazing Krockin rolls Medicine: 14 against 14: succeeds" in out
    code, out, _ = run(
        "roll", str(evening), "krockin", "Medicine", "--target", "14", "--dry-run",
        "--as", "krockin",
    )  # fmt: skip
    assert code == 0 and "odds" not in out  # the odds of a skill roll are the referee's


def test_a_combat_step_by_step(evening: Path) -> None:
    e = str(evening)

    def act(seat: str, *args: str) -> str:
        code, out, err = table_run("act", e, "--as", seat, *args)
        assert code == 0, err
        return out

    act("scarface", "draw", "item=knife")
    act("scarface", "start_combat", "targets=[krockin]")
    act("scarface", "declare", "action=attack", "target=krockin")
    act("krockin", "declare", "action=defend")
    code, out, _ = run("combat", e, "--as", "krockin")
    assert code == 0 and "next roll ScarFace attack The Amazing Krockin" in out and "25.9%" in out
    out = act("referee", "resolve")
    assert "ScarFace attack The Amazing Krockin" in out
    code, out, _ = run("status", e, "krockin", "--as", "krockin")
    assert code == 0 and "Stamina" in out
    code, out, _ = run("status", e, "krockin", "--as", "scarface")
    assert code == 0 and "Stamina" not in out  # another's sheet is theirs


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("perceive", "{evening}", "99", "15", "--as", "referee"), "no character '99'"),
        (("perceive", "{evening}", "07", "15", "--as", "referee", "--at", "quarter"), "--at"),
        (("perceive", "{evening}", "07", "15", "--as", "referee", "--at", "25:00"), "--at"),
        (("perceive", "{evening}", "07", "15", "--as", "referee", "--dice", "a,b"), "--dice"),
        (("perceive", "{evening}", "07", "15", "--as", "referee", "--dice", "1"), "ran out"),
        (("perceive", "{evening}", "07", "15", "--as", "nobody"), "no seat 'nobody'"),
        (("roll", "{evening}", "07", "Medicine", "--as", "referee"), "exactly one of"),
        (("roll", "{evening}", "07", "Medicine", "--as", "referee", "--target", "abc"), "--target"),
        (
            ("roll", "{evening}", "07", "Medicine", "--as", "referee", "--target", "9" * 40),
            "--target",
        ),
        (("perceive", "{evening}", "07", "15", "--as", "referee", "--seed", "x"), "--seed"),
        (("check", "{missing}"), "cannot read"),
        (("combat", "{missing}", "--as", "referee"), "cannot read"),
        (("status", "{evening}", "nobody", "--as", "referee"), "no character 'nobody'"),
        (("envelopes", "{game}", "07", "nobody"), "no character 'nobody'"),
        (("skill-odds", "x", "14"), "VALUE"),
        (
            (
                "roll",
                "{evening}",
                "07",
                "Medicine",
                "--as",
                "referee",
                "--target",
                "10",
                "--dice",
                "1,2,3,4,5",
            ),
            "left unrolled",
        ),  # audit B5
        (
            (
                "roll",
                "{evening}",
                "07",
                "Medicine",
                "--as",
                "referee",
                "--target",
                "10",
                "--dice",
                "1,2,3",
                "--at",
                "99999999",
            ),
            "cannot go back",
        ),  # audit B6: seconds get the 12-hour guard too
        (("roll", "{evening}", "07", "Medicine", "--as", "referee", "--target", "-5"), "target"),
        (("skill-odds", "2", "9" * 5000), "TARGET"),
        (("attack-odds", "2", "1", "--scream", "4"), "--scream"),
        (("attack-odds", "2", "1", "--helpers", "-1"), "--helpers"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    game: Path, evening: Path, args: tuple[str, ...], message: str
) -> None:
    filled = [a.format(game=game, evening=evening, missing=game.parent / "nope.yaml") for a in args]
    code, _, err = run(*filled)
    assert code == 2, err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


HOSTILE = {
    "not-utf8.yaml": b"characters:\n  a: {number: 15, name: \xff\xfe}\n",
    "deep.yaml": b"characters: " + b"[" * 20000 + b"]" * 20000 + b"\n",
    "huge.yaml": b"characters:\n  a: {number: " + b"9" * 5000 + b"}\n",
    "unknown.yaml": b"characters:\n  a: {number: 15, stamna: 5}\n",
    "wrong.yaml": b"characters:\n  a: {number: 15, skills: [Perception]}\n",
    "list.yaml": b"- characters\n",
    "laughs.yaml": b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + b"".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n".encode()
        for i in range(8)
    ),
}


def test_showing_a_table_needs_a_seat(evening: Path) -> None:
    code, _, err = run("perceive", str(evening), "07", "15")
    assert code == 2 and "--as" in err
    code, _, err = run("combat", str(evening))
    assert code == 2 and "--as" in err


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["check", "envelopes", "combat", "status", "perceive", "roll"])
def test_hostile_files_are_one_line_and_exit_2(tmp_path: Path, name: str, command: str) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    args = {
        "check": (str(path),),
        "envelopes": (str(path), "a", "a"),
        "combat": (str(path), "--as", "referee"),
        "status": (str(path), "--as", "referee"),
        "perceive": (str(path), "a", "b", "--as", "referee"),
        "roll": (str(path), "a", "Perception", "--target", "12", "--as", "referee"),
    }[command]
    code, _, err = run(command, *args)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_record_of_another_game_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "t.json"
    record.write_text('{"format": "referee.table/1", "system": "ginlane", "setup": 3}')
    code, _, err = run("combat", str(record), "--as", "referee")
    assert code == 2 and err.count("\n") == 1


def test_a_bad_game_file_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("characters:\n  a: {number: 15}\n  b: {number: 15}\n")
    code, _, err = run("check", str(bad))
    assert code == 2 and "characters.b.number" in err and err.count("\n") == 1
    bad.write_text("characters:\n  a: {number: 15, stamna: 3}\n")
    code, _, err = run("check", str(bad))
    assert code == 2 and "characters.a.stamna" in err and err.count("\n") == 1
    bad.write_text("characters: [\n")
    code, _, err = run("check", str(bad))
    assert code == 2 and "line" in err


def test_a_time_before_the_last_event_is_refused_not_read_as_tomorrow(evening: Path) -> None:
    e = str(evening)
    run("perceive", e, "07", "15", "--as", "referee", "--dice", "1,1,1", "--at", "22:00")
    code, _, err = run(
        "perceive", e, "15", "07", "--as", "referee", "--dice", "1,1,1", "--at", "21:45"
    )
    assert code == 2 and "cannot go back" in err and err.count("\n") == 1
    code, _, err = run(
        "perceive", e, "15", "07", "--as", "referee", "--dice", "1,1,1", "--at", "+10m"
    )
    assert code == 0, err


def test_a_scenario_file_serves_as_a_game_file(tmp_path: Path) -> None:
    scenario = Path(__file__).resolve().parents[3] / "examples" / "intrigue" / "lady-rich.yaml"
    copy = tmp_path / "lady-rich.yaml"
    copy.write_text(scenario.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run("check", str(copy))
    assert code == 0 and "Lady Rich" in out


def test_the_perceiver_is_told_when_no_envelope_is_handed_over(evening: Path) -> None:
    code, out, _ = run("perceive", str(evening), "15", "07", "--dice", "1,1,1", "--as", "scarface")
    assert code == 0 and "no envelope is handed over" in out


def test_a_timed_event_reaches_its_holder_when_the_clock_passes_it(tmp_path: Path) -> None:
    """Audit F1: "Open at nine o'clock" fired by --at is shown to the holder who acts then."""
    game = tmp_path / "g.yaml"
    game.write_text(
        'start: "20:30"\ncharacters:\n'
        '  a: {number: 11, contingency_envelopes: [{at: "21:00", contents: "Your son."}]}\n'
        "  b: {number: 12}\n"
    )
    record = tmp_path / "t.json"
    assert table_run("new", "intrigue", str(game), "--out", str(record), "--start", "20:30")[0] == 0
    code, out, err = run(
        "perceive", str(record), "a", "b", "--as", "a", "--dice", "3,3,3", "--at", "21:05"
    )
    assert code == 0, err
    assert "a may now open: a-c1 (time)" in out


def test_a_table_made_without_start_keeps_the_evenings_clock(game: Path) -> None:
    """``table new`` of a game file that starts at 21:30, given no ``--start``: the clock moved
    on by ``--at +15m`` and the next Perception are told at 21:45 and 22:00, as the line's own
    time is (not the table's 00:00: the log read "21:45 The clock moves on to 00:15")."""
    record = game.parent / "plain.json"
    assert table_run("new", "intrigue", str(game), "--out", str(record))[0] == 0
    code, out, err = run(
        "perceive",
        str(record),
        "scarface",
        "krockin",
        "--as",
        "referee",
        "--dice",
        "3,3,3",
        "--at",
        "+15m",
    )
    assert code == 0, err
    assert "21:45 The clock moves on to 21:45." in out
    assert "may perceive The Amazing Krockin again at 22:00." in out


def test_a_name_is_printed_as_written_not_as_markup_or_emoji(tmp_path: Path) -> None:
    """Audit F4: "Ödön [red]" keeps its brackets; a name ":smile:" is no emoji."""
    game = tmp_path / "g.yaml"
    game.write_text(
        'characters:\n  a: {number: 11, name: "Ödön [red]"}\n'
        '  b: {number: 12, name: ":smile:", perception_envelopes: [{to: ALL, target: 3, '
        "contents: x}]}\n"
    )
    assert "Ödön [red]" in run("check", str(game))[1]
    record = tmp_path / "t.json"
    assert table_run("new", "intrigue", str(game), "--out", str(record))[0] == 0
    code, out, _ = run("perceive", str(record), "a", "b", "--as", "referee", "--dice", "3,3,3")
    assert code == 0 and "Ödön [red] may perceive :smile: again at 00:15." in out


def test_check_lists_each_characters_badge_stats_and_envelopes(game: Path) -> None:
    """The cast, one row each: number, badge, id, the four stats and Wounds, and how many
    Perception and Contingency Envelopes each holds."""
    result = runner.invoke(app, ["intrigue", "check", str(game)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.stderr
    rows = [" ".join(line.strip("│┃ ").split()) for line in result.stdout.splitlines()]
    assert rows[0] == "evening.yaml: 2 characters"
    assert rows[2] == "No. ┃ Badge ┃ id ┃ Cmb ┃ Str ┃ Sta ┃ Wnd ┃ Mnd ┃ Envelopes"
    assert rows[4:6] == [
        "15 │ ScarFace │ scarface │ 2 │ 2 │ 5 │ 5 │ 1 │ 1 perception, 0 contingency",
        "07 │ The Amazing Krockin │ krockin │ 1 │ 1 │ 6 │ 6 │ 3 │ 0 perception, 1 contingency",
    ]


def test_the_envelopes_planner_says_which_envelopes_are_not_for_the_perceiver(
    tmp_path: Path,
) -> None:
    """Perception Envelopes: one given to other numbers is not for the perceiver (no odds);
    one who carries none is said to carry none; each line whole, however long."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "characters:\n  a: {number: 11, skills: {Perception: 1}}\n  b:\n    number: 12\n"
        "    perception_envelopes:\n      - {to: [13], target: 9, contents: x}\n"
        "      - {to: ALL, target: 15, contents: y}\n      - {to: [11], target: 9, contents: z}\n"
    )
    assert _lines("envelopes", str(path), "a", "b") == [
        "b-p1 (Give to Character 13, if they Roll 9 or more): not for 11",
        "odds b-p2 (Give to ALL with a Roll of 15 or more): 3d6+1 ≥ 15: 16.2% (35/216)",
        "odds b-p3 (Give to Character 11, if they Roll 9 or more): 3d6+1 ≥ 9: 83.8% (181/216)",
    ]
    assert _lines("envelopes", str(path), "b", "a") == ["a carries no Perception Envelope"]


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        (("attack-odds", "two", "1"), "COMBAT: a whole number (at most six digits), not 'two'"),
        (("attack-odds", "2", "one"), "DEFENCE: a whole number (at most six digits), not 'one'"),
        (("attack-odds", "2", "1", "--scream", "x"), "--scream: a whole number (at most six "),
        (("attack-odds", "2", "1", "--helpers", "x"), "--helpers: a whole number (at most six "),
        (("skill-odds", "2", "x"), "TARGET: a whole number (at most six digits), not 'x'"),
        (("skill-odds", "x", "2"), "VALUE: a whole number (at most six digits), not 'x'"),
    ],
)
def test_a_calculators_bad_number_names_its_argument(args: tuple[str, ...], refusal: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and err.startswith(f"referee: error: {refusal}")


def test_the_attack_calculator_takes_the_referees_bonus_to_three_and_three_helpers() -> None:
    """Combat: the referee's bonus for a good scream is 0 to 3, and a group attacking
    together is up to four (three helpers, +1 each)."""
    code, out, _ = run("attack-odds", "2", "1", "--scream", "3", "--helpers", "3")
    assert code == 0 and "Attack: 3d6+5 > 14: 62.5% (5/8)" in out
    code, _, err = run("attack-odds", "2", "1", "--helpers", "4")
    assert code == 2 and "--helpers: a group is up to 4: 0 to 3 helpers" in err


def test_an_action_shows_only_the_events_it_caused(evening: Path) -> None:
    """What a command writes is followed by the events it caused, as the seat sees them: not
    the evening's earlier events."""
    e = str(evening)
    code, out, _ = run("roll", e, "krockin", "Medicine", "--target", "14", "--dice", "6,6,1",
                       "--as", "referee")  # fmt: skip
    assert code == 0 and "rolls Medicine" in out
    code, out, _ = run("perceive", e, "07", "15", "--as", "referee", "--dice", "4,4,4")
    assert code == 0 and "Perception Check" in out
    assert "rolls Medicine" not in out and "nothing this seat may see" not in out


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("- characters\n", "a game file is a mapping with 'characters'"),
        ("system: intrigue\ncharacters: {a: {number: 15}}\n", "system"),
    ],
)
def test_a_game_file_is_a_mapping_of_the_game_not_a_scenario_without_setup(
    tmp_path: Path, text: str, refusal: str
) -> None:
    """A game file is a mapping with 'characters' (a scenario's 'setup' serves as one): a list
    is refused, and so is a mapping naming a system with no setup, each in one line."""
    path = tmp_path / "g.yaml"
    path.write_text(text)
    code, _, err = run("check", str(path))
    assert code == 2 and err.startswith(f"referee: error: {path}: ") and refusal in err
    assert err.count("\n") == 1


def test_a_table_of_another_game_is_refused_naming_its_game(tmp_path: Path) -> None:
    record = tmp_path / "ambush.json"
    example = Path(__file__).resolve().parents[3] / "examples" / "ginlane" / "ambush.yaml"
    assert table_run("new", "ginlane", str(example), "--out", str(record))[0] == 0
    code, _, err = run("combat", str(record), "--as", "referee")
    assert (code, err) == (2, f"referee: error: {record}: a table of 'ginlane', not of intrigue\n")


def test_at_plus_a_duration_is_that_long_after_the_last_event(evening: Path) -> None:
    code, out, _ = run(
        "perceive", str(evening), "07", "15", "--as", "referee", "--dice", "4,4,4", "--at", "+15m"
    )
    assert code == 0 and "21:45 The Amazing Krockin makes a Perception Check" in out


def test_at_nine_digits_is_seconds_of_game_time_under_the_same_guard(evening: Path) -> None:
    """Audit B6: a time in seconds (up to nine digits) is guarded like a clock time."""
    code, _, err = run(
        "perceive", str(evening), "07", "15", "--as", "referee", "--dice", "4,4,4",
        "--at", "100000000",
    )  # fmt: skip
    assert code == 2 and "game time cannot go back" in err
    code, _, err = run(
        "perceive", str(evening), "07", "15", "--as", "referee", "--at", "1000000000"
    )  # ten digits: not seconds, and no clock time either
    assert code == 2 and err.startswith("referee: error: --at: ")
