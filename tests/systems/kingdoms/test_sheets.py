"""Faction Leaders, Seconds in Command and Rival Relationships ("Faction Leaders",
"Mandatory Relationships")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, ScenarioError
from referee.systems.kingdoms.dice import Shade
from referee.systems.kingdoms.scripting import no_skill
from referee.systems.kingdoms.sheets import (
    Ability,
    Character,
    Relationship,
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


def test_a_skill_the_sheet_lacks_counts_as_a_black_exponent_of_nothing() -> None:
    """Skills: a skill a character lacks has no dice — exponent 0, black, not open-ended."""
    assert no_skill() == Ability(Shade.BLACK, 0)
    assert no_skill().open_ended is False


def test_a_sheet_holds_everything_the_setup_gives() -> None:
    """ "Faction Leaders": a sheet is entered, not burned; every number, ability, affiliation,
    wound and relationship given is what the maneuvers use."""
    leader = Character.from_json(
        "grannir",
        {
            "name": "Grannir",
            "lifepaths": 6,
            "stats": {"Will": "B5", "Health": {"shade": "G", "exponent": 4}},
            "skills": {"Tactics": {"ability": "B5", "open_ended": True}, "Law": "W3"},
            "artha": {"fate": 2, "persona": 3, "deeds": 1},
            "resources": 4,
            "circles": 3,
            "cash_on_hand": 2,
            "affiliations": {"Guild": 2, "Temple": 1},
            "wound_dice": 2,
            "superficial": True,
            "relationships": [
                {"name": "Barlim", "faction": "raddrim", "inimical": False},
                {"name": "Orin", "faction": "raddrim"},
            ],
            "burned_up": False,
        },
    )
    assert leader == Character(
        name="Grannir",
        lifepaths=6,
        stats={"Will": Ability(Shade.BLACK, 5), "Health": Ability(Shade.GREY, 4)},
        skills={"Tactics": Ability(Shade.BLACK, 5, True), "Law": Ability(Shade.WHITE, 3)},
        artha={"fate": 2, "persona": 3, "deeds": 1},
        resources=4,
        circles=3,
        cash_on_hand=2,
        affiliations={"Guild": 2, "Temple": 1},
        wound_dice=2,
        superficial=True,
        relationships=(
            Relationship("Barlim", "raddrim", False),
            Relationship("Orin", "raddrim", True),
        ),
        burned_up=False,
    )


def test_a_sheet_left_blank_is_a_ten_lifepath_leader_or_an_eight_lifepath_second() -> None:
    """A leader's lifepaths default to 10 (no starting artha), a 2iC's to 8 (10 less two, and no
    artha of its own); nothing else is assumed: no wounds, no Resources, burned up."""
    leader = Character.from_json("grannir", {})
    assert leader == Character(
        name="grannir", lifepaths=10, artha={"fate": 0, "persona": 0, "deeds": 0}
    )
    second = Character.from_json("dorin", {}, leader=False)
    assert second == Character(
        name="dorin", lifepaths=8, artha={"fate": 0, "persona": 0, "deeds": 0}
    )
    five = Character.from_json("raddrim", {"lifepaths": 5})
    assert five.artha == {"fate": 3, "persona": 2, "deeds": 1}
    assert Character.from_json("dorin", {"lifepaths": 5}, leader=False).artha == {
        "fate": 0,
        "persona": 0,
        "deeds": 0,
    }
    assert Character.from_json("x", {"artha": {"fate": 1}}).artha == {
        "fate": 1,
        "persona": 0,
        "deeds": 0,
    }
    assert (leader.superficial, leader.burned_up, leader.relationships) == (False, True, ())


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("artha", {"fate": -3}, "Sheets: Grannir's artha.fate is 0 or more, not -3"),
        ("artha", {"persona": -1}, "Sheets: Grannir's artha.persona is 0 or more, not -1"),
        ("artha", {"deeds": -2}, "Sheets: Grannir's artha.deeds is 0 or more, not -2"),
        ("resources", -1, "Sheets: Grannir's resources is 0 or more, not -1"),
        ("circles", -2, "Sheets: Grannir's circles is 0 or more, not -2"),
        ("cash_on_hand", -1, "Sheets: Grannir's cash_on_hand is 0 or more, not -1"),
        ("wound_dice", -1, "Sheets: Grannir's wound_dice is 0 or more, not -1"),
        (
            "affiliations",
            {"Guild": -1},
            "Sheets: Grannir's affiliations.Guild is 0 or more, not -1",
        ),
    ],
)
def test_a_sheets_numbers_are_zero_or_more_and_the_refusal_names_which(
    field: str, value: Any, words: str
) -> None:
    """Artha, Resources, Circles, Cash on Hand, wound dice and affiliations are never below 0."""
    with pytest.raises(RuleError) as error:
        Character.from_json("Grannir", {field: value})
    assert str(error.value) == words
    zero = {"affiliations": {"Guild": 0}, "artha": {"fate": 0}}.get(field, 0)
    Character.from_json("Grannir", {field: zero})


def test_an_ability_is_a_shade_and_an_exponent() -> None:
    """ "B6", "G10", or written out (black unless a shade is given, closed unless open-ended);
    anything else is refused naming what was given."""
    assert Ability.parse("B6") == Ability(Shade.BLACK, 6)
    assert Ability.parse("G10") == Ability(Shade.GREY, 10)
    assert Ability.parse("W0") == Ability(Shade.WHITE, 0)
    assert Ability.parse({"exponent": 4}) == Ability(Shade.BLACK, 4)
    assert Ability.parse({"shade": "G", "exponent": 0}) == Ability(Shade.GREY, 0)
    assert Ability.parse({"ability": "G4"}) == Ability(Shade.GREY, 4, False)
    assert Ability.parse({"ability": "W2", "open_ended": True}) == Ability(Shade.WHITE, 2, True)
    assert Ability.parse({"shade": "W", "exponent": 3, "open_ended": True}).open_ended
    for bad in ("B", "6", "B6x", "Bx", 6, None):
        with pytest.raises(RuleError) as error:
            Ability.parse(bad)
        assert str(error.value).startswith(("Abilities: ", "Shade")) or "B6" in str(error.value)
    with pytest.raises(RuleError) as error:
        Ability.parse("B")
    assert str(error.value) == "Abilities: 'B' is not an ability like 'B6'"
    with pytest.raises(RuleError) as error:
        Ability.parse({"exponent": -1})
    assert str(error.value) == "Abilities: an exponent is 0 or more, not -1"
    assert Ability.parse("G5").to_json() == "G5"
    assert Ability(Shade.BLACK, 5, True).to_json() == {"ability": "B5", "open_ended": True}


def test_a_bad_ability_on_a_sheet_is_refused_with_its_path() -> None:
    """The refusal names the character, stats or skills, and the ability."""
    with pytest.raises(ScenarioError) as error:
        Character.from_json("grannir", {"skills": {"Law": "X9"}})
    assert error.value.path == ("grannir", "skills", "Law")
    with pytest.raises(ScenarioError) as error:
        Character.from_json("grannir", {"stats": {"Will": {"shade": "B"}}})
    assert error.value.path == ("grannir", "stats", "Will")
    with pytest.raises(ScenarioError) as error:
        Character.from_json("grannir", {"stats": ["Will"]})
    assert str(error.value) == "grannir.stats: a mapping of name to ability ('B6')"
    assert Character.from_json("grannir", {"skills": None}).skills == {}


def test_skills_and_stats_are_found_whatever_their_case() -> None:
    """ "logistics" is the sheet's Logistics; an ability the sheet lacks is None."""
    c = Character.from_json("x", {"skills": {"Logistics": "B6"}, "stats": {"Will": "B4"}})
    assert c.skill("LOGISTICS") == Ability(Shade.BLACK, 6)
    assert c.stat("will") == Ability(Shade.BLACK, 4)
    assert c.skill("Law") is None and c.stat("Perception") is None
    two = Character.from_json("x", {"skills": {"Law": "B2", "Logistics": "B6"}})
    assert two.skill("logistics") == Ability(Shade.BLACK, 6)


