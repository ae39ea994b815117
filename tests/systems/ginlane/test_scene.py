"""The scene (Gin Lane, "Manoeuvres": "for the rest of the scene"; issue 11): a setup refused naming
its field, an action of no kind refused, and what every seat sees of the scene.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, ScenarioError, Table, Viewer
from referee.core.events import Log
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.actions import CATALOGUE, TURN_ACTIONS
from referee.systems.ginlane.events import KINDS
from referee.systems.ginlane.fold import FOLDS, SECTIONS
from referee.systems.ginlane.scene import state_json
from referee.systems.ginlane.turns import FullAction

from .helpers import _setup, _thrower
from .test_procedure import act, duel


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (_setup(zone="a"), "zone: not a field of a Gin Lane setup here"),
        (_setup(links=[["a"]]), "links.0.1: Field required"),
        (
            _setup(characters={"moll": {"pool": -1}}),
            "characters.moll.pool: Input should be greater than or equal to 0",
        ),
    ],
)
def test_a_bad_setup_says_the_fields_path_and_what_is_wrong(
    setup: dict[str, Any], message: str
) -> None:
    """A scene's setup is refused naming the field as the scene file writes it (no model
    types in the path) and what is wrong with it; a field Gin Lane does not have says so."""
    with pytest.raises(ScenarioError) as refused:
        Table.start(PROCEDURE, setup)
    assert str(refused.value) == message


def test_every_seat_sees_a_block_in_force_and_a_fizzled_grenade() -> None:
    """Action: Block (a thing held) and Fizzle: the scene every seat sees shows moll's Block,
    its kind, strength (3 + 3 − 2 untrained Strength) and what it holds, and the fizzled
    grenade, where it lies and whom it was aimed at."""
    holding = act(duel(), "moll", "block", [3, 3], hold="the casket")
    seen = PROCEDURE.state_json(holding.state)["characters"]["moll"]["block"]
    assert seen == {"kind": "hold", "strength": 4, "target": "the casket"}
    fizzled = act(_thrower(), "kit", "throw_grenade", [3, 3, 1, 1], zone="b")
    assert PROCEDURE.state_json(fizzled.state)["fizzles"] == [
        {"thrower": "kit", "zone": "b", "on_target": None}
    ]


def test_every_seat_that_folds_its_own_view_sees_the_scene_the_table_shows() -> None:
    """Everything in a Gin Lane scene is in plain sight but a Wait's plan: jack, who never
    sees moll's plan nor its salt, folds his view of the log to the scene every seat sees,
    moll waiting."""
    table = act(duel(), "moll", "wait", plan="stab whoever comes through the door")
    for seat in ("jack", "public"):
        seen = Log.from_json([e.to_json() for e in table.view(Viewer(seat))])
        folded = Table.replay(PROCEDURE, table.setup, seen).state
        assert state_json(folded) == state_json(table.state)
        assert folded.get("moll").waiting and folded.plans == ()


def test_the_rules_refuse_an_action_they_do_not_know_and_name_those_they_do() -> None:
    """Actions: asked to decide an action of no kind it knows (the table refuses it sooner,
    as a misspelt action), the procedure refuses it by rule and names every action it knows."""
    table = duel()
    with pytest.raises(RuleError) as refused:
        PROCEDURE.decide(table.state, Action("moll", "dance", {}), ScriptedSource([]))
    assert str(refused.value) == (
        "Actions: no action 'dance' (actions: initiative, attack, defend, concede, absorb, "
        "manoeuvre, block, grapple, release, seize, overcome, move, sprint, wait, full_defence, "
        "something_else, throw_grenade, fuse, declare, maintain, end_scene, award, rest, "
        "end_session, recover, check_sheet, ritual)"
    )


def test_every_action_of_the_catalogue_has_one_rule_and_the_full_actions_pass_the_turn() -> None:
    """Actions: the kernel's handlers hold one rule per kind of the catalogue, nothing else;
    the Full Actions ("3. Actions") are the ones taken on a turn that passes after them."""
    handlers = PROCEDURE.handlers
    assert handlers is not None
    handlers.check(CATALOGUE)
    full = {kind for kind, rule in handlers.items() if isinstance(rule, FullAction)}
    assert full == TURN_ACTIONS


def test_each_event_kind_is_folded_by_one_section_and_is_a_kind_of_the_vocabulary() -> None:
    """The fold: every kind a section folds is one of the vocabulary's, and no two sections
    fold the same kind (the later would hide the earlier)."""
    folded = [kind for folds in SECTIONS.values() for kind in folds]
    assert len(folded) == len(set(folded)) == len(FOLDS)
    assert set(FOLDS) <= KINDS


def test_the_aspects_given_at_creation_and_possessions_are_on_every_seats_sheet() -> None:
    """Background: "all player characters have the (free) Aspect Member of the Society for
    Effectual Redress"; Possessions: "use Aspects for those". Both are on the sheet every seat
    sees, beside the character's own Aspects (they vanished from it before issue 28)."""
    table = duel(moll={"possessions": ["A House in Soho"]})
    moll = state_json(table.state)["characters"]["moll"]
    assert moll["aspects"] == ["Fencing Mistress"]
    assert moll["free_aspects"] == ["Member of the Society for Effectual Redress"]
    assert moll["possessions"] == ["A House in Soho"]
