"""Overland exploration (house rules, "Overland exploration / Distance").

Miles per day by traveller or vehicle and route (road, path, river, sea); a Forced march adds
10 miles and calls for a Hard (−20%) Toughness Test not to be Incapacitated! at the end of the
day (then unable to recuperate for 24 hours); waterways give up to +10 miles downstream or with
good winds, up to −10 upstream; bad weather subtracts 10 miles (at sea, a Pilot Test may be
needed to avoid capsizing).

>>> miles_per_day("horse", "road")
40
>>> miles_per_day("river barge", "river", current=10, bad_weather=True)
20
>>> Leg(distance=100, transport="human", route="road").days
7
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from referee.core import (
    HOUR,
    REFEREE,
    Action,
    ActionSpec,
    Builder,
    Choice,
    Event,
    Params,
    RuleError,
    ScenarioError,
    SomeOf,
    Who,
    set_timer,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander import waits
from referee.systems.zweihander.character import INCAPACITATED
from referee.systems.zweihander.emit import character_payload, test_card, test_json
from referee.systems.zweihander.events import FORCED_MARCH, RECOVERY_ALLOWED
from referee.systems.zweihander.percentile import SkillTest, difficulty
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import (
    ROUTES,
    MilesPerDay,
    miles_per_day_table,
    overland_rules,
)

__all__ = [
    "FORCED_MARCH_SPEC",
    "MINIMUM_MILES_PER_DAY",
    "Leg",
    "Route",
    "choices",
    "decide_forced_march",
    "evolve",
    "forced_march_test",
    "miles_per_day",
    "needs_pilot_test",
    "transport_row",
]

MINIMUM_MILES_PER_DAY = 1
"""Referee's ruling: adjustments never bring a day's travel below 1 mile."""


def transport_row(transport: str) -> MilesPerDay:
    """The Distance table row naming ``transport`` ("horse", "dwarf", "river barge" …)."""
    wanted = transport.strip().lower()
    for row in miles_per_day_table():
        names = [n.strip() for n in row.transport.replace("(on foot)", "").split(",")]
        if wanted == row.transport.lower() or wanted in [n.lower() for n in names]:
            return row
    known = "; ".join(r.transport for r in miles_per_day_table())
    raise RuleError("Overland exploration", f"no transport {transport!r} in the table ({known})")


def miles_per_day(
    transport: str,
    route: str,
    *,
    forced_march: bool = False,
    current: int = 0,
    bad_weather: bool = False,
) -> int:
    """Miles per day: the table, + 10 for a Forced march, + ``current`` on waterways (−10 to +10:
    downstream or good winds up to +10, upstream up to −10), − 10 in bad weather; at least 1.

    Refuses a route the table marks "-" for that transport, a ``current`` outside −10…+10 or off
    a river or sea, and a forced march on water.
    """
    rules = overland_rules()
    if route not in ROUTES:
        raise RuleError(
            "Overland exploration", f"route is one of {', '.join(ROUTES)}, not {route!r}"
        )
    row = transport_row(transport)
    base = row.on(route)
    if base is None:
        raise RuleError("Overland exploration", f'{row.transport} cannot travel by {route} ("-")')
    if not rules["upstream"] <= current <= rules["downstream"]:
        raise RuleError("Waterways", f"up to +10 downstream, up to -10 upstream, not {current:+d}")
    if current and route not in ("river", "sea"):
        raise RuleError("Waterways", f"a current or winds apply on river or sea, not on a {route}")
    if forced_march and route in ("river", "sea"):
        raise RuleError("Forced march", "a forced march is made on road or path")
    miles = base + current
    if forced_march:
        miles += rules["forced_march"]
    if bad_weather:
        miles += rules["bad_weather"]
    return max(MINIMUM_MILES_PER_DAY, miles)


def forced_march_test(toughness: int) -> SkillTest:
    """The Forced march's Hard (−20%) Toughness Test, failed: Incapacitated! and no recovery for
    24 hours."""
    return SkillTest(toughness, difficulty("Hard"))


def needs_pilot_test(route: str, bad_weather: bool) -> bool:
    """Bad weather "on seas": a Pilot Test may be necessary to avoid capsizing."""
    return bad_weather and route == "sea"


@dataclass(frozen=True)
class Leg:
    """One leg of a route: its distance in miles, transport, route type and conditions."""

    distance: int
    transport: str
    route: str
    forced_march: bool = False
    current: int = 0
    bad_weather: bool = False

    @property
    def miles_per_day(self) -> int:
        """This leg's miles per day (:func:`miles_per_day`)."""
        return miles_per_day(
            self.transport,
            self.route,
            forced_march=self.forced_march,
            current=self.current,
            bad_weather=self.bad_weather,
        )

    @property
    def days(self) -> int:
        """Whole days to cover the leg (a part day counts as a day; Referee's ruling)."""
        if self.distance < 0:
            raise RuleError(
                "Overland exploration", f"a distance cannot be negative ({self.distance})"
            )
        return math.ceil(self.distance / self.miles_per_day)


