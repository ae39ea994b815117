"""The data files against the rules text, cell by cell (Gin Lane's printed tables), and the
refusal of a name or a row the tables do not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core import RuleError, ScenarioError
from referee.systems.ginlane import tables
from referee.systems.ginlane.tables import _need, consequence, difficulty_number, manoeuvre, weapon

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT.parent / "shared" / "rules" / "gin-lane.txt"
"""The rules text beside the checkout (``../shared/rules/``); absent, its test skips — and a skip
fails under CI (``tests/conftest.py``)."""

# "Difficulty & Target Number", transcribed from the text.
LADDER = [
    (6, "Negligible"),
    (7, "Low"),
    (8, "Fair"),
    (9, "Great"),
    (10, "Exceeding"),
    (11, "Superb"),
    (12, "Heroic"),
]

# "Success Levels", transcribed row by row: degree, success, magnitude, duration, notes.
SUCCESS_LEVELS = [
    # the Match row's cells sit in the same columns as the numbered rows' cells: "Match" for the
    # number, "in the balance" for the name, "touch" the magnitude, "Instant" the duration
    (0, "Match", "touch", "Instant", "not failed, try again?"),
    (1, "Minimal", "Slight", "a Round", ""),
    (2, "Fair", "Minor", "a scene", ""),
    (3, "Solid", "Moderate", "until dawn/dusk", ""),
    (4, "Good", "Moderate", "Day", "defence gets spin"),
    (5, "Significant", "Major", "Session", ""),
    (6, "Near Perfect", "Overwhelming", "Longer term - next session?", ""),
]

# "Consequences": severity, mitigates, lasts.
CONSEQUENCES = [
    ("slight", 2, "a day"),
    ("moderate", 4, "a week"),
    ("heavy", 6, "a month"),
    ("extreme", 8, "permanent: replaces a character Aspect"),
]

# "Damage Bonus".
DAMAGE = {
    0: ("unarmed brawling: fists & boots",),
    1: (
        "knives",
        "coshes",
        "brass knuckles",
        "bottles",
        "pocket pistol",
        "blunderbuss at range 1+",
    ),
    2: ("swords", "cudgels", "most firearms", "tomahawk", "bow"),
    3: ("pole-arms", "blunderbuss at 0 range"),
    4: ("volley-fire (infantry platoon, volley gun?)", "swivel gun"),
}

SEPHIROT = [
    (1, "Kether", "Crowning"),
    (2, "Chokmah", "Protection"),
    (3, "Binah", "Health"),
    (4, "Chesed", "Luck"),
    (5, "Geburah", "War"),
    (6, "Tiphareth", "Spirits"),
    (7, "Netzach", "Cunning"),
    (8, "Hod", "Knowledge"),
    (9, "Yesod", "Dreams"),
    (10, "Malkuth", "Nature"),
]


def test_ladder_matches_the_text_cell_by_cell() -> None:
    assert [(d.number, d.name) for d in tables.difficulties()] == LADDER


def test_ladder_names_out_of_range() -> None:
    # "6 or less: Negligible difficulty"; 12 is the top rung.
    assert tables.ladder_name(2) == "Negligible"
    assert tables.ladder_name(13) == "Heroic"
    assert tables.difficulty_number("Superb") == 11
    with pytest.raises(RuleError, match="no difficulty 'Tricky'"):
        tables.difficulty_number("Tricky")


def test_success_levels_match_the_text_cell_by_cell() -> None:
    got = [(s.degree, s.success, s.magnitude, s.duration, s.notes) for s in tables.success_levels()]
    assert got == SUCCESS_LEVELS
    assert [s.gloss for s in tables.success_levels()] == ["in the balance"] + [""] * 6


def test_success_level_beyond_six_is_near_perfect_and_failure_refused() -> None:
    assert tables.success_level(8).success == "Near Perfect"
    with pytest.raises(RuleError):
        tables.success_level(-1)


def test_consequences_match_the_text() -> None:
    assert [(c.severity, c.mitigates, c.lasts) for c in tables.consequences()] == CONSEQUENCES
    assert tables.consequence("Heavy").examples[0] == "broken limb"
    assert [c.days for c in tables.consequences()] == [1, 7, 30, None]


def test_damage_bonuses_match_the_text() -> None:
    assert tables.damage_bonus_table() == DAMAGE


def test_ranges_match_the_text() -> None:
    # "Generally: thrown things 2 zones, pistols 3 zones, muskets 4 zones."
    assert tables.ranges() == {"thrown": 2, "pistol": 3, "musket": 4}
    assert tables.weapon("pistol").range == 3
    assert tables.weapon("musket").range == 4
    assert tables.weapon("rock").range == 2


def test_weapons_bonus_agrees_with_the_damage_list() -> None:
    listed = {2: {"sword", "cudgel", "tomahawk", "bow", "pistol", "musket"}, 3: {"pole-arm"}}
    for bonus, names in listed.items():
        for name in names:
            assert tables.weapon(name).bonus == bonus
    assert tables.weapon("fists").bonus == 0
    assert tables.weapon("blunderbuss").bonus == 3
    assert tables.weapon("blunderbuss").bonus_beyond_0 == 1


def test_sephirot_match_the_text() -> None:
    assert [(s.number, s.name, s.path) for s in tables.sephirot()] == SEPHIROT
    assert [s.name for s in tables.sephirot() if not s.ritual] == ["Kether"]


def test_skills_list_is_the_v3_list() -> None:
    names = [s.name for s in tables.skills()]
    assert len(names) == 42
    assert names[:4] == ["Agility", "Artillery", "Arts", "Alertness"]
    assert "Rapport" not in names and tables.skill("Rapport").name == "Charm"
    assert tables.skill("Agility").specialities == (
        "Climbing",
        "Dodging",
        "Falling",
        "Jumping",
        "Sprinting",
        "Other Physical Action",
    )
    assert {s.name: s.track for s in tables.skills() if s.track} == {
        "Assets": "Wealth",
        "Endurance": "Health",
        "Resolve": "Composure",
    }
    with pytest.raises(RuleError, match="no skill 'Fencing'"):
        tables.skill("Fencing")


@pytest.mark.skipif(not RULES.exists(), reason="the shared rules text is not here")
def test_every_skill_and_speciality_line_is_in_the_text() -> None:
    text = RULES.read_text(encoding="utf-8")
    lines = set(text.splitlines())
    for s in tables.skills():
        assert any(line.startswith(s.name) for line in lines), s.name
        if s.specialities:
            assert ", ".join(s.specialities) in text, s.name
    for row in SUCCESS_LEVELS[1:]:
        assert f"{row[0]} {row[1]} {row[2]} {row[3]}" in text
    match = tables.success_level(0)
    assert (
        f"{match.success} {match.gloss} {match.magnitude} {match.duration} {match.notes}\n" in text
    )
    for name in (d[1] for d in LADDER[:-1]):
        assert f": {name} difficulty" in text or f"{name} difficult" in text


def test_a_difficulty_is_a_ladder_name_or_a_number_written_as_text() -> None:
    """Difficulty & Target Number: a difficulty is a name of the ladder or a number, also a
    number written as text (a negative one too); anything else is refused, naming the ladder."""
    assert [difficulty_number(t) for t in ("Fair", " 10 ", "-1", 4)] == [8, 10, -1, 4]
    ladder = "Negligible, Low, Fair, Great, Exceeding, Superb, Heroic"
    for text in ("X5", "Dire"):
        with pytest.raises(RuleError, match=rf"no difficulty '{text}' \({ladder}\)"):
            difficulty_number(text)


def test_an_unknown_severity_manoeuvre_or_weapon_is_refused_naming_the_known_ones() -> None:
    """Consequences, "Some Manoeuvres", "Weapons Notes": a name not in the table is refused,
    and the refusal lists the table's names."""
    with pytest.raises(
        RuleError, match=r"no consequence 'dire' \(slight, moderate, heavy, extreme\)"
    ):
        consequence("dire")
    with pytest.raises(
        RuleError,
        match=r"no manoeuvre 'lunge' \(blind, unbalance, take cover, disarm, take aim, "
        r"concentrate\)",
    ):
        manoeuvre("lunge")
    with pytest.raises(
        RuleError, match=r"no weapon 'lance' \(fists, knife, cosh, .*, swivel gun\)"
    ):
        weapon("lance")


def test_a_table_row_missing_a_field_or_of_the_wrong_type_is_refused() -> None:
    """The tables are checked as they load: a row without the field, or with a value of the
    wrong type (a flag for a number), is refused naming the file."""
    assert _need({"bonus": 2}, "bonus", int, "weapons.yaml") == 2
    assert _need({"small": True}, "small", bool, "weapons.yaml") is True
    for row, kind in (({}, int), ("bonus", int), ({"bonus": "2"}, int), ({"bonus": True}, int)):
        with pytest.raises(ScenarioError, match="bonus") as refused:
            _need(row, "bonus", kind, "weapons.yaml")
        assert refused.value.path == ("weapons.yaml",)
