"""Roles on a journey (house rules, "Wilderness travel rules"): the Guide (Navigation), the
Survivalist (Survival) and the Scout (Stealth), and their Role Checks (``journey.roles``).

"Each character must take a Role (or assist another in their related Test)." "At the beginning
of each Stretch, characters must make their Role Checks in the order presented above": the
Guide's sets the provisions per day and may move the Terrain a step; the Survivalist's how far
Striking Camp recovers and how many Toughness Tests the Stretch takes; the Scout's moves the
Threat Level a step and may give someone the Surprise Turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from pydantic import Field

from referee.core import Action, ActionSpec, Builder, Outcome, Params, RuleError, Who
from referee.core.naming import title_of
from referee.core.values import Json, evolved
from referee.dice import DiceSource
from referee.systems.zweihander.emit import test_card, test_json
from referee.systems.zweihander.events import JOURNEY_ROLE_CHECK
from referee.systems.zweihander.percentile import SkillTest, step_difficulty
from referee.systems.zweihander.state import JourneyState, ZweihanderState
from referee.systems.zweihander.stretches import (
    SECTION,
    journey_under_way,
    roll_chaos,
    step_threat,
    toughness_tests,
)
from referee.systems.zweihander.tables import RoleTable, role_tables

__all__ = [
    "JOURNEY_ROLES",
    "MAX_ASSIGNMENTS",
    "ROLES",
    "Assists",
    "Roles",
    "assign_roles",
    "fold_role_check",
    "role_assignments",
]

ROLES = ("guide", "survivalist", "scout")
"""The Roles, in the order their checks are made."""
RULE = f"{SECTION} (Roles)"


class Assists(Params):
    """Who assists each Role (an Assist Die to its check)."""

    guide: list[str] = Field(default_factory=list)
    survivalist: list[str] = Field(default_factory=list)
    scout: list[str] = Field(default_factory=list)


class Roles(Params):
    """``journey.roles`` (the GM): who is the ``guide``, the ``survivalist`` and the ``scout``
    (a Role left unfilled fails its check), and who ``assists`` them."""

    guide: str | None = None
    survivalist: str | None = None
    scout: str | None = None
    assists: Assists = Assists()


JOURNEY_ROLES = ActionSpec(
    "journey.roles",
    Roles,
    section=RULE,
    who=Who.REFEREE,
    summary="the Guide's, Survivalist's and Scout's Role Checks",
    record="everyone",
)


def assign_roles(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``journey.roles``: the three Role Checks in order, each at the Terrain as the Guide left
    it; the Chaos Dice too if the Stretch is left with no Toughness Test."""
    p = JOURNEY_ROLES.of(action)
    j = journey_under_way(b.state, "journey.roles")
    if j.phase != "roles":
        raise RuleError("journey.roles", "Role Checks are made at the beginning of a Stretch")
    filled = {role: getattr(p, role) for role in ROLES}
    helping = {role: tuple(getattr(p.assists, role)) for role in ROLES}
    _check_roles(b.state, j, filled, helping)
    terrain = j.stretch.terrain
    threat = j.stretch.threat
    for table, role in zip(role_tables(), ROLES, strict=True):
        payload, outcome = _role_check(b.state, table, filled[role], helping[role], terrain, dice)
        if role == "guide":
            payload["provisions_per_day"] = 1 if outcome.is_success else 2
            step = {Outcome.CRITICAL_SUCCESS: -1, Outcome.CRITICAL_FAILURE: 1}.get(outcome, 0)
            terrain = step_difficulty(terrain, step)
            payload["terrain"] = terrain
        elif role == "survivalist":
            payload["camp_recovery"] = "Unhindered" if outcome.is_success else "Imperiled"
            extra = {Outcome.CRITICAL_SUCCESS: -1, Outcome.CRITICAL_FAILURE: 1}.get(outcome, 0)
            payload["toughness_tests"] = max(0, toughness_tests(j.stretch.length) + extra)
        else:
            threat = step_threat(threat, -1 if outcome.is_success else 1)
            payload["threat"] = threat
            payload["surprise"] = {
                Outcome.CRITICAL_SUCCESS: "party",
                Outcome.CRITICAL_FAILURE: "enemies",
            }.get(outcome)
        b.emit(JOURNEY_ROLE_CHECK, payload)
    after = b.state.journey
    if after is not None and after.toughness_tests_left == 0:
        # No Toughness Test left (the Survivalist's Critical Success on a Short Stretch): the
        # Threat Level's Chaos Dice are still rolled at the beginning of the Stretch.
        roll_chaos(b, after, dice)


