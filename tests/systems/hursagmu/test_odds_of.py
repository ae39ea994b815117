"""The odds of the Master's secret rolls with their parameters as given (``odds_of``, through
``preview``): the check the rule rolls, other odds for other parameters, none for what the rules
refuse, and none for a player (the odds would tell him the other side's skill)."""

from __future__ import annotations

from typing import Any

from referee.core import Action, Table, Viewer
from referee.core.cards import odds_of as card_odds
from referee.core.table import preview
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.perception import Awareness, perception_check
from referee.systems.hursagmu.senses import sneak_check

SETUP = {
    "characters": {
        "thief": {"dexterity": 3, "skills": {"stealth": 4, "shadowing": 2}},
        "sleeper": {"intelligence": 2, "skills": {"perception": 3, "observation": 1}},
        "guard": {"intelligence": 1, "skills": {"perception": 2, "observation": 2}},
    }
}
PLAYERS = {"alice": ["thief"], "bruno": ["sleeper"]}


def table() -> Table[Any]:
    return Table.start(PROCEDURE, SETUP, system="hursagmu", players=PLAYERS)


def odds(t: Table[Any], seat: str, actor: str, kind: str, **params: Any) -> dict[str, str]:
    shown = preview(t, seat, Action(actor, kind, params))
    assert len(shown) == 1, shown
    return dict(shown[0].odds)


def test_the_masters_perception_roll_has_the_odds_of_its_check() -> None:
    t = table()
    sleeper = t.state.fighters["sleeper"].sheet
    params = {
        "character": "sleeper",
        "sense": "hearing",
        "challenge": 6,
        "yards": 3,
        "asleep": True,
        "soft": True,
    }
    expected = perception_check(
        sleeper, 6, sense="hearing", yards=3, awareness=Awareness.ASLEEP, soft_noise=True
    )
    assert odds(t, "referee", "referee", "perceive", **params) == card_odds(expected.odds())
    louder = odds(t, "referee", "referee", "perceive", **{**params, "soft": False})
    assert louder != odds(t, "referee", "referee", "perceive", **params)


def test_a_sneak_has_the_odds_of_its_opposed_roll_for_the_master() -> None:
    t = table()
    state = t.state
    thief, guard = state.fighters["thief"].sheet, state.fighters["guard"].sheet
    stealth = odds(t, "referee", "thief", "sneak", perceiver="guard", skill="stealth")
    assert stealth == card_odds(sneak_check(thief, guard, "stealth").odds())
    assert stealth != odds(t, "referee", "thief", "sneak", perceiver="guard", skill="shadowing")


def test_a_player_gets_no_odds_that_would_tell_him_the_other_sides_skill() -> None:
    t = table()
    sneak = Action("thief", "sneak", {"perceiver": "guard", "skill": "stealth"})
    assert preview(t, "alice", sneak) == ()
    assert PROCEDURE.odds_of(t.state, sneak, Viewer("alice", frozenset({"thief"}))) == ()


def test_what_the_rules_refuse_has_no_odds() -> None:
    t = table()
    # no such perceiver; a Perception roll on a sense the sleeper lacks while asleep
    assert preview(t, "referee", Action("thief", "sneak", {"perceiver": "ghost"})) == ()
    asleep = {"character": "sleeper", "sense": "vision", "asleep": True}
    assert preview(t, "referee", Action("referee", "perceive", asleep)) == ()
    # a character cannot make the Master's roll
    assert (
        PROCEDURE.odds_of(
            t.state, Action("thief", "perceive", {"character": "guard"}), Viewer("referee")
        )
        == ()
    )
