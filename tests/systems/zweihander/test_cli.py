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


def test_a_skill_test_prints_its_total_chance_each_outcomes_odds_and_the_roll() -> None:
    code, out, _ = run("test", "45", "-d", "Hard", "--face", "22")
    assert code == 0
    assert out.splitlines() == [
        "Total Chance 25% (Base 45, Hard -20, clamped 1–99)",
        "  critical success      3/100    3.0%",
        "  success               11/50   22.0%",
        "  failure              67/100   67.0%",
        "  critical failure       2/25    8.0%",
        "  any success             1/4   25.0%",
        "Rolled 22 → 22: critical success (margin +3)",
    ]


def test_an_assisted_test_names_the_assist_die_and_rolls_both_dice() -> None:
    code, out, _ = run("test", "45", "--assist", "--face", "1", "--face", "10")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Total Chance 45% (Base 45, Standard +0, clamped 1–99), with an Assist Die"
    assert lines[1] == "  critical success     69/500   13.8%"
    assert lines[-1] == "Rolled 1 then Assist Die 10 → 01: critical success (margin +44)"


def test_every_face_of_the_d100_and_of_the_assist_die_can_come_up() -> None:
    code, out, _ = run("test", "45", "--face", "100")
    assert code == 0 and out.splitlines()[-1] == "Rolled 100 → 100: critical failure (margin -55)"
    code, out, _ = run("test", "45", "--face", "1")
    assert code == 0 and out.splitlines()[-1] == "Rolled 1 → 01: critical success (margin +44)"
    code, out, _ = run("test", "45", "--assist", "--face", "100", "--face", "1")
    assert code == 0 and "Rolled 100 then Assist Die 1 → " in out


