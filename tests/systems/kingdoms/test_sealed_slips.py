"""Sealed slips a table can check (issue 12): when a slip is sealed every seat sees its
commitment and nothing of its content; the reveal publishes each slip with its salt, and the
slip must be the one committed. Played with real (random) dice, so the salts are secret ones."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from referee.core import Action, Viewer, observe
from referee.core.fairness import ZERO_SALT, sealed_choices, verify
from referee.core.loader import load_file
from referee.dice import RandomSource
from referee.dice.fairness import check_choice
from referee.systems.kingdoms import SYSTEM

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
