"""Stretches of a journey (house rules, "Wilderness travel rules"): the route, Terrain, Threat
Level, and the journey from its start (``journey.start``, or the setup's ``journey``) through
each Stretch's end (``journey.end_stretch``) to journey's end (``journey.end``).

"The GM divides the route into manageable Stretches": a Short one is a day to a week's travel
(1 Toughness Test), a Medium one a week or two (2), a Long one three weeks or more (3). Terrain
gives the Difficulty Rating of the Stretch's Role Checks and Toughness Tests ("Bad weather
increases the terrain type by one step"); the Threat Level is the number of Chaos Dice rolled
"at the beginning of a Stretch" (No Danger 0 … Highly Dangerous 3).

>>> terrain_difficulty("mountains"), terrain_difficulty("trails", bad_weather=True)
(-30, 0)
>>> threat_level("Moderately Dangerous")
2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from referee.core import (
    Action,
    ActionSpec,
    Builder,
    Event,
    NoParams,
    Params,
    RuleError,
    ScenarioError,
    Who,
)
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander import waits
from referee.systems.zweihander.emit import chaos_card
from referee.systems.zweihander.events import (
    JOURNEY_CHAOS,
    JOURNEY_ENDED,
    JOURNEY_STARTED,
    JOURNEY_STRETCH_ENDED,
)
from referee.systems.zweihander.percentile import ChaosDice, difficulty, step_difficulty
from referee.systems.zweihander.state import JourneyState, Stretch, ZweihanderState
from referee.systems.zweihander.tables import stretch_lengths, terrain_steps, threat_levels

__all__ = [
    "JOURNEY_END",
    "JOURNEY_END_STRETCH",
    "JOURNEY_START",
    "SECTION",
    "STRETCH_DAYS",
    "JourneyEnd",
    "RouteParams",
    "StretchParams",
    "end_journey",
    "end_stretch",
    "fold_chaos",
    "fold_ended",
    "fold_started",
    "fold_stretch_ended",
    "journey_under_way",
    "parse_stretch",
    "pass_time",
    "roll_chaos",
    "start_journey",
    "start_payload",
    "step_threat",
    "stretch_length_and_days",
    "terrain_difficulty",
    "threat_level",
    "toughness_tests",
]

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


def journey_under_way(state: ZweihanderState, kind: str) -> JourneyState:
    """The journey under way; :class:`RuleError` (naming the action ``kind``) if none is."""
    if state.journey is None:
        raise RuleError(kind, "no journey is under way (start one with journey.start)")
    if state.journey.ended:
        raise RuleError(kind, "the journey has ended")
    return state.journey


def start_journey(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``journey.start``: the travellers and the Stretches of the route."""
    kind = action.kind
    if b.state.journey is not None and not b.state.journey.ended:
        raise RuleError(kind, "a journey is already under way")
    try:
        payload = start_payload(b.state, JOURNEY_START.of(action))
    except ScenarioError as error:
        raise RuleError(kind, str(error)) from None
    b.emit(JOURNEY_STARTED, payload)


def end_stretch(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``journey.end_stretch``: its days pass and its provisions are eaten (per day and per
    living traveller, as the Guide's Role Check set); on to the next Stretch."""
    kind = action.kind
    j = journey_under_way(b.state, kind)
    if j.phase != "toughness" or j.toughness_tests_left > 0:
        raise RuleError(
            kind,
            f"the Stretch is not done: {j.toughness_tests_left} Toughness "
            f"Tests left (phase {j.phase})",
        )
    days = j.stretch.days
    living = [t for t in j.travellers if not b.state.character(t).is_slain]
    b.emit(
        JOURNEY_STRETCH_ENDED,
        {
            "stretch": j.stretch.name,
            "days": days,
            "provisions_per_day": j.provisions_per_day,
            "provisions": days * j.provisions_per_day * len(living),
        },
    )
    pass_time(b)


def end_journey(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``journey.end``: the survivors, and a Fortune Point each if the GM awards them."""
    j = journey_under_way(b.state, action.kind)
    award = JOURNEY_END.of(action).award_fortune
    survivors = [t for t in j.travellers if not b.state.character(t).is_slain]
    b.emit(
        JOURNEY_ENDED,
        {"survivors": survivors, "fortune_points": len(survivors) if award else 0},
    )


def pass_time(b: Builder[ZweihanderState]) -> None:
    """Release every wait the journey's days have now passed (:mod:`.waits`)."""
    b.extend(waits.due(b.state))


def roll_chaos(b: Builder[ZweihanderState], j: JourneyState, dice: DiceSource) -> None:
    """The Threat Level's Chaos Dice: an encounter if any shows a 6 (with the Scout's Surprise
    Turn, if any)."""
    chaos = ChaosDice(j.threat)
    rolled = chaos.roll(dice)
    b.emit(
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


def fold_started(state: ZweihanderState, event: Event) -> ZweihanderState:
    """``journey.started``: the journey, at the first Stretch's Terrain and Threat Level."""
    d = event.data
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
    return evolved(
        state,
        journey=JourneyState(
            travellers=tuple(str(t) for t in _items(d["travellers"])),
            stretches=stretches,
            terrain=first.terrain,
            threat=first.threat,
        ),
    )


def fold_chaos(state: ZweihanderState, j: JourneyState, data: Any) -> ZweihanderState:
    """``journey.chaos``: one more encounter if the dice triggered."""
    j = evolved(j, encounters=j.encounters + (1 if data.get("encounter") else 0))
    return evolved(state, journey=j)


def fold_stretch_ended(state: ZweihanderState, j: JourneyState, data: Any) -> ZweihanderState:
    """``journey.stretch_ended``: the days and provisions counted, the travel hours passed;
    the next Stretch's Role Checks (or, after the last, the journey is done)."""
    days = int(str(data["days"]))
    j = evolved(j, days=j.days + days, provisions=j.provisions + int(str(data["provisions"])))
    state = evolved(state, travel_hours=state.travel_hours + 24 * days)
    if j.index + 1 < len(j.stretches):
        nxt = j.stretches[j.index + 1]
        j = evolved(
            j,
            index=j.index + 1,
            phase="roles",
            terrain=nxt.terrain,
            threat=nxt.threat,
            surprise=None,
        )
    else:
        j = evolved(j, phase="done")
    return evolved(state, journey=j)


def fold_ended(state: ZweihanderState, j: JourneyState, data: Any) -> ZweihanderState:
    """``journey.ended``: the Fortune Points awarded."""
    fortune = state.fortune_points + int(str(data["fortune_points"]))
    return evolved(state, journey=evolved(j, ended=True), fortune_points=fortune)


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []
