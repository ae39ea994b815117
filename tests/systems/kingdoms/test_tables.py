"""The printed tables ("Matrix", "Conquest Maneuvers", Steps One–Seven) checked cell by cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.systems.kingdoms import tables
from referee.systems.kingdoms.tables import (
    MANEUVERS,
    ROOT_STATS,
    TableError,
    load_yaml,
    maneuver,
    matrix,
    setup_tables,
    skill_roots,
)

RULES = Path(__file__).resolve().parents[4] / "shared" / "rules" / "burning-kingdoms.txt"

# "Independent and Versus Maneuver Matrix", transcribed by hand from the text a second time.
TEXT_MATRIX = """
Assault I I V V V I V I I V I
Assess I V I V I I V V I V I
Conserve V I I I I V I V V V V
Ensnare V V I V I I V V V V V
Fortify V I I I I I V V V I V
Gambit I I V I I V I V I V I
Harry dV dV I aV aV I V dV dV I dV
Infiltrate I V V V V V V I I I I
Onslaught I I V V V I V I I I I
Ploy V V V V I V I I I V V
Sap I I V V V I V I I V I
"""

EXPECTED = {
    line.split()[0]: dict(zip(MANEUVERS, line.split()[1:], strict=True))
    for line in TEXT_MATRIX.strip().splitlines()
}


@pytest.mark.parametrize("row", MANEUVERS)
@pytest.mark.parametrize("column", MANEUVERS)
def test_matrix_cell(row: str, column: str) -> None:
    """Matrix: every one of the 121 cells as the text prints it."""
    assert matrix().cell(row, column) == EXPECTED[row][column]


@pytest.mark.skipif(not RULES.exists(), reason="the rules text is not beside the repository")
def test_matrix_against_the_rules_text() -> None:
    """Matrix: the data file equals the table in the rules text itself."""
    lines = RULES.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("MANEUVER Assault"))
    assert lines[start].split()[1:] == list(MANEUVERS)
    for line in lines[start + 1 : start + 12]:
        row, *cells = line.split()
        assert [matrix().cell(row, c) for c in MANEUVERS] == cells


def test_matrix_is_symmetric_up_to_harrys_split() -> None:
    """Matrix: a pair is versus from both sides or independent from both (dV/aV read as V)."""
    for row in MANEUVERS:
        for column in MANEUVERS:
            assert matrix().is_versus(row, column) == matrix().is_versus(column, row), (row, column)


def test_harry_text_agrees_with_its_row() -> None:
    """Harry: defence against Assault, Assess, Infiltrate, Onslaught, Sap; attack vs Ensnare,
    Fortify; neither tested against Gambit or Ploy."""
    for column in ("Assault", "Assess", "Infiltrate", "Onslaught", "Sap"):
        assert matrix().cell("Harry", column) == "dV"
    for column in ("Ensnare", "Fortify"):
        assert matrix().cell("Harry", column) == "aV"
    for column in ("Gambit", "Ploy", "Conserve"):
        assert matrix().cell("Harry", column) == "I"


def test_conserve_and_ensnare_opposition_notes_agree() -> None:
    """Conserve is not rolled against Assess, Ensnare, Fortify, Harry, Conserve; Ensnare not
    against Conserve, Fortify or Gambit."""
    for column in ("Assess", "Ensnare", "Fortify", "Harry", "Conserve"):
        assert matrix().cell("Conserve", column) == "I"
    for column in ("Conserve", "Fortify", "Gambit"):
        assert matrix().cell("Ensnare", column) == "I"


def test_gambit_is_independent_of_ensnare_fortify_harry() -> None:
    """Gambit: "independent of Ensnare, Fortify and Harry"."""
    for column in ("Ensnare", "Fortify", "Harry"):
        assert matrix().cell("Gambit", column) == "I"


SKILLS = {
    "Assault": 12,
    "Assess": 13,
    "Conserve": 19,
    "Ensnare": 22,
    "Fortify": 15,
    "Gambit": 13,
    "Harry": 14,
    "Infiltrate": 20,
    "Onslaught": 8,
    "Ploy": 16,
    "Sap": 17,
}


@pytest.mark.parametrize("name", MANEUVERS)
def test_maneuver_skill_lists(name: str) -> None:
    """Conquest Maneuvers: each list as long as the text's, spelled as the text spells it."""
    info = maneuver(name)
    assert len(info.skills) == SKILLS[name]
    assert len(set(info.skills)) == len(info.skills)


