"""Seconds in Command ("Mandatory Relationships", "Seconds in Command"): the 2iC who made two thirds
of the building rolls rolls the maneuver test, with its own skill, wounds and artha.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.core import OneOf, RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import choices_for
from referee.systems.kingdoms.dice import Shade, roll_before
from referee.systems.kingdoms.scripting import second_may_roll
from referee.systems.kingdoms.sheets import Ability, Character
from referee.systems.kingdoms.state import Faction, SceneRecord, Slip

from .helpers import PLAYERS, _act, _kinds, _kingdom, _revealed


def test_a_second_in_command_who_rolled_spends_its_own_fate() -> None:
    """Seconds in Command; Artha: the 2iC who rolled the maneuver test (after making the
    building roll) spends its own Fate after the roll. The leader has no artha, the 2iC one
    Fate: the roll is open until the 2iC spends it (its 6 rolls again, a 4: 3 successes), and
    the 2iC's Fate, not the leader's, is gone."""
    second = {
        "name": "Thalion",
        "lifepaths": 5,
        "stats": {"Will": "B3"},
        "skills": {"Fortifications": "B3"},
        "artha": {"fate": 1, "persona": 0, "deeds": 0},
    }
    nothing = {"fate": 0, "persona": 0, "deeds": 0}
    table = Table.start(PROCEDURE, _kingdom({"second": second}, artha=nothing), players=PLAYERS)
    slip = {"maneuver": "Fortify", "skill": "Fortifications", "roller": "second"}
    table = _act(table, "elves", "write_slip", **slip)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(
        table, "elves", "scene", [4, 1, 1], kind="building", by="second", skill="Fortifications"
    )
    for f in ("elves", "orcs"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [6, 4, 1, 4, 4, 1, 1])
    rolled = table.state.rolls["elves"]
    assert (rolled.roller, rolled.successes, rolled.decided) == ("second", 2, False)
    table = _act(table, "elves", "spend_artha", [4], fate=True)
    rolled = table.state.rolls["elves"]
    assert (rolled.successes, rolled.decided) == (3, True)
    elves = table.state.factions["elves"]
    assert elves.second is not None
    assert (dict(elves.leader.artha), dict(elves.second.artha)) == (nothing, nothing)


def test_a_second_may_roll_after_two_thirds_of_the_building_rolls_not_counting_conflicts() -> None:
    """Seconds in Command: the 2iC may roll the maneuver test if it made two thirds of the
    faction's building rolls. The elves' only building roll, made by the 2iC, and a conflict
    the leader initiated: the 2iC made every building roll and may roll."""
    state = replace(
        _revealed(),
        scenes=(
            SceneRecord("elves", "building", by="second"),
            SceneRecord("elves", "conflict", by="leader", target="orcs"),
        ),
    )
    assert second_may_roll(state, "elves")


def test_a_leader_without_skills_plays_no_building_scene_but_its_2ics_conflict() -> None:
    """Seconds in Command: the 2iC rolls the maneuver the leader has no skill for, and its
    conflict scene is played. The elves' leader has no skill nor stat to roll a building
    scene; the 2iC's Infiltrate of the orcs still offers the conflict scene."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    elves = state.factions["elves"]
    second = replace(
        elves.leader, name="Thalion", skills={"Inconspicuous": Ability(Shade.BLACK, 4)}
    )
    elves = replace(elves, leader=replace(elves.leader, skills={}, stats={}), second=second)
    state = replace(
        state,
        factions={**state.factions, "elves": elves},
        slips={
            "elves": Slip("elves", "Infiltrate", "Inconspicuous", ("orcs",), roller="second"),
            "orcs": Slip("orcs", "Fortify", "Logistics"),
        },
    )
    kinds = [p["kind"] for _, p in _kinds(state, "elves") if "kind" in p]
    assert kinds == [OneOf(("color",)), OneOf(("interstitial",)), OneOf(("conflict",))]


def test_the_artha_a_second_in_command_spends_after_its_roll_is_its_own() -> None:
    """Seconds in Command, Artha: the character who rolled spends its own Fate. The elves'
    2iC (1 Fate; the leader has none) rolled 6, 3, 3, 3: Fate is offered."""
    state = _revealed(elves=("Fortify", (), 1, 0), orcs=("Fortify", (), 1, 0))
    elves = state.factions["elves"]
    none = {"fate": 0, "persona": 0, "deeds": 0}
    elves = replace(
        elves,
        leader=replace(elves.leader, artha=none),
        second=replace(elves.leader, name="Thalion", artha={**none, "fate": 1}),
    )
    rolled = roll_before(4, Shade.BLACK, False, ScriptedSource([6, 3, 3, 3])).to_json()
    test = replace(state.rolls["elves"], roller="second", pool=rolled)
    state = replace(
        state,
        phase="rolled",
        factions={**state.factions, "elves": elves},
        rolls={"elves": test},
    )
    assert [c.label for c in choices_for(state, "elves") if c.kind == "spend_artha"] == [
        "spend Fate"
    ]


def test_a_factions_second_in_command_is_there_or_refused() -> None:
    """ "leader" is the Faction Leader, "second" the 2iC; a faction without one is refused."""
    leader, second = Character("Grannir", 8), Character("Dorin", 6)
    with_second = Faction("dwarves", "Dwarves", leader, second)
    assert with_second.character("second") is second
    assert with_second.character("leader") is leader
    alone = Faction("orcs", "Orcs", leader)
    assert alone.character("leader") is leader
    with pytest.raises(RuleError) as error:
        alone.character("second")
    assert str(error.value) == "Seconds in Command: orcs has no Second in Command"
