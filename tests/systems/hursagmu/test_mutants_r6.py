"""Tests that kill the mutants of HURSAGMU's rules that mutmut left alive or never reached before
round 6 of issue 13 (docs/systems/hursagmu.md, "Mutation testing", "Round 6"): what each seat may
do now and the odds shown before a step (``choices.py``), and the log lines a player reads
(``events.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event, Viewer
from referee.systems.hursagmu import events as E

from .helpers import _kinds, _odds
from .test_encounter import FIGHTER, initiative, play, start

NARRATION: list[tuple[str, dict[str, Any], str]] = [
    (
        E.ENCOUNTER_BEGAN,
        {"characters": ["bob", "fred"], "options": {}},
        "The encounter begins: Bob, Fred.",
    ),
    (
        E.ROUND_ZERO_BEGAN,
        {"initiators": ["bob", "al"], "surprised": ["fred", "sam"], "stance": "maneuver"},
        "Round zero: Bob, Al open the conflict (maneuver); surprised: Fred, Sam.",
    ),
    (
        E.ROUND_ZERO_BEGAN,
        {"initiators": ["bob"], "surprised": [], "stance": "concentrate"},
        "Round zero: Bob open the conflict (concentrate); surprised: nobody.",
    ),
    (
        E.INITIATIVE_ROLLED,
        {"character": "bob", "stance": "maneuver", "held": True},
        "Bob acts first, having held his action over (maneuver).",
    ),
    (
        E.INITIATIVE_ROLLED,
        {
            "character": "bob",
            "stance": "concentrate",
            "skill": "command",
            "initiative": 11,
            "held": False,
        },
        "Bob chooses to concentrate and rolls command: Initiative 11.",
    ),
    (E.ACTIONS_BEGAN, {"round": 2}, "Round 2: the Action phase begins."),
    (
        E.PLAN_DECLARED,
        {
            "character": "bob",
            "steps": [{"attack": "fred", "skill": "striking"}, {"move": "foot", "yards": 10}],
            "penalty": -2,
        },
        "Bob declares: attack fred (striking); move foot 10 yards (skill penalty -2).",
    ),
    (
        E.PLAN_DECLARED,
        {"character": "bob", "steps": [{"defend": "defense"}], "penalty": 0},
        "Bob declares: defend (defense) (skill penalty +0).",
    ),
    (
        E.TURN_ABORTED,
        {"character": "fred", "stance": "maneuver"},
        "Fred aborts the rest of his turn to defend (maneuver).",
    ),
    (
        E.CHARACTER_MOVED,
        {"character": "bob", "movement": "foot", "yards": 12, "initiative": 9},
        "Bob moves (foot 12 yards) at Initiative 9.",
    ),
    (
        E.CHARACTER_MOVED,
        {"character": "bob", "movement": "charge", "initiative": 0},
        "Bob moves (charge) at Initiative 0.",
    ),
    (
        E.CHARACTER_MOVED,
        {
            "character": "bob",
            "movement": "foot",
            "yards": 0,
            "initiative": 7,
            "after_waiting": True,
        },
        "Bob moves (foot) after waiting.",
    ),
    (
        E.CHARACTER_STUMBLED,
        {"character": "bob", "skill": "acrobatics", "initiative": 5},
        "Bob fails the acrobatics roll and gets nowhere at Initiative 5.",
    ),
    (E.MINOR_DONE, {"character": "bob", "name": "draw a sword"}, "Bob does draw a sword."),
    (E.MINOR_DONE, {"initiative": 4}, "someone does a minor action at Initiative 4."),
    (
        E.TASK_CONTINUED,
        {"character": "bob", "task": "search", "round_of_task": 2, "rounds": 3, "initiative": 6},
        "Bob carries on with search (round 2 of 3) at Initiative 6.",
    ),
    (
        E.TASK_ROLLED,
        {"character": "bob", "task": "search", "success": True, "initiative": 6},
        "Bob succeeds at search at Initiative 6.",
    ),
    (E.TASK_ROLLED, {"character": "bob", "task": "climb", "success": False}, "Bob fails at climb."),
    (
        E.ATTACK_MADE,
        {
            "character": "bob",
            "target": "fred",
            "skill": "striking",
            "defence": "defend",
            "initiative": 8,
        },
        "Bob attacks Fred with striking at Initiative 8: Fred may defend.",
    ),
    (
        E.ATTACK_MADE,
        {
            "character": "bob",
            "target": "fred",
            "skill": "striking",
            "defence": "abort",
            "after_waiting": True,
        },
        "Bob attacks Fred with striking after waiting: Fred may abort his turn to defend.",
    ),
    (
        E.ATTACK_MADE,
        {
            "character": "bob",
            "target": "fred",
            "skill": "missile",
            "defence": "none",
            "reason": "surprised",
        },
        "Bob attacks Fred with missile: Fred cannot defend (surprised).",
    ),
    (
        E.ATTACK_RESOLVED,
        {
            "attacker": "bob",
            "target": "fred",
            "defended": True,
            "defence_skill": "defense",
            "hit": True,
        },
        "Bob's attack against defense: hits Fred.",
    ),
    (
        E.ATTACK_RESOLVED,
        {"attacker": "bob", "target": "fred", "defended": False, "hit": False},
        "Bob's attack, undefended: misses Fred.",
    ),
    (
        E.DAMAGE_TAKEN,
        {"character": "fred", "damage": 7, "by": "bob", "hits_left": 3},
        "Fred takes 7 damage from Bob (3 hits left).",
    ),
    (
        E.TASK_FAILED,
        {"character": "bob", "task": "search", "reason": "injured"},
        "Bob's search fails: injured.",
    ),
    (
        E.CHARACTER_COLLAPSED,
        {"character": "fred", "cause": "injury"},
        "Fred collapses (injury).",
    ),
    (E.CHARACTER_WAITED, {"character": "fred"}, "Fred waits."),
    (
        E.ACTION_HELD,
        {"character": "fred", "round": 3},
        "Fred holds his action over into round 3.",
    ),
    (
        E.POWER_PUSHED,
        {
            "character": "bob",
            "hits": 2,
            "hits_left": 8,
            "strength": 4,
            "willpower": 3,
            "exhausted": False,
        },
        "Bob pushes his power: 2 hits of Stamina for Strength 4 and Willpower 3 (8 left).",
    ),
    (
        E.CONDITION_SET,
        {"character": "bob", "health_ok": True, "sanity_ok": False},
        "The Master rules Bob OK on Health, not OK on Sanity.",
    ),
    (
        E.CONDITION_SET,
        {"character": "bob", "health_ok": False, "sanity_ok": True, "asleep": True},
        "The Master rules Bob not OK on Health, OK on Sanity, asleep.",
    ),
    (
        E.CONDITION_SET,
        {"character": "bob", "health_ok": True, "sanity_ok": True, "asleep": False},
        "The Master rules Bob OK on Health, OK on Sanity, awake.",
    ),
    (E.HIT_RECOVERED, {"character": "bob", "hits": 9}, "Bob recovers a hit (9)."),
    (
        E.ROUND_ENDED,
        {"round": 2, "waiting_game": ["bob", "fred"]},
        "Round 2 ends. Waiting game: Bob, Fred.",
    ),
    (E.ROUND_ENDED, {"round": 3, "waiting_game": []}, "Round 3 ends."),
    (
        E.RACE_ROLLED,
        {"character": "bob", "against": "fred", "leader": "fred", "yards": 3},
        "Bob races Fred: Fred gains 3 yards.",
    ),
    (
        E.RACE_ROLLED,
        {"character": "bob", "against": "fred", "leader": None, "yards": 0},
        "Bob races Fred: neither gains.",
    ),
    (
        E.PERCEPTION_ROLLED,
        {"character": "bob", "skill": "perception", "noticed": True, "challenge": 9},
        "Bob rolls perception in secret against 9: noticed.",
    ),
    (
        E.PERCEPTION_ROLLED,
        {"character": "bob", "skill": "observation", "noticed": False},
        "Bob rolls observation in secret: noticed nothing.",
    ),
    (
        E.STEALTH_ROLLED,
        {"character": "bob", "skill": "stealth", "perceiver": "fred", "noticed": True},
        "Bob uses stealth on Fred: noticed.",
    ),
    (
        E.STEALTH_ROLLED,
        {
            "character": "bob",
            "skill": "shadowing",
            "perceiver": "fred",
            "noticed": False,
            "reason": "asleep",
        },
        "Bob uses shadowing on Fred: unnoticed (asleep).",
    ),
    (
        E.SNEAK_NOTICED,
        {"character": "fred", "noticed": "bob", "skill": "perception"},
        "Fred notices Bob (perception).",
    ),
    ("other.kind", {"a": 1, "b": "x"}, "other.kind: a=1, b='x'"),
    ("other.kind", {}, "other.kind"),
]


@pytest.mark.parametrize(
    ("kind", "data", "text"), NARRATION, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(NARRATION)]
)
def test_each_logged_event_reads_as_the_table_would_say_it(
    kind: str, data: dict[str, Any], text: str
) -> None:
    """The log line a player reads for each kind of event: who, what, at which Initiative, and
    the verdict of each roll, in the words of the rules."""
    assert E.describe(Event(kind, data), Viewer("bob")) == text


def test_every_kind_an_encounter_logs_has_its_own_words() -> None:
    """No kind of the vocabulary falls through to the raw fallback."""
    told = {kind for kind, _, _ in NARRATION}
    assert set(E.KINDS) <= told


def test_the_tables_read_afresh_are_the_texts_tables() -> None:
    """Loading the data files again gives the same tables, every cell a positive number of
    yards (a range increment of 1 yard, smell's, is one) and every skill Dex or Int."""
    from referee.systems.hursagmu import tables

    tables.load_ranges.cache_clear()
    tables.load_skills.cache_clear()
    try:
        attack, sorcery, senses = tables.load_ranges()
        skills = tables.load_skills()
    finally:
        tables.load_ranges.cache_clear()
        tables.load_skills.cache_clear()
    assert dict(attack) == dict(tables.ATTACK_TYPES) == {"thrown weapon": 2, "missile weapon": 10}
    assert dict(sorcery) == dict(tables.SORCERY_TYPES)
    assert dict(senses) == dict(tables.SENSES)
    assert senses["smell"] == 1
    assert dict(skills) == dict(tables.SKILL_ATTRIBUTES)
    assert set(skills.values()) == {"dexterity", "intelligence"}


def _refusal_of_table(loader: str, monkeypatch: pytest.MonkeyPatch, data: object) -> str:
    """The refusal of ``tables.<loader>`` reading ``data`` as its file (its cache cleared before
    and after, so no other test sees the bad table)."""
    from referee.core import ScenarioError
    from referee.systems.hursagmu import tables

    load = getattr(tables, loader)
    monkeypatch.setattr(tables, "_read", lambda name: data)
    load.cache_clear()
    try:
        with pytest.raises(ScenarioError) as refused:
            load()
    finally:
        monkeypatch.undo()
        load.cache_clear()
    return str(refused.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "missing table 'attack_types'"),
        ({}, "missing table 'attack_types'"),
        ({"attack_types": {}}, "missing table 'attack_types'"),
        ({"attack_types": ["bow"]}, "missing table 'attack_types'"),
        ({"attack_types": {"bow": True}}, "whole number of yards"),
        ({"attack_types": {"bow": "10"}}, "whole number of yards"),
        ({"attack_types": {"bow": 2.5}}, "whole number of yards"),
        ({"attack_types": {3: 10}}, "whole number of yards"),
        ({"attack_types": {"bow": -1}}, "range increment -1 is not positive"),
        (
            {"attack_types": {"bow": 1}, "sorcery_types": {"Talamu": 1}},
            "missing table 'senses'",
        ),
    ],
)
def test_a_bad_range_table_is_refused_when_loaded(
    monkeypatch: pytest.MonkeyPatch, data: object, message: str
) -> None:
    """A range table missing, empty, or with a cell that is not a positive whole number of
    yards is refused, naming what is wrong."""
    assert message in _refusal_of_table("load_ranges", monkeypatch, data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "missing table 'skills'"),
        ({}, "missing table 'skills'"),
        ({"skills": {}}, "missing table 'skills'"),
        ({"skills": {"striking": "strength"}}, "skill 'striking' rolls with 'strength'"),
    ],
)
def test_a_bad_skill_table_is_refused_when_loaded(
    monkeypatch: pytest.MonkeyPatch, data: object, message: str
) -> None:
    """The skill table missing, empty, or giving a skill an attribute other than Dexterity or
    Intelligence is refused."""
    assert message in _refusal_of_table("load_skills", monkeypatch, data)


