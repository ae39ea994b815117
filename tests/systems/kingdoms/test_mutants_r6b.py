"""Tests that kill the mutants mutmut left alive in round 6, part B of issue 13
(docs/systems/kingdoms.md, "Mutation testing", "Round 6, part B"): ``scripting.py``'s
scripted maneuvers and reveal odds, ``dice.py``'s rolls and ``choices.py``'s menus."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Between, OneOf, RuleError, SomeOf, Table, Text
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import choices_for, has_a_move
from referee.systems.kingdoms.dice import (
    Artha,
    BurningPool,
    Shade,
    artha_buys_nothing,
    roll_before,
    spend_after,
)
from referee.systems.kingdoms.scripting import check_conflicts_against, no_skill, reveal_odds
from referee.systems.kingdoms.sheets import Ability
from referee.systems.kingdoms.state import KingdomsState, SceneRecord, Slip

from .test_mutants import PLAYERS, _kingdom
from .test_mutants_fold import _act
from .test_mutants_r5b import _revealed

# ------------------------------------------------------------------------- scripting.py


def _rolled(table: Table[Any], faction: str) -> Any:
    """The ``test.rolled`` payload of ``faction`` at the reveal."""
    payload: Any = next(
        e.payload
        for e in table.log.events
        if e.kind == "test.rolled" and e.payload["faction"] == faction
    )
    return payload


def _both_fortify(artha: dict[str, int]) -> Table[Any]:
    """The elves (with ``artha``) and the orcs each Fortify, pass and reveal; every die 3."""
    table = Table.start(PROCEDURE, _kingdom({}, artha=artha), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 40)


def test_a_roll_waits_for_artha_after_it_only_while_the_roller_has_fate_or_deeds() -> None:
    """Artha: Fate and Deeds are spent after the roll. A leader with 1 Deeds (and no Fate), or
    1 Fate (and no Deeds), may still spend it: the roll is not settled; with neither, it is
    settled at once."""
    for artha, settled in (
        ({"fate": 0, "persona": 0, "deeds": 1}, False),
        ({"fate": 1, "persona": 0, "deeds": 0}, False),
        ({"fate": 0, "persona": 1, "deeds": 0}, True),
    ):
        table = _both_fortify(artha)
        assert table.state.rolls["elves"].decided is settled, artha


def _three_kingdoms() -> Table[Any]:
    """Elves (Tactics B5 besides), orcs and dwarves, each leader with Inconspicuous."""
    setup = _kingdom({}, skills={"Logistics": "B4", "Inconspicuous": "B4", "Tactics": "B5"})
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Logistics": "B3", "Inconspicuous": "B4"},
        },
    }
    return Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})


def _infiltrations(attacker: str) -> Table[Any]:
    """The orcs Infiltrate the elves and direct no conflict; ``attacker`` Infiltrates the orcs
    and directs its conflict at them; the third faction Fortifies. All pass; the elves read."""
    table = _three_kingdoms()
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
        "orcs": "Infiltrate requires a conflict scene directed at elves; none was"
    }


def _conserve_against_an_infiltrate(conflict: bool) -> Table[Any]:
    """The elves Conserve; the orcs Infiltrate them (with their conflict scene, or none: then
    the Infiltrate is void); both pass; the elves read. Every die 3."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Conserve", skill="Logistics")
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", targets=["elves"]
    )
    if conflict:
        table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    for f in ("elves", "orcs"):
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", [3] * 40)


def test_a_conserve_is_rolled_only_against_a_versus_maneuver_that_is_not_void() -> None:
    """Conserve: "only rolled against a versus maneuver". Against the orcs' Infiltrate (V) the
    elves' Logistics B4 rolls its 4 dice; against a void Infiltrate, nothing."""
    met = _rolled(_conserve_against_an_infiltrate(conflict=True), "elves")
    assert met["dice"] == 4
    assert met["notes"] == []
    unmet = _rolled(_conserve_against_an_infiltrate(conflict=False), "elves")
    assert unmet["dice"] == 0
    assert unmet["notes"] == ["Conserve is only rolled against a versus maneuver: not rolled"]