@pytest.mark.skipif(not RULES.exists(), reason="the rules text is not beside the repository")
@pytest.mark.parametrize("name", MANEUVERS)
def test_maneuver_skills_against_the_rules_text(name: str) -> None:
    """Conquest Maneuvers: the skill list is the text's line under "Skills"."""
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index("\n" + name + "\n", text.index("Conquest Maneuvers\n\nEach")) :]
    after = section[section.index("\nSkills\n") + len("\nSkills\n") :].lstrip("\n")
    line = after.splitlines()[0]
    assert tuple(s.strip() for s in line.split(",")) == maneuver(name).skills


def test_maneuver_conditions() -> None:
    """Requirements, costs and bonuses as the text states them."""
    assert {n for n in MANEUVERS if maneuver(n).requires == "assessed"} == {
        "Assault",
        "Gambit",
        "Onslaught",
    }
    assert {n for n in MANEUVERS if maneuver(n).requires == "infiltrated"} == {"Ploy", "Sap"}
    assert maneuver("Gambit").cost == 3 and maneuver("Ploy").cost == 3
    assert maneuver("Onslaught").bonus == 3
    assert maneuver("Assess").independent_ob == 2 and maneuver("Fortify").independent_ob == 2
    assert maneuver("Infiltrate").independent_ob == "circles"
    assert maneuver("Sap").independent_ob == "exponent"
    assert maneuver("Ploy").targets == 2
    assert {n for n in MANEUVERS if maneuver(n).conflict == "forbidden"} == {
        "Assess",
        "Conserve",
        "Fortify",
    }
    # Scene Economy: "If the faction chose an offensive maneuver aimed at another faction, they
    # must also direct one conflict scene at the targetted faction" (audit W2)
    assert {n for n in MANEUVERS if maneuver(n).conflict == "required"} == {
        "Assault",
        "Ensnare",
        "Gambit",
        "Infiltrate",
        "Onslaught",
        "Ploy",
        "Sap",
    }
    assert {n for n in MANEUVERS if maneuver(n).conflict == "optional"} == {"Harry"}


@pytest.mark.parametrize("read", ["cached", "afresh"])
def test_setup_tables(read: str) -> None:
    """Steps One–Seven, "Faction Leaders" and "Mandatory Relationships", the artha table,
    "Prologues", "Scene Economy" and "Downtime", value by value: as the rules read them
    (cached) and read afresh from the file (a cache filled once hides a misreading from every
    later test)."""
    t = tables.setup_tables()
    if read == "afresh":
        t = tables._setup_from(tables.load_yaml("setup.yaml"))
        assert t == tables.setup_tables()
    assert t.territorial_relation == {"native": 3, "secondary": 2, "foreign": 1, "hostile": 0}
    assert t.mechanical_aptitude == {
        "advanced tool users": 3,
        "simple tool users": 2,
        "primitive tools": 1,
        "no tools": 0,
    }
    assert t.population_density == {"rural": 0, "villages": 1, "cities": 2}
    assert t.population_growth == {"slow": 0, "normal": 1, "fast": 2}
    assert t.political_placement == {
        "currently in power": 4,
        "highly-placed": 3,
        "rival faction": 2,
        "outcast": 1,
        "foreign entity": 0,
    }
    assert dict(t.faction_reduction) == {1: 0, 2: 0, 3: 1, 4: 3, 5: 6}
    assert {k: dict(v) for k, v in t.starting_artha.items()} == {
        10: {"fate": 0, "persona": 0, "deeds": 0},
        9: {"fate": 1, "persona": 0, "deeds": 0},
        8: {"fate": 1, "persona": 1, "deeds": 0},
        7: {"fate": 2, "persona": 1, "deeds": 0},
        6: {"fate": 3, "persona": 2, "deeds": 0},
        5: {"fate": 3, "persona": 2, "deeds": 1},
    }
    assert (t.leader_stat_cap, t.leader_skill_cap, t.leader_lifepaths) == (7, 6, (5, 10))
    assert dict(t.scenes) == {"color": 1, "interstitial": 1, "building": 3, "conflict": 1}
    assert len(t.prologue_skills) == 42
    assert "Stentorious Debate" in t.prologue_skills
    assert t.prologue_skills[:3] == ("Accounting", "Administration", "Artillerist")
    assert t.prologue_skills[-1] == "War Engineer"
    assert (t.complexity_per_setting, t.complexity_per_setting_or_subsetting) == (2, 1)
    assert t.mystical_per_type == 1
    assert (t.second_lifepaths_fewer, t.second_cap_lower, t.rival_relationships) == (2, 1, 2)
    assert t.downtime_months_per_success == 3


