"""The numbers of the rules: skill rolls, attacks, grabs, groups, damage, knock-out, wounds.

Each check is a kernel check (:mod:`referee.core.checks`), so the odds shown before a roll and
the rule applied to it come from one object. Rules text: Intrigue in the Clouds.

>>> skill_check(2, 14).odds().success
Fraction(3, 8)
>>> attack_check(2, attack_target_number(1)).odds().success  # 3d6+2 > 11
Fraction(5, 8)
>>> is_knocked_out(single=3, total=3, stamina=5), wounds_taken(total=7, stamina=5)
(True, 2)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from fractions import Fraction
from importlib.resources import files

from referee.core import MINUTE, OpposedCheck, TargetCheck, TieRule, Total
from referee.systems.intrigue.envelopes import PerceptionEnvelope, is_for

__all__ = [
    "ATTACK_BASE",
    "DEFENSIVE_BONUS",
    "DICE",
    "ESCAPE_DEFENSIVE_ACTIONS",
    "GRAB_BASE",
    "GROUP_LIMIT",
    "MEDICINE_TARGET",
    "NUMBERS",
    "PERCEPTION_COOLDOWN",
    "RECOVERY_TIME",
    "SCREAM_BONUS_LIMIT",
    "SURPRISE_BONUS",
    "attack_check",
    "attack_target_number",
    "break_free_check",
    "envelope_odds",
    "escape_check",
    "group_attack",
    "half",
    "is_knocked_out",
    "load_numbers",
    "medicine_check",
    "opposed_skill_check",
    "skill_check",
    "squeeze_damage",
    "wounds_taken",
]

DICE = "3d6"
"""Every roll in the game: "you simply roll 3d6 and add their sum to your skill value"."""


def load_numbers() -> dict[str, int]:
    """The numbers the text writes in its sentences, from ``data/numbers.json``, validated.

    Each entry holds the value, the section and the sentence it comes from (checked against the
    text by ``tests/systems/intrigue/test_numbers.py``).

    >>> load_numbers()["medicine_target"]
    14
    """
    data = json.loads(files(__package__).joinpath("data/numbers.json").read_text("utf-8"))
    numbers: dict[str, int] = {}
    for name, entry in data.items():
        value = entry.get("value") if isinstance(entry, dict) else None
        quote = entry.get("quote") if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, int) or not isinstance(quote, str):
            raise ValueError(f"data/numbers.json: {name} needs a whole 'value' and a 'quote'")
        numbers[name] = value
    missing = set(_NAMES) - set(numbers)
    if missing:
        raise ValueError(f"data/numbers.json: missing {sorted(missing)}")
    return numbers


_NAMES = (
    "perception_cooldown_minutes",
    "attack_base",
    "grab_base",
    "defensive_bonus",
    "surprise_bonus",
    "scream_bonus_limit",
    "group_limit",
    "escape_defensive_actions",
    "medicine_target",
    "recovery_minutes",
)
NUMBERS = load_numbers()

PERCEPTION_COOLDOWN = NUMBERS["perception_cooldown_minutes"] * MINUTE
""""you may not make another against that same character for 15 minutes"."""

ATTACK_BASE = NUMBERS["attack_base"]
""""greater than the Target's Combat Stat + 10" ("Attacking")."""

GRAB_BASE = NUMBERS["grab_base"]
""""add +11, not +10, to the Target's Combat Stat" ("Grabbing")."""

DEFENSIVE_BONUS = NUMBERS["defensive_bonus"]
""""adds +3 to their Combat Stat" ("Defensive Action")."""

SURPRISE_BONUS = NUMBERS["surprise_bonus"]
""""+3 is added to the Attacker's Combat Stat for the first turn of combat" ("Surprise")."""

SCREAM_BONUS_LIMIT = NUMBERS["scream_bonus_limit"]
""""a bonus of up to +3 may be added" at the referee's discretion ("Screaming in Terror")."""

GROUP_LIMIT = NUMBERS["group_limit"]
""""Multiple characters (up to four) can gang up" ("Multiple Attackers")."""

ESCAPE_DEFENSIVE_ACTIONS = NUMBERS["escape_defensive_actions"]
""""succeed in two consecutive Defensive Actions" ("Escaping Combat")."""

MEDICINE_TARGET = NUMBERS["medicine_target"]
""""awakened with a Medicine roll of 14 or more" ("Taking Damage")."""

RECOVERY_TIME = NUMBERS["recovery_minutes"] * MINUTE
""""they will recover 5 minutes after the combat ends" ("Taking Damage")."""


