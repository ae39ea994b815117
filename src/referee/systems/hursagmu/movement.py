"""Range, movement, encumbrance, jumps, charges, races and damage (hursagmu-encounters.txt).

Sections "Range" and "Movement", with RULINGS.md's readings of range challenges, encumbrance
and the damage roll.

>>> range_challenge(25, "missile weapon")
2
>>> movement_rate(max_lift=200, load=100)
Fraction(5, 1)
>>> movement_actions("foot", yards=16)
2
"""

from __future__ import annotations

import enum
import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from referee.core import CheckResult, OpposedCheck, RuleError, TieRule, Total
from referee.dice import DiceSource, Roll, roll
from referee.systems.hursagmu.tables import RANGE_INCREMENTS

__all__ = [
    "FOOT_YARDS",
    "MAX_MOVEMENT_ACTIONS",
    "MOMENTUM_YARDS",
    "MOVEMENT_INITIATIVE_STEP",
    "DamageRoll",
    "Movement",
    "charge_momentum",
    "damage_base",
    "jump_distance",
    "movement_actions",
    "movement_rate",
    "race_check",
    "race_gain",
    "range_challenge",
    "range_increment",
]

FOOT_YARDS = 10
"""Yards per movement action on foot, unencumbered ("Moving ten yards on foot")."""
MAX_MOVEMENT_ACTIONS = 4
""""A character may perform up to four of these during a single round." """
MOVEMENT_INITIATIVE_STEP = 2
""""a cumulative -2 to Initiative for each movement action taken before other actions." """
MOMENTUM_YARDS = 10
""""+1 damage for every ten yards of movement" (the optional charge rule)."""
UNENCUMBERED = Fraction(1, 10)
""""relatively unencumbered (carrying less than 10% of his maximum weight)" """


def range_increment(ability: str) -> int:
    """The range increment in yards of an attack type, sorcery type or sense ("Range").

    >>> range_increment("thrown weapon"), range_increment("seheru"), range_increment("smell")
    (2, 10, 1)
    """
    for name, yards in RANGE_INCREMENTS.items():
        if name.lower() == ability.lower():
            return yards
    known = ", ".join(RANGE_INCREMENTS)
    raise RuleError("Range", f"no range increment for {ability!r} (known: {known})")


def range_challenge(yards: int | Fraction, ability: str | int) -> int:
    """The range challenge: 0 within one increment, +1 for each further increment or part of one.

    "bows have a range increment of 10. If a target is within ten yards, the challenge number
    is zero. If a target is between ten and twenty yards, the challenge number is 1" ("Range";
    RULINGS.md). ``ability`` is a name from the tables or an increment in yards.

    >>> [range_challenge(d, 10) for d in (0, 10, 11, 20, 21, 30)]
    [0, 0, 1, 1, 2, 2]
    """
    increment = ability if isinstance(ability, int) else range_increment(ability)
    if yards < 0:
        raise RuleError("Range", f"a distance cannot be negative ({yards} yards)")
    return max(0, math.ceil(Fraction(yards) / increment) - 1)


class Movement(enum.Enum):
    """The movement actions of "Movement" (and falling prone, a free action)."""

    STAND = "stand"
    """Standing from a prone position."""
    FOOT = "foot"
    """Moving ten yards on foot (each ten yards or fraction thereof is one action)."""
    MOUNT = "mount"
    """Mounting a horse."""
    DISMOUNT = "dismount"
    """Dismounting a horse."""
    RIDE = "ride"
    """Riding a horse twenty to forty yards, depending on the quality of the horse."""
    LEAP = "leap"
    """Making a leap."""
    PRONE = "prone"
    """"Falling to a prone position on the ground is a free action and gives no penalties." """


@functools.lru_cache(maxsize=256)
def movement_rate(max_lift: int, load: int) -> Fraction:
    """Yards per movement action on foot under a load (Encumbrance; RULINGS.md); remembered
    for the few sheets of a table (every plan and every choice of a step reads it).

    10 yards below 10% of maximum lift, otherwise 10 × (1 − load fraction): "If a character
    were carrying 50% of his maximum lift ... he would move 5 yards per movement action".

    >>> movement_rate(100, 9), movement_rate(100, 10), movement_rate(100, 75)
    (Fraction(10, 1), Fraction(9, 1), Fraction(5, 2))
    """
    if max_lift <= 0:
        raise RuleError("Encumbrance", f"maximum lift must be positive, not {max_lift}")
    if load < 0:
        raise RuleError("Encumbrance", f"a load cannot be negative ({load})")
    fraction = Fraction(load, max_lift)
    if fraction < UNENCUMBERED:
        return Fraction(FOOT_YARDS)
    return max(Fraction(0), FOOT_YARDS * (1 - fraction))


