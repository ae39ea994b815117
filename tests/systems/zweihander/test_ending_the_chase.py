"""Chase scene rules, "The chase ends if one of the following conditions is met": the Escape
Condition (3/6/9 Rounds), all Escapees taken down, exhausted or Slain!, one side gives up."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError
from referee.dice import RandomSource
from referee.systems.zweihander import SYSTEM
from referee.systems.zweihander.chase import play_out
from referee.systems.zweihander.chase_scene import ending
from referee.systems.zweihander.events import CHASE_ENDED, CHASE_ROUND_ENDED, CHASE_TAKEDOWN
from referee.systems.zweihander.state import ChaseState

from .helpers import _chase, _ladder, act, last, table
from .test_chase import CHASER, RUNNER, play_round, start


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


def test_at_the_escape_condition_the_escapees_still_in_escape_and_the_pursuers_do_not() -> None:
    """Chase scene rules (Escape Condition): once its Rounds have passed, every Escapee still in
    the chase has escaped; a Pursuer is not an escapee and stays as they were."""
    sturdy = {**CHASER, "bonuses": {"AB": 3, "BB": 5, "PB": 4}}
    t = start(escape_condition=3, chars={"runner": RUNNER, "chaser": sturdy})
    for _ in range(3):
        t = play_round(t, [9, 1], [1])
    assert {who: x["status"] for who, x in _ladder(t).items()} == {
        "runner": "escaped",
        "chaser": "in",
    }


def test_giving_up_with_no_chase_under_way_or_after_it_ended_is_refused_under_its_own_name() -> (
    None
):
    """Chase scene rules: a side gives up a chase under way; the refusal names chase.give_up."""
    gave_up = act(start(), "referee", "chase.give_up", side="pursuers")
    for t, why in ((table({"runner": RUNNER}), "no chase"), (gave_up, "has ended")):
        with pytest.raises(RuleError, match=why) as refused:
            act(t, "referee", "chase.give_up", side="escapees")
        assert refused.value.rule == "chase.give_up"


@pytest.mark.parametrize("kind", ["chase.takedown", "chase.end_round"])
def test_a_chase_step_with_no_chase_under_way_is_refused_under_its_own_name(kind: str) -> None:
    """Chase scene rules: a Takedown or a Round's end needs a chase under way; the refusal names
    the step that was refused."""
    params = {"condition": None} if kind == "chase.takedown" else {}
    with pytest.raises(RuleError, match=rf"^{kind}: no chase is under way"):
        act(
            table({"runner": RUNNER, "chaser": CHASER}),
            "referee" if kind.endswith("round") else "chaser",
            kind,
            **params,
        )


def test_the_end_of_a_chase_is_recorded_with_its_reason_and_round() -> None:
    """Chase scene rules (ending a chase): one side gives up, here in the first Round."""
    t = act(start(), "referee", "chase.give_up", side="pursuers")
    assert last(t, "chase.ended") == {"reason": "the pursuers give up", "round": 1}


def test_a_chase_whose_escapees_are_all_slain_ends_so_not_as_taken_down() -> None:
    """Chase scene rules (ending a chase): escapees out because Slain! are not "taken down"."""
    t = act(start(), "runner", "chase.move", [9])
    t = act(t, "chaser", "chase.move", [1])
    t = act(t, "chaser", "chase.attack", [20], target="runner", skill="Bows", damage_ranks=5)
    assert last(t, "chase.ended") == {"reason": "all escapees are Slain!", "round": 1}


def test_whether_a_chase_ends_reads_each_side_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every step of a chase asks whether it ends: each side's participants are listed once for
    it, not once for each of its conditions."""
    chase = start().state.chase
    asked: list[str] = []
    listed = ChaseState.side

    def counted(self: ChaseState, side: str) -> Any:
        asked.append(side)
        return listed(self, side)

    monkeypatch.setattr(ChaseState, "side", counted)
    assert ending(chase) is None
    assert asked == ["escapee", "pursuer"]