def half(stat: int) -> int:
    """Half a stat, rounded up ("at half their Combat Stat (round up)"; RULINGS: halves round up).

    >>> half(3), half(2), half(1)
    (2, 1, 1)
    """
    return -(-stat // 2)


def skill_check(value: int, target: int) -> TargetCheck:
    """A skill roll: "roll 3d6 ... add ... your skill value ... succeed if your total ... is
    equal to or greater than the Target Number" ("Skill Rolls"). ``value`` 0 for an ability
    without a skill value ("you simply roll 3d6")."""
    return TargetCheck(DICE, target=target, modifier=value, comparison=">=")


def opposed_skill_check(value: int, opponent_value: int) -> OpposedCheck:
    """A skill roll whose Target Number is "a roll + skill value from another character":
    equal to or greater succeeds, so the acting character wins ties ("Skill Rolls")."""
    return OpposedCheck(Total(DICE, value), Total(DICE, opponent_value), TieRule.ACTOR_WINS)


def medicine_check(medicine: int) -> TargetCheck:
    """Waking a Knocked Out character: a Medicine roll of 14 or more ("Taking Damage")."""
    return skill_check(medicine, MEDICINE_TARGET)


def envelope_odds(
    perception: int, envelopes: Iterable[PerceptionEnvelope], number: str
) -> dict[str, Fraction]:
    """Before a Perception Check: the chance of being given each envelope, by envelope id.

    Envelopes not for ``number`` (nor ALL) have chance 0.
    """
    return {
        e.id: skill_check(perception, e.target).odds().success if is_for(e, number) else Fraction(0)
        for e in envelopes
    }


def attack_target_number(
    defender_stat: int,
    *,
    grab: bool = False,
    defensive: bool = False,
    scream_bonus: int = 0,
) -> int:
    """The Target Number of an Attack (Combat + 10) or a Grab (Combat + 11), raised by a
    Defensive Action (+3) and a scream's bonus (0 to 3) ("Combat Actions").

    >>> attack_target_number(2, grab=True, defensive=True)
    16
    """
    base = GRAB_BASE if grab else ATTACK_BASE
    return defender_stat + base + (DEFENSIVE_BONUS if defensive else 0) + scream_bonus


def attack_check(modifier: int, target_number: int) -> TargetCheck:
    """An Attack: 3d6 + Combat (or Mind) + bonuses; "If the total is greater than the Target's
    Combat Stat + 10, the attack succeeds" (strictly greater)."""
    return TargetCheck(DICE, target=target_number, modifier=modifier, comparison=">")


def break_free_check(held_strength: int, holder_strength: int) -> OpposedCheck:
    """Break Free: both roll 3d6 + Strength; "If the Held Character's total exceeds the
    Attacker's total" the Held Character breaks free (ties stay Held)."""
    return OpposedCheck(
        Total(DICE, held_strength), Total(DICE, holder_strength), TieRule.OPPONENT_WINS
    )


def escape_check(combat: int, attacker_combat: int) -> OpposedCheck:
    """Escaping: "beat their attacker with a 3d6 + Combat roll vs their attacker's 3d6 + Combat"
    (strictly greater; RULINGS)."""
    return OpposedCheck(Total(DICE, combat), Total(DICE, attacker_combat), TieRule.OPPONENT_WINS)


def group_attack(combats: Sequence[int]) -> tuple[int, int]:
    """A group's single roll: the best Combat Stat, and +1 for each other member "whose Combat
    Stat is at least half of that of the best" ("Multiple Attackers").

    "At least half" is a comparison, so it is exact (RULINGS: 2 × Combat ≥ best); the best
    member's own Combat is the base, not also a +1 (ruling).

    >>> group_attack([3, 2, 1])
    (3, 1)
    >>> group_attack([2, 1, 1])
    (2, 2)
    """
    if not combats:
        raise ValueError("a group has at least one member")
    best_index = max(range(len(combats)), key=lambda i: combats[i])
    best = combats[best_index]
    helpers = sum(1 for i, combat in enumerate(combats) if i != best_index and 2 * combat >= best)
    return best, helpers


def squeeze_damage(strength: int) -> int:
    """Squeeze: "doing half their Strength Stat in Damage" (rounded up, RULINGS)."""
    return half(strength)


def is_knocked_out(*, single: int, total: int, stamina: int) -> bool:
    """ "greater than half the Character's Stamina Stat in damage from a single attack", or
    "the total damage taken ... during a combat exceeds the Stamina Stat" ("Taking Damage").

    "Half the Stamina" in a comparison is exact (RULINGS): 2 × damage > Stamina.
    """
    return 2 * single > stamina or total > stamina


def wounds_taken(*, total: int, stamina: int) -> int:
    """ "One Wound is taken for each point of damage taken in the combat in excess of their
    Stamina Stat" ("Taking Damage")."""
    return max(0, total - stamina)
