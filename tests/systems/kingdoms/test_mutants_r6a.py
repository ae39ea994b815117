"""Tests that kill the mutants mutmut left alive in round 6 of issue 13 (docs/systems/kingdoms.md,
"Mutation testing", "Round 6: `procedure.py`"): what the procedure's events say to every seat —
sessions, sealed slips, passes, tie-breakers, the end of a maneuver and of the chronicle."""

from __future__ import annotations

from typing import Any

from referee.core import Action, Event, Table, Viewer, view
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE

from .test_mutants import PLAYERS, _kingdom
from .test_mutants_fold import _two_kingdoms

EVERY_SEAT = Viewer("someone")


def _act(
    table: Table[Any], faction: str, action: str, dice: list[int] | None = None, **params: Any
) -> Table[Any]:
    return table.act(Action(faction, action, params), ScriptedSource(dice or []))


def _pass_all(table: Table[Any]) -> Table[Any]:
    for f in table.state.standing():
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return table


def _new(table: Table[Any], before: int) -> list[Event]:
    """The events logged since the log held ``before`` of them."""
    return list(table.log.events[before:])


def _said(events: list[Event]) -> list[str]:
    """Each event as every seat reads it."""
    return [PROCEDURE.describe(e, EVERY_SEAT) for e in events]


# ------------------------------------------------------------------- sessions, slips, passes


def test_a_new_session_says_at_which_maneuver_play_resumes() -> None:
    """Structure of Play: sessions are days of play; the record says which maneuver the new
    session starts at (the chronicle set up at its third maneuver)."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "maneuver": 3}, players=PLAYERS)
    table = _act(table, "elves", "new_session")
    event = table.log.events[-1]
    assert event.payload == {"session": 2, "maneuver_number": 3}
    assert _said([event]) == ["Session 2 begins (maneuver 3)"]


def test_every_seat_sees_for_which_maneuver_a_slip_was_sealed() -> None:
    """Maneuver: the slips are declared privately; every seat sees that a faction sealed its
    slip for this maneuver (the commitment names it), not what the slip says."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "maneuver": 2}, players=PLAYERS)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    seen = view(table.log, EVERY_SEAT)[-1]
    assert (seen.data["faction"], seen.data["maneuver_number"]) == ("orcs", 2)
    assert "slip" in seen.redacted


def test_a_faction_that_passes_has_not_spent_its_scenes() -> None:
    """Spending Scenes: a faction may pass its remaining scenes; the log says it passed, not
    that it spent every scene."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "elves", "pass")
    event = table.log.events[-1]
    assert event.payload == {"faction": "elves", "spent": False}
    assert _said([event]) == ["elves passes its remaining scenes"]


# ----------------------------------------------------------------------------- tie-breakers


def _tied_with_a_second() -> Table[Any]:
    """The elves (Aeluin: Will B4, Perception B3 open-ended) Fortify on Logistics B4; the orcs'
    2iC Ugluk (Will B2, Perception G3 open-ended; his leader Gorbash has Perception G4
    open-ended) Assaults them with Tactics B4 and directs the conflict scene himself. Each
    side rolls 4, 4, 1, 1: 2 successes each, a tied versus test."""
    setup = _kingdom(
        {},
        stats={"Will": "B4", "Perception": {"shade": "B", "exponent": 3, "open_ended": True}},
    )
    orcs = setup["factions"]["orcs"]
    orcs["assessed"] = ["elves"]
    orcs["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "stats": {"Will": "B2", "Perception": {"shade": "G", "exponent": 3, "open_ended": True}},
        "skills": {"Tactics": "B4"},
    }
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(
        table,
        "orcs",
        "write_slip",
        maneuver="Assault",
        skill="Tactics",
        target="elves",
        roller="second",
    )
    table = _act(table, "orcs", "scene", kind="conflict", target="elves", by="second")
    table = _act(_pass_all(table), "elves", "reveal", [4, 4, 1, 1] * 2)
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 2, "orcs": 2}
    return table


def test_a_tie_breaker_rolls_the_rollers_root_stat_open_ended_as_its_sheet_says() -> None:
    """Independent and Versus Maneuvers: a tied versus test may be broken by testing root
    stats, "extra successes count as if they were extra successes for the maneuver skill".
    The root stat is the one of the character who rolled the maneuver (the orcs' 2iC Ugluk,
    not their leader), and an open-ended stat rolls its 6s again: the elves' B3 rolls 6, 1, 1
    and the 6 again, a 4 (2 successes); Ugluk's G3 rolls 6, 1, 1 and a 3 (2 at Grey). Each
    roll is carded under its side's name and the rule; every seat reads the extras."""
    table = _tied_with_a_second()
    table = _act(table, "orcs", "tie_break", opponent="elves", root="Perception")
    before = len(table.log.events)
    table = _act(
        table, "elves", "tie_break", [6, 1, 1, 4, 6, 1, 1, 3], opponent="orcs", root="Perception"
    )
    offered, rolled = _new(table, before)
    data: Any = rolled.payload
    assert data["factions"] == ["elves", "orcs"]
    assert data["extra"] == {"elves": 2, "orcs": 2}
    cards = [(c["label"], c["rule"], c["dice"], c["value"]) for c in data["rolls"]]
    assert cards == [
        (
            "elves: tie-breaker on Perception",
            "Independent and Versus Maneuvers",
            "3d6 open-ended",
            2,
        ),
        (
            "orcs: tie-breaker on Perception",
            "Independent and Versus Maneuvers",
            "3d6 grey open-ended",
            2,
        ),
    ]
    pools = {
        f: (p["dice"], p["shade"], p["open_ended"], p["successes"])
        for f, p in data["pool_rolls"].items()
    }
    assert pools == {"elves": (3, "B", True, 2), "orcs": (3, "G", True, 2)}
    assert _said([offered, rolled]) == [
        "elves agrees to break the tie with orcs on Perception",
        "Tie-breaker between elves and orcs: elves +2, orcs +2",
    ]
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 4, "orcs": 4}


