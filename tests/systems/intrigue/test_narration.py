"""The log in words (issue 26): every line names characters by their badge name, never their
id; a possessive reads "ScarFace's"; a timer is told in the game's words and its time of day."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event, Table, Viewer, observe, view
from referee.core.clock import TIMER_CANCELLED, TIMER_SET, describe_timer
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.events import (
    CHARACTER_DIED,
    CHARACTER_GRABBED,
    CHARACTER_KNOCKED_OUT,
    COMBAT_ACTION_LAPSED,
    COMBAT_ACTION_TAKEN,
    COMBAT_ENDED,
    COMBAT_JOINED,
    COMBAT_MIND_USED,
    COMBAT_PLACE_RESOLVED,
    COMBAT_ROUND_ENDED,
    COMBAT_ROUND_STARTED,
    COMBAT_STARTED,
    CONTINGENCY_OPENABLE,
    ENVELOPE_OPENED,
    HOLD_BREAK_FREE_ROLLED,
    HOLD_ENDS,
    ITEM_DRAWN,
    ITEM_ROBBED,
    MEDICINE_ROLLED,
    MENTAL_EFFECT,
    PERCEPTION_READY,
)

from .helpers import _line, act, character, start

T = Table[IntrigueState]

CAST: dict[str, Any] = {
    "start": "21:00",
    "characters": {
        "scarface": character("ScarFace", 15, combat=2, stamina=9, items={"knife": {"damage": 5}}),
        "krockin-p1": character("Krockin", 33, combat=1, stamina=5, skills={"Perception": 2}),
        "nurse": character("Nurse Ratched", 40, skills={"Medicine": 2}),
    },
}


def told(table: T, viewer: str = "referee") -> list[str]:
    """The log as ``viewer`` reads it, one line an event (the game's events only)."""
    seen = Viewer(viewer, frozenset({viewer}))
    return [
        PROCEDURE.describe(e, seen)
        for e in view(table.log, seen)
        if not e.kind.startswith(("timer.", "clock."))
    ]


def test_a_combat_names_each_character_by_their_badge() -> None:
    table = act(start(CAST), "scarface", "draw", item="knife")
    table = act(table, "scarface", "start_combat", targets=["krockin-p1"])
    lines = told(table)
    assert lines == [
        "ScarFace draws knife.",
        "ScarFace shouts Combat at Krockin: combat-1 starts.",
    ]
    assert not any("scarface" in line or "krockin-p1" in line for line in lines)


def test_a_roll_card_label_names_the_characters() -> None:
    table = act(start(CAST), "scarface", "start_combat", targets=["krockin-p1"])
    table = act(table, "scarface", "declare", action="attack", target="krockin-p1")
    table = act(table, "krockin-p1", "declare", action="defend")
    table = act(table, "referee", "resolve", [1, 1, 1])
    rolled = next(e for e in table.log if e.kind == "attack.rolled")
    assert rolled.data["roll"]["label"] == "ScarFace attack Krockin"  # type: ignore[index]
    assert "ScarFace attack Krockin: 5 against 14: miss." in PROCEDURE.describe(
        rolled, Viewer("referee")
    )


def test_a_possessive_reads_as_english() -> None:
    """An opposed Skill Roll tells each side the other's total: "against Krockin's 9"."""
    table = act(
        start(CAST), "scarface", "roll", [3, 3, 3, 3, 3, 3], skill="Perception", against="33"
    )
    line = told(table, "scarface")[-1]
    assert "against Krockin's " in line and line.startswith("ScarFace rolls Perception")
    card = next(e for e in table.log if e.kind == "skill.rolled").data["roll"]
    assert card["label"] == "ScarFace's Perception vs Krockin's Perception"  # type: ignore[index]


def test_a_perception_cooldown_is_told_in_words_at_its_time_of_day() -> None:
    table = act(start(CAST), "krockin-p1", "perceive", [1, 1, 1], target="scarface")
    timer = next(e for e in table.log if e.kind == TIMER_SET)
    assert timer.payload["label"] == "Krockin may perceive ScarFace again"
    words = describe_timer(timer.kind, timer.data, CAST["start"], at=timer.at)
    assert words == "Krockin may perceive ScarFace again at 21:15."
    assert "perception:" not in words
    # the perception card has no margin: the total is told, nothing is beaten yet
    card = next(e for e in table.log if e.kind == "perception.made").data["roll"]
    assert card["margin"] is None  # type: ignore[index]


@pytest.mark.parametrize("given", ["00:00", "19:00"])
def test_the_tables_clock_is_the_evenings_own_whatever_start_it_is_given(given: str) -> None:
    """The game file's ``start`` is the table's clock (``Procedure.start_time``): the clock
    moving on and a cooldown's timer are told at the evening's own time, as the game's own
    words are, even on a table made with another start (the web form's 00:00, a ``--start``)."""
    table = Table.start(PROCEDURE, CAST, start=given)
    assert table.start_time == "21:00"
    table = act(table, "krockin-p1", "perceive", [1, 1, 1], at=900, target="scarface")
    said = observe(table, "referee").narration
    assert "The clock moves on to 21:15." in said
    assert "Krockin may perceive ScarFace again at 21:30." in said


def test_a_contingency_envelope_opens_at_the_evenings_own_time() -> None:
    cast = {**CAST, "start": "23:30"}
    cast["characters"] = {
        **CAST["characters"],
        "nurse": character(
            "Nurse Ratched",
            40,
            contingency_envelopes=[{"id": "12", "at": "00:30", "contents": "x"}],
        ),
    }
    table = start(cast)
    timer = next(e for e in table.log if e.kind == TIMER_SET)
    assert describe_timer(timer.kind, timer.data, "23:30", at=timer.at) == (
        "Nurse Ratched's envelope 12 may be opened at 00:30 the next day."
    )


def test_waking_is_a_timer_in_words_and_medicine_cancels_it_in_words() -> None:
    table = act(start(CAST), "scarface", "draw", item="knife")
    table = act(table, "scarface", "start_combat", targets=["krockin-p1"])
    table = act(table, "scarface", "declare", action="attack", target="krockin-p1")
    table = act(table, "krockin-p1", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    wake = [e for e in table.log if e.kind == TIMER_SET][-1]
    assert describe_timer(wake.kind, wake.data, "21:00", at=wake.at) == "Krockin wakes at 21:05."
    table = act(table, "nurse", "revive", [6, 6, 6], target="krockin-p1")
    cancelled = next(e for e in table.log if e.kind == TIMER_CANCELLED)
    assert describe_timer(cancelled.kind, cancelled.data) == "No longer due: Krockin wakes."
    assert "Nurse Ratched tends Krockin: 20: Krockin wakes." in told(table)


def test_the_observed_log_names_characters_not_ids() -> None:
    table = act(start(CAST), "scarface", "start_combat", targets=["krockin-p1"])
    observed = observe(table, Viewer("krockin-p1", frozenset({"krockin-p1"}))).to_json()
    texts = [e["text"] for e in observed["events"] if not e["kind"].startswith("timer.")]
    assert "ScarFace shouts Combat at Krockin: combat-1 starts." in texts


def test_a_name_travels_with_the_event_it_is_in_not_the_whole_cast() -> None:
    table = act(start(CAST), "scarface", "draw", item="knife")
    drawn: Event = table.log[-1]
    assert drawn.payload["names"] == {"scarface": "ScarFace"}


def test_a_contingency_envelope_shows_the_time_it_opens_and_a_refusal_names_the_characters() -> (
    None
):
    import pytest

    from referee.core import RuleError

    cast = {**CAST, "start": "23:30"}
    cast["characters"] = {
        **CAST["characters"],
        "nurse": character(
            "Nurse Ratched",
            40,
            contingency_envelopes=[{"id": "12", "at": "00:30", "contents": "x"}],
        ),
    }
    table = start(cast)
    state = table.visible_state("referee")
    assert state is not None
    assert state["contingency_envelopes"]["12"]["opens_at"] == "00:30 the next day"
    table = act(table, "krockin-p1", "perceive", [1, 1, 1], target="scarface")
    with pytest.raises(RuleError, match="Krockin checked ScarFace less than 15 minutes ago") as e:
        act(table, "krockin-p1", "perceive", [1, 1, 1], target="scarface")
    assert "the next check may be made at 23:45" in e.value.reason


@pytest.mark.parametrize(
    ("kind", "data", "line"),
    [
        (
            ENVELOPE_OPENED,
            {"holder": "a", "envelope": "a-c1", "label": "at 21:00", "contents": "run"},
            "a opens a-c1 (at 21:00): run",
        ),
        (
            ENVELOPE_OPENED,
            {"holder": "a", "envelope": "a-c1", "label": "at 21:00"},
            "a opens a-c1 (at 21:00)",
        ),
        (
            HOLD_BREAK_FREE_ROLLED,
            {"character": "b", "broke_free": True, "total": 12, "holder_total": 9},
            "b breaks free: 12 against 9.",
        ),
        (
            HOLD_BREAK_FREE_ROLLED,
            {"character": "b", "broke_free": False, "total": 8, "holder_total": 9},
            "b is still Held: 8 against 9.",
        ),
        (
            MEDICINE_ROLLED,
            {"character": "a", "target": "b", "total": 13, "success": True},
            "a tends b: 13: b wakes.",
        ),
        (
            MEDICINE_ROLLED,
            {"character": "a", "target": "b", "total": 7, "success": False},
            "a tends b: 7: b stays out.",
        ),
        (ITEM_ROBBED, {"character": "a", "target": "b", "item": "ring"}, "a robs b of ring."),
        (ITEM_ROBBED, {"character": "a", "target": "b"}, "a robs b."),
        (CHARACTER_DIED, {"character": "b", "by": "a"}, "b is dead at a's hand."),
        (CHARACTER_DIED, {"character": "b", "by": None}, "b is dead."),
        (CHARACTER_DIED, {"character": "b"}, "b is dead."),
        (
            PERCEPTION_READY,
            {"perceiver": "a", "target": "b"},
            "a may make a Perception Check on b again.",
        ),
        (
            CONTINGENCY_OPENABLE,
            {"holder": "a", "envelopes": ["a-c1", "a-c2"], "why": "it is 21:00"},
            "a may now open: a-c1, a-c2 (it is 21:00).",
        ),
        (ITEM_DRAWN, {"character": "a", "item": "knife"}, "a draws knife."),
        (
            COMBAT_STARTED,
            {"starter": "a", "targets": ["b", "c"], "combat": "combat-1"},
            "a shouts Combat at b, c: combat-1 starts.",
        ),
        (
            COMBAT_STARTED,
            {"starter": "a", "targets": [], "combat": "combat-1"},
            "a shouts Combat at nobody: combat-1 starts.",
        ),
        (
            COMBAT_JOINED,
            {"character": "c", "combat": "combat-1", "side": 2},
            "c joins combat-1 on side 2.",
        ),
        (COMBAT_ROUND_STARTED, {"combat": "combat-1", "round": 2}, "combat-1: round 2 begins."),
        (COMBAT_MIND_USED, {"character": "k"}, "k ranks by Mind this round."),
        (
            COMBAT_ACTION_TAKEN,
            {"character": "a", "action": "attack"},
            "a takes their action: attack.",
        ),
        (
            COMBAT_ACTION_LAPSED,
            {"character": "a", "reason": "knocked out"},
            "a's action lapses: knocked out.",
        ),
        (
            COMBAT_PLACE_RESOLVED,
            {"combat": "combat-1", "characters": ["a", "b"]},
            "combat-1: a, b resolved.",
        ),
        (COMBAT_ROUND_ENDED, {"combat": "combat-1", "round": 3}, "combat-1: round 3 ends."),
        (COMBAT_ENDED, {"combat": "combat-1", "reason": "one side"}, "combat-1 ends (one side)."),
        (CHARACTER_GRABBED, {"holder": "a", "held": "b"}, "a grabs b: b is Held."),
        (
            HOLD_ENDS,
            {"holder": "a", "held": "b", "how": "released"},
            "a no longer Holds b (released).",
        ),
        (CHARACTER_KNOCKED_OUT, {"character": "b"}, "b is Knocked Out."),
        (
            MENTAL_EFFECT,
            {"ability": "Glare", "target": "b", "effect": "sleeps"},
            "Glare takes effect on b: sleeps",
        ),
        (ITEM_DRAWN, {"character": "a"}, "item.drawn: character='a'"),
        ("house.rule", {"n": 1, "who": "a"}, "house.rule: n=1, who='a'"),
        ("house.rule", {}, "house.rule"),
    ],
)
def test_the_log_says_in_words_what_each_event_of_the_evening_was(
    kind: str, data: dict[str, Any], line: str
) -> None:
    """The log: each event of the evening (an envelope opened, a Hold broken or not, Medicine,
    a robbery, a death, a combat's steps) is told in words; one with data the words do not
    fit is told by its fields."""
    assert _line(kind, **data) == line
