"""Perception Envelopes (with the secrecy rules and the 15-minute cooldown) and Contingency
Envelopes, played through the procedure."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import MINUTE, RuleError, Viewer, view
from referee.systems.intrigue.envelopes import (
    ALL,
    Condition,
    ConditionKind,
    PerceptionEnvelope,
    encounter_meets,
    envelopes_handed_over,
)

from .helpers import act, character, kinds, last, start

TO_ALL = {"id": "to-all", "to": "ALL", "target": 16, "contents": "Her pearls are paste."}
TO_SOME = {
    "id": "to-some",
    "to": [12, 20, 32],
    "target": 14,
    "contents": "She was a cook in Vienna.",
    "directions": "Look startled.",
}


def evening() -> dict[str, Any]:
    return {
        "start": "19:00",
        "characters": {
            "countess": character(
                "The Countess",
                40,
                perception_envelopes=[TO_ALL, TO_SOME],
                contingency_envelopes=[
                    {"id": "nine", "at": "21:00", "contents": "The Baron is your son."},
                    {"id": "shot", "event": "shot", "contents": "Your locket stopped the bullet."},
                    {"id": "see53", "see": 53, "contents": "He is your husband."},
                    {"id": "talk53", "talk": 53, "contents": "Ask him about the ruby."},
                ],
            ),
            "fifteen": character("Mr Fifteen", 15, skills={"Perception": 3}),
            "twelve": character("Miss Twelve", 12, skills={"Perception": 3}),
            "baron": character("The Baron", 53),
        },
    }


# -- the rule as a function ------------------------------------------------------------


def test_the_texts_example_as_a_function() -> None:
    """ "if you are Character Number 15 and roll 18, you will be given the Perception Envelope
    marked Give to ALL ... If you had been Character Number 12 and had rolled 18, you would have
    received both ... If you had rolled 13, you would not have received either"."""
    to_all = PerceptionEnvelope("a", "h", ALL, 16, "x")
    to_some = PerceptionEnvelope("b", "h", ("12", "20", "32"), 14, "y")
    both = (to_all, to_some)
    assert envelopes_handed_over(both, "15", 18) == (to_all,)
    assert envelopes_handed_over(both, "12", 18) == both
    assert envelopes_handed_over(both, "12", 13) == ()
    assert envelopes_handed_over(both, "15", 13) == ()


def test_matching_the_target_number_is_enough() -> None:
    """ "provided that you have matched or exceeded the Target Number"."""
    envelope = PerceptionEnvelope("a", "h", ALL, 16, "x")
    assert envelopes_handed_over((envelope,), "15", 16) == (envelope,)
    assert envelopes_handed_over((envelope,), "15", 15) == ()


def test_labels_read_as_the_text_writes_them() -> None:
    assert PerceptionEnvelope("a", "h", ALL, 16, "x").label == (
        "Give to ALL with a Roll of 16 or more"
    )


# -- through the procedure: secrecy ----------------------------------------------------


def test_the_perceiver_reads_the_contents_and_nobody_else_does() -> None:
    table = act(start(evening()), "twelve", "perceive", [6, 5, 4], target="countess")
    made = next(e for e in view(table.log, "twelve") if e.kind == "perception.made")
    assert set(made.data["contents"]) == {"to-all", "to-some"}  # type: ignore[arg-type]
    # the holder hands them over (sees which, and the total) but never reads their contents
    holder = next(e for e in view(table.log, "countess") if e.kind == "perception.made")
    assert holder.data["envelopes"] and "contents" not in holder.data
    assert "contents" in holder.redacted
    # the holder is told the total, not the perceiver's skill; the odds are the referee's
    assert holder.data["total"] == 18 and "perception" not in holder.data
    assert "chances" not in made.data and made.data["perception"] == 3
    # a bystander sees nothing of the check at all
    assert [e for e in view(table.log, "fifteen") if e.kind == "perception.made"] == []
    assert [e for e in view(table.log, "public") if e.kind == "perception.made"] == []


def test_directions_are_inside_the_envelope() -> None:
    """ "Some Perception Envelopes may give you directions which you must follow"."""
    table = act(start(evening()), "twelve", "perceive", [6, 5, 4], target="countess")
    contents = last(table, "perception.made")["contents"]
    assert contents["to-some"]["directions"] == "Look startled."
    holder = next(e for e in view(table.log, "countess") if e.kind == "perception.made")
    assert "Look startled." not in str(holder.to_json())


def test_the_holder_never_sees_their_own_contents_in_the_state() -> None:
    table = start(evening())
    seen = str(table.visible_state(Viewer("countess")))
    assert "paste" not in seen and "Vienna" not in seen
    assert "Give to ALL with a Roll of 16 or more" in seen  # the outside, in their own hands
    assert "paste" in str(table.visible_state("referee"))


def test_a_character_cannot_perceive_themselves() -> None:
    with pytest.raises(RuleError, match="themselves"):
        act(start(evening()), "countess", "perceive", [6, 6, 6], target="countess")


def test_the_roll_is_3d6_plus_perception() -> None:
    table = act(start(evening()), "fifteen", "perceive", [5, 5, 5], target="40")
    made = last(table, "perception.made")
    assert made["total"] == 18 and made["perception"] == 3
    assert [e["id"] for e in made["envelopes"]] == ["to-all"]


# -- the 15-minute cooldown ------------------------------------------------------------