def test_a_seeded_test_rolls_what_the_seed_rolls() -> None:
    from referee.dice import RandomSource
    from referee.systems.zweihander.percentile import SkillTest

    rolled = SkillTest(45, 0).roll(RandomSource(seed=3))
    code, out, _ = run("test", "45", "--seed", "3")
    assert code == 0
    assert out.splitlines()[-1] == (
        f"Rolled {rolled.value} → {rolled.value:02d}: {rolled.outcome.value} "
        f"(margin {rolled.margin:+d})"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("test", "45", "--face", "40", "--face", "3"), "--face: give 1 face (the d100), not 2"),
        (
            ("test", "45", "--assist", "--face", "40"),
            "--face: give 2 faces (the d100 then the Assist Die), not 1",
        ),
        (
            ("test", "45", "-d", "Impossible"),
            "--difficulty: Difficulty Rating: 'Impossible' is not one of Trivial, Easy, Routine, "
            "Standard, Challenging, Hard, Arduous",
        ),
        (("chase", "table.json"), "chase: say which seat plays it out with --as referee"),
        (("journey", "table.json"), "journey: say which seat travels with --as referee"),
        (
            ("route", "no-such-route.yaml"),
            "cannot read no-such-route.yaml: No such file or directory",
        ),
        (
            ("travel", "100", "-t", "carriage", "-r", "path"),
            'Overland exploration: carriage, fancy coach cannot travel by path ("-")',
        ),
        (
            ("requisitions", "gigantic"),
            "Requisitions: a requisition is minor, middling or major, not 'gigantic'",
        ),
        (("lists", "recipes"), "lists: 'recipes' is not one of situations, offences, disorders"),
        (("corruption", "--face", "0"), "--face: 0 cannot come up on a d10"),
    ],
)
def test_a_refusal_names_what_was_refused(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and err == f"referee: error: {message}\n"


def test_the_end_of_session_roll_shows_the_chance_the_die_and_the_ranks() -> None:
    code, out, _ = run("corruption", "--corruption", "14", "--order", "1", "--chaos", "2")
    assert code == 0 and out.splitlines()[0] == (
        "Chance of a Chaos rank from the remainder 4: 40.0%"
    )
    code, out, _ = run("corruption", "--corruption", "7", "--order", "2", "--face", "1")
    assert code == 0
    assert out.splitlines() == [
        "Chance of a Chaos rank from the remainder 7: 70.0%",
        "Corruption 7: d10 1; +0 Order, +1 Chaos",
        "Ranks now: Order 2, Chaos 1",
    ]
    code, out, _ = run("corruption", "--corruption", "7", "--chaos", "3", "--face", "10")
    assert code == 0 and out.splitlines()[1:] == [
        "Corruption 7: d10 10; +1 Order, +0 Chaos",
        "Ranks now: Order 1, Chaos 3",
    ]


def test_corruption_of_whole_tens_rolls_no_die() -> None:
    code, out, _ = run("corruption", "--corruption", "20", "--order", "3", "--chaos", "1")
    assert code == 0
    assert out.splitlines() == [
        "Corruption 20: no roll; +0 Order, +2 Chaos",
        "Ranks now: Order 3, Chaos 3",
    ]


def test_a_seeded_end_of_session_rolls_what_the_seed_rolls() -> None:
    from referee.dice import RandomSource
    from referee.systems.zweihander.character import Character
    from referee.systems.zweihander.madness import end_of_session

    end = end_of_session(Character("c", corruption=7), RandomSource(seed=2))
    code, out, _ = run("corruption", "--corruption", "7", "--seed", "2")
    assert code == 0 and f"Corruption 7: d10 {end.corruption_die};" in out


def test_ten_ranks_of_order_or_of_chaos_are_announced() -> None:
    code, out, _ = run("corruption", "--order", "9")
    assert code == 0 and out.splitlines()[-1] == (
        "Ten ranks of Order: gain 1 Fate Point; Alignment ranks erased"
    )
    code, out, _ = run("corruption", "--corruption", "10", "--chaos", "9")
    assert code == 0 and out.splitlines()[-1] == (
        "Ten ranks of Chaos: gain 1 Disorder (GM's choice); ranks erased"
    )


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (("travel", "100"), ["15 miles per day: 7 days for 100 miles"]),
        (
            ("travel", "100", "-t", "rowboat", "-r", "river"),
            ["20 miles per day: 5 days for 100 miles"],
        ),
        (
            ("travel", "100", "-t", "rowboat", "-r", "river", "--current", "3"),
            ["23 miles per day: 5 days for 100 miles"],
        ),
        (
            ("travel", "100", "--forced-march"),
            [
                "25 miles per day: 4 days for 100 miles",
                "Forced march: a Hard (-20%) Toughness Test each evening, or Incapacitated! and "
                "no recovery for 24 hours",
            ],
        ),
        (
            ("travel", "100", "-t", "cog", "-r", "sea", "--bad-weather"),
            [
                "25 miles per day: 4 days for 100 miles",
                "Bad weather at sea: a Pilot Test may be needed to avoid capsizing",
            ],
        ),
    ],
)
def test_travel_shows_miles_per_day_days_and_the_tests_the_leg_calls_for(
    args: tuple[str, ...], lines: list[str]
) -> None:
    code, out, _ = run(*args)
    assert code == 0 and out.split() == " ".join(lines).split()


def test_a_route_shows_each_leg_with_its_tests_and_the_total() -> None:
    code, out, _ = run("route", str(FILES / "overland.yaml"))
    assert code == 0
    assert out.splitlines() == [
        "1. 120 miles by road, horse: 40 mpd, 3 days",
        "2. 45 miles by path, human: 18 mpd, 3 days (forced march: Hard Toughness Test)",
        "3. 90 miles by sea, cog: 25 mpd, 4 days (Pilot Test against capsizing)",
        "4. 60 miles by river, river barge: 30 mpd, 2 days",
        "Total: 315 miles in 12 days",
    ]


def test_a_leg_by_sea_in_bad_weather_on_a_forced_march_notes_both_tests(tmp_path: Path) -> None:
    route = tmp_path / "route.yaml"
    route.write_text(
        "legs: [{distance: 10, transport: human, route: road, forced_march: true},"
        " {distance: 10, transport: cog, route: sea}]\n",
        encoding="utf-8",
    )
    code, out, _ = run("route", str(route))
    assert code == 0
    assert out.splitlines()[:2] == [
        "1. 10 miles by road, human: 25 mpd, 1 days (forced march: Hard Toughness Test)",
        "2. 10 miles by sea, cog: 35 mpd, 1 days",
    ]


