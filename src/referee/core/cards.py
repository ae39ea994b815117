"""The roll card: every rolled check, in one shape for all five games (DESIGN.md, "The table
contract").

A :class:`RollCard` is what an event records of a check: a label ("ScarFace perceives
Krockin"), the rule's name, the dice as written, the exact odds of each outcome, every face, the
outcome and the margin (``None`` for a roll that has nothing to beat: a damage roll, an
initiative total, a table lookup). Put its JSON in an event's data under ``"roll"`` (or a list under
``"rolls"``); where the odds would tell a viewer something secret (a GM's secret skill), put the
card in a :class:`~referee.core.events.Secret` part, or build it with ``show_odds=False``.

An :class:`OddsPreview` is the same card before the roll: the odds alone, for a menu.

>>> from referee.core.checks import TargetCheck
>>> from referee.dice import ScriptedSource
>>> check = TargetCheck("3d6", 15, modifier=4)
>>> card = RollCard.of(check, check.roll(ScriptedSource([2, 5, 6])), "ScarFace perceives",
...                    rule="Perception Skill")
>>> card.dice, card.outcome, card.margin, card.faces
('3d6+4 ≥ 15', 'success', 2, (2, 5, 6))
>>> card.odds["success"]
'1/2'
>>> RollCard.from_json(card.to_json()) == card
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core.checks import (
    CheckOdds,
    CheckResult,
    ObstacleCheck,
    OpposedCheck,
    PercentileCheck,
    Pool,
    TargetCheck,
    Total,
)

__all__ = ["OddsPreview", "RollCard", "dice_of", "event_cards", "odds_of"]


def _side(side: Total | Pool) -> str:
    if isinstance(side, Total):
        return side.expression
    shade = {4: "", 3: " grey", 2: " white"}.get(side.shade, f" shade {side.shade}")
    return f"{side.dice}d6{shade}{' open-ended' if side.open_ended else ''}"


def dice_of(check: Any) -> str:
    """The check's dice and what it is rolled against, as a person writes it (remembered per
    check: checks are frozen values).

    >>> dice_of(ObstacleCheck(4, 2)), dice_of(PercentileCheck(45, modifier=10))
    ('4d6 vs Ob 2', 'd100 ≤ 55')
    """
    try:
        return _remembered_dice_of(check)
    except TypeError:  # a check that cannot be hashed: written out each time
        return _dice_of(check)


def _odds_text(check: Any) -> dict[str, str]:
    """:func:`odds_of` the check's odds, remembered per check (a fresh dict each call)."""
    try:
        return dict(_remembered_odds_text(check))
    except TypeError:
        return odds_of(check.odds())


def _dice_of(check: Any) -> str:
    if isinstance(check, TargetCheck):
        sign = "≥" if check.comparison == ">=" else ">"
        return f"{check.side.expression} {sign} {check.target}"
    if isinstance(check, ObstacleCheck):
        return f"{_side(check.pool)} vs Ob {check.obstacle}"
    if isinstance(check, PercentileCheck):
        return f"d100 ≤ {check.total_chance}"
    if isinstance(check, OpposedCheck):
        return f"{_side(check.actor)} vs {_side(check.opponent)}"
    return type(check).__name__


def odds_of(odds: CheckOdds) -> dict[str, str]:
    """Each outcome's exact probability as ``"n/d"``, by outcome name."""
    return {outcome.value: str(p) for outcome, p in odds.outcomes.items()}


_remembered_dice_of = functools.lru_cache(maxsize=1024)(_dice_of)


@functools.lru_cache(maxsize=1024)
def _remembered_odds_text(check: Any) -> dict[str, str]:
    return odds_of(check.odds())


@dataclass(frozen=True)
class OddsPreview:
    """The exact odds of a check about to be rolled: label, rule, dice, odds by outcome."""

    label: str
    rule: str
    dice: str
    odds: Mapping[str, str]

    @classmethod
    def of(cls, check: Any, label: str, *, rule: str = "") -> OddsPreview:
        """The preview of ``check`` (its odds are memoised: checks are values)."""
        return cls(label, rule, dice_of(check), _odds_text(check))

    def to_json(self) -> dict[str, Any]:
        """``{"label", "rule", "dice", "odds"}``."""
        return {"label": self.label, "rule": self.rule, "dice": self.dice, "odds": dict(self.odds)}


