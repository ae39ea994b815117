"""Tests that kill the mutants of HURSAGMU's rules that mutmut left alive in round 5 of issue 13,
second wave (docs/systems/hursagmu.md, "Mutation testing", "Round 5, second wave"): the sheet
reader's refusals and the bare attribute rolls of ``sheet.py``.
"""

from __future__ import annotations

import pytest

from referee.core import ScenarioError
from referee.systems.hursagmu.setup import encounter_from_setup
from referee.systems.hursagmu.sheet import Character, Stance, character_from_json, skill_stance

from .test_encounter import FIGHTER, start


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


def test_the_setup_gives_charge_momentum_and_each_characters_posture_hits_and_horse() -> None:
    """The Master's optional charge momentum ("Movement", off by default); each character as his
    sheet starts him: lying prone, on his horse or not, awake with even 1 hit left."""
    assert start({"bob": FIGHTER}, defence="cinematic").state.options.charge_momentum is False
    state = start(
        {
            "bob": {**FIGHTER, "prone": True, "hits": 1},
            "fred": {**FIGHTER, "mount": 30},
            "ann": {**FIGHTER, "mount": 30, "mounted": False},
        },
        charge_momentum=True,
    ).state
    assert state.options.charge_momentum is True
    bob, fred, ann = (state.fighters[w] for w in ("bob", "fred", "ann"))
    assert (bob.sheet.name, bob.prone, bob.conscious, bob.mounted) == ("bob", True, True, False)
    assert (fred.prone, fred.mounted, ann.mounted) == (False, True, False)


@pytest.mark.parametrize(
    "setup",
    [
        {"characters": {"bob": FIGHTER}, "options": {"luck": 1}},
        {"characters": {"bob": FIGHTER}, "luck": 1},
        {"characters": {}},
        {"characters": {"": FIGHTER}},
    ],
)
def test_a_setup_with_an_unknown_field_or_no_characters_is_refused(
    setup: dict[str, object],
) -> None:
    with pytest.raises(ScenarioError):
        encounter_from_setup(setup)
