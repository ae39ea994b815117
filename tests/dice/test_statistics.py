"""Seeded rolls agree with the exact odds, operator by operator (chi-square goodness of fit).

Seeds are fixed, so each test is deterministic; a failure means rolls and odds disagree.
"""

from __future__ import annotations

from collections import Counter

import pytest
from scipy.stats import chisquare

from referee.dice import RandomSource, odds, roll

SAMPLES = 3000

# fmt: off
EXPRESSIONS = [
    "3d6+2", "4d6kh3", "4d6kl2", "5d6ph1", "4d6dl1", "d20", "d%", "2d6>=7", "(2d6)>=7",
    "8d6>=4", "6d6!>=4", "3d6!", "2d6r1", "2d6rr<3", "2d6ro1", "2d6ra6", "d10e10", "4d6mi3",
    "4d6ma4", "3d6k>3", "3d6p<3", "abs(d6-d6)", "max(d20, d20)", "min(d20, d20)",
    "(1d4, 2+2, 3d6kl1)kh1", "d6*d6", "(2d6)/3", "d6//2", "d6%4", "-d6+7",
]
# fmt: on


def _binned(
    expected: dict[object, float], observed: Counter[object]
) -> tuple[list[float], list[float]]:
    """Merge neighbouring outcomes until each bin expects at least 5 rolls."""
    exp_bins: list[float] = []
    obs_bins: list[float] = []
    e_acc = o_acc = 0.0
    for outcome, p in expected.items():
        e_acc += p * SAMPLES
        o_acc += observed.get(outcome, 0)
        if e_acc >= 5:
            exp_bins.append(e_acc)
            obs_bins.append(o_acc)
            e_acc = o_acc = 0.0
    if e_acc or o_acc:
        if exp_bins:
            exp_bins[-1] += e_acc
            obs_bins[-1] += o_acc
        else:
            exp_bins.append(e_acc)
            obs_bins.append(o_acc)
    scale = sum(obs_bins) / sum(exp_bins)
    return obs_bins, [e * scale for e in exp_bins]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_rolls_follow_the_exact_odds(expression: str) -> None:
    source = RandomSource(seed=20261122)
    observed = Counter(roll(expression, source).total for _ in range(SAMPLES))
    chances = odds(expression)
    assert set(observed) <= set(chances.distribution)
    expected = {o: float(p) for o, p in chances.distribution.items()}
    obs, exp = _binned(expected, observed)
    if len(obs) < 2:
        assert len(observed) == 1
        return
    _, p_value = chisquare(obs, exp)
    assert p_value > 1e-4, f"{expression}: p = {p_value}"