def test_artha_spent_is_taken_from_the_sheet_and_never_more_than_it_holds() -> None:
    """Spending takes each kind away; a kind the sheet lacks (or has too few of) is refused,
    saying what the character has."""
    c = Character.from_json("Raddrim", {"lifepaths": 5})
    spent = c.spend({"fate": 2, "persona": 1, "deeds": 1})
    assert spent.artha == {"fate": 1, "persona": 1, "deeds": 0}
    assert c.artha == {"fate": 3, "persona": 2, "deeds": 1}
    assert c.spend({"persona": 2}).artha == {"fate": 3, "persona": 0, "deeds": 1}
    with pytest.raises(RuleError) as error:
        c.spend({"fate": 4})
    assert str(error.value) == "Artha: Raddrim has 3 fate, cannot spend 4"
    with pytest.raises(RuleError) as error:
        c.spend({"glory": 1})
    assert str(error.value) == "Artha: Raddrim has 0 glory, cannot spend 1"
    assert c.spend({"glory": 0}).artha["glory"] == 0


@pytest.mark.parametrize(("lifepaths", "ok"), [(4, False), (5, True), (10, True), (11, False)])
def test_a_faction_leader_has_five_to_ten_lifepaths(lifepaths: int, ok: bool) -> None:
    """ "This Faction Leader is built with anywhere from 5 to 10 Lifepaths"."""
    leader = Character("Grannir", lifepaths)
    if ok:
        check_leader(leader)
        return
    with pytest.raises(RuleError) as error:
        check_leader(leader)
    assert str(error.value) == (
        f"Faction Leaders: Grannir has {lifepaths} lifepaths; a leader has 5 to 10"
    )
    with pytest.raises(RuleError) as error:
        starting_artha(lifepaths)
    assert str(error.value) == (
        f"Faction Leaders: a Faction Leader has 5 to 10 lifepaths, not {lifepaths}"
    )


