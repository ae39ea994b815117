"""The roll cards a player reads (parent-games.md, "Burning Wheel"; "Maneuver Resolution"): the
odds of a maneuver test's successes, of Fate and Deeds after the roll, and a pool written as a
person writes it.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from referee.core import RollCard
from referee.dice import ScriptedSource
from referee.systems.kingdoms.cards import (
    after_card,
    count_odds,
    pool_card,
    pool_dice,
    shade_letter,
    trimmed,
)
from referee.systems.kingdoms.choices import after_preview
from referee.systems.kingdoms.dice import (
    Artha,
    PoolRoll,
    Shade,
    after_distribution,
    roll_before,
    spend_after,
)
from referee.systems.kingdoms.state import RolledTest

BLACK, GREY, WHITE = Shade.BLACK, Shade.GREY, Shade.WHITE


def _rolled(dice: int, shade: int, open_ended: bool, faces: list[int]) -> PoolRoll:
    return roll_before(dice, shade, open_ended, ScriptedSource(faces))


def test_fate_on_a_closed_roll_shows_the_odds_of_its_sixes_exploding() -> None:
    """Fate after a closed roll makes its 6s open-ended: 3 black dice showing 6, 4, 1 have 2
    successes; the one 6 rerolled open-ended adds none 1/2 (1-3), one 5/12 (4, 5, or a 6 then
    a miss), two 5/72 … The card names the pool and the artha, every face and the final count."""
    before = _rolled(3, BLACK, False, [6, 4, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([5]))
    card = after_card(before, after, Artha(fate=True), "elves' Fate")
    assert card.odds is not None
    assert list(card.odds.items())[:4] == [
        ("2", "1/2"),
        ("3", "5/12"),
        ("4", "5/72"),
        ("5", "5/432"),
    ]
    assert (card.label, card.rule, card.dice) == (
        "elves' Fate",
        "Independent and Versus Maneuvers",
        "3d6 + Fate",
    )
    assert (card.faces, card.outcome, card.margin, card.value) == ((6, 4, 1, 5), "3", None, 3)
    assert card.shown == "pool [6, 4, 1], fate [5]"


def test_a_count_in_the_top_row_of_fates_odds_is_read_as_that_row() -> None:
    """The same roll's 6 rerolled 6, 6, 6, 4 adds four: 6 successes, in the "6+" row — six or
    more together 5/2592 × 6/5 = 1/432 (seven or more, 1/2592, is under 1/1000 alone)."""
    before = _rolled(3, BLACK, False, [6, 4, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([6, 6, 6, 4]))
    card = after_card(before, after, Artha(fate=True), "elves' Fate")
    assert card.odds == {"2": "1/2", "3": "5/12", "4": "5/72", "5": "5/432", "6+": "1/432"}
    assert (card.outcome, card.value) == ("6+", 6)


def test_fate_on_an_open_ended_roll_rerolls_one_failed_die_open_ended() -> None:
    """Fate after an open-ended roll rerolls one failed die, open-ended: 3 grey dice showing
    6, 1, 2 and the 6's 1 have 1 success; the rerolled die adds none 1/3 (1-2), one 5/9 …"""
    before = _rolled(3, GREY, True, [6, 2, 1, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([3]))
    card = after_card(before, after, Artha(fate=True), "orcs' Fate")
    assert card.odds is not None
    assert list(card.odds.items())[:3] == [("1", "1/3"), ("2", "5/9"), ("3", "5/54")]
    assert card.dice == "3d6 grey open-ended + Fate"
    assert (card.outcome, card.shown) == ("2", "pool [6, 1, 2, 1], fate [3]")


def test_fate_on_an_open_ended_roll_without_a_failed_die_can_change_nothing() -> None:
    """Nothing failed: the count stands, certain."""
    before = _rolled(2, BLACK, True, [4, 5])
    after = spend_after(before, Artha(fate=True), ScriptedSource([]))
    card = after_card(before, after, Artha(fate=True), "elves' Fate")
    assert card.odds == {"2": "1"}
    assert (card.outcome, card.shown) == ("2", "pool [4, 5]")


def test_deeds_after_the_roll_shows_the_odds_of_every_failed_die_rerolled() -> None:
    """Deeds after the roll rerolls every failed die, open-ended if the pool is: 2 white dice
    both failed reroll closed (none 1/36, one 5/18, two 25/36); 3 grey open-ended dice with 3
    failed reroll open-ended (none 1/27, the top beyond three dice)."""
    before = _rolled(2, WHITE, False, [1, 1])
    after = spend_after(before, Artha(deeds_after=True), ScriptedSource([6, 1]))
    card = after_card(before, after, Artha(deeds_after=True), "dwarves' Deeds")
    assert card == RollCard(
        label="dwarves' Deeds",
        rule="Independent and Versus Maneuvers",
        dice="2d6 white + Deeds (reroll)",
        odds={"0": "1/36", "1": "5/18", "2": "25/36"},
        faces=(1, 1, 6, 1),
        outcome="1",
        margin=None,
        value=1,
        shown="pool [1, 1], deeds [6, 1]",
    )
    before = _rolled(3, GREY, True, [6, 2, 1, 1])
    after = spend_after(before, Artha(deeds_after=True), ScriptedSource([3, 6, 2, 2]))
    card = after_card(before, after, Artha(deeds_after=True), "orcs' Deeds")
    assert card.odds is not None
    assert list(card.odds.items())[:3] == [("1", "1/27"), ("2", "5/27"), ("3", "55/162")]
    assert "5" in card.odds


def test_fate_and_deeds_together_show_the_odds_of_both_steps() -> None:
    """Both after one roll: the card gives the faces, the count, and the chance of each final
    count from the faces showing (Fate opens the 6, then Deeds rerolls what still failed), its
    unlikely tail one row: the odds ``spend_artha`` offered."""
    before = _rolled(3, BLACK, False, [6, 4, 1])
    artha = Artha(fate=True, deeds_after=True)
    after = spend_after(before, artha, ScriptedSource([5, 1, 1, 1]))
    card = after_card(before, after, artha, "elves' artha")
    assert card.odds == trimmed(after_distribution(before, artha))
    assert sum(Fraction(p) for p in card.odds.values()) == 1
    rows = list(card.odds)
    assert rows[0] == "2" and rows[-1].endswith("+")
    assert (card.dice, card.outcome) == ("3d6 + Fate + Deeds (reroll)", "3")


def test_a_maneuver_tests_card_counts_successes_and_tops_an_open_ended_pool() -> None:
    """A maneuver test is rolled before its obstacle is known: its card gives the chance of each
    number of successes; an open-ended pool's list stops three past its dice, "or more"."""
    card = pool_card(_rolled(3, GREY, True, [6, 2, 1, 1]), "orcs' Assault", "Maneuver Resolution")
    assert card == RollCard(
        label="orcs' Assault",
        rule="Maneuver Resolution",
        dice="3d6 grey open-ended",
        odds={
            "0": "1/27",
            "1": "5/27",
            "2": "55/162",
            "3": "815/2916",
            "4": "655/5832",
            "5": "1205/34992",
            "6+": "421/34992",
        },
        faces=(6, 1, 2, 1),
        outcome="1",
        margin=None,
        value=1,
        shown="pool [6, 1, 2, 1]",
    )
    lucky = _rolled(1, BLACK, True, [6, 6, 6, 6, 6, 1])
    card = pool_card(lucky, "elves' Assess", "Maneuver Resolution")
    assert (card.outcome, card.margin, card.value) == ("4+", None, 5)
    assert card.odds == {"0": "1/2", "1": "5/12", "2": "5/72", "3": "5/432", "4+": "1/432"}


def test_a_card_shows_the_odds_it_is_given_and_buckets_the_count_among_them() -> None:
    """Odds given (a tie-breaker's, a pool's own) are shown as given; a count past the top
    bucket is that bucket, one listed is itself."""
    rolled = _rolled(2, BLACK, False, [6, 5])
    card = pool_card(rolled, "x", "y", odds={"0": "1/4", "1+": "3/4"})
    assert (card.odds, card.outcome) == ({"0": "1/4", "1+": "3/4"}, "1+")
    card = pool_card(rolled, "x", "y", odds={"1": "1/2", "2": "1/4"})
    assert card.outcome == "2"
    card = pool_card(rolled, "x", "y", odds={"0": "1/2", "12+": "1/2"})
    assert card.outcome == "2"
    four = _rolled(1, BLACK, True, [6, 6, 6, 4])
    assert pool_card(four, "x", "y").outcome == "4+"
    assert pool_card(rolled, "x", "y").odds == {"0": "1/4", "1": "1/2", "2": "1/4"}
    before = _rolled(3, BLACK, False, [6, 4, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([5]))
    assert pool_card(after, "x", "y").shown == "pool [6, 4, 1], fate [5]"


@pytest.mark.parametrize(
    ("dice", "shade", "open_ended", "text"),
    [
        (5, BLACK, False, "5d6"),
        (4, GREY, True, "4d6 grey open-ended"),
        (2, WHITE, False, "2d6 white"),
        (3, 5, False, "3d6 shade 5"),
    ],
)
def test_a_pool_is_written_as_a_person_writes_it(
    dice: int, shade: int, open_ended: bool, text: str
) -> None:
    """Black is the plain d6; grey and white are named; open-ended is said."""
    assert pool_dice(dice, shade, open_ended) == text


def test_the_odds_of_no_dice_are_no_successes_certain() -> None:
    """A pool of no dice has 0 successes, certain; 2 black open-ended dice count to 5 or more."""
    assert count_odds(0, BLACK, False) == {"0": "1"}
    assert count_odds(2, BLACK, True) == {
        "0": "1/4",
        "1": "5/12",
        "2": "35/144",
        "3": "5/72",
        "4": "85/5184",
        "5+": "23/5184",
    }
    assert shade_letter(GREY) == "G"


def test_the_top_counts_less_likely_than_one_in_a_thousand_together_are_one_row() -> None:
    """A chart shows the outcomes that matter: its highest counts, together less likely than
    1/1000, are one "N+" row — every count but the lowest, where only it is likely; a top
    count of exactly 1/1000 keeps its own row."""
    per_mille = Fraction(1, 1000)
    assert trimmed({2: 1 - per_mille, 3: per_mille}) == {"2": "999/1000", "3": "1/1000"}
    tiny = {0: 1 - per_mille / 2, 1: per_mille / 4, 2: per_mille / 4}
    assert trimmed(tiny) == {"0+": "1"}


def test_the_odds_of_artha_after_a_harrys_roll_name_the_pool_it_is_spent_on() -> None:
    """Independent and Versus Maneuvers: a Harry's two pools after the roll — its defence dice
    (6, 4: 2 successes) and its attack dice (3, 3, 3: none). Fate on the defence dice opens
    the 6 (as on any closed roll); Deeds rerolls the three failed attack dice, each a success
    1/2; kept, the defence roll stands. A roll of one pool names none."""
    defence = {"dice": 2, "shade": "B", "open_ended": False, "successes": 2}
    attack = {"dice": 3, "shade": "B", "open_ended": False, "successes": 0}
    test = RolledTest(
        "elves",
        "leader",
        "Tactics",
        5,
        2,
        pool={**defence, "stages": {"pool": [6, 4]}},
        attack_pool={**attack, "stages": {"pool": [3, 3, 3]}},
    )
    fate = after_preview("the Elves", test, fate=True, deeds=False, pool="defence")
    assert (fate.label, fate.rule, fate.dice) == (
        "the Elves: Fate on the defence roll",
        "Independent and Versus Maneuvers",
        "2d6, 2 showing",
    )
    shown = {"2": "1/2", "3": "5/12", "4": "5/72", "5": "5/432", "6+": "1/432"}
    assert dict(fate.odds) == {f"{k} successes": v for k, v in shown.items()}
    deeds = after_preview("the Elves", test, fate=False, deeds=True, pool="attack")
    assert (deeds.label, deeds.dice) == (
        "the Elves: Deeds (reroll) on the attack roll",
        "3d6, 0 showing",
    )
    thirds = {"0 successes": "1/8", "1 success": "3/8", "2 successes": "3/8", "3 successes": "1/8"}
    assert dict(deeds.odds) == thirds
    kept = after_preview("the Elves", test, fate=False, deeds=False)
    assert (kept.label, dict(kept.odds)) == (
        "the Elves: no artha: the roll kept on the defence roll",
        {"2 successes": "1"},
    )
    alone = after_preview("the Elves", replace(test, attack_pool=None), fate=False, deeds=False)
    assert alone.label == "the Elves: no artha: the roll kept"


def test_artha_odds_merge_the_counts_under_one_in_a_thousand_as_a_card_does() -> None:
    """The odds a spending choice shows merge their top counts as the card does (``trimmed``):
    a count of exactly 1/1000 keeps its row; where only the lowest count is likely, it is one
    row of that many or more."""
    test = RolledTest(
        "elves",
        "leader",
        "Tactics",
        2,
        2,
        pool={
            "dice": 2,
            "shade": "B",
            "open_ended": False,
            "successes": 2,
            "stages": {"pool": [6, 4]},
        },
    )
    per_mille = Fraction(1, 1000)
    edge = after_preview("e", test, fate=True, deeds=False, dist={2: 1 - per_mille, 3: per_mille})
    assert dict(edge.odds) == {"2 successes": "999/1000", "3 successes": "1/1000"}
    tiny = {0: 1 - per_mille / 2, 1: per_mille / 4, 2: per_mille / 4}
    assert dict(after_preview("e", test, fate=True, deeds=False, dist=tiny).odds) == {
        "0+ successes": "1"
    }


def test_the_odds_of_artha_after_an_open_ended_roll_write_its_dice_open_ended() -> None:
    """An open-ended roll (two black dice, the 6 exploded into a 5) previewed after the roll
    names its pool as a person writes it: open-ended, as its card does (``pool_dice``), not
    as a closed pool."""
    rolled = {
        "dice": 2,
        "shade": "B",
        "open_ended": True,
        "successes": 2,
        "stages": {"pool": [6, 4], "open": [5]},
    }
    test = RolledTest("elves", "leader", "Tactics", 2, 2, pool=rolled)
    kept = after_preview("the Elves", test, fate=False, deeds=False)
    assert kept.dice == "2d6 open-ended, 2 showing"
    closed = {**rolled, "open_ended": False, "stages": {"pool": [6, 4]}}
    assert after_preview("the Elves", replace(test, pool=closed), fate=False, deeds=False).dice == (
        "2d6, 2 showing"
    )
