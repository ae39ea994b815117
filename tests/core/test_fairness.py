"""Fair dice at the table (issue 12): committed before play, derived per action, revealed and
verified after — a single altered face, a swapped action order or a forged seed is caught."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import REFEREE, Action, Event, RuleError, SeatError, Table, observe
from referee.core.fairness import (
    DICE_COMMITTED,
    DiceSeeds,
    fair_dice,
    reveal_params,
    verify,
)
from referee.core.table import Seat, _Replaying
from referee.dice.fairness import commitment

from .toy_procedure import PROCEDURE, ToyState

SETUP: dict[str, Any] = {
    "characters": {
        "scarface": {"skill": 2, "envelope": "owes the Guild"},
        "krockin": {"skill": 1, "envelope": "a Guild spy"},
    }
}


def new_table(seeds: DiceSeeds) -> Table[ToyState]:
    return Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )


def play(table: Table[ToyState], seeds: DiceSeeds, rng: random.Random, steps: int) -> Table[Any]:
    for _ in range(steps):
        actor = rng.choice(["scarface", "krockin"])
        kind = rng.choice(["attack", "rally", "recall", "perceive"])
        params = {"target": "krockin" if actor == "scarface" else "scarface"}
        if kind in ("rally", "recall"):
            params = {}
        try:
            table = table.act(Action(actor, kind, params), fair_dice(table, seeds))
        except RuleError:
            continue
    return table


def test_the_commitment_is_the_first_public_event_and_the_seed_is_nowhere() -> None:
    seeds = DiceSeeds.new()
    table = play(new_table(seeds), seeds, random.Random(1), 10)
    first = table.log[0]
    assert first.kind == DICE_COMMITTED and first.audience.everyone
    assert first.data["commitment"] == commitment(seeds.current)
    seed = seeds.current.hex()
    assert seed not in json.dumps(table.to_record())
    for seat in table.seats:
        assert seed not in json.dumps(observe(table, seat.id).to_json()), seat.id


def test_the_same_seed_gives_the_same_faces_and_a_record_replays_with_them() -> None:
    seeds = DiceSeeds.new()
    once = play(new_table(seeds), seeds, random.Random(2), 12)
    again = play(new_table(seeds), seeds, random.Random(2), 12)
    assert once.to_record()["actions"] == again.to_record()["actions"]
    record = json.loads(json.dumps(once.to_record()))
    assert Table.from_record(record, PROCEDURE) == once


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 15))
def test_after_the_reveal_every_face_verifies(seed: int, steps: int) -> None:
    seeds = DiceSeeds.new()
    table = play(new_table(seeds), seeds, random.Random(seed), steps)
    assert verify(table).sealed == sum(1 for r in table.actions if r.dice)
    params, seeds = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    report = verify(table)
    assert report.ok and report.sealed == 0
    assert report.checked == sum(1 for r in table.actions if r.dice)
    # play goes on under the next epoch's seed, committed with the reveal
    table = play(table, seeds, random.Random(seed + 1), 3)
    assert verify(table).ok
    assert Table.from_record(json.loads(json.dumps(table.to_record())), PROCEDURE) == table


def revealed_table() -> tuple[Table[Any], dict[str, Any]]:
    seeds = DiceSeeds.new()
    table = new_table(seeds)
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")] * 2:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    return table, table.to_record()


def test_a_single_altered_face_is_named_with_its_events() -> None:
    _, record = revealed_table()
    data = json.loads(json.dumps(record))
    action = data["actions"][1]
    action["dice"][2][1] = action["dice"][2][1] % 6 + 1
    # the events are made to match the altered face, so the record itself re-decides ...
    forged = Table.from_record(_redecided(data), PROCEDURE)
    # ... but the seed does not give that face
    report = verify(forged)
    assert not report.ok
    assert len(report.problems) == 1
    assert report.problems[0].startswith("action 2 (attack by krockin): die 3 (a d6)")
    assert "attack.rolled" in report.problems[0]


def _redecided(data: dict[str, Any]) -> dict[str, Any]:
    """A forger's record: the altered dice replayed into matching events."""
    commitment_event = replace(Event.from_json(data["events"][0]), number=0, at=0)
    table = Table.start(
        PROCEDURE,
        data["setup"],
        system="kernel_toy",
        seats=[Seat(s["id"], tuple(s["plays"])) for s in data["seats"]],
        preamble=[commitment_event],
    )
    for entry in data["actions"]:
        action = Action(entry["actor"], entry["kind"], entry["params"])
        dice = _Replaying([(sides, face) for sides, face in entry["dice"]])
        table = table.act(action, dice, seat=entry["seat"])
    return table.to_record()