def test_bad_matrix_is_refused() -> None:
    """A malformed table is refused when loaded, naming the cell."""
    data = tables.load_yaml("matrix.yaml")
    data["rows"]["Sap"][3] = "X"
    with pytest.raises(TableError, match=r"rows.Sap.Ensnare"):
        tables._matrix_from(data)
    data = tables.load_yaml("matrix.yaml")
    data["rows"]["Sap"][3] = "dV"
    with pytest.raises(TableError, match="only Harry"):
        tables._matrix_from(data)


def test_bad_maneuvers_are_refused() -> None:
    """A maneuver entry with an unknown requirement is refused."""
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["requires"] = "bribed"
    with pytest.raises(TableError, match=r"Sap\.requires"):
        tables._maneuvers_from(data)


def test_a_malformed_setup_table_is_refused_when_read() -> None:
    """A missing entry, a gap in the starting artha table or an artha row without one of
    fate, persona and deeds is refused naming setup.yaml."""
    good = tables.load_yaml("setup.yaml")
    missing = {k: v for k, v in good.items() if k != "scenes"}
    with pytest.raises(TableError, match=r"^setup\.yaml: KeyError\('scenes'\)"):
        tables._setup_from(missing)
    gap = {**good, "starting_artha": {k: v for k, v in good["starting_artha"].items() if k != 7}}
    with pytest.raises(TableError, match=r"^setup\.yaml: starting_artha needs every lifepath"):
        tables._setup_from(gap)
    row = {**good, "starting_artha": {**good["starting_artha"], 7: {"fate": 2, "persona": 1}}}
    with pytest.raises(TableError, match=r"^setup\.yaml: starting_artha\.7: needs fate"):
        tables._setup_from(row)
    with pytest.raises(TableError, match=r"^setup\.yaml: "):
        tables._setup_from(None)


def test_the_maneuvers_are_read_from_their_file_with_their_costs_bonuses_and_obs() -> None:
    """ "Conquest Maneuvers": Gambit and Ploy cost 3 disposition, Onslaught grants 3 dice,
    Assess and Fortify are Ob 2 independent, Infiltrate the target's Circles, Ploy and Sap
    the target's exponent; read afresh from the file, the same as the game uses."""
    fresh = tables._maneuvers_from(tables.load_yaml("maneuvers.yaml"))
    assert list(fresh) == list(MANEUVERS)
    assert all(fresh[n] == maneuver(n) for n in MANEUVERS)
    summary = {
        n: (i.name, i.targets, i.conflict, i.offensive, i.requires, i.cost, i.bonus)
        for n, i in fresh.items()
    }
    assert summary["Gambit"] == ("Gambit", 1, "required", True, "assessed", 3, 0)
    assert summary["Ploy"] == ("Ploy", 2, "required", True, "infiltrated", 3, 0)
    assert summary["Onslaught"] == ("Onslaught", 1, "required", True, "assessed", 0, 3)
    assert summary["Harry"] == ("Harry", 0, "optional", False, None, 0, 0)
    assert summary["Conserve"] == ("Conserve", 0, "forbidden", False, None, 0, 0)
    obs = {n: i.independent_ob for n, i in fresh.items() if i.independent_ob != "none"}
    assert obs == {
        "Assess": 2,
        "Fortify": 2,
        "Infiltrate": "circles",
        "Ploy": "exponent",
        "Sap": "exponent",
    }
    assert fresh["Assault"].skills[0] == "Artillerist"
    assert fresh["Assault"].has_skill("siege engineer")
    assert not fresh["Assault"].has_skill("Logistics")


def test_a_maneuver_without_a_cost_bonus_or_ob_has_none() -> None:
    """An entry that states no cost, bonus or independent Ob costs nothing, grants nothing and
    takes all successes; a malformed entry is refused naming maneuvers.yaml."""
    data = tables.load_yaml("maneuvers.yaml")
    for key in ("cost", "bonus", "independent_ob"):
        data["Gambit"].pop(key, None)
    gambit = tables._maneuvers_from(data)["Gambit"]
    assert (gambit.cost, gambit.bonus, gambit.independent_ob) == (0, 0, "none")
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: needs the eleven"):
        tables._maneuvers_from([])
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: needs the eleven"):
        tables._maneuvers_from({"Sap": data["Sap"]})
    data = tables.load_yaml("maneuvers.yaml")
    del data["Sap"]["targets"]
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap: 'targets'"):
        tables._maneuvers_from(data)
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["conflict"] = "sometimes"
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap\.conflict"):
        tables._maneuvers_from(data)
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["independent_ob"] = "half"
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap\.independent_ob"):
        tables._maneuvers_from(data)
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["skills"] = []
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap\.skills: empty"):
        tables._maneuvers_from(data)


