"""Estimates with their 95% intervals: Wilson's for a proportion, Student's t for a mean.

A simulation's answer is an estimate; each one here carries the interval a reader should quote
with it. Plain floats: these are shown to a person (STYLE.md: fractions in the core, floats for
display).

>>> p = proportion(30, 100)
>>> round(p.value, 2), round(p.low, 3), round(p.high, 3)
(0.3, 0.219, 0.396)
>>> m = mean([1, 2, 3, 4])
>>> m.value, round(m.low, 2), round(m.high, 2)
(2.5, 0.45, 4.55)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Z95", "Estimate", "mean", "proportion"]

Z95 = 1.959963984540054
"""The standard normal's 97.5th percentile: a two-sided 95% interval."""

# Student's t, 97.5th percentile, for 1–30 degrees of freedom (beyond, the normal's).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval ``[low, high]`` over ``n`` observations."""

    value: float
    low: float
    high: float
    n: int

    def contains(self, x: float) -> bool:
        """True if ``x`` lies in the interval.

        >>> proportion(5, 10).contains(0.5)
        True
        """
        return self.low <= x <= self.high

    def to_json(self) -> dict[str, float | int]:
        """``{"value", "low", "high", "n"}``."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    def __str__(self) -> str:
        return f"{self.value:.4g} [{self.low:.4g}, {self.high:.4g}]"


def proportion(hits: int, n: int) -> Estimate:
    """The proportion ``hits / n`` with Wilson's 95% score interval (sound near 0 and 1).

    >>> proportion(0, 50).low, round(proportion(0, 50).high, 4)
    (0.0, 0.0713)
    """
    if n <= 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def mean(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with a 95% interval (Student's t; the normal's past 30 values).

    >>> mean([2.0]).value, mean([2.0]).low
    (2.0, 2.0)
    """
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = math.fsum(values) / n
    if n == 1:
        return Estimate(m, m, m, 1)
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    t = _T975[n - 2] if n - 1 <= len(_T975) else Z95
    half = t * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)
