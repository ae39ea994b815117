"""Characters (parent-games.md, "Zweihänder"; house rules, "Reputation points"): every number on
the sheet entered and checked, the Peril and Damage Condition Tracks, Ignore N Skill Ranks."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, ScenarioError
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.events import CHASE_FATIGUE
from referee.systems.zweihander.state import ZweihanderState

from .helpers import _card, _line, table


def test_the_log_names_a_peril_step_only_for_whoever_moved_on_the_track() -> None:
    """The Peril Condition Track: the step is named when the event moved that character on it;
    another character's change, or no change at all, names none."""
    for characters in ({"cora": {"peril": 3}}, {"hound": {"damage": 1}}, None):
        data: dict[str, Any] = {"participant": "hound", "roll": _card(78), "peril": 2}
        if characters is not None:
            data["characters"] = characters
        assert (
            _line(CHASE_FATIGUE, **data)
            == "Hound tests fatigue — d100 78: failure; 2 physical Peril."
        )
    assert (
        _line(
            CHASE_FATIGUE,
            participant="hound",
            roll=_card(78),
            peril=2,
            characters={"hound": {"peril": 0}, "cora": {"peril": 3}},
        )
        == "Hound tests fatigue — d100 78: failure; 2 physical Peril → Unhindered."
    )


def test_the_state_names_each_characters_steps_on_the_condition_tracks() -> None:
    """Peril and Damage Condition Tracks (parent-games.md): the state a scenario's ``expect``
    reads keys the characters by id and names each one's step on both tracks."""
    t = table(
        {
            "anna": {"peril": 2, "damage": 3},
            "bert": {"peril": "Incapacitated!", "damage": "Slain!"},
            "cleo": {},
        }
    )
    chars: Any = PROCEDURE.state_json(t.state)["characters"]
    assert list(chars) == ["anna", "bert", "cleo"]
    assert {cid: (c["peril_condition"], c["damage_condition"]) for cid, c in chars.items()} == {
        "anna": ("Ignore 1 Skill Rank", "Seriously Wounded"),
        "bert": ("Incapacitated!", "Slain!"),
        "cleo": ("Unhindered", "Unharmed"),
    }
    assert PROCEDURE.characters(t.state) == ("anna", "bert", "cleo")


def test_a_character_sheet_may_enter_skill_ranks_and_initiative() -> None:
    """Characters: every number is entered — Skill Ranks (for "Ignore N Skill Ranks") and an
    Initiative instead of the default [PB] + 3."""
    c = Character.from_setup("a", {"ranks": {"Stealth": 2}, "initiative": 9})
    assert (dict(c.ranks), c.initiative) == ({"Stealth": 2}, 9)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("fate_points", -1),
        ("peril_threshold", 0),
        ("initiative", "3"),
        ("initiative", True),
        ("peril", 6),
        ("damage", 6),
        ("damage", -1),
        ("peril", True),
        ("damage", "Dead"),
    ],
)
def test_a_sheets_number_or_track_step_out_of_range_is_refused(field: str, value: Any) -> None:
    """Characters: a number on the sheet is a whole number (a Peril Threshold at least 1, the
    others at least 0); a step on a Condition Track is 0–5 or its name."""
    with pytest.raises(ScenarioError) as refused:
        Character.from_setup("a", {field: value})
    assert refused.value.path == ("characters", "a", field)


FULL_SHEET: dict[str, Any] = {
    "skills": {"Stealth": 1, "Toughness": 45},
    "ranks": {"Stealth": 0, "Toughness": 2},
    "bonuses": {"AB": 4, "BB": 0, "PB": 2, "WB": 3},
    "initiative": 9,
    "peril_threshold": 1,
    "encumbrance_overage": 2,
    "peril": 1,
    "damage": 2,
    "fate_points": 3,
    "reputation": 5,
    "order_ranks": 1,
    "chaos_ranks": 2,
    "permanent_order_ranks": 3,
    "permanent_chaos_ranks": 4,
    "corruption": 6,
    "disorders": ["Pyromania"],
    "reward_points": 7,
    "social_class": "Burgher",
    "daemon_expert": True,
}


def test_every_number_on_a_character_sheet_is_entered_and_kept() -> None:
    """Characters: every number is entered, not derived from a sheet — Base Chances (at least
    1), Skill Ranks and Bonuses (at least 0), Initiative, Peril Threshold (at least 1), the
    Condition Tracks, Fate, Reputation, Order and Chaos Ranks, Corruption, Disorders, Reward
    Points, social class."""
    assert Character.from_setup("a", FULL_SHEET) == Character(
        id="a",
        skills={"Stealth": 1, "Toughness": 45},
        ranks={"Stealth": 0, "Toughness": 2},
        bonuses={"AB": 4, "BB": 0, "PB": 2, "WB": 3},
        initiative=9,
        peril_threshold=1,
        encumbrance_overage=2,
        peril=1,
        damage=2,
        fate_points=3,
        reputation=5,
        order_ranks=1,
        chaos_ranks=2,
        permanent_order_ranks=3,
        permanent_chaos_ranks=4,
        corruption=6,
        disorders=("Pyromania",),
        reward_points=7,
        social_class="Burgher",
        daemon_expert=True,
    )


