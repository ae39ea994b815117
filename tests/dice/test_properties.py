"""Invariants of the notation, rolls and odds (hypothesis)."""

from __future__ import annotations

import contextlib
from fractions import Fraction

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.dice import NotationError, RandomSource, ScriptedSource, odds, parse, roll
from referee.dice.errors import DiceSourceError, RefereeError

SELECTOR = st.one_of(
    st.integers(0, 3).map(lambda n: f"h{n}"),
    st.integers(0, 3).map(lambda n: f"l{n}"),
    st.integers(0, 5).map(lambda n: f">{n}"),
    st.integers(1, 6).map(lambda n: f"<{n}"),
    st.integers(1, 4).map(str),
)
KEEP_OP = st.tuples(st.sampled_from(["k", "p"]), SELECTOR).map("".join)
VALUE_OP = st.one_of(
    st.tuples(st.sampled_from(["ro", "ra", "rr", "e"]), st.integers(1, 4).map(str)).map("".join),
    st.tuples(st.sampled_from(["mi", "ma"]), st.integers(1, 4).map(str)).map("".join),
)


@st.composite
def dice_terms(draw: st.DrawFn) -> str:
    count = draw(st.integers(0, 3))
    sides = draw(st.integers(2, 4))
    ops = draw(st.lists(st.one_of(KEEP_OP, VALUE_OP), max_size=2))
    success = draw(st.sampled_from(["", ">=2", "<2", "==3"]))
    return f"{count}d{sides}{''.join(ops)}{success}"


ATOM = st.one_of(st.integers(0, 5).map(str), dice_terms())
EXPRESSION = st.recursive(
    ATOM,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(" ".join),
        inner.map(lambda e: f"({e})"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}, {t[1]})kh1"),
    ),
    max_leaves=3,
)


def _parses(expression: str) -> bool:
    try:
        parse(expression)
    except NotationError:
        return False
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSION, st.integers(0, 2**32))
def test_odds_sum_to_one_and_every_roll_is_possible(expression: str, seed: int) -> None:
    assume(_parses(expression))
    try:
        chances = odds(expression)
    except NotationError as error:  # too large to count exactly is a clean refusal
        assert "too many" in str(error)
        return
    assert sum(chances.distribution.values()) == 1
    assert all(p > 0 for p in chances.distribution.values())
    assert 0 <= chances.truncated < Fraction(1, 10**6)
    total = roll(expression, RandomSource(seed)).total
    if chances.truncated == 0:
        assert total in chances.distribution


@settings(max_examples=150, deadline=None)
@given(EXPRESSION, st.integers(0, 2**32))
def test_a_roll_replays_from_its_own_faces(expression: str, seed: int) -> None:
    assume(_parses(expression))
    first = roll(expression, RandomSource(seed))
    source = ScriptedSource(first.faces)
    again = roll(expression, source)
    assert source.remaining == ()
    assert again.total == first.total
    assert again.describe() == first.describe()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789d%khlpreoami!<>=+-*/(),. []abcx", max_size=30))
def test_any_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        parsed = parse(text)
    except NotationError as error:
        assert str(error)
        return
    with contextlib.suppress(RefereeError):  # division by zero, too many dice: refused cleanly
        roll(parsed, RandomSource(0))


@given(st.lists(st.integers(1, 6), max_size=3))
def test_a_script_that_runs_out_fails_loudly(faces: list[int]) -> None:
    source = ScriptedSource(faces)
    try:
        roll("4d6", source)
    except DiceSourceError as error:
        assert "ran out" in str(error)
    else:  # pragma: no cover - four faces can never come from three
        raise AssertionError("a script of at most three faces rolled 4d6")


def test_a_scripted_face_off_the_die_is_refused() -> None:
    try:
        roll("1d6", ScriptedSource([7]))
    except DiceSourceError as error:
        assert "cannot come up on a d6" in str(error)
    else:  # pragma: no cover
        raise AssertionError("a 7 came up on a d6")