def _scripted(state: KingdomsState, *slips: Slip) -> KingdomsState:
    return replace(state, slips={s.faction: s for s in slips})


def _pools(**pools: tuple[int, int]) -> dict[str, tuple[BurningPool, int]]:
    """Each faction's rolled pool (black, closed) as the reveal hands it on: (dice, attack)."""
    return {f: (BurningPool(dice), attack) for f, (dice, attack) in pools.items()}


def test_the_reveal_odds_offer_each_after_the_roll_artha_the_roller_has() -> None:
    """Artha after the roll: each engagement's odds with no artha, Fate and Deeds, as far as
    the roller has them. The elves' Assess of the orcs meets their Fortify independently at
    Ob 2 (4 black dice: 11/16; with Fate 35/48; with Deeds 243/256); the unopposed Fortify
    of the orcs is at Ob 2, needing 3 for a margin (5/16)."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    state = _scripted(
        state, Slip("elves", "Assess", "Logistics", ("orcs",)), Slip("orcs", "Fortify", "Logistics")
    )
    order, pools = ("elves", "orcs"), _pools(elves=(4, 0), orcs=(4, 0))
    chances = {
        "no artha": "11/16",
        "Fate": "35/48",
        "Deeds (reroll)": "243/256",
    }
    for artha, shown in (
        ({"fate": 1, "persona": 0, "deeds": 0}, ["no artha", "Fate"]),
        ({"fate": 0, "persona": 0, "deeds": 1}, ["no artha", "Deeds (reroll)"]),
        ({"fate": 1, "persona": 0, "deeds": 1}, ["no artha", "Fate", "Deeds (reroll)"]),
    ):
        elves = state.factions["elves"]
        with_artha = replace(
            state,
            factions={
                **state.factions,
                "elves": replace(elves, leader=replace(elves.leader, artha=artha)),
            },
        )
        assess, fortify = reveal_odds(with_artha, order, {}, pools)
        assert (assess["attacker"], assess["target"], assess["kind"]) == (
            "elves",
            "orcs",
            "independent",
        )
        assert (assess["needed"], assess["obstacle"], assess["dice"]) == (2, 2, 4)
        assert assess["chance"] == {k: chances[k] for k in shown}
        assert fortify == {
            "needed": 3,
            "attacker": "orcs",
            "target": None,
            "kind": "independent",
            "cell": "-",
            "dice": 4,
            "obstacle": 2,
            "chance": {"no artha": "5/16"},
        }


def _with_second(state: KingdomsState, faction: str, **second: Any) -> KingdomsState:
    """``faction`` with a 2iC: its leader's sheet changed by ``second``."""
    f = state.factions[faction]
    return replace(
        state, factions={**state.factions, faction: replace(f, second=replace(f.leader, **second))}
    )


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


