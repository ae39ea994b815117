"""Tests that kill the mutants of ``rolls.py`` and ``fold.py`` mutmut left alive in round 5,
second wave, of issue 13 (docs/systems/ginlane.md, "Mutation testing", "Round 5, second wave"):
option b's re-roll policy ("Rolling the Dice", the Rulings' tagging option b) and the fold of a
scene's events. Each asserts an outcome of the rules text or of the Rulings."""

from __future__ import annotations

from referee.core import Outcome
from referee.dice import ScriptedSource
from referee.systems.ginlane.rolls import GinLaneRoll, OpposedRoll, TagMode, reroll_policy

from .test_mutants import _thrower
from .test_mutants_opposed import as_tuple
from .test_procedure import BRAVO, act, duel

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


def test_the_end_of_a_scene_ends_its_blocks_defences_and_waits() -> None:
    """Action: Manoeuvre: "temporary, lasting no longer than the scene" — at the end of the
    scene moll's Block protecting ann and the defence she rolled against jack, her Full
    Defence and jack's wait all end, as do the turns."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    blocked = act(duel(others={"ann": ann}), "moll", "block", [5, 5], protect="ann")
    attacked = act(blocked, "jack", "attack", [1, 1, 4, 4], target="moll")
    assert attacked.state.get("moll").block is not None
    assert attacked.state.get("moll").defences != ()
    ended = act(attacked, "referee", "end_scene").state
    assert (ended.get("moll").block, ended.get("moll").defences) == (None, ())
    assert (ended.turn, ended.round, ended.order) == (0, 0, ())
    waited = act(act(duel(others={"ann": ann}), "moll", "full_defence"), "jack", "wait")
    assert waited.state.get("moll").full_defence and waited.state.get("jack").waiting
    calm = act(waited, "referee", "end_scene").state
    assert not calm.get("moll").full_defence and not calm.get("jack").waiting


def test_a_fight_that_is_over_is_no_longer_over_once_its_scene_ends() -> None:
    """Taken Out ends the fight; the end of its scene leaves no fight over for the next."""
    won = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert won.state.over
    assert act(won, "referee", "end_scene").state.over is False


def test_a_fizzled_grenade_lies_no_longer_than_its_scene() -> None:
    """Grenades: kit's grenade fizzles in zone b; at the end of the scene it is gone."""
    fizzled = act(_thrower(), "kit", "throw_grenade", [3, 3, 1, 1], zone="b")
    assert fizzled.state.fizzles != ()
    assert act(fizzled, "referee", "end_scene").state.fizzles == ()
