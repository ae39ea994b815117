"""Choices offered are choices the rules take: a tie-breaker agreed to is not offered again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.core import Action, Between, OneOf, SomeOf, Table, Text
from referee.core.loader import load_file
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE, SYSTEM
from referee.systems.kingdoms.state import KingdomsState

from .helpers import (
    ALWAYS,
    _act,
    _kinds,
    _kingdom,
    _menu,
    _odds,
    _three_kingdoms_with_inconspicuous,
)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/kingdoms/artha-and-the-tie-breaker.yaml"


def test_a_tie_breaker_agreed_to_is_not_offered_again() -> None:
    data = load_file(EXAMPLE)
    table = SYSTEM.new_table(data["setup"], players=data["players"])
    dice = ScriptedSource(data["dice"]["script"])
    steps = data["actions"]
    for step in steps[:7]:  # up to the elves' Fate: the versus test is tied
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), dice)
    offered = [c.kind for c in table.legal_actions("orcs")]
    assert "tie_break" in offered
    table = table.act(Action("orcs", "tie_break", {"opponent": "elves", "root": "Will"}), dice)
    assert "tie_break" not in [c.kind for c in table.legal_actions("orcs")]
    assert "tie_break" in [c.kind for c in table.legal_actions("elves")]  # the other side's turn


def _slip(maneuver: str, skills: tuple[str, ...], **more: Any) -> tuple[str, str, dict[str, Any]]:
    return (
        "write_slip",
        f"script {maneuver}",
        {"maneuver": OneOf((maneuver,)), "skill": OneOf(skills), **more},
    )


def test_the_maneuvers_a_faction_may_script_with_their_skills_targets_and_dice() -> None:
    """Conquest Maneuvers: a maneuver is offered with the leader's skills on its list; Assault,
    Gambit and Onslaught against an Assessed faction, Sap against an Infiltrated one, Ploy
    against two when one is Infiltrated; Gambit and Ploy while the disposition exceeds their
    cost of 3; FoRKs from the other skills on the list; Persona up to 3 and what the leader
    has; downtime 0–2 for Conserve and Fortify; Harry's defence leaving 2 to each pool. The
    elves (disposition 4; Logistics B4, Tactics B5, Inconspicuous G3; 2 Persona), having
    Assessed the orcs and Infiltrated the dwarves."""
    setup = {
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            "elves": {
                "disposition": 4,
                "assessed": ["orcs"],
                "infiltrated": {"dwarves": 1},
                "leader": {
                    "name": "Aeluin",
                    "lifepaths": 7,
                    "stats": {"Will": "B4"},
                    "skills": {"Logistics": "B4", "Tactics": "B5", "Inconspicuous": "G3"},
                    "artha": {"fate": 1, "persona": 2, "deeds": 0},
                },
            },
            "orcs": {"disposition": 12, "leader": {"lifepaths": 10, "skills": {"Tactics": "B4"}}},
            "dwarves": {"disposition": 9, "leader": {"lifepaths": 6, "skills": {"Tactics": "B3"}}},
        },
    }
    state = PROCEDURE.initial_state(setup)
    persona = {"persona": Between(0, 2)}
    both = OneOf(("orcs", "dwarves"))
    assert _menu(state, "elves") == [
        *ALWAYS,
        _slip("Assault", ("Tactics",), target=OneOf(("orcs",)), **persona),
        _slip(
            "Assess",
            ("Logistics", "Inconspicuous"),
            target=both,
            forks=SomeOf(("Logistics", "Inconspicuous"), least=0, most=1),
            **persona,
        ),
        _slip("Conserve", ("Logistics",), **persona, downtime=Between(0, 2)),
        _slip("Ensnare", ("Tactics",), target=both, **persona),
        _slip("Fortify", ("Logistics",), **persona, downtime=Between(0, 2)),
        _slip(
            "Gambit",
            ("Logistics", "Tactics"),
            target=OneOf(("orcs",)),
            forks=SomeOf(("Logistics", "Tactics"), least=0, most=1),
            **persona,
        ),
        _slip("Harry", ("Tactics",), **persona, defence=Between(2, 3)),
        _slip("Infiltrate", ("Inconspicuous",), target=both, **persona),
        _slip("Onslaught", ("Tactics",), target=OneOf(("orcs",)), **persona),
        _slip(
            "Ploy", ("Tactics",), targets=SomeOf(("orcs", "dwarves"), least=2, most=2), **persona
        ),
        _slip("Sap", ("Tactics",), target=OneOf(("dwarves",)), **persona),
        ("pass", "", {}),
    ]
    assert _odds(state, "elves") == [
        (
            "the Elves' Assess with Logistics, if independent",
            "Assess",
            "4d6 vs Ob 2",
            {"failure": "5/16", "success": "11/16"},
        ),
        (
            "the Elves' Assess with Inconspicuous, if independent",
            "Assess",
            "3d6 grey vs Ob 2",
            {"failure": "7/27", "success": "20/27"},
        ),
        (
            "the Elves' Fortify with Logistics, if nobody attacks",
            "Fortify",
            "4d6 vs Ob 2",
            {"failure": "5/16", "success": "11/16"},
        ),
    ]


def _hurt(tactics: str) -> KingdomsState:
    """The elves at disposition 3, Sapped 1, their leader (Tactics ``tactics``, Logistics
    B4, Health B3, 5 Persona) with 1 wound die and a Superficial wound."""
    leader = {
        "name": "Aeluin",
        "lifepaths": 7,
        "stats": {"Will": "B4", "Health": "B3"},
        "skills": {"Logistics": "B4", "Tactics": tactics},
        "artha": {"fate": 1, "persona": 5, "deeds": 0},
        "wound_dice": 1,
        "superficial": True,
    }
    setup = {
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            "elves": {"disposition": 3, "sapped": 1, "leader": leader},
            "orcs": {"disposition": 12, "leader": {"lifepaths": 10, "skills": {"Tactics": "B4"}}},
        },
    }
    return PROCEDURE.initial_state(setup)


def test_a_hurt_faction_scripts_fewer_maneuvers_with_fewer_dice_at_a_higher_ob() -> None:
    """Gambit and Ploy cost 3: not at disposition 3. Persona: at most 3 on a test. Wounds and
    Sap take dice; a Superficial wound is +1 Ob. Harry needs 4 dice (2 to each pool): Tactics
    B6 less 2 leaves 4 (defence 2), B5 leaves 3 (no Harry). Wound Recovery: the wounded
    leader may test Health (B3 against Ob 2 for a light wound)."""
    persona = {"persona": Between(0, 3)}
    tail = [
        ("health_test", "", {"character": OneOf(("leader",))}),
        ("pass", "", {}),
    ]
    menu = [
        *ALWAYS,
        _slip("Assess", ("Logistics",), target=OneOf(("orcs",)), **persona),
        _slip("Conserve", ("Logistics",), **persona, downtime=Between(0, 2)),
        _slip("Ensnare", ("Tactics",), target=OneOf(("orcs",)), **persona),
        _slip("Fortify", ("Logistics",), **persona, downtime=Between(0, 2)),
    ]
    harry = _slip("Harry", ("Tactics",), **persona, defence=Between(2, 2))
    assert _menu(_hurt("B6"), "elves") == [*menu, harry, *tail]
    assert _menu(_hurt("B5"), "elves") == [*menu, *tail]
    certain = {"failure": "1", "success": "0"}
    assert _odds(_hurt("B6"), "elves") == [
        ("the Elves' Assess with Logistics, if independent", "Assess", "2d6 vs Ob 3", certain),
        ("the Elves' Fortify with Logistics, if nobody attacks", "Fortify", "2d6 vs Ob 3", certain),
        (
            "Aeluin tests Health",
            "Wound Recovery",
            "3d6 vs Ob 2",
            {"failure": "1/2", "success": "1/2"},
        ),
    ]


def _two_players() -> Table[Any]:
    """The elves (two players; Logistics, Inconspicuous B4, Will B4) Infiltrate the orcs
    (Logistics B4, Tactics B5, no stats), who Harry naming nobody."""
    setup = {
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            "elves": {
                "disposition": 10,
                "players": ["ann", "al"],
                "leader": {
                    "name": "Aeluin",
                    "lifepaths": 7,
                    "stats": {"Will": "B4"},
                    "skills": {"Logistics": "B4", "Inconspicuous": "B4"},
                },
            },
            "orcs": {
                "disposition": 12,
                "leader": {"lifepaths": 10, "skills": {"Logistics": "B4", "Tactics": "B5"}},
            },
        },
    }
    players = {"ann": ["elves"], "al": ["elves"], "bob": ["orcs"]}
    table = Table.start(PROCEDURE, setup, players=players)
    table = _act(
        table, "elves", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="orcs"
    )
    return _act(table, "orcs", "write_slip", maneuver="Harry", skill="Tactics", defence=2)


def _scenes(state: KingdomsState, actor: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [c for c in _menu(state, actor) if c[0] == "scene"]


def test_the_scenes_a_faction_may_play_once_every_slip_is_sealed() -> None:
    """Scene Economy: one color, one interstitial (with another faction), three building
    scenes (a skill or stat of the leader, Ob 1–5) and one conflict scene, at the faction its
    maneuver targets — a Harry's at a faction that directed one at it; a faction of two
    players says which plays a roll or a conflict."""
    table = _two_players()
    outcome = Text("the players report the conflict's outcome")
    players = OneOf(("ann", "al"))
    color = ("scene", "play a color scene", {"kind": OneOf(("color",))})

    def interstitial(other: str) -> tuple[str, str, dict[str, Any]]:
        kind = OneOf(("interstitial",))
        return ("scene", "play an interstitial scene", {"kind": kind, "with": OneOf((other,))})

    def building(names: tuple[str, ...], **more: Any) -> tuple[str, str, dict[str, Any]]:
        domains = {"kind": OneOf(("building",)), "skill": OneOf(names), "ob": Between(1, 5)}
        return ("scene", "play a building scene", {**domains, **more})

    assert _scenes(table.state, "elves") == [
        color,
        interstitial("orcs"),
        building(("Logistics", "Inconspicuous", "Will"), player=players),
        (
            "scene",
            "play a conflict scene",
            {
                "kind": OneOf(("conflict",)),
                "target": OneOf(("orcs",)),
                "outcome": outcome,
                "player": players,
            },
        ),
    ]
    orcs = [color, interstitial("elves"), building(("Logistics", "Tactics"))]
    assert _scenes(table.state, "orcs") == orcs
    attacked = _act(table, "elves", "scene", kind="conflict", target="orcs", player="ann")
    retaliation = {"kind": OneOf(("conflict",)), "target": OneOf(("elves",)), "outcome": outcome}
    assert _scenes(attacked.state, "orcs") == [
        *orcs,
        ("scene", "play a conflict scene", retaliation),
    ]
    assert [c[2]["kind"] for c in _scenes(attacked.state, "elves")] == [
        OneOf(("color",)),
        OneOf(("interstitial",)),
        OneOf(("building",)),
    ]


def _scripts(disposition: int, infiltrated: dict[str, int]) -> dict[str, dict[str, Any]]:
    """The maneuvers the elves (Logistics B4, Tactics B5; the orcs Assessed) may script among
    three factions, each with its domains."""
    state = _three_kingdoms_with_inconspicuous().state
    elves = replace(
        state.factions["elves"],
        disposition=disposition,
        assessed=frozenset({"orcs"}),
        infiltrated=infiltrated,
    )
    state = replace(state, factions={**state.factions, "elves": elves})
    return {p["maneuver"].values[0]: p for k, _, p in _menu(state, "elves") if k == "write_slip"}


def test_gambit_and_ploy_need_more_disposition_than_they_cost_and_ploy_an_infiltration() -> None:
    """Gambit and Ploy sacrifice 3 disposition: offered at 4, not at 3. Ploy needs one of its
    two targets Infiltrated, Sap its target: with none, neither; with both others, Ploy
    targets them and Sap either."""
    assert "Gambit" in _scripts(4, {})
    assert "Gambit" not in _scripts(3, {})
    nothing = _scripts(4, {})
    assert "Ploy" not in nothing and "Sap" not in nothing
    both = _scripts(4, {"orcs": 1, "dwarves": 1})
    assert both["Ploy"]["targets"] == SomeOf(("orcs", "dwarves"), least=2, most=2)
    assert both["Sap"]["target"] == OneOf(("orcs", "dwarves"))


def test_a_maneuver_not_offered_leaves_the_later_ones_offered() -> None:
    """Conquest Maneuvers: each maneuver is offered on its own terms. The elves (Tactics
    B3, Inconspicuous B4; disposition 10) have Infiltrated the orcs: a Ploy needs two
    targets, and Tactics B3 is too few dice for a Harry (4), yet the Infiltrate and the Sap
    after them are offered."""
    setup = _kingdom({"infiltrated": {"orcs": 1}}, skills={"Tactics": "B3", "Inconspicuous": "B4"})
    offered = [
        p["maneuver"]
        for k, p in _kinds(PROCEDURE.initial_state(setup), "elves")
        if k == "write_slip"
    ]
    assert offered == [OneOf((m,)) for m in ("Assess", "Ensnare", "Infiltrate", "Sap")]
