"""Scenes ("Scene Economy": Color, Intersitial, Building Scenes, Conflict Scenes, Spending Scenes):
what each scene rolls and records, the scenes a faction may play, and the conflict scene a
maneuver requires.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Action, OneOf, RuleError, Table, Viewer
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms import events as E
from referee.systems.kingdoms.scripting import check_conflicts_against
from referee.systems.kingdoms.state import SceneRecord, Slip

from .helpers import (
    PLAYERS,
    _act,
    _kinds,
    _kingdom,
    _orcs_infiltrate_the_elves,
    _said,
    _three_kingdoms,
    _three_kingdoms_with_inconspicuous,
)
from .test_procedure import act, fortify_all, sealed, setup, start


def test_a_building_scene_and_a_conflict_are_recorded_as_played() -> None:
    """Building Scenes (one roll of a skill against an Ob) and Conflict Scenes (the outcome
    the players report, the wounds taken): the state records each scene as played (a
    building scene reports no outcome; a conflict no skill, Ob or successes); a light wound
    adds its wound die to the wounded leader, a superficial one marks the 2iC (Wounds)."""
    second = {"name": "Thalion", "lifepaths": 5, "stats": {"Will": "B3"}, "skills": {}}
    table = Table.start(PROCEDURE, _kingdom({"second": second}), players=PLAYERS)
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "targets": ["elves"]}
    table = _act(table, "orcs", "write_slip", **infiltrate)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "scene", [4, 4, 1, 1], kind="building", skill="Logistics", ob=2)
    table = _act(
        table,
        "orcs",
        "scene",
        kind="conflict",
        target="elves",
        outcome="the bridge burns",
        wounds={"elves": "light", "elves.second": "superficial"},
    )
    assert table.state.scenes == (
        SceneRecord("orcs", "building", "leader", None, (), "Logistics", 2, 2, "", None),
        SceneRecord(
            "orcs", "conflict", "leader", "elves", (), None, None, None, "the bridge burns", None
        ),
    )
    elves = table.state.factions["elves"]
    assert (elves.leader.wound_dice, elves.leader.superficial) == (1, False)
    assert elves.second is not None
    assert (elves.second.wound_dice, elves.second.superficial) == (0, True)
    assert table.state.wounded == frozenset({"elves.leader", "elves.second"})


def test_a_void_slip_is_recorded_with_the_reason_it_is_void() -> None:
    """Conflict Scenes: an Infiltrate "requires a conflict scene directed at" its target; with
    none the slip is void at the reveal, and the state says why (every seat sees it)."""
    table = _orcs_infiltrate_the_elves(_three_kingdoms(), conflict=False)
    assert table.state.void == {
        "orcs": "Infiltrate requires a conflict scene directed at the Elves; none was"
    }
    assert sorted(table.state.rolls) == ["dwarves", "elves"]


def test_a_faction_that_passes_has_not_spent_its_scenes() -> None:
    """Spending Scenes: a faction may pass its remaining scenes; the log says it passed, not
    that it spent every scene."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "elves", "pass")
    event = table.log.events[-1]
    assert event.payload == {"faction": "elves", "spent": False, "names": {"elves": "the Elves"}}
    assert _said([event]) == ["The Elves' remaining scenes are passed"]


