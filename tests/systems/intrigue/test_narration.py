"""The log in words (issue 26): every line names characters by their badge name, never their
id; a possessive reads "ScarFace's"; a timer is told in the game's words and its time of day."""

from __future__ import annotations

from typing import Any

from referee.core import Event, Table, Viewer, observe, view
from referee.core.clock import TIMER_CANCELLED, TIMER_SET, describe_timer
from referee.systems.intrigue import PROCEDURE, IntrigueState

from .helpers import act, character, start

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
