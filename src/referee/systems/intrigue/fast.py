"""The Intrigue duel vectorised with NumPy: a million duels a second from the same dice.

The duel is the one :mod:`referee.systems.intrigue.exact` solves (both sides Attack every round).
An Attack is "3d6 + Combat Stat > the Target's Combat Stat + 10" ("Combat Actions",
Attacking), so it hits exactly when the 3d6 total reaches a threshold; the threshold is read
back from the game's own chance of the Attack (every threshold 3–19 has a different chance, so
the chance names it). Each 3d6 is one draw of 216 equally likely outcomes mapped to its total —
three dice, not a coin with the right bias — so the dice rolled here are the dice the game
rolls.

Duels are played in blocks of rounds at once: each side's hits are summed along the rounds, the
round each side is Knocked Out is the first where its hits reach ``knock_out``, and the order of
that round (the starter first in round 1, then by Combat Stat, ties simultaneous) says who
fell. Duels still going after a block play another.

>>> from fractions import Fraction
>>> from referee.systems.intrigue.exact import Duel, Duelist
>>> a = Duelist("ann", Fraction(5, 8), damage=3, knock_out=3, dies=False, rank=2)
>>> b = Duelist("bob", Fraction(3, 8), damage=2, knock_out=3, dies=False, rank=1)
>>> result = fast_duels(Duel(a, b), 10_000, seed=1)
>>> result.runs, sum(result.wins.values()) + result.both_out + result.unfinished
(10000, 10000)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import numpy as np

from referee.core.stats import Estimate, mean, proportion
from referee.systems.intrigue.exact import Duel

__all__ = ["FastDuels", "fast_duels", "raw_dice_rate", "threshold_3d6"]

_TOTALS = np.array([sum(f) for f in product(range(1, 7), repeat=3)], dtype=np.int8)
"""The 3d6 total of each of the 216 equally likely rolls."""


@cache
def threshold_3d6(chance: Fraction) -> int:
    """The 3d6 total an Attack must reach to hit, given its chance (19: it never hits).

    >>> threshold_3d6(Fraction(1, 2)), threshold_3d6(Fraction(1)), threshold_3d6(Fraction(0))
    (11, 3, 19)
    """
    for t in range(3, 20):
        reaching = sum(1 for total in _TOTALS.tolist() if total >= t)
        if Fraction(reaching, 216) == chance:
            return t
    raise ValueError(f"no 3d6 threshold has the chance {chance}: not a 3d6 Attack")


@dataclass(frozen=True)
class FastDuels:
    """The vectorised duels' counts: ``wins`` per side, ``both_out``, ``unfinished`` (past
    ``max_rounds``), ``deaths`` per side, the mean ``rounds`` and ``damage`` each side took,
    and how many attacks (3d6 each) were rolled."""

    runs: int
    wins: dict[str, int]
    both_out: int
    unfinished: int
    deaths: dict[str, int]
    rounds: Estimate
    damage: dict[str, Estimate]
    attacks: int

    def win_rate(self, who: str) -> Estimate:
        """``who``'s share of the wins, with its Wilson interval."""
        return proportion(self.wins[who], self.runs)

    def to_json(self) -> dict[str, Any]:
        """The counts and estimates as JSON."""
        return {
            "exact": False,
            "runs": self.runs,
            "wins": dict(self.wins),
            "win_rates": {k: self.win_rate(k).to_json() for k in self.wins},
            "both_out": self.both_out,
            "unfinished": self.unfinished,
            "deaths": dict(self.deaths),
            "rounds": self.rounds.to_json(),
            "damage": {k: v.to_json() for k, v in self.damage.items()},
        }


def _first_at_least(cum: np.ndarray[Any, Any], limit: int, rounds: int) -> np.ndarray[Any, Any]:
    reached = cum >= limit
    return np.where(reached.any(axis=1), reached.argmax(axis=1), rounds)


