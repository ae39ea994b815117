"""Estimates with their 95% intervals (``referee.core.stats``): Wilson's score interval for a
proportion, Student's t for a mean (the normal's past 30 degrees of freedom). A simulation's
every answer is quoted with one, so each interval is checked against the textbook's figures."""

from __future__ import annotations

import math

import pytest

from referee.core.stats import Z95, Estimate, mean, proportion


def test_the_proportions_interval_is_wilsons_score_interval() -> None:
    """Wilson's interval for 30 hits in 100: p = 0.3, [0.2189, 0.3958]; for 1 in 10, [0.0179,
    0.4042] — neither end cut to 0 or 1 when neither is reached."""
    p = proportion(30, 100)
    assert (p.value, p.n) == (0.3, 100)
    assert p.low == pytest.approx(0.21894, abs=5e-5)
    assert p.high == pytest.approx(0.39583, abs=5e-5)
    q = proportion(1, 10)
    assert q.low == pytest.approx(0.01788, abs=5e-5)
    assert q.high == pytest.approx(0.40415, abs=5e-5)
    r = proportion(9, 10)
    assert (r.low, r.high) == (pytest.approx(0.59585, abs=5e-5), pytest.approx(0.98212, abs=5e-5))


def test_a_proportion_of_none_or_all_reaches_zero_or_one_exactly() -> None:
    """No hit: the interval starts at exactly 0 (Wilson's upper end, 0.0713 for 0 in 50); every
    hit: it ends at exactly 1."""
    none = proportion(0, 50)
    assert (none.value, none.low) == (0.0, 0.0)
    assert none.high == pytest.approx(0.07135, abs=5e-5)
    every = proportion(50, 50)
    assert (every.value, every.high) == (1.0, 1.0)
    assert every.low == pytest.approx(0.92865, abs=5e-5)
    # 10 in 10: Wilson's upper end is 1, which the sum in floats misses by a hair
    assert (proportion(10, 10).high, proportion(0, 10).low) == (1.0, 0.0)


def test_a_proportion_of_one_run_is_an_estimate_too() -> None:
    """One run, one hit: 1, [0.2065, 1]; one run, no hit: 0, [0, 0.7935]."""
    hit, miss = proportion(1, 1), proportion(0, 1)
    assert (hit.value, hit.high, hit.n) == (1.0, 1.0, 1)
    assert hit.low == pytest.approx(0.20655, abs=5e-5)
    assert (miss.value, miss.low, miss.n) == (0.0, 0.0, 1)
    assert miss.high == pytest.approx(0.79345, abs=5e-5)


def test_a_proportion_of_no_runs_is_unknown_and_spans_everything() -> None:
    for runs in (0, -3):
        p = proportion(0, runs)
        assert math.isnan(p.value)
        assert (p.low, p.high, p.n) == (0.0, 1.0, 0)


def test_the_means_interval_is_students_t() -> None:
    """Four values 1–4: mean 2.5, s = 1.291, t(3) = 3.182, so 2.5 ± 2.054."""
    m = mean([1, 2, 3, 4])
    assert (m.value, m.n) == (2.5, 4)
    assert m.low == pytest.approx(2.5 - 3.182 * math.sqrt(5 / 3 / 4), abs=1e-9)
    assert m.high == pytest.approx(2.5 + 3.182 * math.sqrt(5 / 3 / 4), abs=1e-9)


@pytest.mark.parametrize(
    ("count", "t"), [(2, 12.706), (3, 4.303), (30, 2.045), (31, 2.042), (32, Z95), (100, Z95)]
)
def test_the_means_interval_takes_t_for_its_degrees_of_freedom_and_the_normal_past_30(
    count: int, t: float
) -> None:
    """Values 0 and 2 alternating (the sample's deviation known): the half-width is t × s/√n,
    with t for n − 1 degrees of freedom up to 30, the normal's 1.96 beyond."""
    values = [float(2 * (i % 2)) for i in range(count)]
    m = mean(values)
    centre = sum(values) / count
    s = math.sqrt(sum((v - centre) ** 2 for v in values) / (count - 1))
    assert m.value == pytest.approx(centre)
    assert m.high - m.value == pytest.approx(t * s / math.sqrt(count), rel=1e-12)
    assert m.value - m.low == pytest.approx(t * s / math.sqrt(count), rel=1e-12)


def test_the_mean_of_one_value_is_that_value_and_of_none_unknown() -> None:
    assert mean([2.0]) == Estimate(2.0, 2.0, 2.0, 1)
    empty = mean([])
    assert empty.n == 0
    assert all(math.isnan(x) for x in (empty.value, empty.low, empty.high))


def test_an_interval_holds_its_ends_and_says_itself() -> None:
    e = Estimate(0.5, 0.25, 0.75, 40)
    assert e.contains(0.25) and e.contains(0.75) and e.contains(0.5)
    assert not e.contains(0.2499) and not e.contains(0.7501)
    assert e.to_json() == {"value": 0.5, "low": 0.25, "high": 0.75, "n": 40}
    assert str(Estimate(0.123456, 0.1, 0.15, 9)) == "0.1235 [0.1, 0.15]"
