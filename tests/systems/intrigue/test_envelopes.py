"""Perception Envelopes (with the secrecy rules and the 15-minute cooldown) and Contingency
Envelopes, played through the procedure."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import MINUTE, RuleError, ScenarioError, Viewer, only, view
from referee.systems.intrigue import load_game
from referee.systems.intrigue.envelopes import (
    ALL,
    Condition,
    ConditionKind,
    PerceptionEnvelope,
    encounter_meets,
    envelopes_handed_over,
)
from referee.systems.intrigue.game import next_day_envelopes

from .helpers import _countess, act, character, kinds, last, start, without_names

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


def test_an_envelope_due_at_the_start_opens_at_the_start() -> None:
    """Contingency Envelopes, "Open at nine o'clock": at a table starting at 21:00, an
    envelope "Open at 21:00" may be opened at once, with nothing else moving the clock (audit
    round 3, I-N2), and its holder alone is told so."""
    setup = {
        "start": "21:00",
        "characters": {
            "countess": character(
                "The Countess",
                40,
                contingency_envelopes=[
                    {"id": "nine", "at": "21:00", "contents": "The Baron is your son."}
                ],
            ),
            "baron": character("The Baron", 53),
        },
    }
    table = start(setup)
    assert table.now == 0 and "nine" in table.state.openable
    told = [e for e in view(table.log, "countess") if e.kind == "contingency.openable"]
    assert [e.data["envelopes"] for e in told] == [["nine"]]
    assert not [e for e in view(table.log, "baron") if e.kind == "contingency.openable"]
    table = act(table, "countess", "open", envelope="nine")
    assert last(table, "envelope.opened")["contents"] == "The Baron is your son."
    assert table.now == 0


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


def test_only_an_encounter_opens_an_envelope_that_names_one() -> None:
    """Contingency Envelopes: "Open at nine o'clock" and "Open if shot" are opened by the time
    and by the event, never by seeing, meeting or talking to someone; and an encounter is
    met only by a report of seeing, meeting or talking (ruling: talking is also meeting and
    seeing)."""
    encounters = (ConditionKind.SEE, ConditionKind.MEET, ConditionKind.TALK)
    for other in (ConditionKind.AT, ConditionKind.EVENT):
        for how in encounters:
            assert encounter_meets(other, how) is False
            assert encounter_meets(how, other) is False
        assert encounter_meets(other, other) is False
    assert encounter_meets(ConditionKind.MEET, ConditionKind.TALK) is True


def test_an_envelope_opened_at_a_game_time_in_seconds_from_the_start() -> None:
    """Contingency Envelopes, "Open at nine o'clock": the time may be a clock time or seconds
    from the evening's start — 0 is the start itself, 3600 is 21:00 of an evening begun at
    20:00."""
    state = load_game(
        _countess({"at": 0, "contents": "now"}, {"id": "late", "at": 3600, "contents": "later"})
    )
    first, late = state.contingency_envelopes
    assert (first.id, first.condition.at, first.condition.clock) == ("countess-c1", 0, "20:00")
    assert (late.id, late.condition.at, late.condition.clock) == ("late", 3600, "21:00")


def test_the_holder_is_told_why_an_envelope_may_open_and_opens_it_alone() -> None:
    """Contingency Envelopes: seeing the Baron (53) or being shot makes the Countess's envelopes
    openable, and she is told why; opening one is her own business."""
    table = act(start(evening()), "countess", "encounter", character="baron", how="see")
    table = act(table, "countess", "report", event="shot")
    told = [
        (e.audience, without_names(e.payload))
        for e in table.log
        if e.kind == "contingency.openable"
    ]
    assert told == [
        (only("countess"), {"holder": "countess", "envelopes": ["see53"], "why": "see 53"}),
        (only("countess"), {"holder": "countess", "envelopes": ["shot"], "why": "event: shot"}),
    ]
    table = act(table, "countess", "open", envelope="shot")
    opened = table.log.events[-1]
    assert (opened.kind, opened.audience) == ("envelope.opened", only("countess"))
    assert without_names(opened.payload) == {
        "holder": "countess",
        "envelope": "shot",
        "label": "Open if shot",
    }


def test_a_contingency_envelope_opens_on_its_one_condition_as_written() -> None:
    """Contingency Envelopes: "Open at nine o'clock" (a clock time, or seconds of game time
    from the start), "Open if shot", "Open if you see / meet / talk to character 53"; each
    envelope has exactly one condition. Envelopes with no id are numbered from 1."""
    state = load_game(
        {
            "start": "19:00",
            "characters": {
                "a": character(
                    "A",
                    15,
                    contingency_envelopes=[
                        {"at": "21:00", "contents": "p"},
                        {"at": 0, "contents": "q", "id": "zero"},
                        {"at": 90, "contents": "r"},
                        {"event": "shot", "contents": "s"},
                        {"meet": 53, "contents": "t"},
                    ],
                )
            },
        }
    )
    nine, zero, later, shot, meet = state.contingency_envelopes
    assert [e.id for e in state.contingency_envelopes] == ["a-c1", "zero", "a-c3", "a-c4", "a-c5"]
    assert {e.holder for e in state.contingency_envelopes} == {"a"}
    assert [e.contents for e in state.contingency_envelopes] == ["p", "q", "r", "s", "t"]
    assert (nine.condition.kind, nine.condition.at, nine.condition.clock) == (
        ConditionKind.AT,
        2 * 3600,
        "21:00",
    )
    assert (zero.condition.at, zero.condition.clock) == (0, "19:00")
    assert later.condition.at == 90
    assert (shot.condition.kind, shot.condition.event) == (ConditionKind.EVENT, "shot")
    assert (meet.condition.kind, meet.condition.character) == (ConditionKind.MEET, "53")


@pytest.mark.parametrize(
    ("envelope", "path", "words"),
    [
        ("x", (0,), "an envelope is a mapping, not str"),
        ({"at": 60, "see": 53, "contents": "x"}, (0,), "give exactly one condition: at, event"),
        ({"contents": "x"}, (0,), "give exactly one condition: at, event, see, meet, talk"),
        ({"at": True, "contents": "x"}, (0, "at"), "True"),
        ({"at": -1, "contents": "x"}, (0, "at"), "at least 0, not -1"),
        ({"talk": 7, "contents": "x"}, (0, "talk"), "a character number has two digits, not 7"),
        ({"at": 60}, (0, "contents"), "contents is text, not None"),
        ({"event": 5, "contents": "x"}, (0, "event"), "event is text, not 5"),
        ({"at": 60, "contents": "x", "id": 5}, (0, "id"), "id is text, not 5"),
        ({"at": 60, "contents": "x", "colour": 1}, (0, "colour"), "unknown field 'colour'"),
    ],
)
def test_a_contingency_envelope_not_as_written_is_refused_at_its_field(
    envelope: Any, path: tuple[object, ...], words: str
) -> None:
    """Contingency Envelopes: one condition each, a game time of at least 0 (a true/false is no
    time), a two-digit Character Number; the refusal names the envelope's field."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, contingency_envelopes=[envelope])}})
    assert error.value.path == ("characters", "a", "contingency_envelopes", *path)
    assert words in str(error.value)


