"""Consequences ("Consequences"): a faction reduced to 0 is out of contention; its conqueror is
named (by the defeated player when tied); its leader joins a faction still standing, losing
Resources and an affiliation the conqueror may buy.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Action, OneOf, RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import has_a_move

from .helpers import (
    PLAYERS,
    _act,
    _kinds,
    _kingdom,
    _new,
    _pass_all,
    _said,
    _three_kingdoms_with_inconspicuous,
    _two_kingdoms,
)


def test_a_tied_conquest_is_named_by_the_defeated_player_and_says_so() -> None:
    """Consequences: two attackers with equal successes wipe a faction out together; "the
    defeated player decides" which is its conqueror, and the record says why."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}, "circles": 3}
    setup: dict[str, Any] = {
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            "elves": {
                "disposition": 10,
                "assessed": ["orcs"],
                "leader": {**sheet, "name": "A", "skills": {"Tactics": "B4"}},
            },
            "orcs": {
                "disposition": 6,
                "leader": {**sheet, "name": "G", "skills": {"Inconspicuous": "B4"}},
            },
            "dwarves": {
                "disposition": 12,
                "assessed": ["orcs"],
                "leader": {**sheet, "name": "D", "skills": {"Tactics": "B4"}},
            },
        },
    }
    table = Table.start(PROCEDURE, setup)
    none = ScriptedSource([])
    for f in ("elves", "dwarves"):
        assault = {"maneuver": "Assault", "skill": "Tactics", "target": "orcs"}
        table = table.act(Action(f, "write_slip", assault), none)
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = table.act(Action("orcs", "write_slip", infiltrate), none)
    for f in ("elves", "dwarves"):
        table = table.act(Action(f, "scene", {"kind": "conflict", "target": "orcs"}), none)
    for f in ("elves", "orcs", "dwarves"):
        table = table.act(Action(f, "pass", {}), none)
    table = table.act(Action("elves", "reveal", {}), ScriptedSource([4] * 4 + [1] * 4 + [4] * 4))
    table = table.act(Action("elves", "resolve", {}), none)
    assert table.state.pending_conquest == {"orcs": ("elves", "dwarves")}
    table = table.act(Action("orcs", "choose_conqueror", {"conqueror": "dwarves"}), none)
    assert table.log.events[-1].kind == "conqueror.named"
    assert table.log.events[-1].payload == {
        "defeated": "orcs",
        "conqueror": "dwarves",
        "why": "chosen by the defeated player",
        "names": {"dwarves": "the Dwarves", "orcs": "the Orcs"},
    }


def test_a_leader_who_joins_another_than_the_conqueror_loses_resources_and_no_affiliation() -> None:
    """Consequences: a defeated leader who joins a faction other than its conqueror loses its
    Resources to the conqueror's cash on hand, and an affiliation if it has one. The orcs
    (Resources B3, no affiliation), wiped out by the elves' Assault, join the dwarves: 3
    Resources lost to the elves, no affiliation lost (none, not a name)."""
    from .test_procedure import act, orcs_wiped_out_by_the_elves, setup

    table = orcs_wiped_out_by_the_elves(setup())
    # the maneuver's summary, which the table's history shows each seat
    (summary,) = table.state.history
    assert {k: v for k, v in summary.items() if k != "slips"} == {
        "maneuver": 1,
        "narrator": "elves",
        "dispositions": {"elves": 10, "orcs": 0, "dwarves": 12},
        "scenes": 1,
    }
    assert list(summary["slips"]) == ["elves", "orcs", "dwarves"]
    cash = table.state.factions["elves"].leader.cash_on_hand
    table = act(table, "orcs", "join", faction="dwarves")
    orcs = table.state.factions["orcs"]
    assert (orcs.joined, orcs.lost_resources, orcs.lost_affiliation) == ("dwarves", 3, None)
    assert (orcs.lost_affiliation_dice, orcs.leader.resources) == (0, 0)
    assert table.state.factions["dwarves"].allies == ("orcs",)
    assert table.state.factions["elves"].leader.cash_on_hand == cash + 3
    assert table.state.phase == "downtime"


