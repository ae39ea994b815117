"""Faction Leaders, Seconds in Command and Rival Relationships ("Faction Leaders",
"Mandatory Relationships")."""

from __future__ import annotations

import pytest

from referee.core import RuleError, ScenarioError
from referee.systems.kingdoms.sheets import (
    Ability,
    Character,
    check_leader,
    check_rivals,
    check_second,
    starting_artha,
)


def sheet(name: str = "Grannir", lifepaths: int = 7, **over: object) -> Character:
    data: dict[str, object] = {
        "lifepaths": lifepaths,
        "stats": {"Will": "B5"},
        "skills": {"Oratory": "B4"},
    }
    data.update(over)
    return Character.from_json(name, data)


@pytest.mark.parametrize(
    "lifepaths,artha",
    [
        (10, (0, 0, 0)),
        (9, (1, 0, 0)),
        (8, (1, 1, 0)),
        (7, (2, 1, 0)),
        (6, (3, 2, 0)),
        (5, (3, 2, 1)),
    ],
)
def test_starting_artha_by_lifepaths(lifepaths: int, artha: tuple[int, int, int]) -> None:
    """Fewer lifepaths, more starting artha (the table)."""
    assert tuple(starting_artha(lifepaths).values()) == artha
    assert sheet(lifepaths=lifepaths).artha == dict(
        zip(("fate", "persona", "deeds"), artha, strict=True)
    )


def test_leader_lifepaths_and_caps() -> None:
    """5 to 10 lifepaths; stats at most 7, skills at most 6."""
    check_leader(sheet(stats={"Will": "B7"}, skills={"Oratory": "B6"}))
    with pytest.raises(RuleError, match="5 to 10"):
        starting_artha(4)
    with pytest.raises(RuleError, match="over the cap 7"):
        check_leader(sheet(stats={"Will": "B8"}))
    with pytest.raises(RuleError, match="over the cap 6"):
        check_leader(sheet(skills={"Oratory": "G7"}))
    with pytest.raises(RuleError, match="has 11 lifepaths"):
        check_leader(Character("X", 11))


def test_second_two_fewer_lifepaths_caps_one_lower() -> None:
    """A 2iC has two fewer lifepaths and caps one lower (6 for stats, 5 for skills)."""
    leader = sheet(lifepaths=8)
    check_second(
        leader,
        Character.from_json(
            "Dorin",
            {"lifepaths": 6, "stats": {"Will": "B6"}, "skills": {"Law": "B5"}},
            leader=False,
        ),
    )
    with pytest.raises(RuleError, match="Grannir's 2iC has 6"):
        check_second(leader, Character("Dorin", 7))
    with pytest.raises(RuleError, match="over the cap 5"):
        check_second(
            leader,
            Character.from_json("Dorin", {"lifepaths": 6, "skills": {"Law": "B6"}}, leader=False),
        )


def test_two_rivals_from_opposing_factions_and_npcs() -> None:
    """Two relationships with members of opposing factions, and they must be NPCs."""
    rivals = [
        {"name": "Barlim", "faction": "raddrim", "inimical": False},
        {"name": "Orin", "faction": "raddrim"},
    ]
    check_rivals(sheet(relationships=rivals), "grannir", frozenset({"Grannir", "Raddrim"}))
    with pytest.raises(RuleError, match="needs 2 relationships"):
        check_rivals(sheet(relationships=rivals[:1]), "grannir", frozenset())
    with pytest.raises(RuleError, match="player character"):
        check_rivals(
            sheet(relationships=[*rivals[:1], {"name": "Raddrim", "faction": "raddrim"}]),
            "grannir",
            frozenset({"Raddrim"}),
        )
    with pytest.raises(RuleError, match="needs 2"):
        check_rivals(
            sheet(relationships=[*rivals[:1], {"name": "Dorin", "faction": "grannir"}]),
            "grannir",
            frozenset(),
        )


def test_abilities_parse_and_spend() -> None:
    """Abilities are shade and exponent; artha spent is refused beyond what the sheet holds."""
    assert Ability.parse({"shade": "W", "exponent": 3, "open_ended": True}).open_ended
    with pytest.raises(RuleError):
        Ability.parse("X9")
    c = sheet(lifepaths=5)
    assert c.spend({"deeds": 1}).artha["deeds"] == 0
    with pytest.raises(RuleError, match="cannot spend 2"):
        c.spend({"deeds": 2})


@pytest.mark.parametrize(
    "field,value",
    [
        ("artha", {"fate": -1}),
        ("resources", -2),
        ("circles", -1),
        ("cash_on_hand", -3),
        ("wound_dice", -2),
        ("affiliations", {"Guild": -1}),
        ("skills", {"Oratory": "B-1"}),
        ("skills", {"Oratory": {"shade": "B", "exponent": -2}}),
    ],
)
def test_a_sheet_refuses_negative_numbers(field: str, value: object) -> None:
    """A sheet's artha, Resources, Circles, Cash on Hand, affiliations, wound dice and exponents
    are 0 or more (negative wound dice would be bonus dice)."""
    with pytest.raises((RuleError, ScenarioError), match=field.split("_")[0]):
        sheet(**{field: value})


def test_an_open_ended_ability_reads_back_as_it_is_shown() -> None:
    """An open-ended ability is shown as {"ability": "B5", "open_ended": true}; that reads back."""
    ability = Ability.parse({"ability": "B5", "open_ended": True})
    assert ability == Ability(Ability.parse("B5").shade, 5, True)
    assert Ability.parse(ability.to_json()) == ability
