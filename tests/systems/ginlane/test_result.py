"""The end and the result (issue 26): Gin Lane's conflict is the fight ("Initiative" to "Taken
Out"), over when no more than one side has anyone not Taken Out, won by that side; a scene has
no end of its own beyond its fights, so the game is never over."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.core import Result, Table, Viewer, observe
from referee.core.scenario import load_scenario, run_scenario
from referee.systems.ginlane.scene import SceneState

from .test_procedure import BRAVO, FIGHTER, act, duel, start

T = Table[SceneState]

EXAMPLES = Path(__file__).parents[3] / "examples" / "ginlane"


def conflict(table: T) -> Result:
    found = table.conflict()
    assert found is not None
    return found


def test_before_initiative_there_is_no_fight_and_the_game_is_never_over() -> None:
    table = start(
        {"characters": {"moll": {"side": "society", "skills": FIGHTER}, "jack": {"skills": BRAVO}}}
    )
    assert table.conflict() is None
    assert table.result() == Result("the game")


def test_the_worked_duel_ends_when_jack_is_taken_out_and_society_wins() -> None:
    """The duel at the Crown: moll's last attack Takes Out jack; society is left standing."""
    table = run_scenario(load_scenario(EXAMPLES / "duel.yaml")).table
    before = conflict(table.undo(1))
    assert before.name == "the fight" and not before.over and before.winners == ()
    result = conflict(table)
    assert result.over
    assert result.winners == ("society",)
    assert dict(result.returns) == {"moll": 1, "jack": -1}
    assert "society won" in result.summary
    assert not table.result().over


def test_the_fight_goes_on_while_two_sides_stand() -> None:
    """Three sides: jack (bravoes) Taken Out, moll (society) and ann (watch) still stand."""
    ann = {"side": "watch", "weapon": "sword", "skills": BRAVO}
    table = duel(others={"ann": ann})
    table = act(table, "moll", "attack", [6, 6, 1, 1], target="jack")
    assert table.state.get("jack").taken_out
    result = conflict(table)
    assert not result.over and result.winners == ()


def test_a_side_of_two_wins_as_one_side() -> None:
    """moll and ann fight for society against jack: one winner, the side."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    table = act(duel(others={"ann": ann}), "moll", "attack", [6, 6, 1, 1], target="jack")
    result = conflict(table)
    assert result.over
    assert result.winners == ("society",)
    assert dict(result.returns) == {"moll": 1, "jack": -1, "ann": 1}


def test_a_side_wins_with_its_fallen() -> None:
    """jack Takes Out ann, then moll Takes Out jack: society wins, ann with it (returns +1)."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    table = act(duel(others={"ann": ann}), "moll", "full_defence")
    table = act(table, "jack", "attack", [6, 6, 1, 1], target="ann")
    assert table.state.get("ann").taken_out and not conflict(table).over
    table = act(table, "moll", "attack", [6, 6, 1, 1], target="jack")
    result = conflict(table)
    assert result.over and result.winners == ("society",)
    assert dict(result.returns) == {"moll": 1, "jack": -1, "ann": 1}


def test_everyone_taken_out_is_a_fight_nobody_won() -> None:
    state = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack").state
    out = replace(state, combatants=tuple(replace(c, taken_out=True) for c in state.combatants))
    result = duel().procedure.conflict(out)
    assert result is not None and result.over and result.winners == ()
    assert "everyone is Taken Out" in result.summary


def test_the_end_of_the_scene_leaves_no_fight() -> None:
    won = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert act(won, "referee", "end_scene").conflict() is None


def test_every_page_is_sent_the_fight() -> None:
    table = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    seen = observe(table, Viewer("jack", frozenset({"jack"}))).to_json()["result"]
    assert seen["over"] is False
    assert seen["conflict"] == {
        "name": "the fight",
        "over": True,
        "winners": ["society"],
        "summary": seen["conflict"]["summary"],
        "returns": {"moll": 1, "jack": -1},
    }
