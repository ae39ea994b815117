"""Sealed slips a table can check (issue 12): when a slip is sealed every seat sees its
commitment and nothing of its content; the reveal publishes each slip with its salt, and the
slip must be the one committed. Played with real (random) dice, so the salts are secret ones."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from referee.core import Action, Event, OneOf, Secret, Table, Viewer, observe, only, view
from referee.core.fairness import ZERO_SALT, sealed_choices, verify
from referee.core.loader import load_file
from referee.dice import RandomSource
from referee.dice.fairness import check_choice
from referee.systems.kingdoms import PROCEDURE, SYSTEM
from referee.systems.kingdoms import events as E
from referee.systems.kingdoms.state import Slip

from .helpers import (
    EVERY_SEAT,
    PLAYERS,
    _act,
    _kinds,
    _kingdom,
    _menu,
    _three_kingdoms_with_inconspicuous,
)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/kingdoms/artha-and-the-tie-breaker.yaml"


def _sealed_table() -> tuple[object, list[tuple[str, str]]]:
    data = load_file(EXAMPLE)
    table = SYSTEM.new_table(data["setup"], players=data["players"])
    dice = RandomSource(7)
    steps = [
        ("ann", Action("elves", "write_slip", {"maneuver": "Fortify", "skill": "Logistics"})),
        (
            "bob",
            Action(
                "orcs",
                "write_slip",
                {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"},
            ),
        ),
    ]
    for seat, action in steps:
        table = table.act(action, dice, seat=seat)
    return table, [("elves", "ann"), ("orcs", "bob")]


def test_a_sealed_slip_shows_every_seat_its_commitment_and_nothing_more() -> None:
    table, writers = _sealed_table()
    written = [e for e in table.log if e.kind == "slip.written"]
    assert len(written) == 2
    for event, (faction, seat) in zip(written, writers, strict=True):
        salt = next(p.value for p in event.secrets if p.name == "salt")
        assert salt != ZERO_SALT.hex()  # a real table's salt is random
        slip = event.data["slip"]
        assert check_choice(slip, bytes.fromhex(str(salt)), event.data["sealed"]["commitment"])
        for viewer in ("ann", "bob", Viewer("stranger")):
            raw = json.dumps(observe(table, viewer).to_json(), ensure_ascii=False)
            assert event.data["sealed"]["commitment"] in raw  # public
            owner = viewer == seat
            assert (str(salt) in raw) == owner, (viewer, faction)
            assert (json.dumps(slip, ensure_ascii=False) in raw) == owner


def test_the_reveal_publishes_each_slip_with_its_salt_and_every_one_checks() -> None:
    table, _ = _sealed_table()
    table = table.act(Action("elves", "pass", {}), None, seat="ann")
    table = table.act(Action("orcs", "pass", {}), None, seat="bob")
    table = table.act(Action("elves", "reveal", {}), RandomSource(3), seat="ann")
    checked, problems = sealed_choices(tuple(table.log))
    assert checked == 2 and problems == ()
    assert verify(table).choices == 2
    # every seat sees both salts now, and can check them itself
    for viewer in ("ann", "bob"):
        revealed = [e for e in observe(table, viewer).events if e.kind == "slips.revealed"]
        assert len(revealed[-1].data["unsealed"]) == 2
    # a record replays with its recorded salts, and an altered slip is caught
    again = SYSTEM.load(json.loads(json.dumps(table.to_record())))
    assert again.log == table.log
    log = list(table.log)
    reveal = next(i for i, e in enumerate(log) if e.kind == "slips.revealed")
    payload = dict(log[reveal].payload)
    unsealed = [dict(u) for u in payload["unsealed"]]
    unsealed[1]["content"] = {**unsealed[1]["content"], "maneuver": "Assault"}
    payload["unsealed"] = unsealed
    log[reveal] = replace(log[reveal], payload=payload)
    checked, problems = sealed_choices(log)
    assert checked == 2 and len(problems) == 1 and "the slip of orcs" in problems[0]
    # and so is a changed salt
    unsealed[1] = dict(table.log[reveal + 1 - 1].payload["unsealed"][1])
    unsealed[1]["salt"] = ZERO_SALT.hex()
    payload["unsealed"] = unsealed
    log[reveal] = replace(log[reveal], payload=payload)
    assert len(sealed_choices(log)[1]) == 1


def test_artha_that_could_change_no_die_is_neither_offered_nor_taken() -> None:
    """Audit B6 (parent-games.md, Fate and Deeds): Fate on a closed roll opens its 6s, so on a
    roll with no 6s it buys nothing — not offered, and refused with the reason."""
    import pytest

    from referee.core import RuleError
    from referee.dice import ScriptedSource

    data = load_file(EXAMPLE)

    def revealed(elves: list[int]) -> object:
        table = SYSTEM.new_table(data["setup"], players=data["players"])
        dice = ScriptedSource([*elves, 4, 4, 4, 4, 1])  # the orcs' roll, as in the example
        for step in data["actions"][:6]:
            action = Action(step["actor"], step["action"], step.get("params", {}))
            table = table.act(action, dice)
        return table

    table = revealed([4, 4, 1, 1, 1])  # the elves (2 Fate) roll no 6
    ways = {c.label for c in table.legal_actions("elves") if c.kind == "spend_artha"}
    assert "spend Fate" not in ways
    with pytest.raises(RuleError, match="rolled no 6s"):
        table.act(Action("elves", "spend_artha", {"fate": True}), ScriptedSource([]))
    table = revealed([6, 4, 1, 1, 1])  # the example's roll: a 6, which Fate opens
    ways = {c.label for c in table.legal_actions("elves") if c.kind == "spend_artha"}
    assert "spend Fate" in ways


def test_every_seat_sees_for_which_maneuver_a_slip_was_sealed() -> None:
    """Maneuver: the slips are declared privately; every seat sees that a faction sealed its
    slip for this maneuver (the commitment names it), not what the slip says."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "maneuver": 2}, players=PLAYERS)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    seen = view(table.log, EVERY_SEAT)[-1]
    assert (seen.data["faction"], seen.data["maneuver_number"]) == ("orcs", 2)
    assert "slip" in seen.redacted


