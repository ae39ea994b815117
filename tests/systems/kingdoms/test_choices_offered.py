"""Choices offered are choices the rules take: a tie-breaker agreed to is not offered again."""

from __future__ import annotations

from pathlib import Path

from referee.core import Action
from referee.core.loader import load_file
from referee.dice import ScriptedSource
from referee.systems.kingdoms import SYSTEM

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/kingdoms/artha-and-the-tie-breaker.yaml"


def test_a_tie_breaker_agreed_to_is_not_offered_again() -> None:
    data = load_file(EXAMPLE)
    table = SYSTEM.new_table(data["setup"], players=data["players"])
    dice = ScriptedSource(data["dice"]["script"])
    steps = data["actions"]
    for step in steps[:7]:  # up to the elves' Fate: the versus test is tied
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), dice)
    offered = [c.kind for c in table.legal_actions("orcs")]
    assert "tie_break" in offered
    table = table.act(Action("orcs", "tie_break", {"opponent": "elves", "root": "Will"}), dice)
    assert "tie_break" not in [c.kind for c in table.legal_actions("orcs")]
    assert "tie_break" in [c.kind for c in table.legal_actions("elves")]  # the other side's turn
