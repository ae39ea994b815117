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

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.core import Action, Event, Outcome, RuleError, ScenarioError
from referee.dice import DiceSource
from referee.systems.zweihander import params as P
from referee.systems.zweihander.emit import Emitter, test_json
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
    "decide",
    "evolve",
    "parse_stretch",
    "step_threat",
    "terrain_difficulty",
    "threat_level",
    "toughness_tests",
]

ROLES = ("guide", "survivalist", "scout")
"""The Roles, in the order their checks are made."""

KINDS = frozenset(
    {
        "journey.started",
        "journey.role_check",
        "journey.toughness",
        "journey.chaos",
        "journey.camp",
        "journey.stretch_ended",
        "journey.ended",
    }
)
"""The event kinds a journey emits."""


def terrain_difficulty(terrain: str | int, *, bad_weather: bool = False) -> int:
    """A terrain's Difficulty Rating (a terrain the text lists, a rating's name, or a modifier);
    bad weather makes it one step worse."""
    modifier: int | None = None
    if isinstance(terrain, str):
        for step in terrain_steps():
            if terrain.strip().lower() in [t.lower() for t in step.terrains]:
                modifier = step.modifier
    if modifier is None:
        modifier = difficulty(terrain)
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


def parse_stretch(data: Any, index: int, path: tuple[str | int, ...] = ()) -> Stretch:
    """A Stretch from a route file's entry; :class:`ScenarioError` names the bad field."""
    where = (*path, index)
    if not isinstance(data, Mapping):
        raise ScenarioError("a Stretch is a mapping (name, length, terrain, threat, days)", where)
    for flag in ("bad_weather", "conveyed"):
        if not isinstance(data.get(flag, False), bool):
            raise ScenarioError(f"true or false, not {data.get(flag)!r}", (*where, flag))
    try:
        length = str(data.get("length", "short"))
        toughness_tests(length)
        bad = bool(data.get("bad_weather", False))
        terrain = terrain_difficulty(data.get("terrain", "Standard"), bad_weather=bad)
        threat = threat_level(data.get("threat", 0))
    except RuleError as error:
        raise ScenarioError(error.reason, where) from None
    days = data.get("days", 1)
    if not isinstance(days, int) or days < 1:
        raise ScenarioError(
            f"days of travel is a whole number of at least 1, not {days!r}", (*where, "days")
        )
    return Stretch(
        name=str(data.get("name", f"stretch {index + 1}")),
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
    state: ZweihanderState, data: Mapping[str, Any], path: tuple[str | int, ...] = ()
) -> dict[str, Any]:
    """The ``journey.started`` payload from a route (``travellers`` and ``stretches``)."""
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
    kind, p = action.kind, action.params
    if kind == "journey.start":
        if state.journey is not None and not state.journey.ended:
            raise RuleError(kind, "a journey is already under way")
        try:
            payload = start_payload(state, p)
        except ScenarioError as error:
            raise RuleError(kind, str(error)) from None
        out.emit("journey.started", payload)
    elif kind == "journey.roles":
        _roles(out, p, dice)
    elif kind == "journey.toughness":
        _toughness(out, dice)
    elif kind == "journey.camp":
        _camp(out)
    elif kind == "journey.end_stretch":
        j = _journey(state, kind)
        if j.phase != "toughness" or j.toughness_tests_left > 0:
            raise RuleError(
                kind,
                f"the Stretch is not done: {j.toughness_tests_left} Toughness "
                f"Tests left (phase {j.phase})",
            )
        days = j.stretch.days
        out.emit(
            "journey.stretch_ended",
            {
                "stretch": j.stretch.name,
                "days": days,
                "provisions_per_day": j.provisions_per_day,
                "provisions": days * j.provisions_per_day * len(_able(out.state, j)),
            },
        )
    elif kind == "journey.end":
        j = _journey(state, kind)
        award = P.boolean(p, "award_fortune", kind)
        survivors = [t for t in j.travellers if not out.state.character(t).is_slain]
        out.emit(
            "journey.ended",
            {
                "survivors": survivors,
                "fortune_points": len(survivors) if award else 0,
            },
        )
    else:
        raise RuleError("Wilderness travel", f"no journey action {kind!r}")
    return out.events


def _able(state: ZweihanderState, j: JourneyState) -> list[str]:
    return [t for t in j.travellers if not state.character(t).is_slain]


def _roles(out: Emitter, p: Mapping[str, Any], dice: DiceSource) -> None:
    j = _journey(out.state, "journey.roles")
    if j.phase != "roles":
        raise RuleError("journey.roles", "Role Checks are made at the beginning of a Stretch")
    assists = P.mapping(p, "assists", "journey.roles")
    taken: dict[str, str] = {}
    for role in ROLES:
        for who in ([p[role]] if role in p else []) + list(
            P.strings(assists, role, "journey.roles")
        ):
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
        who = p.get(role)
        helpers = P.strings(assists, role, "journey.roles")
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
        out.emit("journey.role_check", payload)
    after = out.state.journey
    if after is not None and after.toughness_tests_left == 0:
        # No Toughness Test left (the Survivalist's Critical Success on a Short Stretch): the
        # Threat Level's Chaos Dice are still rolled at the beginning of the Stretch.
        _chaos(out, after, dice)


def _chaos(out: Emitter, j: JourneyState, dice: DiceSource) -> None:
    chaos = ChaosDice(j.threat)
    rolled = chaos.roll(dice)
    out.emit(
        "journey.chaos",
        {
            "chaos_dice": j.threat,
            "faces": list(rolled.faces),
            "odds": str(chaos.odds()),
            "encounter": rolled.triggered,
            "surprise": j.surprise if rolled.triggered else None,
        },
    )


def _toughness(out: Emitter, dice: DiceSource) -> None:
    j = _journey(out.state, "journey.toughness")
    if j.phase != "toughness" or j.toughness_tests_left <= 0:
        raise RuleError("journey.toughness", "no Toughness Test is due on this Stretch")
    words = toughness_results()
    results = []
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
        "journey.toughness",
        {"tests": results, "unhindered_at_camp": unhindered},
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
    out.emit("journey.camp", {"hours": 24, "recovered": recovered}, characters=changed)


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold a journey event into the state."""
    d = event.data
    if event.kind == "journey.started":
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
    if event.kind == "journey.role_check":
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
    elif event.kind == "journey.toughness":
        j = replace(
            j,
            toughness_tests_left=j.toughness_tests_left - 1,
            unhindered_at_camp=tuple(
                sorted(
                    set(j.unhindered_at_camp) | {str(t) for t in _items(d["unhindered_at_camp"])}
                )
            ),
        )
    elif event.kind == "journey.chaos":
        j = replace(j, encounters=j.encounters + (1 if d.get("encounter") else 0))
    elif event.kind == "journey.camp":
        j = replace(j, days=j.days + 1)
    elif event.kind == "journey.stretch_ended":
        j = replace(
            j,
            days=j.days + int(str(d["days"])),
            provisions=j.provisions + int(str(d["provisions"])),
        )
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
    elif event.kind == "journey.ended":
        j = replace(j, ended=True)
        state = replace(state, fortune_points=state.fortune_points + int(str(d["fortune_points"])))
    return replace(state, journey=j)


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []
