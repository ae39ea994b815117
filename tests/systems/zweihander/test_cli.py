"""`referee zweihander ...` end to end: output for good input, one line and status 2 for bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli.zweihander import register

FILES = Path(__file__).parents[3] / "examples" / "zweihander" / "cli"

app = typer.Typer()
register(app)
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["zweihander", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


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
        ("chase", "no-such-file.yaml"),
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


def test_a_bad_scene_file_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("characters: {a: {}}\nchase: {escapees: [a], pursuers: [ghost]}\n")
    code, _, err = run("chase", str(bad))
    assert code == 2 and "ghost" in err
    bad.write_text("characters: [\n")
    code, _, err = run("chase", str(bad))
    assert code == 2 and "not valid YAML" in err


def test_chase_runs_to_an_end() -> None:
    code, out, _ = run("chase", str(FILES / "chase.yaml"), "--seed", "7")
    assert code == 0 and "Ladder: cutpurse" in out and "The chase ends" in out


def test_journey_runs_stretch_by_stretch() -> None:
    code, out, _ = run("journey", str(FILES / "route.yaml"), "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    kinds = [e["kind"] for e in data["events"]]
    assert kinds.count("journey.stretch_ended") == 2 and kinds[-1] == "journey.ended"


def test_exchange_hides_the_secret_skills_from_players_until_the_end() -> None:
    code, text, _ = run(
        "exchange", str(FILES / "exchange.yaml"), "--as", "bert", "--seed", "1", "--json"
    )
    assert code == 0
    events = json.loads(text)["events"]
    assert "favourable" in events[0]["redacted"]
    assert all("favourable" not in e["payload"] for e in events[:-1])
    assert events[-1]["payload"]["favourable"] == "Charm"
    code, out, _ = run("exchange", str(FILES / "exchange.yaml"), "--seed", "1")
    assert "[secret: Favourable Charm" in out


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
    text = "characters:\n" + "".join(f"  {n}: {sheet}\n" for n in names)
    text += f"chase:\n  escapees: [{names[0]}]\n  pursuers: [{', '.join(names[1:])}]\n"
    text += "  escape_condition: 9\n"
    scene = tmp_path / "crowd.yaml"
    scene.write_text(text)
    code, out, _ = run("chase", str(scene), "--seed", "5")
    assert code == 0 and "The chase ends" in out
