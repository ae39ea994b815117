"""Tests that kill the mutants mutmut left alive in round 5 of issue 13 (docs/systems/intrigue.md,
"Mutation testing", "Round 5"): what a Combat Action's declaration may name, and what it records.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    MINUTE,
    REFEREE_ONLY,
    Action,
    Event,
    RuleError,
    ScenarioError,
    only,
)
from referee.dice import ScriptedSource
from referee.systems.intrigue import load_game
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.game import unworn_numbers
from referee.systems.intrigue.odds import upcoming
from referee.systems.intrigue.perception import perceive

from .helpers import act, character, start, without_names
from .test_combat import (
    T,
    brawl,
    combat,
    declare,
    fight,
    knock_out_bob,
    resolve,
    two_dodges,
)
from .test_envelopes import TO_ALL, TO_SOME, evening
from .test_mutants import _line
from .test_mutants_resolve import _round

# -- declaring a Combat Action (combat_actions.validate, declare) ---------------------------


def _krockin_uses_mind(**changes: Any) -> T:
    """Alf and Krockin each defend in round 1; Krockin ranks by Mind in round 2."""
    table = declare(declare(fight("alf", "kro", **changes), "alf", "defend"), "kro", "defend")
    return act(resolve(resolve(table)), "kro", "use_mind")


def _cat_holds_bob() -> T:
    """Cat grabs Bob in round 1 with Alf on her side; Alf defends and Bob's attack lapses."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table, _ = _round(
        table,
        [
            ("cat", {"action": "grab", "target": "bob"}),
            ("alf", {"action": "defend"}),
            ("bob", {"action": "attack", "target": "cat"}),
        ],
        [6, 6, 6],
    )
    assert combat(table).holder_of("bob") == "cat"
    return table


# -- the fold (evolve.py) -------------------------------------------------------------------


def test_a_perception_check_folded_at_another_time_starts_its_cooldown_then() -> None:
    """Perception Checks: "once every 15 minutes" from the check's own game time, even when one
    event's payload is folded twice, at two times (the fold's memo keys on the time)."""
    state = start(brawl()).state
    payload = {"perceiver": "alf", "target": "bob"}
    early = evolve(state, Event("perception.made", payload, at=0))
    later = evolve(state, Event("perception.made", payload, at=10 * MINUTE))
    assert early.cooldown_until("alf", "bob") == 15 * MINUTE
    assert later.cooldown_until("alf", "bob") == 25 * MINUTE


# -- the game file (game.py) ----------------------------------------------------------------


def test_items_in_a_game_file_are_a_mapping_of_item_cards() -> None:
    """Items: a character's items are cards by name; anything else is refused at its path."""
    for items, path, words in (
        (["knife"], ("characters", "a", "items"), "items is a mapping, not list"),
        (
            {"knife": 3},
            ("characters", "a", "items", "knife"),
            "an item card is a mapping, not int",
        ),
    ):
        with pytest.raises(ScenarioError) as error:
            load_game({"characters": {"a": character("A", 15, items=items)}})
        assert error.value.path == path
        assert str(error.value).endswith(words)


def test_envelopes_for_a_number_nobody_wears_are_pointed_out() -> None:
    """Character Badges: an envelope for a number no character wears is likely a slip in the
    game file; every such number is named, and a worn one is not."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    perception_envelopes=[{"to": [12, 53, 54], "target": 14, "contents": "x"}],
                    contingency_envelopes=[
                        {"see": 53, "contents": "y"},
                        {"talk": 12, "contents": "z"},
                    ],
                ),
                "b": character("B", 12),
            }
        }
    )
    assert unworn_numbers(state) == [
        "a-p1 (Give to Character 12, 53, 54, if they Roll 14 or more): nobody wears 53, 54",
        "a-c1 (Open if you see character 53): nobody wears 53",
    ]


@pytest.mark.parametrize(
    ("sheet", "path", "words"),
    [
        (
            {"items": {"knife": {"damge": 3}}},
            ("items", "knife", "damge"),
            "unknown field 'damge' (known: damage, description)",
        ),
        *(
            (
                {"items": {"knife": {"damage": bad}}},
                ("items", "knife", "damage"),
                f"damage is a whole number, not {bad!r}",
            )
            for bad in (-1, "big", True)
        ),
        (
            {"items": {"knife": {"description": 5}}},
            ("items", "knife", "description"),
            "description is text, not 5",
        ),
        ({"languages": "French"}, ("languages",), "languages is a list of language names"),
        ({"languages": [1]}, ("languages",), "languages is a list of language names"),
        (
            {"perception_envelopes": [3]},
            ("perception_envelopes", 0),
            "an envelope is a mapping, not int",
        ),
        (
            {"perception_envelopes": [{"to": "ALL", "target": 14, "contents": "x", "hue": 1}]},
            ("perception_envelopes", 0, "hue"),
            "unknown field 'hue' (known: contents, directions, id, target, to)",
        ),
    ],
)
def test_a_bad_item_language_or_envelope_is_refused_at_its_path(
    sheet: dict[str, Any], path: tuple[object, ...], words: str
) -> None:
    """The game file: an item card, a language list or a Perception Envelope that is not as the
    rules write it is refused, naming the field."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, **sheet)}})
    assert error.value.path == ("characters", "a", *path)
    assert str(error.value).endswith(words)


