"""The log in words (issue 26): a Zweihänder character has no name but its id, so the log and
the roll cards write the id capitalised ("anna" reads "Anna"), a possessive reads "Alice's",
a timer is told in words, and Chaos Dice (nothing to beat) have no margin."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import REFEREE, Event, Viewer
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


def _card(label: str, shown: str, outcome: str) -> dict[str, Any]:
    return {
        "card": "roll",
        "label": label,
        "dice": "d100",
        "faces": [],
        "outcome": outcome,
        "margin": 0,
        "value": 0,
        "shown": shown,
    }


ROLL = _card("anna tests", "d100 12", "success")


TACTIC = {
    "character": "bert",
    "tactic": "Intimidate",
    "roll": _card("bert uses Intimidate", "d100 60", "failure"),
    "outcome": "failure",
    "disposition_read_as": "Hostile",
    "result": "Aggressive",
}


LINES: list[tuple[str, dict[str, Any], str]] = [
    (
        ev.TEST_ROLLED,
        {"character": "anna", "skill": "Stealth", "total_chance": 25, "roll": ROLL},
        "Anna tests Stealth at 25% — d100 12: success.",
    ),
    (
        ev.TEST_ROLLED,
        {"character": "anna", "skill": None, "total_chance": 37, "roll": ROLL},
        "Anna tests a chance of 37 at 37% — d100 12: success.",
    ),
    (
        ev.TEST_ROLLED,
        {"character": "anna", "total_chance": 63, "roll": ROLL},
        "Anna tests a chance of 63 at 63% — d100 12: success.",
    ),
    (
        ev.MORALE_CHECKED,
        {
            "foes": "the bandits",
            "rolls": [
                _card("the bandits test Resolve", "d100 45", "failure"),
                {**ROLL, "card": "chaos"},
                "not a card",
                _card("their leader tests Leadership", "d100 9", "success"),
            ],
            "result": "they hold",
        },
        "Morale check for the bandits: the bandits test Resolve: d100 45: failure; their leader "
        "tests Leadership: d100 9: success. Result: they hold.",
    ),
    (
        ev.MORALE_CHECKED,
        {"foes": "the wolves", "roll": ROLL, "result": "they flee"},
        "Morale check for the wolves: d100 12: success. Result: they flee.",
    ),
    (
        ev.EXCHANGE_STARTED,
        {
            "npc": "Vollmer",
            "disposition": "Unfriendly",
            "participants": ["anna", "bert"],
            "favourable": "Charm",
            "unfavourable": "Intimidate",
        },
        "A Complex Exchange with Vollmer (Unfriendly) begins: Anna, Bert take part. "
        "[GM's secret: Favourable Charm, Unfavourable Intimidate]",
    ),
    (
        ev.EXCHANGE_STARTED,
        {"npc": "Vollmer", "disposition": "Neutral", "participants": ["cora"]},
        "A Complex Exchange with Vollmer (Neutral) begins: Cora take part.",
    ),
    (
        ev.EXCHANGE_TACTIC_TESTED,
        TACTIC,
        "Bert uses Intimidate — d100 60: failure; read as failure at Hostile: Aggressive.",
    ),
    (
        ev.EXCHANGE_TACTIC_TESTED,
        {
            **TACTIC,
            "mental_peril": 9,
            "characters": {"bert": {"peril": 2}, "anna": {"peril": 5}},
            "burned_reputation": True,
            "fortune_points": 2,
            "bumped_by": "unfavourable",
        },
        "Bert uses Intimidate — d100 60: failure; read as failure at Hostile: Aggressive; "
        "9 mental Peril → Ignore 1 Skill Rank; a Reputation Point burnt for the Assist Die; "
        "the party gains 2 Fortune Point. [GM's secret: bumped by the unfavourable Skill]",
    ),
    (
        ev.EXCHANGE_TACTIC_TESTED,
        {**TACTIC, "mental_peril": 3, "burned_reputation": False, "fortune_points": 0},
        "Bert uses Intimidate — d100 60: failure; read as failure at Hostile: Aggressive; "
        "3 mental Peril.",
    ),
    (
        ev.EXCHANGE_ENDED,
        {"npc": "Vollmer", "favourable": "Charm", "unfavourable": "Intimidate"},
        "The exchange with Vollmer ends. Favourable Skill: Charm; Unfavourable Skill: Intimidate.",
    ),
    (
        ev.MADNESS_WITHSTOOD,
        {
            "character": "cora",
            "situation": "Fear",
            "roll": ROLL,
            "corruption": 6,
            "mental_peril": 12,
        },
        "Cora withstands Fear — d100 12: success; 12 mental Peril and 6 Corruption.",
    ),
    (
        ev.MADNESS_WITHSTOOD,
        {"character": "cora", "situation": "Terror", "roll": ROLL, "corruption": 0},
        "Cora withstands Terror — d100 12: success.",
    ),
    (
        ev.CORRUPTION_GAINED,
        {"character": "dave", "points": 5, "weight": "middling", "offence": "Arson"},
        "Dave gains 5 Corruption for a middling offence (Arson).",
    ),
    (
        ev.CORRUPTION_GAINED,
        {"character": "dave", "points": 3, "weight": "minor"},
        "Dave gains 3 Corruption for a minor offence.",
    ),
    (
        ev.CORRUPTION_RESOLVED,
        {"character": "anna", "corruption": 0, "order_gained": 1, "chaos_gained": 0},
        "Anna: Corruption 0 (no roll) → +1 Order, +0 Chaos.",
    ),
    (
        ev.CORRUPTION_RESOLVED,
        {
            "character": "anna",
            "corruption": 3,
            "corruption_die": 0,
            "order_gained": 2,
            "chaos_gained": 0,
            "fate_point": True,
        },
        "Anna: Corruption 3 (d10 0) → +2 Order, +0 Chaos; ten ranks of Order: a Fate Point, "
        "ranks erased.",
    ),
    (
        ev.CORRUPTION_RESOLVED,
        {
            "character": "bert",
            "corruption": 14,
            "corruption_die": 4,
            "order_gained": 0,
            "chaos_gained": 2,
            "disorder": "Pyromania",
        },
        "Bert: Corruption 14 (d10 4) → +0 Order, +2 Chaos; ten ranks of Chaos: the Disorder "
        "Pyromania, ranks erased.",
    ),
    (
        ev.REPUTATION_AWARDED,
        {"character": "anna", "story_arc": 2},
        "Anna earns 2 Reputation for a story arc.",
    ),
    (
        ev.REQUISITION_MADE,
        {"character": "anna", "weight": "minor", "cost": 2, "what": "a barber surgeon"},
        "Anna makes a minor requisition for 2 Reputation: a barber surgeon.",
    ),
    (
        ev.REQUISITION_MADE,
        {"character": "anna", "weight": "major", "cost": 4},
        "Anna makes a major requisition for 4 Reputation.",
    ),
    (
        ev.REQUISITION_AVAILABLE,
        {"character": "bert", "weight": "major"},
        "Bert may make a major requisition again.",
    ),
    (
        ev.STABLE_REWARDED,
        {"player": "alice", "rewards": {"anna": 3, "hugo": 2}},
        "Alice's stable earns Reward Points: Anna +3, Hugo +2.",
    ),
]


@pytest.mark.parametrize(
    ("kind", "data", "line"), LINES, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(LINES)]
)
def test_the_log_line_names_every_number_and_name_of_the_event(
    kind: str, data: dict[str, Any], line: str
) -> None:
    assert describe(Event(kind, data), Viewer(REFEREE)) == line


def test_a_side_giving_up_and_a_recovery_allowed_are_told_in_words() -> None:
    """Chase scene rules (Ending the chase) and Overland exploration ("Forced march"): the log
    tells which side gives up in which Round, and who may recover from Peril again after a
    forced march."""
    assert _said(ev.CHASE_GAVE_UP, {"side": "pursuer", "round": 3}) == (
        "The pursuers give up the chase in Round 3."
    )
    assert _said(ev.RECOVERY_ALLOWED, {"character": "anna"}) == (
        "Anna may recover from Peril again."
    )


def test_a_chase_with_no_initiative_rolled_tells_none() -> None:
    """Chase scene rules: the log tells the Pursuers' Initiative rolls when there are any, and
    nothing in their place when none was rolled."""
    started = {
        "escape_condition": 3,
        "participants": [
            {"id": "cutpurse", "side": "escapee", "mode": "on foot", "movement": 9, "value": 3}
        ],
        "initiative_rolls": {},
    }
    assert _said(ev.CHASE_STARTED, started) == (
        "A chase begins (Escape Condition 3 Rounds). "
        "Ladder: Cutpurse (escapee, on foot, Movement 9, Value 3)."
    )
