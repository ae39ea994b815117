"""Help and FoRKs ("Conquest Maneuvers": "FoRKs may only be used from other skills in the
maneuver's list. Helping dice can be ... given between Factions if those Faction's Leaders lent
each other helping dice in a scene during the Maneuver").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import RuleError, Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import BurningPool, versus_odds
from referee.systems.kingdoms.scripting import base_dice, lent_help
from referee.systems.kingdoms.state import SceneRecord

from .helpers import (
    PLAYERS,
    _act,
    _both_fortify,
    _kingdom,
    _leader,
    _reveal_roll,
    _revealed,
    _rolled,
)
from .test_procedure import act, all_pass, sealed, start


def test_leaders_lent_each_other_help_only_in_a_scene_of_one_helped_by_the_other() -> None:
    """Help: "Those Faction's Leaders lent each other helping dice in a scene during the
    Maneuver". The elves and the orcs each helped by the dwarves, the dwarves helped by both:
    the elves and the orcs lent each other nothing; the orcs' scene helped by the elves is
    help lent between them, whichever is named first."""
    state = _revealed()
    others = replace(
        state,
        scenes=(
            SceneRecord("elves", "building", helpers=("dwarves",)),
            SceneRecord("orcs", "building", helpers=("dwarves",)),
            SceneRecord("dwarves", "building", helpers=("elves", "orcs")),
        ),
    )
    assert not lent_help(others, "elves", "orcs")
    lent = replace(state, scenes=(SceneRecord("orcs", "building", helpers=("elves",)),))
    assert lent_help(lent, "elves", "orcs")
    assert lent_help(lent, "orcs", "elves")


def test_a_fork_adds_a_die_before_the_split() -> None:
    """FoRKs: +1D for a FoRKed skill of exponent 6 or less (a leader's skills are capped at
    6). The elves' Logistics B4 FoRKing Inconspicuous B6 rolls 5 dice before Harry's split."""
    skills = {"Logistics": "B4", "Inconspicuous": "B6"}
    table = Table.start(PROCEDURE, _kingdom({}, skills=skills), players=PLAYERS)
    elves = table.state.factions["elves"]
    assert base_dice(elves, elves.leader, 4, ("Inconspicuous",), 0, False) == 5


def test_help_refused_at_the_reveal_says_why() -> None:
    """Help: factions' leaders help only if they lent each other helping dice in a scene this
    maneuver, and only with the skill the helped maneuver rolls. The dwarves help the elves'
    Fortify on Logistics: refused without such a scene; with it, refused because Grannir has
    no Logistics."""
    table = act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", helps="elves"
    )
    table = sealed(table)
    unlent = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in unlent.log if e.kind == "slips.revealed")
    assert revealed.payload["help_refused"] == {
        "dwarves": "the Dwarves and the Elves lent each other no helping dice in a scene "
        "this maneuver"
    }
    table = act(
        table, "elves", "scene", [4] * 4, kind="building", skill="Logistics", helpers=["dwarves"]
    )
    lent = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in lent.log if e.kind == "slips.revealed")
    assert revealed.payload["help_refused"] == {
        "dwarves": "the Dwarves' leader has no Logistics to help with"
    }


def test_the_reveal_odds_count_a_fork_die_and_a_wound_once() -> None:
    """FoRKs add dice to the maneuver's roll, wounds take dice off it; the odds at the reveal
    count the dice rolled, each FoRK and wound once. The elves Assault the dwarves with
    Tactics B4 and a FoRK of Strategy (5 dice); Durin (1 wound die) Harries them with Law B5,
    a FoRK of Tactics and the +1D advantage (6 dice), 2 to defence: the Assault's 5 dice meet
    those 2."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "strict_sheets": False,  # quick play: no 2iC or rivals needed here
            "factions": {
                "elves": {
                    "disposition": 10,
                    "assessed": ["dwarves"],
                    "leader": {**sheet, "skills": {"Tactics": "B4", "Strategy": "B4"}},
                },
                "dwarves": {
                    "disposition": 12,
                    "infiltrated": {"elves": 1},
                    "leader": {
                        **sheet,
                        "name": "Durin",
                        "skills": {"Law": "B5", "Tactics": "B4"},
                        "wound_dice": 1,
                    },
                },
            },
        },
    )
    table = act(
        table,
        "elves",
        "write_slip",
        maneuver="Assault",
        skill="Tactics",
        target="dwarves",
        forks=["Strategy"],
    )
    table = act(
        table,
        "dwarves",
        "write_slip",
        maneuver="Harry",
        skill="Law",
        defence=2,
        target="elves",
        forks=["Tactics"],
    )
    table = act(table, "elves", "scene", kind="conflict", target="dwarves")
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 1, 6, 1, 4, 4, 1, 1])
    assert (_rolled(table, "elves")["dice"], _rolled(table, "dwarves")["dice"]) == (5, 6)
    rows: Any = next(e for e in table.log if e.kind == "slips.revealed").payload["odds"]
    assault = next(r for r in rows if r["attacker"] == "elves")
    assert (assault["dice"], assault["against_dice"]) == (5, 2)
    assert assault["chance"] == {"no artha": str(versus_odds(BurningPool(5), BurningPool(2)))}


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
    rolled = _reveal_roll(_act(table, "elves", "reveal", [3] * 40), "elves")
    assert (rolled["pool"]["shade"], rolled["pool"]["forks"], rolled["dice"]) == ("G", 1, 5)
    assert (rolled["pool_roll"]["shade"], rolled["successes"]) == ("G", 5)


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