def test_an_infiltrate_is_independent_at_the_targets_base_circles() -> None:
    """Infiltrate: independent, "vs. an Ob equal to the target's base Circles". The elves
    (Circles 3) and the orcs (Circles 0) Infiltrate each other: the orcs need 3, the elves 1
    (at least one success to do anything)."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    state = _scripted(
        state,
        Slip("elves", "Infiltrate", "Logistics", ("orcs",)),
        Slip("orcs", "Infiltrate", "Inconspicuous", ("elves",)),
    )
    elves, orcs = reveal_odds(state, ("elves", "orcs"), {}, _pools(elves=(4, 0), orcs=(4, 0)))
    assert (elves["obstacle"], elves["needed"]) == (0, 1)
    assert (orcs["obstacle"], orcs["needed"]) == (3, 3)


def test_a_harrys_attack_dice_meet_a_fortify_and_an_ensnare_in_the_reveal_odds() -> None:
    """Harry: its attack dice meet a Fortify or an Ensnare (the matrix's aV). The elves'
    Harry (2 defence dice, 3 attack) against the orcs' Fortify of 4: 3 dice against 4 (29/128;
    with the leader's Fate, 637/2048).
    Against the orcs' Ensnare of 4, the Ensnare's odds are against the 3 attack dice too; an
    Ensnare meets an Assess (V) with the Assess's own dice."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    pools = _pools(elves=(2, 3), orcs=(4, 0))
    fortify = _scripted(
        state, Slip("elves", "Harry", "Logistics", ("orcs",)), Slip("orcs", "Fortify", "Logistics")
    )
    (harry,) = reveal_odds(fortify, ("elves", "orcs"), {}, pools)
    assert (harry["kind"], harry["cell"], harry["dice"], harry["against_dice"]) == (
        "versus",
        "aV",
        3,
        4,
    )
    assert harry["chance"] == {"no artha": "29/128", "Fate": "637/2048"}
    ensnare = _scripted(
        state, Slip("elves", "Harry", "Logistics"), Slip("orcs", "Ensnare", "Logistics", ("elves",))
    )
    rows = reveal_odds(ensnare, ("elves", "orcs"), {}, pools)
    assert [(r["attacker"], r["cell"], r["dice"], r["against_dice"]) for r in rows] == [
        ("elves", "aV", 3, 4),
        ("orcs", "V", 4, 3),
    ]
    assess = _scripted(
        state,
        Slip("elves", "Assess", "Logistics", ("orcs",)),
        Slip("orcs", "Ensnare", "Logistics", ("elves",)),
    )
    rows = reveal_odds(assess, ("elves", "orcs"), {}, pools)
    assert [(r["attacker"], r["cell"], r["dice"], r["against_dice"]) for r in rows] == [
        ("elves", "V", 2, 4),
        ("orcs", "V", 4, 2),
    ]


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
    rolled = _rolled(_act(table, "elves", "reveal", [3] * 40), "elves")
    assert rolled["notes"] == [
        "+2D advantage from Infiltrating",
        "+3D Onslaught",
        "-1D Sapped",
        "-1D wounds",
    ]
    assert rolled["dice"] == 7
    assert rolled["pool"]["open_ended"] is True
    assert rolled["pool_roll"]["open_ended"] is True


def test_a_grey_skill_rolls_grey_dice_with_its_forks() -> None:
    """FoRKs: +1D for a FoRKed skill on the maneuver's list; the pool is the tested skill's
    shade. The elves' Logistics G4 FoRKing Administration B3 for a Fortify: 5 grey dice."""
    setup = _kingdom({}, skills={"Logistics": "G4", "Administration": "B3"})
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(
        table,
        "elves",
        "write_slip",
        maneuver="Fortify",
        skill="Logistics",
        forks=["Administration"],
    )
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    rolled = _rolled(_act(table, "elves", "reveal", [3] * 40), "elves")
    assert (rolled["pool"]["shade"], rolled["pool"]["forks"], rolled["dice"]) == ("G", 1, 5)
    assert (rolled["pool_roll"]["shade"], rolled["successes"]) == ("G", 5)


def test_a_harry_names_at_most_one_target() -> None:
    """Harry (RULINGS): a Harry names at most one target — one is accepted, two different
    factions are refused. The elves Harry with Tactics B5."""
    table = _three_kingdoms()
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    written = _act(table, "elves", "write_slip", targets=["orcs"], **harry)
    assert written.state.slips["elves"].targets == ("orcs",)
    with pytest.raises(RuleError) as refused:
        _act(table, "elves", "write_slip", targets=["orcs", "dwarves"], **harry)
    assert refused.value.rule == "Harry"
    assert "at most one target" in str(refused.value)


def test_deeds_before_the_roll_doubles_the_dice_harry_splits() -> None:
    """Artha: Deeds before the roll doubles the exponent — a Harry of Tactics B3 with Deeds
    rolls 6 dice, 3 to each pool (without Deeds, 3 to defence would leave none to attack)."""
    leader = {
        "skills": {"Logistics": "B4", "Tactics": "B3"},
        "artha": {"fate": 0, "persona": 0, "deeds": 1},
    }
    table = Table.start(PROCEDURE, _kingdom({}, **leader), players=PLAYERS)
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 3}
    written = _act(table, "elves", "write_slip", deeds_before=True, **harry)
    assert (written.state.slips["elves"].defence, written.state.slips["elves"].deeds_before) == (
        3,
        True,
    )
    with pytest.raises(RuleError) as split:
        _act(table, "elves", "write_slip", **harry)
    assert split.value.rule == "Harry"