def test_the_matrix_is_read_from_its_file_and_a_malformed_one_is_refused() -> None:
    """The matrix read afresh is the game's; columns and rows are the eleven maneuvers in order,
    each row eleven cells, only Harry's row splits (dV, aV); refused naming matrix.yaml."""
    data = tables.load_yaml("matrix.yaml")
    assert tables._matrix_from(data) == matrix()
    assert matrix().is_versus("Sap", "Harry") and not matrix().is_versus("Sap", "Assault")
    assert matrix().is_versus("Harry", "Ensnare")  # aV
    for bad, words in (
        ([], "columns must be"),
        ({**data, "columns": list(reversed(MANEUVERS))}, "columns must be"),
        ({"rows": data["rows"]}, "columns must be"),
        ({**data, "rows": list(data["rows"])}, "rows must be"),
        ({**data, "rows": {k: data["rows"][k] for k in reversed(MANEUVERS)}}, "rows must be"),
        ({**data, "rows": {**data["rows"], "Sap": data["rows"]["Sap"][:10]}}, "rows.Sap: needs 11"),
        ({**data, "rows": {**data["rows"], "Sap": "IIIIIIIIIII"}}, "rows.Sap: needs 11"),
        ({**data, "rows": {**data["rows"], "Sap": ["aV"] * 11}}, "rows.Sap.Assault: only Harry"),
    ):
        with pytest.raises(TableError) as error:
            tables._matrix_from(bad)
        assert str(error.value).startswith(f"matrix.yaml: {words}")


def test_every_skill_the_text_lists_has_its_parent_games_roots_with_their_source() -> None:
    """Independent and Versus Maneuvers: "a tie-breaker roll may be made by testing the root
    stats for the skills used" (RULINGS.md, Round 3: the parent game's roots for the skills the
    text lists). Every skill of every maneuver's list and of the Prologue list has one to three
    roots among the parent game's stats; the file names its source; a root not read from it
    says why it was chosen."""
    data = load_yaml("skill_roots.yaml")
    assert "bwgr-tools" in data["source"] and "Burning Wheel Gold" in data["source"]
    listed = {s for m in MANEUVERS for s in maneuver(m).skills} | set(
        setup_tables().prologue_skills
    )
    assert set(data["skills"]) == listed
    for skill in listed:
        assert 1 <= len(skill_roots(skill)) <= 3 and set(skill_roots(skill)) <= ROOT_STATS
    chosen = {s for s, entry in data["skills"].items() if "chosen" in entry}
    assert chosen == {"Brass Trumpet", "Links", "Smuggling", "Tree Cutting/Pulling", "Weapon Skill"}
    assert skill_roots("Tactics") == ("Will", "Perception")
    assert skill_roots("Logistics") == ("Perception",)
    assert skill_roots("Inconspicuous") == ("Will",)
    assert skill_roots("a song off every list") == ()


def test_a_skill_root_outside_the_parent_games_stats_is_refused() -> None:
    """A roots table with a root that is no stat (or no roots) is refused naming the file and
    the skill."""
    with pytest.raises(TableError, match=r"^skill_roots\.yaml: tactics: roots \['Charisma'\]"):
        tables._roots_from({"source": "x", "skills": {"Tactics": {"roots": ["Charisma"]}}})
    four = ["Will", "Perception", "Agility", "Speed"]
    with pytest.raises(TableError, match=r"^skill_roots\.yaml: tactics: roots \['Will', "):
        tables._roots_from({"source": "x", "skills": {"Tactics": {"roots": four}}})
    with pytest.raises(TableError, match=r"^skill_roots\.yaml: ValueError\('source: "):
        tables._roots_from({"source": " ", "skills": {}})


def _typed(value: object) -> object:
    """``value`` with the type of every leaf beside it (``1`` and ``True`` compare equal)."""
    if isinstance(value, dict):
        return {(type(k).__name__, k): _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return type(value).__name__, value


@pytest.mark.parametrize(
    "name", ["maneuvers.yaml", "matrix.yaml", "setup.yaml", "skill_roots.yaml"]
)
def test_the_data_files_read_as_the_pure_python_loader_reads_them(name: str) -> None:
    """``load_yaml`` reads with libyaml where installed: every value, and its type, as YAML's
    pure-Python safe loader reads it."""
    from importlib import resources

    import yaml

    text = resources.files("referee.systems.kingdoms").joinpath("data", name).read_text("utf-8")
    assert _typed(load_yaml(name)) == _typed(yaml.safe_load(text))
