"""Wounds and Wound Recovery ("Downtime", "Wound Recovery"; Ruling 18): each wound die comes off
the pool, a Superficial wound is +1 Ob, and a wounded character tests Health once a maneuver.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.core import OneOf, Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import choices_for
from referee.systems.kingdoms.dice import Shade
from referee.systems.kingdoms.resolution import Entry
from referee.systems.kingdoms.scripting import entries_of
from referee.systems.kingdoms.sheets import Ability
from referee.systems.kingdoms.state import RolledTest

from .helpers import (
    PLAYERS,
    _act,
    _kinds,
    _kingdom,
    _revealed,
    _rolled,
    _three_kingdoms_with_inconspicuous,
    _with_second,
)
from .test_procedure import _reveal, act, all_pass, sealed, setup


def test_a_failed_health_test_leaves_the_second_in_command_as_wounded_as_before() -> None:
    """Wound Recovery: a wounded character tests Health once a maneuver; failing, it keeps its
    wound die and its Superficial wound. The 2iC Thalion (Health B3, 1 wound die and a
    Superficial wound: Ob 2) rolls 1, 1, 1; the leader's own Superficial wound is untouched,
    until the leader passes a Health test of its own."""
    second = {
        "name": "Thalion",
        "lifepaths": 5,
        "stats": {"Will": "B3", "Health": "B3"},
        "skills": {},
        "superficial": True,
        "wound_dice": 1,
    }
    elves = _kingdom({"second": second}, stats={"Will": "B4", "Health": "B4"}, superficial=True)
    table = Table.start(PROCEDURE, elves, players=PLAYERS)
    table = _act(table, "elves", "health_test", [1, 1, 1], character="second")
    tested: Any = table.log.events[-1].payload
    assert (tested["ob"], tested["passed"]) == (2, False)
    faction = table.state.factions["elves"]
    assert faction.second is not None
    assert (faction.second.name, faction.second.wound_dice, faction.second.superficial) == (
        "Thalion",
        1,
        True,
    )
    assert (faction.leader.name, faction.leader.wound_dice, faction.leader.superficial) == (
        "Aeluin",
        0,
        True,
    )
    assert table.state.health_tested == frozenset({"elves.second"})
    # the leader, with a Superficial wound alone, passes: the wound is gone
    table = _act(table, "elves", "health_test", [6, 6, 6, 6], character="leader")
    leader = table.state.factions["elves"].leader
    assert (leader.wound_dice, leader.superficial) == (0, False)
    assert table.state.health_tested == frozenset({"elves.second", "elves.leader"})


def test_a_new_maneuver_forgets_who_was_wounded_and_who_tested_health() -> None:
    """Wounds; Wound Recovery ("once a maneuver"): the orcs' conflict scene wounds the elves'
    leader (a light wound) and the elves' leader tests Health in maneuver 1; in maneuver 2
    nobody has been wounded or has tested Health yet."""
    elves = _kingdom({}, stats={"Will": "B4", "Health": "B4"}, superficial=True)
    table = Table.start(PROCEDURE, elves, players=PLAYERS)
    table = _act(table, "elves", "health_test", [1, 1, 1, 1], character="leader")
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "targets": ["elves"]}
    table = _act(table, "orcs", "write_slip", **infiltrate)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "scene", kind="conflict", target="elves", wounds={"elves": "light"})
    for f in ("elves", "orcs"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [3] * 40)
    for f in ("elves", "orcs"):
        if not table.state.rolls[f].decided:
            table = _act(table, f, "keep")
    table = _act(table, "elves", "resolve")
    assert table.state.wounded == frozenset({"elves.leader"})
    assert table.state.health_tested == frozenset({"elves.leader"})
    table = _act(table, "elves", "next_maneuver")
    assert (table.state.maneuver, table.state.wounded, table.state.health_tested) == (
        2,
        frozenset(),
        frozenset(),
    )


def test_a_health_test_rolls_the_characters_own_health_and_heals_one_wound() -> None:
    """Wound Recovery: a wounded character tests its Health (its shade, its exponent, open-ended
    if the sheet says so); a pass takes off one wound die, and a Superficial wound goes only
    once no wound die is left. Aeluin (Health G2 open-ended, 1 wound die, Superficial: Ob 2)
    rolls 6, 3 and the 6's extra die 6, then 1: 3 successes, the die goes, the Superficial
    wound stays. Thalion, the 2iC (Health B3, 1 wound die, no Superficial wound), passes and
    has no Superficial wound after."""
    second = {"name": "Thalion", "lifepaths": 5, "stats": {"Health": "B3"}, "wound_dice": 1}
    health = {"shade": "G", "exponent": 2, "open_ended": True}
    elves = _kingdom(
        {"second": second},
        stats={"Will": "B4", "Health": health},
        superficial=True,
        wound_dice=1,
    )
    table = Table.start(PROCEDURE, elves, players=PLAYERS)
    table = _act(table, "elves", "health_test", [6, 3, 6, 1], character="leader")
    tested: Any = table.log.events[-1].payload
    card = tested["roll"]
    assert tested == {
        "faction": "elves",
        "character": "leader",
        "ob": 2,
        "odds": card["odds"]["success"],
        "successes": 3,
        "passed": True,
        "wound_dice": 0,
        "superficial": True,
        "roll": card,
        "names": {"elves": "the Elves"},
    }
    assert 0 < float(Fraction(tested["odds"])) < 1
    assert (card["label"], card["rule"], card["dice"]) == (
        "Aeluin tests Health",
        "Wound Recovery",
        "2d6 grey open-ended vs Ob 2",
    )
    assert (card["faces"], card["value"], card["outcome"]) == ([6, 6, 1, 3], 3, "success")
    table = _act(table, "elves", "health_test", [6, 6, 6], character="second")
    tested = table.log.events[-1].payload
    assert (tested["passed"], tested["wound_dice"], tested["superficial"]) == (True, 0, False)


def test_a_second_in_commands_superficial_wound_adds_one_to_its_maneuvers_ob() -> None:
    """Wounds: a Superficial wound is +1 Ob — the wound of the character who rolled. The
    elves' 2iC (Superficial) rolled their Assault with its skill of exponent 5: the Assault
    is resolved at +1 Ob with the 2iC's exponent; the orcs' unwounded leader at +0."""
    state = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 2, 0))
    elves = state.factions["elves"]
    second = replace(elves.leader, name="Thalion", superficial=True)
    state = replace(
        state,
        factions={**state.factions, "elves": replace(elves, second=second)},
        rolls={**state.rolls, "elves": RolledTest("elves", "second", "Logistics", 5, 3)},
    )
    entries = entries_of(state)
    assert entries["elves"] == Entry("elves", "Assault", ("orcs",), 3, 0, 5, 0, ob_penalty=1)
    assert entries["orcs"] == Entry("orcs", "Fortify", (), 2, 0, 4, 0, ob_penalty=0)


def test_a_leader_whose_wounds_take_every_die_rolls_nothing_and_is_not_sapped() -> None:
    """Wounds: each wound die comes off the pool; a leader with 4 wound dice and Logistics B4
    rolls nothing — the roll notes the wounds, not a Sap the faction never suffered."""
    data = setup()
    data["factions"]["elves"]["leader"]["wound_dice"] = 4
    table = sealed(Table.start(PROCEDURE, data))
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    elves = _rolled(table, "elves")
    assert (elves["dice"], elves["notes"], elves["artha"]) == (
        0,
        ["-4D wounds"],
        {"persona": 0, "deeds": 0},
    )


def test_a_wounded_character_tests_health_once_and_not_in_the_maneuver_it_was_hurt() -> None:
    """Wound Recovery: a wounded leader or 2iC with a Health stat tests it once a maneuver,
    not in the maneuver it was wounded. The elves' leader (a light wound, Health B3) has
    tested; their 2iC Thalion (a Superficial wound, Health B4) tests against Ob 1. The orcs'
    leader, wounded, has no Health; the dwarves' was wounded this maneuver."""
    state = _three_kingdoms_with_inconspicuous().state
    health = {"Health": Ability(Shade.BLACK, 3)}
    state = _with_second(
        state, "elves", name="Thalion", superficial=True, stats={"Health": Ability(Shade.BLACK, 4)}
    )
    hurt = {
        f: replace(x, leader=replace(x.leader, wound_dice=1, stats={**x.leader.stats, **health}))
        for f, x in state.factions.items()
    }
    hurt["orcs"] = replace(hurt["orcs"], leader=replace(hurt["orcs"].leader, stats={}))
    state = replace(
        state,
        factions=hurt,
        health_tested=frozenset({"elves.leader"}),
        wounded=frozenset({"dwarves.leader"}),
    )
    offered = [c for c in choices_for(state, "elves") if c.kind == "health_test"]
    assert [dict(c.params) for c in offered] == [{"character": OneOf(("second",))}]
    assert [(p.label, p.rule, p.dice) for p in offered[0].odds] == [
        ("Thalion tests Health", "Wound Recovery", "4d6 vs Ob 1")
    ]
    for other in ("orcs", "dwarves"):
        assert "health_test" not in [c.kind for c in choices_for(state, other)]
    fresh = replace(state, health_tested=frozenset(), wounded=frozenset())
    assert [dict(c.params) for c in choices_for(fresh, "elves") if c.kind == "health_test"] == [
        {"character": OneOf(("leader",))},
        {"character": OneOf(("second",))},
    ]
    assert "health_test" in [c.kind for c in choices_for(fresh, "dwarves")]