def test_an_item_card_may_do_no_damage_and_carry_a_description() -> None:
    """Items: a card's damage may be 0 and its description is kept (none: empty); an envelope
    may be for a single Character Number."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    items={"knife": {"damage": 0, "description": "a blade"}, "note": {}},
                    perception_envelopes=[{"to": 12, "target": 14, "contents": "x"}],
                )
            }
        }
    )
    knife, note = state.character("a").items
    assert (knife.damage, knife.description) == (0, "a blade")
    assert (note.damage, note.description) == (None, "")
    assert state.perception_envelopes[0].given_to == ("12",)


_A = {"number": 15}
_ALL_14 = {"to": "ALL", "target": 14, "contents": "x"}


def _envelope(**fields: Any) -> dict[str, Any]:
    """A game whose one character holds one Perception Envelope of ``fields``."""
    return {"characters": {"a": {"number": 15, "perception_envelopes": [fields]}}}


@pytest.mark.parametrize(
    ("setup", "refusal"),
    [
        ({"characters": [1]}, "characters: characters is a mapping, not list"),
        ({}, "characters: a game has characters"),
        (
            {"characters": {"a": _A}, "title": "x"},
            "title: unknown field 'title' (known: characters, start)",
        ),
        ({"characters": {"a": 3}}, "characters.a: a character is a mapping, not int"),
        *(
            ({"characters": {cid: _A}}, f"characters.{cid}: a character id is a name, not {cid!r}")
            for cid in ("15", "referee", "public", "ALL")
        ),
        (
            {"characters": {"a": {"number": 15, "skills": ["Perception"]}}},
            "characters.a.skills: skills is a mapping, not list",
        ),
        (
            {"characters": {"a": {"number": 7}}},
            "characters.a.number: a character number has two digits, not 7 "
            "(write numbers below 10 in quotes, like '07')",
        ),
        (
            {"characters": {"a": {"number": "abc"}}},
            "characters.a.number: a character number has two digits, not 'abc'",
        ),
        (
            _envelope(to="ALL", target="high", contents="x"),
            "characters.a.perception_envelopes.0.target: target is a whole number, at least 0, "
            "not 'high'",
        ),
        (
            _envelope(to="ALL", target=14),
            "characters.a.perception_envelopes.0.contents: contents is text, not None",
        ),
        (
            _envelope(to="ALL", target=14, contents="x", directions=5),
            "characters.a.perception_envelopes.0.directions: directions is text, not 5",
        ),
        (
            _envelope(to="ALL", target=14, contents="x", id=5),
            "characters.a.perception_envelopes.0.id: id is text, not 5",
        ),
        *(
            ({"characters": {"a": {"number": 15, **sheet}}}, f"characters.a.{refusal}")
            for sheet, refusal in (
                ({"name": 5}, "name: name is text, not 5"),
                ({"strength": "x"}, "strength: strength is a whole number, at least 0, not 'x'"),
                ({"mind": "x"}, "mind: mind is a whole number, at least 0, not 'x'"),
                (
                    {"speaks_english": "yes"},
                    "speaks_english: speaks_english is true or false, not 'yes'",
                ),
                ({"wounds": 0}, "wounds: wounds is a whole number, at least 1, not 0"),
                ({"wounds": "x"}, "wounds: wounds is a whole number, at least 1, not 'x'"),
            )
        ),
        *(
            (
                {"start": clock, "characters": {"a": _A}},
                f"start: a clock time runs from 00:00 to 23:59, not {clock!r}",
            )
            for clock in ("24:00", "25:00:00")
        ),
    ],
)
def test_a_bad_game_file_is_refused_by_the_field_at_fault(
    setup: dict[str, Any], refusal: str
) -> None:
    """The game file: what is not as the rules write it (a character id that is a number or a
    seat's name, a number not of two digits, a clock time past 23:59, ...) is refused by its
    path, in words."""
    with pytest.raises(ScenarioError) as error:
        load_game(setup)
    assert str(error.value) == refusal


def test_ten_and_ninety_nine_are_badge_numbers_and_the_evening_may_start_at_23_59() -> None:
    """Character Badges: "A two digit number": 10 to 99. A game may start at 23:59; envelopes
    with no id are numbered from 1, with no directions."""
    state = load_game(
        {
            "start": "23:59",
            "characters": {
                "a": {"number": 10},
                "b": {"number": 99},
                "c": {"number": 15, "perception_envelopes": [_ALL_14, _ALL_14]},
            },
        }
    )
    assert [c.number for c in state.characters] == ["10", "99", "15"]
    assert [(p.id, p.directions) for p in state.perception_envelopes] == [
        ("c-p1", ""),
        ("c-p2", ""),
    ]


def test_a_sheet_without_statistics_has_the_games_defaults() -> None:
    """Statistics: a sheet that gives none has Combat, Strength and Mind 1 and Stamina 6, and
    as many wounds; a Stamina of 1 is allowed."""
    state = load_game({"characters": {"a": {"number": 15}, "b": {"number": 16, "stamina": 1}}})
    a, b = state.characters
    assert (a.combat, a.strength, a.mind, a.stamina, a.wounds) == (1, 1, 1, 6, 6)
    assert (b.stamina, b.wounds) == (1, 1)


# -- Perception Checks and Contingency Envelopes (perception.py) ---------------------------


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


# -- joining and initiative (combat.py, rounds.py) ------------------------------------------


def test_a_refused_second_check_names_the_time_it_may_be_made() -> None:
    """Perception Checks: "once every 15 minutes": a second check on the Countess is refused,
    naming when the next may be made; asked with no clock, the refusal names only that time."""
    table = act(start(evening()), "twelve", "perceive", [4, 4, 3], target="countess")
    state = table.state
    twelve, countess = state.character("twelve"), state.character("countess")
    with pytest.raises(RuleError) as error:
        perceive(state, twelve, countess, ScriptedSource([]), None)
    assert error.value.reason.endswith("the next check may be made at 19:15")


# -- what each seat is offered in a combat (procedure.py's menus) ---------------------------

_MENU_KINDS = ("declare", "resolve", "use_mind", "next_round", "escape")


def _menu(table: T, who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """``who``'s combat choices: kind, label and each parameter's values (or bounds)."""
    assert {c.actor for c in table.legal_actions(who)} <= {who}
    return [
        (
            c.kind,
            c.label,
            {k: getattr(v, "values", None) or (v.low, v.high) for k, v in c.params.items()},
        )
        for c in table.legal_actions(who)
        if c.kind in _MENU_KINDS
    ]


def _d(action: str, label: str = "", **params: Any) -> tuple[str, str, dict[str, Any]]:
    return ("declare", label or action, {"action": (action,), **params})


_SCREAM = _d("scream", bonus=(0, 3))
_NEXT = ("next_round", "", {"combat": ("combat-1",)})
_RESOLVE = ("resolve", "", {"combat": ("combat-1",)})
_ARMS = _d("draw", item=("cosh", "pistol"))


def _referee_menu(table: T) -> list[tuple[Any, ...]]:
    return [
        (
            c.actor,
            c.kind,
            c.label,
            {k: getattr(v, "values", None) for k, v in c.params.items()},
            [(o.label, o.rule) for o in c.odds],
        )
        for c in table.legal_actions("referee")
    ]


# -- the log's words (events.describe) -------------------------------------------------------


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


# -- the odds shown before an action (odds.py) -----------------------------------------------


def test_the_odds_shown_are_those_of_the_roll_the_action_would_make() -> None:
    """Each roll previewed before it is made: an escape against the strongest attacker, a
    Medicine roll to wake (14 or more), an opposed Skill Roll against the other's named skill,
    a mental attack against its set number or Mind + 10, and only the envelopes meant for the
    perceiver."""

    def words(state: Any, actor: str, kind: str, **params: Any) -> list[str]:
        return [w for w, _ in upcoming(state, Action(actor, kind, params))]

    assert words(two_dodges().state, "bob", "escape") == [
        "bob escapes alf: 3d6+Combat > 3d6+Combat"
    ]
    assert words(knock_out_bob().state, "cat", "revive", target="bob") == [
        "cat wakes bob: 3d6+2 ≥ 14"
    ]
    evening_ = start(evening()).state
    assert words(evening_, "fifteen", "roll", skill="Perception", against="twelve") == [
        "fifteen Perception: 3d6+3 ≥ twelve's 3d6+3"
    ]
    assert words(
        evening_, "fifteen", "roll", skill="Perception", against="twelve", against_skill="Medicine"
    ) == ["fifteen Perception: 3d6+3 ≥ twelve's 3d6+0"]
    assert words(evening_, "fifteen", "perceive", target="countess") == [
        "fifteen is given to-all (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16"
    ]
    assert words(evening_, "twelve", "perceive", target="countess") == [
        "twelve is given to-all (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16",
        "twelve is given to-some (Give to Character 12, 20, 32, if they Roll 14 or more):"
        " 3d6+3 ≥ 14",
    ]
    assert words(evening_, "fifteen", "resolve") == []  # in no combat
    brawl_ = start(brawl()).state
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Energy Bolt") == [
        "kro Energy Bolt alf: 3d6+3 > 16"
    ]
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Befuddle") == [
        "kro Befuddle alf: 3d6+3 > 11"
    ]
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Nope") == []
