"""Round 6, part F of mutation testing (issue 13): the rest of `procedure.py`.

Each test is named for the rule it pins; docs/systems/kingdoms.md, "Round 6, part F", lists
the mutants each one kills.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, ScenarioError, Table, Viewer
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import BurningPool, versus_odds

from .test_procedure import act, all_pass, fortify_all, setup, start


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


def test_the_chronicle_opens_with_every_factions_name_leader_disposition_and_sheets() -> None:
    """The public set-up: each faction's name, leader, disposition and its leader's and 2iC's
    sheets (the abilities they have, not their ratings); a faction without a 2iC shows one."""
    data = setup()
    data["factions"]["dwarves"]["name"] = "the Deep Halls"
    data["factions"]["dwarves"]["second"] = {
        "name": "Dorin",
        "lifepaths": 8,
        "stats": {"Will": "B3"},
        "skills": {"Soldiering": "B4"},
    }
    factions: Any = Table.start(PROCEDURE, data).log.events[0].payload["factions"]
    assert factions["dwarves"] == {
        "name": "the Deep Halls",
        "leader": "Grannir",
        "disposition": 12,
        "sheets": [
            {"name": "Grannir", "skills": ["Fortifications", "Law"], "stats": ["Health", "Will"]},
            {"name": "Dorin", "skills": ["Soldiering"], "stats": ["Will"]},
        ],
    }
    assert [s["name"] for s in factions["elves"]["sheets"]] == ["Aeluin"]


# ------------------------------------------------------------------------------- set-up


def _answers(relation: str) -> dict[str, Any]:
    """Disposition built from the questionnaire (Steps One to Six)."""
    return {
        "territorial_relation": relation,
        "lifepath_settings": 3,
        "mechanical_aptitude": "simple tool users",
        "mystical_abilities": 0,
        "population_density": "villages",
        "population_growth": "fast",
        "political_placement": "rival faction",
    }


def test_a_chronicle_without_a_territory_names_none() -> None:
    """The territory is the set-up's; none given, none is named."""
    data = setup()
    del data["territory"]
    assert Table.start(PROCEDURE, data).log.events[0].payload["territory"] == ""


def test_the_number_of_players_is_the_set_ups_or_one_a_faction() -> None:
    """Step Seven: six or more players play three two-player factions; without ``players``
    each faction has a player of its own; one player may run them all."""
    assert Table.start(PROCEDURE, setup()).state.players == 3
    assert Table.start(PROCEDURE, setup(players=1)).state.players == 1
    assert Table.start(PROCEDURE, setup(players=6)).state.players == 6
    data = setup(players=6)
    for fid, f in data["factions"].items():
        f["disposition"] = _answers("native" if fid == "elves" else "hostile")
    data["factions"]["goblins"] = {**data["factions"]["orcs"], "leader": _leader("Snaga")}
    with pytest.raises(ScenarioError, match="three two-player factions"):
        Table.start(PROCEDURE, data)


def test_the_disposition_cap_is_the_set_ups_unless_the_prologue_sets_it() -> None:
    """Prologues: the cap is set when the prologue ends (0 until then); without a prologue it
    is the set-up's ``cap`` (0 allowed) or the highest disposition."""
    assert Table.start(PROCEDURE, setup()).state.cap == 12
    assert Table.start(PROCEDURE, setup(cap=20)).state.cap == 20
    assert Table.start(PROCEDURE, setup(cap=0)).state.cap == 0
    assert Table.start(PROCEDURE, setup(prologue=True, cap=20)).state.cap == 0


def test_the_maintenance_obstacle_is_the_set_ups_and_may_be_zero() -> None:
    """Downtime: the maintenance test's Ob is the set-up's ``maintenance_ob`` (1 if none)."""
    assert Table.start(PROCEDURE, setup()).state.maintenance_ob == 1
    assert Table.start(PROCEDURE, setup(maintenance_ob=0)).state.maintenance_ob == 0
    assert Table.start(PROCEDURE, setup(maintenance_ob=3)).state.maintenance_ob == 3


# ------------------------------------------------------------------------------- prologue


def test_the_prologue_narrates_in_order_of_successes_and_cards_each_roll() -> None:
    """Prologues: each leader tests a prologue skill (open-ended); the factions narrate in
    order of successes, most first. Elves 0, orcs 1, dwarves 2: dwarves, orcs, elves. Each
    roll's card names the leader, the skill and the rule, with the odds of each count."""
    table = start(prologue=True)
    table = act(table, "elves", "prologue", [1, 1, 1, 1], skill="Logistics")
    rolled: Any = table.log.events[-1].payload
    assert (rolled["skill"], rolled["pool_roll"]["successes"]) == ("Logistics", 0)
    card = rolled["roll"]
    assert (card["label"], card["rule"]) == ("Aeluin tests Logistics for the prologue", "Prologues")
    assert card["odds"] == rolled["odds"]
    table = act(table, "orcs", "prologue", [4, 1, 1], skill="Strategy", substitute=True)
    table = act(table, "dwarves", "prologue", [4, 4, 1, 1, 1], skill="Fortifications")
    ended = table.log.events[-1]
    assert ended.payload["narration_order"] == ["dwarves", "orcs", "elves"]
