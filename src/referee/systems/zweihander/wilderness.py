"""Wilderness travel (house rules, "Wilderness travel rules"): a journey as a whole.

The GM divides the route into Stretches (short: 1 Toughness Test, medium: 2, long: 3). Terrain
gives the Difficulty Rating of the Stretch's Role Checks and Toughness Tests (bad weather: one
step worse). Threat Level is a number of Chaos Dice (No Danger 0 … Highly Dangerous 3). At the
start of each Stretch the Guide (Navigation), Survivalist (Survival) and Scout (Stealth) make
their Role Checks in that order; then every character makes the Toughness Tests (an Assist Die
when conveyed; 2D10+2 or 3D10+3 Peril on failure), and Chaos Dice are rolled after each.
Striking Camp (24 hours) recovers to Imperiled, or Unhindered after a Critical Success at
Toughness or a successful Survivalist.

The rules live by part of the text: :mod:`.stretches` (the route, Terrain, Threat Level;
``journey.start``, ``journey.end_stretch``, ``journey.end``), :mod:`.roles` (``journey.roles``),
:mod:`.strike_camp` (``journey.toughness``, ``journey.camp``); here: the handlers, the fold, the
choices, and :func:`travel_on`.

>>> terrain_difficulty("mountains"), terrain_difficulty("trails", bad_weather=True)
(-30, 0)
>>> threat_level("Moderately Dangerous")
2
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    Between,
    Choice,
    Depends,
    Event,
    Handler,
    OddsPreview,
    OneOf,
    Record,
    RuleError,
    SomeOf,
    Steps,
    Table,
    Text,
)
from referee.core.actions import Domain
from referee.dice import DiceSource
from referee.systems.zweihander.events import (
    JOURNEY_CAMP,
    JOURNEY_CHAOS,
    JOURNEY_ENDED,
    JOURNEY_ROLE_CHECK,
    JOURNEY_STARTED,
    JOURNEY_STRETCH_ENDED,
    JOURNEY_TOUGHNESS,
)
from referee.systems.zweihander.roles import (
    JOURNEY_ROLES,
    ROLES,
    Assists,
    Roles,
    able_to_travel,
    assign_roles,
    fold_role_check,
    role_assignments,
)
from referee.systems.zweihander.state import JourneyState, Stretch, ZweihanderState
from referee.systems.zweihander.stretches import (
    JOURNEY_END,
    JOURNEY_END_STRETCH,
    JOURNEY_START,
    SECTION,
    STRETCH_DAYS,
    JourneyEnd,
    RouteParams,
    StretchParams,
    end_journey,
    end_stretch,
    fold_chaos,
    fold_ended,
    fold_started,
    fold_stretch_ended,
    parse_stretch,
    start_journey,
    start_payload,
    step_threat,
    stretch_length_and_days,
    terrain_difficulty,
    threat_level,
    toughness_tests,
)
from referee.systems.zweihander.strike_camp import (
    CAMP_HOURS,
    JOURNEY_CAMP_SPEC,
    JOURNEY_TOUGHNESS_SPEC,
    fold_camp,
    fold_toughness,
    strike_camp,
    take_toughness_tests,
    toughness_previews,
)
from referee.systems.zweihander.tables import terrain_steps, threat_levels

__all__ = [
    "CAMP_HOURS",
    "HANDLERS",
    "KINDS",
    "ROLES",
    "SPECS",
    "STRETCH_DAYS",
    "Assists",
    "JourneyEnd",
    "Roles",
    "RouteParams",
    "Stretch",
    "StretchParams",
    "choices",
    "evolve",
    "parse_stretch",
    "previews",
    "roles_domain",
    "start_payload",
    "step_threat",
    "stretch_domain",
    "stretch_length_and_days",
    "terrain_difficulty",
    "threat_level",
    "toughness_tests",
    "travel_on",
]

KINDS = frozenset(
    {
        JOURNEY_STARTED,
        JOURNEY_ROLE_CHECK,
        JOURNEY_TOUGHNESS,
        JOURNEY_CHAOS,
        JOURNEY_CAMP,
        JOURNEY_STRETCH_ENDED,
        JOURNEY_ENDED,
    }
)
"""The event kinds a journey emits."""

SPECS = (
    JOURNEY_START,
    JOURNEY_ROLES,
    JOURNEY_TOUGHNESS_SPEC,
    JOURNEY_CAMP_SPEC,
    JOURNEY_END_STRETCH,
    JOURNEY_END,
)
"""The actions of a journey."""

HANDLERS: Mapping[str, Handler] = {
    JOURNEY_START.kind: start_journey,
    JOURNEY_ROLES.kind: assign_roles,
    JOURNEY_TOUGHNESS_SPEC.kind: take_toughness_tests,
    JOURNEY_CAMP_SPEC.kind: strike_camp,
    JOURNEY_END_STRETCH.kind: end_stretch,
    JOURNEY_END.kind: end_journey,
}
"""The handler of each journey action."""

_FOLDS: Mapping[str, Callable[[ZweihanderState, JourneyState, Any], ZweihanderState]] = {
    JOURNEY_ROLE_CHECK: fold_role_check,
    JOURNEY_TOUGHNESS: fold_toughness,
    JOURNEY_CHAOS: fold_chaos,
    JOURNEY_CAMP: fold_camp,
    JOURNEY_STRETCH_ENDED: fold_stretch_ended,
    JOURNEY_ENDED: fold_ended,
}
"""The fold of each kind of a journey under way (``journey.started`` makes one)."""


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a journey event into the state."""
    if event.kind == JOURNEY_STARTED:
        return fold_started(state, event)
    j = state.journey
    fold = _FOLDS.get(event.kind)
    if j is None or fold is None:
        return state
    return fold(state, j, event.data)


