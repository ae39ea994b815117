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
    assert [line.rstrip() for line in out.splitlines()] == [  # the title and artha on the left
        "4B against Ob 3",
        "┏━━━━━━━━━━━━━━━━━━┳━━━━━━┳━━━━━━━━━━┳━━━━━━━━┓",
        "┃ Artha            ┃ Dice ┃   Chance ┃      % ┃",
        "┡━━━━━━━━━━━━━━━━━━╇━━━━━━╇━━━━━━━━━━╇━━━━━━━━┩",
        "│ no artha         │    4 │     5/16 │ 31.25% │",
        "│ Fate             │    4 │  125/288 │ 43.40% │",
        "│ 1 Persona        │    5 │      1/2 │ 50.00% │",
        "│ 1 Persona + Fate │    5 │ 691/1152 │ 59.98% │",
        "└──────────────────┴──────┴──────────┴────────┘",
    ]
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
    built = json.loads(out)
    assert out == json.dumps(built, indent=2) + "\n"
    assert list(built) == ["factions", "warning"] and "far apart" in built["warning"]
    assert built["factions"][0]["total"] == 22
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


def table(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["table", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_chronicle_is_played_with_referee_table(tmp_path: Path) -> None:
    """The chronicle at the table is a table record played with `referee table`: slips are
    sealed (the acting seat alone sees its parameters), other seats see nothing of them, the
    reveal shows every slip with the odds, and the narration is the game's vocabulary."""
    example = EXAMPLES / "four-factions-every-maneuver.yaml"
    record = tmp_path / "chronicle.json"
    assert table("new", "kingdoms", str(example), "--out", str(record))[0] == 0
    code, out, err = table(
        "act", str(record), "--as", "bob", "write_slip",
        "maneuver=Infiltrate", "skill=Inconspicuous", "target=spiders",
    )  # fmt: skip
    assert code == 0, err
    assert "Infiltrate" not in table("show", str(record), "--as", "ann")[1]
    assert "Infiltrate" not in table("log", str(record), "--as", "ann", "--json")[1]
    assert "Infiltrate" in table("show", str(record), "--as", "bob")[1]
    for seat, params in (
        ("ann", ["maneuver=Assess", "skill=Observation", "target=dwarves"]),
        ("cat", ["maneuver=Fortify", "skill=Fortifications"]),
        ("dan", ["maneuver=Assess", "skill=Observation", "target=elves"]),
    ):
        assert table("act", str(record), "--as", seat, "write_slip", *params)[0] == 0
    code, _, err = table("act", str(record), "--as", "ann", "reveal")
    assert code == 2 and "waiting for" in err
    conflict = ["kind=conflict", "target=spiders", "outcome=spies in the web"]
    assert table("act", str(record), "--as", "bob", "scene", *conflict)[0] == 0
    for seat in ("ann", "bob", "cat", "dan"):
        assert table("act", str(record), "--as", seat, "pass")[0] == 0
    code, out, err = table("act", str(record), "--as", "ann", "reveal", "--seed", "7")
    assert code == 0, err
    assert (
        "Slips revealed" in out
        and "chance that the Orcs' maneuver succeeds against the Spiders" in out
    )
    assert "Infiltrate" in table("show", str(record), "--as", "ann")[1]
    code, out, _ = table("act", str(record), "--as", "ann", "resolve")
    assert code == 0 and "resolved in seat order" in out
    code, _, err = table("act", str(record), "--as", "ann", "write_slip", "skils=Tactics")
    assert code == 2 and "skils" in err
    code, _, err = table("act", str(record), "--as", "bob", "--actor", "elves", "pass")
    assert code == 2 and "does not play" in err


def test_the_old_table_commands_are_gone() -> None:
    """`referee kingdoms new/slip/scene/pass/reveal/...` gave way to `referee table`."""
    for command in ("new", "slip", "scene", "pass", "scenes", "reveal", "artha", "act", "show"):
        code, _, _ = run(command, "x")
        assert code == 2


BAD_FILES: list[tuple[str, bytes, str]] = [
    ("latin1.yaml", "factions: {élves: 1}".encode("latin-1"), "UTF-8"),
    ("deep.yaml", b"factions: " + b"[" * 5000 + b"]" * 5000, "deep"),
    ("huge.yaml", b"factions: {elves: {lifepath_settings: " + b"9" * 5000 + b"}}", "digits"),
    (
        "laughs.yaml",
        b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + b"".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n".encode()
            for i in range(8)
        ),
        "once its aliases are expanded",  # measured, never expanded
    ),
    ("list.yaml", b"[1, 2, 3]", "factions"),
    ("empty.yaml", b"", "factions"),
    ("unknown.yaml", b"factions: {elves: {territorial_relation: native}}\nplayerz: 2", "playerz"),
    (
        "typo.yaml",
        b"factions: {elves: {territorial_relation: native, lifepath_settings: 4, "
        b"mechanical_aptitude: x, population_density: cities, population_growth: normal, "
        b"political_placement: outcast, colour: red}}",
        "factions.elves.colour",
    ),
    (
        "types.yaml",
        b"factions: {elves: {territorial_relation: native, lifepath_settings: many, "
        b"mechanical_aptitude: x, population_density: cities, population_growth: normal, "
        b"political_placement: outcast}}",
        "factions.elves.lifepath_settings",
    ),
    ("players.yaml", b"factions: {elves: {}}\nplayers: lots", "players"),
]


@pytest.mark.parametrize(("name", "content", "words"), BAD_FILES, ids=[n for n, _, _ in BAD_FILES])
def test_a_hostile_disposition_file_is_one_line(
    tmp_path: Path, name: str, content: bytes, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Non-UTF-8, 5,000-deep, a 5,000-digit integer, a billion laughs, the wrong shape,
    unknown keys, wrong types: one line on stderr naming the problem, exit 2, before any
    disposition is built (counted, not timed: the reader's own tests count its work)."""
    from referee.systems.kingdoms import disposition

    built: list[object] = []
    monkeypatch.setattr(disposition, "build_disposition", lambda *args: built.append(args))
    path = tmp_path / name
    path.write_bytes(content)
    code, _, err = run("disposition", str(path))
    assert built == []
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in err
    code, _, err = run("disposition", str(tmp_path / "missing.yaml"))
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize(
    "args,message",
    [
        (("odds", "4", "--ob", "9" * 40), "at most 40"),
        (("odds", "9" * 40, "--ob", "2"), "0 to 40 dice"),
        (("odds", "4", "--versus", "9" * 40), "0 to 40 dice"),
        (("odds", "4", "--versus-shade", "Z", "--versus", "2"), "shade"),
        (("matrix", "Assault", "Charge"), "'Charge' is not a maneuver"),
        (("disposition",), "give a FILE or --interactive"),
    ],
)
def test_hostile_arguments_are_one_line(args: tuple[str, ...], message: str) -> None:
    """Huge integers, bad names, missing arguments: one line, exit 2."""
    code, _, err = run(*args)
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_a_usage_error_is_one_line_from_the_real_command() -> None:
    """Through the installed entry point, a value of the wrong type is one line too."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", "kingdoms", "odds", "four"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "'four' is not a valid int" in done.stderr
    assert done.stderr.count("\n") == 1


def test_huge_artha_is_only_what_a_test_may_spend() -> None:
    """Artha available beyond a test's limits (1 Fate, 3 Persona, 2 Deeds) changes nothing."""
    code, out, _ = run(
        "odds", "2", "--ob", "1", "--persona", "9" * 30, "--fate", "0", "--deeds", "0"
    )
    assert code == 0 and "3 Persona" in out and "4 Persona" not in out


def test_interactive_refuses_a_silly_number_of_factions() -> None:
    code, _, err = run("disposition", "--interactive", stdin="100000\n")
    assert code == 2 and "1 to 20 factions" in err


ELVES = ["elves", "native", "4", "0", "simple tool users", "2", "rural", "slow", "highly-placed"]
ORCS = ["orcs", "hostile", "1", "", "no tools", "", "cities", "normal", "outcast"]


def test_the_builder_asks_each_step_naming_its_choices() -> None:
    """Disposition, Steps One to Seven at the prompt: each faction's name, then each step with
    the answers its table knows; sub-settings and mystical abilities are 0 unless given."""
    code, out, _ = run("disposition", "-i", stdin="\n".join(["2", *ELVES, *ORCS]) + "\n")
    assert code == 0
    asked = [line.rsplit(": ", 1)[0] for line in out.splitlines()[:19]]
    steps = [
        "  Territorial relation (native, secondary, foreign, hostile)",
        "  Lifepath settings",
        "  Sub-settings [0]",
        "  Mechanical aptitude (advanced tool users, simple tool users, primitive tools, no tools)",
        "  Types of mystical ability [0]",
        "  Population density (rural, villages, cities)",
        "  Population growth (slow, normal, fast)",
        "  Political placement (currently in power, highly-placed, rival faction, outcast, "
        "foreign entity)",
    ]
    assert asked == ["How many factions", "Faction 1 name", *steps, "Faction 2 name", *steps]
    assert out.splitlines()[19].startswith("elves: 18")  # the title on the left
    assert (
        "│ territorial relation    │ native                     │     +3 │" in out
    )  # points right
    shown = [
        " ".join(line.strip("│┃ ").split())
        for line in out.splitlines()[19:]
        if not set(line) <= set(" ┏┓┗┛┡┩└┘━─┳╇┴")
    ]
    assert shown[:10] == [
        "elves: 18",
        "Step ┃ Answer ┃ Points",
        "territorial relation │ native │ +3",
        "civilization complexity │ 4 settings, 0 sub-settings │ +8",
        "mechanical aptitude │ simple tool users │ +2",
        "mystical ability │ type 1, type 2 │ +2",
        "population density │ rural │ +0",
        "population growth │ slow │ +0",
        "political placement │ highly-placed │ +3",
        "factions │ 2 factions │ +0",
    ]
    assert shown[10:15] == [
        "orcs: 6",
        "Step ┃ Answer ┃ Points",
        "territorial relation │ hostile │ +0",
        "civilization complexity │ 1 settings, 0 sub-settings │ +2",
        "mechanical aptitude │ no tools │ +0",
    ]
    assert shown[15] == "mystical ability │ no magic │ +0"
    assert " ".join(" ".join(shown[20:]).split()) == (
        "warning: dispositions are far apart (elves 18, orcs 6): consider a different concept "
        "for a faction"
    )


@pytest.mark.parametrize(
    ("count", "refused"),
    [
        (0, "1 to 20 factions"),
        (5, ""),
        (20, "factions.f0: Disposition, Step Seven: the text covers 1 to 5 factions, not 20"),
        (21, "1 to 20 factions"),
    ],
)
def test_the_builder_asks_for_one_to_twenty_factions(count: int, refused: str) -> None:
    """The builder at the prompt asks the steps of 1 to 20 factions (the sum of Step Seven
    then covers 1 to 5); a count beyond is refused before any faction is asked for."""
    answers = [f"f{n}\n" + "\n".join(ELVES[1:]) for n in range(count)]
    code, out, err = run("disposition", "--interactive", stdin=f"{count}\n" + "\n".join(answers))
    assert code == (2 if refused else 0)
    assert refused in err
    assert ("Faction 1 name" in out) == (1 <= count <= 20)
    assert (f"f{count - 1}: " in out) == (not refused)


NO_ARTHA = ("--fate", "0", "--persona", "0", "--deeds", "0")


@pytest.mark.parametrize(
    ("args", "title", "row"),
    [
        (("4", "--ob", "3"), "4B against Ob 3", "│ no artha │    4 │   5/16 │ 31.25% │"),
        (("14", "--ob", "14"), "14B against Ob 14", "│ no artha │   14 │ 1/16384 │ 6.10e-03% │"),
        (("1", "--ob", "5"), "1B against Ob 5", "│ no artha │    1 │      0 │ 0.00% │"),
        (("10", "--ob", "10"), "10B against Ob 10", "│ no artha │   10 │ 1/1024 │ 0.10% │"),
        (("2", "--ob", "2"), "2B against Ob 2", "│ no artha │    2 │    1/4 │ 25.00% │"),
        (
            ("2", "--ob", "2", "--open-ended"),
            "2B against Ob 2",
            "│ no artha │    2 │    1/3 │ 33.33% │",
        ),
        (
            ("3", "--shade", "G", "--versus", "3", "--versus-shade", "W"),
            "3G against 3D versus (the defender wins ties)",
            "│ no artha │    3 │ 463/2916 │ 15.88% │",
        ),
    ],
)
def test_the_odds_name_the_pool_and_the_obstacle_and_give_each_chance_exactly(
    args: tuple[str, ...], title: str, row: str
) -> None:
    """The exact chance of a test (Ob, or versus with the defender winning ties), the shade and
    6s exploding counted, as a fraction and a percentage (a tiny one in scientific notation)."""
    code, out, _ = run("odds", *args, *NO_ARTHA)
    assert code == 0
    lines = out.splitlines()
    assert " ".join(" ".join(lines[:-5]).split()) == title
    assert " ".join(lines[-4].strip("┃ ").split()) == "Artha ┃ Dice ┃ Chance ┃ %"
    assert lines[-2] == row  # the artha to the left, the numbers to the right


@pytest.mark.parametrize(
    ("row", "column", "cell"),
    [
        ("assault", "ASSAULT", "Assault meeting Assault: I (independent)"),
        ("Assault", "conserve", "Assault meeting Conserve: V (versus)"),
        ("harry", "Assault", "Harry meeting Assault: dV (Harry's defence dice versus)"),
        ("Harry", "ensnare", "Harry meeting Ensnare: aV (Harry's attack dice versus)"),
    ],
)
def test_a_cell_of_the_matrix_is_named_in_the_texts_words(row: str, column: str, cell: str) -> None:
    """The Independent and Versus Maneuver Matrix: independent, versus, and Harry's two."""
    assert run("matrix", row, column) == (0, cell + "\n", "")


@pytest.mark.parametrize("args", [("Charge",), ("Sap", "Charge")])
def test_a_maneuver_not_in_the_matrix_is_refused_naming_the_eleven(args: tuple[str, ...]) -> None:
    code, _, err = run("matrix", *args)
    assert code == 2 and err == (
        "referee: error: matrix: 'Charge' is not a maneuver (Assault, Assess, Conserve, "
        "Ensnare, Fortify, Gambit, Harry, Infiltrate, Onslaught, Ploy, Sap)\n"
    )


def test_the_matrix_shows_every_row_or_the_one_asked_for() -> None:
    """The whole matrix (each maneuver's row, each column headed by its first five letters),
    or one maneuver's row."""
    heading = "MANEUVER ┃ Assau ┃ Asses ┃ Conse ┃ Ensna ┃ Forti ┃ Gambi ┃ Harry ┃ Infil ┃ Onsla ┃ "
    sap = "Sap │ I │ I │ V │ V │ V │ I │ V │ I │ I │ V │ I"
    for args, rows in (((), 11), (("sAP",), 1)):
        result = runner.invoke(app, ["kingdoms", "matrix", *args], env={"COLUMNS": "200"})
        assert result.exit_code == 0
        lines = [" ".join(line.strip("│┃ ").split()) for line in result.stdout.splitlines()]
        assert result.stdout.startswith("Independent and Versus Maneuver Matrix")  # on the left
        assert lines[2] == heading + "Ploy ┃ Sap"
        assert lines[4:-1][-1] == sap and len(lines[4:-1]) == rows
    assert lines[4:-1] == [sap]


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        (("4",), "odds: give exactly one of --ob N and --versus N"),
        (("4", "--ob", "41"), "odds: an obstacle is 1 or more (at most 40), not --ob 41"),
        (("4", "--ob", "40"), ""),
    ],
)
def test_the_odds_take_an_obstacle_of_one_to_forty(args: tuple[str, ...], refusal: str) -> None:
    code, out, err = run("odds", *args, *NO_ARTHA)
    assert (code, err) == ((2, f"referee: error: {refusal}\n") if refusal else (0, ""))
    assert ("│ no artha │    4 │      0 │ 0.00% │" in out) == (not refusal)


def test_the_builder_needs_a_file_or_the_prompt() -> None:
    assert run("disposition") == (
        2,
        "",
        "referee: error: disposition: give a FILE or --interactive\n",
    )


def test_a_bad_answer_at_the_prompt_is_named_by_its_faction() -> None:
    wrong = [*ORCS[:4], "none", *ORCS[5:]]
    code, _, err = run("disposition", "-i", stdin="\n".join(["1", *wrong]) + "\n")
    assert code == 2 and err.startswith(
        "referee: error: disposition: factions.orcs: Disposition, Step Three: 'none' is not one of"
    )


def test_six_players_play_three_factions_of_two(tmp_path: Path) -> None:
    """Disposition, Step Seven: six or more players divide into three two-player factions."""
    answers = {
        "territorial_relation": "native",
        "lifepath_settings": 4,
        "mechanical_aptitude": "simple tool users",
        "population_density": "rural",
        "population_growth": "slow",
        "political_placement": "highly-placed",
    }
    path = tmp_path / "six.yaml"
    path.write_text(yaml.safe_dump({"players": 6, "factions": {"a": answers, "b": answers}}))
    code, _, err = run("disposition", str(path))
    assert code == 2 and "six or more players divide into three two-player factions, not 2" in err


@pytest.mark.parametrize(
    ("args", "row"),
    [
        (("0", "--ob", "1"), "│ no artha │    0 │      0 │ 0.00% │"),
        (("40", "--ob", "1"), "│ no artha │   40 │ 1099511627775/1099511627776 │ 100.00% │"),
        (("4", "--versus", "0"), "│ no artha │    4 │  15/16 │ 93.75% │"),
        (("4", "--versus", "40"), "│ no artha │    4 │ 14235/17592186044416 │ 8.09e-08% │"),
    ],
)
def test_a_pool_of_the_odds_has_zero_to_forty_dice(args: tuple[str, ...], row: str) -> None:
    """The tester's pool and the defender's each take 0 to 40 dice (a defender of none loses
    only to a tester who rolls a success)."""
    code, out, err = run("odds", *NO_ARTHA, *args)
    assert (code, err) == (0, "")
    assert out.splitlines()[-2] == row


@pytest.mark.parametrize(
    ("args", "refused"),
    [
        (("41", "--ob", "1"), "41"),
        (("--ob", "1", "--", "-1"), "-1"),
        (("4", "--versus", "41"), "41"),
        (("4", "--versus=-1"), "-1"),
        (("41", "--versus", "4"), "41"),
        (("0", "--versus", "41"), "41"),
        (("40", "--versus", "41"), "41"),
    ],
)
def test_a_pool_past_zero_to_forty_dice_is_refused_naming_it(
    args: tuple[str, ...], refused: str
) -> None:
    """The refusal names the number refused: the tester's pool, else the defender's."""
    code, out, err = run("odds", *NO_ARTHA, *args)
    assert (code, out) == (2, "")
    assert err == f"referee: error: odds: a pool has 0 to 40 dice, not {refused}\n"


def test_the_group_named_alone_shows_its_help_and_its_three_commands() -> None:
    result = runner.invoke(app, ["kingdoms"], env={"COLUMNS": "200"})
    out = " ".join(result.stdout.split())
    assert result.exit_code == 2 and out.startswith(
        "Usage: referee kingdoms [OPTIONS] COMMAND [ARGS]... Burning Kingdoms: dispositions, "
        "sealed maneuver slips, scenes, the matrix, odds. ╭─ Options"
    )
    for command in ("matrix", "odds", "disposition"):
        assert f"│ {command} " in out, command


@pytest.mark.parametrize(
    ("args", "rows"),
    [
        (
            ("4", "--ob", "3", "--fate", "0", "--persona", "0", "--deeds", "2"),
            [
                "no artha │ 4 │ 5/16 │ 31.25%",
                "Deeds (reroll) │ 4 │ 189/256 │ 73.83%",
                "Deeds (double) │ 8 │ 219/256 │ 85.55%",
                "Deeds (double) + Deeds (reroll) │ 8 │ 65259/65536 │ 99.58%",
            ],
        ),
        (
            ("4", "--versus", "3", "--fate", "1", "--persona", "0", "--deeds", "0"),
            ["no artha │ 4 │ 1/2 │ 50.00%", "Fate │ 4 │ 3995/6912 │ 57.80%"],
        ),
    ],
)
def test_the_odds_list_every_way_to_spend_the_deeds_or_fate_available(
    args: tuple[str, ...], rows: list[str]
) -> None:
    """Deeds doubles the dice before the roll or rerolls the failures after it, each at most
    once; Fate opens the 6s after a roll — in a versus test too, against the defender's pool."""
    code, out, _ = run("odds", *args)
    assert code == 0
    lines = [" ".join(line.strip("│ ").split()) for line in out.splitlines() if "│" in line]
    assert lines == rows