def test_a_conqueror_buys_the_lost_affiliation_once_with_the_cash_it_took() -> None:
    """Consequences: the leader who joins another faction than its conqueror loses its highest
    affiliation, which the conqueror may buy with the cash on hand it took. The orcs (Clan 2D,
    Guild 1D; Resources B3), wiped out by the elves, join the dwarves: they keep the Guild,
    lose the Clan; the elves take 3 cash on hand and buy the Clan (2D) with it, once."""
    from .test_procedure import act, orcs_wiped_out_by_the_elves, setup

    data = setup()
    data["factions"]["orcs"]["leader"]["affiliations"] = {"Clan": 2, "Guild": 1}
    table = orcs_wiped_out_by_the_elves(data)
    table = act(table, "orcs", "join", faction="dwarves")
    orcs = table.state.factions["orcs"]
    assert (orcs.lost_affiliation, orcs.lost_affiliation_dice) == ("Clan", 2)
    assert (orcs.leader.affiliations, orcs.affiliation_bought) == ({"Guild": 1}, False)
    assert table.state.factions["elves"].leader.cash_on_hand == 3
    table = act(table, "elves", "buy_affiliation")
    elves = table.state.factions["elves"].leader
    assert (elves.affiliations, elves.cash_on_hand) == ({"Clan": 2}, 0)
    assert table.state.factions["orcs"].affiliation_bought is True
    with pytest.raises(RuleError, match="no defeated foe's affiliation to buy"):
        act(table, "elves", "buy_affiliation")


def test_consequences_last_until_every_defeated_leader_has_joined() -> None:
    """Consequences: a leader reduced to 0 joins a faction still in contention; the chronicle
    goes on to downtime once every defeated leader has. The elves wipe out the orcs and the
    dwarves the goblins in one maneuver: after the orcs join, the goblins still have to."""
    from .test_procedure import _reveal, act, leader, setup

    data = setup()
    goblin = {**leader(Tactics="B4", Inconspicuous="B4"), "name": "Snaga"}
    data["factions"]["goblins"] = {"disposition": 2, "leader": goblin}
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["dwarves"]["assessed"] = ["goblins"]
    data["factions"]["dwarves"]["leader"]["skills"]["Tactics"] = "B4"
    data["factions"]["orcs"]["disposition"] = 2
    table = Table.start(PROCEDURE, data)
    for f, target in (("elves", "orcs"), ("dwarves", "goblins")):
        table = act(table, f, "write_slip", maneuver="Assault", skill="Tactics", target=target)
    for f in ("orcs", "goblins"):
        table = act(table, f, "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    for f, target in (("elves", "orcs"), ("dwarves", "goblins")):
        table = act(table, f, "scene", kind="conflict", target=target)
    faces = [4] * 5 + [1] * 4 + [4] * 4 + [1] * 4  # elves 5, orcs 0, dwarves 4, goblins 0
    table = act(_reveal(table, "elves", faces), "elves", "resolve")
    conquered = {f: x.conqueror for f, x in table.state.factions.items() if x.out}
    assert (table.state.phase, conquered) == (
        "consequences",
        {"orcs": "elves", "goblins": "dwarves"},
    )
    table = act(table, "orcs", "join", faction="elves")
    assert table.state.phase == "consequences"
    table = act(table, "goblins", "join", faction="dwarves")
    assert table.state.phase == "downtime"


def test_a_faction_finished_off_by_one_attack_is_conquered_by_it_and_the_last_one_wins() -> None:
    """Consequences: the faction that wiped out another is its conqueror ("the attack that
    finished it off"); Winning the Chronicle: the last faction in contention wins — the
    chronicle is won, not ended unwon. Every seat reads the maneuver resolved and ended."""
    table = _two_kingdoms(orcs_disposition=2)
    table = _act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 5 + [1] * 4)
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    kinds = [e.kind for e in events]
    assert "chronicle.ended" not in kinds
    named = next(e for e in events if e.kind == "conqueror.named")
    assert named.payload == {
        "defeated": "orcs",
        "conqueror": "elves",
        "why": "the attack that finished it off",
        "names": {"elves": "the Elves", "orcs": "the Orcs"},
    }
    said = _said(events)
    assert said[0].startswith("Maneuver 1 resolved in seat order — the narrator is the Elves")
    assert "The conqueror of the Orcs: the Elves (the attack that finished it off)" in said
    assert "The chronicle is won by the Elves, the last faction standing" in said
    assert said[-1] == "Maneuver 1 ends"


