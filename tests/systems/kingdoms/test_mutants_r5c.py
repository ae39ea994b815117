"""Tests that kill the mutants mutmut left alive in round 5, second wave, part 2 of issue 13
(docs/systems/kingdoms.md, "Mutation testing"): ``dice.py``'s mutants round 1 never reached,
then modules never run before."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.core import ObstacleCheck, Outcome, RuleError
from referee.dice import ScriptedSource
from referee.systems.kingdoms.dice import (
    BLACK,
    Artha,
    BurningPool,
    BurningTest,
    Shade,
    artha_buys_nothing,
    difficulty,
    obstacle_odds,
    roll_before,
    roll_pool,
    spend_after,
    versus_odds,
)


def test_routine_is_ob_at_most_dice_less_one_two_or_three_by_the_pools_size() -> None:
    """parent-games.md: "Routine if Ob ≤ dice − k (k = 1 for 1–3 dice, 2 for 4–6, 3 for 7+);
    Difficult otherwise": each band at its edges."""
    assert [difficulty(3, ob) for ob in (2, 3)] == ["routine", "difficult"]
    assert [difficulty(4, ob) for ob in (2, 3)] == ["routine", "difficult"]
    assert [difficulty(6, ob) for ob in (4, 5)] == ["routine", "difficult"]
    assert [difficulty(7, ob) for ob in (4, 5)] == ["routine", "difficult"]


def test_an_obstacle_of_nothing_is_passed_and_ob_1_is_not_certain() -> None:
    """Pass when successes ≥ Ob: Ob 0 is always passed, open-ended or not; Ob 1 on one black
    die is passed on 4–6, half the time."""
    assert obstacle_odds(BurningPool(3, open_ended=True), Artha(), 0) == 1
    assert obstacle_odds(BurningPool(3), Artha(), 0) == 1
    assert obstacle_odds(BurningPool(1), Artha(), 1) == Fraction(1, 2)


def test_an_open_ended_die_can_pass_ob_2_alone() -> None:
    """Open-ended: a 6 adds another die. One black open-ended die passes Ob 2 on a 6 then 4–6:
    1/6 × 1/2; a closed die never can."""
    assert obstacle_odds(BurningPool(1, open_ended=True), Artha(), 2) == Fraction(1, 12)
    assert obstacle_odds(BurningPool(1), Artha(), 2) == 0


def test_artha_after_the_roll_is_refused_when_it_would_change_no_die() -> None:
    """parent-games.md: Fate makes a closed roll's 6s open-ended, or rerolls one failed die of
    an open-ended one; Deeds rerolls every failed die (audit B6: a point that buys nothing is
    refused). Each refusal, and each spend that buys something."""

    def closed(*faces: int):
        return roll_before(len(faces), BLACK, False, ScriptedSource(list(faces)))

    def opened(*faces: int):
        return roll_before(len(faces), BLACK, True, ScriptedSource(list(faces)))

    assert (
        artha_buys_nothing(closed(4, 2), fate=False, deeds=False)
        == "spend fate, deeds or both (or keep the roll)"
    )
    assert (
        artha_buys_nothing(closed(4, 5), fate=False, deeds=True)
        == "Deeds rerolls failed dice, and the roll has none"
    )
    assert artha_buys_nothing(closed(4, 2), fate=False, deeds=True) is None
    assert (
        artha_buys_nothing(closed(4, 2), fate=True, deeds=False)
        == "Fate makes the roll's 6s open-ended, and it rolled no 6s"
    )
    # Fate with Deeds: the rerolled dice are open-ended too, 6s or not
    assert artha_buys_nothing(closed(4, 2), fate=True, deeds=True) is None
    assert artha_buys_nothing(closed(6, 5), fate=True, deeds=False) is None
    assert (
        artha_buys_nothing(opened(4, 5), fate=True, deeds=False)
        == "Fate rerolls a failed die of an open-ended roll, and it has none"
    )
    assert artha_buys_nothing(opened(4, 2), fate=True, deeds=False) is None


def test_a_test_without_artha_after_the_roll_has_the_kernel_checks_odds_open_ended_too() -> None:
    """Without Fate or Deeds after the roll an independent test is the kernel's ObstacleCheck,
    odds included, for an open-ended pool as for a closed one."""
    for ob in (0, 1, 3):
        test = BurningTest(BurningPool(2, open_ended=True), ob)
        assert test.odds() == ObstacleCheck(2, ob, BLACK, True).odds()


