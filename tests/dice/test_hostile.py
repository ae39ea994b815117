"""Dice under hostile input (issue 12): every expression is answered or refused with
``NotationError``, within the library's limits of CPU time, and the command line never prints a
traceback.

The expressions are built from the grammar's own pieces (``grammar.lark``): dice with every
operator and selector, success counts, sets, functions, signs, arithmetic, comparisons,
annotations, parentheses, with sizes from the everyday to far past every bound. Under CI
(``CI`` set) thousands of them are tried; elsewhere fewer, so the suite stays quick.
"""

from __future__ import annotations

import gc
import json
import math
import os
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import app
from referee.dice import NotationError, RandomSource, odds, parse, roll
from referee.dice.budget import ODDS_SECONDS, ROLL_SECONDS
from referee.dice.probability import _odds_of

CI = bool(os.environ.get("CI"))
#: The limits are the library's promises; the test allows for a busy machine on top of them
#: (CPU time too grows when another process thrashes the caches: a 1 s budget was once measured
#: at 1.6 s on a loaded CI machine). What the test must catch is work without a bound — the
#: expressions measured before the budget ran for 10 s to minutes — so three times the promise
#: is a verdict on the bound, not on the machine's load (the benchmark measures the limits).
#: Odds get six times: in the whole suite's process under CI, ``-d211ro>0!`` (0.23 s alone)
#: measured 3.2 s three runs in a row, a slowdown whose cause is not found yet; six times still
#: tells a bounded expression from an unbounded one.
ODDS_LIMIT = ODDS_SECONDS * 6
ROLL_LIMIT = ROLL_SECONDS * 3

# ------------------------------------------------------------------ the grammar's pieces

SMALL = st.integers(0, 12)
LARGE = st.sampled_from([29, 100, 500, 999, 1000, 1001, 10_000, 10_001, 123_456_789])
NUMBER = st.one_of(SMALL, SMALL, LARGE, st.integers(0, 2_000)).map(str)
COUNT = st.one_of(st.just(""), NUMBER)
SIDES = st.one_of(
    st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "100", "%"]),
    NUMBER,
)
SELECTOR = st.tuples(st.sampled_from(["", "h", "l", ">", "<"]), NUMBER).map("".join)
DICE_OP = st.one_of(
    st.tuples(st.sampled_from(["k", "p", "rr", "ro", "ra", "r", "e"]), SELECTOR).map("".join),
    st.tuples(st.sampled_from(["dl", "dh", "mi", "ma"]), NUMBER).map("".join),
    st.just("!"),
)
COMPARATOR = st.sampled_from(["==", "!=", ">=", "<=", ">", "<"])


@st.composite
def dice(draw: st.DrawFn) -> str:
    ops = "".join(draw(st.lists(DICE_OP, max_size=4)))
    success = draw(st.one_of(st.just(""), st.tuples(COMPARATOR, NUMBER).map("".join)))
    return f"{draw(COUNT)}d{draw(SIDES)}{ops}{success}"


LITERAL = st.one_of(
    NUMBER,
    st.integers(0, 10**40).map(str),
    st.tuples(SMALL, SMALL).map(lambda t: f"{t[0]}.{t[1]}"),
)
ATOM = st.one_of(dice(), dice(), LITERAL)


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%"]), inner).map("".join),
        st.tuples(inner, COMPARATOR, inner).map("".join),
        st.tuples(st.integers(1, 3).map(lambda n: "-" * n), inner).map("".join),
        inner.map(lambda e: f"({e})"),
        st.tuples(inner, st.lists(st.sampled_from(["[fire]", "[x]"]), max_size=2)).map(
            lambda t: t[0] + "".join(t[1])
        ),
        st.tuples(st.sampled_from(["abs", "max", "min"]), st.lists(inner, max_size=4)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
        st.tuples(
            st.lists(inner, max_size=4),
            st.lists(st.tuples(st.sampled_from(["k", "p"]), SELECTOR).map("".join), max_size=2),
        ).map(lambda t: f"({', '.join(t[0])}){''.join(t[1])}"),
    )


EXPRESSION = st.one_of(
    st.recursive(ATOM, _extend, max_leaves=6),
    # long chains and deep nesting, near and past the bounds
    st.tuples(st.integers(1, 130), st.sampled_from(["-", "+"]), ATOM).map(
        lambda t: t[1] * t[0] + t[2]
    ),
    st.tuples(ATOM, st.integers(1, 130), st.sampled_from(["+", "-", "*", "<"])).map(
        lambda t: t[2].join([t[0]] * t[1])
    ),
    st.tuples(st.integers(1, 60), ATOM).map(lambda t: "(" * t[0] + t[1] + ")" * t[0]),
)

