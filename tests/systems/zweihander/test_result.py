"""The end and the result (issue 26): a Zweihänder table's conflict is its chase ("Chase scene
rules": "The chase ends if one of the following conditions is met") or its Complex Exchange
("Social Intrigue"); the house rules have no end of their own, so the game is never over."""

from __future__ import annotations

from typing import Any

from referee.core import Result, Table, Viewer, observe
from referee.systems.zweihander.state import ZweihanderState

from .helpers import act, table

T = Table[ZweihanderState]

RUNNER = {
    "bonuses": {"AB": 4, "BB": 3, "PB": 2},
    "skills": {"Coordination": 50, "Athletics": 50, "Toughness": 50, "Charm": 50},
}
CHASER = {
    "bonuses": {"AB": 3, "BB": 5, "PB": 4},
    "skills": {"Coordination": 45, "Toughness": 45, "Intimidate": 45},
}


def chase(**params: Any) -> T:
    """runner flees chaser on foot (head start 5 on the d10 of the ladder)."""
    t = table({"runner": RUNNER, "chaser": CHASER})
    return act(
        t,
        "referee",
        "chase.start",
        [5],
        escapees={"runner": "on foot"},
        pursuers={"chaser": "on foot"},
        **params,
    )


def play_round(t: T, moves: list[int], end: list[int]) -> T:
    for who, face in zip(("runner", "chaser"), moves, strict=True):
        t = act(t, who, "chase.move", [face])
    return act(t, "referee", "chase.end_round", end)


def caught() -> T:
    """chaser catches up with runner in the first round (Standard Takedown)."""
    t = act(chase(takedown="Standard"), "runner", "chase.move", [1])
    return act(t, "chaser", "chase.move", [9])


def exchange(t: T) -> T:
    return act(
        t,
        "referee",
        "exchange.start",
        npc="Countess",
        disposition="Indifferent",
        npc_alignment="order",
        npc_class="noble",
        participants=["runner"],
        favourable="Charm",
        unfavourable="Intimidate",
    )


def conflict(t: T) -> Result:
    found = t.conflict()
    assert found is not None
    return found


def test_before_a_chase_or_an_exchange_there_is_no_conflict_and_never_an_end() -> None:
    t = table({"runner": RUNNER, "chaser": CHASER})
    assert t.conflict() is None
    assert t.result() == Result("the game")


def test_the_escape_condition_met_the_escapees_win() -> None:
    """ "The Escape Condition is met (that is, 3/6/9 Rounds have passed)": runner escapes."""
    t = chase(escape_condition=3)
    for _ in range(2):
        t = play_round(t, [9, 1], [1])
    before = conflict(t)
    assert before.name == "the chase" and not before.over and before.winners == ()
    t = play_round(t, [9, 1], [1])
    result = conflict(t)
    assert result.over
    assert result.winners == ("escapees",)
    assert dict(result.returns) == {"runner": 1, "chaser": -1}
    assert "runner escaped" in result.summary
    assert not t.result().over


def test_all_escapees_taken_down_the_pursuers_win() -> None:
    """ "All Escapees have been taken down": a Critical Success Takedown takes both out."""
    before = caught()
    assert not conflict(before).over
    t = act(before, "chaser", "chase.takedown", [33])
    result = conflict(t)
    assert result.over
    assert result.winners == ("pursuers",)
    assert dict(result.returns) == {"runner": -1, "chaser": 1}
    assert "all escapees have been taken down" in result.summary


def test_a_side_that_gives_up_loses() -> None:
    """ "One side gives up": the pursuers give up and runner escapes; or the escapees do."""
    pursuers = conflict(act(chase(), "referee", "chase.give_up", side="pursuers"))
    assert pursuers.over and pursuers.winners == ("escapees",)
    escapees = conflict(act(chase(), "referee", "chase.give_up", side="escapees"))
    assert escapees.over and escapees.winners == ("pursuers",)


def test_a_complex_exchange_is_over_when_the_gm_ends_it_and_names_no_winner() -> None:
    """ "Result is based on Disposition and the Test's result": no winner; each result said."""
    t = exchange(table({"runner": RUNNER, "chaser": CHASER}))
    result = conflict(t)
    assert result.name == "the Complex Exchange with Countess"
    assert not result.over and "runner still to test" in result.summary
    t = act(t, "runner", "exchange.tactic", [40], tactic="Charm")  # Favourable: critical
    assert not conflict(t).over
    t = act(t, "referee", "exchange.end")
    result = conflict(t)
    assert result.over and result.winners == ()
    assert result.summary == "runner: Affectionate"


def test_an_exchange_the_gm_ends_before_anyone_tests_says_so() -> None:
    t = act(exchange(table({"runner": RUNNER, "chaser": CHASER})), "referee", "exchange.end")
    result = conflict(t)
    assert result.over and result.summary == "no Tactic tested"


def test_the_conflict_is_the_one_under_way_else_the_chase() -> None:
    """A chase under way comes first; an exchange under way comes before a chase ended; of
    two ended, the chase (the state keeps no order between them)."""
    running = exchange(chase())
    assert conflict(running).name == "the chase"
    ended = act(chase(), "referee", "chase.give_up", side="pursuers")
    talking = exchange(ended)
    assert conflict(talking).name == "the Complex Exchange with Countess"
    done = act(act(talking, "runner", "exchange.tactic", [40], tactic="Charm"), "referee",
               "exchange.end")  # fmt: skip
    assert conflict(done).name == "the chase" and conflict(done).over


def test_every_page_is_sent_the_chase() -> None:
    t = act(caught(), "chaser", "chase.takedown", [33])
    seen = observe(t, Viewer("runner", frozenset({"runner"}))).to_json()["result"]
    assert seen["over"] is False
    assert seen["conflict"]["name"] == "the chase" and seen["conflict"]["winners"] == ["pursuers"]
