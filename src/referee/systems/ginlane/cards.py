"""Gin Lane's rolls as the kernel's roll cards and odds previews (DESIGN.md, "One roll card").

A check against a difficulty or an opposed roll becomes a :class:`~referee.core.RollCard`:
its label, the rule's name, the dice as written (``2d6+3 > 8``; ``3d6kh2+3 vs 2d6+2``), the
exact odds of a success, a Match and a failure, every face, the outcome (``match`` for a tie)
and the margin. A roll with nothing to beat (initiative, a Block's strength, the grenade's
attack) is a card whose outcome says what it did.

>>> from referee.dice import ScriptedSource
>>> from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll
>>> check = DifficultyCheck(GinLaneRoll(skill=1), difficulty=7)
>>> card = check_card(check, check.roll(ScriptedSource([3, 3])), "Moll takes cover",
...                   rule="Action: Manoeuvre")
>>> card["dice"], card["outcome"], card["margin"], card["odds"]["match"]
('2d6+1 > 7', 'match', 0, '5/36')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import CheckOdds, OddsPreview, Outcome, RollCard
from referee.core.remembered import by_identity
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    GinLaneRoll,
    OpposedRoll,
    Resolution,
    RollResult,
)

__all__ = ["check_card", "check_dice", "check_preview", "odds_json", "roll_card"]


def odds_json(odds: CheckOdds) -> dict[str, str]:
    """A success, a Match and a failure, each as an exact ``"n/d"`` (a fresh mapping each
    time; its texts are written once for each odds, :func:`_odds_texts`)."""
    success, match, failure = _odds_texts(odds)
    return {"success": success, "match": match, "failure": failure}


@by_identity(256)
def _odds_texts(odds: CheckOdds) -> tuple[str, str, str]:
    """The texts of :func:`odds_json`, by the odds' identity: a check's odds are worked out
    once and kept (``rolls._memoised``), and every attack of a simulated duel wrote the same
    few again, summing the fractions of each outcome each time."""
    return str(odds.success), str(odds.outcomes.get(Outcome.TIE, 0)), str(odds.failure)


def _side(spec: GinLaneRoll) -> str:
    return f"{spec.dice}{spec.bonus:+d}"


def check_dice(check: DifficultyCheck | OpposedRoll) -> str:
    """The check as a person writes it.

    >>> check_dice(OpposedRoll(GinLaneRoll(3, tags=1), GinLaneRoll(2), floor=9))
    '3d6kh2+3 vs 2d6+2 (and a Block of 9)'
    """
    if isinstance(check, DifficultyCheck):
        return f"{_side(check.roll_spec)} > {check.difficulty}"
    floor = "" if check.floor is None else f" (and a Block of {check.floor})"
    return f"{_side(check.actor)} vs {_side(check.opponent)}{floor}"


def _outcome(result: Resolution) -> str:
    return "match" if result.outcome is Outcome.TIE else result.outcome.value


def check_card(
    check: DifficultyCheck | OpposedRoll,
    result: Resolution,
    label: str,
    *,
    rule: str,
    odds: CheckOdds | None = None,
) -> dict[str, Any]:
    """The roll card's JSON of a rolled check (``odds``: worked out already, else now)."""
    shown = result.actor.shown
    if result.opponent is not None:
        shown = f"{shown}; {result.opponent.shown}"
    faces = result.actor.faces + (result.opponent.faces if result.opponent else ())
    return RollCard(
        label=label,
        rule=rule,
        dice=check_dice(check),
        odds=odds_json(odds if odds is not None else check.odds()),
        faces=tuple(faces),
        outcome=_outcome(result),
        margin=result.margin,
        value=result.total,
        opponent=None if result.opponent is None else result.opponent.total,
        shown=shown,
    ).to_json()


def roll_card(
    spec: GinLaneRoll,
    rolled: RollResult,
    label: str,
    *,
    rule: str,
    outcome: str = "rolled",
    odds: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The card of a roll with nothing to beat: its total is what counts (no ``margin``)."""
    return RollCard(
        label=label,
        rule=rule,
        dice=_side(spec),
        odds=None if odds is None else {k: str(v) for k, v in odds.items()},
        faces=tuple(rolled.faces),
        outcome=outcome,
        margin=None,
        value=rolled.total,
        shown=rolled.shown,
    ).to_json()


def check_preview(check: DifficultyCheck | OpposedRoll, label: str, *, rule: str) -> OddsPreview:
    """The odds of a check about to be rolled, for a menu."""
    return OddsPreview(label, rule, check_dice(check), odds_json(check.odds()))