# ------------------------------------------------------------- the end of a maneuver, of all


def test_a_faction_finished_off_by_one_attack_is_conquered_by_it_and_the_last_one_wins() -> None:
    """Consequences: the faction that wiped out another is its conqueror ("the attack that
    finished it off"); Winning the Chronicle: the last faction in contention wins — the
    chronicle is won, not ended unwon. Every seat reads the maneuver resolved and ended."""
    table = _two_kingdoms(orcs_disposition=2)
    table = _act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 5 + [1] * 4)
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    kinds = [e.kind for e in events]
    assert "chronicle.ended" not in kinds
    named = next(e for e in events if e.kind == "conqueror.named")
    assert named.payload == {
        "defeated": "orcs",
        "conqueror": "elves",
        "why": "the attack that finished it off",
    }
    said = _said(events)
    assert said[0].startswith("Maneuver 1 resolved in seat order — the narrator is elves")
    assert "elves conquers orcs (the attack that finished it off)" in said
    assert "elves stands alone and wins the chronicle" in said
    assert said[-1] == "Maneuver 1 ends"


def test_of_two_attackers_the_one_with_more_successes_conquers() -> None:
    """Consequences: of the factions that damaged the defeated one this maneuver, the one with
    more successes on its maneuver roll is the conqueror. The elves (4 successes) and the
    dwarves (2) both Assault the orcs (disposition 5, no success on their Fortify): the
    elves take 4, the dwarves' attack finishes them off, and the elves conquer. The dwarves
    still stand, so nobody has won and the chronicle has not ended."""
    setup = _kingdom({"assessed": ["orcs"]}, skills={"Logistics": "B4", "Tactics": "B4"})
    setup["factions"]["orcs"]["disposition"] = 5
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "assessed": ["orcs"],
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Tactics": "B4"},
        },
    }
    table = Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})
    for f in ("elves", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "dwarves"):
        table = _act(table, f, "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 4 + [1] * 4 + [4, 4, 1, 1])
    for f in table.state.rolls:
        if not table.state.rolls[f].decided:
            table = _act(table, f, "keep")
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    assert [e.kind for e in events if e.kind.startswith("chronicle.")] == []
    named = next(e for e in events if e.kind == "conqueror.named")
    assert named.payload == {
        "defeated": "orcs",
        "conqueror": "elves",
        "why": "the attacker with more successes",
    }
    assert "elves conquers orcs (the attacker with more successes)" in _said(events)


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


def test_an_infiltrate_of_a_faction_that_cannot_act_is_tested_at_its_leaders_circles() -> None:
    """Infiltrate: an independent test against the target's base Circles (RULINGS: a maneuver
    against a faction that cannot act is independent). The orcs cannot act; their leader's
    Circles are 3; the elves' Infiltrate rolls 4 successes: the orcs are Infiltrated by the
    margin, 1."""
    setup = _kingdom({})
    orcs = setup["factions"]["orcs"]
    orcs["cannot_act"] = True
    orcs["leader"]["circles"] = 3
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(
        table,
        "elves",
        "write_slip",
        maneuver="Infiltrate",
        skill="Logistics",
        target="orcs",
        substitute=True,
    )
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 4)
    table = _act(table, "elves", "keep")
    table = _act(table, "elves", "resolve")
    assert table.state.factions["elves"].infiltrated == {"orcs": 1}
