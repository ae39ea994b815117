"""The chronicle ("Structure of Play": Campaign, Chronicle, Session): its first record, its
sessions, and its end when one faction, or none, is left in contention (the last Faction
standing).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, Table
from referee.systems.kingdoms import PROCEDURE

from .helpers import PLAYERS, _act, _kingdom, _new, _pass_all, _said, _two_kingdoms
from .test_procedure import setup, start


def test_the_chronicle_is_over_when_one_faction_is_left_in_contention() -> None:
    """Winning the Chronicle: the last faction in contention wins. Of two kingdoms, the elves'
    Assault wipes out the orcs: the chronicle is won by the elves and the table goes to
    ``over`` — no consequences, no downtime."""
    from .test_procedure import _reveal, act

    table = _two_kingdoms(orcs_disposition=2)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 5 + [1] * 4), "elves", "resolve")
    assert table.state.factions["orcs"].out
    assert (table.state.winner, table.state.phase) == ("elves", "over")


def test_the_chronicle_is_over_when_the_last_two_wipe_each_other_out() -> None:
    """Winning the Chronicle: the last two kingdoms Assault each other and both fall to 0:
    nobody is left in contention, nobody wins, and the table goes to ``over`` (not to
    consequences: there is no faction left to join); a new session after it is refused, the
    refusal saying that nobody is left standing."""
    from .test_procedure import _reveal, act

    table = _two_kingdoms(orcs_disposition=2, elves_disposition=2)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Assault", skill="Tactics", target="elves")
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 9), "elves", "resolve")
    assert [f for f, x in table.state.factions.items() if x.out] == ["elves", "orcs"]
    assert (table.state.winner, table.state.phase) == (None, "over")
    with pytest.raises(RuleError, match=r"over \(nobody is left standing\): no new session"):
        act(table, "elves", "new_session")


def test_a_new_session_says_at_which_maneuver_play_resumes() -> None:
    """Structure of Play: sessions are days of play; the record says which maneuver the new
    session starts at (the chronicle set up at its third maneuver)."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "maneuver": 3}, players=PLAYERS)
    table = _act(table, "elves", "new_session")
    event = table.log.events[-1]
    assert event.payload == {"session": 2, "maneuver_number": 3}
    assert _said([event]) == ["Session 2 begins (maneuver 3)"]


def test_when_the_last_two_wipe_each_other_out_the_chronicle_ends_unwon() -> None:
    """Winning the Chronicle: the last two kingdoms Assault each other to 0 — nobody is left
    standing, nobody wins: every seat reads that the chronicle ends unwon."""
    table = _two_kingdoms(orcs_disposition=2, elves_disposition=2)
    table = _act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Assault", skill="Tactics", target="elves")
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 9)
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    ended = [e for e in events if e.kind.startswith("chronicle.")]
    assert [(e.kind, e.payload) for e in ended] == [("chronicle.ended", {"winner": None})]
    assert _said(ended) == ["Nobody is left standing: the chronicle ends unwon"]


def test_the_chronicle_begins_with_its_territory_and_factions_as_every_seat_knows_them() -> None:
    """The chronicle's first record: the territory and each faction's leader and disposition."""
    table = start()
    first = table.log.events[0]
    assert first.payload["territory"] == "the mountain"
    factions: Any = first.payload["factions"]
    assert (factions["dwarves"]["leader"], factions["dwarves"]["disposition"]) == ("Grannir", 12)


def test_the_chronicle_opens_with_every_factions_name_leader_disposition_and_sheets() -> None:
    """The public set-up: each faction's name, leader, disposition and its leader's and 2iC's
    sheets (the abilities they have, not their ratings); a faction without a 2iC shows one."""
    data = setup()
    data["factions"]["dwarves"]["name"] = "the Deep Halls"
    data["factions"]["dwarves"]["second"] = {
        "name": "Dorin",
        "lifepaths": 8,
        "stats": {"Will": "B3"},
        "skills": {"Soldiering": "B4"},
    }
    factions: Any = Table.start(PROCEDURE, data).log.events[0].payload["factions"]
    assert factions["dwarves"] == {
        "name": "the Deep Halls",
        "leader": "Grannir",
        "disposition": 12,
        "sheets": [
            {"name": "Grannir", "skills": ["Fortifications", "Law"], "stats": ["Health", "Will"]},
            {"name": "Dorin", "skills": ["Soldiering"], "stats": ["Will"]},
        ],
    }
    assert [s["name"] for s in factions["elves"]["sheets"]] == ["Aeluin"]


def test_a_chronicle_without_a_territory_names_none() -> None:
    """The territory is the set-up's; none given, none is named."""
    data = setup()
    del data["territory"]
    assert Table.start(PROCEDURE, data).log.events[0].payload["territory"] == ""


def test_a_chronicle_objective_is_the_factions_own_words() -> None:
    """Chronicle Objective: a faction states its objective in words, which the record keeps as
    its own (the spaces around them trimmed); an objective of no words is refused."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "orcs", "objective", text="  Burn the forest ")
    event = table.log.events[-1]
    assert (event.kind, event.payload) == (
        "objective.set",
        {"faction": "orcs", "objective": "Burn the forest", "names": {"orcs": "the Orcs"}},
    )
    assert _said([event]) == ["The Orcs' Chronicle Objective: Burn the forest"]
    assert table.state.factions["orcs"].objective == "Burn the forest"
    assert table.state.factions["elves"].objective == ""
    with pytest.raises(RuleError, match=r"Chronicle Objective.*an objective needs words"):
        _act(table, "elves", "objective", text="   ")
