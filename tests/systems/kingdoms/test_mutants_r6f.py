"""Round 6, part F of mutation testing (issue 13): the rest of `procedure.py`.

Each test is named for the rule it pins; docs/systems/kingdoms.md, "Round 6, part F", lists
the mutants each one kills.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, Table, Viewer
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import BurningPool, versus_odds

from .test_procedure import act, all_pass, fortify_all, start


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


# ------------------------------------------------------------------------- conflict scenes


def test_a_harrys_retaliation_goes_only_at_an_enemy_whose_conflict_targeted_it() -> None:
    """Harry: the retaliatory conflict goes against an enemy that targeted the Harrying faction
    with a conflict. The dwarves Harry with no target named; the orcs' Infiltrate directs its
    conflict at the dwarves: the dwarves may retaliate against the orcs, not against the elves,
    who directed no conflict at them."""
    table = act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="dwarves"
    )
    table = act(table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2)
    table = act(table, "orcs", "scene", kind="conflict", target="dwarves")
    with pytest.raises(RuleError) as refused:
        act(table, "dwarves", "scene", kind="conflict", target="elves")
    assert refused.value.rule == "Harry"
    table = act(table, "dwarves", "scene", kind="conflict", target="orcs")
    assert table.log.events[-1].payload["target"] == "orcs"


# ---------------------------------------------------------------------------- spent scenes


def test_a_faction_that_plays_its_last_scene_has_spent_its_scenes() -> None:
    """Spending Scenes: one color, one interstitial, three building scenes and one conflict a
    maneuver; the sixth scene spends them, and the log says so (not that it passed)."""
    table = fortify_all(start())
    table = act(table, "orcs", "scene", kind="color")
    table = act(table, "orcs", "scene", kind="interstitial")
    for _ in range(3):
        table = act(table, "orcs", "scene", [4] * 4, kind="building", skill="Tactics")
    event = table.log.events[-1]
    assert event.payload == {"faction": "orcs", "spent": True}
    assert PROCEDURE.describe(event, Viewer("someone")) == (
        "orcs has spent its scenes this maneuver"
    )
    assert "orcs" in table.state.passed


# ------------------------------------------------------------ the chronicle, whose move, decide


def test_the_chronicle_begins_with_its_territory_and_factions_as_every_seat_knows_them() -> None:
    """The chronicle's first record: the territory and each faction's leader and disposition."""
    table = start()
    first = table.log.events[0]
    assert first.payload["territory"] == "the mountain"
    factions: Any = first.payload["factions"]
    assert (factions["dwarves"]["leader"], factions["dwarves"]["disposition"]) == ("Grannir", 12)


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
