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
from typing import Any, Literal

from pydantic import Field

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Between,
    Builder,
    CheckResult,
    Choice,
    Outcome,
    Params,
    RuleError,
    SomeOf,
    Who,
)
from referee.dice import DiceSource
from referee.systems.zweihander.emit import test_card, test_json
from referee.systems.zweihander.events import MORALE_CHECKED
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import morale_conditions, morale_results

__all__ = [
    "MORALE",
    "MoraleCheck",
    "MoraleResult",
    "choices",
    "decide_morale",
    "morale_check",
    "morale_difficulty",
    "morale_test",
]

MoraleCondition = Literal[
    "ally_moderate_injury",
    "ally_serious_injury",
    "ally_grievous_injury",
    "ally_slain",
    "outnumbered_3_to_1",
    "outnumbered_6_to_1",
    "leader_slain",
]
"""The conditions of the table (checked against its data file by the tests)."""


class MoraleCheck(Params):
    """``morale``: the foes' ``resolve`` (Base Chance), the ``conditions`` that apply, and the
    leader's Leadership (Base Chance), if they have a leader."""

    resolve: int = Field(ge=0, le=200)
    conditions: list[MoraleCondition] = Field(default_factory=list)
    leader_leadership: int | None = Field(default=None, ge=0, le=200)
    foes: str = "the foes"


MORALE = ActionSpec(
    "morale",
    MoraleCheck,
    section="Combat rules / Morale checks",
    who=Who.REFEREE,
    summary="a Resolve Test for the foes; on a Failure the leader may test Leadership",
    record="everyone",
)


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


def decide_morale(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``morale``: the Resolve Test (and the leader's Leadership Test) in one event."""
    p = MORALE.of(action)
    conditions = list(p.conditions)
    test = morale_test(p.resolve, conditions)
    result = morale_check(p.resolve, conditions, dice, leader_leadership=p.leader_leadership)
    rolls = [test_card(test, result.resolve, f"{p.foes} test Resolve", "Morale checks")]
    payload: dict[str, Any] = {
        "foes": p.foes,
        "conditions": conditions,
        "test": test_json(test, result.resolve, "Resolve"),
        "result": result.result,
        "gives_up": result.gives_up,
        "flees": result.flees,
        "inspired": result.inspired,
    }
    if result.leadership is not None:
        leader = SkillTest(p.leader_leadership or 0)
        payload["leadership"] = test_json(leader, result.leadership, "Leadership")
        rolls.append(
            test_card(leader, result.leadership, "their leader tests Leadership", "Morale checks")
        )
    payload["rolls"] = rolls
    b.emit(MORALE_CHECKED, payload)


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The referee may call a morale check at any time."""
    if actor != REFEREE:
        return []
    return [
        Choice(
            actor,
            MORALE.kind,
            {
                "resolve": Between(1, 99),
                "conditions": SomeOf(tuple(morale_conditions()), least=0, most=2),
            },
            label="call a morale check",
        )
    ]