# ------------------------------------------------------------------------------ choices


MOST_STRETCHES = 12
"""The most Stretches a route composed at the table may have."""


@functools.cache
def stretch_domain() -> Record:
    """A Stretch as the GM composes it: a name, its length and days (the days the length
    allows: :data:`STRETCH_DAYS`), a terrain the text lists, a Threat Level, bad weather, and
    whether the party is conveyed (the text's tables alone: built once)."""
    days = tuple(
        (name, Between(low, 365 if high is None else high))
        for name, (low, high) in STRETCH_DAYS.items()
    )
    return Record(
        {
            "name": Text("the old road"),
            "length": OneOf(tuple(STRETCH_DAYS)),
            "days": Depends("length", days),
            "terrain": OneOf(tuple(t for step in terrain_steps() for t in step.terrains)),
            "threat": OneOf(tuple(t.level for t in threat_levels())),
            "bad_weather": OneOf((False, True)),
            "conveyed": OneOf((False, True)),
        }
    )


def roles_domain(state: ZweihanderState, j: JourneyState) -> dict[str, Domain]:
    """The Roles as the GM gives them: any fit traveller (or nobody: the check fails) to each
    Role, any others assisting; the rules refuse one given twice or left idle."""
    fit = tuple(t for t in j.travellers if able_to_travel(state, t))
    holder = OneOf((None, *fit))
    return {
        "guide": holder,
        "survivalist": holder,
        "scout": holder,
        "assists": Record({role: SomeOf(fit) for role in ROLES}),
    }


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The journey's next step, for the GM."""
    if actor != REFEREE:
        return []
    j = state.journey
    if j is None or j.ended:
        names = tuple(c.id for c in state.characters)
        if not names:
            return []
        return [
            Choice(
                actor,
                JOURNEY_START.kind,
                {
                    "travellers": SomeOf(names, least=1),
                    "stretches": Steps(stretch_domain(), least=1, most=MOST_STRETCHES),
                },
                label="set out on a journey: the travellers and the route, Stretch by Stretch",
            )
        ]
    out: list[Choice] = []
    if j.phase == "roles":
        out.append(
            Choice(
                actor,
                JOURNEY_ROLES.kind,
                roles_domain(state, j),
                label=f"the Role Checks of {j.stretch.name}: Guide, Survivalist, Scout",
            )
        )
    elif j.phase == "toughness" and j.toughness_tests_left > 0:
        if all(
            "Toughness" in state.character(t).skills
            for t in j.travellers
            if able_to_travel(state, t)
        ):
            out.append(Choice(actor, JOURNEY_TOUGHNESS_SPEC.kind, label="the Toughness Tests"))
    elif j.phase in ("toughness", "done") and j.toughness_tests_left <= 0:
        if j.phase == "toughness":
            out.append(Choice(actor, JOURNEY_END_STRETCH.kind, label="end the Stretch"))
        out.append(
            Choice(
                actor,
                JOURNEY_END.kind,
                {"award_fortune": OneOf((False, True))},
                label="journey's end",
            )
        )
    if not (j.phase == "roles" and j.index == 0 and j.days == 0):
        out.append(Choice(actor, JOURNEY_CAMP_SPEC.kind, label="Strike Camp"))
    return out


def previews(state: ZweihanderState) -> list[OddsPreview]:
    """The next Toughness Tests of the Stretch, with their odds."""
    return toughness_previews(state)


# ------------------------------------------------------------------------------ travelling on


def travel_on(
    table: Table[ZweihanderState],
    dice: DiceSource,
    *,
    camp: bool = False,
    award_fortune: bool = False,
) -> Table[ZweihanderState]:
    """Travel the journey under way to its end as the GM would by default: on each Stretch the
    first Role assignment the rules allow (every Role to a traveller with its Skill, the others
    assisting the Guide), the Toughness Tests, Strike Camp if ``camp``, then journey's end.
    Every step is taken from the referee's seat (when the table has seats) and recorded.
    """
    seat = REFEREE if table.seats else None
    j = table.state.journey
    if j is None or j.ended:
        raise RuleError(SECTION, "no journey is under way (start one with journey.start)")
    for _ in range(len(j.stretches) - j.index):
        j = table.state.journey
        assert j is not None
        if j.phase == "roles":
            options = role_assignments(table.state, j)
            if not options:
                raise RuleError(
                    f"{SECTION} (Roles)", "no traveller can take a Role: enter their Skills"
                )
            table = table.act(Action(REFEREE, JOURNEY_ROLES.kind, options[0]), dice, seat=seat)
        while (j := table.state.journey) is not None and j.toughness_tests_left > 0:
            table = table.act(Action(REFEREE, JOURNEY_TOUGHNESS_SPEC.kind), dice, seat=seat)
        if camp:
            table = table.act(Action(REFEREE, JOURNEY_CAMP_SPEC.kind), dice, seat=seat)
        table = table.act(Action(REFEREE, JOURNEY_END_STRETCH.kind), dice, seat=seat)
    end = Action(REFEREE, JOURNEY_END.kind, {"award_fortune": award_fortune})
    return table.act(end, dice, seat=seat)
