"""Overland travel in play: the forced march's Toughness Test and its 24 hours without recovery."""

from __future__ import annotations

from referee.core import HOUR, Action
from referee.dice import ScriptedSource

from .helpers import act, last, table

PARTY = {
    "g": {"skills": {"Navigation": 50, "Toughness": 45}},
    "s": {"skills": {"Survival": 50, "Toughness": 45}},
}


def test_forced_march_incapacitates_and_blocks_recovery_for_24_hours() -> None:
    t = table(PARTY, journey={"travellers": ["g", "s"], "stretches": [{"days": 2}]})
    t = act(t, "referee", "travel.forced_march", [20, 80], characters=["g", "s"])
    marched = [e.data for e in t.log.events if e.kind == "travel.forced_march"]
    assert [m["test"]["total_chance"] for m in marched] == [25, 25]  # Hard (-20%)
    assert [m["incapacitated"] for m in marched] == [False, True]
    assert marched[0]["extra_miles"] == 10
    assert t.state.character("s").peril_condition == "Incapacitated!"
    t = act(t, "referee", "journey.roles", [40], guide="g")  # s cannot take a Role
    t = act(t, "referee", "journey.toughness", [20, 3])  # g tests; Threat up 1: a Chaos Die
    camped = act(t, "referee", "journey.camp")
    assert last(camped, "journey.camp")["recovered"]["s"].endswith("(no recovery: forced march)")
    assert camped.state.character("s").is_incapacitated
    later = t.act(Action("referee", "journey.camp"), ScriptedSource([]), at=24 * HOUR)
    assert last(later, "journey.camp")["recovered"]["s"] == "Imperiled"
    assert later.state.no_recovery == ()
