"""Tests that kill the mutants of ``rolls.py``'s opposed rolls and option b's re-roll policy
that round 4 of issue 13 did not reach (docs/systems/ginlane.md, "Mutation testing", "Round 4,
second wave"): ``OpposedRoll.roll`` and ``_odds``, ``_opponent_final``, ``_Rolling``,
``_reroll_to`` and ``reroll_policy``. Each asserts an outcome of the rules text ("Rolling the
Dice", "Opposed rolls", "Success Levels", "Protect someone") or of the Rulings' tagging option b
(the actor rolls, the opposition re-rolls to reach the actor's first total, the actor re-rolls
to beat the opposition's final total; only the tags used are paid)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from referee.core import Outcome
from referee.dice import ScriptedSource
from referee.systems.ginlane.rolls import (
    GinLaneRoll,
    OpposedRoll,
    RollResult,
    TagMode,
    reroll_policy,
)

from .test_rolls import expectimax

FACES = range(1, 7)
B = TagMode.REROLL


def rolled_margins(check: OpposedRoll, length: int) -> dict[int, Fraction]:
    """Every script of ``length`` faces rolled: how the margins fall."""
    counts: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=length):
        margin = check.roll(ScriptedSource(faces)).margin
        counts[margin] = counts.get(margin, 0) + 1
    return {m: Fraction(c, 6**length) for m, c in sorted(counts.items())}


def as_tuple(r: RollResult) -> tuple[object, ...]:
    return (r.kept, r.total, r.faces, r.tags_used, r.tags_paid, r.shown)


def test_an_actor_rerolling_against_an_extra_die_defence_rerolls_only_to_beat_it() -> None:
    """Option b against option a: the actor (2d6 + 1 + 1) rolls 1, 6 (9); the defence (3d6kh2
    + 2) rolls 3, 4, 1 and keeps 4 + 3 (9); the actor must beat 9, so its one tag re-rolls the
    1 (keeping the 6) and rolls a 5: 13 beats 9 by 4, a Good success."""
    actor = GinLaneRoll(skill=1, tags=1, mode=B, modifier=1)
    defence = GinLaneRoll(skill=2, tags=1)
    check = OpposedRoll(actor, defence)
    result = check.roll(ScriptedSource([1, 6, 3, 4, 1, 5]))
    assert (result.outcome, result.margin, result.success_level) == (
        Outcome.SUCCESS,
        4,
        "Good",
    )
    assert as_tuple(result.actor) == (
        (5, 6),
        13,
        (1, 6, 5),
        1,
        1,
        "2d6 (1, 6); tag: re-roll [1] → [5] +2 = 13",
    )
    assert result.opponent is not None
    assert (result.opponent.kept, result.opponent.total, result.opponent.faces) == (
        (4, 3),
        9,
        (3, 4, 1),
    )
    assert (result.opponent.tags_used, result.opponent.tags_paid) == (1, 1)
    assert result.check is not None
    assert (result.check.outcome, result.check.value, result.check.margin) == (
        Outcome.SUCCESS,
        13,
        4,
    )
    assert result.check.faces == (1, 6, 5, 3, 4, 1)
    assert result.check.opponent_value == 9


def test_an_actor_who_already_beats_the_defence_uses_no_tag() -> None:
    """Option b: a roll that already beats the opposition is not re-rolled, and no tag is
    paid: 6 + 5 + 1 = 12 against 2 + 2 + 2 = 6."""
    check = OpposedRoll(GinLaneRoll(skill=1, tags=2, mode=B), GinLaneRoll(skill=2))
    result = check.roll(ScriptedSource([6, 5, 2, 2]))
    assert (result.outcome, result.margin) == (Outcome.SUCCESS, 6)
    assert as_tuple(result.actor) == ((6, 5), 12, (6, 5), 0, 0, "2d6 (6, 5) +1 = 12")


def test_both_sides_rerolling_the_defence_reaches_the_actors_first_total_then_the_actor() -> None:
    """Option b on both sides (Rulings): the actor rolls 2, 2 (+3 = 7); the defence rolls 1, 1
    (+1 = 3) and re-rolls both to reach 7: 3, 3 (+1 = 7), so it stops; the actor must then beat
    7, re-rolls both of its dice (each 2 needs a 4+ alone: both together give more) and rolls
    6, 6: 15 beats 7 by 8. The actor's free tag is not paid, the defence's tag is."""
    actor = GinLaneRoll(skill=2, tags=2, mode=B, modifier=1, free_tags=1)
    defence = GinLaneRoll(skill=1, tags=2, mode=B)
    check = OpposedRoll(actor, defence)
    result = check.roll(ScriptedSource([2, 2, 1, 1, 3, 3, 6, 6]))
    assert result.opponent is not None
    assert as_tuple(result.opponent) == (
        (3, 3),
        7,
        (1, 1, 3, 3),
        1,
        1,
        "2d6 (1, 1); tag: re-roll [1, 1] → [3, 3] +1 = 7",
    )
    assert as_tuple(result.actor) == (
        (6, 6),
        15,
        (2, 2, 6, 6),
        1,
        0,
        "2d6 (2, 2); tag: re-roll [2, 2] → [6, 6] +3 = 15",
    )
    assert (result.outcome, result.margin) == (Outcome.SUCCESS, 8)
    assert result.check is not None
    assert result.check.faces == (2, 2, 6, 6, 1, 1, 3, 3)
    assert result.check.opponent_value == 7


def test_a_defence_rerolls_until_it_is_not_beaten_and_the_actor_then_goes_on() -> None:
    """Both on option b: the actor 1, 1 (+2 = 4); the defence 1, 1 (+0 = 2) re-rolls both to
    reach 4 — 1, 1 again, then its second tag 2, 2 (4): not beaten, it stops with a tag
    unused; the actor's one tag must beat 4 − 2 on the dice: both re-rolled, 1, 2 gives 5,
    which beats 4 by 1."""
    actor = GinLaneRoll(skill=2, tags=1, mode=B)
    defence = GinLaneRoll(skill=0, tags=3, mode=B)
    result = OpposedRoll(actor, defence).roll(ScriptedSource([1, 1, 1, 1, 1, 1, 2, 2, 1, 2]))
    assert result.opponent is not None
    assert (result.opponent.total, result.opponent.tags_used, result.opponent.faces) == (
        4,
        2,
        (1, 1, 1, 1, 2, 2),
    )
    assert (result.actor.total, result.actor.tags_used, result.actor.faces) == (5, 1, (1, 1, 1, 2))
    assert (result.outcome, result.margin, result.success_level) == (Outcome.SUCCESS, 1, "Minimal")


def test_a_tag_left_free_is_never_paid_below_nothing() -> None:
    """Only the tags used are paid, and free tags first: two free tags, one used, none paid."""
    actor = GinLaneRoll(skill=0, tags=2, mode=B, free_tags=2)
    result = OpposedRoll(actor, GinLaneRoll(skill=0)).roll(ScriptedSource([1, 1, 3, 3, 6, 6]))
    assert (result.actor.tags_used, result.actor.tags_paid, result.actor.total) == (1, 0, 12)


def test_a_protecting_block_that_holds_spares_the_rerolling_defence_its_tags() -> None:
    """Protect someone: the attack must exceed the block too. Attack 2 + 3 + 2 = 7 against a
    block of 8: the defence (option b) is not beaten whatever it rolls, so it keeps its 1, 1
    and uses no tag; the margin is 7 − 8 = −1, a failure."""
    defence = GinLaneRoll(skill=1, tags=2, mode=B)
    check = OpposedRoll(GinLaneRoll(skill=2), defence, floor=8)
    result = check.roll(ScriptedSource([2, 3, 1, 1]))
    assert result.opponent is not None
    assert as_tuple(result.opponent) == ((1, 1), 3, (1, 1), 0, 0, "2d6 (1, 1) +1 = 3")
    assert (result.outcome, result.margin) == (Outcome.FAILURE, -1)
    assert result.check is not None and result.check.opponent_value == 3


def test_a_block_the_attack_beats_leaves_the_defence_to_reroll_to_the_attack() -> None:
    """Attack 5 + 4 + 2 = 11 beats a block of 8; the defence (1 + 1 + 1 = 3) re-rolls both to
    reach 11 and rolls 5, 6: 12, so the attack fails by 1."""
    defence = GinLaneRoll(skill=1, tags=2, mode=B)
    check = OpposedRoll(GinLaneRoll(skill=2), defence, floor=8)
    result = check.roll(ScriptedSource([5, 4, 1, 1, 5, 6]))
    assert result.opponent is not None
    assert (result.opponent.total, result.opponent.tags_used) == (12, 1)
    assert (result.outcome, result.margin) == (Outcome.FAILURE, -1)


def test_an_actor_on_option_b_against_option_a_has_the_odds_its_rolls_give() -> None:
    """Every script of six faces: the actor's re-rolls against an extra-die-less defence, with a
    modifier on each side, fall as the exact odds say."""
    check = OpposedRoll(GinLaneRoll(1, tags=1, mode=B, modifier=1), GinLaneRoll(2, modifier=1))
    assert rolled_margins(check, 6) == dict(check.odds().margins)


def test_an_actor_on_option_b_against_a_block_has_the_odds_its_rolls_give() -> None:
    """Protect someone with option b on the actor's side only: the floor counts in the odds."""
    check = OpposedRoll(GinLaneRoll(2, tags=1, mode=B), GinLaneRoll(0), floor=8)
    assert rolled_margins(check, 6) == dict(check.odds().margins)


