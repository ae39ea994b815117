"""Checks: exact odds against brute-force enumeration, rolls with scripted dice, sums to 1."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    BLACK,
    GREY,
    WHITE,
    CheckOdds,
    ObstacleCheck,
    OpposedCheck,
    Outcome,
    PercentileCheck,
    Pool,
    TargetCheck,
    TieRule,
    Total,
)
from referee.dice import DiceSourceError, ScriptedSource


def brute(counts: Counter[object]) -> dict[object, Fraction]:
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def faces(n: int, sides: int = 6) -> itertools.product[tuple[int, ...]]:
    return itertools.product(range(1, sides + 1), repeat=n)


def assert_sums_to_one(odds: CheckOdds) -> None:
    assert sum(odds.outcomes.values()) == 1
    assert sum(odds.margins.values()) == 1
    if odds.successes is not None:
        assert sum(odds.successes.values()) == 1
    assert odds.success + odds.failure + odds.tie == 1


# ------------------------------------------------------------------ target checks


@pytest.mark.parametrize("comparison", [">=", ">"])
@pytest.mark.parametrize(("dice", "n", "keep"), [("3d6", 3, 3), ("2d6", 2, 2), ("3d6kh2", 3, 2)])
@pytest.mark.parametrize(("modifier", "target"), [(0, 10), (2, 14), (-1, 7), (5, 3), (0, 30)])
def test_target_check_matches_enumeration(
    comparison: str, dice: str, n: int, keep: int, modifier: int, target: int
) -> None:
    check = TargetCheck(dice, target, modifier, comparison)  # type: ignore[arg-type]
    outcomes: Counter[object] = Counter()
    margins: Counter[object] = Counter()
    for roll in faces(n):
        total = sum(sorted(roll, reverse=True)[:keep]) + modifier
        ok = total >= target if comparison == ">=" else total > target
        outcomes[Outcome.SUCCESS if ok else Outcome.FAILURE] += 1
        margins[total - target] += 1
    odds = check.odds()
    expected = brute(outcomes)
    assert odds.success == expected.get(Outcome.SUCCESS, 0)
    assert odds.failure == expected.get(Outcome.FAILURE, 0)
    assert dict(odds.margins) == brute(margins)
    assert list(odds.margins) == sorted(odds.margins)
    assert_sums_to_one(odds)


def test_target_check_roll_shows_dice() -> None:
    result = TargetCheck("3d6", 14, 2).roll(ScriptedSource([6, 5, 1]))
    assert (result.outcome, result.value, result.margin, result.faces) == (
        Outcome.SUCCESS,
        14,
        0,
        (6, 5, 1),
    )
    beaten = TargetCheck("3d6", 14, 2, ">").roll(ScriptedSource([6, 5, 1]))
    assert beaten.outcome is Outcome.FAILURE
    assert result.to_json() == {"outcome": "success", "value": 14, "margin": 0, "faces": [6, 5, 1]}
    assert "14" in result.describe()


def test_keep_highest_records_every_face_in_order() -> None:
    result = TargetCheck("3d6kh2", 9, 1, ">").roll(ScriptedSource([2, 6, 3]))
    assert result.faces == (2, 6, 3)
    assert result.value == 10


# ------------------------------------------------------------------ obstacle checks


@pytest.mark.parametrize("shade", [BLACK, GREY, WHITE])
@pytest.mark.parametrize("n", [1, 3, 5])
@pytest.mark.parametrize("obstacle", [0, 1, 3, 6])
def test_obstacle_check_matches_enumeration(shade: int, n: int, obstacle: int) -> None:
    successes: Counter[object] = Counter()
    for roll in faces(n):
        successes[sum(f >= shade for f in roll)] += 1
    odds = ObstacleCheck(n, obstacle, shade).odds()
    expected = brute(successes)
    assert dict(odds.successes or {}) == expected
    assert odds.success == sum(p for s, p in expected.items() if s >= obstacle)  # type: ignore[operator]
    assert dict(odds.margins) == {s - obstacle: p for s, p in expected.items()}  # type: ignore[operator]
    assert_sums_to_one(odds)


def open_ended_brute(n: int, shade: int, depth: int) -> dict[int, Fraction]:
    """Successes of an open-ended pool, following each chain of 6s ``depth`` dice deep."""

    def one(d: int) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for face in range(1, 7):
            hit = int(face >= shade)
            if face == 6 and d > 0:
                for more, p in one(d - 1).items():
                    out[hit + more] = out.get(hit + more, Fraction(0)) + p / 6
            else:
                out[hit] = out.get(hit, Fraction(0)) + Fraction(1, 6)
        return out

    single = one(depth)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in single.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        total = nxt
    return total


@pytest.mark.parametrize(("n", "shade"), [(1, BLACK), (2, GREY), (3, WHITE)])
def test_open_ended_pool_matches_enumeration(n: int, shade: int) -> None:
    odds = ObstacleCheck(n, 2, shade, open_ended=True).odds()
    assert_sums_to_one(odds)
    reference = open_ended_brute(n, shade, depth=12)
    for successes in range(6):
        assert abs(float((odds.successes or {})[successes] - reference[successes])) < 1e-8


def test_open_ended_roll_counts_exploded_dice() -> None:
    result = ObstacleCheck(2, 3, BLACK, open_ended=True).roll(ScriptedSource([6, 6, 2, 5]))
    assert (result.value, result.margin, result.outcome, result.faces) == (
        3,
        0,
        Outcome.SUCCESS,
        (6, 6, 2, 5),
    )


def test_empty_pool_rolls_nothing() -> None:
    check = ObstacleCheck(0, 1)
    assert check.odds().failure == 1
    result = check.roll(ScriptedSource([]))
    assert (result.value, result.faces, result.outcome) == (0, (), Outcome.FAILURE)


# ------------------------------------------------------------------ d100 roll-under


def zweihander(face: int, chance: int) -> Outcome:
    if face == 1:
        return Outcome.CRITICAL_SUCCESS
    if face == 100:
        return Outcome.CRITICAL_FAILURE
    tens, units = divmod(face, 10)
    matching = tens == units
    if face <= chance:
        return Outcome.CRITICAL_SUCCESS if matching else Outcome.SUCCESS
    return Outcome.CRITICAL_FAILURE if matching else Outcome.FAILURE


@pytest.mark.parametrize(
    ("chance", "modifier"),
    [(50, 0), (45, -10), (1, 0), (0, 0), (99, 0), (100, 20), (33, 0), (34, 0), (-5, 0)],
)
def test_percentile_matches_enumeration(chance: int, modifier: int) -> None:
    outcomes: Counter[object] = Counter()
    margins: Counter[object] = Counter()
    for face in range(1, 101):
        outcomes[zweihander(face, chance + modifier)] += 1
        margins[chance + modifier - face] += 1
    odds = PercentileCheck(chance, modifier).odds()
    expected = brute(outcomes)
    for outcome in Outcome:
        if outcome is not Outcome.TIE:
            assert odds.probability(outcome) == expected.get(outcome, 0), outcome
    assert dict(odds.margins) == brute(margins)
    assert_sums_to_one(odds)


@pytest.mark.parametrize(
    ("face", "chance", "outcome"),
    [
        (1, 0, Outcome.CRITICAL_SUCCESS),
        (100, 150, Outcome.CRITICAL_FAILURE),
        (33, 40, Outcome.CRITICAL_SUCCESS),
        (33, 30, Outcome.CRITICAL_FAILURE),
        (34, 40, Outcome.SUCCESS),
        (41, 40, Outcome.FAILURE),
        (40, 40, Outcome.SUCCESS),
    ],
)
def test_percentile_rolls(face: int, chance: int, outcome: Outcome) -> None:
    result = PercentileCheck(chance).roll(ScriptedSource([face]))
    assert (result.outcome, result.value, result.margin, result.faces) == (
        outcome,
        face,
        chance - face,
        (face,),
    )


# ------------------------------------------------------------------ opposed checks


@pytest.mark.parametrize("ties", list(TieRule))
@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (2, 1), (-1, 3)])
def test_opposed_totals_match_enumeration(ties: TieRule, mine: int, theirs: int) -> None:
    outcomes: Counter[object] = Counter()
    margins: Counter[object] = Counter()
    for a, b in itertools.product(faces(2), faces(2)):
        x, y = sum(a) + mine, sum(b) + theirs
        if x != y:
            outcome = Outcome.SUCCESS if x > y else Outcome.FAILURE
        else:
            outcome = {
                TieRule.ACTOR_WINS: Outcome.SUCCESS,
                TieRule.OPPONENT_WINS: Outcome.FAILURE,
                TieRule.TIE: Outcome.TIE,
            }[ties]
        outcomes[outcome] += 1
        margins[x - y] += 1
    odds = OpposedCheck(Total("2d6", mine), Total("2d6", theirs), ties).odds()
    expected = brute(outcomes)
    for outcome in (Outcome.SUCCESS, Outcome.FAILURE, Outcome.TIE):
        assert odds.probability(outcome) == expected.get(outcome, 0)
    assert dict(odds.margins) == brute(margins)
    assert odds.successes is None
    assert_sums_to_one(odds)


@pytest.mark.parametrize(
    ("a", "b", "shade_a", "shade_b"), [(2, 3, BLACK, BLACK), (3, 2, GREY, WHITE)]
)
def test_versus_pools_match_enumeration(a: int, b: int, shade_a: int, shade_b: int) -> None:
    """Burning Wheel's versus test: the defender wins ties."""
    outcomes: Counter[object] = Counter()
    for x, y in itertools.product(faces(a), faces(b)):
        sa, sb = sum(f >= shade_a for f in x), sum(f >= shade_b for f in y)
        outcomes[Outcome.SUCCESS if sa > sb else Outcome.FAILURE] += 1
    odds = OpposedCheck(Pool(a, shade_a), Pool(b, shade_b), TieRule.OPPONENT_WINS).odds()
    assert odds.success == brute(outcomes)[Outcome.SUCCESS]
    assert odds.successes == Pool(a, shade_a).distribution()
    assert_sums_to_one(odds)