def _sealed_kingdom() -> Table[Any]:
    """The elves and the orcs of ``_kingdom``, both Fortifying with Logistics."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    return table


def test_a_building_scene_may_roll_a_stat_open_ended_with_a_helpers_die() -> None:
    """Building Scenes: one roll of a skill or a stat against the Ob, helpers' dice added (an
    exponent of 1 lends +1D). Gorbash's Perception G4 open-ended, helped by an exponent 1:
    5 dice, 6, 1, 1, 1, 1 and the 6 again, a 3 — 2 successes at Grey, Ob 2 passed. Every seat
    receives the roll card, under the rule."""
    table = _act(
        _sealed_kingdom(),
        "orcs",
        "scene",
        [6, 1, 1, 1, 1, 3],
        kind="building",
        skill="Perception",
        ob=2,
        helpers=["elves"],
        help_exponents=[1],
    )
    data: Any = table.log.events[-1].payload
    assert (data["skill"], data["ob"], data["dice"], data["successes"], data["passed"]) == (
        "Perception",
        2,
        5,
        2,
        True,
    )
    assert (data["roll"]["label"], data["roll"]["rule"], data["roll"]["dice"]) == (
        "Gorbash's building scene: Perception",
        "Building Scenes",
        "5d6 grey open-ended vs Ob 2",
    )


def test_scenes_are_refused_under_the_scene_economy() -> None:
    """Scene Economy: no rolls in color scenes (a skill named is a roll); a helper is another
    faction; an interstitial scene's partner is a faction; a faction that passed plays no
    more scenes — each refused under the Scene Economy."""
    table = _sealed_kingdom()
    refusals: list[dict[str, Any]] = [
        {"kind": "color", "skill": "Logistics"},
        {"kind": "building", "skill": "Logistics", "helpers": ["orcs"]},
        {"kind": "interstitial", "with": "goblins"},
    ]
    for params in refusals:
        with pytest.raises(RuleError) as refused:
            _act(table, "orcs", "scene", [4] * 6, **params)
        assert refused.value.rule == "Scene Economy"
    passed = _act(table, "orcs", "pass")
    with pytest.raises(RuleError, match="passed their scenes") as refused:
        _act(passed, "orcs", "scene", kind="color")
    assert refused.value.rule == "Scene Economy"


def test_an_interstitial_scene_names_the_faction_it_is_played_with() -> None:
    """Scene Economy: an interstitial scene, played with another faction, rolls nothing; every
    seat reads with whom."""
    scene = Action("orcs", "scene", {"kind": "interstitial", "with": "elves"})
    table = _sealed_kingdom().act(scene, ScriptedSource([]))
    event = table.log.events[-1]
    assert event.payload["with"] == "elves"
    assert _said([event]) == ["Gorbash of the Orcs plays an interstitial scene with the Elves"]


def test_in_a_two_player_faction_the_conflicts_player_makes_no_building_roll() -> None:
    """Step Seven: in a two-player faction one player makes the building rolls, the other runs
    the conflict scene. Amy ran the elves' conflict: her building scene is refused; Ann makes
    two building rolls."""
    data = setup(players=6)
    data["factions"]["elves"]["players"] = ["ann", "amy"]
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = sealed(table)
    table = act(table, "elves", "scene", kind="conflict", target="orcs", player="amy")
    with pytest.raises(RuleError, match="the other player plays its building scene"):
        act(table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", player="amy")
    for _ in range(2):
        table = act(
            table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", player="ann"
        )
    assert [s.player for s in table.state.scenes] == ["amy", "ann", "ann"]


def _infiltrations(attacker: str) -> Table[Any]:
    """The orcs Infiltrate the elves and direct no conflict; ``attacker`` Infiltrates the orcs
    and directs its conflict at them; the third faction Fortifies. All pass; the elves read."""
    table = _three_kingdoms_with_inconspicuous()
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", targets=["elves"]
    )
    table = _act(
        table,
        attacker,
        "write_slip",
        maneuver="Infiltrate",
        skill="Inconspicuous",
        targets=["orcs"],
    )
    third = next(f for f in ("elves", "dwarves") if f != attacker)
    table = _act(table, third, "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, attacker, "scene", kind="conflict", target="orcs")
    for f in ("elves", "orcs", "dwarves"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 60)


def test_a_conflict_directed_at_a_faction_fulfils_its_slip_only_from_its_own_target() -> None:
    """Conflict Scenes (the optional rule): a maneuver that requires a conflict scene is
    fulfilled if its target directed one at the faction first. The orcs' Infiltrate of the
    elves, with no conflict of their own: fulfilled when the elves direct one at the orcs;
    void when the dwarves, whom the orcs do not target, do."""
    assert _infiltrations("elves").state.void == {}
    assert _infiltrations("dwarves").state.void == {
        "orcs": "Infiltrate requires a conflict scene directed at the Elves; none was"
    }


def test_a_slip_cannot_script_a_maneuver_forbidding_the_conflict_its_faction_directed() -> None:
    """Conflict Scenes: "A conflict scene cannot be used with" Assess, Conserve, Fortify. A
    faction that directed a conflict cannot hold a Fortify slip; one that played only a
    building scene, or whose rival directed the conflict, can; an Infiltrate may follow
    its conflict."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    fortify = Slip("elves", "Fortify", "Logistics")
    directed = replace(state, scenes=(SceneRecord("elves", "conflict", target="orcs"),))
    with pytest.raises(RuleError) as refused:
        check_conflicts_against(directed, fortify)
    assert refused.value.rule == "Fortify"
    check_conflicts_against(directed, Slip("elves", "Infiltrate", "Logistics", ("orcs",)))
    built = replace(state, scenes=(SceneRecord("elves", "building", skill="Logistics"),))
    check_conflicts_against(built, fortify)
    rival = replace(state, scenes=(SceneRecord("orcs", "conflict", target="elves"),))
    check_conflicts_against(rival, fortify)