def test_a_slip_helps_another_faction_or_nobody() -> None:
    """Conquest Maneuvers (help between factions): a slip may help another faction's
    maneuver, not its own faction's nor a faction not at the table; a slip that helps nobody
    records nobody, and the reveal refuses no help."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    fortify: dict[str, Any] = {"maneuver": "Fortify", "skill": "Logistics"}
    for helps in ("elves", "dwarves"):
        with pytest.raises(RuleError) as refused:
            _act(table, "elves", "write_slip", helps=helps, **fortify)
        assert refused.value.rule == "Conquest Maneuvers"
    assert (
        _act(table, "elves", "write_slip", helps="orcs", **fortify).state.slips["elves"].helps
        == "orcs"
    )
    revealed: Any = next(
        e.payload
        for e in _both_fortify({"fate": 0, "persona": 0, "deeds": 0}).log.events
        if e.kind == "slips.revealed"
    )
    assert revealed["slips"]["elves"]["helps"] is None
    assert (revealed["help"], revealed["help_refused"]) == ({}, {})


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


def test_a_skill_the_sheet_lacks_counts_as_a_black_exponent_of_nothing() -> None:
    """Skills: a skill a character lacks has no dice — exponent 0, black, not open-ended."""
    assert no_skill() == Ability(Shade.BLACK, 0)
    assert no_skill().open_ended is False


# ------------------------------------------------------------------------------- dice.py


def test_artha_on_a_test_spends_a_point_for_each_use() -> None:
    """Artha: Persona (+1D each), Deeds before (double) and after (reroll) — one point each
    use, so both uses cost 2 — and Fate, 1 point. Recorded by each use."""
    assert Artha().spent() == {"fate": 0, "persona": 0, "deeds": 0}
    everything = Artha(persona=2, deeds_before=True, fate=True, deeds_after=True)
    assert everything.spent() == {"fate": 1, "persona": 2, "deeds": 2}
    assert Artha(deeds_after=True).spent() == {"fate": 0, "persona": 0, "deeds": 1}
    assert Artha(persona=3, fate=True).to_json() == {
        "persona": 3,
        "deeds_before": False,
        "fate": True,
        "deeds_after": False,
    }
    assert Artha(deeds_before=True, deeds_after=True).to_json() == {
        "persona": 0,
        "deeds_before": True,
        "fate": False,
        "deeds_after": True,
    }


# ---------------------------------------------------------------------------- choices.py


def _menu(state: KingdomsState, actor: str) -> list[tuple[str, str, dict[str, Any]]]:
    """What ``actor`` may do now: each choice's kind, label and parameter domains (every
    choice is ``actor``'s own)."""
    offered = choices_for(state, actor)
    assert {c.actor for c in offered} <= {actor}
    return [(c.kind, c.label, dict(c.params)) for c in offered]


def _odds(state: KingdomsState, actor: str) -> list[tuple[str, str, str, dict[str, str]]]:
    """Every preview offered to ``actor``: label, rule, dice and odds."""
    return [
        (p.label, p.rule, p.dice, dict(p.odds)) for c in choices_for(state, actor) for p in c.odds
    ]


