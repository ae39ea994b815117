"""Sap ("Conquest Maneuvers", "Sap"): "The margin of success is subtracted from the target's next
maneuver"; reducing the skill below 0 costs disposition; a Sapped faction may not roll, and owes
maintenance.
"""

from __future__ import annotations

from referee.core import Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import Shade
from referee.systems.kingdoms.resolution import Effect, Entry, resolve
from referee.systems.kingdoms.scripting import reveal_odds
from referee.systems.kingdoms.sheets import Ability
from referee.systems.kingdoms.state import Slip

from .helpers import PLAYERS, _kingdom, _pools, _rolled, _scripted, _with_second, small_board
from .test_procedure import act, all_pass, sealed, setup
from .test_resolution import board


def test_a_sap_past_the_targets_skill_costs_disposition_by_the_excess() -> None:
    """Sap: "reducing the skill below 0" costs the target the extra successes in disposition.
    A margin of 3 against a skill of 3 costs nothing; a margin of 4 costs 1 (and, taking the
    last point, a's 5 successes are its attack); against a faction that rolled nothing (skill
    0) every one of 3 successes costs a point."""
    fortify = Entry("c", "Fortify", (), 1, exponent=3)
    exact = resolve({"a": Entry("a", "Sap", ("c",), 4), "c": fortify}, small_board())
    assert exact.dispositions["c"] == 10
    assert [e.kind for e in exact.effects] == ["sapped", "downtime", "maintenance"]
    past = resolve({"a": Entry("a", "Sap", ("c",), 5), "c": fortify}, small_board(c=1))
    assert (past.dispositions["c"], past.out, past.attackers) == (0, ("c",), {"c": {"a": 5}})
    idle = resolve({"a": Entry("a", "Sap", ("c",), 3)}, small_board())
    assert idle.dispositions["c"] == 7


def test_a_faction_sapped_twice_loses_the_larger_sap_not_the_last() -> None:
    """Sap: "The margin of success is subtracted from the target's next maneuver": two Saps on
    one target take the larger of their dice (the game's Rulings, 8: they do not add),
    whichever is resolved last."""
    for order in (("a", "b"), ("b", "a")):
        saps = {"a": Entry("a", "Sap", ("c",), 4), "b": Entry("b", "Sap", ("c",), 2)}
        result = resolve({f: saps[f] for f in order}, small_board())
        assert result.sapped == {"c": 4}


def test_a_sap_takes_dice_costs_disposition_past_the_skill_and_buys_downtime() -> None:
    """Sap: "The margin of success is subtracted from the target's next maneuver" (independent:
    every success, RULINGS); past the target's skill the extra successes hurt its disposition;
    the Sapper earns one free maintenance cycle and the target owes a Resources maintenance
    test at +margin Ob. a's 3 against b's Assess of exponent 1 (Ob 1): 3D off b, 2 past its
    skill, margin 2. Every effect, as the seats read them."""
    r = resolve(
        {
            "a": Entry("a", "Sap", ("b",), 3),
            "b": Entry("b", "Assess", ("c",), 0, exponent=1),
        },
        board(),
    )
    assert r.effects == (
        Effect("b", "sapped", "a", "a's Sap takes 3D from b's next maneuver", amount=3),
        Effect("b", "disposition", "a", "a's Sap reduces b's skill (1) below 0: 2 damage", -2, 8),
        Effect("a", "downtime", "a", "a's Sap earns one free maintenance cycle", amount=3),
        Effect(
            "b",
            "maintenance",
            "a",
            "b must make a Resources maintenance test at +2 Ob",
            amount=2,
            value=1,
        ),
    )
    assert r.sapped == {"b": 3}


def test_a_sapped_conserve_not_rolled_is_noted_as_unopposed_not_as_sapped() -> None:
    """Conserve is "only rolled against a versus maneuver": unopposed, it is not rolled and
    the roll says so — the Sap on the faction (2, below its exponent) takes its dice, but
    is not the reason it is not rolled."""
    data = setup()
    data["factions"]["orcs"]["leader"]["skills"]["Foraging"] = "B4"
    data["factions"]["orcs"]["sapped"] = 2
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(table, "orcs", "write_slip", maneuver="Conserve", skill="Foraging")
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    orcs = _rolled(table, "orcs")
    assert (orcs["dice"], orcs["notes"]) == (
        0,
        ["-2D Sapped", "Conserve is only rolled against a versus maneuver: not rolled"],
    )


def test_a_faction_sapped_out_of_its_roll_is_noted_as_sapped() -> None:
    """Sap: a faction Sapped at or above its exponent "may not roll" this maneuver; its roll
    says so."""
    data = setup()
    data["factions"]["dwarves"]["sapped"] = 5
    table = sealed(Table.start(PROCEDURE, data))
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    dwarves = _rolled(table, "dwarves")
    assert (dwarves["dice"], dwarves["notes"]) == (0, ["-5D Sapped", "Sapped: may not roll"])


def test_a_sap_is_independent_at_the_exponent_the_targets_roller_tests() -> None:
    """Sap: independent, "test vs. an Ob equal to the target's skill exponent"; Seconds in
    Command: the 2iC rolls with its own skill, wound and artha. The orcs' 2iC (Observation B3,
    which the leader lacks; Superficial; 1 Fate) Assesses the elves while the elves Sap the
    orcs: the Sap is at Ob 3; the orcs' Assess, independent at Ob 2, is at Ob 3 for the 2iC's
    wound, with Fate offered (the orcs' leader has none)."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    state = _with_second(
        state,
        "orcs",
        name="Ugluk",
        skills={"Observation": Ability(Shade.BLACK, 3)},
        artha={"fate": 1, "persona": 0, "deeds": 0},
        superficial=True,
    )
    state = _scripted(
        state,
        Slip("elves", "Sap", "Logistics", ("orcs",)),
        Slip("orcs", "Assess", "Observation", ("elves",), roller="second"),
    )
    sap, assess = reveal_odds(state, ("elves", "orcs"), {}, _pools(elves=(4, 0), orcs=(3, 0)))
    assert (sap["attacker"], sap["kind"], sap["obstacle"], sap["needed"]) == (
        "elves",
        "independent",
        3,
        3,
    )
    assert sap["chance"]["no artha"] == "5/16"
    assert (assess["attacker"], assess["kind"], assess["obstacle"], assess["needed"]) == (
        "orcs",
        "independent",
        3,
        3,
    )
    assert list(assess["chance"]) == ["no artha", "Fate"]