def test_a_defence_on_option_b_behind_a_block_has_the_odds_its_rolls_give() -> None:
    """An option a attack against an option b defence behind a block of 8."""
    check = OpposedRoll(GinLaneRoll(2, modifier=-1), GinLaneRoll(1, tags=1, mode=B), floor=8)
    assert rolled_margins(check, 6) == dict(check.odds().margins)


def test_both_on_option_b_with_modifiers_have_the_odds_their_rolls_give() -> None:
    """Option b on both sides, each with a skill and a modifier, the defence with the tag."""
    check = OpposedRoll(
        GinLaneRoll(2, mode=B, modifier=1), GinLaneRoll(1, tags=1, mode=B, modifier=-1)
    )
    assert rolled_margins(check, 6) == dict(check.odds().margins)


def test_the_exact_odds_of_an_option_b_actor_against_a_plain_defence() -> None:
    """Option b, one tag, 2d6 + 0 against 2d6 + 0: the actor re-rolls only while short of
    beating the defence. Worked by hand: P(success) by an independent expectimax."""
    check = OpposedRoll(GinLaneRoll(0, tags=1, mode=B), GinLaneRoll(0))
    success = Fraction(0)
    for c, d in itertools.product(FACES, FACES):
        success += sum(expectimax(a, b, 1, c + d) for a in FACES for b in FACES) / 36 / 36
    odds = check.odds()
    assert odds.success == success
    assert sum(odds.outcomes.values()) == 1


