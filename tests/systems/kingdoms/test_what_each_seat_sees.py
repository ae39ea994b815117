"""What each seat sees of a chronicle (docs/systems/kingdoms.md): the same state for every
faction but the other factions' sealed slips. That state is written once per state for every
seat (issue 29), and a maneuver's record in the history once for as long as it is kept; each
seat still sees its own slip alone. A seat with nothing to do is told why, and until when."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import observe
from referee.systems.kingdoms import PROCEDURE, views
from referee.systems.kingdoms.state import KingdomsState, RolledTest, Slip

from .helpers import _act, _three_kingdoms
from .test_procedure import leader, setup


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


def _four() -> KingdomsState:
    """The elves, orcs, dwarves and men at the start of a maneuver."""
    data = setup()
    data["factions"]["men"] = {"disposition": 8, "leader": {**leader(Law="B3"), "name": "Hal"}}
    return PROCEDURE.initial_state(data)


def _with(state: KingdomsState, **factions: dict[str, Any]) -> KingdomsState:
    changed = {f: replace(state.factions[f], **c) for f, c in factions.items()}
    return replace(state, factions={**state.factions, **changed})


def _rolled(fid: str, decided: bool) -> RolledTest:
    return RolledTest(fid, "leader", "Logistics", 4, 2, decided=decided)


SETTLED = {"elves": _rolled("elves", True), "dwarves": _rolled("dwarves", True)}
UNSETTLED = {f: _rolled(f, False) for f in ("orcs", "dwarves", "men")}

WAITS: list[tuple[str, Any, tuple[str, str | None, str]]] = [
    (
        "the chronicle won",
        lambda s: replace(s, phase="over", winner="elves"),
        ("the chronicle is over: won by the Elves", None, "Structure of Play"),
    ),
    (
        "the chronicle over, unwon",
        lambda s: replace(s, phase="over"),
        ("the chronicle is over: nobody is left standing", None, "Structure of Play"),
    ),
    (
        "out of contention, joined",
        lambda s: _with(s, elves={"out": True, "joined": "orcs"}),
        (
            "out of contention (reduced to 0); your leader now plays in the Orcs' scenes",
            None,
            "Consequences",
        ),
    ),
    (
        "out of contention",
        lambda s: _with(s, elves={"out": True}),
        ("out of contention (reduced to 0)", None, "Consequences"),
    ),
    (
        "the prologue",
        lambda s: _with(replace(s, phase="prologue"), elves={"prologue": 2}),
        (
            "your prologue is tested: the chronicle waits for the Orcs, the Dwarves and the Men",
            "until every faction has tested its prologue",
            "Prologues",
        ),
    ),
    (
        "rolls to settle",
        lambda s: replace(s, phase="rolled", rolls={**UNSETTLED, "elves": _rolled("elves", True)}),
        (
            "your roll is settled: the resolution waits for the Orcs, the Dwarves and the Men "
            "to keep their roll or spend artha",
            "until every roll is settled",
            "Independent and Versus Maneuvers",
        ),
    ),
    (
        "every roll settled",
        lambda s: replace(s, phase="rolled", rolls=SETTLED, reader="orcs"),
        (
            "every roll is settled: the Orcs read the slips and resolve them",
            "until the slips are resolved",
            "Maneuver Resolution",
        ),
    ),
    (
        "sides to choose",
        lambda s: _with(
            replace(
                s,
                phase="consequences",
                pending_conquest={"orcs": ("elves",), "dwarves": ("elves",)},
            ),
            orcs={"out": True},
            men={"out": True, "joined": "elves"},
        ),
        (
            "the consequences wait for the Orcs and the Dwarves to choose a side",
            "until the defeated leaders have joined a faction",
            "Consequences",
        ),
    ),
    (
        "maintenance owed in consequences",
        lambda s: _with(replace(s, phase="consequences"), dwarves={"maintenance": (0,)}),
        (
            "downtime: the next maneuver waits for the Dwarves to make their Resources "
            "maintenance tests",
            "until every maintenance test is made",
            "Downtime",
        ),
    ),
    (
        "maintenance owed in downtime",
        lambda s: _with(
            replace(s, phase="downtime"), men={"maintenance": (0,)}, orcs={"maintenance": (1,)}
        ),
        (
            "downtime: the next maneuver waits for the Orcs and the Men to make their "
            "Resources maintenance tests",
            "until every maintenance test is made",
            "Downtime",
        ),
    ),
]


@pytest.mark.parametrize(("when", "state_of", "told"), WAITS, ids=[w[0] for w in WAITS])
def test_a_seat_with_nothing_to_do_is_told_why_and_until_when(
    when: str, state_of: Any, told: tuple[str, str | None, str]
) -> None:
    """Structure of Play and each phase's rule: a faction with nothing to do is told why, in
    its phase's words, naming the factions it waits for (never what they wrote), and until
    when; the chronicle over or its faction out of contention, until nothing."""
    said = PROCEDURE.waiting(state_of(_four()), "elves")
    assert said is not None
    assert (said.actor, said.reason, said.until, said.section) == ("elves", *told)


def test_a_seat_is_told_nothing_the_kernels_words_do_not_say() -> None:
    """Downtime with no maintenance test owed, a chronicle's consequences with no side left to
    choose, or an actor who plays no faction: the game adds nothing to whose move it is."""
    state = _four()
    assert PROCEDURE.waiting(replace(state, phase="downtime"), "elves") is None
    assert PROCEDURE.waiting(replace(state, phase="consequences"), "elves") is None
    assert PROCEDURE.waiting(state, "goblins") is None


def test_once_the_slips_are_read_every_seat_sees_every_slip() -> None:
    """Maneuver Slips: a slip is sealed while the slips are being written; once they are read
    (the maneuver's tests rolled), every seat sees every faction's slip."""
    table = _three_kingdoms()
    for faction in ("elves", "orcs", "dwarves"):
        table = _act(table, faction, "write_slip", maneuver="Fortify", skill="Logistics")
    read = replace(table.state, phase="rolled")
    for seat in ("ann", "bob", "cy"):
        seen: Any = PROCEDURE.visible_state(read, table.viewer(seat))
        assert sorted(seen["slips"]) == ["dwarves", "elves", "orcs"]
        assert sorted(seen["salts"]) == ["dwarves", "elves", "orcs"]
