"""Perception Checks and Perception Envelopes (rules text, "Perception Envelopes"): the check,
what each side and the referee are told, the 15-minute cooldown, and the log's line.
"""

from __future__ import annotations

import pytest

from referee.core import MINUTE, REFEREE_ONLY, Event, RuleError, only
from referee.dice import ScriptedSource
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.perception import perceive

from .helpers import _line, act, start, without_names
from .test_combat import brawl
from .test_envelopes import TO_ALL, TO_SOME, evening


def test_a_perception_check_folded_at_another_time_starts_its_cooldown_then() -> None:
    """Perception Checks: "once every 15 minutes" from the check's own game time, even when one
    event's payload is folded twice, at two times (the fold reads the event's time)."""
    state = start(brawl()).state
    payload = {"perceiver": "alf", "target": "bob"}
    early = evolve(state, Event("perception.made", payload, at=0))
    later = evolve(state, Event("perception.made", payload, at=10 * MINUTE))
    assert early.cooldown_until("alf", "bob") == 15 * MINUTE
    assert later.cooldown_until("alf", "bob") == 25 * MINUTE


def test_a_perception_check_tells_each_side_its_part_and_the_referee_every_envelopes_odds() -> None:
    """Perception Envelopes: Miss Twelve (Perception 3) rolls 14 on the Countess, whose
    envelopes are for number 20 (skipped: not for her), for 12, 20, 32 at 14 (matched: handed
    over) and for ALL at 16 (missed). Her skill, dice and total card are hers; each envelope's
    card and odds are the referee's."""
    game = evening()
    to_twenty = {"id": "to-twenty", "to": [20], "target": 10, "contents": "x"}
    game["characters"]["countess"]["perception_envelopes"] = [to_twenty, TO_SOME, TO_ALL]
    table = act(start(game), "twelve", "perceive", [4, 4, 3], target="countess")
    made = next(e for e in reversed(table.log.events) if e.kind == "perception.made")
    assert without_names(made.payload) == {
        "perceiver": "twelve",
        "target": "countess",
        "total": 14,
        "envelopes": [
            {"id": "to-some", "label": "Give to Character 12, 20, 32, if they Roll 14 or more"}
        ],
    }
    told = {s.name: (s.audience, s.value) for s in made.secrets}
    assert told["perception"] == (only("twelve"), 3)
    assert told["faces"] == (only("twelve"), [4, 4, 3])
    assert told["roll"] == (
        only("twelve"),
        {
            "card": "roll",
            "label": "Miss Twelve perceives The Countess",
            "rule": "Perception Envelopes",
            "dice": "3d6+3",
            "odds": None,
            "faces": [4, 4, 3],
            "outcome": "rolled",
            "margin": None,
            "value": 14,
            "opponent": None,
            "shown": "3d6 (4, 4, 3) + 3 = 14",
        },
    )
    assert told["contents"] == (
        only("twelve"),
        {"to-some": {"contents": TO_SOME["contents"], "directions": TO_SOME["directions"]}},
    )
    timer = table.log.events[-1]
    assert (timer.kind, timer.audience) == ("timer.set", only("twelve"))
    assert timer.payload == {
        "name": "perception:twelve:countess",
        "after": 15 * MINUTE,
        "label": "Miss Twelve may perceive The Countess again",
    }
    audience, chances = told["chances"]
    assert audience == REFEREE_ONLY and chances["to-twenty"] == "0" != chances["to-some"]
    audience, cards = told["rolls"]
    assert audience == REFEREE_ONLY
    assert [
        (c["label"], c["rule"], c["outcome"], c["margin"], c["value"], c["faces"]) for c in cards
    ] == [
        (
            "Miss Twelve perceives The Countess: to-some",
            "Perception Envelopes",
            "success",
            0,
            14,
            [4, 4, 3],
        ),
        (
            "Miss Twelve perceives The Countess: to-all",
            "Perception Envelopes",
            "failure",
            -2,
            14,
            [4, 4, 3],
        ),
    ]
    assert [c["shown"] for c in cards] == ["3d6 (4, 4, 3) + 3 = 14"] * 2


def test_a_refused_second_check_names_the_time_it_may_be_made() -> None:
    """Perception Checks: "once every 15 minutes": a second check on the Countess is refused,
    naming when the next may be made; asked with no clock, the refusal names only that time."""
    table = act(start(evening()), "twelve", "perceive", [4, 4, 3], target="countess")
    state = table.state
    twelve, countess = state.character("twelve"), state.character("countess")
    with pytest.raises(RuleError) as error:
        perceive(state, twelve, countess, ScriptedSource([]), None)
    assert error.value.reason.endswith("the next check may be made at 19:15")


def test_the_log_says_which_envelopes_a_perception_check_hands_over_and_what_they_say() -> None:
    """Perception Envelopes: the line gives the total and the envelopes handed over; for those
    who may read them, each one's contents and directions."""
    check = {"perceiver": "twelve", "target": "countess", "total": 14}
    assert (
        _line("perception.made", envelopes=[], **check)
        == "twelve makes a Perception Check on countess: total 14; no envelope is handed over."
    )
    handed = [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]
    contents = {"a": {"contents": "x", "directions": "d"}, "b": {"contents": "y", "directions": ""}}
    assert (
        _line("perception.made", envelopes=handed, contents=contents, **check)
        == "twelve makes a Perception Check on countess: total 14; hands over a (A), b (B)."
        " a reads: x Directions: d b reads: y"
    )
    assert (
        _line("perception.made", envelopes=handed[:1], **check)
        == "twelve makes a Perception Check on countess: total 14; hands over a (A)."
    )