ALWAYS = [
    ("objective", "", {"text": Text("Hold the high throne")}),
    ("new_session", "", {}),
]


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
        }
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
            "elves: Assess with Logistics, if independent",
            "Assess",
            "4d6 vs Ob 2",
            {"failure": "5/16", "success": "11/16"},
        ),
        (
            "elves: Assess with Inconspicuous, if independent",
            "Assess",
            "3d6 grey vs Ob 2",
            {"failure": "7/27", "success": "20/27"},
        ),
        (
            "elves: Fortify with Logistics, if nobody attacks",
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
        "factions": {
            "elves": {"disposition": 3, "sapped": 1, "leader": leader},
            "orcs": {"disposition": 12, "leader": {"lifepaths": 10, "skills": {"Tactics": "B4"}}},
        }
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
        ("elves: Assess with Logistics, if independent", "Assess", "2d6 vs Ob 3", certain),
        ("elves: Fortify with Logistics, if nobody attacks", "Fortify", "2d6 vs Ob 3", certain),
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
        }
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


def _after_the_roll(artha: dict[str, int], slip: dict[str, Any], dice: list[int]) -> Table[Any]:
    """The elves (Logistics B4, Tactics B5, ``artha``) script ``slip``, the orcs (no artha)
    Fortify; both pass; the elves read, rolling ``dice``."""
    leader = {"skills": {"Logistics": "B4", "Tactics": "B5"}, "artha": artha}
    table = Table.start(PROCEDURE, _kingdom({}, **leader), players=PLAYERS)
    table = _act(table, "elves", "write_slip", **slip)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", dice)


def _spend(
    fate: bool, deeds: bool, words: str, pool: str | None = None
) -> tuple[str, str, dict[str, Any]]:
    domains = {"fate": OneOf((fate,)), "deeds": OneOf((deeds,))}
    if pool is not None:
        domains["pool"] = OneOf((pool,))
    return ("spend_artha", f"spend {words}", domains)


def test_artha_after_the_roll_is_offered_where_the_roller_has_it_and_it_can_change_a_die() -> None:
    """Artha: Fate opens a closed roll's 6s, Deeds rerolls its failed dice (audit B6: a
    point that buys nothing is not offered); a Harry spends on its defence or its attack
    roll. The orcs, with no artha, have settled: only the elves may spend or keep; once they
    keep, the reader resolves. Deeds alone is offered without Fate."""
    fortify: dict[str, Any] = {"maneuver": "Fortify", "skill": "Logistics"}
    both = {"fate": 1, "persona": 0, "deeds": 1}
    keep: tuple[str, str, dict[str, Any]] = ("keep", "", {})
    no_six = _after_the_roll(both, fortify, [3] * 8)
    assert _menu(no_six.state, "elves") == [
        *ALWAYS,
        _spend(False, True, "Deeds"),
        _spend(True, True, "Fate and Deeds"),
        keep,
    ]
    assert _menu(no_six.state, "orcs") == ALWAYS
    assert not has_a_move(no_six.state, "orcs")
    assert has_a_move(no_six.state, "elves")
    a_six = _after_the_roll(both, fortify, [6, 3, 3, 3] + [3] * 4)
    assert _menu(a_six.state, "elves") == [
        *ALWAYS,
        _spend(True, False, "Fate"),
        _spend(False, True, "Deeds"),
        _spend(True, True, "Fate and Deeds"),
        keep,
    ]
    deeds = _after_the_roll({"fate": 0, "persona": 0, "deeds": 2}, fortify, [3] * 8)
    assert _menu(deeds.state, "elves") == [*ALWAYS, _spend(False, True, "Deeds"), keep]
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    split = _after_the_roll(fate, harry, [6, 4, 6, 3, 3] + [3] * 4)
    assert _menu(split.state, "elves") == [
        *ALWAYS,
        _spend(True, False, "Fate on the defence roll", pool="defence"),
        _spend(True, False, "Fate on the attack roll", pool="attack"),
        keep,
    ]
    kept = _act(split, "elves", "keep")
    assert _menu(kept.state, "elves") == [*ALWAYS, ("resolve", "", {})]
    assert _menu(kept.state, "orcs") == ALWAYS