def test_a_scene_kind_spent_leaves_the_others_and_a_maneuver_without_conflict_has_none() -> None:
    """Scene Economy: each kind of scene is counted apart — the color scene played, the
    interstitial and building scenes are still offered. Conflict Scenes: "A conflict scene
    cannot be used with" Assess: the elves' Assess of the orcs offers none."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Assess", skill="Logistics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    kinds = [p["kind"] for _, p in _kinds(table.state, "elves") if "kind" in p]
    assert kinds == [OneOf(("color",)), OneOf(("interstitial",)), OneOf(("building",))]
    colored = _act(table, "elves", "scene", kind="color")
    kinds = [p["kind"] for _, p in _kinds(colored.state, "elves") if "kind" in p]
    assert kinds == [OneOf(("interstitial",)), OneOf(("building",))]


def test_an_interstitial_scene_between_two_of_one_factions_characters_reads_as_one() -> None:
    """Scene Economy: "an interstitial ... focuses on interaction between two characters" — they
    may both be of the faction playing it, so no other faction is named; the log still reads
    "an interstitial scene", with no partner and no article error."""
    from referee.systems.kingdoms import PROCEDURE

    from .test_procedure import act, sealed, start

    table = act(sealed(start()), "orcs", "scene", kind="interstitial")
    event = table.log.events[-1]
    assert event.kind == E.SCENE_PLAYED and event.payload.get("with") is None
    leader = table.state.factions["orcs"].leader.name
    assert PROCEDURE.describe(event, Viewer("elves")) == (
        f"{leader} of the Orcs plays an interstitial scene"
    )


def test_a_faction_that_plays_its_last_scene_has_spent_its_scenes() -> None:
    """Spending Scenes: one color, one interstitial, three building scenes and one conflict a
    maneuver; the sixth scene spends them, and the log says so (not that it passed)."""
    table = fortify_all(start())
    table = act(table, "orcs", "scene", kind="color")
    table = act(table, "orcs", "scene", kind="interstitial")
    for _ in range(3):
        table = act(table, "orcs", "scene", [4] * 4, kind="building", skill="Tactics")
    event = table.log.events[-1]
    assert event.payload == {"faction": "orcs", "spent": True, "names": {"orcs": "the Orcs"}}
    assert PROCEDURE.describe(event, Viewer("someone")) == (
        "Every scene of the Orcs is spent this maneuver"
    )
    assert "orcs" in table.state.passed


# ------------------------------------------------------------------------- spending scenes


def _five_scenes(table: Table[Any], faction: str, skill: str) -> Table[Any]:
    """The faction plays its color, interstitial and three building scenes."""
    table = act(table, faction, "scene", kind="color")
    table = act(table, faction, "scene", kind="interstitial")
    for _ in range(3):
        table = act(table, faction, "scene", [4] * 6, kind="building", skill=skill, ob=1)
    return table


@pytest.mark.parametrize(("maneuver", "skill"), [("Fortify", "Logistics"), ("Assess", "Logistics")])
def test_a_faction_whose_slip_forbids_a_conflict_has_spent_its_scenes_after_five(
    maneuver: str, skill: str
) -> None:
    """Maneuver Resolution: "The maneuver ends when all the players have spent their scenes."
    A slip that forbids a conflict scene (Assess, Conserve, Fortify) allows five: after the
    fifth the faction has spent its scenes, and the reveal does not wait for it (audit K-N1)."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    params: dict[str, Any] = {"maneuver": maneuver, "skill": skill}
    if maneuver == "Assess":
        params["target"] = "orcs"
    table = _act(table, "elves", "write_slip", **params)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "pass")
    table = _five_scenes(table, "elves", "Logistics")
    assert "elves" in table.state.passed
    last = [e.payload for e in table.log if e.kind == E.SCENES_PASSED][-1]
    assert (last["faction"], last["spent"]) == ("elves", True)
    revealed = _act(table, "orcs", "reveal", [4] * 10)
    assert revealed.state.phase == "rolled"


def test_a_faction_whose_slip_directs_a_conflict_has_spent_its_scenes_after_six() -> None:
    """Maneuver Resolution: "The maneuver ends when all the players have spent their scenes."
    A slip that directs a conflict scene allows six: after five, the conflict is still to
    play."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = _act(table, "orcs", "write_slip", **infiltrate)
    table = _five_scenes(table, "orcs", "Logistics")
    assert "orcs" not in table.state.passed
    table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    assert "orcs" in table.state.passed


def test_a_building_scene_names_its_skill_and_a_conflict_scene_its_target() -> None:
    """Building Scenes: a building scene is one roll of a skill or a stat — one naming none is
    refused, the refusal saying the roller has no such skill; Conflict Scenes: a conflict is
    directed at the faction the slip targets — one directed at nobody is refused, saying so."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    spies = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = _act(table, "orcs", "write_slip", **spies)
    with pytest.raises(RuleError, match=r"Gorbash has no ''$") as refused:
        _act(table, "orcs", "scene", [4] * 5, kind="building")
    assert refused.value.rule == "Building Scenes"
    with pytest.raises(RuleError, match=r"targets, not ''$") as refused:
        _act(table, "orcs", "scene", kind="conflict")
    assert refused.value.rule == "Conflict Scenes"
