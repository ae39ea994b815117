"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/ginlane.md, "Mutation
testing"): each asserts an outcome of the rules text.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.stress import Consequences, TakenConsequence
from referee.systems.ginlane.zones import step

STREET = SceneState(
    combatants=(),
    zones=("alley", "yard", "roof"),
    links=(("alley", "yard", 1), ("yard", "roof", 1)),
    zone_costs=(("roof", 3), ("yard", 2)),
)


def test_difficult_terrain_adds_the_zone_cost_above_one() -> None:
    """Zones, "Difficult terrain": a step into a zone of cost 3 costs 1 + (3 − 1) = 3, into a
    zone of cost 2 costs 2, back into a plain zone 1; neither is a clear way."""
    assert step(STREET, "yard", "roof", clear=False) == 3
    assert step(STREET, "alley", "yard", clear=False) == 2
    assert step(STREET, "yard", "alley", clear=False) == 1
    assert step(STREET, "yard", "alley", clear=True) == 1
    for here, there in (("yard", "roof"), ("alley", "yard")):
        with pytest.raises(RuleError, match="no clear way"):
            step(STREET, here, there, clear=True)


def test_a_taken_consequence_closes_its_severity_only() -> None:
    """Consequences: one slot of each severity; taking a moderate one leaves the others open."""
    slots = Consequences().take(TakenConsequence("moderate", "Bleeding Cut"))
    assert slots.free_severities() == ("slight", "heavy", "extreme")
    assert Consequences().free_severities() == ("slight", "moderate", "heavy", "extreme")