@dataclass(frozen=True)
class Route:
    """A route of several legs; each leg starts on a new day.

    >>> Route((Leg(30, "horse", "road"), Leg(40, "knorr", "sea"))).days
    3
    """

    legs: Sequence[Leg]

    @property
    def days(self) -> int:
        """The days of all legs."""
        return sum(leg.days for leg in self.legs)

    @property
    def distance(self) -> int:
        """The miles of all legs."""
        return sum(leg.distance for leg in self.legs)

    @classmethod
    def from_data(cls, data: Any) -> Route:
        """A route from a file's data: ``legs: [{distance, transport, route, forced_march,
        current, bad_weather}]``; :class:`ScenarioError` names the bad leg and field.

        >>> Route.from_data({"legs": [{"distance": 40, "transport": "horse"}]}).days
        1
        """
        legs = data.get("legs") if isinstance(data, Mapping) else None
        if not isinstance(legs, list) or not legs:
            raise ScenarioError("a route is a list of legs", ("legs",))
        out = []
        for i, leg in enumerate(legs):
            if not isinstance(leg, Mapping):
                raise ScenarioError("a leg is a mapping: distance, transport, route", ("legs", i))
            distance = leg.get("distance")
            if not isinstance(distance, int) or distance < 0:
                raise ScenarioError(f"miles, 0 or more, not {distance!r}", ("legs", i, "distance"))
            for flag in ("forced_march", "bad_weather"):
                if not isinstance(leg.get(flag, False), bool):
                    raise ScenarioError(f"true or false, not {leg.get(flag)!r}", ("legs", i, flag))
            current = leg.get("current", 0)
            if not isinstance(current, int):
                raise ScenarioError(f"-10 to +10, not {current!r}", ("legs", i, "current"))
            built = Leg(
                distance,
                str(leg.get("transport", "human")),
                str(leg.get("route", "road")),
                bool(leg.get("forced_march", False)),
                current,
                bool(leg.get("bad_weather", False)),
            )
            try:
                built.days  # noqa: B018  (validates the leg against the table)
            except RuleError as error:
                raise ScenarioError(str(error), ("legs", i)) from None
            out.append(built)
        return cls(tuple(out))


# ------------------------------------------------------------------------------ at the table


class ForcedMarchParams(Params):
    """``travel.forced_march`` (the GM): the ``characters`` who march."""

    characters: list[str] = Field(min_length=1)


FORCED_MARCH_SPEC = ActionSpec(
    "travel.forced_march",
    ForcedMarchParams,
    section="Overland exploration / Forced march",
    who=Who.REFEREE,
    summary="a Hard Toughness Test for each marcher; failing it, Incapacitated! and no "
    "recovery for 24 hours",
    record="everyone",
)


def decide_forced_march(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``travel.forced_march``: each marcher's test; a failure sets a 24-hour timer."""
    who = FORCED_MARCH_SPEC.of(action).characters
    hours = overland_rules()["forced_march_recovery_hours"]
    for cid in who:
        c = b.state.character(cid)
        test = forced_march_test(c.chance("Toughness"))
        result = test.roll(dice)
        after = c if result.is_success else evolved(c, peril=INCAPACITATED)
        payload = {
            "character": cid,
            "test": test_json(test, result, "Toughness"),
            "roll": test_card(test, result, f"{title_of(cid)} force-marches", "Forced march"),
            "incapacitated": not result.is_success,
            "extra_miles": overland_rules()["forced_march"],
        }
        b.emit(FORCED_MARCH, character_payload(b.state, payload, [after]))
        if not result.is_success:
            b.add(
                set_timer(
                    f"forced-march:{cid}",
                    Event(RECOVERY_ALLOWED, {"character": cid}),
                    after=hours * HOUR,
                    label=f"{title_of(cid)} may recover from Peril again",
                )
            )


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a forced march: no recovery until the timer fires."""
    d = event.data
    if event.kind == FORCED_MARCH and d.get("incapacitated"):
        who = str(d["character"])
        hours = overland_rules()["forced_march_recovery_hours"]
        state = waits.wait(state, f"forced-march:{who}", hours)
        return evolved(state, no_recovery=(*state.no_recovery, who))
    if event.kind == RECOVERY_ALLOWED:
        who = str(d["character"])
        state = waits.release(state, f"forced-march:{who}")
        return evolved(state, no_recovery=tuple(c for c in state.no_recovery if c != who))
    return state


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The GM may call a forced march for those able to test Toughness."""
    able = tuple(
        c.id for c in state.characters if "Toughness" in c.skills and not c.is_incapacitated
    )
    if actor != REFEREE or not able:
        return []
    return [
        Choice(
            actor,
            FORCED_MARCH_SPEC.kind,
            {"characters": SomeOf(able, least=1)},
            label="a forced march",
        )
    ]
