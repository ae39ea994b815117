"""Toughness Tests on the road and Striking Camp (house rules, "Wilderness travel rules").

"Characters then must make a Toughness Test influenced by Terrain and the Guide's result
(possibly more than once, depending on the length of the journey and the Survivalist's result).
Add an Assist Die when characters are conveyed (i.e. not by foot)": a failure costs 2D10+2
Peril (3D10+3 on a Critical Failure), a Critical Success lets them recover to Unhindered if
they Strike Camp. The Threat Level's Chaos Dice are rolled after each round of tests
(``journey.toughness``). Striking Camp (``journey.camp``, 24 hours) recovers Peril to
Imperiled, or to Unhindered after the Survivalist's success or one's own Critical Success.
"""

from __future__ import annotations

from typing import Any

from referee.core import (
    Action,
    ActionSpec,
    Builder,
    NoParams,
    OddsPreview,
    Outcome,
    RuleError,
    Who,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.emit import character_payload, test_card, test_json, test_preview
from referee.systems.zweihander.events import JOURNEY_CAMP, JOURNEY_TOUGHNESS
from referee.systems.zweihander.percentile import SkillTest, roll_peril
from referee.systems.zweihander.state import JourneyState, ZweihanderState
from referee.systems.zweihander.stretches import (
    SECTION,
    journey_under_way,
    pass_time,
    roll_chaos,
)
from referee.systems.zweihander.tables import toughness_results

__all__ = [
    "CAMP_HOURS",
    "JOURNEY_CAMP_SPEC",
    "JOURNEY_TOUGHNESS_SPEC",
    "fold_camp",
    "fold_toughness",
    "strike_camp",
    "take_toughness_tests",
    "toughness_previews",
]

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
CAMP_HOURS = 24
"""Striking Camp takes 24 hours."""


def take_toughness_tests(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``journey.toughness``: every traveller able to tests Toughness at the Terrain (an Assist
    Die when conveyed); one event for all, then the Threat Level's Chaos Dice."""
    j = journey_under_way(b.state, "journey.toughness")
    if j.phase != "toughness" or j.toughness_tests_left <= 0:
        raise RuleError("journey.toughness", "no Toughness Test is due on this Stretch")
    words = toughness_results()
    results = []
    rolls = []
    changed = []
    unhindered = []
    for t in j.travellers:
        c = b.state.character(t)
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
    payload = {"tests": results, "unhindered_at_camp": unhindered, "rolls": rolls}
    b.emit(JOURNEY_TOUGHNESS, character_payload(b.state, payload, changed))
    roll_chaos(b, j, dice)


def strike_camp(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``journey.camp``: 24 hours of rest; each living traveller's Peril recovers (not for one
    a forced march left unable to recuperate)."""
    j = journey_under_way(b.state, "journey.camp")
    if j.phase == "roles" and j.index == 0 and j.days == 0:
        raise RuleError("journey.camp", "the party has not travelled yet")
    changed = []
    recovered: dict[str, str] = {}
    for t in j.travellers:
        c = b.state.character(t)
        if c.is_slain:
            continue
        if t in b.state.no_recovery:
            recovered[t] = f"{c.peril_condition} (no recovery: forced march)"
            continue
        to = "Unhindered" if t in j.unhindered_at_camp else j.camp_recovery
        after = c.recover_to(to)
        recovered[t] = after.peril_condition
        changed.append(after)
    payload = {"hours": CAMP_HOURS, "recovered": recovered}
    b.emit(JOURNEY_CAMP, character_payload(b.state, payload, changed))
    pass_time(b)


def fold_toughness(state: ZweihanderState, j: JourneyState, data: Any) -> ZweihanderState:
    """``journey.toughness``: one test fewer to go; the Critical Successes noted for camp."""
    named = data["unhindered_at_camp"]
    noted = {str(t) for t in (named if isinstance(named, list | tuple) else [])}
    j = evolved(
        j,
        toughness_tests_left=j.toughness_tests_left - 1,
        unhindered_at_camp=tuple(sorted(set(j.unhindered_at_camp) | noted)),
    )
    return evolved(state, journey=j)


def fold_camp(state: ZweihanderState, j: JourneyState, data: Any) -> ZweihanderState:
    """``journey.camp``: a day, and its hours of travel time, pass."""
    hours = state.travel_hours + int(str(data.get("hours", 24)))
    return evolved(state, journey=evolved(j, days=j.days + 1), travel_hours=hours)


def toughness_previews(state: ZweihanderState) -> list[OddsPreview]:
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
