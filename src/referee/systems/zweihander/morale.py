"""Morale checks (house rules, "Combat rules / Morale checks").

A Slain! leader, or foes vastly outnumbering their enemy, may trigger a morale check: a Resolve
Test whose Difficulty Rating comes from the condition table. When several conditions apply, the
single hardest applies (RULINGS.md, "Everywhere"). A Failure makes the foes give up on their
next turn unless a leader passes a Leadership Test.

>>> morale_difficulty(["ally_slain", "outnumbered_3_to_1"])
-10
>>> from referee.dice import ScriptedSource
>>> morale_check(55, ["leader_slain"], ScriptedSource([20])).result
'the foes continue to fight'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.core import CheckResult, Outcome, RuleError
from referee.dice import DiceSource
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.tables import morale_conditions, morale_results

__all__ = ["MoraleResult", "morale_check", "morale_difficulty", "morale_test"]


def morale_difficulty(conditions: Sequence[str]) -> int:
    """The Resolve Test's Difficulty Rating: the hardest of the conditions (0 if none).

    >>> morale_difficulty(["ally_moderate_injury"]), morale_difficulty([])
    (30, 0)
    """
    table = morale_conditions()
    for c in conditions:
        if c not in table:
            raise RuleError("Morale checks", f"no condition {c!r} (known: {', '.join(table)})")
    return min((table[c].modifier for c in conditions), default=0)


def morale_test(resolve: int, conditions: Sequence[str]) -> SkillTest:
    """The morale check as a Resolve :class:`SkillTest` (for its odds before rolling)."""
    return SkillTest(resolve, morale_difficulty(conditions))


@dataclass(frozen=True)
class MoraleResult:
    """A morale check rolled: the Resolve Test, the optional leader's Leadership Test, the result.

    ``gives_up`` is True when the foes give up on their next turn (a Failure not rescued by the
    leader's Leadership Test); ``flees`` on a Critical Failure; ``inspired`` on a Critical Success.
    """

    resolve: CheckResult
    leadership: CheckResult | None
    result: str
    gives_up: bool
    flees: bool
    inspired: bool


def morale_check(
    resolve: int,
    conditions: Sequence[str],
    dice: DiceSource,
    *,
    leader_leadership: int | None = None,
) -> MoraleResult:
    """Roll a morale check; on a Failure, the leader (if any) tests Leadership (Standard).

    The Leadership Test is Standard: the text gives it no Difficulty Rating (Referee's ruling).
    """
    rolled = morale_test(resolve, conditions).roll(dice)
    words = morale_results()[rolled.outcome.value]
    leadership = None
    gives_up = False
    if rolled.outcome is Outcome.FAILURE:
        if leader_leadership is not None:
            leadership = SkillTest(leader_leadership).roll(dice)
        gives_up = leadership is None or not leadership.is_success
    return MoraleResult(
        resolve=rolled,
        leadership=leadership,
        result=words,
        gives_up=gives_up,
        flees=rolled.outcome is Outcome.CRITICAL_FAILURE,
        inspired=rolled.outcome is Outcome.CRITICAL_SUCCESS,
    )
