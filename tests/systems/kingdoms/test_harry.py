"""Harry ("Conquest Maneuvers", "Harry"; the "Matrix"'s dV and aV): the Harry dice divided into
defence and attack, each part rolled and met on its own, at most one target, and the retaliatory
conflict against an enemy that targeted the Harrier.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import OneOf, RuleError, Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import BurningPool, versus_odds
from referee.systems.kingdoms.resolution import Engagement, Entry, resolve
from referee.systems.kingdoms.scripting import base_dice, reveal_odds
from referee.systems.kingdoms.state import RolledTest, Slip

from .helpers import (
    PLAYERS,
    _act,
    _kinds,
    _kingdom,
    _pools,
    _rolled,
    _scripted,
    _three_kingdoms_with_inconspicuous,
)
from .test_procedure import act, all_pass, start
from .test_resolution import board


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


def test_fate_on_a_harrys_attack_dice_changes_the_attack_alone() -> None:
    """Artha (Fate: "a 6 rolls again") on a Harry's attack dice: the elves' Harry of the orcs
    (whose Fortify its attack dice meet) rolled
    4, 1 to defence (1) and 6, 5, 2 to attack (2); Fate on the attack pool rolls the 6 again
    (4): 3 attack successes, the attack pool as rolled with its Fate die, the defence pool and
    successes unchanged, the test settled and the leader's Fate spent."""
    setup = _kingdom(
        {},
        skills={"Logistics": "B4", "Tactics": "B5"},
        artha={"fate": 1, "persona": 0, "deeds": 0},
    )
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    harry = {"maneuver": "Harry", "skill": "Tactics", "defence": 2, "target": "orcs"}
    table = _act(table, "elves", "write_slip", **harry)
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


def test_a_harry_and_an_ensnare_name_their_engagements_roles() -> None:
    """A Harry's attack dice meet its named target and every attacker ("harry"); an Ensnare
    meets its declared target as an "ensnare"; whichever the matrix says, versus or
    independent. a Harries b's Fortify (aV: its attack dice versus b's 1) and meets c's Ploy
    (Harry against Ploy: I); d Ensnares b (Ensnare against Fortify: I). Alone, a's Harry of b,
    who cannot act, is independent and still its attack dice's."""
    r = resolve(
        {
            "a": Entry("a", "Harry", ("b",), 1, attack=3),
            "b": Entry("b", "Fortify", (), 1),
            "c": Entry("c", "Ploy", ("a", "d"), 2),
            "d": Entry("d", "Ensnare", ("b",), 2),
        },
        board(),
    )
    assert [(e.attacker, e.target, e.cell, e.kind, e.role) for e in r.engagements] == [
        ("a", "b", "aV", "versus", "harry"),
        ("a", "c", "I", "independent", "harry"),
        ("c", "a", "I", "independent", "attack"),
        ("c", "d", "V", "versus", "attack"),
        ("d", "b", "I", "independent", "ensnare"),
    ]
    alone = resolve({"a": Entry("a", "Harry", ("b",), 1, attack=2)}, board())
    assert alone.engagements == (
        Engagement("a", "b", "Harry", "-", "independent", 2, obstacle=0, role="harry"),
    )


