"""Tests that kill the mutants mutmut left alive in round 5's second wave of issue 13
(docs/systems/intrigue.md, "Mutation testing", "Round 5, second wave"): a sheet's Special
Abilities and Contingency Envelopes as the game file writes them, ...
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import ScenarioError
from referee.systems.intrigue import load_game
from referee.systems.intrigue.envelopes import ConditionKind
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

from .helpers import character
from .test_mutants import _line

# -- round 5, second wave: a sheet's Special Abilities and Contingency Envelopes (game.py) ---


def test_a_special_ability_keeps_every_mechanic_its_sheet_writes() -> None:
    """Other Skills and Special Abilities, Mental Combat: an ability's description, whether it
    is mental, its set Target Number, damage, obviousness, use in combat, dodgeability, skill
    value and effect are as written; an ability with nothing written has the defaults."""
    written = {
        "description": "a stare",
        "mental": True,
        "target": 12,
        "damage": 2,
        "obvious": True,
        "in_combat": False,
        "dodgeable": True,
        "value": 4,
        "effect": "the target sleeps",
    }
    state = load_game(
        {"characters": {"a": character("A", 15, abilities={"Glare": written, "Luck": None})}}
    )
    glare, luck = state.character("a").abilities
    assert glare.name == "Glare"
    assert {key: getattr(glare, key) for key in written} == written
    assert (luck.name, luck.description, luck.mental, luck.target, luck.damage) == (
        "Luck",
        "",
        False,
        None,
        0,
    )
    assert (luck.obvious, luck.in_combat, luck.dodgeable, luck.value, luck.effect) == (
        False,
        True,
        None,
        None,
        "",
    )


@pytest.mark.parametrize(
    ("ability", "field", "words"),
    [
        ({"target": True}, ("target",), "target is a whole number, not True"),
        ({"target": "12"}, ("target",), "target is a whole number, not '12'"),
        ({"value": False}, ("value",), "value is a whole number, not False"),
        ({"value": 2.5}, ("value",), "value is a whole number, not 2.5"),
        ({"dodgeable": 1}, ("dodgeable",), "dodgeable is true or false, not 1"),
        ({"mental": "yes"}, ("mental",), "mental is true or false, not 'yes'"),
        ({"obvious": "yes"}, ("obvious",), "obvious is true or false, not 'yes'"),
        ({"in_combat": "no"}, ("in_combat",), "in_combat is true or false, not 'no'"),
        ({"damage": "x"}, ("damage",), "damage is a whole number, at least 0, not 'x'"),
        ({"description": 5}, ("description",), "description is text, not 5"),
        ({"effect": 3}, ("effect",), "effect is text, not 3"),
        ({"colour": "red"}, ("colour",), "unknown field 'colour'"),
        (3, (), "Glare: an ability is a mapping, not int"),
    ],
)
def test_a_special_abilitys_mechanic_not_as_written_is_refused_at_its_field(
    ability: Any, field: tuple[str, ...], words: str
) -> None:
    """Mental Combat: a set Target Number and a skill value are whole numbers, dodgeability is
    true or false; a sheet that writes otherwise is refused at the ability's field."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, abilities={"Glare": ability})}})
    assert error.value.path == ("characters", "a", "abilities", "Glare", *field)
    assert words in str(error.value)


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


# -- round 5, second wave: the log's words (events.describe, _searched, _names) --------------


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


# -- round 5, second wave: a character's own actions (procedure.decide, _draw, _own_combat) ---
