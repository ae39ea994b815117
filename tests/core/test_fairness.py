"""Fair dice at the table (issue 12; docs/fairness.md): committed before play, derived per action
with every seat's own seed mixed in, revealed and verified after — a single altered face, a
swapped action order or a forged seed is caught."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import REFEREE, Action, Event, RuleError, SeatError, Table, observe
from referee.core.errors import ScenarioError
from referee.core.fairness import (
    DICE_COMMITTED,
    DICE_REVEALED,
    DiceSeeds,
    Verification,
    fair_dice,
    reveal_params,
    verify,
)
from referee.core.table import Seat, _Replaying
from referee.dice.fairness import DerivedSource, combine_seeds, commitment

from .test_table import SETUP
from .toy_procedure import PROCEDURE, ToyState

TWO_CHARACTERS: dict[str, Any] = {
    "characters": {
        "scarface": {"skill": 2, "envelope": "owes the Guild"},
        "krockin": {"skill": 1, "envelope": "a Guild spy"},
    }
}


def new_table(seeds: DiceSeeds) -> Table[ToyState]:
    return Table.start(
        PROCEDURE, TWO_CHARACTERS, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
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


# -- a seat's own seed (seed_dice) ---------------------------------------------------------------


def test_a_seats_own_dice_seed_is_recorded_as_that_seats_action() -> None:
    """The table record ("The table record", docs/kernel.md): a kernel dice action is recorded
    like any other — alice's ``seed_dice`` names her seat and her as its actor, its parameters,
    and the one event it made."""
    table = Table.start(
        PROCEDURE,
        SETUP,
        system="kernel_toy",
        players={"alice": ["scarface"]},
        dice=DiceSeeds.new(),
    )
    seeded = table.act(Action("alice", "seed_dice", {"seed": "lucky"}), None, seat="alice")
    record = seeded.actions[-1]
    assert (record.seat, record.actor, record.kind) == ("alice", "alice", "seed_dice")
    assert record.params == {"seed": "lucky"}
    assert record.events == (table.version + 1, seeded.version) == (seeded.version,) * 2


def _fair_toy(seeds: DiceSeeds) -> Table[Any]:
    return Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )


def test_a_seats_own_seed_is_text_of_1_to_200_characters() -> None:
    """Fair dice (docs/fairness.md, "Where it is done": a seat mixes in a seed of its own,
    ``seed_dice``): a seed of 1 or 200 characters is taken; none, or 201, is refused."""
    table = _fair_toy(DiceSeeds.new())
    for text in ("x", "y" * 200):
        seeded = table.act(Action("alice", "seed_dice", {"seed": text}), None, seat="alice")
        assert seeded.log[-1].data == {"seat": "alice", "seed": text}
    for text in ("", "y" * 201):
        with pytest.raises(RuleError, match="a seat's seed is text of 1 to 200 characters"):
            table.act(Action("alice", "seed_dice", {"seed": text}), None, seat="alice")


def test_a_dice_action_whose_parameters_are_not_a_mapping_is_refused_by_the_kernel() -> None:
    """Fair dice (docs/fairness.md): a seat's seed is text of 1 to 200 characters — parameters
    that are not even a mapping are refused by that rule, as a refusal, not a crash."""
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=DiceSeeds.new()
    )
    bad = Action("alice", "seed_dice", ["lucky"])  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="a seat's seed is text of 1 to 200 characters"):
        table.act(bad, None, seat="alice")


def test_every_seats_own_seed_is_mixed_into_the_dice_of_later_actions() -> None:
    """Fair dice (docs/fairness.md, "The table"): the faces of action ``n`` come from the
    epoch's seed mixed with every seed a seat has supplied — alice's and bob's, each under its
    own seat — so neither the keeper nor one player alone chooses them."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    table = Table.start(
        PROCEDURE,
        SETUP,
        system="kernel_toy",
        players={"alice": ["scarface"], "bob": ["krockin"]},
        dice=seeds,
    )
    table = table.act(Action("alice", "seed_dice", {"seed": "lucky"}), None, seat="alice")
    table = table.act(Action("bob", "seed_dice", {"seed": "charm"}), None, seat="bob")
    mixed = {"alice": b"lucky", "bob": b"charm"}
    assert dict(table.ledger.seat_seeds) == mixed
    dice = fair_dice(table, seeds)
    expected = DerivedSource(combine_seeds(seeds.current, mixed), "t-1", 3)
    unmixed = DerivedSource(combine_seeds(seeds.current, {}), "t-1", 3)
    faces = [dice.roll(20) for _ in range(8)]
    assert faces == [expected.roll(20) for _ in range(8)]
    assert faces != [unmixed.roll(20) for _ in range(8)]


# -- the dice seeds, their commitment and their reveal -------------------------------------------


