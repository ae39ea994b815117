"""Characters (parent-games.md, "Zweihänder"; house rules, "Reputation points"): every number on
the sheet entered and checked, the Peril and Damage Condition Tracks, Ignore N Skill Ranks."""

from __future__ import annotations

from typing import Any

from referee.systems.zweihander.events import CHASE_FATIGUE

from .helpers import _card, _line


def test_the_log_names_a_peril_step_only_for_whoever_moved_on_the_track() -> None:
    """The Peril Condition Track: the step is named when the event moved that character on it;
    another character's change, or no change at all, names none."""
    for characters in ({"cora": {"peril": 3}}, {"hound": {"damage": 1}}, None):
        data: dict[str, Any] = {"participant": "hound", "roll": _card(78), "peril": 2}
        if characters is not None:
            data["characters"] = characters
        assert (
            _line(CHASE_FATIGUE, **data)
            == "Hound tests fatigue — d100 78: failure; 2 physical Peril."
        )
    assert (
        _line(
            CHASE_FATIGUE,
            participant="hound",
            roll=_card(78),
            peril=2,
            characters={"hound": {"peril": 0}, "cora": {"peril": 3}},
        )
        == "Hound tests fatigue — d100 78: failure; 2 physical Peril → Unhindered."
    )