def test_a_refused_slip_names_the_maneuvers_rule() -> None:
    """A refusal names the rule that refuses it: a Harry names at most one target (Harry)."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    with pytest.raises(RuleError) as refused:
        _act(
            table,
            "orcs",
            "write_slip",
            maneuver="Harry",
            skill="Logistics",
            targets=["elves", "elves"],
        )
    assert refused.value.rule == "Harry"


def test_a_harry_rolls_its_defence_and_attack_dice_apart_as_every_seat_sees() -> None:
    """Harry: the dice split between defence and attack, each part rolled on its own and
    carded under the maneuver's resolution. The dwarves (Infiltrated into the elves: the
    advantage, +1D, is used against them) Harry the elves with Law B5, 6 dice, 2 to defence:
    6, 1 and then 4, 4, 1, 1 — 1 success of defence, an attack of 2. The elves' Fortify rolls
    4, 1, 1, 1."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "strict_sheets": False,  # quick play: no 2iC or rivals needed here
            "factions": {
                "elves": {"disposition": 10, "leader": {**sheet, "skills": {"Logistics": "B4"}}},
                "dwarves": {
                    "disposition": 12,
                    "infiltrated": {"elves": 1},
                    "leader": {**sheet, "name": "Durin", "skills": {"Law": "B5"}},
                },
            },
        },
    )
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2, target="elves"
    )
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 6, 1, 4, 4, 1, 1])
    elves, dwarves = _rolled(table, "elves"), _rolled(table, "dwarves")
    assert [(c["label"], c["rule"], c["dice"]) for c in dwarves.pop("rolls")] == [
        ("the Dwarves' Harry with Law: defence dice", "Maneuver Resolution", "2d6"),
        ("the Dwarves' Harry with Law: attack dice", "Maneuver Resolution", "4d6"),
    ]
    assert dwarves == {
        "faction": "dwarves",
        "roller": "leader",
        "character": "Durin",
        "maneuver": "Harry",
        "skill": "Law",
        "exponent": 5,
        "pool": {
            "exponent": 5,
            "shade": "B",
            "forks": 0,
            "helping": 0,
            "bonus": 1,
            "penalty": 0,
            "open_ended": False,
        },
        "dice": 6,
        "notes": ["+1D advantage from Infiltrating"],
        "artha": {"persona": 0, "deeds": 0},
        "advantage_used": ["elves"],
        "successes": 1,
        "attack": 2,
        "pool_roll": {
            "dice": 2,
            "shade": "B",
            "open_ended": False,
            "successes": 1,
            "stages": {"pool": [6, 1]},
        },
        "attack_pool_roll": {
            "dice": 4,
            "shade": "B",
            "open_ended": False,
            "successes": 2,
            "stages": {"pool": [4, 4, 1, 1]},
        },
        "defence_dice": 2,
        "attack_dice": 4,
        "names": {"dwarves": "the Dwarves", "elves": "the Elves"},
    }
    card = elves.pop("roll")
    assert (card["label"], card["rule"], card["dice"]) == (
        "the Elves' Fortify with Logistics",
        "Maneuver Resolution",
        "4d6",
    )
    assert (elves["successes"], elves["advantage_used"], elves["pool_roll"]["dice"]) == (1, [], 4)
    assert {f: (t.successes, t.attack) for f, t in table.state.rolls.items()} == {
        "elves": (1, 0),
        "dwarves": (1, 2),
    }