def fast_duels(
    duel: Duel, runs: int, *, seed: int | None = 0, block: int = 8, max_rounds: int = 10_000
) -> FastDuels:
    """Play ``runs`` duels at once (see the module's doc); ``seed`` for reproducibility."""
    rng = np.random.default_rng(seed)
    a, b = duel.a, duel.b
    thr_a, thr_b = threshold_3d6(a.hit), threshold_3d6(b.hit)
    later = {"a": 0, "b": 1, "both": 2}[duel.later_order]
    hits_a = np.zeros(runs, np.int32)  # hits taken by a
    hits_b = np.zeros(runs, np.int32)
    winner = np.full(runs, 4, np.int8)  # 0 a, 1 b, 2 both out, 4 going on
    rounds = np.zeros(runs, np.int32)
    live = np.arange(runs)
    done_rounds = 0
    attacks = 0
    while live.size and done_rounds < max_rounds:
        n = live.size
        rolls = rng.integers(0, 216, size=(2, n, block), dtype=np.uint8)
        a_hits = _TOTALS[rolls[0]] >= thr_a  # a's attack hits b
        b_hits = _TOTALS[rolls[1]] >= thr_b
        cum_b = np.cumsum(a_hits, axis=1, dtype=np.int32) + hits_b[live, None]
        cum_a = np.cumsum(b_hits, axis=1, dtype=np.int32) + hits_a[live, None]
        out_b = _first_at_least(cum_b, b.knock_out, block)
        out_a = _first_at_least(cum_a, a.knock_out, block)
        end = np.minimum(out_a, out_b)
        over = end < block
        # the order of each duel's last round: 0 a first, 1 b first, 2 together
        order = np.where(done_rounds + end == 0, 0, later)
        tie = out_a == out_b
        who = np.where(out_b < out_a, 0, 1)
        who = np.where(tie, np.where(order == 2, 2, order), who)
        # hits taken at the end: a side's attack in the last round lapses if it fell first
        e = np.minimum(end, block - 1)
        rows = np.arange(n)
        before_a = np.where(e > 0, cum_a[rows, e - 1], hits_a[live])
        before_b = np.where(e > 0, cum_b[rows, e - 1], hits_b[live])
        # b fell to a, who struck first (in a duel over in this block: else nobody fell)
        b_lapsed = over & (who == 0) & (order == 0)
        a_lapsed = over & (who == 1) & (order == 1)
        end_a = np.where(b_lapsed, before_a, cum_a[rows, e])
        end_b = np.where(a_lapsed, before_b, cum_b[rows, e])
        attacks += int(2 * np.where(over, end + 1, block).sum() - b_lapsed.sum() - a_lapsed.sum())
        finished = live[over]
        winner[finished] = who[over]
        rounds[finished] = done_rounds + end[over] + 1
        hits_a[finished] = end_a[over]
        hits_b[finished] = end_b[over]
        going = live[~over]
        hits_a[going] = cum_a[~over, -1]
        hits_b[going] = cum_b[~over, -1]
        live = going
        done_rounds += block
    counts = np.bincount(winner, minlength=5)
    finished_mask = winner != 4
    return FastDuels(
        runs,
        {a.id: int(counts[0]), b.id: int(counts[1])},
        int(counts[2]),
        int(counts[4]),
        {
            a.id: int(counts[1] + counts[2]) if a.dies else 0,
            b.id: int(counts[0] + counts[2]) if b.dies else 0,
        },
        _mean_of(rounds[finished_mask]),
        {a.id: _mean_of(hits_a * a.damage), b.id: _mean_of(hits_b * b.damage)},
        attacks,
    )


def _mean_of(values: np.ndarray[Any, Any]) -> Estimate:
    n = int(values.size)
    if n < 2:
        return mean([float(v) for v in values])
    m = float(values.mean())
    half = 1.959963984540054 * float(values.std(ddof=1)) / n**0.5
    return Estimate(m, m - half, m + half, n)


def raw_dice_rate(seconds: float = 0.5, size: int = 1 << 22) -> float:
    """NumPy's raw rate of d6 rolls per second on this machine (the physical limit)."""
    import time

    rng = np.random.default_rng(0)
    rolled = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        rng.integers(1, 7, size=size, dtype=np.uint8)
        rolled += size
    return rolled / (time.perf_counter() - begin)
