"""Tests that kill the mutants mutmut left alive in round 6 of issue 13
(docs/systems/intrigue.md, "Mutation testing", "Round 6"): what a character is offered in the
evening (perceive, roll, report, encounter, open, speak, draw, start or join a combat, an
unnoticed mental attack, and the victor's way with the Knocked Out), who may act at all, and the
odds each offer shows.
"""

from __future__ import annotations

from typing import Any

from referee.core import Table, view
from referee.systems.intrigue import IntrigueState

from .helpers import act, character, start, without_names
from .test_combat import brawl, declare, resolve

T = Table[IntrigueState]


def menu(table: T, who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Each offer to ``who`` as (kind, label, params), in the order offered."""
    offers = [c.to_json() for c in table.legal_actions(who)]
    assert {o["actor"] for o in offers} <= {who}
    return [(o["kind"], o["label"], o["params"]) for o in offers]


def odds(table: T, who: str, kind: str) -> list[tuple[str, str, str, dict[str, str]]]:
    """The odds shown with ``who``'s offers of ``kind``: (label, rule, dice, odds)."""
    return [
        (o["label"], o["rule"], o["dice"], o["odds"])
        for c in table.legal_actions(who)
        if c.kind == kind
        for o in c.to_json()["odds"]
    ]


def one_of(*values: Any) -> dict[str, Any]:
    return {"one_of": list(values)}


def some_of(*values: str, most: int | None = None) -> dict[str, Any]:
    return {"some_of": list(values), "least": 1, "most": most}


HOW = one_of("see", "meet", "talk")
SAY = {"text": "Hm."}


def soiree() -> dict[str, Any]:
    return {
        "start": "20:00",
        "characters": {
            "ann": character(
                "Ann",
                21,
                mind=3,
                skills={"Lockpicking": 3, "Medicine": 2, "Perception": 1},
                languages=["French", "Latin"],
                items={"knife": {"damage": 2}, "locket": {"damage": 0}},
                abilities={
                    "Whisper": {"mental": True},
                    "Stare": {"mental": True, "target": 12},
                    "Bolt": {"mental": True, "obvious": True, "damage": 2},
                    "Sting": {"mental": True, "damage": 1},
                    "Luck": {},
                },
                contingency_envelopes=[
                    {"event": "shot", "contents": "a"},
                    {"event": "kissed", "contents": "b"},
                    {"event": "shot", "contents": "c", "id": "again"},
                    {"at": "21:00", "contents": "d"},
                    {"meet": 22, "contents": "e"},
                ],
            ),
            "ben": character("Ben", 22, mind=2, speaks_english=False, languages=["French"]),
            "cyd": character("Cyd", 23, mind=4),
        },
    }


def test_in_the_evening_a_character_is_offered_every_action_open_to_them() -> None:
    """Perception Envelopes, Skill Rolls, Contingency Envelopes, Languages, Starting Combat,
    Mental Combat: each character is offered a Perception Check on each other character, a roll
    of Perception or a skill on the sheet against a Target Number or another character, the
    happenings their "Open if" envelopes wait for, meeting another, the languages they speak to
    one or more listeners, drawing each Item Card, a combat on up to three characters (or one
    surprised), and each subtle mental ability (neither obvious nor doing damage) on each
    other, with its odds."""
    table = start(soiree())
    others = one_of("ben", "cyd")
    skills = one_of("Perception", "Lockpicking", "Medicine")
    assert menu(table, "ann") == [
        ("perceive", "perceive", {"target": others}),
        (
            "roll",
            "skill roll against a Target Number",
            {"skill": skills, "target": {"between": [3, 24]}},
        ),
        ("roll", "skill roll against another character", {"skill": skills, "against": others}),
        ("report", "", {"event": one_of("shot", "kissed")}),
        ("encounter", "", {"character": others, "how": HOW}),
        (
            "speak",
            "",
            {
                "language": one_of("English", "French", "Latin"),
                "listeners": some_of("ben", "cyd"),
                "content": SAY,
            },
        ),
        ("draw", "", {"item": one_of("knife", "locket")}),
        ("start_combat", "start a combat", {"targets": some_of("ben", "cyd", most=2)}),
        (
            "start_combat",
            "start a combat, surprising ben",
            {"targets": one_of(["ben"]), "surprised": one_of(["ben"])},
        ),
        (
            "start_combat",
            "start a combat, surprising cyd",
            {"targets": one_of(["cyd"]), "surprised": one_of(["cyd"])},
        ),
        ("mental_attack", "", {"target": others, "ability": one_of("Whisper", "Stare")}),
    ]
    # Mind 3 against 10 + the target's Mind 2 or 4, or Stare's own Target Number 12
    assert odds(table, "ann", "mental_attack") == [
        ("ann Whisper ben", "Mental Combat", "3d6+3 > 12", {"failure": "3/8", "success": "5/8"}),
        ("ann Whisper cyd", "Mental Combat", "3d6+3 > 14", {"failure": "5/8", "success": "3/8"}),
        ("ann Stare ben", "Mental Combat", "3d6+3 > 12", {"failure": "3/8", "success": "5/8"}),
        ("ann Stare cyd", "Mental Combat", "3d6+3 > 12", {"failure": "3/8", "success": "5/8"}),
    ]
    # Ben speaks French but no English, and carries nothing: any happening may be reported
    others = one_of("ann", "cyd")
    assert menu(table, "ben") == [
        ("perceive", "perceive", {"target": others}),
        (
            "roll",
            "skill roll against a Target Number",
            {"skill": one_of("Perception"), "target": {"between": [3, 24]}},
        ),
        (
            "roll",
            "skill roll against another character",
            {"skill": one_of("Perception"), "against": others},
        ),
        ("report", "", {"event": {"text": "shot"}}),
        ("encounter", "", {"character": others, "how": HOW}),
        (
            "speak",
            "",
            {"language": one_of("French"), "listeners": some_of("ann", "cyd"), "content": SAY},
        ),
        ("start_combat", "start a combat", {"targets": some_of("ann", "cyd", most=2)}),
        (
            "start_combat",
            "start a combat, surprising ann",
            {"targets": one_of(["ann"]), "surprised": one_of(["ann"])},
        ),
        (
            "start_combat",
            "start a combat, surprising cyd",
            {"targets": one_of(["cyd"]), "surprised": one_of(["cyd"])},
        ),
    ]
    assert odds(table, "ben", "mental_attack") == []


def after_a_fight() -> T:
    """Alf has perceived Cyd, then knocked Bob out in a combat that is over; Cyd's "Open if
    shot" envelope may open; Dan has just started a combat on Eve."""
    setup = {
        "start": "20:00",
        "characters": {
            "alf": character(
                "Alf",
                11,
                combat=2,
                stamina=9,
                skills={"Medicine": 1},
                items={"knife": {"damage": 5}, "locket": {}},
            ),
            "bob": character(
                "Bob", 12, combat=1, stamina=5, items={"locket": {}, "ring": {}, "pipe": {}}
            ),
            "cyd": character(
                "Cyd",
                13,
                contingency_envelopes=[
                    {"event": "shot", "contents": "x"},
                    {"event": "stabbed", "contents": "y"},
                ],
            ),
            "dan": character("Dan", 14),
            "eve": character("Eve", 15),
        },
    }
    table = act(start(setup), "alf", "perceive", [1, 1, 1], target="cyd")
    table = act(table, "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = resolve(
        declare(declare(table, "alf", "attack", target="bob"), "bob", "defend"), (6,) * 3
    )
    table = act(table, "cyd", "report", event="shot")
    return act(table, "dan", "start_combat", targets=["eve"])


def party() -> dict[str, Any]:
    whisper = {"Whisper": {"mental": True}}
    names = ("ann", "ben", "cyd", "dan", "eve")
    cast = {n: character(n.title(), 21 + i) for i, n in enumerate(names)}
    cast["ann"] = character("Ann", 21, abilities=whisper)
    return {"start": "20:00", "characters": cast}


def kinds_offered(table: T, who: str) -> dict[str, list[dict[str, Any]]]:
    offered: dict[str, list[dict[str, Any]]] = {}
    for kind, _, params in menu(table, who):
        offered.setdefault(kind, []).append(params)
    return offered


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


def two_combats() -> T:
    """Alf fights Bob (combat-1) and Cat fights Dan (combat-2); everyone has declared."""
    table = act(start(brawl()), "alf", "start_combat", targets=["bob"])
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = act(table, "cat", "start_combat", targets=["dan"])
    return declare(declare(table, "cat", "grab", target="dan"), "dan", "attack", target="cat")
