"""The log in words (issue 26): a Zweihänder character has no name but its id, so the log and
the roll cards write the id capitalised ("anna" reads "Anna"), a possessive reads "Alice's",
a timer is told in words, and Chaos Dice (nothing to beat) have no margin."""

from __future__ import annotations

from referee.core import Event, Viewer
from referee.core.clock import TIMER_SET, describe_timer
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander import events as ev
from referee.systems.zweihander.events import describe

from .helpers import _lines, act, table
from .test_wilderness import journey, roles


def _said(event_kind: str, data: dict[str, object]) -> str:
    return describe(Event(event_kind, data), Viewer("referee"))  # type: ignore[arg-type]


def test_characters_are_named_with_a_capital_and_possessives_read_as_english() -> None:
    assert _said(ev.REPUTATION_AWARDED, {"character": "anna", "story_arc": 2}) == (
        "Anna earns 2 Reputation for a story arc."
    )
    rewarded = {"player": "alice", "rewards": {"anna": 3, "hugo": 2}}
    assert _said(ev.STABLE_REWARDED, rewarded) == (
        "Alice's stable earns Reward Points: Anna +3, Hugo +2."
    )
    assert _said(
        ev.CHASE_COMPLICATION, {"participant": "cutpurse", "faces": [6], "complication": True}
    ) == ("Cutpurse's Chaos Die shows [6]: a Complication!")


def test_a_peril_change_is_still_read_by_the_characters_id() -> None:
    """The words capitalise the id; the state's changes are still found under the id."""
    data = {
        "participant": "hound",
        "peril": 2,
        "characters": {"hound": {"peril": 1}},
        "roll": {
            "card": "roll", "label": "Hound resists fatigue", "rule": "", "dice": "d100 ≤ 40",
            "odds": None, "faces": [78], "outcome": "failure", "margin": -38, "value": 78,
        },
    }  # fmt: skip
    assert _said(ev.CHASE_FATIGUE, data).startswith("Hound tests fatigue — ")
    assert "2 physical Peril → " in _said(ev.CHASE_FATIGUE, data)


def test_a_requisition_timer_is_told_in_words() -> None:
    t = act(table({"anna": {"reputation": 10}}), "anna", "requisition", weight="minor")
    timer = next(e for e in t.log if e.kind == TIMER_SET)
    assert timer.payload["label"] == "Anna may make a minor requisition again"
    words = describe_timer(timer.kind, timer.data, "09:00", at=timer.at)
    assert words.startswith("Anna may make a minor requisition again at ")
    assert "requisition:" not in words


def test_the_log_names_every_corruption_gained_and_every_field_of_a_kernel_event() -> None:
    t = roles(journey(threat=0), [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [99, 10, 10, 10, 99, 10, 10, 10, 20])
    [line] = _lines(t, "journey.toughness")
    assert line.endswith(
        " G gains 6 Corruption (Becoming Incapacitated! on the Peril Condition Track)."
        " S gains 6 Corruption (Becoming Incapacitated! on the Peril Condition Track)."
    )
    assert PROCEDURE.describe(Event("timer.set", {"name": "x", "after": 3}), Viewer("g")) == (
        "timer.set: name='x', after=3"
    )