def test_no_second_check_on_the_same_character_for_15_minutes() -> None:
    """ "you may not make another against that same character for 15 minutes"."""
    table = act(start(evening()), "fifteen", "perceive", [1, 1, 1], target="countess")
    with pytest.raises(RuleError, match=r"19:15 \(1m00s left\)"):
        act(table, "fifteen", "perceive", [6, 6, 6], target="countess", at=14 * MINUTE)
    later = act(table, "fifteen", "perceive", [6, 6, 6], target="countess", at=15 * MINUTE)
    assert last(later, "perception.made")["total"] == 21


def test_the_cooldown_is_per_perceiver_and_target() -> None:
    table = act(start(evening()), "fifteen", "perceive", [1, 1, 1], target="countess")
    table = act(table, "fifteen", "perceive", [1, 1, 1], target="twelve")  # another target
    table = act(table, "twelve", "perceive", [1, 1, 1], target="countess")  # another perceiver
    table = act(table, "countess", "perceive", [1, 1, 1], target="fifteen")  # the other way
    assert len(table.state.cooldowns) == 4


def test_the_cooldown_is_seen_by_the_perceiver_alone() -> None:
    table = act(start(evening()), "fifteen", "perceive", [1, 1, 1], target="countess")
    table = table.advance(15 * MINUTE)
    assert [e.kind for e in view(table.log, "fifteen") if e.kind == "perception.ready"] == [
        "perception.ready"
    ]
    assert not [e for e in view(table.log, "countess") if e.kind == "perception.ready"]


# -- contingency envelopes -------------------------------------------------------------


def test_open_at_nine_oclock_tells_the_holder_alone_at_nine() -> None:
    """ "Open at nine o'clock"."""
    table = start(evening())
    with pytest.raises(RuleError, match="only to be opened"):
        act(table, "countess", "open", envelope="nine", at=2 * 3600 - 1)
    table = table.advance(2 * 3600)
    assert "nine" in table.state.openable
    told = [e for e in view(table.log, "countess") if e.kind == "contingency.openable"]
    assert told and told[0].data["envelopes"] == ["nine"]
    assert not [e for e in view(table.log, "baron") if e.kind == "contingency.openable"]
    table = act(table, "countess", "open", envelope="nine")
    assert last(table, "envelope.opened")["contents"] == "The Baron is your son."
    # the front of the envelope reads as written: a wall-clock time, not seconds of game time
    assert last(table, "envelope.opened")["label"] == "Open at 21:00"


def test_contents_are_visible_to_the_holder_on_opening_not_before() -> None:
    table = act(start(evening()), "countess", "report", event="shot")
    assert "locket" not in str([e.to_json() for e in view(table.log, "countess")])
    assert "locket" not in str(table.visible_state("countess"))
    table = act(table, "countess", "open", envelope="shot")
    assert "locket" in str([e.to_json() for e in view(table.log, "countess")])
    assert "locket" in str(table.visible_state("countess"))
    for other in ("baron", "fifteen", "public"):
        assert "locket" not in str([e.to_json() for e in view(table.log, other)])
        assert "locket" not in str(table.visible_state(other))


def test_open_if_shot_needs_the_holder_to_report_being_shot() -> None:
    """ "Open if shot": an event the holder reports."""
    table = start(evening())
    with pytest.raises(RuleError, match="Open if shot"):
        act(table, "countess", "open", envelope="shot")
    table = act(table, "countess", "report", event="stabbed")
    assert last(table, "contingency.openable")["envelopes"] == []
    table = act(table, "countess", "report", event="Shot")
    assert last(table, "contingency.openable")["envelopes"] == ["shot"]


def test_see_meet_and_talk_are_different_conditions() -> None:
    """ ""Open if you see character 53" is different from "Open if you talk to character 53"."""
    table = act(start(evening()), "countess", "encounter", character="53", how="see")
    assert table.state.openable == {"see53"}
    with pytest.raises(RuleError):
        act(table, "countess", "open", envelope="talk53")
    table = act(table, "countess", "encounter", character="baron", how="talk")
    assert table.state.openable == {"see53", "talk53"}


def test_talking_to_someone_is_also_seeing_them() -> None:
    """Ruling: talk ⇒ meet ⇒ see."""
    assert encounter_meets(ConditionKind.SEE, ConditionKind.TALK)
    assert encounter_meets(ConditionKind.MEET, ConditionKind.TALK)
    assert encounter_meets(ConditionKind.SEE, ConditionKind.MEET)
    assert not encounter_meets(ConditionKind.MEET, ConditionKind.SEE)
    assert not encounter_meets(ConditionKind.TALK, ConditionKind.MEET)
    table = act(start(evening()), "countess", "encounter", character="53", how="talk")
    assert table.state.openable == {"see53", "talk53"}


def test_an_encounter_with_another_number_opens_nothing() -> None:
    table = act(start(evening()), "countess", "encounter", character="15", how="talk")
    assert table.state.openable == frozenset()
    assert Condition(ConditionKind.SEE, character="53").met_by_encounter("53", ConditionKind.SEE)


def test_only_the_holder_opens_their_envelope() -> None:
    table = act(start(evening()), "countess", "report", event="shot")
    with pytest.raises(RuleError, match="not baron's"):
        act(table, "baron", "open", envelope="shot")


def test_the_report_is_the_holders_secret() -> None:
    table = act(start(evening()), "countess", "encounter", character="53", how="see")
    assert kinds(table)[-1] == "contingency.openable"
    assert not [e for e in view(table.log, "baron") if e.kind == "contingency.openable"]


def test_a_character_does_not_meet_themselves() -> None:
    with pytest.raises(RuleError, match="themselves"):
        act(start(evening()), "baron", "encounter", character="53", how="see")
