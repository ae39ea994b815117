"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/hursagmu.md, "Mutation
testing"): each asserts an outcome of the rules text with scripted dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError
from referee.systems.hursagmu.rounds import push_power

from .test_encounter import FIGHTER, play, start


def races(dice: list[int]) -> list[dict[str, object]]:
    table = play(
        start({"bob": FIGHTER, "fred": {**FIGHTER, "skills": {"quickness": 0}}}),
        [("bob", "race", {"against": "fred"})],
        dice,
    )
    return [dict(e.data) for e in table.log if e.kind == "race.rolled"]


def test_a_race_round_leader_by_one_behind_and_tied() -> None:
    """Movement, races: "For every point by which one character's roll beats another's, that
    character gains one yard of distance": bob's 2d6+4 against fred's 2d6+2 — 10 against 9 is
    bob by a yard; 6 against 14 is fred by 8; 10 against 10 is nobody's yard."""
    (ahead,) = races([3, 3, 3, 4])
    assert (ahead["character"], ahead["against"], ahead["leader"], ahead["yards"]) == (
        "bob",
        "fred",
        "bob",
        1,
    )
    (behind,) = races([1, 1, 6, 6])
    assert (behind["leader"], behind["yards"]) == ("fred", 8)
    (tied,) = races([3, 3, 4, 4])
    assert (tied["leader"], tied["yards"]) == (None, 0)
    card = tied["roll"]
    assert isinstance(card, dict)
    assert (card["label"], card["rule"]) == ("bob races fred (Quickness)", "Movement")


def test_pushing_power_one_hit_and_the_last_one() -> None:
    """Pushing Power: a hit of Stamina buys +1; one hit is the least spent; spending down to 1
    hit left does not collapse, to 0 does ("until his stamina reaches zero, at which point he
    will collapse from exhaustion")."""
    assert push_power(5, 1) == (4, False)
    assert push_power(2, 1) == (1, False)
    assert push_power(1, 1) == (0, True)
    with pytest.raises(RuleError, match="at least one hit"):
        push_power(5, 0)


def test_the_master_rules_health_and_sanity_and_keeps_what_he_does_not_say() -> None:
    """ "Perception and Observation": the Master rules a character OK or not on Health and on
    Sanity; what he does not say is unchanged."""

    def rule(table: Any, **condition: bool) -> tuple[Any, tuple[bool, bool]]:
        after = play(table, [("referee", "condition", {"character": "bob", **condition})])
        bob = after.state.fighters["bob"]
        return after, (bob.health_ok, bob.sanity_ok)

    table, now = rule(start({"bob": FIGHTER}), health_ok=False)
    assert now == (False, True)
    table, now = rule(table, health_ok=True, sanity_ok=True)
    assert now == (True, True)
    table, now = rule(table, sanity_ok=False)
    assert now == (True, False)
