"""Tests that kill the mutants of ``fold.py`` mutmut left alive (issue 13, round 4;
docs/systems/kingdoms.md, "Mutation testing"): the state each event folds into, as every seat
receives it (``visible_state`` is the whole state but other factions' sealed slips).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from referee.core import Action, RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.state import RolledTest, SceneRecord

from .test_mutants import EXAMPLES, PLAYERS, _kingdom

NONE = ScriptedSource([])


def _act(
    table: Table[Any], faction: str, action: str, dice: list[int] | None = None, **params: Any
) -> Table[Any]:
    return table.act(Action(faction, action, params), ScriptedSource(dice or []))


def test_a_prologue_raises_the_starting_disposition_with_the_disposition() -> None:
    """Prologues: each success of the prologue test adds one point to the faction's
    disposition — its starting disposition too (the cap is the highest starting disposition
    after the Prologue). Elves 10 + 2 = 12, orcs 12 + 1 = 13; the cap is 13."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "prologue": True}, players=PLAYERS)
    table = _act(table, "elves", "prologue", [4, 4, 1, 1], skill="Logistics")
    table = _act(table, "orcs", "prologue", [4, 1, 1, 1], skill="Logistics")
    got = {
        f: (x.prologue, x.disposition, x.starting_disposition)
        for f, x in table.state.factions.items()
    }
    assert got == {"elves": (2, 12, 12), "orcs": (1, 13, 13)}
    assert (table.state.phase, table.state.cap) == ("maneuver", 13)
    seen: Any = PROCEDURE.visible_state(table.state, table.viewer("ann"))
    assert seen["factions"]["elves"]["starting_disposition"] == 12


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


def test_the_reveal_records_each_factions_roll_harrys_two_pools_apart() -> None:
    """Maneuver Resolution; Harry: "divide the Harry dice" into defence and attack. The elves'
    Harry (Tactics B5, 2 dice to defence) rolls 4, 1 (1 success) and 5, 5, 2 (2 attack
    successes); the orcs' Fortify (Logistics B4) rolls 4, 4, 1, 1 (2). Each roll is recorded
    with its skill and pools; the Fortify has no attack and no attack pool, and its leader,
    with no artha, has nothing left to decide."""
    setup = _kingdom({}, skills={"Logistics": "B4", "Tactics": "B5"})
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Harry", skill="Tactics", defence=2)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [4, 1, 5, 5, 2, 4, 4, 1, 1])
    assert table.state.void == {}
    assert table.state.rolls == {
        "elves": RolledTest(
            "elves",
            "leader",
            "Tactics",
            5,
            1,
            2,
            _pool([4, 1], 1),
            _pool([5, 5, 2], 2),
            decided=False,
        ),
        "orcs": RolledTest(
            "orcs", "leader", "Logistics", 4, 2, 0, _pool([4, 4, 1, 1], 2), None, decided=True
        ),
    }


def _pool(faces: list[int], successes: int) -> dict[str, Any]:
    """A black, closed pool's recorded roll."""
    return {
        "dice": len(faces),
        "shade": "B",
        "open_ended": False,
        "successes": successes,
        "stages": {"pool": faces},
    }


def _three_kingdoms(**orcs: Any) -> Table[Any]:
    """Elves, orcs (``orcs`` merged into their faction) and dwarves, each with its player."""
    setup = _kingdom({})
    setup["factions"]["orcs"].update(orcs)
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Logistics": "B3"},
        },
    }
    return Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})