def movement_actions(
    movement: Movement | str, yards: int = 0, *, rate: Fraction | int = FOOT_YARDS, mount: int = 0
) -> int:
    """How many movement actions a movement takes ("Movement").

    On foot, one "for every ten yards or fraction thereof" (at ``rate`` yards when encumbered);
    riding, one per ``mount`` yards (the horse's 20 to 40); falling prone none; the rest one.

    >>> movement_actions("foot", 16), movement_actions("foot", 10), movement_actions("prone")
    (2, 1, 0)
    >>> movement_actions("foot", 10, rate=5), movement_actions("ride", 40, mount=40)
    (2, 1)
    """
    kind = Movement(movement) if isinstance(movement, str) else movement
    if kind is Movement.PRONE:
        return 0
    if kind is Movement.FOOT:
        if yards <= 0:
            raise RuleError("Movement", f"moving on foot needs a distance, not {yards} yards")
        if rate <= 0:
            raise RuleError("Encumbrance", "the character is too encumbered to move")
        return math.ceil(Fraction(yards) / Fraction(rate))
    if kind is Movement.RIDE:
        if mount <= 0:
            raise RuleError("Movement", "riding needs a mount (its yards per riding action)")
        if not 20 <= mount <= 40:
            raise RuleError("Movement", f"a horse rides 20 to 40 yards an action, not {mount}")
        if yards <= 0:
            raise RuleError("Movement", f"riding needs a distance, not {yards} yards")
        return math.ceil(Fraction(yards, mount))
    return 1


@functools.lru_cache(maxsize=256)
def jump_distance(max_lift: int, load: int = 0, *, running: bool = False) -> Fraction:
    """A long jump in yards: maximum lift / 50, doubled with a running start, lowered by load.

    "Encumbrance lowers it at the same rate that it lowers running speed" ("Movement").

    >>> jump_distance(200), jump_distance(200, running=True), jump_distance(200, 100)
    (Fraction(4, 1), Fraction(8, 1), Fraction(2, 1))
    """
    standing = Fraction(max_lift, 50) * (2 if running else 1)
    return standing * movement_rate(max_lift, load) / FOOT_YARDS


def charge_momentum(yards: int) -> int:
    """The optional charge rule's momentum: +1 damage for every (full) ten yards of movement.

    >>> charge_momentum(40), charge_momentum(19)
    (4, 1)
    """
    return max(0, yards) // MOMENTUM_YARDS


def race_check(quickness_a: int, quickness_b: int) -> OpposedCheck:
    """One round of a race: both roll Quickness (2d6 + Dex + Quickness) ("Movement").

    ``quickness_*`` are the full bonuses. The margin is the yards the first gains (negative:
    the yards the second gains); a tie gains nobody anything.
    """
    return OpposedCheck(Total("2d6", quickness_a), Total("2d6", quickness_b), TieRule.TIE)


def race_gain(result: CheckResult) -> int:
    """ "For every point by which one character's roll beats another's, that character gains one
    yard of distance": the first runner's gain in yards (negative if the second gains).

    >>> from referee.dice import ScriptedSource
    >>> race_gain(race_check(5, 4).roll(ScriptedSource([6, 3, 2, 2])))
    6
    """
    return result.margin


def damage_base(weapon: int, strength: int) -> int:
    """Weapon damage + Strength: "His lance does 14 damage (10 for the lance + 4 for Strength)".

    >>> damage_base(10, 4), damage_base(10, 1)
    (14, 11)
    """
    return weapon + strength


@dataclass(frozen=True)
class DamageRoll:
    """Damage: weapon + Strength + a damage roll (``2d6`` by default, option ``1d6``) + momentum.

    RULINGS.md: "Damage is weapon + Strength + a damage roll; the damage roll is option 2d6
    (default) or 1d6". ``momentum`` is the charge bonus (optional rule, "Movement").

    >>> from referee.dice import ScriptedSource
    >>> DamageRoll(14, momentum=4).roll(ScriptedSource([2, 4]))[0]
    24
    """

    base: int
    momentum: int = 0
    dice: str = "2d6"

    def __post_init__(self) -> None:
        if self.dice not in ("2d6", "1d6"):
            raise RuleError("Damage", f"the damage roll is 2d6 or 1d6, not {self.dice!r}")

    def roll(self, source: DiceSource) -> tuple[int, Roll]:
        """The damage and the roll behind it."""
        rolled = roll(self.dice, source)
        return self.base + int(rolled.total) + self.momentum, rolled

    def distribution(self) -> dict[int, Fraction]:
        """The exact distribution of the damage."""
        return Total(self.dice, self.base + self.momentum).distribution()