# Expressions the issue measured, which used to fail or run for minutes.
MEASURED = [
    "d20e>15",
    "d6e<5",
    "d10000e>1",
    "1000d6kh500",
    "29d6kh1kl1",
    "4d1000kh3",
    "max(1)",
    "-" * 999 + "1",
    "500d6!ma10==0",
    "599d6",
    "176d6!>=4",
    "1000000d1000000",
    "1+" * 499 + "1",
    "(" * 50 + "1" + ")" * 50,
    "1000d6!",
    "d10000*d10000",
    "(d100,d100,d100,d100)kh1",
    "1000d2",
    "300d6kh150",
    "100d20e20",
    "4d6!kh3>=4",
    "8d10000kh7",
    "1000d6" + "mi1ma6" * 165,
]

# ------------------------------------------------------------------ the properties


def _timed(work: Callable[[], Any], limit: float) -> tuple[Any, float]:
    """``work``'s result (or its NotationError) and its CPU time, measured with the cyclic
    garbage collector paused: a collection walks the whole test process's heap, which under CI
    holds every earlier test's objects, and is not the expression's cost. (Nor is a collection
    made before each run: 7,000 of them over that heap once made the suite's CI run 74 minutes.)
    A run over ``limit`` is run up to twice more and the shortest time kept (the machine may
    steal the CPU); an expression whose cost is really unbounded is over the limit every time.
    (Seen under CI with the collector running: ``-d211ro>0!``, whose odds take 0.25 s, measured
    over 3 s in a row.)"""
    elapsed = math.inf
    result: Any = None
    for _ in range(3):
        _odds_of.cache_clear()
        gc.disable()
        start = time.process_time()
        try:
            result = work()
        except NotationError as error:
            result = error
        finally:
            spent = time.process_time() - start
            gc.enable()
        elapsed = min(elapsed, spent)
        if elapsed <= limit:
            break
    return result, elapsed


def _usable_odds(expression: str) -> Any:
    """What the command line does with odds: every figure must come out without an error."""
    result = odds(expression)
    json.dumps(result.to_json())
    for outcome, p in result.distribution.items():
        assert isinstance(p, Fraction) and 0 < p <= 1
        str(p), str(outcome), float(p)
    assert math.isfinite(float(result.mean)) and math.isfinite(result.stdev)
    str(result.mean), float(result.truncated)
    return result


def _usable_roll(expression: str, seed: int) -> Any:
    result = roll(expression, RandomSource(seed))
    result.describe()
    json.dumps(result.to_json())
    return result


def check(expression: str, seed: int) -> None:
    """Only NotationError escapes, and within the limits."""
    try:
        parse(expression)
    except NotationError:
        return
    rolled, roll_time = _timed(lambda: _usable_roll(expression, seed), ROLL_LIMIT)
    assert roll_time <= ROLL_LIMIT, f"roll of {expression!r}: {roll_time:.3f} s"
    counted, odds_time = _timed(lambda: _usable_odds(expression), ODDS_LIMIT)
    assert odds_time <= ODDS_LIMIT, f"odds of {expression!r}: {odds_time:.3f} s"
    answered = not isinstance(counted, NotationError) and not isinstance(rolled, NotationError)
    if answered and counted.truncated == 0:
        assert rolled.total in counted.distribution


@pytest.mark.parametrize("expression", MEASURED, ids=lambda e: e[:30])
def test_expressions_that_used_to_fail(expression: str) -> None:
    check(expression, 1)


@settings(
    max_examples=2000 if CI else 120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(EXPRESSION, st.integers(0, 2**32))
def test_every_expression_is_answered_or_refused_in_time(expression: str, seed: int) -> None:
    check(expression, seed)


@settings(max_examples=5000 if CI else 400, deadline=None)
@given(EXPRESSION, st.integers(0, 2**32))
def test_every_roll_is_made_or_refused_in_time(expression: str, seed: int) -> None:
    try:
        parse(expression)
    except NotationError:
        return
    _, roll_time = _timed(lambda: _usable_roll(expression, seed), ROLL_LIMIT)
    assert roll_time <= ROLL_LIMIT, f"roll of {expression!r}: {roll_time:.3f} s"


# ------------------------------------------------------------------ through the command line

runner = CliRunner()

SAMPLE = [
    *MEASURED,
    "3d",
    "d0",
    "2d6>=3.5",
    "abs(1,2)",
    "5%0",
    "d6/(d6-1)",
    "1d1e1",
    "4d6rrh1",
    "",
    "  ",
    "9" * 999,
    "1/3/3/3/3/3/3/3/3/3/3/3/3/3/3",
    "(1d6,)kh1",
    "min(1d6)",
    "1d20 [attack] [x]",
    "1d6" + "[" * 10,
    "d%",
    "%",
    "1d2!>=2>=1",
    "4d6k1k2k3k4k5k6" * 10,
]


@pytest.mark.parametrize("command", ["roll", "odds"])
@pytest.mark.parametrize("expression", SAMPLE, ids=lambda e: repr(e[:30]))
def test_the_command_line_never_prints_a_traceback(command: str, expression: str) -> None:
    result = runner.invoke(app, [command, "--json", "--", expression])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code in (0, 2)
    if result.exit_code == 2:
        assert result.stdout == ""
        assert result.stderr.startswith("referee: error: ") and result.stderr.count("\n") == 1
    else:
        json.loads(result.stdout)
