"""What each seat sees of a chronicle (docs/systems/kingdoms.md): the same state for every
faction but the other factions' sealed slips. That state is written once per state for every
seat (issue 29), and a maneuver's record in the history once for as long as it is kept; each
seat still sees its own slip alone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import observe
from referee.systems.kingdoms import views
from referee.systems.kingdoms.state import Slip

from .helpers import _act, _three_kingdoms


def test_the_state_is_written_once_for_every_seat_and_each_sees_its_own_slip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three factions have written their slips: the four seats (three players and the
    referee's view through the record) are shown the state after one writing of each slip,
    and each player sees only their own faction's."""
    table = _three_kingdoms()
    for faction in ("elves", "orcs", "dwarves"):
        table = _act(table, faction, "write_slip", maneuver="Fortify", skill="Logistics")
    written: list[str] = []
    to_json = Slip.to_json

    def counted(slip: Slip) -> dict[str, Any]:
        written.append(slip.faction)
        return to_json(slip)

    monkeypatch.setattr(Slip, "to_json", counted)
    shown = {seat.id: observe(table, seat.id).to_json()["state"] for seat in table.seats}
    assert sorted(written) == ["dwarves", "elves", "orcs"]
    assert sorted(shown["ann"]["slips"]) == ["elves"]
    assert sorted(shown["bob"]["slips"]) == ["orcs"]
    assert sorted(shown["cy"]["slips"]) == ["dwarves"]
    assert {k: v for k, v in shown["ann"].items() if k not in views.SEALED} == {
        k: v for k, v in shown["cy"].items() if k not in views.SEALED
    }


def test_a_maneuvers_record_is_written_once_for_as_long_as_it_is_kept() -> None:
    """The history only grows as the chronicle goes on: in the next maneuver's state the record
    of the maneuver before is the very JSON written before, not written again."""
    state = _three_kingdoms().state
    first = {"maneuver": 1, "results": {"elves": "Fortify"}, "dispositions": {"elves": 10}}
    second = {"maneuver": 2, "results": {"orcs": "Assault"}, "dispositions": {"elves": 8}}
    before = views.state_json(replace(state, history=(first,)))
    later = views.state_json(replace(state, maneuver=3, history=(first, second)))
    assert later["history"] == [first, second]
    assert later["history"][0] is before["history"][0]
