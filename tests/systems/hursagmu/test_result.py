"""The end and the result (issue 26): Hursagmu's conflict is the melee ("Conflict"), from the
encounter's start; the rules know no sides, so it is over when no more than one character is
still conscious, who wins it; the encounter rules have no end of their own beyond it."""

from __future__ import annotations

from dataclasses import replace

from referee.core import Result, Table, Viewer, observe
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.state import Encounter

from .test_encounter import FIGHTER, initiative, play, start

T = Table[Encounter]


def conflict(table: T) -> Result:
    found = table.conflict()
    assert found is not None
    return found


def fred_knocked_out(**others: dict[str, object]) -> T:
    """bob (Initiative 12) strikes fred (Stamina 5) down before fred's turn."""
    table = start({"bob": FIGHTER, "fred": {**FIGHTER, "stamina": 5}, **others})
    order = {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)}
    order.update({who: ("maneuver", 1, 1) for who in others})
    table = initiative(table, order)
    steps = [
        ("fred", "declare", {"actions": [{"attack": "bob"}]}),
        *((who, "declare", {"actions": [{"defend": "defense"}]}) for who in others),
        ("bob", "declare", {"actions": [{"attack": "fred"}]}),
        ("bob", "act", {}),
    ]
    return play(table, steps, [3, 3, 3, 3])


def test_the_melee_is_under_way_from_the_start_and_the_game_never_ends() -> None:
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    result = conflict(table)
    assert result.name == "the melee"
    assert not result.over and result.winners == ()
    assert table.result() == Result("the game")


def test_the_last_one_conscious_wins_the_melee() -> None:
    table = fred_knocked_out()
    assert not table.state.fighters["fred"].conscious
    result = conflict(table)
    assert result.over
    assert result.winners == ("bob",)
    assert dict(result.returns) == {"bob": 1, "fred": -1}
    assert "bob is the last one conscious" in result.summary
    assert not table.result().over


def test_while_two_are_conscious_the_melee_goes_on() -> None:
    table = fred_knocked_out(marcos=FIGHTER)
    assert not table.state.fighters["fred"].conscious
    result = conflict(table)
    assert not result.over and result.winners == ()


def test_nobody_conscious_is_a_melee_nobody_won() -> None:
    state = fred_knocked_out().state
    down = {who: replace(f, conscious=False) for who, f in state.fighters.items()}
    result = PROCEDURE.conflict(replace(state, fighters=down))
    assert result is not None and result.over and result.winners == ()
    assert dict(result.returns) == {"bob": -1, "fred": -1}
    assert "nobody is left conscious" in result.summary


def test_every_page_is_sent_the_melee() -> None:
    seen = observe(fred_knocked_out(), Viewer("fred", frozenset({"fred"}))).to_json()["result"]
    assert seen["over"] is False
    assert seen["conflict"]["name"] == "the melee" and seen["conflict"]["winners"] == ["bob"]