def test_the_reveal_odds_meet_a_harrys_defence_and_attack_dice_as_rolled() -> None:
    """Harry: its defence dice meet the maneuvers against it, its attack dice the one it
    targets; the odds at the reveal count the dice each part rolled (the advantage's +1D is
    in the roll, not added again). The elves Assault the dwarves (no advantage over them) with
    Tactics B4; the dwarves Harry the elves with 6 dice, 2 to defence: the elves' 4 dice
    meet those 2, and the Harry's 4 attack dice are tested against the Assault on their own
    (an independent test: no opposing dice)."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "strict_sheets": False,  # quick play: no 2iC or rivals needed here
            "factions": {
                "elves": {
                    "disposition": 10,
                    "assessed": ["dwarves"],
                    "leader": {**sheet, "skills": {"Tactics": "B4"}},
                },
                "dwarves": {
                    "disposition": 12,
                    "infiltrated": {"elves": 1},
                    "leader": {**sheet, "name": "Durin", "skills": {"Law": "B5"}},
                },
            },
        },
    )
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="dwarves")
    table = act(
        table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2, target="elves"
    )
    table = act(table, "elves", "scene", kind="conflict", target="dwarves")
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 6, 1, 4, 4, 1, 1])
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    rows: Any = revealed.payload["odds"]
    assert {(r["attacker"], r["target"]): (r["dice"], r.get("against_dice")) for r in rows} == {
        ("elves", "dwarves"): (4, 2),
        ("dwarves", "elves"): (4, None),
    }
    assault = next(r for r in rows if r["attacker"] == "elves")
    assert assault["chance"] == {"no artha": str(versus_odds(BurningPool(4), BurningPool(2)))}
    assert _rolled(table, "elves")["advantage_used"] == []


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


def test_a_harry_names_at_most_one_target() -> None:
    """Harry (RULINGS): a Harry names at most one target — one is accepted, two different
    factions are refused. The elves Harry with Tactics B5."""
    table = _three_kingdoms_with_inconspicuous()
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


def test_a_harry_retaliates_only_against_a_faction_that_directed_a_conflict_at_it() -> None:
    """Harry: its conflict scene goes against "an enemy that targeted" the Harrier with a
    conflict. The orcs direct theirs at the dwarves: the elves' Harry, naming nobody, has no
    conflict to play."""
    table = _three_kingdoms_with_inconspicuous()
    table = _act(table, "elves", "write_slip", maneuver="Harry", skill="Tactics", defence=2)
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="dwarves"
    )
    table = _act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "scene", kind="conflict", target="dwarves")
    kinds = [p["kind"] for _, p in _kinds(table.state, "elves") if "kind" in p]
    assert OneOf(("conflict",)) not in kinds


def test_persona_before_the_roll_adds_to_the_dice_harry_splits() -> None:
    """Artha: each Persona point spent before the roll is +1D, and Harry divides its whole
    pool, "at least 2 in each". A Harry of Tactics B3 with 1 Persona rolls 4 dice: 2 to
    defence leaves 2 to attack; without the Persona, 2 to defence leaves 1, refused."""
    leader = {
        "skills": {"Logistics": "B4", "Tactics": "B3"},
        "artha": {"fate": 0, "persona": 1, "deeds": 0},
    }
    table = Table.start(PROCEDURE, _kingdom({}, **leader), players=PLAYERS)
    elves = table.state.factions["elves"]
    assert base_dice(elves, elves.leader, 3, (), 1, False) == 4
    assert base_dice(elves, elves.leader, 3, (), 0, False) == 3
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    written = _act(table, "elves", "write_slip", persona=1, **harry)
    slip = written.state.slips["elves"]
    assert (slip.defence, slip.persona) == (2, 1)
    with pytest.raises(RuleError) as split:
        _act(table, "elves", "write_slip", **harry)
    assert split.value.rule == "Harry"


def test_a_fork_adds_to_the_dice_harry_splits() -> None:
    """Conquest Maneuvers: a FoRK from another skill of the maneuver's list adds +1D (a
    leader's skills are at most 6: never the +2D of an exponent of 7); Harry divides its whole
    pool, "at least 2 in each". A Harry of Tactics B3 FoRKing Strategy B4 rolls 4 dice: 2 to
    defence leaves 2 to attack; without the FoRK, 2 to defence leaves 1, refused."""
    leader = {"skills": {"Logistics": "B4", "Tactics": "B3", "Strategy": "B4"}}
    table = Table.start(PROCEDURE, _kingdom({}, **leader), players=PLAYERS)
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    written = _act(table, "elves", "write_slip", forks=["Strategy"], **harry)
    assert written.state.slips["elves"].forks == ("Strategy",)
    with pytest.raises(RuleError) as split:
        _act(table, "elves", "write_slip", **harry)
    assert split.value.rule == "Harry"


def test_a_harrys_retaliation_goes_only_at_an_enemy_whose_conflict_targeted_it() -> None:
    """Harry: the retaliatory conflict goes against an enemy that targeted the Harrying faction
    with a conflict. The dwarves Harry with no target named; the orcs' Infiltrate directs its
    conflict at the dwarves: the dwarves may retaliate against the orcs, not against the elves,
    who directed no conflict at them, nor against goblins who are not at the table."""
    table = act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="dwarves"
    )
    table = act(table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2)
    table = act(table, "orcs", "scene", kind="conflict", target="dwarves")
    with pytest.raises(RuleError) as refused:
        act(table, "dwarves", "scene", kind="conflict", target="elves")
    assert refused.value.rule == "Harry"
    with pytest.raises(RuleError, match="goblins did not"):
        act(table, "dwarves", "scene", kind="conflict", target="goblins")
    table = act(table, "dwarves", "scene", kind="conflict", target="orcs")
    assert table.log.events[-1].payload["target"] == "orcs"