def test_the_reroll_policy_aims_to_beat_by_default_and_to_reach_when_asked() -> None:
    """Option b's policy: 4 + 5 against 9 falls short of beating it, so a tag re-rolls the 4
    (a 5 or 6 beats 9, and a 4+ at least Matches); a defence that must only reach 9 already
    has, and stops."""
    assert reroll_policy((4, 5), 1, need=9) == (0,)
    assert reroll_policy((4, 5), 1, need=9, strict=True) == (0,)
    assert reroll_policy((4, 5), 1, need=9, strict=False) is None
    assert reroll_policy((5, 4), 1, need=9) == (1,)
    assert reroll_policy((4, 5), 0, need=9) is None


def test_every_tag_may_be_spent_while_the_roll_still_falls_short() -> None:
    """Option b: each tag is one more re-roll while the actor still falls short. Against
    3 + 3 = 6 the actor's 1, 1 is re-rolled to 1, 2 (still short) and again to 6, 6: 12, both
    tags used."""
    check = OpposedRoll(GinLaneRoll(skill=0, tags=2, mode=B), GinLaneRoll(skill=0))
    result = check.roll(ScriptedSource([1, 1, 3, 3, 1, 2, 6, 6]))
    assert (result.actor.total, result.actor.tags_used, result.actor.faces) == (
        12,
        2,
        (1, 1, 1, 2, 6, 6),
    )
    assert (result.outcome, result.margin) == (Outcome.SUCCESS, 6)
