"""Tagging an Aspect (Gin Lane, "Rolling the Dice", "Tagging"; RULINGS.md's tagging options
a and b): the extra die, the re-roll policy of option b on either side of an opposed roll, with and
without a protecting Block, checked against every script of faces.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from referee.core import Outcome, Total
from referee.dice import ScriptedSource
from referee.systems.ginlane.rolls import (
    GinLaneRoll,
    OpposedRoll,
    RollResult,
    TagMode,
    reroll_policy,
)

from .helpers import _new
from .test_procedure import act, duel
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


def test_option_b_rolls_to_beat_a_total_or_only_to_reach_it() -> None:
    """Tagging, option b (re-roll while short): to beat 7, a 3 + 4 is short and the tag
    re-rolls the 3 (a 6: 10); only to reach 7 (a defence that must not be beaten), 3 + 4
    already holds and the tag is kept."""
    spec = GinLaneRoll(0, tags=1, mode=TagMode.REROLL)
    beat = spec.roll_to(ScriptedSource([3, 4, 6]), 7, beat=True)
    assert (beat.faces, beat.total, beat.tags_used) == ((3, 4, 6), 10, 1)
    reach = spec.roll_to(ScriptedSource([3, 4, 6]), 7, beat=False)
    assert (reach.faces, reach.total, reach.tags_used) == ((3, 4), 7, 0)


def test_an_aspect_on_the_targets_sheet_is_tagged_for_a_point_and_the_next_tag_counts_too() -> None:
    """Aspects, "Rolling the Dice": a relevant Aspect — the target's own (jack is Drunk) as well
    as one's own — is tagged for a point of the Experience Pool, each adding a die (option a:
    4d6, the best two kept); tagging the target's Aspect first does not stop the next tag."""
    table = duel(jack={"aspects": ["Drunk"]})
    done = act(
        table,
        "moll",
        "attack",
        [6, 5, 1, 1, 2, 2],
        target="jack",
        tags=["Drunk", "Fencing Mistress"],
    )
    new = _new(table, done)
    assert new[0][0] == "attack.declared"  # the attack waits for jack's defence
    assert new[1:4] == [
        ("aspect.tagged", {"character": "moll", "aspect": "Drunk", "free": False, "id": None}),
        (
            "aspect.tagged",
            {"character": "moll", "aspect": "Fencing Mistress", "free": False, "id": None},
        ),
        ("pool.spent", {"character": "moll", "points": 2, "for": "tags"}),
    ]
    rolled = new[4][1]["rolled"]
    assert (rolled["faces"], rolled["total"], rolled["tags_paid"]) == ([6, 5, 1, 1], 14, 2)
    assert done.state.get("moll").pool.points == 1


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


def test_a_protecting_block_that_the_attack_only_matches_spares_the_defence_its_tags() -> None:
    """Protect someone: the attack must exceed the block too. Attack 2 + 3 + 3 = 8 against a
    block of 8: the block already holds (a Match at best), so the defence on option b keeps its
    1, 1 and uses no tag; the margin is 8 − 8 = 0, a Match."""
    defence = GinLaneRoll(skill=1, tags=2, mode=TagMode.REROLL)
    check = OpposedRoll(GinLaneRoll(skill=2), defence, floor=8)
    result = check.roll(ScriptedSource([3, 3, 1, 1, 6, 6, 6, 6]))
    assert result.opponent is not None
    assert as_tuple(result.opponent) == ((1, 1), 3, (1, 1), 0, 0, "2d6 (1, 1) +1 = 3")
    assert (result.outcome, result.margin) == (Outcome.TIE, 0)


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


def test_each_tagging_option_is_named_by_its_letter_or_its_words() -> None:
    """RULINGS.md, Gin Lane: tagging option a (an extra die) or b (a re-roll), as a scene file
    or the command line names it, in any case."""
    for words in ("a", "extra", "extra_die", "extra-die", " Extra-Die ", "EXTRA_DIE"):
        assert TagMode.parse(words) is TagMode.EXTRA_DIE, words
    for words in ("b", "reroll", "re-roll", "Re-Roll", "REROLL"):
        assert TagMode.parse(words) is TagMode.REROLL, words


def test_option_b_with_no_number_to_beat_rerolls_each_die_of_three_or_less() -> None:
    """Option b with no number to beat (a Block's strength, initiative; Rulings): each tag
    re-rolls the dice showing 3 or less — a 3 is re-rolled, a 4 is kept; when no die is that
    low, the tags left are not used."""
    spec = GinLaneRoll(skill=1, tags=2, mode=TagMode.REROLL, free_tags=1)
    threes = spec.roll(ScriptedSource([3, 4, 5, 1]))
    assert (threes.kept, threes.total, threes.faces) == ((5, 4), 10, (3, 4, 5))
    assert (threes.tags_used, threes.tags_paid) == (1, 0)
    fours = spec.roll(ScriptedSource([4, 5]))
    assert (fours.kept, fours.total, fours.tags_used, fours.tags_paid) == ((4, 5), 10, 0, 0)
    twice = spec.roll(ScriptedSource([2, 6, 1, 6]))
    assert (twice.kept, twice.total, twice.tags_used, twice.tags_paid) == ((6, 6), 13, 2, 1)


def test_the_distribution_of_a_roll_with_no_number_to_beat_follows_its_tagging_option() -> None:
    """Option a keeps the best two of 2 + tags dice; option b re-rolls what shows 3 or less."""
    extra = GinLaneRoll(skill=1, tags=1)
    assert extra.distribution() == Total("3d6kh2", 1).distribution()
    reroll = GinLaneRoll(skill=1, tags=1, mode=TagMode.REROLL)
    dist = reroll.distribution()
    assert sum(dist.values()) == 1
    assert dist != extra.distribution()
    # a natural 3 (+1 = 4): both dice first at 3 or less (9 in 36), both re-rolled to 1 and 2
    assert dist[4] == Fraction(9, 36) * Fraction(2, 36)