def _orcs_infiltrate_the_elves(table: Table[Any], *, conflict: bool) -> Table[Any]:
    """The orcs Infiltrate the elves (with a conflict scene at them, or none); the others
    Fortify; all pass; the elves read. Every die shows 3."""
    slip = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "targets": ["elves"]}
    table = _act(table, "orcs", "write_slip", **slip)
    for f in ("elves", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    if conflict:
        table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    for f in ("elves", "orcs", "dwarves"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 40)


def test_a_void_slip_is_recorded_with_the_reason_it_is_void() -> None:
    """Conflict Scenes: an Infiltrate "requires a conflict scene directed at" its target; with
    none the slip is void at the reveal, and the state says why (every seat sees it)."""
    table = _orcs_infiltrate_the_elves(_three_kingdoms(), conflict=False)
    assert table.state.void == {
        "orcs": "Infiltrate requires a conflict scene directed at elves; none was"
    }
    assert sorted(table.state.rolls) == ["dwarves", "elves"]


def test_an_infiltrated_advantage_is_spent_on_that_target_alone() -> None:
    """Infiltrate: "you gain an advantage to your next maneuver against that opponent": the
    orcs, having Infiltrated the elves (+2D) and the dwarves (+1D), maneuver against the elves;
    that advantage is used up, the one against the dwarves is kept."""
    table = _three_kingdoms(infiltrated={"elves": 2, "dwarves": 1})
    table = _orcs_infiltrate_the_elves(table, conflict=True)
    rolled: Any = next(
        e.payload
        for e in table.log.events
        if e.kind == "test.rolled" and e.payload["faction"] == "orcs"
    )
    assert rolled["advantage_used"] == ["elves"]
    assert table.state.factions["orcs"].infiltrated == {"elves": 0, "dwarves": 1}


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


def test_fate_on_a_harrys_attack_dice_changes_the_attack_alone() -> None:
    """Artha (Fate: "a 6 rolls again") on a Harry's attack dice: the elves' Harry rolled
    4, 1 to defence (1) and 6, 5, 2 to attack (2); Fate on the attack pool rolls the 6 again
    (4): 3 attack successes, the attack pool as rolled with its Fate die, the defence pool and
    successes unchanged, the test settled and the leader's Fate spent."""
    setup = _kingdom(
        {},
        skills={"Logistics": "B4", "Tactics": "B5"},
        artha={"fate": 1, "persona": 0, "deeds": 0},
    )
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Harry", skill="Tactics", defence=2)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [4, 1, 6, 5, 2, 4, 4, 1, 1])
    table = _act(table, "elves", "spend_artha", [4], fate=True, pool="attack")
    fated = {**_pool([6, 5, 2], 3), "stages": {"pool": [6, 5, 2], "fate": [4]}}
    assert table.state.rolls["elves"] == RolledTest(
        "elves", "leader", "Tactics", 5, 1, 3, _pool([4, 1], 1), fated, decided=True
    )
    assert dict(table.state.factions["elves"].leader.artha) == {
        "fate": 0,
        "persona": 0,
        "deeds": 0,
    }


def test_a_tie_breaker_marks_each_sides_extra_successes_and_closes_the_offer() -> None:
    """Independent and Versus Maneuvers: a tied versus test broken on root stats both sides
    agree to — the extra successes count. examples/kingdoms/artha-and-the-tie-breaker.yaml:
    the elves' Fate (their pool as rolled with the Fate die recorded), then both agree on
    Will: the elves' 4 + 2 = 6, the orcs' 4 + 1 = 5, each roll marked with its extra
    successes, and no offer left open."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:9]:  # up to both sides' tie_break
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
        if step["action"] == "spend_artha":
            spent: Any = table.log.events[-1].payload
            assert table.state.rolls["elves"].pool == spent["pool_roll"]
            assert "fate" in spent["pool_roll"]["stages"]
        if step["actor"] == "orcs" and step["action"] == "tie_break":
            assert table.state.tie_offers == {"orcs": ("elves", "Will")}
    rolls = table.state.rolls
    assert (rolls["elves"].successes, rolls["elves"].tie_break) == (6, {"extra": 2})
    assert (rolls["orcs"].successes, rolls["orcs"].tie_break) == (5, {"extra": 1})
    assert table.state.tie_offers == {}


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


# --- round 4, second wave -------------------------------------------------------------------


def test_deeds_spent_after_the_roll_are_gone_from_the_roller() -> None:
    """Artha (Deeds after the roll: "reroll all failed dice"): the elves' Fortify rolls
    4, 1, 1, 1 (1 success); their one Deeds point rerolls the three failures (4, 4, 1):
    3 successes, the test settled, and the leader's Deeds spent — Fate untouched."""
    setup = _kingdom({}, artha={"fate": 1, "persona": 0, "deeds": 1})
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [4, 1, 1, 1, 4, 4, 1, 1])
    assert (table.state.rolls["elves"].successes, table.state.rolls["elves"].decided) == (1, False)
    table = _act(table, "elves", "spend_artha", [4, 4, 1], deeds=True)
    rolled = table.state.rolls["elves"]
    assert (rolled.successes, rolled.decided) == (3, True)
    assert dict(table.state.factions["elves"].leader.artha) == {
        "fate": 1,
        "persona": 0,
        "deeds": 0,
    }


