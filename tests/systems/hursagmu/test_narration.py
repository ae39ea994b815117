"""The log in words (issue 26): a Hursagmu character's id is its name, so the log writes it
capitalised ("sleeper" reads "Sleeper"), a possessive reads "Marcos'" and "Bob's", and an
Initiative roll, which has nothing to beat, has no margin."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event, Viewer
from referee.systems.hursagmu import events as E


def _said(event_kind: str, data: dict[str, object]) -> str:
    return E.describe(Event(event_kind, data), Viewer("bob"))  # type: ignore[arg-type]


def test_characters_are_named_with_a_capital() -> None:
    assert _said(E.ENCOUNTER_BEGAN, {"characters": ["bob", "first_swordsman"]}) == (
        "The encounter begins: Bob, First Swordsman."
    )
    assert _said(
        E.DAMAGE_TAKEN, {"character": "fred", "damage": 7, "by": "mace", "hits_left": 3}
    ) == ("Fred takes 7 damage from Mace (3 hits left).")


def test_possessives_read_as_english() -> None:
    resolved = {"attacker": "marcos", "target": "bob", "hit": True, "defended": False}
    assert _said(E.ATTACK_RESOLVED, resolved) == "Marcos' attack, undefended: hits Bob."
    failed = {"character": "bob", "task": "search", "reason": "injured"}
    assert _said(E.TASK_FAILED, failed) == "Bob's search fails: injured."


def test_a_noticed_flag_is_not_taken_for_a_name() -> None:
    rolled = {"character": "sleeper", "skill": "perception", "noticed": True}
    assert _said(E.PERCEPTION_ROLLED, rolled) == "Sleeper rolls perception in secret: noticed."


# -- every kind of event told in words -------------------------------------------------------------


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
        E.ACTIONS_BEGAN,
        {"round": 1, "held": {"bob": 12, "cy": 7}},
        "Round 1: the Action phase begins. Bob held his action over: Initiative 12, first. Cy held"
        " his action over: Initiative 7, first.",
    ),
    (E.ACTIONS_BEGAN, {"round": 1, "held": ["bob"]}, "Round 1: the Action phase begins."),
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