def test_dice_seeds_are_a_tables_id_and_32_byte_seeds() -> None:
    """Fair dice: the keeper's seeds read back are a table's id (text) and one 32-byte seed per
    epoch; the next epoch's seeds keep the table's id."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    assert seeds.next_epoch().table == "t-1" and seeds.next_epoch().epoch == 1
    for bad in (
        {"table": "t-1", "seeds": ["ab" * 31]},
        {"table": 5, "seeds": ["ab" * 32]},
        {"table": "t-1", "seeds": []},
    ):
        with pytest.raises(ScenarioError, match="not a table's dice seeds"):
            DiceSeeds.from_json(bad)
    assert DiceSeeds.from_json({"table": "t-1", "seeds": ["01" * 32]}) == seeds


def test_a_tables_dice_commitment_names_its_table_epoch_and_scheme() -> None:
    """Fair dice: the first public event commits to epoch 0's seed, naming the table and the
    derivation (``referee/die/v1``), for everyone."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    event = seeds.commitment_event()
    assert event.audience.everyone
    assert event.data == {
        "table": "t-1",
        "epoch": 0,
        "commitment": commitment(bytes([1]) * 32),
        "scheme": "referee/die/v1",
    }


def test_a_reveal_commits_the_next_epochs_seed_in_the_same_breath() -> None:
    """Fair dice: ``reveal_dice`` publishes epoch 0's seed and commits epoch 1's — the next
    commitment is 64 hexadecimal digits, for epoch 1 of this table, under the same scheme."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    table = _fair_toy(seeds)
    params, after = reveal_params(seeds)
    with pytest.raises(RuleError, match="the next epoch's commitment is 64 hexadecimal digits"):
        table.act(Action(REFEREE, "reveal_dice", {**params, "next": "ab" * 31}), None)
    revealed = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    first = revealed.log[-2]
    assert (first.kind, first.data) == (DICE_REVEALED, {"epoch": 0, "seed": seeds.current.hex()})
    assert revealed.log[-1].data == after.commitment_event().data
    assert revealed.log[-1].data == {
        "table": "t-1",
        "epoch": 1,
        "commitment": commitment(after.current),
        "scheme": "referee/die/v1",
    }
    assert fair_dice(revealed, after) is not None


def test_the_seeds_of_an_epoch_already_revealed_do_not_roll_the_next() -> None:
    """Fair dice: after a reveal the table's dice come from the next epoch's seed; the seeds
    kept from before it (one epoch short) are refused as not this table's, never read past
    their end."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    params, _ = reveal_params(seeds)
    table = _fair_toy(seeds).act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    with pytest.raises(RuleError, match="not the ones this table committed to"):
        fair_dice(table, seeds)


# -- verifying the dice (fairness.verify) --------------------------------------------------------


def test_a_table_whose_dice_were_never_committed_does_not_verify() -> None:
    """Fair dice (docs/kernel.md): a record with no commitment proves nothing — verification
    says so and counts nothing as checked."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]})
    found = verify(table)
    assert not found.ok
    assert found == Verification(0, 0, 0, ("this table's dice were never committed",), 0)


def test_verification_counts_every_action_and_face_it_checked() -> None:
    """Fair dice: after the reveal, each of the four attacks (two dice a side, four faces
    each) is recomputed from the revealed seed — 4 actions, 16 faces, none still sealed; the
    last of them too, from the seeds as they stood before it (under this fixed seed it makes
    one event, and a seat's own seed follows it at once)."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")] * 2:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    # a seat's own seed right after it: it changes the dice of later actions, not of that one
    table = table.act(Action("alice", "seed_dice", {"seed": "late"}), None, seat="alice")
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    rolled = [a for a in table.actions if a.dice]
    assert rolled[-1].events == (8, 8)
    found = verify(table)
    assert found.ok and (found.checked, found.sealed) == (len(rolled), 0) == (4, 0)
    assert found.dice == sum(len(a.dice) for a in rolled) == 16


def test_verification_checks_the_dice_after_an_action_that_rolled_none() -> None:
    """Fair dice: "recompute every face of every action" — a seat's own seed, an action with
    no dice, comes first and the attacks after it are all still checked."""
    seeds = DiceSeeds.new()
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    table = table.act(Action("alice", "seed_dice", {"seed": "mine"}), None, seat="alice")
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")]:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    found = verify(table)
    assert found.ok and (found.checked, found.dice) == (2, 8)


def test_a_face_the_seed_does_not_give_is_named_with_the_events_it_made() -> None:
    """Fair dice: a face altered in a record is named with its action and every event that
    action made, and no other (a fixed seed, under which that attack makes two events)."""
    seeds = DiceSeeds("t-1", (bytes([3]) * 32,))
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")] * 2:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    data = json.loads(json.dumps(table.to_record()))
    data["actions"][1]["dice"][2][1] = data["actions"][1]["dice"][2][1] % 6 + 1
    forged = Table.from_record(_redecided(data), PROCEDURE)
    (problem,) = verify(forged).problems
    first, last = forged.actions[1].events
    made = ", ".join(f"#{n} {forged.log.events[n - 1].kind}" for n in range(first, last + 1))
    assert (first, last) == (5, 6) and problem.endswith(f" — events {made}")


def test_a_revealed_seed_that_is_not_the_one_committed_is_named() -> None:
    """Fair dice: a record whose revealed seed is not the one committed for its epoch (a
    forged reveal) names that epoch."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    forged = Event(DICE_REVEALED, {"epoch": 0, "seed": (bytes([2]) * 32).hex()})
    table = Table.start(
        PROCEDURE,
        SETUP,
        system="kernel_toy",
        players={"alice": ["scarface"]},
        preamble=[seeds.commitment_event(), forged],
    )
    assert verify(table) == Verification(
        0, 0, 0, ("the seed revealed for epoch 0 is not the one committed",), 0
    )
