"""The maneuver ("Structure of Play": Maneuver; "Maneuvering in the Chronicle"; "Maneuver
Resolution"; the game's Rulings): each faction's intent at its beginning, the reveal once every
faction has sealed and passed, a maneuver void without its conflict scene (Ruling 11), Gambit's
cost, and the dice a maneuver's roll gains and loses.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE

from .helpers import (
    EVERY_SEAT,
    PLAYERS,
    _act,
    _kingdom,
    _reveal_roll,
    _rolled,
    _said,
    _three_kingdoms,
)
from .test_procedure import _reveal, act, all_pass, sealed, setup, start


def test_a_new_maneuver_starts_with_a_clean_table() -> None:
    """Maneuvers: "At the beginning of each Maneuver, players decide their faction's intent":
    the next maneuver starts with no slips, no scenes, no passes, no reader or order, no void
    slip, no rolls and no open tie-break offer — the last maneuver's are gone (its summary is
    in the history), and the maneuver count goes up by one."""
    table = _three_kingdoms()
    slip = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "targets": ["elves"]}
    table = _act(table, "orcs", "write_slip", **slip)
    for f in ("elves", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "dwarves", "scene", kind="color")
    for f in ("elves", "orcs", "dwarves"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [3] * 40)
    for f in ("elves", "dwarves"):
        table = _act(table, f, "keep")
    table = _act(table, "elves", "resolve")
    before = table.state
    assert (before.phase, before.maneuver, before.reader) == ("downtime", 1, "elves")
    assert before.void and before.rolls and before.slips and before.salts and before.passed
    assert len(before.scenes) == 1
    table = _act(table, "elves", "next_maneuver")
    after = table.state
    assert (after.phase, after.maneuver, after.reader, after.order) == ("maneuver", 2, None, ())
    assert (after.slips, after.salts, after.void, after.rolls, after.tie_offers) == (
        {},
        {},
        {},
        {},
        {},
    )
    assert (after.scenes, after.passed, after.health_tested, after.wounded) == (
        (),
        frozenset(),
        frozenset(),
        frozenset(),
    )
    assert after.factions == before.factions
    assert len(after.history) == 1
    seen: Any = PROCEDURE.visible_state(after, table.viewer("ann"))
    assert (seen["phase"], seen["maneuver"]) == ("maneuver", 2)


def test_the_reveal_waits_for_every_faction_under_maneuver_resolution() -> None:
    """Maneuver Resolution: the maneuver ends when every faction has spent or passed its
    scenes; a reveal before is refused under that rule."""
    table = sealed(start())
    with pytest.raises(RuleError, match="waiting for") as refused:
        act(table, "elves", "reveal")
    assert refused.value.rule == "Maneuver Resolution"
    table = all_pass(table)
    table = act(table, "elves", "reveal", [4] * 20)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    assert (revealed.payload["maneuver_number"], revealed.payload["reader"]) == (1, "elves")


def test_a_maneuver_without_its_conflict_scene_is_void_behind_one_that_cannot_act() -> None:
    """Maneuvers: a Ploy requires a conflict scene at its targets; without one it is void,
    wherever it sits in the seat order — here after the elves, who cannot act and wrote no
    slip, and the table keeps why. The dwarves' help to the void Ploy is refused: there is no
    maneuver to help."""
    data = setup()
    data["factions"]["elves"]["cannot_act"] = True
    data["factions"]["orcs"]["infiltrated"] = {"elves": 0, "dwarves": 0}
    table = Table.start(PROCEDURE, data)
    table = act(
        table, "orcs", "write_slip", maneuver="Ploy", skill="Tactics", targets=["elves", "dwarves"]
    )
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", helps="orcs"
    )
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    why = "Ploy requires a conflict scene directed at the Elves or the Dwarves; none was"
    assert revealed.payload["void"] == {"orcs": why}
    assert revealed.payload["help_refused"] == {"dwarves": "the Orcs: no maneuver to help"}
    assert f"  the Orcs' maneuver is void: {why}" in PROCEDURE.describe(revealed, EVERY_SEAT)
    assert table.state.void == {"orcs": why} and "orcs" not in table.state.rolls
    # the dwarves' unopposed Fortify behind them still has its odds told: 3 successes of B5
    # (Ob 2 and a margin), each die a success on 4-6: (10 + 5 + 1) / 2^5
    assert revealed.payload["odds"] == [
        {
            "needed": 3,
            "attacker": "dwarves",
            "target": None,
            "kind": "independent",
            "cell": "-",
            "dice": 5,
            "obstacle": 2,
            "chance": {"no artha": "1/2"},
        }
    ]


def test_a_gambit_sacrifices_its_disposition_at_the_reveal_behind_one_that_cannot_act() -> None:
    """Gambit: "sacrifice 3 points of disposition" to announce it, at the reveal — whatever
    sits before it in the seat order (here the elves, who cannot act: the reveal lists them).
    Every seat reads the sacrifice; the orcs' roll spent no artha before it."""
    data = setup()
    data["factions"]["elves"]["cannot_act"] = True
    data["factions"]["orcs"]["assessed"] = ["dwarves"]
    table = Table.start(PROCEDURE, data)
    table = act(
        table,
        "orcs",
        "write_slip",
        maneuver="Gambit",
        skill="Tactics",
        target="dwarves",
        substitute=True,
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "orcs", "scene", kind="conflict", target="dwarves")
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    assert revealed.payload["cannot_act"] == ["elves"]
    sacrifice = next(e for e in table.log if e.kind == "effect.applied")
    assert sacrifice.payload == {
        "faction": "orcs",
        "kind": "disposition",
        "by": "orcs",
        "amount": -3,
        "value": 7,
        "target": None,
        "text": "the Orcs' Gambit announced at the cost of 3 disposition",
        "names": {"orcs": "the Orcs"},
    }
    assert _said([sacrifice]) == ["The Orcs' Gambit announced at the cost of 3 disposition"]
    assert table.state.factions["orcs"].disposition == 7
    orcs = _rolled(table, "orcs")
    assert (orcs["roller"], orcs["character"]) == ("leader", "Gorbash")
    assert orcs["artha"] == {"persona": 0, "deeds": 0}