def test_the_slips_are_read_once_every_faction_has_sealed_and_passed() -> None:
    """Maneuver: every acting faction seals a slip, then plays or passes its scenes; the
    slips are read when nobody is left to play (any standing faction may read); a slip may
    be rewritten until the first scene. A faction
    that cannot act scripts nothing and directs no conflict; one out of contention does nothing."""
    table = _three_kingdoms_with_inconspicuous()
    f = table.state.factions
    table = replace(
        table,
        state=replace(
            table.state,
            factions={
                **f,
                "dwarves": replace(f["dwarves"], cannot_act=True),
                "orcs": replace(f["orcs"], out=True),
            },
        ),
    )
    assert [k for k, _ in _kinds(table.state, "dwarves")] == ["pass"]
    assert _kinds(table.state, "orcs") == []
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    assert "scene" in [k for k, _ in _kinds(table.state, "elves")]
    table = _act(table, "elves", "pass")
    assert {k for k, _ in _kinds(table.state, "elves")} == {"write_slip"}  # until a scene
    scenes = [p["kind"] for k, p in _kinds(table.state, "dwarves") if k == "scene"]
    assert scenes == [OneOf(("color",)), OneOf(("interstitial",)), OneOf(("building",))]
    table = _act(table, "dwarves", "pass")
    for standing in ("elves", "dwarves"):
        offered = [c for c in _menu(table.state, standing) if c[0] != "write_slip"]
        assert offered[2:] == [("reveal", "read the slips", {})]