def test_contingency_envelopes_are_a_list() -> None:
    """Contingency Envelopes: a sheet's envelopes are a list, each a mapping."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, contingency_envelopes={"at": 60})}})
    assert error.value.path == ("characters", "a", "contingency_envelopes")
    assert str(error.value).endswith("contingency_envelopes is a list")


def test_open_at_nine_oclock_is_a_timer_its_holder_alone_sees_set_and_fire() -> None:
    """Contingency Envelopes, "Open at nine o'clock": when the evening starts, a timer is set
    for each envelope opened at a time (and none for "Open if shot" or "Open if you see ...");
    its holder alone sees it set and is told at that time, by that envelope, that it may open."""
    setup = {
        "start": "19:00",
        "characters": {
            "countess": character(
                "The Countess",
                40,
                contingency_envelopes=[
                    {"id": "nine", "at": "21:00", "contents": "The Baron is your son."},
                    {"id": "shot", "event": "shot", "contents": "Your locket stopped the bullet."},
                    {"id": "see53", "see": 53, "contents": "He is your husband."},
                ],
            ),
            "baron": character("The Baron", 53),
        },
    }
    table = start(setup)
    timers = [e for e in table.log.events if e.kind == "timer.set"]
    assert [e.payload for e in timers] == [
        {
            "name": "contingency:nine",
            "due": 2 * 3600,
            "label": "The Countess' envelope nine may be opened",
        }
    ]
    assert [e.kind for e in view(table.log, "countess")] == ["timer.set"]
    assert [e.kind for e in view(table.log, "baron")] == []
    table = table.advance(2 * 3600)
    told = [e for e in view(table.log, "countess") if e.kind == "contingency.openable"]
    assert [without_names(e.data) for e in told] == [
        {"holder": "countess", "envelopes": ["nine"], "why": "time"}
    ]
    assert not [e for e in view(table.log, "baron") if e.kind == "contingency.openable"]


def test_open_at_midnight_after_an_evening_start_is_read_as_the_next_day() -> None:
    """Contingency Envelopes, "Open at nine o'clock": with the evening starting at 19:00, an
    envelope at 00:00 is the next day's midnight (noted as a likely slip); one at 23:59 is
    the same evening."""
    state = load_game(
        {
            "start": "19:00",
            "characters": {
                "a": {
                    "number": 15,
                    "contingency_envelopes": [
                        {"id": "midnight", "at": "00:00", "contents": "x"},
                        {"id": "late", "at": "23:59", "contents": "y"},
                    ],
                }
            },
        }
    )
    assert next_day_envelopes(state) == [
        "midnight (Open at 00:00): 00:00 is earlier than the start (19:00): "
        "read as 00:00 the next day"
    ]


def test_an_envelope_due_at_the_start_leaves_the_next_ones_time_to_come() -> None:
    """Contingency Envelopes, "Open at nine o'clock": of two envelopes, one "Open at 21:00" at
    a table starting at 21:00 and one "Open at 22:00", the first may be opened at once and the
    second only when 22:00 comes."""
    envelopes = [
        {"id": "nine", "at": "21:00", "contents": "The Baron is your son."},
        {"id": "ten", "at": "22:00", "contents": "The Baron knows."},
    ]
    setup = {
        "start": "21:00",
        "characters": {"countess": character("The Countess", 40, contingency_envelopes=envelopes)},
    }
    table = start(setup)
    assert table.state.openable == {"nine"}
    table = table.advance(3600)
    assert table.state.openable == {"nine", "ten"}