def test_opposed_roll_takes_the_actors_dice_first() -> None:
    check = OpposedCheck(Total("2d6", 1), Total("2d6", 2), TieRule.ACTOR_WINS)
    result = check.roll(ScriptedSource([3, 4, 2, 4]))
    assert (result.outcome, result.value, result.opponent_value, result.margin, result.faces) == (
        Outcome.SUCCESS,
        8,
        8,
        0,
        (3, 4, 2, 4),
    )
    defender = OpposedCheck(Pool(2), Pool(2), TieRule.OPPONENT_WINS).roll(
        ScriptedSource([4, 1, 6, 2])
    )
    assert (defender.outcome, defender.value, defender.opponent_value) == (Outcome.FAILURE, 1, 1)
    tie = OpposedCheck(Total("1d6"), Total("1d6"), TieRule.TIE).roll(ScriptedSource([5, 5]))
    assert tie.outcome is Outcome.TIE
    assert tie.to_json()["opponent_value"] == 5


def test_a_scripted_source_that_runs_out_fails_loudly() -> None:
    with pytest.raises(DiceSourceError, match="ran out"):
        TargetCheck("3d6", 10).roll(ScriptedSource([1, 2]))
    with pytest.raises(DiceSourceError):
        PercentileCheck(50).roll(ScriptedSource([]))
    with pytest.raises(DiceSourceError, match="cannot come up"):
        TargetCheck("2d6", 10).roll(ScriptedSource([7, 1]))


