"""Downtime ("Downtime"): the free resource maintenance cycles a Conserve or Fortify buys, the
maintenance tests the others owe (a Sapped faction's at +margin Ob), and the healing it brings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Action, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.state import RolledTest, SceneRecord, Slip

from .helpers import PLAYERS, _kingdom
from .test_procedure import setup


def test_downtime_bought_with_two_successes_owes_the_others_two_maintenance_tests() -> None:
    """Downtime: "In a succesful Conserve or Fortify, the winner gets one 3-month resource
    maintenance cycle for free per success allocated to downtime and the rest of the players
    are required to make resource maintenance checks": the elves' unopposed Fortify rolls 4
    successes against Ob 2 and puts both spare successes into downtime (6 months); the orcs
    owe two maintenance tests, the elves none."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    none = ScriptedSource([])
    mine: dict[str, Any] = {"maneuver": "Fortify", "skill": "Logistics", "downtime": 2}
    table = table.act(Action("elves", "write_slip", mine), none)
    theirs = {"maneuver": "Fortify", "skill": "Logistics"}
    table = table.act(Action("orcs", "write_slip", theirs), none)
    for f in ("elves", "orcs"):
        table = table.act(Action(f, "pass", {}), none)
    table = table.act(Action("elves", "reveal", {}), ScriptedSource([4] * 4 + [1] * 4))
    table = table.act(Action("elves", "keep", {}), none)  # the leader's Fate is not spent
    table = table.act(Action("elves", "resolve", {}), none)
    elves, orcs = table.state.factions["elves"], table.state.factions["orcs"]
    assert (elves.downtime_months, elves.maintenance) == (6, ())
    assert orcs.maintenance == (0, 0)
    bought: Any = [
        e.payload["text"]
        for e in table.log.events
        if e.kind == "effect.applied" and e.payload["kind"] == "downtime"
    ]
    assert bought == [
        "the Elves' Fortify: 2 successes buy 6 months of downtime (margin against Ob 2, unopposed)"
    ]


def test_each_maintenance_test_pays_one_cycle_and_downtime_heals_both_characters() -> None:
    """Downtime: "the winner gets one 3-month resource maintenance cycle for free per success
    allocated to downtime and the rest of the players are required to make resource
    maintenance checks" — one test per cycle, each test paying one; earning downtime heals the
    faction's wounds fully, the leader's and the 2iC's, Superficial wounds too. The dwarves'
    Fortify (Fortifications B6, −1D for a wound die: 5 successes against Ob 2 + 1 for the
    Superficial wound) puts 2 successes into downtime: the elves and the orcs owe 2 tests each."""
    from .test_procedure import _reveal, act, setup

    data = setup()
    grannir = data["factions"]["dwarves"]["leader"]
    grannir["skills"]["Fortifications"] = "B6"
    grannir.update(wound_dice=1, superficial=True)
    data["factions"]["dwarves"]["second"] = {
        "name": "Balin",
        "lifepaths": 8,
        "stats": {"Will": "B3"},
        "skills": {"Law": "B3"},
        "wound_dice": 1,
        "superficial": True,
    }
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = act(table, "orcs", "write_slip", **infiltrate)
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", downtime=2
    )
    table = act(table, "orcs", "scene", kind="conflict", target="elves")
    table = act(_reveal(table, "elves", [1] * 8 + [4] * 5), "elves", "resolve")
    assert table.state.factions["dwarves"].downtime_months == 6
    for f in ("elves", "orcs"):
        assert table.state.factions[f].maintenance == (0, 0)
    table = act(table, "elves", "maintenance", [4, 4, 4])
    assert table.state.factions["elves"].maintenance == (0,)
    for f in ("elves", "orcs", "orcs"):
        table = act(table, f, "maintenance", [4, 4, 4])
    assert [table.state.factions[f].maintenance for f in ("elves", "orcs")] == [(), ()]
    table = act(table, "orcs", "next_maneuver")
    dwarves = table.state.factions["dwarves"]
    assert dwarves.second is not None
    assert [(c.wound_dice, c.superficial) for c in (dwarves.leader, dwarves.second)] == [
        (0, False),
        (0, False),
    ]


def test_a_sapped_faction_owes_maintenance_at_the_margin_over_the_ob_even_in_consequences() -> None:
    """Sap; Downtime: the Sapped target owes a Resources maintenance test at +margin Ob, and
    may take it while a defeated faction's consequences are pending. The elves (Resources B3)
    owe one at +2: Ob 3, rolled 4, 4, 1 — 2 successes, failed."""
    state = Table.start(PROCEDURE, _kingdom({}, resources=3), players=PLAYERS).state
    elves = replace(state.factions["elves"], maintenance=(2,))
    state = replace(state, phase="consequences", factions={**state.factions, "elves": elves})
    (tested,) = PROCEDURE.decide(
        state, Action("elves", "maintenance", {}), ScriptedSource([4, 4, 1])
    )
    assert {k: tested.payload[k] for k in ("ob", "extra_ob", "dice", "successes", "passed")} == {
        "ob": 3,
        "extra_ob": 2,
        "dice": 3,
        "successes": 2,
        "passed": False,
    }


def test_the_maintenance_obstacle_is_the_set_ups_and_may_be_zero() -> None:
    """Downtime: the maintenance test's Ob is the set-up's ``maintenance_ob`` (1 if none)."""
    assert Table.start(PROCEDURE, setup()).state.maintenance_ob == 1
    assert Table.start(PROCEDURE, setup(maintenance_ob=0)).state.maintenance_ob == 0
    assert Table.start(PROCEDURE, setup(maintenance_ob=3)).state.maintenance_ob == 3