def test_a_wounded_second_tests_health_though_its_leader_is_whole() -> None:
    """Wound Recovery: the 2iC's wound is tested whether or not the leader is wounded."""
    state = _with_second(
        _three_kingdoms_with_inconspicuous().state,
        "elves",
        name="Thalion",
        wound_dice=1,
        stats={"Health": Ability(Shade.BLACK, 4)},
    )
    tests = [p for k, p in _kinds(state, "elves") if k == "health_test"]
    assert tests == [{"character": OneOf(("second",))}]


def test_a_superficial_wound_adds_one_to_the_ob_at_resolution() -> None:
    """Ruling 18: the Elves Fortify unopposed (Ob 2) with 3 successes: margin 1, +1
    disposition — but with a Superficial wound the Ob is 3 and they gain nothing."""

    def fortified(superficial: bool) -> int:
        data = setup()
        data["factions"]["elves"]["leader"]["superficial"] = superficial
        table = Table.start(PROCEDURE, data)
        table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
        table = act(
            table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True
        )
        table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
        # seat order from the Elves: their 4 dice (3 successes), the Orcs' 4, the Dwarves' 5
        table = _reveal(table, "elves", [4, 4, 4, 1] + [1] * 9)
        assert table.state.rolls["elves"].successes == 3
        table = act(table, "elves", "resolve")
        return int(table.state.factions["elves"].disposition)

    assert fortified(superficial=False) == 11
    assert fortified(superficial=True) == 10
