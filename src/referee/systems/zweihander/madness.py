"""Madness, Corruption, Alignment and Disorders (house rules, "Madness", "Corruption",
"Corruption into Order & Chaos", "Resetting ranks", "Disorder").

Withstanding madness: Stress, Fear and Terror call for a Resolve Test (+20%, no modifier, −20%);
failing it, the character suffers the mental Peril (1D10+1, 2D10+2, 3D10+3) and the Corruption
(3, 6, 9) — the offence lists name "Suffer from Stress (3)", "… Fear (6)", "… Terror (9)".

At the end of a session (the detailed list, RULINGS.md): no Corruption → 1 rank towards Order;
1 rank towards Chaos per 10 points, and roll 1D10 for the remainder: at most the remainder → 1
rank towards Chaos, else if the Corruption is under 10 → 1 rank towards Order. Ten ranks of Order
→ a Fate Point and all Alignment ranks erased (but permanent ones); ten of Chaos → a Disorder
(GM's choice) and the same. Then discard the remaining Corruption.

>>> from referee.dice import ScriptedSource
>>> from referee.systems.zweihander.character import Character
>>> end = end_of_session(Character("anna", corruption=14), ScriptedSource([3]))
>>> end.chaos_gained, end.order_gained, end.character.corruption
(2, 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.core import CheckResult, RuleError
from referee.dice import DiceSource
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.percentile import SkillTest, roll_peril
from referee.systems.zweihander.tables import (
    OffenceWeight,
    Withstanding,
    disorders,
    offence_weights,
    withstanding_table,
)

__all__ = [
    "ALIGNMENT_LIMIT",
    "CORRUPTION_PER_CHAOS_RANK",
    "SessionEnd",
    "WithstandResult",
    "disorder_kind",
    "end_of_session",
    "offence",
    "situation",
    "withstand",
    "withstand_test",
]

ALIGNMENT_LIMIT = 10
"""Ten ranks towards Order (or Chaos) trigger a Fate Point (or a Disorder) and a reset."""
CORRUPTION_PER_CHAOS_RANK = 10
"""1 rank towards Chaos for each 10 points of Corruption."""


def situation(name: str) -> Withstanding:
    """Stress, Fear or Terror, by name."""
    table = withstanding_table()
    for key, row in table.items():
        if key.lower() == name.strip().lower():
            return row
    raise RuleError("Withstanding madness", f"a situation is Stress, Fear or Terror, not {name!r}")


def offence(weight: str, points: int | None = None) -> int:
    """The Corruption an offence of ``weight`` (minor, middling, major) gives: ``points`` if in
    its range, else the least of the range."""
    table = offence_weights()
    if weight not in table:
        raise RuleError("Corruption", f"an offence is minor, middling or major, not {weight!r}")
    w: OffenceWeight = table[weight]
    low, high = w.points
    if points is None:
        return low
    if not low <= points <= high:
        raise RuleError("Corruption", f"{weight} offences give {low}-{high} points, not {points}")
    return points


def disorder_kind(name: str) -> str:
    """The kind (addiction, insanity, mutation) of a Disorder the text lists."""
    for kind, names in disorders().items():
        if name in names:
            return kind
    raise RuleError(
        "Disorder", f"{name!r} is not an addiction, insanity or mutation the text lists"
    )


def withstand_test(resolve: int, situation_name: str) -> SkillTest:
    """The Resolve Test against Stress, Fear or Terror (for its odds before rolling)."""
    return SkillTest(resolve, situation(situation_name).resolve_modifier)


@dataclass(frozen=True)
class WithstandResult:
    """A Resolve Test against madness: the test, the mental Peril and Corruption suffered."""

    situation: str
    test: CheckResult
    mental_peril: int
    peril_faces: tuple[int, ...]
    corruption: int
    character: Character


def withstand(
    character: Character, situation_name: str, dice: DiceSource, skill: str = "Resolve"
) -> WithstandResult:
    """Roll Resolve against Stress, Fear or Terror; on a failure suffer its Peril and Corruption."""
    row = situation(situation_name)
    test = withstand_test(character.chance(skill), row.situation).roll(dice)
    if test.is_success:
        return WithstandResult(row.situation, test, 0, (), 0, character)
    peril, faces = roll_peril(row.mental_peril, dice)
    after = character.suffer_peril(peril)
    after = replace(after, corruption=after.corruption + row.corruption)
    return WithstandResult(row.situation, test, peril, faces, row.corruption, after)


@dataclass(frozen=True)
class SessionEnd:
    """The end-of-session procedure for one character: what was rolled and gained."""

    corruption: int
    corruption_die: int | None
    order_gained: int
    chaos_gained: int
    fate_point: bool
    disorder: str | None
    character: Character


def end_of_session(
    character: Character, dice: DiceSource, disorder: str | None = None
) -> SessionEnd:
    """Turn the session's Corruption into Order and Chaos ranks (the detailed list).

    The 1D10 is rolled only when there is a remainder under 10 to roll for (with none, no roll
    can change anything). ``disorder`` names the GM's choice should ten ranks of Chaos be reached
    (``"Disorder"`` if not named). A Fate Point or a Disorder gained adds 1 Reputation point
    (house rules, "Reputation points": +1 for each Fate Point, +1 for each Disorder).
    """
    if disorder is not None:
        disorder_kind(disorder)
    corruption = character.corruption
    order = 1 if corruption == 0 else 0
    chaos = corruption // CORRUPTION_PER_CHAOS_RANK
    remainder = corruption % CORRUPTION_PER_CHAOS_RANK
    die = None
    if remainder:
        die = dice.roll(10)
        if die <= remainder:
            chaos += 1
        elif corruption < CORRUPTION_PER_CHAOS_RANK:
            order += 1
    after = replace(
        character,
        order_ranks=character.order_ranks + order,
        chaos_ranks=character.chaos_ranks + chaos,
        corruption=0,
    )
    fate = False
    gained_disorder = None
    if after.order_ranks >= ALIGNMENT_LIMIT:
        fate = True
        after = replace(after, fate_points=after.fate_points + 1, reputation=after.reputation + 1)
    elif after.chaos_ranks >= ALIGNMENT_LIMIT:
        gained_disorder = disorder or "Disorder"
        after = replace(
            after, disorders=(*after.disorders, gained_disorder), reputation=after.reputation + 1
        )
    if fate or gained_disorder:
        after = replace(
            after,
            order_ranks=after.permanent_order_ranks,
            chaos_ranks=after.permanent_chaos_ranks,
        )
    return SessionEnd(corruption, die, order, chaos, fate, gained_disorder, after)