def test_the_slips_are_not_read_while_a_slip_is_missing() -> None:
    """Maneuver: the slips are read once every acting faction has sealed one — even if
    every faction has passed, the orcs' missing slip holds the reveal."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    state = replace(table.state, passed=frozenset({"elves", "orcs"}))
    for f in ("elves", "orcs"):
        assert "reveal" not in [k for k, _ in _kinds(state, f)]


def test_a_slip_is_recorded_with_every_field_and_read_back_the_same() -> None:
    """A sealed slip ("your faction name, the attempted maneuver and your intended target")
    with everything the procedure needs: it survives the record as it was written."""
    slip = Slip(
        faction="elves",
        maneuver="Ploy",
        skill="Strategy",
        targets=("orcs", "dwarves"),
        roller="second",
        forks=("Tactics", "Law"),
        persona=2,
        deeds_before=True,
        defence=3,
        helps="dwarves",
        downtime=1,
        substitute=True,
    )
    record = slip.to_json()
    assert record == {
        "faction": "elves",
        "maneuver": "Ploy",
        "skill": "Strategy",
        "targets": ["orcs", "dwarves"],
        "roller": "second",
        "forks": ["Tactics", "Law"],
        "persona": 2,
        "deeds_before": True,
        "defence": 3,
        "helps": "dwarves",
        "downtime": 1,
        "substitute": True,
    }
    assert Slip.from_json(record) == slip


def test_a_slip_without_its_options_is_the_leaders_plain_test() -> None:
    """Only faction, maneuver and skill are needed: the leader rolls, no artha, no help."""
    slip = Slip.from_json({"faction": "elves", "maneuver": "Fortify", "skill": "Logistics"})
    assert slip == Slip("elves", "Fortify", "Logistics")
    assert slip.to_json()["helps"] is None
    assert (slip.roller, slip.helps, slip.persona, slip.deeds_before) == ("leader", None, 0, False)


def test_a_sealed_slip_is_told_to_its_writer_and_stays_sealed_for_every_other_seat() -> None:
    """ "Maneuver slips" are secret until the reveal: the writer reads its own maneuver, every
    other seat only that a slip was sealed (or rewritten)."""
    slip = Event(
        E.SLIP_WRITTEN,
        {"faction": "orcs", "maneuver_number": 1, "rewritten": True},
        secrets=(
            Secret(
                "slip",
                {"maneuver": "Assault", "skill": "Command", "targets": ["elves"]},
                only("orcs"),
            ),
        ),
    )
    seen_by_writer, seen_by_other = slip.seen_by(Viewer("orcs")), slip.seen_by(Viewer("elves"))
    assert seen_by_writer is not None and seen_by_other is not None
    mine = E.describe(seen_by_writer, Viewer("orcs"))
    theirs = E.describe(seen_by_other, Viewer("elves"))
    assert mine == "The Orcs' maneuver slip is rewritten: Assault with Command against the Elves"
    assert theirs == "The Orcs' maneuver slip is rewritten (hidden until the reveal)"
    assert "Assault" not in theirs and "Command" not in theirs


def test_a_faction_whose_slip_is_sealed_and_scenes_passed_is_told_whom_the_reveal_waits_for() -> (
    None
):
    """Maneuvering in the Chronicle, Spending Scenes: a slip may be rewritten until the first
    scene; once the orcs have played one and the elves have passed, the elves have nothing to
    do until the orcs spend or pass their scenes, and their seat is told so — naming who,
    never what anyone wrote."""
    data = load_file(EXAMPLE)
    table = SYSTEM.new_table(data["setup"], players=data["players"])
    fortify = {"maneuver": "Fortify", "skill": "Logistics"}
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = table.act(Action("elves", "write_slip", fortify), RandomSource(1), seat="ann")
    table = table.act(Action("orcs", "write_slip", infiltrate), RandomSource(1), seat="bob")
    assert observe(table, "ann").waiting == ()  # the elves may rewrite, play scenes, pass
    spies = {"kind": "conflict", "target": "elves", "outcome": "spies"}
    table = table.act(Action("orcs", "scene", spies), RandomSource(1), seat="bob")
    table = table.act(Action("elves", "pass", {}), RandomSource(1), seat="ann")
    waiting = observe(table, "ann").waiting
    assert [(w.actor, w.reason, w.until, w.section) for w in waiting] == [
        (
            "elves",
            "your slip is sealed and your scenes passed: the reveal waits for the Orcs",
            "until every faction has spent or passed its scenes",
            "Spending Scenes",
        )
    ]
    assert "Infiltrate" not in json.dumps([w.to_json() for w in waiting])
    assert observe(table, "bob").waiting == ()  # the orcs have scenes to play


def test_a_faction_set_up_unable_to_act_is_told_it_has_no_slip_to_script() -> None:
    """Maneuvering in the Chronicle (ruling 12): a faction that cannot act writes no slip. The
    elves start the chronicle unable to act (an earlier status, no maneuver of theirs on the
    record): while the orcs write theirs, the elves' seat is told they cannot act this
    maneuver, with no failed maneuver to name, until the next."""
    setup = _kingdom({"cannot_act": True})
    state = PROCEDURE.initial_state({**setup, "maneuver": 2})
    assert state.history == ()
    said = PROCEDURE.waiting(state, "elves")
    assert said is not None
    assert (said.actor, said.reason, said.until, said.section) == (
        "elves",
        "cannot act this maneuver: no slip to script",
        "until maneuver 3",
        "Maneuvering in the Chronicle",
    )
