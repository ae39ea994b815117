"""`referee intrigue ...`: the referee's commands, and bad input refused in one line (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.intrigue import parse_value

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


def test_a_perception_check_shows_the_odds_first_then_the_envelopes(game: Path) -> None:
    code, out, _ = run("perceive", str(game), "07", "scarface", "--dice", "4,4,4", "--at", "21:35")
    assert code == 0
    assert out.index("62.5%") < out.index("perception.made")
    assert "A fresh scar" in out
    assert (game.parent / "evening.log.json").exists()


def test_the_holder_does_not_see_the_contents(game: Path) -> None:
    code, out, _ = run(
        "perceive", str(game), "krockin", "15", "--dice", "4,4,4", "--as", "scarface"
    )
    assert code == 0 and "A fresh scar" not in out and "odds" not in out
    assert "(hidden: perception, faces, chances, contents)" in out


def test_the_cooldown_is_refused_with_the_time_left(game: Path) -> None:
    run("perceive", str(game), "07", "15", "--dice", "1,1,1", "--at", "21:35")
    code, _, err = run("perceive", str(game), "07", "15", "--dice", "6,6,6", "--at", "21:40")
    assert code == 2
    assert err.count("\n") == 1 and "21:50" in err and "10m00s left" in err
    code, _, _ = run("perceive", str(game), "07", "15", "--dice", "6,6,6", "--at", "21:50")
    assert code == 0


def test_a_skill_roll_with_its_odds(game: Path) -> None:
    code, out, _ = run(
        "roll", str(game), "krockin", "Medicine", "--target", "14", "--dice", "6,6,1"
    )
    assert code == 0 and out.index("25.9%") < out.index("skill.rolled")
    assert "total=14" in out and "success=true" in out


def test_a_combat_step_by_step(game: Path) -> None:
    g = str(game)
    assert run("act", g, "scarface", "draw", "item=knife")[0] == 0
    assert run("act", g, "scarface", "start_combat", "targets=[krockin]")[0] == 0
    assert run("act", g, "15", "declare", "action=attack", "target=krockin")[0] == 0
    assert run("act", g, "krockin", "declare", "action=defend")[0] == 0
    code, out, _ = run("combat", g)
    assert code == 0 and "next roll scarface attack krockin: 3d6+2 > 14" in out
    assert "25.9%" in out
    code, out, _ = run("act", g, "referee", "resolve", "--dice", "6,6,6")
    assert code == 0 and out.index("odds") < out.index("attack.rolled")
    assert "damage.taken" in out
    code, out, _ = run("status", g, "krockin")
    assert code == 0 and "Stamina 6/6" in out


def test_status_shows_knocked_out_until_when(game: Path) -> None:
    g = str(game)
    run("act", g, "krockin", "start_combat", "targets=[15]")
    run("act", g, "krockin", "declare", "action=attack", "target=15")
    run("act", g, "scarface", "declare", "action=defend")
    run("act", g, "referee", "resolve", "--dice", "6,6,6")
    run("act", g, "referee", "resolve")
    run("act", g, "krockin", "use_mind")
    run("act", g, "krockin", "declare", "action=attack", "target=15", "ability=Energy Bolt")
    run("act", g, "scarface", "declare", "action=scream")
    code, out, err = run("act", g, "referee", "resolve", "--dice", "6,6,6", "--at", "21:40")
    assert code == 0, err
    code, out, _ = run("status", g, "scarface")
    assert "Knocked Out until 21:45" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("perceive", "{game}", "99", "15"), "no character '99'"),
        (("act", "{game}", "15", "declare", "action"), "write key=value"),
        (("act", "{game}", "15", "fly"), "no action 'fly'"),
        (("perceive", "{game}", "07", "15", "--at", "quarter past"), "--at"),
        (("perceive", "{game}", "07", "15", "--at", "25:00"), "--at"),
        (("perceive", "{game}", "07", "15", "--dice", "a,b"), "--dice"),
        (("perceive", "{game}", "07", "15", "--dice", "1"), "ran out"),
        (("perceive", "{game}", "07", "15", "--as", "nobody"), "--as"),
        (("roll", "{game}", "07", "Medicine"), "exactly one of --target and --against"),
        (("check", "{missing}"), "cannot read"),
        (("roll", "{game}", "07", "Medicine", "--target", "abc"), "--target"),
        (("act", "{game}", "07", "roll", "skill=[1]", "target=3"), "skill"),
        (
            ("act", "{game}", "07", "roll", "skill=Medicine", "against=15", "against_skill=[x]"),
            "against_skill",
        ),
        (("act", "{game}", "07", "start_combat", "targets=[15]", "surprised=15"), "surprised"),
        (("perceive", "{game}", "07", "15", "--seed", "x"), "--seed"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(game: Path, args: tuple[str, ...], message: str) -> None:
    filled = [a.format(game=game, missing=game.parent / "nope.yaml") for a in args]
    code, _, err = run(*filled)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_bad_game_file_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("characters:\n  a: {number: 15}\n  b: {number: 15}\n")
    code, _, err = run("check", str(bad))
    assert code == 2 and "characters.b.number" in err and err.count("\n") == 1
    bad.write_text("characters: [\n")
    code, _, err = run("check", str(bad))
    assert code == 2 and "line" in err


def test_values_on_the_command_line() -> None:
    assert parse_value("[bob, 12]") == ["bob", 12]
    assert parse_value("07") == "07" and parse_value("-3") == -3
    assert parse_value("Energy Bolt") == "Energy Bolt" and parse_value("[]") == []


def test_a_time_before_the_last_event_is_refused_not_read_as_tomorrow(game: Path) -> None:
    run("perceive", str(game), "07", "15", "--dice", "1,1,1", "--at", "22:00")
    code, _, err = run("status", str(game), "--at", "21:45")
    assert code == 2 and "cannot go back" in err and err.count("\n") == 1
    code, _, err = run("status", str(game), "--at", "21:59")
    assert code == 2
    assert run("status", str(game), "--at", "+10m")[0] == 0


def test_a_scenario_file_serves_as_a_game_file(tmp_path: Path) -> None:
    scenario = Path(__file__).resolve().parents[3] / "examples" / "intrigue" / "lady-rich.yaml"
    copy = tmp_path / "lady-rich.yaml"
    copy.write_text(scenario.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run("check", str(copy))
    assert code == 0 and "Lady Rich" in out


def test_the_referee_reads_a_plain_summary(game: Path) -> None:
    code, out, _ = run("perceive", str(game), "07", "15", "--dice", "4,4,4")
    assert code == 0
    assert "krockin totals 14 on scarface" in out
    assert "it reads: A fresh scar" in out
    code, out, _ = run("perceive", str(game), "15", "07", "--dice", "1,1,1", "--as", "krockin")
    assert "no envelope is handed over" in out


@pytest.mark.parametrize("viewer", ["public", "scarface"])
def test_odds_of_a_private_roll_are_not_shown_to_another_viewer(game: Path, viewer: str) -> None:
    """Rulings 3 and "Mental Combat": the odds before a skill roll are the referee's, and an
    unnoticed mental attack is the two characters' alone: another viewer is shown no odds line
    (it would name the ability, the target and the roller's stats)."""
    g = str(game)
    roll = ("roll", g, "krockin", "Medicine", "--target", "14", "--dice", "1,1,1")
    code, out, _ = run(*roll, "--as", viewer)
    assert code == 0 and "odds" not in out and "Medicine" not in out
    game.write_text(
        game.read_text().replace(
            "      Energy Bolt:",
            "      Read Mind: {mental: true, effect: she tells him}\n      Energy Bolt:",
        )
        + "  rich: {name: Lady Rich, number: 44, mind: 1}\n"
    )
    attack = ("act", g, "krockin", "mental_attack", "target=rich", "ability=Read Mind")
    code, out, _ = run(*attack, "--dice", "6,6,6", "--as", viewer)
    assert code == 0 and "odds" not in out and "Read Mind" not in out
    code, out, _ = run(*attack, "--dry-run", "--as", "rich")
    assert code == 0 and "odds krockin Read Mind rich" in out  # the target may see them