def _kinds(state: KingdomsState, actor: str) -> list[tuple[str, dict[str, Any]]]:
    """``actor``'s choices beyond those open at any time, with their domains."""
    return [(kind, params) for kind, _, params in _menu(state, actor)][2:]


def test_after_a_defeat_the_defeated_names_its_conqueror_then_joins_and_downtime_waits() -> None:
    """Consequences: a defeated faction tied between conquerors names one, then its leader
    joins a faction still standing; its conqueror may buy the lost affiliation once.
    Downtime: a maintenance test owed is taken in consequences or downtime, and nobody starts
    the next maneuver while one is owed. The orcs are out; the elves owe a test."""
    state = _three_kingdoms().state
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


def test_a_prologue_tests_a_listed_skill_or_else_any_skill_in_its_place() -> None:
    """Prologues: the leader tests a skill from the prologue list, open-ended, each success
    adding disposition; a leader with none of them tests another skill in its place. The
    elves' Logistics G2 (2 grey open-ended dice: 0 successes 1/9, the top bucket 5 or more);
    the orcs have only Inconspicuous B3."""
    setup = _kingdom({}, skills={"Inconspicuous": "B4", "Logistics": "G2"})
    setup["factions"]["orcs"]["leader"]["skills"] = {"Inconspicuous": "B3"}
    state = PROCEDURE.initial_state({**setup, "prologue": True})
    assert _kinds(state, "elves") == [("prologue", {"skill": OneOf(("Logistics",))})]
    assert _odds(state, "elves") == [
        (
            "Aeluin tests Logistics for the prologue",
            "Prologues",
            "2d6 grey open-ended",
            {
                "0": "1/9",
                "1": "10/27",
                "2": "10/27",
                "3": "55/486",
                "4": "20/729",
                "5+": "11/1458",
            },
        )
    ]
    assert _kinds(state, "orcs") == [
        ("prologue", {"skill": OneOf(("Inconspicuous",)), "substitute": OneOf((True,))})
    ]
    assert _odds(state, "orcs")[0][2:] == (
        "3d6 open-ended",
        {
            "0": "1/8",
            "1": "5/16",
            "2": "5/16",
            "3": "145/864",
            "4": "205/3456",
            "5": "355/20736",
            "6+": "119/20736",
        },
    )
    assert choices_for(state, "nobody") == ()


def test_a_tied_versus_test_offers_a_tie_breaker_on_a_root_stat_to_each_side() -> None:
    """Ties (RULINGS): each side of a tied versus test may agree to a tie-breaker on one of
    its roller's root stats, once against each opponent; the reader resolves once every roll
    is settled. The elves' and the dwarves' Assaults of 3 both tie the orcs' Fortify of 3;
    the orcs agreed to break the tie with the elves."""
    state = _revealed(
        elves=("Assault", ("orcs",), 3, 0),
        orcs=("Fortify", (), 3, 0),
        dwarves=("Assault", ("orcs",), 3, 0),
    )
    settled = {f: replace(t, decided=True) for f, t in state.rolls.items()}
    state = replace(state, phase="rolled", reader="elves", rolls=settled)
    will = OneOf(("Will",))
    both = OneOf(("Will", "Perception"))
    assert _kinds(state, "elves") == [
        ("tie_break", {"opponent": OneOf(("orcs",)), "root": will}),
        ("resolve", {}),
    ]
    assert _kinds(state, "orcs") == [
        ("tie_break", {"opponent": OneOf(("dwarves", "elves")), "root": both})
    ]
    agreed = replace(state, tie_offers={"orcs": ("elves", "Will")})
    assert _kinds(agreed, "orcs") == [
        ("tie_break", {"opponent": OneOf(("dwarves",)), "root": both})
    ]
    assert _kinds(agreed, "dwarves") == [
        ("tie_break", {"opponent": OneOf(("orcs",)), "root": both})
    ]


