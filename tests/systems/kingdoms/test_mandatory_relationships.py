"""Mandatory Relationships ("Seconds in Command", "Rival Relationships"; RULINGS.md, Round 3):
a Faction Leader's Second in Command and two rival relationships are required — a table
without them is refused, naming the field and the rule, unless its set-up says
``strict_sheets: false`` (quick play), which the chronicle notes as it begins."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from referee.core import ScenarioError, Table, Viewer
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms import events as E

from .helpers import EXAMPLES

EXAMPLE = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))


def _setup() -> dict[str, Any]:
    """The demo's set-up: the Elves and the Orcs, each leader with a 2iC and two rivals."""
    setup: dict[str, Any] = copy.deepcopy(EXAMPLE["setup"])
    return setup


def test_the_demo_table_has_every_second_and_rival_the_text_requires() -> None:
    """Faction Leaders are required to purchase a 10-point Second in Command relationship, and
    two relationships with members of opposing factions: the demo table has them, checked."""
    table = Table.start(PROCEDURE, _setup(), players=EXAMPLE["players"])
    assert table.state.quick_play is None
    for faction in table.state.factions.values():
        assert faction.second is not None
        assert len(faction.leader.relationships) == 2


def test_a_table_without_a_second_in_command_is_refused_naming_the_field_and_the_rule() -> None:
    """Seconds in Command: "Faction Leaders are required to purchase a 10-point Second in
    Command relationship." A set-up without one is refused: the field, the rule and the way
    to play a quick table without it."""
    setup = _setup()
    del setup["factions"]["elves"]["second"]
    with pytest.raises(ScenarioError) as refused:
        Table.start(PROCEDURE, setup)
    assert refused.value.path == ("factions", "elves", "second")
    assert str(refused.value) == (
        "factions.elves.second: Seconds in Command: the Elves need a Second in Command: "
        '"Faction Leaders are required to purchase" one (strict_sheets: false lets a quick '
        "table play without it)"
    )


@pytest.mark.parametrize(
    "relationships",
    [
        [],
        [{"name": "Ugluk", "faction": "orcs"}],
        # a relationship with someone of no faction at this table is no rival
        [{"name": "Ugluk", "faction": "orcs"}, {"name": "Sauron", "faction": "mordor"}],
    ],
)
def test_a_table_without_two_rival_relationships_is_refused(
    relationships: list[dict[str, str]],
) -> None:
    """Rival Relationships: "FL's are also required to purchase two relationships with members
    of opposing factions." Fewer than two with members of the chronicle's other factions is
    refused, naming the leader's relationships and the rule."""
    setup = _setup()
    setup["factions"]["elves"]["leader"]["relationships"] = relationships
    with pytest.raises(ScenarioError) as refused:
        Table.start(PROCEDURE, setup)
    assert refused.value.path == ("factions", "elves", "leader", "relationships")
    assert str(refused.value.reason).startswith(
        "Rival Relationships: Aeluin needs 2 relationships with members of opposing factions"
    )
    assert "strict_sheets: false" in str(refused.value)


def test_quick_play_plays_without_them_and_says_so_when_the_chronicle_begins() -> None:
    """RULINGS.md, Round 3: "a table is refused without them unless its setup says
    strict_sheets: false (quick play), which is then noted on creation". The chronicle's first
    event, which every seat reads, lists what the table plays without."""
    setup = _setup()
    del setup["factions"]["elves"]["second"]
    setup["factions"]["orcs"]["leader"]["relationships"] = []
    table = Table.start(PROCEDURE, {**setup, "strict_sheets": False}, players=EXAMPLE["players"])
    began = table.log.events[0]
    assert began.kind == E.CHRONICLE_BEGAN
    noted = ["the Elves: no Second in Command", "the Orcs: 0 of 2 rival relationships"]
    assert began.payload["quick_play"] == noted
    assert table.state.quick_play == tuple(noted)
    words = PROCEDURE.describe(began, Viewer("ann"))
    assert words.endswith(
        "Quick play (strict_sheets: false): the Seconds in Command and rival relationships "
        "the text requires are not enforced — the Elves: no Second in Command; the Orcs: 0 of "
        "2 rival relationships"
    )
    # a checked table says nothing of it
    checked = Table.start(PROCEDURE, _setup(), players=EXAMPLE["players"])
    assert "quick_play" not in checked.log.events[0].payload


def test_quick_play_notes_how_many_of_the_two_rivals_a_leader_has() -> None:
    """Rival Relationships: "two relationships with members of opposing factions". A quick
    table's leader with one such rival plays, noted as having 1 of the 2."""
    setup = _setup()
    setup["factions"]["orcs"]["leader"]["relationships"] = [{"name": "Thalion", "faction": "elves"}]
    table = Table.start(PROCEDURE, {**setup, "strict_sheets": False}, players=EXAMPLE["players"])
    assert table.state.quick_play == ("the Orcs: 1 of 2 rival relationships",)
