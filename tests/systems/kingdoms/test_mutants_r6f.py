"""Round 6, part F of mutation testing (issue 13): the rest of `procedure.py`.

Each test is named for the rule it pins; docs/systems/kingdoms.md, "Round 6, part F", lists
the mutants each one kills.
"""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import BurningPool, versus_odds

from .test_procedure import act, all_pass


def _leader(name: str, **skills: str) -> dict[str, Any]:
    return {"name": name, "lifepaths": 10, "stats": {"Will": "B4"}, "skills": skills}


def test_the_reveal_odds_count_a_helpers_dice_once() -> None:
    """Help: a helping leader's dice join the helped maneuver's roll; the odds at the reveal
    count the dice rolled, each helping die once. The elves Assault the dwarves with Tactics
    B4 and the orcs' helping die (5 dice); the dwarves Harry the elves with Law B5 and the
    goblins' helping die (6 dice), 2 to defence: the Assault's 5 dice meet those 2."""
    table = Table.start(
        PROCEDURE,
        {
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
            }
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
