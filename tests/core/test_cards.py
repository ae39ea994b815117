"""The roll card's margin: a number where the check has one, ``None`` (JSON null) where it has
nothing to beat (DESIGN.md, "The table contract": one roll card)."""

from __future__ import annotations

import json

from referee.core.cards import RollCard, event_cards
from referee.core.checks import ObstacleCheck, OpposedCheck, TargetCheck, Total
from referee.dice import ScriptedSource


def test_a_total_against_a_target_has_its_margin() -> None:
    check = TargetCheck("3d6", 15, modifier=4)
    card = RollCard.of(check, check.roll(ScriptedSource([2, 5, 6])), "ScarFace perceives")
    assert card.margin == 2
    assert card.to_json()["margin"] == 2
    assert card.describe().endswith("→ success (margin +2)")


def test_an_opposed_check_has_its_margin() -> None:
    check = OpposedCheck(Total("1d6"), Total("1d6"))
    card = RollCard.of(check, check.roll(ScriptedSource([5, 2])), "Krockin escapes")
    assert card.margin == 3


def test_successes_against_an_obstacle_have_their_margin() -> None:
    check = ObstacleCheck(3, 1)
    card = RollCard.of(check, check.roll(ScriptedSource([4, 5, 1])), "Health")
    assert card.margin == 1


def test_a_roll_with_nothing_to_beat_has_no_margin() -> None:
    check = TargetCheck("2d6", 0)
    card = RollCard.of(
        check, check.roll(ScriptedSource([3, 4])), "Bob's Initiative", has_margin=False
    )
    assert card.margin is None
    assert card.value == 7
    assert "margin" not in card.describe()
    assert card.describe() == "Bob's Initiative: 2d6 ≥ 0: 2d6 (3, 4) = 7 → success"


def test_no_margin_is_null_in_json_and_round_trips() -> None:
    card = RollCard("Krockin's damage", "Damage", "1d6", None, (4,), "rolled", None, 4)
    data = card.to_json()
    assert data["margin"] is None
    assert '"margin": null' in json.dumps(data)
    assert RollCard.from_json(json.loads(json.dumps(data))) == card
    assert event_cards({"roll": data}) == [card]
    assert card.describe() == "Krockin's damage: 1d6: 4 → rolled"
