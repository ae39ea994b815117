"""Tests that kill the mutants of ``encounter.py`` (and three of ``action_phase.declare_plan``)
that mutmut left alive (issue 13, round 4, third wave; docs/systems/hursagmu.md, "Mutation
testing"): the odds a player seat sees for its character's defence, the JSON view of a pending
attack, and the cinematic option's penalty in the view.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError, Table, Viewer
from referee.systems.hursagmu import choices
from referee.systems.hursagmu.action_phase import declare_plan
from referee.systems.hursagmu.encounter import EncounterProcedure
from referee.systems.hursagmu.state import Encounter

from .test_encounter import FIGHTER, initiative, play, start


def _fred_under_attack() -> Table[Encounter]:
    """Cinematic option: bob (Initiative 16) attacks fred, who has not declared yet."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    actions = [{"attack": "fred"}, {"attack": "fred"}, {"defend": True}]
    return play(table, [("bob", "declare", {"actions": actions}), ("bob", "act", {})], [6, 6])


# -- previews: the odds of the pending attack ------------------------------------------------


def test_a_player_seat_sees_the_odds_of_the_attack_on_the_character_it_plays() -> None:
    """The target of the pending attack sees its odds; a seat named otherwise that plays him
    (``Viewer("seat1", {"fred"})``) sees them as fred, not as "seat1", who is no character."""
    state = _fred_under_attack().state
    seat = EncounterProcedure().previews(state, Viewer("seat1", frozenset({"fred"})))
    assert seat == choices.previews(state, "fred", is_referee=False)
    assert [(p.label, p.dice, dict(p.odds)) for p in seat] == [
        (
            "Bob's striking against Fred's defense, declared alone",
            "2d6+3 vs 2d6+8",
            {"failure": "65/72", "success": "7/72"},
        ),
        ("Bob's striking against Fred, undefended", "2d6+3 ≥ 0", {"success": "1", "failure": "0"}),
    ]


# -- state_json: the pending attack and the cinematic option ---------------------------------


def test_the_json_view_names_the_pending_attack() -> None:
    """``expect: pending.*`` reads who attacks whom, with which skill, and the defence asked."""
    state = _fred_under_attack().state
    assert EncounterProcedure().state_json(state)["pending"] == {
        "attacker": "bob",
        "target": "fred",
        "skill": "striking",
        "defence": "defend",
    }


def test_the_json_view_counts_two_defences_as_one_action_under_the_cinematic_option() -> None:
    """ "Action", cinematic option: the declared defences are one major action, at one
    Initiative. bob's attack and two defences are two actions: penalty -2 (not -4), Striking
    5 - 2 and Defense 6 - 2, both defences at Initiative 14."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    actions = [{"attack": "fred"}, {"defend": True}, {"defend": True}]
    table = play(table, [("bob", "declare", {"actions": actions})], [])
    bob = EncounterProcedure().state_json(table.state)["characters"]["bob"]
    assert bob["penalty"] == -2
    assert bob["skills"] == {"striking": 3, "defense": 4}
    assert bob["plan"] == [
        {"kind": "attack", "skill": "striking", "target": "fred", "initiative": 16},
        {"kind": "defend", "skill": "defense", "initiative": 14},
        {"kind": "defend", "skill": "defense", "initiative": 14},
    ]


# -- action_phase.declare_plan -----------------------------------------------------------------


def _bob_concentrates() -> Encounter:
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    return initiative(table, {"bob": ("concentrate", 6, 6), "fred": ("maneuver", 1, 1)}).state


def test_declaring_no_actions_at_all_is_refused_as_an_empty_declaration() -> None:
    """ "each character must declare all of his actions for the round": ``None`` is no steps."""
    with pytest.raises(RuleError, match=r"declare at least one action \(or wait\)"):
        declare_plan(_bob_concentrates(), "bob", None)


def test_a_redeclaration_without_the_stance_check_keeps_a_skill_of_the_other_kind() -> None:
    """An aborted turn's steps already taken stay whatever the new stance (``check_stance``
    off); with it on, "A character cannot use both Dex and Int skills during the same round"."""
    state = _bob_concentrates()
    _, event = declare_plan(state, "bob", [{"attack": "fred"}], check_stance=False)
    assert event.data["skills"] == {"striking": 5}
    with pytest.raises(RuleError, match="who concentrates cannot use the Dexterity skill"):
        declare_plan(state, "bob", [{"attack": "fred"}])