def test_a_wounded_character_tests_health_once_and_not_in_the_maneuver_it_was_hurt() -> None:
    """Wound Recovery: a wounded leader or 2iC with a Health stat tests it once a maneuver,
    not in the maneuver it was wounded. The elves' leader (a light wound, Health B3) has
    tested; their 2iC Thalion (a Superficial wound, Health B4) tests against Ob 1. The orcs'
    leader, wounded, has no Health; the dwarves' was wounded this maneuver."""
    state = _three_kingdoms().state
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


def test_the_slips_are_read_once_every_faction_has_sealed_and_passed() -> None:
    """Maneuver: every acting faction seals a slip, then plays or passes its scenes; the
    slips are read when nobody is left to play (any standing faction may read); a slip may
    be rewritten until the first scene. A faction
    that cannot act scripts nothing and directs no conflict; one out of contention does nothing."""
    table = _three_kingdoms()
    f = table.state.factions
    table = replace(
        table,
        state=replace(
            table.state,
            factions={
                **f,
                "dwarves": replace(f["dwarves"], cannot_act=True),
                "orcs": replace(f["orcs"], out=True),
            },
        ),
    )
    assert [k for k, _ in _kinds(table.state, "dwarves")] == ["pass"]
    assert _kinds(table.state, "orcs") == []
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    assert "scene" in [k for k, _ in _kinds(table.state, "elves")]
    table = _act(table, "elves", "pass")
    assert {k for k, _ in _kinds(table.state, "elves")} == {"write_slip"}  # until a scene
    scenes = [p["kind"] for k, p in _kinds(table.state, "dwarves") if k == "scene"]
    assert scenes == [OneOf(("color",)), OneOf(("interstitial",)), OneOf(("building",))]
    table = _act(table, "dwarves", "pass")
    for standing in ("elves", "dwarves"):
        offered = [c for c in _menu(table.state, standing) if c[0] != "write_slip"]
        assert offered[2:] == [("reveal", "read the slips", {})]


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


def test_a_harry_retaliates_only_against_a_faction_that_directed_a_conflict_at_it() -> None:
    """Harry: its conflict scene goes against "an enemy that targeted" the Harrier with a
    conflict. The orcs direct theirs at the dwarves: the elves' Harry, naming nobody, has no
    conflict to play."""
    table = _three_kingdoms()
    table = _act(table, "elves", "write_slip", maneuver="Harry", skill="Tactics", defence=2)
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="dwarves"
    )
    table = _act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "scene", kind="conflict", target="dwarves")
    kinds = [p["kind"] for _, p in _kinds(table.state, "elves") if "kind" in p]
    assert OneOf(("conflict",)) not in kinds


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


def _scripts(disposition: int, infiltrated: dict[str, int]) -> dict[str, dict[str, Any]]:
    """The maneuvers the elves (Logistics B4, Tactics B5; the orcs Assessed) may script among
    three factions, each with its domains."""
    state = _three_kingdoms().state
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