@dataclass(frozen=True)
class RollCard:
    """A rolled check as every game records it: see the module's doc.

    ``odds`` is ``None`` when the card was built without them (``show_odds=False``).
    ``margin`` is by how much the check was made or missed (total against target, successes
    against obstacle, one side against the other), and ``None`` (JSON ``null``) for a roll with
    nothing to beat: an initiative total, a damage roll, a table lookup. ``shown`` is the roll
    die by die (dropped dice struck through), ``value`` the total or the successes,
    ``opponent`` the other side's value in an opposed check.
    """

    label: str
    rule: str
    dice: str
    odds: Mapping[str, str] | None
    faces: tuple[int, ...]
    outcome: str
    margin: int | None
    value: int
    opponent: int | None = None
    shown: str = field(default="", compare=True)

    @classmethod
    def of(
        cls,
        check: Any,
        result: CheckResult,
        label: str,
        *,
        rule: str = "",
        show_odds: bool = True,
        has_margin: bool = True,
    ) -> RollCard:
        """The card of ``check`` rolled as ``result``; ``has_margin=False`` for a check that
        only counts its total (an initiative roll written as a check against 0): no margin.

        >>> from referee.dice import ScriptedSource
        >>> check = TargetCheck("2d6", 0)
        >>> RollCard.of(check, check.roll(ScriptedSource([3, 4])), "Bob's Initiative",
        ...             has_margin=False).margin is None
        True
        """
        return cls(
            label=label,
            rule=rule,
            dice=dice_of(check),
            odds=_odds_text(check) if show_odds else None,
            faces=tuple(result.faces),
            outcome=result.outcome.value,
            margin=result.margin if has_margin else None,
            value=result.value,
            opponent=result.opponent_value,
            shown="; ".join(r.describe() for r in result.rolls),
        )

    def to_json(self) -> dict[str, Any]:
        """``{"card": "roll", "label", "rule", "dice", "odds", "faces", "outcome", "margin",
        "value", "opponent", "shown"}``."""
        return {
            "card": "roll",
            "label": self.label,
            "rule": self.rule,
            "dice": self.dice,
            "odds": None if self.odds is None else dict(self.odds),
            "faces": list(self.faces),
            "outcome": self.outcome,
            "margin": self.margin,
            "value": self.value,
            "opponent": self.opponent,
            "shown": self.shown,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RollCard:
        """Inverse of :meth:`to_json`."""
        odds = data.get("odds")
        return cls(
            label=str(data["label"]),
            rule=str(data.get("rule", "")),
            dice=str(data["dice"]),
            odds=None if odds is None else {str(k): str(v) for k, v in odds.items()},
            faces=tuple(int(f) for f in data.get("faces", ())),
            outcome=str(data["outcome"]),
            margin=None if data.get("margin") is None else int(data["margin"]),
            value=int(data["value"]),
            opponent=None if data.get("opponent") is None else int(data["opponent"]),
            shown=str(data.get("shown", "")),
        )

    def describe(self) -> str:
        """One line for a person: label, dice, the roll, the outcome and the margin (if any).

        >>> RollCard("Krockin strikes", "", "3d6+2 ≥ 12", None, (3, 4, 5), "success", 2, 14,
        ...          shown="3d6 (3, 4, 5) + 2 = 14").describe()
        'Krockin strikes: 3d6+2 ≥ 12: 3d6 (3, 4, 5) + 2 = 14 → success (margin +2)'
        >>> RollCard("Krockin's damage", "", "1d6", None, (4,), "rolled", None, 4).describe()
        "Krockin's damage: 1d6: 4 → rolled"
        """
        shown = self.shown or ", ".join(map(str, self.faces)) or "no dice"
        margin = "" if self.margin is None else f" (margin {self.margin:+d})"
        return f"{self.label}: {self.dice}: {shown} → {self.outcome}{margin}"


def event_cards(data: Mapping[str, Any]) -> list[RollCard]:
    """The roll cards in an event's data (``"roll"``, and each of ``"rolls"``)."""
    cards: list[RollCard] = []
    single = data.get("roll")
    if isinstance(single, Mapping) and single.get("card") == "roll":
        cards.append(RollCard.from_json(single))
    many = data.get("rolls")
    if isinstance(many, list | tuple):
        cards.extend(
            RollCard.from_json(c)
            for c in many
            if isinstance(c, Mapping) and c.get("card") == "roll"
        )
    return cards
