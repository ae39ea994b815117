"""Tests that kill the mutants of HURSAGMU's rules that mutmut left alive in round 5 of issue 13,
second wave (docs/systems/hursagmu.md, "Mutation testing", "Round 5, second wave"): the sheet
reader's refusals and the bare attribute rolls of ``sheet.py``.
"""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, ScenarioError
from referee.dice import ScriptedSource
from referee.systems.hursagmu.choices import legal_actions
from referee.systems.hursagmu.setup import encounter_from_setup
from referee.systems.hursagmu.sheet import Character, Stance, character_from_json, skill_stance

from .test_encounter import FIGHTER, start
from .test_mutants_encounter import _fred_under_attack

# -- sheet.py: a bare attribute roll, and the sheet as read from a scenario ----------------------


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


# -- choices.py: the choices open to a character ------------------------------------------------


def test_a_character_out_of_the_fight_has_no_choices_and_races_only_the_awake() -> None:
    """A character with no hits left is out (no choices); one may race only those awake and
    sneak past anyone else, never himself."""
    table = start({"bob": FIGHTER, "fred": FIGHTER, "ann": {**FIGHTER, "hits": 0}})
    assert legal_actions(table.state, "ann") == ()
    offered = {c.kind: c.params for c in legal_actions(table.state, "bob")}
    assert offered["race"]["against"].values == ("fred",)
    assert offered["sneak"]["perceiver"].values == ("fred", "ann")


def test_an_attacked_character_who_has_not_declared_is_offered_plans_holding_the_defence() -> None:
    """ "Action": fred, attacked before he declared, defends by declaring the round's actions;
    the plan offered starts with the defence against the attack's skill (Defense against
    Striking: the form's default), and one without it is refused by the rules."""
    table = _fred_under_attack()
    choices = {c.kind: c.params for c in legal_actions(table.state, "fred")}
    offered = choices["defend"]["actions"]
    assert offered.sample(_FirstOnly()) == [{"defend": "defense"}]
    assert offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "striking"}])
    assert not offered.contains([{"defend": "defiance"}])
    with pytest.raises(RuleError, match="include no defense defence"):
        table.act(Action("fred", "defend", {"actions": [{"attack": "bob"}]}), ScriptedSource([]))


class _FirstOnly:
    """A random source for ``sample`` that takes the first of everything, as few as allowed."""

    def randrange(self, n: int) -> int:
        return 0

    def randint(self, low: int, high: int) -> int:
        return low

    def random(self) -> float:
        return 0.0


# -- setup.py: the encounter as the scenario sets it up ------------------------------------------


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
