"""`referee kingdoms ...`: matrix, odds, dispositions, a sealed table; bad input exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from referee.cli import app

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "kingdoms"
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["kingdoms", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_matrix_cell_and_grid() -> None:
    """The matrix, whole or one cell, in the text's words."""
    code, out, _ = run("matrix", "harry", "fortify")
    assert code == 0 and "Harry meeting Fortify: aV (Harry's attack dice versus)" in out
    code, out, _ = run("matrix", "Sap")
    assert code == 0 and "Sap" in out


def test_odds_for_each_artha_choice() -> None:
    """Exact odds of a test with each way of spending the artha available."""
    code, out, _ = run("odds", "4", "--ob", "3", "--fate", "1", "--persona", "1", "--deeds", "0")
    assert code == 0
    assert "5/16" in out and "125/288" in out and "1/2" in out  # none, Fate, 1 Persona
    code, out, _ = run(
        "odds", "4", "--versus", "3", "--fate", "0", "--persona", "0", "--deeds", "0"
    )
    assert code == 0 and "1/2" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (("odds", "4"), "exactly one of --ob N and --versus N"),
        (("odds", "4", "--ob", "2", "--shade", "Q"), "not a shade"),
        (("odds", "400", "--ob", "2"), "0 to 40 dice"),
        (("matrix", "Charge"), "'Charge' is not a maneuver"),
        (("odds", "4", "--ob", "-1"), "an obstacle is 1 or more"),
        (("odds", "4", "--ob", "0"), "an obstacle is 1 or more"),
        (("odds", "4", "--ob", "2", "--fate", "-1"), "artha available is 0 or more"),
        (("odds", "4", "--ob", "2", "--persona", "-2"), "artha available is 0 or more"),
        (("odds", "4", "--versus", "2", "--deeds", "-1"), "artha available is 0 or more"),
    ],
)
def test_bad_input_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    """Bad input: one line on stderr naming it, exit status 2, no traceback."""
    code, _, err = run(*args)
    assert code == 2
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_disposition_from_a_file(tmp_path: Path) -> None:
    """Build dispositions from a file of answers; each step shown; far-apart warning."""
    answers = {
        "territorial_relation": "native",
        "lifepath_settings": 4,
        "sub_settings": 1,
        "mechanical_aptitude": "advanced tool users",
        "mystical_abilities": 1,
        "population_density": "cities",
        "population_growth": "normal",
        "political_placement": "currently in power",
    }
    weak = {
        **answers,
        "territorial_relation": "hostile",
        "political_placement": "outcast",
        "lifepath_settings": 1,
        "sub_settings": 0,
    }
    path = tmp_path / "dispo.yaml"
    path.write_text(yaml.safe_dump({"factions": {"dwarves": answers, "goblins": weak}}))
    code, out, _ = run("disposition", str(path))
    assert code == 0 and "dwarves: 22" in out and "civilization complexity" in out
    assert "far apart" in out
    code, out, _ = run("disposition", str(path), "--json")
    assert json.loads(out)["factions"][0]["total"] == 22
    path.write_text(
        yaml.safe_dump({"factions": {"dwarves": {**answers, "population_density": "towns"}}})
    )
    code, _, err = run("disposition", str(path))
    assert code == 2 and "factions.dwarves" in err and "'towns' is not one of" in err


def test_disposition_interactive() -> None:
    """The builder at the prompt, step by step."""
    stdin = "1\nelves\nnative\n4\n0\nsimple tool users\n2\nrural\nslow\nhighly-placed\n"
    code, out, _ = run("disposition", "--interactive", stdin=stdin)
    assert code == 0 and "elves: 18" in out  # 3 + 8 + 2 + 2 + 0 + 0 + 3


def test_a_table_with_sealed_slips(tmp_path: Path) -> None:
    """A table file: slips sealed (the command prints nothing of them, other factions cannot
    see them), scenes left, reveal with odds, resolve with each effect explained."""
    setup = yaml.safe_load((EXAMPLES / "four-factions-every-maneuver.yaml").read_text())["setup"]
    (tmp_path / "setup.yaml").write_text(yaml.safe_dump(setup))
    table = str(tmp_path / "t.json")
    assert run("new", table, str(tmp_path / "setup.yaml"))[0] == 0
    code, out, _ = run("slip", table, "orcs", "Infiltrate", "Inconspicuous", "--target", "spiders")
    assert code == 0 and "Infiltrate" not in out and "sealed" in out
    for faction, rest in (
        ("elves", ["Assess", "Observation", "--target", "dwarves"]),
        ("dwarves", ["Fortify", "Fortifications"]),
        ("spiders", ["Assess", "Observation", "--target", "elves"]),
    ):
        assert run("slip", table, faction, *rest)[0] == 0
    code, out, _ = run("show", table, "--as", "elves")
    assert "Infiltrate" not in out and "sealed: slip" in out
    code, out, _ = run("show", table, "--as", "elves", "--json")
    assert set(json.loads(out)["state"]["slips"]) == {"elves"}
    code, out, _ = run(
        "scene", table, "orcs", "building", "--skill", "Inconspicuous", "--ob", "2", "--seed", "1"
    )
    assert code == 0
    code, out, _ = run("scenes", table)
    assert code == 0 and "orcs" in out
    code, _, err = run("reveal", table, "elves")
    assert code == 2 and "waiting for" in err
    for faction in ("elves", "orcs", "dwarves", "spiders"):
        assert run("pass", table, faction)[0] == 0
    code, out, _ = run("reveal", table, "elves", "--seed", "7")
    assert code == 0 and "Slips revealed" in out and "odds orcs → spiders" in out
    code, out, _ = run("show", table, "--as", "elves")
    assert "Infiltrate" in out
    code, out, _ = run("resolve", table, "elves")
    assert code == 0 and "resolved in seat order" in out
    code, out, _ = run("act", table, "elves", "next_maneuver")
    assert code == 0 and "maneuver.started" in out
    code, _, err = run("act", table, "elves", "join", "-p", "faction=orcs")
    assert code == 2 and "still in contention" in err
    code, _, err = run("act", table, "elves", "pass", "-p", "oops")
    assert code == 2 and "not key=value" in err


def test_bad_table_file(tmp_path: Path) -> None:
    """A missing or malformed table file is one line and exit 2."""
    code, _, err = run("show", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, _, err = run("show", str(bad))
    assert code == 2 and "not a table file" in err