def test_the_offences_are_listed_by_weight_with_their_points() -> None:
    code, out, _ = run("lists", "offences")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "minor (1-3 points)"
    assert "middling (4-6 points)" in lines and "major (7-9 points)" in lines
    assert "  - Becoming Intoxicated! (1)" in lines
    assert "  - Channeling power (1-3)" in lines
    assert "  - Bleeding (1/turn)" in lines
    assert "  - Bullying the innocent" in lines


def test_the_disorders_are_listed_under_their_kinds() -> None:
    code, out, _ = run("lists", "disorders")
    lines = out.splitlines()
    assert code == 0 and lines[:2] == ["addiction", "  - Bound to the bottle"]
    assert "insanity" in lines and "mutation" in lines


def test_the_requisitions_are_listed_by_weight_with_cost_and_frequency() -> None:
    code, out, _ = run("requisitions")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "minor (1-3 points, once a day)"
    assert "  - Get out of jail for free" in lines
    assert "middling (4-6 points; the cost is Referee's ruling, once a week)" in lines
    assert "major (7-9 points; the cost is Referee's ruling, once a month)" in lines


def test_a_chase_played_out_shows_its_new_events_and_the_records_version(tmp_path: Path) -> None:
    """The same seed plays the same chase: once as text, once as JSON, from one record."""
    first = new_table(tmp_path, FILES / "chase.yaml")
    start_chase(first, "escapees=[cutpurse]", "pursuers=[hound]")
    started = json.loads(first.read_text(encoding="utf-8"))["version"]
    second = tmp_path / "second.json"
    second.write_bytes(first.read_bytes())
    code, out, err = run("chase", str(first), "--as", "referee", "--seed", "4")
    assert code == 0, err
    code, shown, err = run("chase", str(second), "--as", "referee", "--seed", "4", "--json")
    assert code == 0, err
    seen = json.loads(shown)
    version = json.loads(first.read_text(encoding="utf-8"))["version"]
    assert seen["since"] == started and seen["version"] == version > started
    assert seen["events"][0]["number"] == started + 1
    assert out.splitlines() == [*(e["text"] for e in seen["events"]), f"(version {version})"]


def test_a_journey_as_json_is_indented_and_keeps_its_dashes(tmp_path: Path) -> None:
    record = new_table(tmp_path, FILES / "route.yaml")
    code, out, err = run("journey", str(record), "--as", "referee", "--seed", "3", "--json")
    assert code == 0, err
    assert out.startswith('{\n  "system": "zweihander",\n')
    assert "Guide (" in out and ") — d100 " in out


def test_the_same_seed_travels_the_same_journey(tmp_path: Path) -> None:
    shown = []
    for name in ("one.json", "two.json"):
        record = new_table(tmp_path, FILES / "route.yaml", name)
        code, out, err = run("journey", str(record), "--as", "referee", "--seed", "11")
        assert code == 0, err
        shown.append(out)
    assert shown[0] == shown[1] and "(version " in shown[0]


def test_only_the_referee_travels_a_journey_and_a_table_of_another_game_is_refused(
    tmp_path: Path,
) -> None:
    record = new_table(tmp_path, FILES / "route.yaml")
    code, _, err = run("journey", str(record), "--as", "anna")
    assert code == 2 and "--as anna: only the referee (the GM) plays a journey out" in err
    code, _, err = run("chase", str(record), "--as", "anna")
    assert code == 2 and "--as anna: only the referee (the GM) plays a chase out" in err
    other = tmp_path / "duel.json"
    setup = Path(__file__).parents[3] / "examples" / "ginlane" / "duel.yaml"
    code, _, err = referee("table", "new", "ginlane", str(setup), "--out", str(other))
    assert code == 0, err
    code, _, err = run("journey", str(other), "--as", "referee")
    assert code == 2 and "a table of 'ginlane', not of zweihander" in err


def test_the_group_named_alone_shows_its_help_and_its_eight_commands() -> None:
    code, out, _ = run()
    assert code == 2 and "Usage: referee zweihander [OPTIONS] COMMAND" in out
    assert "Zweihänder house rules: tests, chases, journeys, intrigue." in out
    commands = ("test", "chase", "journey", "corruption", "travel", "route", "lists")
    for command in (*commands, "requisitions"):
        assert f"│ {command} " in out, command
