"""The printed tables ("Matrix", "Conquest Maneuvers", Steps One–Seven) checked cell by cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.systems.kingdoms import tables
from referee.systems.kingdoms.tables import MANEUVERS, TableError, maneuver, matrix

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