def test_the_reveal_odds_count_a_helpers_dice_once() -> None:
    """Help: a helping leader's dice join the helped maneuver's roll; the odds at the reveal
    count the dice rolled, each helping die once. The elves Assault the dwarves with Tactics
    B4 and the orcs' helping die (5 dice); the dwarves Harry the elves with Law B5 and the
    goblins' helping die (6 dice), 2 to defence: the Assault's 5 dice meet those 2."""
    table = Table.start(
        PROCEDURE,
        {
            "strict_sheets": False,  # quick play: no 2iC or rivals needed here
            "factions": {
                "elves": {
                    "disposition": 10,
                    "assessed": ["dwarves"],
                    "leader": _leader("Aeluin", Tactics="B4"),
                },
                "dwarves": {"disposition": 12, "leader": _leader("Durin", Law="B5")},
                "orcs": {
                    "disposition": 10,
                    "leader": _leader("Gorbash", Tactics="B4", Fortifications="B3"),
                },
                "goblins": {
                    "disposition": 10,
                    "leader": _leader("Snaga", Law="B4", Fortifications="B3"),
                },
            },
        },
    )
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="dwarves")
    table = act(
        table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2, target="elves"
    )
    table = act(
        table, "orcs", "write_slip", maneuver="Fortify", skill="Fortifications", helps="elves"
    )
    table = act(
        table, "goblins", "write_slip", maneuver="Fortify", skill="Fortifications", helps="dwarves"
    )
    table = act(table, "elves", "scene", kind="conflict", target="dwarves", helpers=["orcs"])
    table = act(table, "dwarves", "scene", kind="conflict", target="elves", helpers=["goblins"])
    table = act(all_pass(table), "elves", "reveal", [4] * 40)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    assert revealed.payload["help"] == {"elves": {"orcs": 1}, "dwarves": {"goblins": 1}}
    rolled: Any = {e.payload["faction"]: e.payload for e in table.log if e.kind == "test.rolled"}
    assert (rolled["elves"]["dice"], rolled["dwarves"]["dice"]) == (5, 6)
    rows: Any = revealed.payload["odds"]
    assault = next(r for r in rows if r["attacker"] == "elves")
    assert (assault["dice"], assault["against_dice"]) == (5, 2)
    assert assault["chance"] == {"no artha": str(versus_odds(BurningPool(5), BurningPool(2)))}


def test_help_is_given_to_another_faction_at_the_table() -> None:
    """Conquest Maneuvers: helping dice are "given between Factions": a slip that helps its own
    faction, or one not at the table, is refused."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    fortify = {"maneuver": "Fortify", "skill": "Logistics"}
    for helped in ("elves", "dwarves"):
        with pytest.raises(RuleError, match=f"'{helped}' is not another faction to help"):
            _act(table, "elves", "write_slip", helps=helped, **fortify)
    helping = _act(table, "elves", "write_slip", helps="orcs", **fortify)
    assert helping.state.slips["elves"].helps == "orcs"