@pytest.mark.parametrize(
    ("resources", "extra", "faces", "expected"),
    [
        # Routine (Ob 2 ≤ 4 − 2): 0 successes, taxed 1D, not the margin of 2
        (4, 1, [1, 1, 1, 1], ("11/16", 0, False, "routine", 1, 3)),
        # Difficult (Ob 3 > 4 − 2): 0 successes, taxed 2D, not the margin of 3
        (4, 2, [1, 1, 1, 1], ("5/16", 0, False, "difficult", 2, 2)),
        # Challenging (Ob 5 > 3 dice): 1 success, taxed the margin of failure, 4: to 0, no lower
        (3, 4, [4, 1, 1], ("0", 1, False, "challenging", 4, 0)),
        # passed: no tax
        (4, 0, [4, 1, 1, 1], ("15/16", 1, True, "routine", 0, 4)),
    ],
)
def test_a_failed_maintenance_test_taxes_resources_by_its_difficulty(
    resources: int, extra: int, faces: list[int], expected: tuple[Any, ...]
) -> None:
    """Downtime (parent-games.md, Resources): a Resources maintenance test that fails taxes
    the exponent 1D if Routine, 2D if Difficult, the margin of failure if Challenging; a pass
    taxes nothing. The elves' leader tests Resources against the maintenance Ob 1 plus a Sap's
    extra Ob; the roll card names the test, the rule and the dice against the Ob."""
    state = Table.start(PROCEDURE, _kingdom({}, resources=resources), players=PLAYERS).state
    elves = replace(state.factions["elves"], maintenance=(extra,))
    state = replace(state, phase="downtime", factions={**state.factions, "elves": elves})
    (tested,) = PROCEDURE.decide(state, Action("elves", "maintenance", {}), ScriptedSource(faces))
    keys = ("odds", "successes", "passed", "difficulty", "tax", "resources")
    assert tuple(tested.payload[k] for k in keys) == expected
    assert (tested.payload["ob"], tested.payload["dice"]) == (1 + extra, resources)
    card: Any = tested.payload["roll"]
    assert (card["label"], card["rule"], card["dice"], card["value"]) == (
        "Aeluin's Resources maintenance test",
        "Downtime",
        f"{resources}d6 vs Ob {1 + extra}",
        expected[1],
    )
    after = PROCEDURE.evolve(state, tested)
    assert after.factions["elves"].leader.resources == expected[-1]
    assert after.factions["elves"].maintenance == ()


def test_the_next_maneuver_brings_the_last_ones_statuses_and_heals_who_earned_downtime() -> None:
    """Downtime; Sap, Onslaught: the statuses the last maneuver dealt take hold in the next
    one and are not dealt again after it — the elves, Sapped of 2 dice and unable to act next
    maneuver, are Sapped and cannot act now, with nothing left for the maneuver after; the
    downtime they earned heals their leader and is spent."""
    state = Table.start(PROCEDURE, _kingdom({}, wound_dice=1), players=PLAYERS).state
    elves = replace(
        state.factions["elves"], next_sapped=2, next_cannot_act=True, earned_downtime=True
    )
    state = replace(state, phase="downtime", factions={**state.factions, "elves": elves})
    (started,) = PROCEDURE.decide(state, Action("orcs", "next_maneuver", {}), ScriptedSource([]))
    assert started.payload["healed"] == ["elves"]
    after = PROCEDURE.evolve(state, started).factions["elves"]
    assert (after.sapped, after.cannot_act, after.leader.wound_dice) == (2, True, 0)
    assert (after.next_sapped, after.next_cannot_act, after.earned_downtime) == (0, False, False)


def test_the_next_maneuver_starts_afresh() -> None:
    """Downtime, then the next maneuver ("At the beginning of each Maneuver, players decide
    their faction's intent"): nothing of the last maneuver's reading is carried into it — no
    slip, salt, scene, pass, Health test or fresh wound, no reader, order of reading, void
    slip, roll or tie-breaker offer — and its number is the next."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    last = replace(
        state,
        phase="downtime",
        slips={"elves": Slip("elves", "Fortify", "Logistics")},
        salts={"elves": "salt"},
        scenes=(SceneRecord("elves", "color", "leader"),),
        passed=frozenset({"elves", "orcs"}),
        health_tested=frozenset({"elves.leader"}),
        wounded=frozenset({"orcs.leader"}),
        reader="orcs",
        order=("orcs", "elves"),
        void={"orcs": "no conflict scene"},
        rolls={"elves": RolledTest("elves", "leader", "Logistics", 4, 2, decided=True)},
        tie_offers={"elves": ("orcs", "Will")},
    )
    (started,) = PROCEDURE.decide(last, Action("elves", "next_maneuver", {}), ScriptedSource([]))
    after = PROCEDURE.evolve(last, started)
    assert (after.phase, after.maneuver) == ("maneuver", 2)
    assert (after.slips, after.salts, after.scenes, after.passed) == ({}, {}, (), frozenset())
    assert (after.health_tested, after.wounded) == (frozenset(), frozenset())
    assert (after.reader, after.order, after.void) == (None, (), {})
    assert (after.rolls, after.tie_offers) == ({}, {})