def test_of_two_attackers_the_one_with_more_successes_conquers() -> None:
    """Consequences: of the factions that damaged the defeated one this maneuver, the one with
    more successes on its maneuver roll is the conqueror. The elves (4 successes) and the
    dwarves (2) both Assault the orcs (disposition 5, no success on their Fortify): the
    elves take 4, the dwarves' attack finishes them off, and the elves conquer. The dwarves
    still stand, so nobody has won and the chronicle has not ended."""
    setup = _kingdom({"assessed": ["orcs"]}, skills={"Logistics": "B4", "Tactics": "B4"})
    setup["factions"]["orcs"]["disposition"] = 5
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "assessed": ["orcs"],
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Tactics": "B4"},
        },
    }
    table = Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})
    for f in ("elves", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "dwarves"):
        table = _act(table, f, "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 4 + [1] * 4 + [4, 4, 1, 1])
    for f in table.state.rolls:
        if not table.state.rolls[f].decided:
            table = _act(table, f, "keep")
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    assert [e.kind for e in events if e.kind.startswith("chronicle.")] == []
    named = next(e for e in events if e.kind == "conqueror.named")
    assert named.payload == {
        "defeated": "orcs",
        "conqueror": "elves",
        "why": "the attacker with more successes",
        "names": {"elves": "the Elves", "orcs": "the Orcs"},
    }
    assert "The conqueror of the Orcs: the Elves (the attacker with more successes)" in _said(
        events
    )


def test_after_a_defeat_the_defeated_names_its_conqueror_then_joins_and_downtime_waits() -> None:
    """Consequences: a defeated faction tied between conquerors names one, then its leader
    joins a faction still standing; its conqueror may buy the lost affiliation once.
    Downtime: a maintenance test owed is taken in consequences or downtime, and nobody starts
    the next maneuver while one is owed. The orcs are out; the elves owe a test."""
    state = _three_kingdoms_with_inconspicuous().state
    f = state.factions
    orcs = replace(f["orcs"], out=True, disposition=0)
    owing = replace(f["elves"], maintenance=(1,))
    tied = replace(
        state,
        phase="consequences",
        factions={**f, "orcs": orcs, "elves": owing},
        pending_conquest={"orcs": ("elves", "dwarves")},
    )
    assert _kinds(tied, "orcs") == [
        ("choose_conqueror", {"conqueror": OneOf(("elves", "dwarves"))})
    ]
    assert _kinds(tied, "elves") == [("maintenance", {})]
    assert _kinds(tied, "dwarves") == []
    assert not has_a_move(tied, "dwarves")
    conquered = replace(orcs, conqueror="elves", lost_affiliation="Guild", lost_affiliation_dice=2)
    named = replace(tied, factions={**tied.factions, "orcs": conquered}, pending_conquest={})
    assert _kinds(named, "orcs") == [("join", {"faction": OneOf(("elves", "dwarves"))})]
    assert _kinds(named, "elves") == [("maintenance", {}), ("buy_affiliation", {})]
    joined = replace(conquered, joined="elves")
    downtime = replace(named, phase="downtime", factions={**named.factions, "orcs": joined})
    assert _kinds(downtime, "orcs") == []
    assert _kinds(downtime, "elves") == [("maintenance", {}), ("buy_affiliation", {})]
    assert _kinds(downtime, "dwarves") == []
    paid = replace(
        downtime,
        factions={
            **downtime.factions,
            "elves": replace(owing, maintenance=()),
            "orcs": replace(joined, affiliation_bought=True),
        },
    )
    for standing in ("elves", "dwarves"):
        assert _kinds(paid, standing) == [("next_maneuver", {})]
    assert _kinds(paid, "orcs") == []
