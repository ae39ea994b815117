"""Tests that kill the mutants of ``rolls.py`` and ``fold.py`` mutmut left alive in round 5,
second wave, of issue 13 (docs/systems/ginlane.md, "Mutation testing", "Round 5, second wave"):
option b's re-roll policy ("Rolling the Dice", the Rulings' tagging option b) and the fold of a
scene's events. Each asserts an outcome of the rules text or of the Rulings."""

from __future__ import annotations

from referee.core import Outcome
from referee.dice import ScriptedSource
from referee.systems.ginlane.rolls import GinLaneRoll, OpposedRoll, TagMode, reroll_policy

from .test_mutants_opposed import as_tuple

B = TagMode.REROLL


def test_an_actor_who_cannot_beat_the_number_rerolls_for_a_match() -> None:
    """Option b: the actor re-rolls to beat, and failing that to Match. 6 + 1 cannot beat 12
    with one re-roll, but a 6 for the 1 Matches it: the tag re-rolls the 1."""
    assert reroll_policy((6, 1), 1, need=12) == (1,)
    assert reroll_policy((1, 6), 1, need=12) == (0,)


def test_a_defence_that_may_only_reach_the_attack_rerolls_what_may_beat_it_too() -> None:
    """Option b: a defence re-rolls to reach the attack's total, and failing that to beat it
    (Rulings). Against 5 the defence's 1 + 3 re-rolls its 1 (a 2+ reaches 5: 5 in 6) or both
    dice (5 or more: 30 in 36, the same); both dice also beat 5 more often (26 in 36 against
    4 in 6), so the tag re-rolls both."""
    assert reroll_policy((1, 3), 1, need=5, strict=False) == (0, 1)
    assert reroll_policy((3, 1), 1, need=5, strict=False) == (0, 1)


def test_a_defence_that_already_reaches_the_attack_keeps_its_dice() -> None:
    """Option b: the opposition re-rolls only to reach the actor's first total (a Match is not
    a success for the actor). Attack 3 + 3 = 6; the defence's 2 + 4 = 6 already reaches it, so
    it keeps its dice and uses no tag: a Match."""
    check = OpposedRoll(GinLaneRoll(skill=0), GinLaneRoll(skill=0, tags=1, mode=B))
    result = check.roll(ScriptedSource([3, 3, 2, 4, 6, 6]))
    assert result.opponent is not None
    assert as_tuple(result.opponent) == ((2, 4), 6, (2, 4), 0, 0, "2d6 (2, 4) +0 = 6")
    assert (result.outcome, result.margin) == (Outcome.TIE, 0)
