"""Roll cards for Burning Wheel pools (DESIGN.md, "The table contract": one roll card).

A test against a known obstacle (a building scene, a Health test, a Resources maintenance test)
is the kernel's :class:`~referee.core.ObstacleCheck`, and its card is
:meth:`RollCard.of <referee.core.RollCard.of>`. A maneuver test is rolled before its obstacle is
known (every test at once, then each engagement reads the matrix), so its card counts
successes: its odds are the chance of each number of successes, its outcome the number rolled
(the top bucket of an open-ended pool is "that many or more").

>>> from referee.dice import ScriptedSource
>>> from referee.systems.kingdoms.dice import roll_before, Shade
>>> rolled = roll_before(2, Shade.BLACK, False, ScriptedSource([4, 1]))
>>> card = pool_card(rolled, "elves' Fortify", "Maneuver Resolution")
>>> card.dice, card.outcome, card.odds, card.faces
('2d6', '1', {'0': '1/4', '1': '1/2', '2': '1/4'}, (4, 1))
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction

from referee.core import OddsPreview, RollCard
from referee.systems.kingdoms.dice import (
    Artha,
    BurningPool,
    PoolRoll,
    Shade,
    after_distribution,
    success_distribution,
)

__all__ = ["after_card", "count_odds", "pool_card", "pool_dice", "successes_preview", "trimmed"]

OPEN_HEADROOM = 3
"""An open-ended pool's odds list counts up to dice + 3, the last bucket "or more"."""


@functools.cache
def _counts(dice: int, shade: int, open_ended: bool) -> tuple[tuple[str, str], ...]:
    if dice <= 0:
        return (("0", "1"),)
    top = dice + OPEN_HEADROOM if open_ended else dice
    dist = success_distribution(dice, shade, open_ended, cap=top)
    return tuple(
        ((f"{k}+" if open_ended and k == top else str(k)), str(p)) for k, p in dist.items()
    )


def count_odds(dice: int, shade: int, open_ended: bool) -> dict[str, str]:
    """The chance of each number of successes on ``dice`` d6 (memoised: pools repeat)."""
    return dict(_counts(dice, shade, open_ended))


def pool_dice(dice: int, shade: int, open_ended: bool) -> str:
    """The pool as a person writes it: ``5d6``, ``4d6 grey open-ended``."""
    name = {4: "", 3: " grey", 2: " white"}.get(shade, f" shade {shade}")
    return f"{dice}d6{name}{' open-ended' if open_ended else ''}"


def _bucket(successes: int, odds: Mapping[str, str] | None) -> str:
    if odds is not None and str(successes) not in odds:
        tops = [k for k in odds if k.endswith("+")]
        if tops and successes >= int(tops[0][:-1]):
            return tops[0]
    return str(successes)


def pool_card(
    rolled: PoolRoll, label: str, rule: str, *, odds: Mapping[str, str] | None = None
) -> RollCard:
    """The card of a pool rolled for its successes: every face, the count and its odds."""
    shown = count_odds(rolled.dice, rolled.shade, rolled.open_ended) if odds is None else odds
    return RollCard(
        label=label,
        rule=rule,
        dice=pool_dice(rolled.dice, rolled.shade, rolled.open_ended),
        odds=dict(shown),
        faces=rolled.faces,
        outcome=_bucket(rolled.successes, shown),
        margin=None,
        value=rolled.successes,
        shown=", ".join(f"{stage} {list(faces)}" for stage, faces in rolled.stages.items()),
    )


SHOWN = Fraction(1, 1000)
"""The highest counts of a chart, less likely than this together, are one row ("N+"): a chart
shows the outcomes that matter (0.1%), not sixty rows of an open-ended pool's long tail."""


def trimmed(dist: Mapping[int, Fraction]) -> dict[str, str]:
    """The chance of each count of ``dist``, its highest counts less likely than
    :data:`SHOWN` together merged into one "N+" row.

    >>> trimmed({2: Fraction(1, 2), 3: Fraction(4, 9), 4: Fraction(1, 18) - Fraction(1, 2000),
    ...          5: Fraction(1, 2000)})
    {'2': '1/2', '3': '4/9', '4+': '1/18'}
    """
    rows = sorted(dist.items())
    top, tail = len(rows), Fraction(0)
    while top > 1 and tail + rows[top - 1][1] < SHOWN:
        tail += rows[top - 1][1]
        top -= 1
    out = {str(k): str(p) for k, p in rows[: top - 1]}
    last, chance = rows[top - 1]
    out[f"{last}+" if top < len(rows) else str(last)] = str(chance + tail)
    return out


def after_card(before: PoolRoll, after: PoolRoll, artha: Artha, label: str) -> RollCard:
    """The card of Fate and/or Deeds spent after the roll: the odds of the final count given
    the faces already showing (:func:`after_distribution`, the steps :func:`spend_after`
    rolls), its unlikely tail one row (:func:`trimmed`)."""
    odds = trimmed(after_distribution(before, artha))
    return RollCard(
        label=label,
        rule="Independent and Versus Maneuvers",
        dice=f"{pool_dice(before.dice, before.shade, before.open_ended)} + {artha.label()}",
        odds=odds,
        faces=after.faces,
        outcome=_bucket(after.successes, odds),
        margin=None,
        value=after.successes,
        shown=", ".join(f"{stage} {list(faces)}" for stage, faces in after.stages.items()),
    )


def shade_letter(shade: int) -> str:
    """``B``, ``G`` or ``W``."""
    return Shade(shade).letter


def successes_preview(pool: BurningPool, label: str, rule: str) -> OddsPreview:
    """The chance of each number of successes ``pool`` rolls (open-ended: the top bucket is
    that many or more): a test whose obstacle is not known yet (a versus test's opponent)."""
    top = pool.dice + 3 if pool.open_ended else pool.dice
    chances = success_distribution(pool.dice, pool.shade, pool.open_ended, cap=max(top, 0))
    plus = "+" if pool.open_ended else ""
    return OddsPreview(
        label,
        rule,
        f"{pool.dice}d6 {pool.shade.letter}{' open-ended' if pool.open_ended else ''}",
        {
            f"{k}{plus if k == top else ''} success{'' if k == 1 else 'es'}": str(p)
            for k, p in chances.items()
        },
    )