def _check_roles(
    state: ZweihanderState,
    j: JourneyState,
    filled: Mapping[str, str | None],
    helping: Mapping[str, tuple[str, ...]],
) -> None:
    """Refuse a Role or an assist given to someone not travelling, given twice, or unable to
    help; and any fit traveller left without a Role or an assist."""
    taken: dict[str, str] = {}
    skills = {role: table.skill for role, table in zip(ROLES, role_tables(), strict=True)}
    for role in ROLES:
        holder = filled[role]
        for who in ([holder] if holder is not None else []) + list(helping[role]):
            name = title_of(who)
            if who not in j.travellers:
                raise RuleError("journey.roles", f"{name} is not travelling")
            if who in taken:
                already = taken[who]
                raise RuleError(
                    "journey.roles (Roles)",
                    f"{name} already {already} and cannot also be the {role} or assist them",
                )
            c = state.character(who)
            if c.is_slain or c.is_incapacitated:
                said = "Slain!" if c.is_slain else c.peril_condition
                raise RuleError("journey.roles (Roles)", f"{name} is {said} and cannot help")
            taken[who] = f"is the {role}" if who == holder else f"assists the {role}"
        if holder is not None and skills[role] not in state.character(holder).skills:
            raise RuleError(
                "journey.roles (Roles)",
                f"{title_of(holder)} has no Base Chance entered for {skills[role]}, which the "
                f"{role} tests: give the Role to another, or enter it on the sheet",
            )
    idle = [
        t
        for t in j.travellers
        if t not in taken
        and not (state.character(t).is_slain or state.character(t).is_incapacitated)
    ]
    if idle:
        raise RuleError(
            "journey.roles (Roles)",
            "each character must take a Role or assist another: "
            f"{', '.join(map(title_of, idle))} has none",
        )


def _role_check(
    state: ZweihanderState,
    table: RoleTable,
    who: str | None,
    helpers: tuple[str, ...],
    terrain: int,
    dice: DiceSource,
) -> tuple[dict[str, Any], Outcome]:
    """One Role Check at ``terrain`` (an Assist Die if anyone assists; an unfilled Role fails):
    its payload so far and its outcome."""
    payload: dict[str, Any] = {
        "role": table.role,
        "skill": table.skill,
        "character": who,
        "assisted_by": list(helpers),
    }
    if who is None:
        outcome = Outcome.FAILURE
        payload["unfilled"] = True
    else:
        c = state.character(str(who))
        test = SkillTest(c.chance(table.skill), terrain, assist=bool(helpers))
        result = test.roll(dice)
        outcome = result.outcome
        payload["test"] = test_json(test, result, table.skill)
        label = f"{table.role} {title_of(who)} tests {table.skill}"
        payload["roll"] = test_card(test, result, label, RULE)
    payload["outcome"] = outcome.value
    payload["result"] = table.results[outcome.value]
    return payload, outcome


def fold_role_check(state: ZweihanderState, j: JourneyState, data: Any) -> ZweihanderState:
    """``journey.role_check``: the Guide's provisions and Terrain, the Survivalist's camp and
    Toughness Tests, or the Scout's Threat Level and Surprise Turn (then the Toughness Tests)."""
    if "provisions_per_day" in data:
        j = evolved(
            j,
            provisions_per_day=int(str(data["provisions_per_day"])),
            terrain=int(str(data["terrain"])),
        )
    elif "camp_recovery" in data:
        j = evolved(
            j,
            camp_recovery=str(data["camp_recovery"]),
            toughness_tests_left=int(str(data["toughness_tests"])),
            unhindered_at_camp=(),
        )
    else:
        surprise = data.get("surprise")
        j = evolved(
            j,
            threat=int(str(data["threat"])),
            phase="toughness",
            surprise=None if surprise is None else str(surprise),
        )
    return evolved(state, journey=j)


MAX_ASSIGNMENTS = 12
"""The most Role assignments offered as choices (a form asks for any other)."""


def role_assignments(state: ZweihanderState, j: JourneyState) -> list[dict[str, Json]]:
    """Ways to give each Role to a different fit traveller who has its Skill (or to nobody:
    the check fails), every other fit traveller assisting the Guide."""
    fit = [t for t in j.travellers if able_to_travel(state, t)]
    skills = {role: table.skill for role, table in zip(ROLES, role_tables(), strict=True)}
    out: list[dict[str, Json]] = []
    seen: set[tuple[str | None, ...]] = set()
    for holders in itertools.permutations([*fit, None, None, None], len(ROLES)):
        if holders in seen:
            continue
        seen.add(holders)
        named = [h for h in holders if h is not None]
        if len(set(named)) != len(named):
            continue
        if any(
            h is not None and skills[r] not in state.character(h).skills
            for r, h in zip(ROLES, holders, strict=True)
        ):
            continue
        rest = [t for t in fit if t not in named]
        if rest and holders[0] is None:
            continue  # the others assist the Guide: there must be one
        assignment: dict[str, Json] = {
            r: h for r, h in zip(ROLES, holders, strict=True) if h is not None
        }
        if rest:
            assignment["assists"] = {"guide": list(rest)}
        out.append(assignment)
    out.sort(key=lambda a: -sum(1 for r in ROLES if r in a))
    return out[:MAX_ASSIGNMENTS]


def able_to_travel(state: ZweihanderState, who: str) -> bool:
    """Whether ``who`` can take a Role or a Toughness Test: neither Slain! nor Incapacitated!."""
    c = state.character(who)
    return not (c.is_slain or c.is_incapacitated)
