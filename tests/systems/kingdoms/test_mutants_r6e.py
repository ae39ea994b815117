"""Tests that kill the mutants mutmut left alive in round 6 of issue 13, part E
(docs/systems/kingdoms.md, "Mutation testing", "Round 6, part E"): ``scripting.py``'s first
eight functions rerun (``base_dice``: the dice Harry splits)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.scripting import base_dice

from .test_mutants import PLAYERS, _kingdom
from .test_mutants_fold import _act


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
