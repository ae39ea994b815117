"""Chase scene rules, "The chase ends if one of the following conditions is met": the Escape
Condition (3/6/9 Rounds), all Escapees taken down, exhausted or Slain!, one side gives up."""

from __future__ import annotations

from typing import Any

from referee.core import Action
from referee.dice import RandomSource
from referee.systems.zweihander import SYSTEM
from referee.systems.zweihander.chase import play_out
from referee.systems.zweihander.events import CHASE_ENDED, CHASE_ROUND_ENDED, CHASE_TAKEDOWN

from .helpers import _chase


def test_a_chase_played_out_stops_at_its_escape_condition() -> None:
    """Chases, the Escape Condition: "3, 6 or 9 Rounds have passed" — a chase set to end after
    3 Rounds is played out to no more than 3."""
    done = play_out(_chase(15, escape_condition=3), RandomSource(15))
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(CHASE_ROUND_ENDED) <= 3 and kinds[-1] == CHASE_ENDED


class _FailedTakedowns:
    """Every d10 a 10, every d100 a 60 (a plain Failure at 50), every d6 a 1 (no Complication)."""

    def roll(self, sides: int) -> int:
        return {10: 10, 100: 60, 6: 1}.get(sides, 1)


def test_a_chase_of_failed_takedowns_is_played_out_to_its_escape_condition() -> None:
    """Chases: the Escape Condition "9 Rounds have passed"; every Round each of four Pursuers
    catches up with the slow Escapee, attempts a Takedown and fails it (Pursuit Value −1), and
    nobody tests fatigue (Brawn Bonus 9): all nine Rounds are played out, every Takedown
    included, and the chase ends by its Escape Condition."""
    slow = {"bonuses": {"AB": 1, "BB": 9}, "skills": {"Coordination": 50, "Toughness": 50}}
    fast = {"bonuses": {"AB": 5, "BB": 9}, "skills": {"Coordination": 50, "Toughness": 50}}
    names = ["p0", "p1", "p2", "p3"]
    t = SYSTEM.new_table({"characters": {"thief": slow, **dict.fromkeys(names, fast)}})
    start: dict[str, Any] = {"escapees": ["thief"], "pursuers": names, "escape_condition": 9}
    t = t.act(Action("referee", "chase.start", start), _FailedTakedowns())
    done = play_out(t, _FailedTakedowns())
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(CHASE_TAKEDOWN) == 9 * 4
    assert kinds.count(CHASE_ROUND_ENDED) == 9
    assert len(done.actions) - len(t.actions) == 9 * (5 + 4 + 1)
    assert done.state.chase is not None
    assert done.state.chase.ended == "the Escape Condition is met (9 Rounds have passed)"
