"""The skill roll (2d6 + attribute + skill), exact odds against brute force, character sheets."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import Outcome, RuleError, ScenarioError
from referee.dice import ScriptedSource
from referee.systems.hursagmu.sheet import (
    Character,
    SkillRoll,
    Stance,
    character_from_json,
    skill_attribute,
    skill_stance,
)

TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def brute_target(bonus: int, challenge: int) -> Fraction:
    return Fraction(sum(1 for a, b in TWO_D6 if a + b + bonus >= challenge), 36)


def brute_opposed(mine: int, theirs: int) -> Fraction:
    wins = sum(1 for a, b in TWO_D6 for c, d in TWO_D6 if a + b + mine >= c + d + theirs)
    return Fraction(wins, 36 * 36)


@given(st.integers(-3, 8), st.integers(-3, 8), st.integers(-8, 0), st.integers(0, 20))
def test_unopposed_odds_match_brute_force(attr: int, skill: int, mod: int, challenge: int) -> None:
    roll = SkillRoll(attr, skill, mod)
    assert roll.success_odds(challenge) == brute_target(attr + skill + mod, challenge)


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (3, 5), (7, 2), (-2, 4)])
def test_opposed_odds_match_brute_force_acting_side_wins_ties(mine: int, theirs: int) -> None:
    check = SkillRoll(mine, 0).versus(SkillRoll(theirs, 0))
    odds = check.odds()
    assert odds.success == brute_opposed(mine, theirs)
    assert sum(odds.outcomes.values()) == 1


def test_tie_goes_to_the_acting_side() -> None:
    # "in an opposed roll the acting side succeeds on a tie" (RULINGS.md)
    result = SkillRoll(2, 3).versus(SkillRoll(1, 4)).roll(ScriptedSource([3, 4, 4, 3]))
    assert result.margin == 0
    assert result.outcome is Outcome.SUCCESS


def test_unopposed_meets_the_challenge() -> None:
    check = SkillRoll(1, 2).against(10)
    assert check.roll(ScriptedSource([3, 4])).is_success  # 10 meets 10
    assert not check.roll(ScriptedSource([3, 3])).is_success


def test_range_challenge_adds_to_the_defence() -> None:
    check = SkillRoll(0, 5).versus(SkillRoll(0, 5), opponent_modifier=2)
    assert check.opponent.expression == "2d6+7"


def test_character_skill_roll_uses_the_skill_attribute() -> None:
    marcos = Character("marcos", dexterity=1, intelligence=3, skills={"Mahasu": 4})
    assert marcos.skill_roll("mahasu").bonus == 7
    assert marcos.skill_roll("defense").bonus == 1  # lacks the skill: base Dex
    assert marcos.skill_roll("mahasu", -2, bonus=1).bonus == 6


def test_stances() -> None:
    assert Stance.MANEUVER.initiative_skill == "quickness"
    assert Stance.CONCENTRATE.initiative_skill == "command"
    assert skill_stance("stealth") is Stance.MANEUVER
    assert skill_stance("divination") is Stance.CONCENTRATE
    assert skill_stance("willpower") is None
    assert skill_attribute("Acrobatics") == "dexterity"
    with pytest.raises(RuleError, match="no skill 'juggling'"):
        skill_attribute("juggling")


def test_character_from_json_names_the_bad_field() -> None:
    with pytest.raises(ScenarioError) as error:
        character_from_json("bob", {"skills": {"juggling": 2}}, ("characters", "bob"))
    assert str(error.value).startswith("characters.bob.skills.juggling:")
    with pytest.raises(ScenarioError, match=r"characters\.bob\.strength"):
        character_from_json("bob", {"strength": "lots"}, ("characters", "bob"))
    with pytest.raises(ScenarioError, match=r"unknown field 'luck'"):
        character_from_json("bob", {"luck": 3})
    with pytest.raises(ScenarioError, match="weapon_type"):
        character_from_json("bob", {"weapon_type": "sling"})
    sheet = character_from_json("bob", {"stamina": 12, "hits": 5, "health_ok": False})
    assert (sheet.stamina, sheet.hits, sheet.health_ok) == (12, 5, False)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"stamina": -5}, "stamina"),
        ({"stamina": 0}, "stamina"),
        ({"stamina": 10, "hits": 50}, "hits"),
        ({"hits": -1}, "hits"),
        ({"mount": 99}, "mount"),
        ({"mount": 5}, "mount"),
        ({"load": -3}, "load"),
        ({"weapon": -2}, "weapon"),
        ({"skills": {"Striking": 2, "striking": 3}}, "skills"),
    ],
)
def test_character_from_json_refuses_out_of_range_values(
    data: dict[str, object], field: str
) -> None:
    with pytest.raises(ScenarioError) as error:
        character_from_json("bob", data, ("characters", "bob"))
    assert str(error.value).startswith(f"characters.bob.{field}")


# -- the character sheet: a bare attribute roll, and the sheet as read from a scenario -------------


@pytest.mark.parametrize(
    ("roll", "stance"), [("Dexterity", Stance.MANEUVER), ("intelligence", Stance.CONCENTRATE)]
)
def test_a_bare_dexterity_or_intelligence_roll_rolls_the_attribute_alone(
    roll: str, stance: Stance
) -> None:
    """A bare attribute rolls alone: 2d6 + the attribute, in the stance of its kind of skill."""
    bob = Character("bob", dexterity=3, intelligence=2)
    assert bob.skill_roll(roll).side.expression == ("2d6+3" if roll == "Dexterity" else "2d6+2")
    assert skill_stance(roll) is stance


def test_a_sheet_without_hits_left_has_all_its_stamina_and_keeps_its_name() -> None:
    """``hits`` left out: the character has all his hits of Stamina."""
    assert Character("bob", stamina=12).hits == 12
    sheet = character_from_json("bob", {"stamina": 12})
    assert (sheet.name, sheet.hits) == ("bob", 12)


@pytest.mark.parametrize(
    "data",
    [
        {"weapon_type": "melee"},
        {"weapon_type": "thrown weapon"},
        {"max_lift": 1},
        {"stamina": 1, "hits": 1},
        {"mount": 20, "mounted": True},
        {"mount": 40},
    ],
)
def test_a_sheet_at_the_edge_of_each_range_is_accepted(data: dict[str, object]) -> None:
    """The edges the text allows: any weapon type, a lift of 1 lb, 1 hit of Stamina, a horse of
    20 or 40 yards."""
    sheet = character_from_json("bob", data)
    assert {k: getattr(sheet, k) for k in data} == data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"skills": {"striking": 2.5}}, "skills.striking"),
        ({"max_lift": 0}, "max_lift"),
        ({"hits": 11}, "hits"),
        ({"load": -1}, "load"),
        ({"weapon": -1}, "weapon"),
        ({"mount": 19}, "mount"),
        ({"mount": 41}, "mount"),
        ({"mounted": True}, "mounted"),
        ({"mount": 30, "mounted": True, "prone": True}, "prone"),
    ],
)
def test_a_bad_sheet_is_refused_naming_the_field(data: dict[str, object], field: str) -> None:
    """A level that is not a whole number, no lift, more hits than the 10 of Stamina a sheet has
    by default, a negative load or weapon, a horse outside 20 to 40 yards, a rider with no horse
    or lying prone: refused, naming the field."""
    with pytest.raises(ScenarioError) as error:
        character_from_json("bob", data, ("characters", "bob"))
    assert str(error.value).startswith(f"characters.bob.{field}:")
