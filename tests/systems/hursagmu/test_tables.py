"""The range tables (data/ranges.yaml) cell by cell against hursagmu-encounters.txt, "Range"."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from referee.systems.hursagmu.tables import (
    ATTACK_TYPES,
    RANGE_INCREMENTS,
    SENSES,
    SKILL_ATTRIBUTES,
    SORCERY_TYPES,
)

# Copied from the text's three tables ("attack type | range increment |" ...).
TEXT_ATTACK_TYPES = {"thrown weapon": 2, "missile weapon": 10}
TEXT_SORCERY_TYPES = {
    "Talamu": 1,
    "Amelatu": 1,
    "Nekelmu": 2,
    "Mahasu": 10,
    "Sabatu": 10,
    "Seheru": 10,
}
TEXT_SENSES = {"smell": 1, "hearing": 10, "vision": 100, "divination": 1000}

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT.parent / "shared" / "rules" / "hursagmu-encounters.txt"
"""The rules text, at ``../shared/rules/`` beside the project wherever the checkout lives."""


@pytest.mark.parametrize("name", sorted(TEXT_ATTACK_TYPES))
def test_attack_type_cells(name: str) -> None:
    assert ATTACK_TYPES[name] == TEXT_ATTACK_TYPES[name]


@pytest.mark.parametrize("name", sorted(TEXT_SORCERY_TYPES))
def test_sorcery_type_cells(name: str) -> None:
    assert SORCERY_TYPES[name] == TEXT_SORCERY_TYPES[name]


@pytest.mark.parametrize("name", sorted(TEXT_SENSES))
def test_sense_cells(name: str) -> None:
    assert SENSES[name] == TEXT_SENSES[name]


def test_no_extra_rows() -> None:
    assert dict(ATTACK_TYPES) == TEXT_ATTACK_TYPES
    assert dict(SORCERY_TYPES) == TEXT_SORCERY_TYPES
    assert dict(SENSES) == TEXT_SENSES
    assert len(RANGE_INCREMENTS) == 12


@pytest.mark.skipif(
    not RULES.exists() and not os.environ.get("CI"),
    reason="the rules text is not beside this checkout (under CI its absence fails)",
)
def test_tables_match_the_rules_text_itself() -> None:
    assert RULES.exists(), f"the rules text is missing: {RULES}"
    rows = re.findall(r"^([A-Za-z ]+) \| (\d+)(?: \*)? \|$", RULES.read_text(), re.MULTILINE)
    from_text = {name: int(value) for name, value in rows}
    assert from_text == dict(RANGE_INCREMENTS)


def test_skill_attributes_follow_the_text() -> None:
    # "Characters engaging in physical actions use their Quickness skill ... mental actions use
    # their Command skill"; Defiance resists sorcery; Acrobatics is "base Dex".
    assert SKILL_ATTRIBUTES["quickness"] == "dexterity"
    assert SKILL_ATTRIBUTES["command"] == "intelligence"
    assert SKILL_ATTRIBUTES["defense"] == "dexterity"
    assert SKILL_ATTRIBUTES["defiance"] == "intelligence"
    assert SKILL_ATTRIBUTES["acrobatics"] == "dexterity"
    for sorcery in TEXT_SORCERY_TYPES:
        assert SKILL_ATTRIBUTES[sorcery.lower()] == "intelligence"


def test_bad_table_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.core import ScenarioError
    from referee.systems.hursagmu import tables

    monkeypatch.setattr(tables, "_read", lambda name: {"skills": {"striking": "luck"}})
    tables.load_skills.cache_clear()
    try:
        with pytest.raises(ScenarioError, match="striking"):
            tables.load_skills()
    finally:
        monkeypatch.undo()
        tables.load_skills.cache_clear()
    monkeypatch.setattr(tables, "_read", lambda name: {"attack_types": {"bow": 0}})
    tables.load_ranges.cache_clear()
    try:
        with pytest.raises(ScenarioError, match="not positive"):
            tables.load_ranges()
    finally:
        monkeypatch.undo()
        tables.load_ranges.cache_clear()


# -- the range and skill tables, read and checked when loaded --------------------------------------


def test_the_tables_read_afresh_are_the_texts_tables() -> None:
    """Loading the data files again gives the same tables, every cell a positive number of
    yards (a range increment of 1 yard, smell's, is one) and every skill Dex or Int."""
    from referee.systems.hursagmu import tables

    tables.load_ranges.cache_clear()
    tables.load_skills.cache_clear()
    try:
        attack, sorcery, senses = tables.load_ranges()
        skills = tables.load_skills()
    finally:
        tables.load_ranges.cache_clear()
        tables.load_skills.cache_clear()
    assert dict(attack) == dict(tables.ATTACK_TYPES) == {"thrown weapon": 2, "missile weapon": 10}
    assert dict(sorcery) == dict(tables.SORCERY_TYPES)
    assert dict(senses) == dict(tables.SENSES)
    assert senses["smell"] == 1
    assert dict(skills) == dict(tables.SKILL_ATTRIBUTES)
    assert set(skills.values()) == {"dexterity", "intelligence"}


def _refusal_of_table(loader: str, monkeypatch: pytest.MonkeyPatch, data: object) -> str:
    """The refusal of ``tables.<loader>`` reading ``data`` as its file (its cache cleared before
    and after, so no other test sees the bad table)."""
    from referee.core import ScenarioError
    from referee.systems.hursagmu import tables

    load = getattr(tables, loader)
    monkeypatch.setattr(tables, "_read", lambda name: data)
    load.cache_clear()
    try:
        with pytest.raises(ScenarioError) as refused:
            load()
    finally:
        monkeypatch.undo()
        load.cache_clear()
    return str(refused.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "missing table 'attack_types'"),
        ({}, "missing table 'attack_types'"),
        ({"attack_types": {}}, "missing table 'attack_types'"),
        ({"attack_types": ["bow"]}, "missing table 'attack_types'"),
        ({"attack_types": {"bow": True}}, "whole number of yards"),
        ({"attack_types": {"bow": "10"}}, "whole number of yards"),
        ({"attack_types": {"bow": 2.5}}, "whole number of yards"),
        ({"attack_types": {3: 10}}, "whole number of yards"),
        ({"attack_types": {"bow": -1}}, "range increment -1 is not positive"),
        (
            {"attack_types": {"bow": 1}, "sorcery_types": {"Talamu": 1}},
            "missing table 'senses'",
        ),
    ],
)
def test_a_bad_range_table_is_refused_when_loaded(
    monkeypatch: pytest.MonkeyPatch, data: object, message: str
) -> None:
    """A range table missing, empty, or with a cell that is not a positive whole number of
    yards is refused, naming what is wrong."""
    assert message in _refusal_of_table("load_ranges", monkeypatch, data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "missing table 'skills'"),
        ({}, "missing table 'skills'"),
        ({"skills": {}}, "missing table 'skills'"),
        ({"skills": {"striking": "strength"}}, "skill 'striking' rolls with 'strength'"),
    ],
)
def test_a_bad_skill_table_is_refused_when_loaded(
    monkeypatch: pytest.MonkeyPatch, data: object, message: str
) -> None:
    """The skill table missing, empty, or giving a skill an attribute other than Dexterity or
    Intelligence is refused."""
    assert message in _refusal_of_table("load_skills", monkeypatch, data)