ARCHER = dict(
    FIGHTER,
    weapon_type="missile weapon",
)


def test_the_next_movements_acrobatics_odds_carry_the_rounds_penalty() -> None:
    """A movement the Master asks a roll for previews its Acrobatics roll, under the Movement
    rule, with the round's penalty (attack and cinematic defences: -2)."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    plan = [
        {"move": "foot", "yards": 10, "challenge": 8},
        {"attack": "fred"},
        {"defend": True},
        {"defend": True},
    ]
    table = play(table, [("bob", "declare", {"actions": plan})])
    assert _odds(_kinds(table, "bob")["act"]) == [("Bob's acrobatics", "2d6 ≥ 8", "Movement")]


def test_a_ranged_attacks_odds_count_the_range_challenge() -> None:
    """A missile attack at 25 yards (10 yards an increment) has a range challenge of 2: the
    undefended roll needs 2, the defended one adds it to the defence."""
    table = start({"bob": ARCHER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(table, [("bob", "declare", {"actions": [{"attack": "fred", "yards": 25}]})])
    assert _odds(_kinds(table, "bob")["act"]) == [
        ("Bob's striking against Fred's defense", "2d6+7 vs 2d6+10", "Action"),
        ("Bob's striking against Fred, undefended", "2d6+7 ≥ 2", "Action"),
    ]