# ------------------------------------------------------------------ properties

checks = st.one_of(
    st.builds(
        TargetCheck,
        dice=st.sampled_from(["1d6", "2d6", "3d6", "1d20", "3d6kh2", "4d6kh2"]),
        target=st.integers(-5, 30),
        modifier=st.integers(-5, 10),
        comparison=st.sampled_from([">=", ">"]),
    ),
    st.builds(
        ObstacleCheck,
        dice=st.integers(0, 6),
        obstacle=st.integers(0, 8),
        shade=st.sampled_from([BLACK, GREY, WHITE]),
        open_ended=st.booleans(),
    ),
    st.builds(PercentileCheck, chance=st.integers(-20, 130), modifier=st.integers(-30, 30)),
    st.builds(
        OpposedCheck,
        actor=st.one_of(
            st.builds(Total, st.sampled_from(["2d6", "3d6", "1d10"]), st.integers(-3, 5)),
            st.builds(Pool, st.integers(0, 4), st.sampled_from([BLACK, GREY, WHITE])),
        ),
        opponent=st.one_of(
            st.builds(Total, st.sampled_from(["2d6", "1d8"]), st.integers(-3, 5)),
            st.builds(Pool, st.integers(0, 4), st.sampled_from([BLACK, GREY, WHITE])),
        ),
        ties=st.sampled_from(list(TieRule)),
    ),
)


@settings(max_examples=60, deadline=None)
@given(checks)
def test_probabilities_of_every_check_sum_to_one(check: object) -> None:
    odds = check.odds()  # type: ignore[attr-defined]
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in odds.outcomes.values())
    assert_sums_to_one(odds)


