"""What goes into a Burning Wheel test's dice (parent-games.md, "Burning Wheel"): the shades,
the artha spent on one test, the pool before the roll, and a pool as rolled.

A pool is the ability's exponent, plus FoRKs, helping dice, Persona and maneuver bonuses,
minus wound penalties; its shade says which faces succeed (Black 4–6, Grey 3–6, White 2–6).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core import BLACK, GREY, WHITE, RuleError

__all__ = [
    "CAP",
    "MAX_DEEDS",
    "MAX_FATE",
    "MAX_PERSONA",
    "NO_ARTHA",
    "WOUND_DICE",
    "WOUND_HEALTH_OB",
    "Artha",
    "BurningPool",
    "PoolRoll",
    "Shade",
    "fork_dice",
    "help_dice",
]

CAP = 60
"""Successes are counted up to this many for odds: ``P(cap)`` is the chance of ``cap`` or more."""

MAX_PERSONA = 3
"""Persona points per test (parent-games.md: "at most 1 Fate, 3 Persona, 2 Deeds")."""
MAX_FATE = 1
"""Fate points per test."""
MAX_DEEDS = 2
"""Deeds points per test: one before the roll, one after."""


class Shade(enum.IntEnum):
    """A shade: the least face that counts as a success (parent-games.md)."""

    BLACK = BLACK
    GREY = GREY
    WHITE = WHITE

    @classmethod
    def parse(cls, text: str) -> Shade:
        """``"B"``/``"black"``, ``"G"``/``"grey"``, ``"W"``/``"white"``.

        >>> Shade.parse("G")
        <Shade.GREY: 3>
        """
        key = text.strip().upper()
        for shade in cls:
            if key in (shade.name, shade.name[0]):
                return shade
        raise RuleError("Shades", f"{text!r} is not a shade (B, G or W)")

    @property
    def letter(self) -> str:
        """``B``, ``G`` or ``W``."""
        return self.name[0]


WOUND_DICE: Mapping[str, int] = {
    "superficial": 0,
    "light": 1,
    "midi": 2,
    "severe": 3,
    "traumatic": 4,
}
"""Dice each wound costs (parent-games.md); a Superficial wound costs +1 Ob instead."""

WOUND_HEALTH_OB: Mapping[str, int] = {
    "superficial": 1,
    "light": 2,
    "midi": 3,
    "severe": 4,
    "traumatic": 5,
}
"""The Health test obstacle to recover from each wound (parent-games.md)."""


def fork_dice(exponent: int) -> int:
    """Dice one FoRK adds: +1D, or +2D if the FoRKed skill's exponent is 7 or more.

    >>> fork_dice(6), fork_dice(7)
    (1, 2)
    """
    return 2 if exponent >= 7 else 1


def help_dice(exponent: int) -> int:
    """Dice one helper adds: +1D with exponent 4 or less, +2D with 5 or more.

    >>> help_dice(4), help_dice(5)
    (1, 2)
    """
    return 2 if exponent >= 5 else 1


@dataclass(frozen=True)
class Artha:
    """The artha spent on one test: Persona and Deeds before the roll, Fate and Deeds after.

    >>> Artha(persona=2, deeds_before=True).spent()
    {'fate': 0, 'persona': 2, 'deeds': 1}
    >>> Artha(persona=4)
    Traceback (most recent call last):
    ...
    referee.core.errors.RuleError: Artha: at most 3 Persona on one test, not 4
    """

    persona: int = 0
    deeds_before: bool = False
    fate: bool = False
    deeds_after: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.persona <= MAX_PERSONA:
            raise RuleError(
                "Artha", f"at most {MAX_PERSONA} Persona on one test, not {self.persona}"
            )

    def spent(self) -> dict[str, int]:
        """Points of each kind this spends."""
        return {
            "fate": int(self.fate),
            "persona": self.persona,
            "deeds": int(self.deeds_before) + int(self.deeds_after),
        }

    def label(self) -> str:
        """A short name for a person: ``"no artha"``, ``"2 Persona + Fate"``."""
        parts = []
        if self.persona:
            parts.append(f"{self.persona} Persona")
        if self.deeds_before:
            parts.append("Deeds (double)")
        if self.fate:
            parts.append("Fate")
        if self.deeds_after:
            parts.append("Deeds (reroll)")
        return " + ".join(parts) or "no artha"

    def to_json(self) -> dict[str, Any]:
        """``{"persona", "deeds_before", "fate", "deeds_after"}``."""
        return {
            "persona": self.persona,
            "deeds_before": self.deeds_before,
            "fate": self.fate,
            "deeds_after": self.deeds_after,
        }


NO_ARTHA = Artha()
"""No artha spent on a test."""


@dataclass(frozen=True)
class BurningPool:
    """What goes into a test's dice before the roll.

    ``exponent`` is the ability's; ``forks`` and ``helping`` are dice already counted (see
    :func:`fork_dice`, :func:`help_dice`); ``bonus`` other dice the rules add (Onslaught +3D,
    an Infiltrate's advantage); ``penalty`` dice taken away (wounds, Sapped dice).
    ``open_ended`` for abilities open-ended by nature.

    >>> BurningPool(exponent=5, forks=1, helping=2, penalty=2).dice
    6
    >>> BurningPool(exponent=5, forks=1).dice_with(Artha(persona=1, deeds_before=True))
    12
    """

    exponent: int
    shade: Shade = Shade.BLACK
    forks: int = 0
    helping: int = 0
    bonus: int = 0
    penalty: int = 0
    open_ended: bool = False

    @property
    def dice(self) -> int:
        """Dice rolled without artha (never fewer than 0)."""
        return self.dice_with(Artha())

    def dice_with(self, artha: Artha) -> int:
        """Dice rolled with ``artha``: Deeds doubles the exponent, Persona adds 1D each."""
        base = self.exponent * (2 if artha.deeds_before else 1)
        total = base + self.forks + self.helping + self.bonus + artha.persona - self.penalty
        return max(0, total)

    def to_json(self) -> dict[str, Any]:
        """Every field, the shade as its letter."""
        return {
            "exponent": self.exponent,
            "shade": self.shade.letter,
            "forks": self.forks,
            "helping": self.helping,
            "bonus": self.bonus,
            "penalty": self.penalty,
            "open_ended": self.open_ended,
        }


@dataclass(frozen=True)
class PoolRoll:
    """A rolled test: every face in the order the source gave it, stage by stage, and successes.

    ``stages`` maps ``"pool"``, ``"fate"``, ``"deeds"`` to the faces each rolled (explosions
    included); ``successes`` the total after all of them.
    """

    dice: int
    shade: int
    open_ended: bool
    successes: int
    stages: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    failed: int = 0
    sixes: int = 0

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, in order."""
        return tuple(f for stage in self.stages.values() for f in stage)

    def to_json(self) -> dict[str, Any]:
        """``{"dice", "shade", "open_ended", "successes", "stages"}``."""
        return {
            "dice": self.dice,
            "shade": Shade(self.shade).letter,
            "open_ended": self.open_ended,
            "successes": self.successes,
            "stages": {k: list(v) for k, v in self.stages.items()},
        }