def test_an_open_ended_ability_is_previewed_open_ended() -> None:
    """Open-ended abilities roll open-ended: the elves' Assess with an open-ended Logistics B4
    and their Health test with an open-ended Health B3 are previewed so."""
    open_b4 = {"shade": "B", "exponent": 4, "open_ended": True}
    open_b3 = {"shade": "B", "exponent": 3, "open_ended": True}
    setup = _kingdom({}, skills={"Logistics": open_b4}, stats={"Health": open_b3}, wound_dice=1)
    state = PROCEDURE.initial_state(setup)
    dice = [(label, shown) for label, _, shown, _ in _odds(state, "elves")]
    assert dice == [
        ("elves: Assess with Logistics, if independent", "3d6 open-ended vs Ob 2"),
        ("elves: Fortify with Logistics, if nobody attacks", "3d6 open-ended vs Ob 2"),
        ("Aeluin tests Health", "3d6 open-ended vs Ob 2"),
    ]


def test_fate_on_an_open_ended_roll_keeps_its_dice_and_a_reroll_that_fails_stays_failed() -> None:
    """Fate on an open-ended test rerolls one failed die (parent-games.md); the roll is the
    same roll with that die added. Two open-ended black dice roll 6 (then 2) and 1: one
    success, two failed dice, one 6. Fate rerolls one failed die: a 3, failed again — still
    one success and two failed dice; the roll is still 2 open-ended dice with its one 6."""
    rolled = roll_before(2, Shade.BLACK, True, ScriptedSource([6, 1, 2]))
    fated = spend_after(rolled, Artha(fate=True), ScriptedSource([3]))
    assert (fated.dice, fated.open_ended, fated.successes) == (2, True, 1)
    assert (fated.failed, fated.sixes) == (2, 1)
    assert fated.to_json() == {
        "dice": 2,
        "shade": "B",
        "open_ended": True,
        "successes": 1,
        "stages": {"pool": [6, 2, 1], "fate": [3]},
    }


def test_a_pool_of_no_dice_rolls_nothing_and_fate_buys_nothing_on_it() -> None:
    """A pool of no dice (Sapped to nothing) rolls nothing: no success, no failed die, no 6 —
    so Fate, which opens a closed roll's 6s, would change no die."""
    empty = roll_before(0, Shade.BLACK, False, ScriptedSource([]))
    assert (empty.dice, empty.successes, empty.failed, empty.sixes, empty.faces) == (0, 0, 0, 0, ())
    assert artha_buys_nothing(empty, fate=True, deeds=False) is not None


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


def test_a_wounded_second_tests_health_though_its_leader_is_whole() -> None:
    """Wound Recovery: the 2iC's wound is tested whether or not the leader is wounded."""
    state = _with_second(
        _three_kingdoms().state,
        "elves",
        name="Thalion",
        wound_dice=1,
        stats={"Health": Ability(Shade.BLACK, 4)},
    )
    tests = [p for k, p in _kinds(state, "elves") if k == "health_test"]
    assert tests == [{"character": OneOf(("second",))}]


def test_the_slips_are_not_read_while_a_slip_is_missing() -> None:
    """Maneuver: the slips are read once every acting faction has sealed one — even if
    every faction has passed, the orcs' missing slip holds the reveal."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    state = replace(table.state, passed=frozenset({"elves", "orcs"}))
    for f in ("elves", "orcs"):
        assert "reveal" not in [k for k, _ in _kinds(state, f)]


def test_a_tie_broken_by_a_second_in_command_is_on_its_own_root_stats() -> None:
    """Ties, Seconds in Command: the tie-breaker is rolled by the character who rolled the
    tied test. The orcs' 2iC (Perception alone) rolled their Fortify, tied by the elves'
    Assault: the orcs' tie-breaker is on Perception."""
    state = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 3, 0))
    state = _with_second(state, "orcs", name="Ugluk", stats={"Perception": Ability(Shade.BLACK, 3)})
    settled = {f: replace(t, decided=True) for f, t in state.rolls.items()}
    settled["orcs"] = replace(settled["orcs"], roller="second")
    state = replace(state, phase="rolled", reader="elves", rolls=settled)
    assert _kinds(state, "orcs") == [
        ("tie_break", {"opponent": OneOf(("elves",)), "root": OneOf(("Perception",))})
    ]
