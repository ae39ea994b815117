"""Combats are public (RULINGS.md; docs/systems/intrigue.md): every seat sees the same combats,
so their part of the view is built once per state for all seats (issue 29), as plain JSON."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from referee.core import Table, observe
from referee.core.values import SharedJson
from referee.systems.intrigue import PROCEDURE, views
from referee.systems.intrigue.rounds import pending_declarers
from referee.systems.intrigue.state import evolved

from .helpers import _armed, act


def _five_seats_in_a_round() -> Table[Any]:
    table = Table.start(
        PROCEDURE, _armed(), players={f"p-{c}": [c] for c in _armed()["characters"]}
    )
    table = act(table, "alf", "start_combat", targets=["cat"])
    return act(table, "alf", "declare", action="defend")


def test_every_seat_is_shown_the_combats_built_once_for_the_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six seats (the referee and five players) observe a combat in its round: who has still to
    declare is worked out once for the state, not once per seat, and every seat is shown the
    same combats — Cat still to declare."""
    table = _five_seats_in_a_round()
    asked: list[str] = []

    def counted(state: Any, combat: Any) -> Any:
        asked.append(combat.id)
        return pending_declarers(state, combat)

    monkeypatch.setattr(views, "pending_declarers", counted)
    shown = [observe(table, seat.id).to_json()["state"]["combats"] for seat in table.seats]
    assert len(shown) == 6
    assert asked == ["combat-1"]
    assert all(s == shown[0] for s in shown)
    assert shown[0]["combat-1"]["pending"] == ["cat"]


def test_the_combats_are_plain_json_handed_to_every_seat_as_they_are() -> None:
    """The shared part is JSON already (lists, not tuples: what a fresh export would write), so
    the export hands it on without walking it again."""
    table = _five_seats_in_a_round()
    combats = views.combats_json(table.state)
    assert isinstance(combats, SharedJson)
    assert json.loads(json.dumps(combats)) == combats
    assert observe(table, "p-bob").to_json()["state"]["combats"] is combats


def test_combats_between_rounds_are_written_once_for_every_state_that_holds_them() -> None:
    """Between rounds the combats' view depends on the combats alone: a later state holding the
    same combats (an action of the evening that touched none) is shown the very same JSON."""
    state = _five_seats_in_a_round().state
    between = evolved(state, combats=tuple(evolved(c, in_round=False) for c in state.combats))
    later = copy.copy(between)
    assert views.combats_json(later) is views.combats_json(between)
    assert views.combats_json(later)["combat-1"]["pending"] == []