def _two_kingdoms(orcs_disposition: int, elves_disposition: int = 10) -> Table[Any]:
    from .test_procedure import setup

    data = setup()
    del data["factions"]["dwarves"]
    data["factions"]["elves"]["disposition"] = elves_disposition
    data["factions"]["orcs"]["disposition"] = orcs_disposition
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["assessed"] = ["elves"]
    return Table.start(PROCEDURE, data)


def test_the_chronicle_is_over_when_one_faction_is_left_in_contention() -> None:
    """Winning the Chronicle: the last faction in contention wins. Of two kingdoms, the elves'
    Assault wipes out the orcs: the chronicle is won by the elves and the table goes to
    ``over`` — no consequences, no downtime."""
    from .test_procedure import _reveal, act

    table = _two_kingdoms(orcs_disposition=2)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 5 + [1] * 4), "elves", "resolve")
    assert table.state.factions["orcs"].out
    assert (table.state.winner, table.state.phase) == ("elves", "over")


def test_the_chronicle_is_over_when_the_last_two_wipe_each_other_out() -> None:
    """Winning the Chronicle: the last two kingdoms Assault each other and both fall to 0:
    nobody is left in contention, nobody wins, and the table goes to ``over`` (not to
    consequences: there is no faction left to join)."""
    from .test_procedure import _reveal, act

    table = _two_kingdoms(orcs_disposition=2, elves_disposition=2)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Assault", skill="Tactics", target="elves")
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 9), "elves", "resolve")
    assert [f for f, x in table.state.factions.items() if x.out] == ["elves", "orcs"]
    assert (table.state.winner, table.state.phase) == (None, "over")


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


def test_a_tie_broken_on_a_harrys_attack_dice_marks_the_extra_successes() -> None:
    """Independent and Versus Maneuvers (the tie-breaker: "Extra successes count as if they
    were extra successes for the maneuver skill"): the dwarves' Harry's attack dice (1) tie the
    elves' Fortify (1); both break it on Will: the elves roll 1, 1, 1, 1 (no extra), the
    dwarves 4, 4, 4, 4 (4 extra, to the attack). Each roll is marked with its extra
    successes."""
    from .test_procedure import act, all_pass, harry_on_a_fortify

    table = harry_on_a_fortify()
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 1, 1, 4, 1])
    table = act(table, "dwarves", "tie_break", opponent="elves", root="Will")
    table = act(
        table, "elves", "tie_break", [1, 1, 1, 1, 4, 4, 4, 4], opponent="dwarves", root="Will"
    )
    rolls = table.state.rolls
    assert (rolls["dwarves"].successes, rolls["dwarves"].attack) == (0, 5)
    assert (rolls["dwarves"].tie_break, rolls["elves"].tie_break) == ({"extra": 4}, {"extra": 0})
    assert (rolls["elves"].successes, table.state.tie_offers) == (1, {})


def test_a_tie_break_offer_left_open_is_gone_at_the_next_maneuver() -> None:
    """Independent and Versus Maneuvers (the tie-breaker on root stats happens only "if both
    agree"); Maneuvers ("At the beginning of each Maneuver, players decide their faction's
    intent"): examples/kingdoms/artha-and-the-tie-breaker.yaml up to the orcs' offer to break
    the tie on Will; the elves never agree and resolve the maneuver as tied. The offer is
    still open in downtime, but maneuver 2 starts with none: it cannot be taken up against a
    tie of the new maneuver."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:8]:  # up to the orcs' offer alone
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert table.state.tie_offers == {"orcs": ("elves", "Will")}
    table = _act(table, "elves", "resolve")
    assert (table.state.phase, table.state.tie_offers) == ("downtime", {"orcs": ("elves", "Will")})
    table = _act(table, "elves", "next_maneuver")
    assert (table.state.phase, table.state.maneuver, table.state.tie_offers) == (
        "maneuver",
        2,
        {},
    )
    seen: Any = PROCEDURE.visible_state(table.state, table.viewer("ann"))
    assert seen["tie_offers"] == {}
    # the same two tie again in maneuver 2: the elves' offer alone rolls nothing yet
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = _act(table, "orcs", "write_slip", **infiltrate)
    table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [4, 4, 1, 1, 4, 4, 1, 1, 1])
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 2, "orcs": 2}
    table = _act(table, "elves", "tie_break", opponent="orcs", root="Will")
    assert [e.kind for e in table.log.events[-1:]] == ["tie_break.offered"]
    assert table.state.tie_offers == {"elves": ("orcs", "Will")}