def test_a_maneuvers_roll_notes_each_die_it_gains_and_loses_and_stays_open_ended() -> None:
    """Infiltrate's advantage, Onslaught's +3D, Sap, wounds: the reveal's roll says each.
    The elves (Tactics B4 open-ended; +2D advantage on the Infiltrated orcs; Sapped 1; 1 wound
    die) Onslaught the Assessed orcs: 4 + 2 + 3 − 1 − 1 = 7 open-ended dice."""
    tactics = {"shade": "B", "exponent": 4, "open_ended": True}
    setup = _kingdom(
        {"sapped": 1, "infiltrated": {"orcs": 2}, "assessed": ["orcs"]},
        skills={"Tactics": tactics},
        wound_dice=1,
    )
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(
        table, "elves", "write_slip", maneuver="Onslaught", skill="Tactics", targets=["orcs"]
    )
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    for f in ("elves", "orcs"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    rolled = _reveal_roll(_act(table, "elves", "reveal", [3] * 40), "elves")
    assert rolled["notes"] == [
        "+2D advantage from Infiltrating",
        "+3D Onslaught",
        "-1D Sapped",
        "-1D wounds",
    ]
    assert rolled["dice"] == 7
    assert rolled["pool"]["open_ended"] is True
    assert rolled["pool_roll"]["open_ended"] is True


def test_every_faction_with_a_slip_to_write_has_the_move() -> None:
    """Maneuver: at its beginning every faction declares its intent; one that has sealed its
    slip waits for the others."""
    table = start()
    assert tuple(PROCEDURE.actors(table.state)) == ("elves", "orcs", "dwarves")
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    assert "orcs" in PROCEDURE.actors(table.state)


def test_an_action_the_game_does_not_have_is_refused() -> None:
    """An action that is not one of the game's is refused with the rule, not a crash."""
    with pytest.raises(RuleError) as refused:
        PROCEDURE.decide(start().state, Action("elves", "dance", {}), ScriptedSource([]))
    assert "no such action" in str(refused.value)


def test_a_void_maneuver_pays_no_cost() -> None:
    """Ruling 11: a Gambit (cost 3) without its required conflict scene is void at the reveal:
    its disposition is not sacrificed. With the scene it is."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]

    def revealed(conflict: bool) -> Table[Any]:
        table = Table.start(PROCEDURE, data)
        table = act(table, "elves", "write_slip", maneuver="Gambit", skill="Tactics", target="orcs")
        table = act(
            table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True
        )
        table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
        if conflict:
            table = act(table, "elves", "scene", kind="conflict", target="orcs")
        return _reveal(table, "elves", [4] * 14)

    void = revealed(conflict=False)
    assert "elves" in void.state.void
    assert void.state.factions["elves"].disposition == 10
    assert not [e for e in void.log if e.kind == "effect.applied" and e.data["by"] == "elves"]
    played = revealed(conflict=True)
    assert played.state.void == {} and played.state.factions["elves"].disposition == 7
