"""The round planner's spelling of a step (``referee hursagmu plan``'s STEPS): each field in
its place, the defaults the text gives (a strike, Defense), and one line for a bad field."""

from __future__ import annotations

from typing import Any

import pytest
import typer

from referee.systems.hursagmu.commands import _check_planner_sheet, _skill_levels, parse_step
from referee.systems.hursagmu.sheet import Character

ATTACK = {"kind": "attack", "target": "fred"}


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("attack:fred", ATTACK | {"skill": "striking"}),
        ("attack:fred:missile", ATTACK | {"skill": "missile"}),
        ("attack:fred::25", ATTACK | {"skill": "striking", "yards": 25}),
        (
            "attack:fred:missile:25:missile weapon",
            ATTACK | {"skill": "missile", "yards": 25, "ability": "missile weapon"},
        ),
        ("defend", {"kind": "defend", "skill": "defense"}),
        ("defend:defiance", {"kind": "defend", "skill": "defiance"}),
        ("move:stand", {"kind": "move", "movement": "stand"}),
        ("move:foot:16", {"kind": "move", "movement": "foot", "yards": 16}),
        ("move:foot::9", {"kind": "move", "movement": "foot", "challenge": 9}),
        ("move:foot:16:9", {"kind": "move", "movement": "foot", "yards": 16, "challenge": 9}),
        ("move:ride:30", {"kind": "move", "movement": "ride", "yards": 30}),
        ("haste", {"kind": "haste"}),
        ("minor", {"kind": "minor"}),
        ("minor:draw a dagger", {"kind": "minor", "name": "draw a dagger"}),
        ("minor:draw:-2", {"kind": "minor", "name": "draw", "initiative_penalty": -2}),
        ("task:perception:9", {"kind": "task", "skill": "perception", "challenge": 9}),
        (
            "task:perception:9:the:door",
            {"kind": "task", "skill": "perception", "challenge": 9, "name": "the:door"},
        ),
    ],
)
def test_each_field_of_a_step_is_read_in_its_place(text: str, step: dict[str, Any]) -> None:
    assert parse_step(text).to_json() == step


@pytest.mark.parametrize(
    "text",
    [
        "attack:fred:missile:25:missile weapon",
        "defend:defense",
        "move:foot:16:9",
        "minor:draw:-2",
    ],
)
def test_a_step_may_have_as_many_fields_as_its_spelling_names(text: str) -> None:
    parse_step(text)
    with pytest.raises(typer.Exit):
        parse_step(text + ":1")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("attack:fred:missile:far", "far"),
        ("move:foot:lots", "lots"),
        ("move:foot:16:hard", "hard"),
        ("minor:draw:some", "some"),
        ("task:perception:hard", "hard"),
    ],
)
def test_a_number_not_whole_is_refused_naming_the_step_and_the_field(
    text: str, field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(typer.Exit):
        parse_step(text)
    err = capsys.readouterr().err
    assert err == f"referee: error: step {text!r}: expected a whole number, not {field!r}\n"


@pytest.mark.parametrize("text", ["task:perception", "move", "attack", "fly"])
def test_a_step_short_of_its_fields_is_no_step(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(typer.Exit):
        parse_step(text)
    assert capsys.readouterr().err.startswith(f"referee: error: step {text!r}: not a step (")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("=5", "--skill '=5': expected NAME=LEVEL"),
        ("striking", "--skill 'striking': expected NAME=LEVEL"),
        ("striking=x", "--skill 'striking=x': expected a whole number, not 'x'"),
        ("striking=5=3", "--skill 'striking=5=3': expected a whole number, not '5=3'"),
    ],
)
def test_a_skill_level_is_given_as_name_equals_level(
    given: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(typer.Exit):
        _skill_levels([given])
    assert capsys.readouterr().err == f"referee: error: {message}\n"


def test_a_skill_is_named_in_any_case() -> None:
    assert _skill_levels(["Striking=5", "DEFENSE=6"]) == {"striking": 5, "defense": 6}


@pytest.mark.parametrize("weapon", ["melee", "thrown weapon", "missile weapon"])
def test_the_planner_knows_each_weapon_type_of_the_range_table(weapon: str) -> None:
    sheet = Character("planner", 0, 0, 0, 0, weapon_type=weapon)
    _check_planner_sheet(sheet, weapon, {})
    with pytest.raises(typer.Exit):
        _check_planner_sheet(sheet, weapon.upper(), {})
