"""Starting Combat (rules text, "Starting Combat"): who may start, join or be admitted to a
combat, and what the referee may do before one starts.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError

from .helpers import _cast, act, character, kinds_offered, one_of, some_of, start
from .test_combat import brawl, fight, knock_out_bob


def test_the_knocked_out_and_those_already_fighting_may_not_join_a_new_combat() -> None:
    """Starting Combat: the referee may not admit Bob, knocked out, to Cat's fight with Dan, nor
    may Cat attack him; Alf, in a fight of his own, may neither join another nor start one."""
    table = act(knock_out_bob(), "cat", "start_combat", targets=["dan"])
    with pytest.raises(RuleError, match="bob is out of action"):
        act(table, "referee", "admit", character="bob", **{"with": "dan"})
    with pytest.raises(RuleError, match="bob is out of action"):
        act(knock_out_bob(), "cat", "start_combat", targets=["bob"])
    table = act(fight("alf", "bob"), "cat", "start_combat", targets=["dan"])
    with pytest.raises(RuleError, match="alf is already in a combat"):
        act(table, "alf", "join", **{"with": "cat"})
    with pytest.raises(RuleError, match="alf is already in a combat"):
        act(table, "alf", "start_combat", targets=["eve"])


def test_the_referee_has_no_combat_to_run_before_one_starts() -> None:
    """Starting Combat: with no combat under way the referee may not resolve, end or admit."""
    assert list(start(brawl()).legal_actions("referee")) == []


def test_the_referee_may_admit_nobody_when_everyone_is_fighting() -> None:
    """Starting Combat: "unless a referee rules otherwise" — but with all four in the fight
    there is nobody left to admit."""
    table = act(start(_cast()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **{"with": "alf"}), "dan", "join", **{"with": "bob"})
    assert [c.kind for c in table.legal_actions("referee")] == ["next_round", "end_combat"]


def test_a_character_may_not_admit_anyone_nor_end_a_combat() -> None:
    """Starting Combat: only a referee "rules otherwise" and lets someone join, and stops a
    combat; a character who tries either is refused for it — a Knocked Out one for being out
    first ("Taking Damage")."""
    table = act(fight("alf", "bob"), "cat", "start_combat", targets=["dan"])
    tries: dict[str, dict[str, Any]] = {
        "admit": {"character": "eve", "with": "cat"},
        "end_combat": {"combat": "combat-2"},
    }
    for kind, params in tries.items():
        with pytest.raises(RuleError) as refused:
            act(table, "cat", kind, **params)
        assert (refused.value.rule, refused.value.reason) == (
            "Intrigue actions",
            f"no action {kind!r} for a character",
        )
    with pytest.raises(RuleError) as refused:
        act(knock_out_bob(), "bob", "end_combat", combat="combat-1")
    assert (refused.value.rule, refused.value.reason) == ("Taking Damage", "bob is Knocked Out")


def party() -> dict[str, Any]:
    whisper = {"Whisper": {"mental": True}}
    names = ("ann", "ben", "cyd", "dan", "eve")
    cast = {n: character(n.title(), 21 + i) for i, n in enumerate(names)}
    cast["ann"] = character("Ann", 21, abilities=whisper)
    return {"start": "20:00", "characters": cast}


def test_a_combat_is_started_on_up_to_three_of_those_free_to_fight() -> None:
    """Starting Combat: "point at the character, or characters, your character is attacking";
    the offer names up to three at once, of those on their feet and not in a combat (the same
    for a subtle mental attack's targets)."""
    table = start(party())
    offered = kinds_offered(table, "ann")
    assert offered["start_combat"][0] == {"targets": some_of("ben", "cyd", "dan", "eve", most=3)}
    table = act(table, "dan", "start_combat", targets=["eve"])
    offered = kinds_offered(table, "ann")
    assert offered["start_combat"][0] == {"targets": some_of("ben", "cyd", most=2)}
    assert [p["targets"] for p in offered["start_combat"][1:]] == [one_of(["ben"]), one_of(["cyd"])]
    assert offered["mental_attack"] == [
        {"target": one_of("ben", "cyd"), "ability": one_of("Whisper")}
    ]


def test_only_a_combat_not_yet_begun_and_not_a_surprise_may_be_joined() -> None:
    """Starting Combat: "anyone in the reasonable vicinity can declare that they are part of the
    combat, unless ... you have surprised your target(s) ... No-one else may join the combat
    until it has been resolved"."""
    table = act(start(party()), "dan", "start_combat", targets=["eve"])
    assert kinds_offered(table, "ann")["join"] == [{"with": one_of("dan", "eve")}]
    begun = act(table, "dan", "next_round")
    assert begun.state.combats[-1].round == 1
    assert "join" not in kinds_offered(begun, "ann")
    surprise = act(start(party()), "dan", "start_combat", targets=["eve"], surprised=["eve"])
    assert "join" not in kinds_offered(surprise, "ann")