def test_a_swapped_action_order_is_caught() -> None:
    _, record = revealed_table()
    data = json.loads(json.dumps(record))
    data["actions"][0], data["actions"][2] = data["actions"][2], data["actions"][0]
    for number, entry in enumerate(data["actions"], start=1):
        entry["number"] = number
    report = verify(Table.from_record(_redecided(data), PROCEDURE))
    assert not report.ok
    assert {p.split(" ", 2)[1] for p in report.problems} >= {"1", "3"}


def test_a_forged_seed_is_refused_and_only_the_referee_reveals() -> None:
    seeds = DiceSeeds.new()
    table = new_table(seeds)
    forged = {"seed": DiceSeeds.new().current.hex(), "next": "0" * 64}
    with pytest.raises(RuleError, match="not the one committed for epoch 0"):
        table.act(Action(REFEREE, "reveal_dice", forged), None, seat=REFEREE)
    params, _ = reveal_params(seeds)
    with pytest.raises(SeatError, match="only the referee reveals"):
        table.act(Action("alice", "reveal_dice", params), None, seat="alice")
    with pytest.raises(RuleError, match="not the ones this table committed to"):
        fair_dice(table, DiceSeeds.new(seeds.table))


def test_a_seats_seed_changes_every_later_face() -> None:
    seeds = DiceSeeds.new()
    table = new_table(seeds)
    plain = fair_dice(table, seeds)
    seeded = table.act(Action("alice", "seed_dice", {"seed": "my lucky day"}), None, seat="alice")
    assert seeded.log[-1].data == {"seat": "alice", "seed": "my lucky day"}
    mixed = fair_dice(seeded, seeds)
    faces_plain = [plain.roll(20) for _ in range(8)]
    faces_mixed = [mixed.roll(20) for _ in range(8)]
    assert faces_plain != faces_mixed
    attacked = seeded.act(
        Action("scarface", "attack", {"target": "krockin"}), fair_dice(seeded, seeds)
    )
    params, _ = reveal_params(seeds)
    assert verify(attacked.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)).ok


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["play", "seed", "reveal", "undo"]), max_size=12), st.integers())
def test_the_ledger_a_table_keeps_is_the_fold_of_its_log(steps: list[str], seed: int) -> None:
    """``Table.ledger`` (what the next action's dice are derived from, kept so that no roll
    reads the old log) is at every step what the whole log's dice events say: after a seat's
    seed, a reveal, an undo of either, and a replay of the record."""
    from referee.core.fairness import _dice_state

    seeds = DiceSeeds.new()
    table, rng = new_table(seeds), random.Random(seed)
    seeds_at = {0: seeds}  # the seeds in force after each number of actions (an undo goes back)
    for step in steps:
        before = len(table.actions)
        if step == "play":
            table = play(table, seeds, rng, 2)
        elif step == "seed":
            seeded = Action("alice", "seed_dice", {"seed": f"s{rng.random()}"})
            table = table.act(seeded, None, seat="alice")
        elif step == "reveal":
            params, seeds = reveal_params(seeds)
            table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
        elif table.actions:
            table = table.undo(1)
            seeds = seeds_at[len(table.actions)]
        for count in range(before + 1, len(table.actions) + 1):
            seeds_at[count] = seeds
        assert table.ledger == _dice_state(table.log)
    again = Table.from_record(json.loads(json.dumps(table.to_record())), PROCEDURE)
    assert again.ledger == table.ledger
