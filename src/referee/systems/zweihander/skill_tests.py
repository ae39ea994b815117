"""Skill Tests at the table: the d100 core every section of the house rules leans on.

``test``: a character tests a Skill they have a Base Chance for (or a ``chance`` given
outright), at a Difficulty Rating, with or without an Assist Die (parent-games.md, "Skill test").

>>> from referee.dice import ScriptedSource
>>> from referee.core import Table, Action
>>> from referee.systems.zweihander import PROCEDURE
>>> t = Table.start(PROCEDURE, {"characters": {"anna": {"skills": {"Stealth": 45}}}})
>>> t = t.act(Action("anna", "test", {"skill": "Stealth", "difficulty": "Hard"}),
...           ScriptedSource([20]))
>>> t.log[-1].data["outcome"], t.log[-1].data["roll"]["dice"]
('success', 'd100 ≤ 25')
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from referee.core import (
    Action,
    ActionSpec,
    Builder,
    Choice,
    OddsPreview,
    OneOf,
    Params,
    RuleError,
    Who,
)
from referee.core.naming import title_of
from referee.dice import DiceSource
from referee.systems.zweihander.emit import test_card, test_json, test_preview
from referee.systems.zweihander.events import TEST_ROLLED
from referee.systems.zweihander.percentile import (
    DIFFICULTY_NAMES,
    Difficulty,
    SkillTest,
    difficulty,
)
from referee.systems.zweihander.state import ZweihanderState

__all__ = ["TEST", "SkillTestParams", "choices", "decide_test", "odds_of", "skill_test"]

RULE = "Skill Test"


class SkillTestParams(Params):
    """``test``: the ``skill`` tested (its Base Chance from the sheet), or a ``chance`` given
    outright; the ``difficulty`` (a Difficulty Rating); ``assist`` for an Assist Die."""

    skill: str = ""
    chance: int | None = Field(default=None, ge=0, le=200)
    difficulty: Difficulty = 0
    assist: bool = False

    @model_validator(mode="after")
    def _skill_or_chance(self) -> SkillTestParams:
        if not self.skill and self.chance is None:
            raise ValueError("name the skill tested, or give its chance")
        return self


TEST = ActionSpec(
    "test",
    SkillTestParams,
    section="Skill Test (parent-games.md, the d100 core)",
    who=Who.CHARACTER,
    summary="a percentile Skill Test: d100 under Base Chance + Difficulty Rating",
    record="everyone",
)


def skill_test(state: ZweihanderState, action: Action) -> SkillTest:
    """The test a ``test`` action rolls: the one :func:`decide_test` rolls and
    :func:`odds_of` shows (:class:`RuleError` for a Skill with no Base Chance, or while
    Incapacitated!)."""
    p = TEST.of(action)
    chance = p.chance
    if chance is None:
        chance = state.character(action.actor).chance(p.skill)
    return SkillTest(chance, difficulty(p.difficulty), assist=p.assist)


def decide_test(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``test``: roll it; one event with the test, its odds and its roll card."""
    p = TEST.of(action)
    test = skill_test(b.state, action)
    chance = test.base_chance
    result = test.roll(dice)
    label = f"{title_of(action.actor)} tests {p.skill or 'a chance of ' + str(chance)}"
    payload: dict[str, Any] = {
        "character": action.actor,
        **test_json(test, result, p.skill),
        "roll": test_card(test, result, label, RULE),
    }
    b.emit(TEST_ROLLED, payload)


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """One choice per Skill the character has a Base Chance for (none while Incapacitated!),
    with the odds at Standard."""
    mine = [c for c in state.characters if c.id == actor]
    if not mine or mine[0].is_incapacitated:
        return []
    c = mine[0]
    return [
        Choice(
            actor,
            TEST.kind,
            {
                "skill": OneOf((skill,)),
                "difficulty": OneOf(DIFFICULTY_NAMES),
                "assist": OneOf((False, True)),
            },
            odds=(
                test_preview(SkillTest(c.chance(skill)), f"{title_of(actor)} tests {skill}", RULE),
            ),
            label=f"test {skill} (odds at Standard)",
        )
        for skill in sorted(c.skills)
    ]


def odds_of(state: ZweihanderState, action: Action) -> tuple[OddsPreview, ...]:
    """The exact odds of a ``test`` with its Skill (or chance), Difficulty and Assist Die as
    given — criticals apart — or none if the rules would refuse it.

    >>> from referee.systems.zweihander.character import Character
    >>> s = ZweihanderState(characters=(Character.from_setup("anna", {"skills": {"Charm": 50}}),))
    >>> odds_of(s, Action("anna", "test", {"skill": "Charm", "difficulty": "Hard"}))[0].dice
    'd100 ≤ 30'
    >>> odds_of(s, Action("anna", "test", {"skill": "Stealth"}))
    ()
    """
    try:
        test = skill_test(state, action)
    except RuleError:
        return ()
    p = TEST.of(action)
    return (test_preview(test, f"{title_of(action.actor)} tests {p.skill or 'a chance'}", RULE),)
