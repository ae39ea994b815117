"""Wilderness travel (house rules, "Wilderness travel rules").

The GM divides the route into Stretches (short: 1 Toughness Test, medium: 2, long: 3). Terrain
gives the Difficulty Rating of the Stretch's Role Checks and Toughness Tests (bad weather: one
step worse). Threat Level is a number of Chaos Dice (No Danger 0 … Highly Dangerous 3). At the
start of each Stretch the Guide (Navigation), Survivalist (Survival) and Scout (Stealth) make
their Role Checks in that order; then every character makes the Toughness Tests (an Assist Die
when conveyed; 2D10+2 or 3D10+3 Peril on failure), and Chaos Dice are rolled after each.
Striking Camp (24 hours) recovers to Imperiled, or Unhindered after a Critical Success at
Toughness or a successful Survivalist.

Actions: ``journey.start`` (or ``setup.journey``), ``journey.roles``, ``journey.toughness``,
``journey.camp``, ``journey.end_stretch``, ``journey.end``.

>>> terrain_difficulty("mountains"), terrain_difficulty("trails", bad_weather=True)
(-30, 0)
>>> threat_level("Moderately Dangerous")
2
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Choice,
    Event,
    NoParams,
    OddsPreview,
    OneOf,
    Outcome,
    Params,
    RuleError,
    ScenarioError,
    SomeOf,
    Table,
    Who,
)
from referee.core.naming import title_of
from referee.core.values import Json
from referee.dice import DiceSource
from referee.systems.zweihander import waits
from referee.systems.zweihander.emit import (
    Emitter,
    chaos_card,
    test_card,
    test_json,
    test_preview,
)
from referee.systems.zweihander.events import (
    JOURNEY_CAMP,
    JOURNEY_CHAOS,
    JOURNEY_ENDED,
    JOURNEY_ROLE_CHECK,
    JOURNEY_STARTED,
    JOURNEY_STRETCH_ENDED,
    JOURNEY_TOUGHNESS,
)
from referee.systems.zweihander.percentile import (
    ChaosDice,
    SkillTest,
    difficulty,
    roll_peril,
    step_difficulty,
)
from referee.systems.zweihander.state import JourneyState, Stretch, ZweihanderState
from referee.systems.zweihander.tables import (
    role_tables,
    stretch_lengths,
    terrain_steps,
    threat_levels,
    toughness_results,
)

__all__ = [
    "KINDS",
    "ROLES",
    "SPECS",
    "RouteParams",
    "choices",
    "decide",
    "evolve",
    "parse_stretch",
    "previews",
    "step_threat",
    "stretch_length_and_days",
    "terrain_difficulty",
    "threat_level",
    "toughness_tests",
    "travel_on",
]

ROLES = ("guide", "survivalist", "scout")
"""The Roles, in the order their checks are made."""

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
SECTION = "Wilderness travel rules"


class StretchParams(Params):
    """A Stretch of the route: its ``name``, ``length``, ``terrain`` (a terrain the text lists,
    a Difficulty Rating's name or its modifier), ``threat`` (a Threat Level's name or 0–3), the
    ``days`` of travel, whether the party is ``conveyed`` and travels in ``bad_weather``."""

    name: str | None = None
    length: Literal["short", "medium", "long"] | None = None
    terrain: str | int = "Standard"
    threat: str | int = 0
    days: int | None = Field(default=None, ge=1, le=365)
    conveyed: bool = False
    bad_weather: bool = False


class RouteParams(Params):
    """``journey.start`` (the GM), or the setup's ``journey``: the ``travellers`` and the
    ``stretches`` of the route."""

    travellers: list[str] = Field(min_length=1)
    stretches: list[StretchParams] = Field(min_length=1)


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


class JourneyEnd(Params):
    """``journey.end`` (the GM): whether to ``award_fortune`` (a Fortune Point per survivor)."""

    award_fortune: bool = False


JOURNEY_START = ActionSpec(
    "journey.start",
    RouteParams,
    section=f"{SECTION} (Stretches)",
    who=Who.REFEREE,
    summary="divide the route into Stretches and set out",
    record="everyone",
)
JOURNEY_ROLES = ActionSpec(
    "journey.roles",
    Roles,
    section=f"{SECTION} (Roles)",
    who=Who.REFEREE,
    summary="the Guide's, Survivalist's and Scout's Role Checks",
    record="everyone",
)
JOURNEY_TOUGHNESS_SPEC = ActionSpec(
    "journey.toughness",
    NoParams,
    section=f"{SECTION} (Toughness Tests)",
    who=Who.REFEREE,
    summary="one Toughness Test for every traveller, then the Chaos Dice",
    record="everyone",
)
JOURNEY_CAMP_SPEC = ActionSpec(
    "journey.camp",
    NoParams,
    section=f"{SECTION} (Strike Camp)",
    who=Who.REFEREE,
    summary="24 hours of rest: Peril recovers",
    record="everyone",
)
JOURNEY_END_STRETCH = ActionSpec(
    "journey.end_stretch",
    NoParams,
    section=f"{SECTION} (Stretches)",
    who=Who.REFEREE,
    summary="the Stretch's days and provisions; on to the next",
    record="everyone",
)
JOURNEY_END = ActionSpec(
    "journey.end",
    JourneyEnd,
    section=SECTION,
    who=Who.REFEREE,
    summary="journey's end (Fortune Points if the GM awards them)",
    record="everyone",
)
SPECS = (
    JOURNEY_START,
    JOURNEY_ROLES,
    JOURNEY_TOUGHNESS_SPEC,
    JOURNEY_CAMP_SPEC,
    JOURNEY_END_STRETCH,
    JOURNEY_END,
)
"""The actions of a journey."""


def terrain_difficulty(terrain: str | int, *, bad_weather: bool = False) -> int:
    """A terrain's Difficulty Rating (a terrain the text lists, a rating's name, or a modifier);
    bad weather makes it one step worse."""
    modifier: int | None = None
    if isinstance(terrain, str):
        for step in terrain_steps():
            if terrain.strip().lower() in [t.lower() for t in step.terrains]:
                modifier = step.modifier
    if modifier is None:
        try:
            modifier = difficulty(terrain)
        except RuleError:
            words = ", ".join(t for step in terrain_steps() for t in step.terrains)
            raise RuleError(
                "Terrain",
                f"{terrain!r} is neither a terrain the text lists ({words}) nor a Difficulty "
                "Rating (Trivial … Arduous, or +30 … -30)",
            ) from None
    return step_difficulty(modifier, 1) if bad_weather else modifier


def threat_level(threat: str | int) -> int:
    """A Threat Level as its number of Chaos Dice (0–3), from its name or number."""
    levels = threat_levels()
    if isinstance(threat, int) and not isinstance(threat, bool):
        if 0 <= threat < len(levels):
            return threat
    else:
        for t in levels:
            if t.level.lower() == str(threat).strip().lower():
                return t.chaos_dice
    names = ", ".join(t.level for t in levels)
    raise RuleError("Threat Level", f"{threat!r} is not a Threat Level ({names}, or 0-3)")


def step_threat(threat: int, steps: int) -> int:
    """Threat Level ``steps`` up (positive) or down, kept between No Danger and Highly Dangerous.

    >>> step_threat(0, -1), step_threat(3, 1), step_threat(1, 1)
    (0, 3, 2)
    """
    return max(0, min(len(threat_levels()) - 1, threat + steps))


def toughness_tests(length: str) -> int:
    """Toughness Tests a Stretch calls for: short 1, medium 2, long 3."""
    lengths = stretch_lengths()
    if length not in lengths:
        raise RuleError("Stretches", f"a Stretch is short, medium or long, not {length!r}")
    return lengths[length].toughness_tests


STRETCH_DAYS: dict[str, tuple[int, int | None]] = {
    "short": (1, 7),
    "medium": (7, 20),
    "long": (21, None),
}
"""Days of travel by Stretch length: "A Short Stretch is about anything from a day to a week's
travel", "A Medium Stretch is somewhere between a week or two", "A Long Stretch is three weeks
or more" (house rules, "Wilderness travel rules"); a Medium Stretch runs up to the Long's three
weeks (Referee's ruling)."""


def stretch_length_and_days(length: str | None, days: int | None) -> tuple[str, int]:
    """A Stretch's length and days of travel, each from the other when one is not given.

    >>> stretch_length_and_days(None, 10), stretch_length_and_days("long", None)
    (('medium', 10), ('long', 21))
    >>> stretch_length_and_days("short", 30)
    Traceback (most recent call last):
    ...
    referee.core.errors.RuleError: Stretches: a short Stretch is 1 to 7 days of travel, not 30
    """
    if length is None:
        if days is None:
            return "short", 1
        for name, (low, high) in STRETCH_DAYS.items():
            if days >= low and (high is None or days <= high):
                return name, days
    toughness_tests(str(length))
    low, high = STRETCH_DAYS[str(length)]
    if days is None:
        return str(length), low
    if days < low or (high is not None and days > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise RuleError("Stretches", f"a {length} Stretch is {span} days of travel, not {days}")
    return str(length), days


def parse_stretch(data: Any, index: int, path: tuple[str | int, ...] = ()) -> Stretch:
    """A Stretch from a route file's entry; :class:`ScenarioError` names the bad field."""
    where = (*path, index)
    if not isinstance(data, Mapping):
        raise ScenarioError("a Stretch is a mapping (name, length, terrain, threat, days)", where)
    for flag in ("bad_weather", "conveyed"):
        if not isinstance(data.get(flag, False), bool):
            raise ScenarioError(f"true or false, not {data.get(flag)!r}", (*where, flag))
    try:
        bad = bool(data.get("bad_weather", False))
        terrain = terrain_difficulty(data.get("terrain", "Standard"), bad_weather=bad)
        threat = threat_level(data.get("threat", 0))
    except RuleError as error:
        raise ScenarioError(error.reason, where) from None
    days = data.get("days")
    if days is not None and (not isinstance(days, int) or isinstance(days, bool) or days < 1):
        raise ScenarioError(
            f"days of travel is a whole number of at least 1, not {days!r}", (*where, "days")
        )
    length = data.get("length")
    try:
        length, days = stretch_length_and_days(None if length is None else str(length), days)
    except RuleError as error:
        raise ScenarioError(error.reason, where) from None
    return Stretch(
        name=str(data.get("name") or f"stretch {index + 1}"),
        length=length,
        terrain=terrain,
        threat=threat,
        days=days,
        conveyed=bool(data.get("conveyed", False)),
        bad_weather=bad,
    )


def _journey(state: ZweihanderState, kind: str) -> JourneyState:
    if state.journey is None:
        raise RuleError(kind, "no journey is under way (start one with journey.start)")
    if state.journey.ended:
        raise RuleError(kind, "the journey has ended")
    return state.journey


def start_payload(
    state: ZweihanderState, route: RouteParams | Mapping[str, Any], path: tuple[str | int, ...] = ()
) -> dict[str, Any]:
    """The ``journey.started`` payload from a route (``travellers`` and ``stretches``)."""
    data: Mapping[str, Any] = (
        route.model_dump(exclude_unset=True) if isinstance(route, RouteParams) else route
    )
    travellers = data.get("travellers")
    if not isinstance(travellers, list) or not travellers:
        raise ScenarioError("a list of the travelling characters", (*path, "travellers"))
    for t in travellers:
        try:
            state.character(str(t))
        except RuleError as error:
            raise ScenarioError(error.reason, (*path, "travellers")) from None
    stretches = data.get("stretches")
    if not isinstance(stretches, list) or not stretches:
        raise ScenarioError("a list of Stretches", (*path, "stretches"))
    if len(set(map(str, travellers))) != len(travellers):
        raise ScenarioError("a traveller is named twice", (*path, "travellers"))
    parsed = [parse_stretch(s, i, (*path, "stretches")) for i, s in enumerate(stretches)]
    return {
        "travellers": [str(t) for t in travellers],
        "stretches": [
            {
                "name": s.name,
                "length": s.length,
                "terrain": s.terrain,
                "threat": s.threat,
                "days": s.days,
                "conveyed": s.conveyed,
                "bad_weather": s.bad_weather,
            }
            for s in parsed
        ],
    }


def decide(
    state: ZweihanderState, action: Action, dice: DiceSource, evolve_all: Any
) -> list[Event]:
    """The events of a journey action."""
    out = Emitter(state, evolve_all)
    kind = action.kind
    if kind == JOURNEY_START.kind:
        if state.journey is not None and not state.journey.ended:
            raise RuleError(kind, "a journey is already under way")
        try:
            payload = start_payload(state, JOURNEY_START.of(action))
        except ScenarioError as error:
            raise RuleError(kind, str(error)) from None
        out.emit(JOURNEY_STARTED, payload)
    elif kind == JOURNEY_ROLES.kind:
        _roles(out, JOURNEY_ROLES.of(action), dice)
    elif kind == JOURNEY_TOUGHNESS_SPEC.kind:
        _toughness(out, dice)
    elif kind == JOURNEY_CAMP_SPEC.kind:
        _camp(out)
    elif kind == JOURNEY_END_STRETCH.kind:
        j = _journey(state, kind)
        if j.phase != "toughness" or j.toughness_tests_left > 0:
            raise RuleError(
                kind,
                f"the Stretch is not done: {j.toughness_tests_left} Toughness "
                f"Tests left (phase {j.phase})",
            )
        days = j.stretch.days
        out.emit(
            JOURNEY_STRETCH_ENDED,
            {
                "stretch": j.stretch.name,
                "days": days,
                "provisions_per_day": j.provisions_per_day,
                "provisions": days * j.provisions_per_day * len(_able(out.state, j)),
            },
        )
        _pass_time(out)
    elif kind == JOURNEY_END.kind:
        j = _journey(state, kind)
        award = JOURNEY_END.of(action).award_fortune
        survivors = [t for t in j.travellers if not out.state.character(t).is_slain]
        out.emit(
            JOURNEY_ENDED,
            {
                "survivors": survivors,
                "fortune_points": len(survivors) if award else 0,
            },
        )
    else:
        raise RuleError("Wilderness travel", f"no journey action {kind!r}")
    return out.events


CAMP_HOURS = 24
"""Striking Camp takes 24 hours."""


def _pass_time(out: Emitter) -> None:
    """Release every wait the journey's days have now passed (:mod:`.waits`)."""
    for event in waits.due(out.state):
        if event.kind.startswith("timer."):
            out.events.append(event)
        else:
            out.emit(event.kind, event.payload)


def _able(state: ZweihanderState, j: JourneyState) -> list[str]:
    return [t for t in j.travellers if not state.character(t).is_slain]


def _roles(out: Emitter, p: Roles, dice: DiceSource) -> None:
    j = _journey(out.state, "journey.roles")
    if j.phase != "roles":
        raise RuleError("journey.roles", "Role Checks are made at the beginning of a Stretch")
    filled = {role: getattr(p, role) for role in ROLES}
    helping = {role: tuple(getattr(p.assists, role)) for role in ROLES}
    taken: dict[str, str] = {}
    for role in ROLES:
        for who in ([filled[role]] if filled[role] is not None else []) + list(helping[role]):
            if who not in j.travellers:
                raise RuleError("journey.roles", f"{who!r} is not travelling")
            if who in taken:
                raise RuleError("journey.roles (Roles)", f"{who} already has a Role ({taken[who]})")
            c = out.state.character(who)
            if c.is_slain or c.is_incapacitated:
                state = "Slain!" if c.is_slain else c.peril_condition
                raise RuleError("journey.roles (Roles)", f"{who} is {state} and cannot help")
            taken[who] = role
    idle = [
        t
        for t in j.travellers
        if t not in taken
        and not (out.state.character(t).is_slain or out.state.character(t).is_incapacitated)
    ]
    if idle:
        raise RuleError(
            "journey.roles (Roles)",
            f"each character must take a Role or assist another: {', '.join(idle)}",
        )
    terrain = j.stretch.terrain
    threat = j.stretch.threat
    for table, role in zip(role_tables(), ROLES, strict=True):
        who = filled[role]
        helpers = helping[role]
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
            c = out.state.character(str(who))
            test = SkillTest(c.chance(table.skill), terrain, assist=bool(helpers))
            result = test.roll(dice)
            outcome = result.outcome
            payload["test"] = test_json(test, result, table.skill)
            payload["roll"] = test_card(
                test,
                result,
                f"{table.role} {title_of(who)} tests {table.skill}",
                f"{SECTION} (Roles)",
            )
        payload["outcome"] = outcome.value
        payload["result"] = table.results[outcome.value]
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
        out.emit(JOURNEY_ROLE_CHECK, payload)
    after = out.state.journey
    if after is not None and after.toughness_tests_left == 0:
        # No Toughness Test left (the Survivalist's Critical Success on a Short Stretch): the
        # Threat Level's Chaos Dice are still rolled at the beginning of the Stretch.
        _chaos(out, after, dice)


def _chaos(out: Emitter, j: JourneyState, dice: DiceSource) -> None:
    chaos = ChaosDice(j.threat)
    rolled = chaos.roll(dice)
    out.emit(
        JOURNEY_CHAOS,
        {
            "chaos_dice": j.threat,
            "faces": list(rolled.faces),
            "odds": str(chaos.odds()),
            "encounter": rolled.triggered,
            "surprise": j.surprise if rolled.triggered else None,
            "roll": chaos_card(
                chaos, rolled, "the Threat Level's Chaos Dice", f"{SECTION} (Threat Level)"
            ),
        },
    )


def _toughness(out: Emitter, dice: DiceSource) -> None:
    j = _journey(out.state, "journey.toughness")
    if j.phase != "toughness" or j.toughness_tests_left <= 0:
        raise RuleError("journey.toughness", "no Toughness Test is due on this Stretch")
    words = toughness_results()
    results = []
    rolls = []
    changed = []
    unhindered = []
    for t in j.travellers:
        c = out.state.character(t)
        if c.is_slain or c.is_incapacitated:
            continue
        test = SkillTest(c.chance("Toughness"), j.terrain, assist=j.stretch.conveyed)
        result = test.roll(dice)
        entry: dict[str, Any] = {
            "character": t,
            "test": test_json(test, result, "Toughness"),
            "result": words[result.outcome.value],
        }
        rolls.append(
            test_card(
                test, result, f"{title_of(t)} tests Toughness", f"{SECTION} (Toughness Tests)"
            )
        )
        if not result.is_success:
            peril, faces = roll_peril(words[f"{result.outcome.value} peril"], dice)
            after = c.suffer_peril(peril)
            entry.update(
                peril=peril, peril_faces=list(faces), peril_condition=after.peril_condition
            )
            changed.append(after)
        if result.outcome is Outcome.CRITICAL_SUCCESS:
            unhindered.append(t)
        results.append(entry)
    out.emit(
        JOURNEY_TOUGHNESS,
        {"tests": results, "unhindered_at_camp": unhindered, "rolls": rolls},
        characters=changed,
    )
    _chaos(out, j, dice)


def _camp(out: Emitter) -> None:
    j = _journey(out.state, "journey.camp")
    if j.phase == "roles" and j.index == 0 and j.days == 0:
        raise RuleError("journey.camp", "the party has not travelled yet")
    changed = []
    recovered: dict[str, str] = {}
    for t in j.travellers:
        c = out.state.character(t)
        if c.is_slain:
            continue
        if t in out.state.no_recovery:
            recovered[t] = f"{c.peril_condition} (no recovery: forced march)"
            continue
        to = "Unhindered" if t in j.unhindered_at_camp else j.camp_recovery
        after = c.recover_to(to)
        recovered[t] = after.peril_condition
        changed.append(after)
    out.emit(JOURNEY_CAMP, {"hours": CAMP_HOURS, "recovered": recovered}, characters=changed)
    _pass_time(out)


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a journey event into the state."""
    d = event.data
    if event.kind == JOURNEY_STARTED:
        stretches = tuple(
            Stretch(
                str(s["name"]),
                str(s["length"]),
                int(s["terrain"]),
                int(s["threat"]),
                int(s["days"]),
                bool(s["conveyed"]),
                bool(s["bad_weather"]),
            )
            for s in _items(d["stretches"])
        )
        first = stretches[0]
        return replace(
            state,
            journey=JourneyState(
                travellers=tuple(str(t) for t in _items(d["travellers"])),
                stretches=stretches,
                terrain=first.terrain,
                threat=first.threat,
            ),
        )
    j = state.journey
    if j is None:
        return state
    if event.kind == JOURNEY_ROLE_CHECK:
        if "provisions_per_day" in d:
            j = replace(
                j,
                provisions_per_day=int(str(d["provisions_per_day"])),
                terrain=int(str(d["terrain"])),
            )
        elif "camp_recovery" in d:
            j = replace(
                j,
                camp_recovery=str(d["camp_recovery"]),
                toughness_tests_left=int(str(d["toughness_tests"])),
                unhindered_at_camp=(),
            )
        else:
            surprise = d.get("surprise")
            j = replace(
                j,
                threat=int(str(d["threat"])),
                phase="toughness",
                surprise=None if surprise is None else str(surprise),
            )
    elif event.kind == JOURNEY_TOUGHNESS:
        j = replace(
            j,
            toughness_tests_left=j.toughness_tests_left - 1,
            unhindered_at_camp=tuple(
                sorted(
                    set(j.unhindered_at_camp) | {str(t) for t in _items(d["unhindered_at_camp"])}
                )
            ),
        )
    elif event.kind == JOURNEY_CHAOS:
        j = replace(j, encounters=j.encounters + (1 if d.get("encounter") else 0))
    elif event.kind == JOURNEY_CAMP:
        j = replace(j, days=j.days + 1)
        state = replace(state, travel_hours=state.travel_hours + int(str(d.get("hours", 24))))
    elif event.kind == JOURNEY_STRETCH_ENDED:
        j = replace(
            j,
            days=j.days + int(str(d["days"])),
            provisions=j.provisions + int(str(d["provisions"])),
        )
        state = replace(state, travel_hours=state.travel_hours + 24 * int(str(d["days"])))
        if j.index + 1 < len(j.stretches):
            nxt = j.stretches[j.index + 1]
            j = replace(
                j,
                index=j.index + 1,
                phase="roles",
                terrain=nxt.terrain,
                threat=nxt.threat,
                surprise=None,
            )
        else:
            j = replace(j, phase="done")
    elif event.kind == JOURNEY_ENDED:
        j = replace(j, ended=True)
        state = replace(state, fortune_points=state.fortune_points + int(str(d["fortune_points"])))
    return replace(state, journey=j)


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


# ------------------------------------------------------------------------------ choices

EXAMPLE_ROUTE: tuple[Json, ...] = (
    [{"name": "the old road", "length": "short", "terrain": "trails", "threat": 1, "days": 2}],
    [
        {"name": "the forest", "length": "medium", "terrain": "marshes", "days": 10},
        {"name": "the peaks", "length": "long", "terrain": "mountains", "threat": 2, "days": 21},
    ],
)
"""Routes a random GM may pick (a form asks for the GM's own)."""


def _fit(state: ZweihanderState, who: str) -> bool:
    c = state.character(who)
    return not (c.is_slain or c.is_incapacitated)


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
                {"travellers": SomeOf(names, least=1), "stretches": OneOf(EXAMPLE_ROUTE)},
                label="set out on a journey",
            )
        ]
    out: list[Choice] = []
    if j.phase == "roles":
        out += [
            Choice(
                actor,
                JOURNEY_ROLES.kind,
                {name: OneOf((value,)) for name, value in assignment.items()},
                label="assign the Roles: "
                + ", ".join(f"{r} {assignment.get(r) or 'nobody'}" for r in ROLES),
            )
            for assignment in _assignments(state, j)
        ]
    elif j.phase == "toughness" and j.toughness_tests_left > 0:
        if all("Toughness" in state.character(t).skills for t in j.travellers if _fit(state, t)):
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


MAX_ASSIGNMENTS = 12
"""The most Role assignments offered as choices (a form asks for any other)."""


def _assignments(state: ZweihanderState, j: JourneyState) -> list[dict[str, Json]]:
    """Ways to give each Role to a different fit traveller who has its Skill (or to nobody:
    the check fails), every other fit traveller assisting the Guide."""
    fit = [t for t in j.travellers if _fit(state, t)]
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


def previews(state: ZweihanderState) -> list[OddsPreview]:
    """The next Toughness Tests of the Stretch, with their odds."""
    j = state.journey
    if j is None or j.ended or j.phase != "toughness" or j.toughness_tests_left <= 0:
        return []
    out = []
    for t in j.travellers:
        c = state.character(t)
        if c.is_slain or c.is_incapacitated or "Toughness" not in c.skills:
            continue
        test = SkillTest(c.chance("Toughness"), j.terrain, assist=j.stretch.conveyed)
        out.append(
            test_preview(test, f"{title_of(t)} tests Toughness", f"{SECTION} (Toughness Tests)")
        )
    return out


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
            options = _assignments(table.state, j)
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