def test_deeds_after_the_roll_rerolls_an_open_ended_pools_failures_open_ended() -> None:
    """Deeds rerolls the failed dice; on an open-ended pool the reroll is open-ended too, so
    one die can reach Ob 2 (4–6 first, or 1–3 then 6 then 4–6; or 6 then a success)."""
    test = BurningTest(BurningPool(1, open_ended=True), 2, Artha(deeds_after=True))
    closed = BurningTest(BurningPool(1), 2, Artha(deeds_after=True))
    assert closed.odds().success == 0
    assert test.odds().success == obstacle_odds(
        BurningPool(1, open_ended=True), Artha(deeds_after=True), 2
    )
    assert test.odds().success > 0


def test_odds_are_exact_past_sixty_successes() -> None:
    """Exact odds: an Ob above the usual cap of 60 is still counted, not rounded to nothing
    (one open-ended die with Fate: 61 successes need sixty 6s and a success)."""
    test = BurningTest(BurningPool(1, open_ended=True), 61, Artha(fate=True))
    assert test.odds().success > 0


def test_a_test_rolls_open_ended_and_counts_its_margin_against_the_ob() -> None:
    """Pass when successes ≥ Ob; margin = successes − Ob; a 6 on an open-ended pool adds a die."""
    won = BurningTest(BurningPool(1, open_ended=True), 2).roll(ScriptedSource([6, 4]))
    assert (won.outcome, won.value, won.margin, won.faces) == (Outcome.SUCCESS, 2, 0, (6, 4))
    lost = BurningTest(BurningPool(2), 2).roll(ScriptedSource([4, 1]))
    assert (lost.outcome, lost.value, lost.margin, lost.faces) == (Outcome.FAILURE, 1, -1, (4, 1))


def test_each_artha_choice_is_named_by_what_it_spends() -> None:
    """The odds of each artha choice are listed by its name: Persona, Deeds before (double),
    Fate, Deeds after (reroll), joined by "+"; "no artha" when none."""
    every = Artha(persona=2, deeds_before=True, fate=True, deeds_after=True)
    assert every.label() == "2 Persona + Deeds (double) + Fate + Deeds (reroll)"
    assert Artha().label() == "no artha"


def test_a_rolled_pool_is_recorded_with_every_part_of_its_dice() -> None:
    """The test's record keeps what went into the pool: exponent, shade letter, FoRKs, help,
    bonus, penalty, open-endedness."""
    pool = BurningPool(5, Shade.GREY, forks=1, helping=2, bonus=3, penalty=4, open_ended=True)
    assert pool.to_json() == {
        "exponent": 5,
        "shade": "G",
        "forks": 1,
        "helping": 2,
        "bonus": 3,
        "penalty": 4,
        "open_ended": True,
    }


def test_versus_odds_count_the_attackers_successes_up_to_the_cap() -> None:
    """Open-ended counts are capped at ``cap``; equal capped counts go to the defender. At cap 1
    one open-ended die beats one closed die only when that one fails: 1/2 × 1/2."""
    attacker, defender = BurningPool(1, open_ended=True), BurningPool(1)
    assert versus_odds(attacker, defender, cap=1) == Fraction(1, 4)
    assert versus_odds(attacker, defender) == Fraction(1, 4) + Fraction(1, 24)


@pytest.mark.parametrize(
    "artha,faces",
    [(Artha(fate=True), [6, 2, 4]), (Artha(deeds_after=True), [4, 2, 5])],
    ids=["fate", "deeds"],
)
def test_artha_after_the_roll_is_spent_once_on_a_test(artha: Artha, faces: list[int]) -> None:
    """Fate or Deeds after the roll, once spent, closes the test to more after-roll artha."""
    rolled = roll_pool(2, BLACK, False, artha, ScriptedSource(faces))
    with pytest.raises(RuleError, match="spent once"):
        spend_after(rolled, Artha(fate=True, deeds_after=True), ScriptedSource([4, 4, 4]))


def test_fate_on_an_open_ended_roll_leaves_the_other_failed_dice_failed() -> None:
    """Fate rerolls one failed die of an open-ended roll: of 1 and 2, the 2 stays failed when
    the reroll succeeds."""
    rolled = roll_pool(2, BLACK, True, Artha(fate=True), ScriptedSource([1, 2, 5]))
    assert (rolled.successes, rolled.failed) == (1, 1)
