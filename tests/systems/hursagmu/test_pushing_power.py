"""Pushing Power (hursagmu-encounters.txt, "Pushing Power"): each hit of Stamina spent gives +1
Strength and Willpower for a single round, down to the last hit, at which the character collapses
from exhaustion."""

from __future__ import annotations

import pytest

from referee.core import Between, RuleError
from referee.systems.hursagmu.rounds import push_power

from .helpers import _kinds
from .test_encounter import FIGHTER, play, start, two_fighters


def test_pushing_power_one_hit_and_the_last_one() -> None:
    """Pushing Power: a hit of Stamina buys +1; one hit is the least spent; spending down to 1
    hit left does not collapse, to 0 does ("until his stamina reaches zero, at which point he
    will collapse from exhaustion")."""
    assert push_power(5, 1) == (4, False)
    assert push_power(2, 1) == (1, False)
    assert push_power(1, 1) == (0, True)
    with pytest.raises(RuleError, match="at least one hit"):
        push_power(5, 0)


def test_a_character_with_one_hit_left_may_push_it() -> None:
    """Pushing Power: any hit of Stamina left may be spent, the last one too."""
    table = start({"bob": {**FIGHTER, "hits": 1}, "fred": FIGHTER})
    assert _kinds(table, "bob")["push"].params == {"hits": Between(1, 1)}


@pytest.mark.parametrize(
    ("attribute", "expression"), [("strength", "2d6+4"), ("willpower", "2d6+2")]
)
def test_pushed_power_adds_to_strength_and_willpower_rolls(attribute: str, expression: str) -> None:
    """ "Pushing Power": each hit of Stamina spent gives +1 Strength and Willpower this round;
    bob (Strength 2, Willpower 0) pushes 2 hits and rolls a task of the attribute."""
    task = {"actions": [{"task": "strain", "skill": attribute, "challenge": 5}]}
    steps = [("bob", "push", {"hits": 2}), ("bob", "declare", task), ("bob", "act", {})]
    table = play(two_fighters(), steps, [3, 3])
    rolled = next(e for e in table.log if e.kind == "task.rolled")
    assert rolled.data["expression"] == expression


def test_pushed_power_does_not_add_to_a_skill_roll() -> None:
    """ "Pushing Power" raises Strength and Willpower, not Striking: 2d6 + Dexterity 2 +
    Striking 5 whatever he pushed."""
    task = {"actions": [{"task": "feint", "skill": "striking", "challenge": 5}]}
    steps = [("bob", "push", {"hits": 2}), ("bob", "declare", task), ("bob", "act", {})]
    table = play(two_fighters(), steps, [3, 3])
    rolled = next(e for e in table.log if e.kind == "task.rolled")
    assert rolled.data["expression"] == "2d6+7"