@settings(max_examples=60, deadline=None)
@given(checks, st.integers(0, 2**32))
def test_every_roll_is_an_outcome_the_odds_allow(check: object, seed: int) -> None:
    from referee.dice import RandomSource

    result = check.roll(RandomSource(seed))  # type: ignore[attr-defined]
    odds = check.odds()  # type: ignore[attr-defined]
    assert odds.probability(result.outcome) > 0
    assert odds.margins.get(result.margin, 0) > 0


# ------------------------------------------------------------------ memoised and opposed odds


def pairwise(check: OpposedCheck) -> tuple[list[tuple[Outcome, Fraction]], dict[int, Fraction]]:
    """The reference: every pair of the two sides' values, outcomes in order of first pair."""
    outcomes: dict[Outcome, Fraction] = {}
    margins: dict[int, Fraction] = {}
    for a, pa in check.actor.distribution().items():
        for b, pb in check.opponent.distribution().items():
            outcome = check._outcome(a, b)
            outcomes[outcome] = outcomes.get(outcome, Fraction(0)) + pa * pb
            margins[a - b] = margins.get(a - b, Fraction(0)) + pa * pb
    for o in (Outcome.SUCCESS, Outcome.FAILURE):
        outcomes.setdefault(o, Fraction(0))
    if check.ties is TieRule.TIE:
        outcomes.setdefault(Outcome.TIE, Fraction(0))
    return list(outcomes.items()), dict(sorted(margins.items()))


@pytest.mark.parametrize(
    "check",
    [
        OpposedCheck(Pool(8, BLACK, True), Pool(6, GREY, True), TieRule.OPPONENT_WINS),
        OpposedCheck(Pool(5, WHITE), Pool(7, BLACK, True), TieRule.TIE),
        OpposedCheck(Pool(0), Pool(3), TieRule.ACTOR_WINS),
        OpposedCheck(Total("2d6*2", 1), Total("1d8", 3), TieRule.TIE),
        OpposedCheck(Total("3d6kh2", -2), Pool(4, GREY), TieRule.ACTOR_WINS),
        OpposedCheck(Total("1d4"), Total("1d20"), TieRule.OPPONENT_WINS),
    ],
    ids=repr,
)
def test_opposed_odds_as_one_expression_equal_every_pair(check: OpposedCheck) -> None:
    outcomes, margins = pairwise(check)
    odds = check.odds()
    assert list(odds.outcomes.items()) == outcomes  # the same values, in the same order
    assert list(odds.margins.items()) == list(margins.items())
    assert_sums_to_one(odds)


def test_odds_of_a_check_already_seen_are_not_worked_out_again() -> None:
    from referee.core.checks import _odds_of

    check = OpposedCheck(Pool(9, BLACK, True), Pool(9, GREY, True), TieRule.OPPONENT_WINS)
    first = check.odds()
    before = _odds_of.cache_info()
    again = OpposedCheck(Pool(9, BLACK, True), Pool(9, GREY, True), TieRule.OPPONENT_WINS).odds()
    after = _odds_of.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    assert again == first
    # each caller gets its own copy: changing one cannot change the next
    again.outcomes[Outcome.SUCCESS] = Fraction(0)  # type: ignore[index]
    again.margins.clear()  # type: ignore[attr-defined]
    assert check.odds() == first and check.odds().margins
    assert _odds_of.cache_info().maxsize is not None  # bounded


# ------------------------------------------------------------------ in JSON, and in one line


def test_a_checks_odds_in_json_are_fractions_written_n_over_d() -> None:
    """What a preview shows (docs/kernel.md, "Checks"): each outcome's and each margin's exact
    probability as ``"n/d"``, and for a pool the distribution of its successes."""
    from referee.core import ObstacleCheck, TargetCheck

    assert TargetCheck("1d6", 4).odds().to_json() == {
        "outcomes": {"failure": "1/2", "success": "1/2"},
        "margins": {"-3": "1/6", "-2": "1/6", "-1": "1/6", "0": "1/6", "1": "1/6", "2": "1/6"},
        "successes": None,
    }
    assert ObstacleCheck(1, 1).odds().to_json() == {
        "outcomes": {"failure": "1/2", "success": "1/2"},
        "margins": {"-1": "1/2", "0": "1/2"},
        "successes": {"0": "1/2", "1": "1/2"},
    }