def test_a_leaders_stats_are_at_most_seven_and_skills_at_most_six() -> None:
    """ "Your maximum exponent in any stat is 7; your maximum exponent in any skill is 6"."""
    check_leader(Character.from_json("G", {"stats": {"Will": "B7"}, "skills": {"Law": "B6"}}))
    with pytest.raises(RuleError) as error:
        check_leader(Character.from_json("G", {"stats": {"Will": "B8"}}))
    assert str(error.value) == "Faction Leaders: G's Will 8 is over the cap 7"
    with pytest.raises(RuleError) as error:
        check_leader(Character.from_json("G", {"skills": {"Law": "B7"}}))
    assert str(error.value) == "Faction Leaders: G's Law 7 is over the cap 6"


def test_a_second_in_command_has_two_fewer_lifepaths_and_caps_one_lower() -> None:
    """ "two fewer Lifepaths than their faction's Leader, and a skill and stat exponent cap one
    lower": stats at most 6, skills at most 5."""
    leader = Character("Grannir", 8)
    check_second(leader, Character.from_json("Dorin", {"lifepaths": 6, "stats": {"Will": "B6"}}))
    with pytest.raises(RuleError) as error:
        check_second(
            leader, Character.from_json("Dorin", {"lifepaths": 6, "stats": {"Will": "B7"}})
        )
    assert str(error.value) == "Seconds in Command: Dorin's Will 7 is over the cap 6"
    with pytest.raises(RuleError) as error:
        check_second(
            leader, Character.from_json("Dorin", {"lifepaths": 6, "skills": {"Law": "B6"}})
        )
    assert str(error.value) == "Seconds in Command: Dorin's Law 6 is over the cap 5"
    with pytest.raises(RuleError) as error:
        check_second(leader, Character("Dorin", 5))
    assert str(error.value) == "Seconds in Command: Dorin has 5 lifepaths; Grannir's 2iC has 6"


def test_a_leader_needs_two_rivals_in_opposing_factions_who_are_not_player_characters() -> None:
    """ "two relationships with members of opposing factions … must be with NPC's"."""
    rivals = {"relationships": [{"name": "Barlim", "faction": "raddrim"}]}
    with pytest.raises(RuleError) as error:
        check_rivals(Character.from_json("Grannir", rivals), "grannir", frozenset())
    assert str(error.value) == (
        "Rival Relationships: Grannir needs 2 relationships with members of opposing "
        "factions, has 1"
    )
    two = {"relationships": [*rivals["relationships"], {"name": "Raddrim", "faction": "raddrim"}]}
    with pytest.raises(RuleError) as error:
        check_rivals(Character.from_json("Grannir", two), "grannir", frozenset({"Raddrim"}))
    assert str(error.value) == (
        "Rival Relationships: Grannir's rival Raddrim is a player character; rivals must be NPCs"
    )
    check_rivals(Character.from_json("Grannir", two), "grannir", frozenset({"Grannir"}))
