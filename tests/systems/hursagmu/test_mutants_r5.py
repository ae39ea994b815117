"""Tests that kill the mutants of HURSAGMU's rules that mutmut left alive in round 5 of issue 13
(docs/systems/hursagmu.md, "Mutation testing", "Round 5"): the odds an attacked character's
choices preview, and the modules earlier rounds did not reach.
"""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Table
from referee.core.table import preview
from referee.systems.hursagmu.movement import movement_actions
from referee.systems.hursagmu.state import Encounter

from .test_encounter import FIGHTER, SORCERER, initiative, play, start
from .test_mutants_encounter import _fred_under_attack

# -- encounter.odds_of: a choice's odds, for kinds other than the Master's secret rolls ---------


def test_an_attacked_characters_defence_and_taking_the_hit_preview_their_choices_odds() -> None:
    """ "Action": fred, attacked, may defend or take the hit; the form for each shows the odds of
    that choice (the kernel's default ``odds_of``): the defence declared alone, 7/72, and the
    hit taken undefended, certain."""
    table = _fred_under_attack()
    defend = Action("fred", "defend", {"actions": [{"defend": "defense"}]})
    shown = [(p.label, dict(p.odds)) for p in preview(table, "fred", defend)]
    assert shown == [
        (
            "bob's striking against fred's defense, declared alone",
            {"failure": "65/72", "success": "7/72"},
        )
    ]
    taken = [(p.label, dict(p.odds)) for p in preview(table, "fred", Action("fred", "take", {}))]
    assert taken == [("bob's striking against fred, undefended", {"success": "1", "failure": "0"})]


# -- movement.movement_actions: "one for every ten yards or fraction thereof" --------------------


def test_a_walk_needs_a_distance_and_one_yard_is_one_movement_action() -> None:
    """ "Movement": on foot, one movement action "for every ten yards or fraction thereof": one
    yard is one action; a walk of no yards (none given, or 0) is no movement and is refused."""
    assert movement_actions("foot", 1) == 1
    for walk in (lambda: movement_actions("foot"), lambda: movement_actions("foot", 0)):
        with pytest.raises(RuleError, match="moving on foot needs a distance"):
            walk()


# -- combat.defence_declared: the aborted turn's declaration -------------------------------------


def _bob_prone_when_the_blast_comes() -> Table[Encounter]:
    """bob maneuvers: he has walked 40 yards and dropped prone (no skill rolled) when marcos's
    Mahasu comes at Initiative 7; he must abort to defy it."""
    bob = {**FIGHTER, "intelligence": 1, "skills": {**FIGHTER["skills"], "defiance": 2}}
    table = start({"bob": bob, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    walk_and_drop = [{"move": "foot", "yards": 40}, {"move": "prone"}]
    mahasu = [{"attack": "bob", "skill": "mahasu"}]
    steps = [
        ("bob", "declare", {"actions": walk_and_drop}),
        ("bob", "act", {}),
        ("bob", "act", {}),
        ("marcos", "declare", {"actions": mahasu}),
        ("marcos", "act", {}),
    ]
    return play(table, steps, [])


def test_an_aborted_turn_keeps_the_movements_taken_and_checks_only_the_rest() -> None:
    """ "Movement": one moves on foot "only standing"; bob walked before he dropped prone, and
    the aborted turn keeps both: his new declaration is checked from where he lies now, not
    from the start of the round (which would refuse the walk of a prone man)."""
    table = play(_bob_prone_when_the_blast_comes(), [("bob", "defend", {})], [1, 1, 6, 6])
    bob = table.state.fighters["bob"]
    assert bob.plan is not None and [s.to_json() for s in bob.plan] == [
        {"kind": "move", "movement": "foot", "yards": 40},
        {"kind": "move", "movement": "prone"},
        {"kind": "defend", "skill": "defiance"},
    ]
    assert bob.prone
    assert [e.data["defence_skill"] for e in table.log if e.kind == "attack.resolved"] == [
        "defiance"
    ]


def test_an_aborted_turns_declaration_must_hold_a_defence_not_a_task_of_its_skill() -> None:
    """ "Action": to defy the blast he aborts and declares anew; a task rolled with Defiance is
    not a Defiance defence."""
    focus = [{"task": "focus", "skill": "defiance", "challenge": 5}]
    with pytest.raises(RuleError, match="bob's declared actions include no defiance defence"):
        play(_bob_prone_when_the_blast_comes(), [("bob", "defend", {"actions": focus})], [])


def test_a_defence_declared_before_the_roll_must_be_a_defence_not_a_task_of_its_skill() -> None:
    """ "Action": fred, attacked before he declared, declares all of his actions then; a task
    rolled with Defense is not a defence, and the declaration is refused."""
    parry = [{"task": "parry", "skill": "defense", "challenge": 5}]
    with pytest.raises(RuleError, match="fred's declared actions include no defense defence"):
        play(_fred_under_attack(), [("fred", "defend", {"actions": parry})], [])