def test_a_rolled_checks_json_names_the_opponents_value_only_in_an_opposed_check() -> None:
    from referee.core import OpposedCheck, TargetCheck, Total

    target = TargetCheck("1d6", 4).roll(ScriptedSource([5]))
    assert target.to_json() == {"outcome": "success", "value": 5, "margin": 1, "faces": [5]}
    opposed = OpposedCheck(Total("1d6"), Total("1d6", 1)).roll(ScriptedSource([2, 4]))
    assert opposed.to_json() == {
        "outcome": "failure",
        "value": 2,
        "margin": -3,
        "faces": [2, 4],
        "opponent_value": 5,
    }


def test_a_total_is_written_with_the_sign_of_its_modifier() -> None:
    from referee.core import Total

    assert [Total("2d6", m).expression for m in (-2, 0, 3)] == ["2d6-2", "2d6", "2d6+3"]


def test_an_opposed_checks_outcomes_are_listed_as_the_margins_reach_them() -> None:
    """The odds list an opposed check's outcomes in the order the lowest margins reach them,
    then those that cannot happen; a tie stands only under ``TieRule.TIE``."""
    from referee.core import OpposedCheck, Pool, TieRule, Total

    even = OpposedCheck(Total("1d6"), Total("1d6"), TieRule.TIE).odds()
    assert [o.value for o in even.outcomes] == ["tie", "failure", "success"]
    assert (even.tie, even.success, even.failure) == (
        Fraction(1, 6),
        Fraction(5, 12),
        Fraction(5, 12),
    )
    ahead = OpposedCheck(Total("1d6", 3), Total("1d6"), TieRule.TIE).odds()
    assert [o.value for o in ahead.outcomes] == ["success", "tie", "failure"]
    behind = OpposedCheck(Total("1d6"), Total("1d6", 3), TieRule.OPPONENT_WINS).odds()
    assert [o.value for o in behind.outcomes] == ["failure", "success"]
    alone = OpposedCheck(Pool(2, shade=4), Pool(0), TieRule.TIE).odds()
    assert [o.value for o in alone.outcomes] == ["tie", "success", "failure"]
    assert alone.successes == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_an_opposed_check_that_cannot_tie_lists_the_tie_last() -> None:
    """An actor whose every value beats every opponent's: success is the only outcome that can
    happen, then failure and the tie that cannot, in their usual order."""
    from referee.core import OpposedCheck, TieRule, Total

    odds = OpposedCheck(Total("1d6", 10), Total("1d6"), TieRule.TIE).odds()
    assert [o.value for o in odds.outcomes] == ["success", "failure", "tie"]
    assert odds.success == 1


def test_a_pool_of_one_die_is_rolled_in_an_opposed_check() -> None:
    from referee.core import OpposedCheck, Pool, TieRule

    odds = OpposedCheck(Pool(1, shade=4), Pool(0), TieRule.TIE).odds()
    assert odds.margins == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_a_percentile_checks_odds_count_criticals_as_successes_and_failures() -> None:
    from referee.core import PercentileCheck

    odds = PercentileCheck(50).odds()
    assert (odds.success, odds.failure) == (Fraction(1, 2), Fraction(1, 2))
    assert (odds.critical_success, odds.critical_failure, odds.tie) == (
        Fraction(1, 20),
        Fraction(3, 50),
        0,
    )


def test_a_rolled_checks_line_shows_every_roll_behind_it() -> None:
    """A roll card's line (docs/kernel.md, "Checks"): the rolls behind a result, the actor's
    then the opponent's; an empty pool rolls nothing and says so, a pool of one die rolls it."""
    from referee.core import ObstacleCheck, OpposedCheck, PercentileCheck, Total

    percentile = PercentileCheck(50).roll(ScriptedSource([33]))
    assert percentile.describe() == "1d100 (33) = 33 → critical success (margin +17)"
    opposed = OpposedCheck(Total("1d6"), Total("1d6", 1)).roll(ScriptedSource([2, 4]))
    assert opposed.describe() == "1d6 (2) = 2; 1d6 (4) + 1 = 5 → failure (margin -3)"
    one = ObstacleCheck(1, 1).roll(ScriptedSource([6]))
    assert (one.value, one.faces, one.describe()) == (
        1,
        (6,),
        "1d6>=4 (6*) = 1 → success (margin +0)",
    )
    empty = ObstacleCheck(0, 1).roll(ScriptedSource([]))
    assert (empty.value, empty.rolls, empty.describe()) == (0, (), "no dice → failure (margin -1)")