def test_a_blank_sheet_takes_the_rules_defaults() -> None:
    """Characters: Initiative defaults to [PB] + 3, the Peril Threshold to [WB] + 3, one Fate
    Point; Reputation is 1 at the start, +1 per Fate Point, +1 per Disorder (house rules,
    "Reputation points")."""
    assert Character.from_setup("a", {}) == Character(
        "a", initiative=3, peril_threshold=3, fate_points=1, reputation=2
    )
    c = Character.from_setup(
        "b",
        {"bonuses": {"PB": 2, "WB": 4}, "fate_points": 2, "disorders": ["Pyromania", "Hophead"]},
    )
    assert (c.initiative, c.peril_threshold, c.fate_points, c.reputation) == (5, 7, 2, 5)


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("skills", {"Stealth": 0}, ("skills", "Stealth")),
        ("skills", ["Stealth"], ("skills",)),
        ("skills", {"Stealth": "40"}, ("skills", "Stealth")),
        ("ranks", {"Stealth": True}, ("ranks", "Stealth")),
        ("ranks", {"Stealth": -1}, ("ranks", "Stealth")),
        ("ranks", "Stealth", ("ranks",)),
        ("bonuses", {"AB": -1}, ("bonuses", "AB")),
        ("bonuses", {"XB": 1}, ("bonuses", "XB")),
        ("bonuses", 3, ("bonuses",)),
        ("disorders", "Pyromania", ("disorders",)),
        ("disorders", [1], ("disorders",)),
        ("initiative", -1, ("initiative",)),
        ("peril_threshold", 0, ("peril_threshold",)),
        ("encumbrance_overage", -1, ("encumbrance_overage",)),
        ("peril", 9, ("peril",)),
        ("damage", 9, ("damage",)),
        ("fate_points", -1, ("fate_points",)),
        ("reputation", -1, ("reputation",)),
        ("order_ranks", -1, ("order_ranks",)),
        ("chaos_ranks", -1, ("chaos_ranks",)),
        ("permanent_order_ranks", -1, ("permanent_order_ranks",)),
        ("permanent_chaos_ranks", -1, ("permanent_chaos_ranks",)),
        ("corruption", -1, ("corruption",)),
        ("reward_points", -1, ("reward_points",)),
    ],
)
def test_a_bad_field_of_a_sheet_is_refused_where_it_is(
    field: str, value: Any, path: tuple[str, ...]
) -> None:
    """Characters: a bad entry on a character's sheet is refused naming the character, the
    field and (in a mapping) the entry at fault."""
    with pytest.raises(ScenarioError) as refused:
        Character.from_setup("a", {field: value})
    assert refused.value.path == ("characters", "a", *path)


def test_a_track_step_is_read_by_its_name_with_or_without_its_bang() -> None:
    """Peril and Damage Condition Tracks: a step is entered by number or by name (any case, the
    "!" optional)."""
    c = Character.from_setup("a", {"peril": 5, "damage": "slain"})
    assert (c.peril_condition, c.damage_condition) == ("Incapacitated!", "Slain!")
    assert Character.from_setup("b", {"peril": "Ignore 3 Skill Ranks"}).peril == 4


def test_a_bonus_not_entered_is_0_and_movement_is_agility_bonus_plus_3() -> None:
    """Movement = [AB] + 3 (parent-games.md); a Bonus not entered is 0; a Bonus is named with or
    without its brackets."""
    c = Character.from_setup("a", {"bonuses": {"AB": 4}})
    assert (c.bonus("[AB]"), c.bonus("AB"), c.bonus("BB")) == (4, 4, 0)
    assert (c.movement_on_foot, Character("b").movement_on_foot) == (7, 3)


def test_ignore_skill_ranks_ignores_only_the_ranks_the_skill_has() -> None:
    """Peril Condition Track: "Ignore N Skill Ranks" takes 10 per rank ignored from the Base
    Chance, but no more ranks than the Skill has (none entered: nothing ignored)."""
    skills = {"Toughness": 50, "Stealth": 50}
    assert Character("a", skills=skills, peril=2).chance("Toughness") == 50
    ranked = Character("b", skills=skills, ranks={"Stealth": 2}, peril=4)
    assert (ranked.chance("Stealth"), ranked.chance("Toughness")) == (30, 50)


def test_no_damage_ranks_move_nobody_down_the_damage_track() -> None:
    """Damage Condition Track: a hit of 0 Damage ranks (or a negative count) moves nobody."""
    c = Character("a", damage=1)
    assert (c.suffer_damage(0).damage, c.suffer_damage(-2).damage, c.suffer_damage(2).damage) == (
        1,
        1,
        3,
    )


def test_an_unknown_character_is_refused_naming_the_known_ones() -> None:
    """Characters: a character the table does not have is refused, naming those it has."""
    with pytest.raises(RuleError) as refused:
        ZweihanderState(characters=(Character("anna"), Character("bert"))).character("cleo")
    assert refused.value.reason == "no character 'cleo' (known: anna, bert)"
    with pytest.raises(RuleError) as none:
        ZweihanderState().character("cleo")
    assert none.value.reason == "no character 'cleo' (known: none)"
